"""The play session every front end drives: its seed scheme, resumed games, the computer's
moves, hints, recaps, the undo rule, and the arena's games played through it."""

from __future__ import annotations

import dataclasses
import random
import subprocess
import sys
from contextlib import nullcontext
from pathlib import Path

import pytest

from tests.scripted import typed_terminal
from umtali.games.umtali.bots import BOTS
from umtali.games.umtali.moves import Move, MoveKind
from umtali.games.umtali.record import loads
from umtali.games.umtali.rules import PRACTICAL, STANDARD
from umtali.games.umtali.session import (
    BotError,
    PlaySession,
    Refused,
    ScoreSheet,
    Seats,
    SeatsError,
    SeatsSeen,
    decision_rng,
    deck_for,
    first_dealer_for,
    summarize_hand,
    table_mask,
    why,
)
from umtali.kernel.cards import rank_of
from umtali.session.kept import KeptGame, ResumeError
from umtali.session.shared import Accepted


def first_moves(session: PlaySession, moves: int | None = None) -> None:
    """Play on: the computer as it plays, each person his first legal move; stop when a
    person is to move after ``moves`` moves of the people (or at the end of the match)."""
    while not session.is_over():
        if session.needs_deal():
            session.deal()
            continue
        seat = session.to_move()
        assert seat is not None
        if seat in session.humans:
            if moves == 0:
                return
            reply = session.submit(seat, session.view(seat).legal[0])
            assert isinstance(reply, Accepted)
            moves = None if moves is None else moves - 1
        else:
            session.bot_move()


def moves_of(session: PlaySession) -> list[list[str]]:
    return [[m.text() for m in hand.moves_played()] for hand in session.match.hands]


def test_a_resumed_game_plays_on_as_the_uninterrupted_one() -> None:
    whole = PlaySession.new(seed=21, humans={0}, bot="expert")
    first_moves(whole)
    halfway = PlaySession.new(seed=21, humans={0}, bot="expert")
    first_moves(halfway, moves=30)
    resumed = PlaySession.of_match(loads(halfway.record()))
    assert resumed.levels == (None, "expert")
    first_moves(resumed)
    assert moves_of(resumed) == moves_of(whole)
    assert resumed.is_over()


def test_the_seed_scheme() -> None:
    session = PlaySession.new(seed=5, humans={1}, bot="random")
    assert session.match.first_dealer == first_dealer_for(5)
    session.deal()
    assert tuple(session.match.hands[0].deck) == deck_for(5, 0)
    assert Seats.of(session.match.meta, BOTS) == Seats(5, frozenset({1}), "random")
    assert session.match.players == ("Computer (Beginner)", "You")
    # Each decision its own RNG: the same numbers, whatever came before.
    assert decision_rng(5, 0, 4).random() == decision_rng(5, 0, 4).random()
    assert decision_rng(5, 0, 4).random() != decision_rng(5, 1, 4).random()


def test_a_record_with_other_deals_is_refused() -> None:
    session = PlaySession.new(seed=5, humans={0}, bot="greedy")
    session.deal()
    match = loads(session.record())
    match.meta["seed"] = 6
    with pytest.raises(SeatsError, match="changed after it was saved"):
        PlaySession.of_match(match)
    match.meta = {}
    with pytest.raises(SeatsError, match="not saved by 'umtali play'"):
        PlaySession.of_match(match)


def test_submit_refuses_with_the_engines_reason_and_changes_nothing() -> None:
    session = PlaySession.new(seed=3, humans={0}, bot="greedy")
    session.deal()
    first_moves(session, moves=0)  # the computer's opening, if it opens
    before = moves_of(session)
    refused = session.submit(0, "discard 9h")
    assert isinstance(refused, Refused)
    assert "must first draw" in refused.reason
    assert isinstance(session.submit(0, "fly away"), Refused)
    assert isinstance(session.submit(1, "draw"), Refused)  # not his turn
    assert moves_of(session) == before
    assert isinstance(session.check(0, "draw"), Accepted)
    assert moves_of(session) == before


