"""A game of Gin Rummy, for two, three or four, kept in a file
(``umtali.session.kept.KeptGame``): saved, locked, resumed where it stopped, and refused
with the reason when it cannot be played on."""

from __future__ import annotations

import json
from contextlib import nullcontext
from pathlib import Path

import pytest

from umtali.games.gin.party_session import GinPartySession
from umtali.games.gin.rules import OKLAHOMA
from umtali.games.gin.session import GinPlaySession
from umtali.games.umtali.session import PlaySession
from umtali.kernel.files import SaveLock
from umtali.kernel.record import save_file
from umtali.session.kept import KeptGame, ResumeError


def started(seed: int = 6) -> GinPlaySession:
    """A game of Oklahoma Gin against the greedy level, a few moves in: the computer's,
    and the person's (always the first move listed) until he has discarded once."""
    session = GinPlaySession.new(seed=seed, humans={0}, bot="greedy", rules=OKLAHOMA)
    session.deal()
    discarded = False
    while not discarded:
        seat = session.to_move()
        if seat == 0:
            move = session.view(0).legal[0]
            session.submit(0, move)
            discarded = move.kind in ("discard", "knock")
        else:
            session.bot_move()
    return session


def test_a_game_of_gin_is_saved_and_resumed_where_it_stopped(tmp_path: Path) -> None:
    session = started()
    kept = KeptGame(session, None)
    assert kept.worth_saving  # the person has moved
    path = kept.save_anywhere(print, folders=(tmp_path,))
    assert path is not None
    assert path.name.startswith("umtali-")
    kept.close()

    lock = SaveLock.acquire(path)
    resumed = KeptGame.resume(str(path), lock, guard=nullcontext)
    try:
        assert isinstance(resumed.session, GinPlaySession)
        again = resumed.session
        assert again.match.rules == OKLAHOMA
        assert again.levels == (None, "greedy")
        assert again.match.hands[0].history == session.match.hands[0].history
        assert again.to_move() == session.to_move()
        # The computer plays on as it would have: its decisions come from the seed.
        if again.to_move() == 1:
            assert again.bot_move().move == session.bot_move().move
        assert resumed.worth_saving  # read from a file: kept however it stops
    finally:
        resumed.close()


def test_each_game_is_resumed_as_its_own(tmp_path: Path) -> None:
    umtali = PlaySession.new(seed=3, humans={0})
    umtali.deal()
    save_file(umtali.match, tmp_path / "umtali.json")
    kept = KeptGame.resume(str(tmp_path / "umtali.json"), SaveLock.acquire(tmp_path / "u.json"),
                           guard=nullcontext)  # fmt: skip
    assert isinstance(kept.session, PlaySession)
    kept.close()


def test_a_gin_record_without_its_seats_cannot_be_played_on(tmp_path: Path) -> None:
    session = GinPlaySession.between_bots(("greedy", "random"), "2/0")
    session.deal()
    save_file(session.match, tmp_path / "arena.json")
    lock = SaveLock.acquire(tmp_path / "arena.json")
    with pytest.raises(ResumeError, match="it was not saved by 'umtali play'"):
        KeptGame.resume(str(tmp_path / "arena.json"), lock, guard=nullcontext)
    # The lock was let go: the file may be taken again at once.
    SaveLock.acquire(tmp_path / "arena.json").release()


def test_a_gin_record_with_the_arenas_openspiel_level_is_refused(tmp_path: Path) -> None:
    session = started()
    save_file(session.match, tmp_path / "g.json")
    record = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
    record["meta"]["bot"] = "openspiel"  # the arena's opponent, never a person's
    del record["digest"]
    (tmp_path / "g.json").write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(
        ResumeError, match="its 'bot' must be one of random, greedy, expert, not 'openspiel'"
    ):
        KeptGame.resume(str(tmp_path / "g.json"), SaveLock.acquire(tmp_path / "g.json"),
                        guard=nullcontext)  # fmt: skip


