"""Records written before one home per game (by main at 409a001, a person in seat 0 against
the computer, kept as ``umtali play`` keeps them; tests/data/old_records/:
Umtali's standard game, an unfinished session and a practical hand; Gin Rummy's game of
two, an unfinished Oklahoma game, a whole three-hand game and an unfinished four-hand one)
load through the registry, keep their digests, are told by the replay, resume as
``umtali play`` resumes them, and the unfinished ones play on.

Each game gained one rule option since (Umtali ``discard_taken_to_go_out``, docs/RULES.md
Part 3b; Gin Rummy ``line_bonus_to_all``, ruling G): written again, a record differs by
that key and the digest over it, and by nothing else.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from umtali import games
from umtali.games.api import Accepted, Hint
from umtali.games.events import MatchEnds
from umtali.kernel.record import dumps, load_any_file, loads_any, record_digest
from umtali.replaying import events

OLD = Path(__file__).parent / "data" / "old_records"
FILES = sorted(OLD.glob("*.json"))
ADDED_SINCE = {"umtali": {"discard_taken_to_go_out"}, "gin": {"line_bonus_to_all"}}
"""The rule options each game gained after the records were written."""


def test_the_old_records_are_there() -> None:
    assert [path.stem for path in FILES] == [
        "gin_3_hand",
        "gin_4_hand_unfinished",
        "gin_game",
        "gin_oklahoma_unfinished",
        "umtali_game",
        "umtali_practical_hand",
        "umtali_session_unfinished",
    ]


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_an_old_record_loads_keeps_its_digest_and_is_written_again_alike(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    old = json.loads(text)
    assert old["digest"] == record_digest(old)
    match = loads_any(text)
    assert load_any_file(path) is not None
    spec = games.spec_of(match)
    assert spec.name == path.stem.split("_")[0]
    again = dumps(match)
    if not ADDED_SINCE[spec.name]:
        assert again == text
        return
    new = json.loads(again)
    assert set(new["rules"]) - set(old["rules"]) == ADDED_SINCE[spec.name]
    for key in ADDED_SINCE[spec.name]:
        del new["rules"][key]
    del new["digest"], old["digest"]
    assert new == old
    assert loads_any(again) is not None


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_an_old_record_is_told_and_an_unfinished_one_plays_on(path: Path) -> None:
    match = loads_any(path.read_text(encoding="utf-8"))
    finished = "unfinished" not in path.stem
    assert match.is_over() == finished
    told = list(events(match))
    assert told, "the replay tells something"
    if isinstance(told[-1], MatchEnds):
        assert told[-1].over == finished
    # Resumed as 'umtali play' resumes it: the person in seat 0 plays the hint's moves.
    session = games.spec_of(match).maker().of_record(match)
    assert session.is_over() == finished
    moves = 0
    while not session.is_over() and moves < 20:
        if session.needs_deal():
            session.deal()
            continue
        if session.computer_to_move() is not None:
            session.bot_move()
        else:
            seat = session.waiting()[0]
            hint = session.hint(seat)
            assert isinstance(hint, Hint), hint
            assert isinstance(session.submit(seat, hint.move), Accepted)
        moves += 1
    assert session.is_over() or moves == 20