def test_bot_moves_are_told_as_the_other_player_saw_them() -> None:
    session = PlaySession.new(seed=3, humans={0}, bot="greedy")
    first_moves(session, moves=6)
    recap = session.recap(0)
    assert recap.since_own_move
    for line in recap.lines:
        assert line.startswith("Computer (Casual) ")
        assert "draws from the stock" in line or " from the stock" not in line  # no card


def test_a_hint_is_a_legal_move_with_a_reason_and_changes_nothing() -> None:
    plain = PlaySession.new(seed=8, humans={0}, bot="search")
    hinted = PlaySession.new(seed=8, humans={0}, bot="search")
    for session in (plain, hinted):
        first_moves(session, moves=0)
    hint = hinted.hint(0)
    assert not isinstance(hint, Refused)
    assert hint.move in hinted.view(0).legal
    assert hint.level == "search"
    assert hint.why
    for session in (plain, hinted):
        first_moves(session, moves=6)
    assert moves_of(plain) == moves_of(hinted)


@pytest.mark.parametrize("seed", range(6))
def test_why_explains_every_kind_of_move(seed: int) -> None:
    session = PlaySession.new(seed=seed, humans={0, 1}, bot="greedy")
    session.deal()
    while not session.is_over() and session.hand is not None:
        seat = session.to_move()
        assert seat is not None
        view = session.view(seat)
        for move in view.legal:
            reason = why(view, move)
            assert reason, move
            assert "{" not in reason, (move, reason)
        session.submit(seat, view.legal[-1])


@pytest.mark.parametrize("seed", range(8))
def test_why_explains_the_practical_presets_moves(seed: int) -> None:
    # Seed 003's game: deep takes, optional melding, two-card melds on the last turns.
    session = PlaySession.new(seed=seed, humans={0, 1}, rules=PRACTICAL)
    assert session.match.rules is PRACTICAL
    session.deal()
    rng = random.Random(seed)
    while not session.is_over() and session.hand is not None:
        seat = session.to_move()
        assert seat is not None
        view = session.view(seat)
        for move in view.legal:
            reason = why(view, move)
            assert reason, move
            assert "{" not in reason, (move, reason)
            if move.kind is MoveKind.TAKE and len(view.cards_taken_by(move)) > 1:
                assert "card(s) above it" in reason
            if move.kind is MoveKind.PAIR and rank_of(move.cards[0]) != rank_of(move.cards[1]):
                assert "two-card run" in reason, reason
            assert "must be played" not in reason  # melding is optional in this preset
        session.submit(seat, rng.choice(view.legal))
    assert session.match.hands[0].outcome() is not None


# -- undo ------------------------------------------------------------------------------------------


def at_a_play(session: PlaySession, seat: int) -> None:
    """Play first moves until ``seat`` may lay a card on the table (after a draw)."""
    while True:
        if session.needs_deal():
            session.deal()
        mover = session.to_move()
        assert mover is not None
        legal = session.view(mover).legal
        plays = any(m.kind in (MoveKind.MELD, MoveKind.SOLO) for m in legal)
        if mover == seat and plays and session.hand is not None and session.hand.history:
            return
        if mover in session.humans:
            session.submit(mover, legal[0])
        else:
            session.bot_move()


def test_undo_within_a_turn_takes_back_a_play_and_the_record_forgets_it() -> None:
    session = PlaySession.new(seed=3, humans={0}, bot="greedy")
    at_a_play(session, 0)
    before = session.record()
    play = next(m for m in session.view(0).legal if m.kind in (MoveKind.MELD, MoveKind.SOLO))
    assert isinstance(session.submit(0, play), Accepted)
    undone = session.undo(0)
    assert isinstance(undone, Accepted)
    assert undone.move == play
    assert session.record() == before