# -- three- and four-hand ------------------------------------------------------------------------


def party_under_way(players: int, seed: int) -> GinPartySession:
    """A party game against the greedy level, its first deal counted and the next dealt:
    the person (player 0) has played the first move listed until he discarded once."""
    party = GinPartySession.new(players=players, seed=seed, humans={0}, bot="greedy")
    for hand in party.deal():
        while (seat := hand.session.to_move()) is not None:
            if seat in hand.session.humans:
                hand.session.submit(seat, hand.session.view(seat).legal[0])
            else:
                hand.session.bot_move()
    party.count()
    for hand in party.deal():
        discarded = False
        while not discarded and (seat := hand.session.to_move()) is not None:
            if seat in hand.session.humans:
                move = hand.session.view(seat).legal[0]
                hand.session.submit(seat, move)
                discarded = move.kind in ("discard", "knock")
            else:
                hand.session.bot_move()
    return party


@pytest.mark.parametrize("players", [3, 4])
def test_a_party_game_is_resumed_mid_deal_where_it_stopped(players: int, tmp_path: Path) -> None:
    party = party_under_way(players, seed=11)
    kept = KeptGame(party, None)
    assert kept.worth_saving
    path = kept.save_anywhere(print, folders=(tmp_path,))
    assert path is not None
    kept.close()

    resumed = KeptGame.resume(str(path), SaveLock.acquire(path), guard=nullcontext)
    try:
        again = resumed.session
        assert isinstance(again, GinPartySession)
        assert again.names == party.names
        assert again.levels == party.levels
        assert again.party_game.totals() == party.party_game.totals()
        assert not again.needs_deal()  # the deal under way is played on, not dealt again
        under_way = [(hand.table, hand.number) for hand in party.under_way()]
        assert [(hand.table, hand.number) for hand in again.under_way()] == under_way
        for old, new in zip(party.under_way(), again.under_way(), strict=True):
            assert new.session.match.hands[0].history == old.session.match.hands[0].history
            assert new.session.seed == old.session.seed
            # The computers play on as they would have: their decisions come from the seed.
            if (seat := new.session.to_move()) is not None and seat not in new.session.humans:
                assert new.session.bot_move().move == old.session.bot_move().move
    finally:
        resumed.close()


def test_a_party_record_whose_draw_was_changed_is_not_played_on(tmp_path: Path) -> None:
    party = party_under_way(3, seed=12)
    save_file(party.match, tmp_path / "p.json")
    record = json.loads((tmp_path / "p.json").read_text(encoding="utf-8"))
    # Three other cards drawn put another player alone: a hand-written record may do so,
    # but not one 'umtali play' saved from its seed. The hands are left out, since they
    # would no longer sit at the seats the new draw gives.
    record["party"]["drawn"] = ["2c", "3c", "4c"]
    record["hands"] = []
    del record["digest"]
    (tmp_path / "p.json").write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(ResumeError, match="its draw for places is not the one its seed made"):
        KeptGame.resume(str(tmp_path / "p.json"), SaveLock.acquire(tmp_path / "p.json"),
                        guard=nullcontext)  # fmt: skip


def test_a_party_record_with_a_seat_out_of_the_game_is_refused(tmp_path: Path) -> None:
    party = party_under_way(4, seed=13)
    save_file(party.match, tmp_path / "p.json")
    record = json.loads((tmp_path / "p.json").read_text(encoding="utf-8"))
    record["meta"]["humans"] = [4]
    del record["digest"]
    (tmp_path / "p.json").write_text(json.dumps(record), encoding="utf-8")
    with pytest.raises(ResumeError, match=r"its 'humans' must list the seats .* 0 to 3"):
        KeptGame.resume(str(tmp_path / "p.json"), SaveLock.acquire(tmp_path / "p.json"),
                        guard=nullcontext)  # fmt: skip
