"""One conformance suite for every registered game and seat count, in the manner of
OpenSpiel's ``api_test``: whatever the game, its sessions play whole games between the
computer levels, its records and replays round-trip, a game kept in a file resumes, a
refused move changes nothing, and a person's seat plays through the same protocol the
front ends use (:class:`umtali.games.api.Session`). Toy, the game registered only in the
tests (:mod:`tests.toy_game`), passes the same checks as the games built in.

The front ends' side of the suite (the terminal, the arena, the replay and the web API
playing every game) is in tests/test_conformance_front_ends.py.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import nullcontext
from pathlib import Path

import pytest

import tests.toy_game
from umtali import games
from umtali.games.api import Accepted, GameSpec, Refused, Session
from umtali.games.events import HandBegins, MatchEnds, Moved
from umtali.kernel.files import SaveLock
from umtali.kernel.record import dumps, loads_any, record_digest
from umtali.replaying import events
from umtali.session.kept import KeptGame

MOVES_CAP = 20_000
"""Far more moves than any game of any registered game takes: a game that does not end
within it is a fault of the game, found here rather than as a hung test."""


@pytest.fixture(autouse=True, scope="module")
def toy_registered() -> Iterator[None]:
    """Toy in the registry for this module's tests (the built-in games are there anyway)."""
    with tests.toy_game.registered():
        yield


CASES = [
    pytest.param(spec.name, seats, id=f"{spec.name}-{seats}")
    for spec in tests.toy_game.every_game()
    for seats in spec.seat_counts
]
"""Every registered game at every seat count it offers."""


def levels_for(spec: GameSpec, seats: int, seed: int) -> tuple[str, ...]:
    """The computer levels of a game between computers: the two weakest in turn (the
    strongest may think for seconds a move; each level's own tests play it)."""
    pair = (spec.levels[0], spec.levels[min(1, len(spec.levels) - 1)])
    return tuple(pair[(seat + seed) % 2] for seat in range(seats))


def play_to_the_end(session: Session) -> int:
    """Deal and let the computers move until the game is over; the moves played."""
    moves = 0
    while not session.is_over():
        assert moves < MOVES_CAP, "the game did not end"
        if session.needs_deal():
            version = session.version
            session.deal()
            assert session.version > version
            continue
        seat = session.computer_to_move()
        assert seat is not None, "nobody is to move, yet the game is neither over nor to deal"
        assert seat in session.waiting()
        moved = session.bot_move()
        assert moved.seat == seat
        assert moved.move.text(), "a move writes itself in its game's notation"
        moves += 1
    return moves


@pytest.mark.parametrize(("name", "seats"), CASES)
def test_computers_play_whole_games_and_the_result_is_told(name: str, seats: int) -> None:
    spec = games.get(name)
    for seed in (1, 2):
        session = spec.maker().between_bots(levels_for(spec, seats, seed), f"conf/{seed}")
        assert session.game == name
        assert session.size == seats
        assert play_to_the_end(session) > 0
        assert session.waiting() == ()
        assert session.computer_to_move() is None
        assert session.result(session.players).strip()


@pytest.mark.parametrize(("name", "seats"), CASES)
def test_the_same_seed_plays_the_same_game(name: str, seats: int) -> None:
    spec = games.get(name)
    records = []
    for _ in range(2):
        session = spec.maker().between_bots(levels_for(spec, seats, 0), "again/0")
        play_to_the_end(session)
        records.append(session.record())
    assert records[0] == records[1]


@pytest.mark.parametrize(("name", "seats"), CASES)
def test_a_record_round_trips_with_its_digest_and_is_told_to_its_end(name: str, seats: int) -> None:
    spec = games.get(name)
    session = spec.maker().between_bots(levels_for(spec, seats, 3), "record/3")
    play_to_the_end(session)
    text = dumps(session.match)
    data = json.loads(text)
    assert data["digest"] == record_digest(data)
    assert data.get("game", games.DEFAULT_GAME) == name
    again = loads_any(text)
    assert games.spec_of(again) is spec
    assert dumps(again) == text
    assert loads_any(text, game=name) is not None
    told = list(events(again))
    assert isinstance(told[-1], MatchEnds) or told[-1].__class__.__name__ == "HandEnds"
    assert sum(isinstance(event, HandBegins) for event in told) == len(data["hands"])
    moves = sum(len(hand["moves"]) for hand in data["hands"])
    assert sum(isinstance(event, Moved) for event in told) == moves


@pytest.mark.parametrize(("name", "seats"), CASES)
def test_an_unfinished_record_round_trips_and_says_where_it_stops(name: str, seats: int) -> None:
    spec = games.get(name)
    session = spec.maker().between_bots(levels_for(spec, seats, 4), "unfinished/4")
    session.deal()
    for _ in range(5):
        if session.computer_to_move() is None:
            break
        session.bot_move()
    text = session.record()
    again = loads_any(text)
    assert dumps(again) == text
    last = list(events(again))[-1]
    assert isinstance(last, MatchEnds)
    assert not last.over


def person_plays(
    session: Session, seat: int, rng: random.Random, moves: int, *, hinted: bool = False
) -> int:
    """Play ``moves`` moves of the game: the person in ``seat`` plays a random legal
    move of his view (``hinted``: the hint's move), the computer the others; the moves
    the person made."""
    made = 0
    for _ in range(10 * MOVES_CAP):
        if session.is_over() or made >= moves:
            break
        if session.needs_deal():
            session.deal()
        elif session.computer_to_move() is not None:
            session.bot_move()
        else:
            assert seat in session.waiting()
            legal = list(session.view(seat).legal)
            assert legal, "a seat that is waited for has a move"
            move = rng.choice(legal)
            if hinted:
                hint = session.hint(seat)
                assert not isinstance(hint, Refused), hint
                move = hint.move
            reply = session.submit(seat, move.text())
            assert isinstance(reply, Accepted), reply
            made += 1
    return made