def test_undo_never_takes_back_what_showed_something_new() -> None:
    session = PlaySession.new(seed=3, humans={0}, bot="greedy")
    session.deal()
    assert "no move of yours" in (session.undo_refusal(0) or "")
    first_moves(session, moves=0)
    hand = session.hand
    assert hand is not None
    if Move.keep() in session.view(0).legal:
        session.submit(0, Move.keep())
        assert "11th card" in (session.undo_refusal(0) or "")
    # A draw from the stock showed a card.
    first_moves(session, moves=0)
    while Move.draw() not in session.view(0).legal:
        first_moves(session, moves=1)
        first_moves(session, moves=0)
    session.submit(0, Move.draw())
    assert "drew from the stock" in (session.undo_refusal(0) or "")
    # Once the computer has moved, its moves have been seen.
    while session.to_move() == 0:
        session.submit(0, session.view(0).legal[0])
    assert session.hand is not None, "the hand ended"
    session.bot_move()
    refusal = session.undo_refusal(0)
    assert refusal is not None
    assert "Computer (Casual) has moved since" in refusal
    assert isinstance(session.undo(1), Refused)  # the computer takes nothing back


def test_hotseat_undo_of_a_passed_turn_needs_the_other_players_consent() -> None:
    session = PlaySession.new(seed=6, humans={0, 1}, bot="search")
    session.deal()
    # Play until a player's discard passes the turn to the other.
    while True:
        seat = session.to_move()
        assert seat is not None
        legal = session.view(seat).legal
        discard = next((m for m in legal if m.kind is MoveKind.DISCARD), None)
        if discard is not None and session.hand is not None and session.hand.turn > 1:
            session.submit(seat, discard)
            break
        session.submit(seat, legal[0])
    assert session.to_move() == 1 - seat
    assert session.undo_needs_consent(seat)
    refused = session.undo(seat)
    assert isinstance(refused, Refused)
    assert "must agree" in refused.reason
    assert isinstance(session.undo(seat, consent=True), Accepted)
    assert session.to_move() == seat


def test_a_hotseat_undo_at_the_hand_over_in_the_terminal() -> None:
    from umtali.cli.terminal import QuitRequested
    from umtali.games.umtali.terminal.play import Game
    from umtali.session.kept import KeptGame

    session = PlaySession.new(seed=6, humans={0, 1}, bot="search")
    session.deal()
    while True:  # to the first discard after the opening turn
        seat = session.to_move()
        assert seat is not None
        legal = session.view(seat).legal
        discards = any(m.kind is MoveKind.DISCARD for m in legal)
        if discards and session.hand is not None and session.hand.turn > 1:
            break
        session.submit(seat, legal[0])
    discard = next(m for m in session.view(seat).legal if m.kind is MoveKind.DISCARD)
    session.submit(seat, discard)
    # At the hand-over: undo, the other player says no, then undo again and yes.
    term, out = typed_terminal(["undo", "no", "undo", "yes", "quit"])
    game = Game(term, KeptGame(session, None))
    game.seen.look(seat)  # the player who discarded was the last at the keyboard
    with pytest.raises(QuitRequested):
        game.run()
    text = out.getvalue()
    other = f"Player {2 - seat}"
    assert f"{other}: may Player {seat + 1} take the last move back? (yes/no)" in text
    assert "The move stands." in text
    assert f"Taken back: {discard}." in text
    assert session.to_move() == seat


# -- the arena's games -------------------------------------------------------------------------------


def test_two_bots_play_out_a_game_reproducibly() -> None:
    first = PlaySession.between_bots(("random", "greedy"), "11/0")
    again = PlaySession.between_bots(("random", "greedy"), "11/0")
    steps = first.play_out()
    again.play_out()
    assert moves_of(first) == moves_of(again)
    assert len(steps) == sum(len(m) for m in moves_of(first))
    assert first.is_over()
    assert all(s.seconds >= 0 for s in steps)