def until_waited_for(session: Session, seat: int) -> bool:
    """Deal and let the computers move until ``seat`` is to move; false if the game
    ended first (a seat of three may sit out hand after hand)."""
    for _ in range(MOVES_CAP):
        if session.is_over():
            return False
        if seat in session.waiting():
            return True
        if session.needs_deal():
            session.deal()
        else:
            session.bot_move()
    raise AssertionError("the game neither ended nor came to the seat")


@pytest.mark.parametrize(("name", "seats"), CASES)
def test_a_refused_move_changes_nothing(name: str, seats: int) -> None:
    spec = games.get(name)
    session = spec.maker().new(seed=11, humans={0}, seats=seats, level=spec.levels[0])
    person_plays(session, 0, random.Random(11), 3)
    assert until_waited_for(session, 0), "the person's turn never came"
    before, version = session.record(), session.version
    others = [seat for seat in range(seats) if seat not in session.waiting()]
    for seat, text in [(0, ""), (0, "no such move"), (0, "x" * 500), (0, "\x00\ud800")]:
        assert isinstance(session.submit(seat, text), Refused)
        assert isinstance(session.check(seat, text), Refused)
    for seat in others:
        legal = session.view(0).legal
        if legal:
            assert isinstance(session.submit(seat, legal[0].text()), Refused)
    assert session.record() == before
    assert session.version == version


@pytest.mark.parametrize(("name", "seats"), CASES)
def test_a_hint_is_a_legal_move_and_changes_nothing(name: str, seats: int) -> None:
    spec = games.get(name)
    session = spec.maker().new(seed=12, humans={0}, seats=seats, level=spec.levels[0])
    person_plays(session, 0, random.Random(12), 2)
    assert until_waited_for(session, 0), "the person's turn never came"
    before = session.record()
    hint = session.hint(0)
    assert not isinstance(hint, Refused), hint
    assert hint.move in session.view(0).legal
    assert hint.why
    assert session.record() == before
    others = [seat for seat in range(seats) if seat not in session.waiting()]
    for seat in others:
        assert isinstance(session.hint(seat), Refused)


@pytest.mark.parametrize(("name", "seats"), CASES)
def test_push_then_pop_of_every_legal_move_changes_nothing(name: str, seats: int) -> None:
    # Along a game between computers, every few moves: each legal move of each hand under
    # way pushed and popped on the engine's own hand leaves the legal moves, the views of
    # the seats to move and the record as they were.
    spec = games.get(name)
    session = spec.maker().between_bots(levels_for(spec, seats, 4), 4)
    checked = moves = 0
    while not session.is_over() and moves < 400:
        if session.needs_deal():
            session.deal()
            continue
        if moves % 3 == 0:
            for position in session.positions():
                legal = position.legal_actions()
                assert legal, "a hand under way has a legal move"
                waiting = session.waiting()
                before = (session.record(), [session.view(seat) for seat in waiting])
                for action in legal:
                    position.push(action)
                    position.pop()
                    assert position.legal_actions() == legal
                assert (session.record(), [session.view(seat) for seat in waiting]) == before
                checked += len(legal)
        session.bot_move()
        moves += 1
    assert checked > 20
    assert session.positions() == () or not session.is_over()


@pytest.mark.parametrize(("name", "seats"), CASES)
def test_a_kept_game_resumes_where_it_stopped(name: str, seats: int, tmp_path: Path) -> None:
    spec = games.get(name)
    session = spec.maker().new(seed=21, humans={0}, seats=seats, level=spec.levels[0])
    person_plays(session, 0, random.Random(21), 4)
    kept = KeptGame(session, None)
    path = kept.save_anywhere(print, folders=(tmp_path,))
    assert path is not None
    kept.close()
    resumed = KeptGame.resume(str(path), SaveLock.acquire(path), guard=nullcontext)
    try:
        again = resumed.session
        assert again.game == name
        assert again.record() == session.record()
        assert again.levels == session.levels
        assert again.waiting() == session.waiting()
        # The computer plays on as it would have: its decisions come from the seed.
        if not session.is_over() and session.computer_to_move() is not None:
            assert again.bot_move().move == session.bot_move().move
    finally:
        resumed.close()


@pytest.mark.parametrize(("name", "seats"), CASES)
def test_a_person_plays_a_whole_game_to_its_end(name: str, seats: int) -> None:
    spec = games.get(name)
    session = spec.maker().new(seed=31, humans={0}, seats=seats, level=spec.levels[0])
    # The hint's moves, so that the game ends as soon as a good player would end it.
    person_plays(session, 0, random.Random(31), MOVES_CAP, hinted=True)
    assert session.is_over()
    assert session.moved_by_person
    rematch = session.rematch(32)
    assert rematch.game == name
    assert rematch.levels == session.levels
    assert not rematch.moved_by_person


def test_every_spec_names_parts_that_exist() -> None:
    for spec in games.games():
        assert spec.maker() is not None
        assert spec.body() is not None
        for part in ("terminal", "table", "research"):
            if spec.has(part):
                assert spec.hook(part) is not None, (spec.name, part)