def test_a_bot_that_breaks_the_rules_is_named() -> None:
    session = PlaySession.between_bots(("greedy", "random"), "1/0")
    session.deal()

    class Cheat:
        name = "cheat"

        def choose(self, view: object, rng: object, *, deadline: object = None) -> Move:
            return Move.forfeit()

    session.bots = (Cheat(), Cheat())
    with pytest.raises(BotError, match="hand 1, decision 1: the bot chose") as caught:
        session.bot_move()
    assert caught.value.hand_index == 0


def test_importing_the_session_loads_neither_rich_nor_the_cli() -> None:
    check = (
        "import umtali.games.umtali.session, umtali.session.kept, sys;"
        " assert 'rich' not in sys.modules, 'rich';"
        " assert not [m for m in sys.modules if m.startswith('umtali.cli')], 'cli'"
    )
    result = subprocess.run(
        [sys.executable, "-c", check], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr


# -- what the screens show, as plain data --------------------------------------------------------


def test_the_end_of_a_hand_as_data() -> None:
    from umtali.games.umtali.lessons import LESSONS

    hand = LESSONS[0].state_at()
    outcome = hand.outcome()
    assert outcome is not None
    summary = summarize_hand(hand, ("You", "Computer (Expert)"))
    assert (
        summary.ended == "Computer (Expert) went out first, and you went out too on the last turn"
    )
    assert summary.result == "You win the hand."
    assert summary.winner == 0
    for seat, side in enumerate(summary.sides):
        assert side.score == outcome.scores[seat]
        assert [column.cards for column in side.columns] == [
            tuple(column.top_down()) for column in hand.table(seat)
        ]
        # Both went out: nothing forfeited, nothing left over.
        assert not side.forfeit_won
        assert not side.left
    kinds = {column.kind for side in summary.sides for column in side.columns}
    assert {"sequence", "group"} <= kinds


def test_a_forfeit_is_one_sides_gain_and_the_others_loss() -> None:
    session = PlaySession.between_bots(("random", "random"), 0, kind="hand")
    session.play_out()
    hand = session.match.hands[0]
    outcome = hand.outcome()
    assert outcome is not None
    summary = summarize_hand(hand, ("A", "B"))
    assert summary.result == (
        "The hand is drawn." if outcome.winner is None else f"{'AB'[outcome.winner]} wins the hand."
    )
    for seat, side in enumerate(summary.sides):
        assert side.left == hand.hand(seat)
        assert side.left_scored == (bool(outcome.went_out) and seat not in outcome.went_out)
        assert side.left_label == (
            f"forfeited to {'AB'[1 - seat]}"
            if side.left_scored
            else "left in hand, scoring for nobody"
        )
    with pytest.raises(ValueError, match="not over"):
        summarize_hand(PlaySession.new(seed=1, humans={0}).deal(), ("A", "B"))


def test_a_title_names_the_rules_unless_they_are_the_standard_ones() -> None:
    """The terminal prints the title over each hand and the browser makes it the page's
    title: a game to the practical rules says so in both."""
    practical = PlaySession.between_bots(("greedy", "random"), 4, rules=PRACTICAL)
    practical.deal()
    dealer = practical.match.hands[0].dealer
    deals = f"{('A', 'B')[dealer]} deals"
    assert practical.hand_title(("A", "B")) == f"Game 1, hand 1 of 4 · practical rules · {deals}"
    single = PlaySession.between_bots(("greedy", "random"), 4, kind="hand", rules=PRACTICAL)
    single.deal()
    assert single.hand_title(("A", "B"), dealer=False) == "A single hand · practical rules"
    changed = dataclasses.replace(STANDARD, marriage_multiplier=3)
    house = PlaySession.between_bots(("greedy", "random"), 4, rules=changed)
    house.deal()
    assert (
        house.hand_title(("A", "B"), dealer=False)
        == "Game 1, hand 1 of 4 · standard rules, changed"
    )


def test_the_score_sheet_hand_title_and_result() -> None:
    session = PlaySession.between_bots(("greedy", "random"), 4, kind="session")
    assert session.score_sheet() == ScoreSheet((), (0, 0), None)
    session.deal()
    names = ("A", "B")
    assert session.hand_title(names).startswith("Game 1, hand 1 of 4 · ")
    assert session.hand_title(names, dealer=False) == "Game 1, hand 1 of 4"
    session.bot_move()
    assert session.score_sheet(running=True).this_hand == session.match.hands[0].played_points()
    session.play_out()
    sheet = session.score_sheet(running=True)
    assert sheet.this_hand is None  # no hand under way
    assert sheet.games_won == session.match.games_won()
    for number, hands, totals in sheet.games:
        assert len(hands) == 4
        assert totals == session.match.game_totals(number - 1)
    winner = session.match.winner()
    assert winner is not None
    assert session.result(names) == f"{names[winner]} wins the session."


def test_a_rematch_keeps_the_seats_level_and_kind_with_a_new_deal() -> None:
    session = PlaySession.new(seed=5, humans={0}, bot="greedy", kind="session")
    again = session.rematch(6)
    assert (again.levels, again.match.kind, again.seed) == (session.levels, "session", 6)
    assert again.match.players == session.match.players
    hotseat = PlaySession.new(seed=5, humans={0, 1}).rematch(7)
    assert hotseat.hotseat


def test_a_refusal_reads_as_a_sentence() -> None:
    assert Refused("it is not your turn").sentence == "It is not your turn."


# -- what each seat has seen ---------------------------------------------------------------------


def test_each_seat_is_shown_what_came_on_the_table_since_it_last_looked() -> None:
    session = PlaySession.new(seed=8, humans={0}, bot="greedy")
    session.deal()
    seen = SeatsSeen(session)
    last_table: int | None = None  # (None: his first look at the hand marks nothing)
    last_turn: int | None = None
    marked = 0
    while session.hand is not None:
        if session.to_move() == 1:
            session.bot_move()
            continue
        turn, on_table = session.hand.turn, table_mask(session.view(0))
        look = seen.look(0)
        assert look.new == (0 if last_table is None else on_table & ~last_table)
        assert look.whole == (turn != last_turn)
        assert seen.look(0).whole is False  # the same turn, looked at again
        marked += look.new != 0
        last_table, last_turn = on_table, turn
        session.submit(0, session.view(0).legal[0])
    assert marked > 0, "the computer put nothing on the table: choose another seed"
    # A new hand: nothing of it seen, nothing marked, the whole board shown.
    session.deal()
    while session.to_move() == 1:
        session.bot_move()
    first = seen.look(0)
    assert first.whole
    assert first.new == 0


def test_the_keyboard_changes_hands_in_hotseat_only() -> None:
    hotseat = PlaySession.new(seed=3, humans={0, 1})
    hotseat.deal()
    seen = SeatsSeen(hotseat)
    seat = hotseat.to_move()
    assert seat is not None
    assert seen.hand_over_due(seat)  # nobody has looked yet: hide the screen first
    seen.look(seat)
    assert not seen.hand_over_due(seat)
    assert seen.hand_over_due(1 - seat)
    seen.forget_turn()  # the screen was cleared: the same turn is shown whole again
    assert seen.look(seat).whole
    alone = PlaySession.new(seed=3, humans={0}, bot="greedy")
    alone.deal()
    assert not SeatsSeen(alone).hand_over_due(0)


def test_the_recap_of_a_hand_that_has_just_ended() -> None:
    session = PlaySession.new(seed=12, humans={0}, bot="greedy")
    session.deal()
    told: list[str] = []  # the computer's moves since the person's last one, as he saw them
    while session.hand is not None:
        if session.to_move() == 1:
            told.append(session.tell(0, session.bot_move().index))
        else:
            told.clear()
            session.submit(0, session.view(0).legal[0])
    recap = session.recap(0)  # the hand is over, and no other is dealt yet
    assert recap.since_own_move
    assert list(recap.lines) == told
    assert session.recap(0, 0) == recap
    session.deal()
    assert session.recap(0, 0) == recap  # still there once the next hand is dealt
    with pytest.raises(ValueError, match="no hand 2: 2 dealt so far"):
        session.recap(0, 2)


def test_a_session_knows_whether_a_person_has_moved() -> None:
    session = PlaySession.new(seed=3, humans={0}, bot="greedy")
    session.deal()
    while session.to_move() == 1:
        session.bot_move()
    assert not session.moved_by_person  # the computer's moves do not count
    assert isinstance(session.submit(0, "discard Zz"), Refused)
    assert not session.moved_by_person
    session.submit(0, session.view(0).legal[0])
    assert session.moved_by_person


# -- a game kept in a file --------------------------------------------------------------------------


def test_a_new_game_is_worth_saving_once_a_person_moved_or_it_has_a_file(tmp_path: Path) -> None:
    session = PlaySession.new(seed=3, humans={0}, bot="greedy")
    kept = KeptGame(session, None)
    assert not kept.worth_saving
    first_moves(session, moves=0)
    assert not kept.worth_saving  # the computer may have moved; the person has not
    first_moves(session, moves=1)
    assert kept.worth_saving
    assert KeptGame(PlaySession.new(seed=3, humans={0}), tmp_path / "g.json").worth_saving


def test_a_save_that_fails_goes_to_the_next_folder_and_the_game_is_kept_there(
    tmp_path: Path,
) -> None:
    from umtali.kernel.files import SaveLock

    session = PlaySession.new(seed=3, humans={0}, bot="greedy")
    first_moves(session, moves=2)
    gone = tmp_path / "gone" / "game.json"  # its folder does not exist
    told: list[str] = []
    kept = KeptGame(session, gone)
    with pytest.raises(FileNotFoundError):
        kept.autosave()
    path = kept.save_anywhere(told.append, folders=(tmp_path / "missing", tmp_path))
    assert path is not None
    assert path.parent == tmp_path
    assert told[0].startswith(f"The game could not be saved to {gone}: ")
    assert told[1].startswith(f"The game could not be saved in {tmp_path / 'missing'}: ")
    assert len(told) == 2
    assert kept.path == path
    assert kept.lock is not None
    assert SaveLock.lock_path_of(path).exists()  # locked while the game is played
    assert loads(path.read_text(encoding="utf-8")).hands[0].moves_played()
    kept.close()
    assert not SaveLock.lock_path_of(path).exists()


def test_a_game_that_cannot_be_resumed_lets_go_of_its_file(tmp_path: Path) -> None:
    from umtali.kernel.files import SaveLock

    over = PlaySession.between_bots(("random", "random"), 4, kind="hand")
    over.play_out()
    finished = tmp_path / "over.json"
    finished.write_text(over.record(), encoding="utf-8")
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    for record, message in ((finished, "is already over"), (broken, "cannot resume")):
        with pytest.raises(ResumeError, match=message):
            KeptGame.resume(str(record), SaveLock.acquire(record), guard=nullcontext)
        SaveLock.acquire(record).release()  # the refused resume let go of the lock
    playing = PlaySession.new(seed=3, humans={0}, bot="greedy")
    first_moves(playing, moves=2)
    saved = tmp_path / "saved.json"
    saved.write_text(playing.record(), encoding="utf-8")
    kept = KeptGame.resume(str(saved), SaveLock.acquire(saved), guard=nullcontext)
    assert kept.worth_saving
    assert kept.path == saved
    assert isinstance(kept.session, PlaySession)
    assert moves_of(kept.session) == moves_of(playing)
    kept.close()
