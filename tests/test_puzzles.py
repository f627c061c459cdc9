"""Puzzles (:mod:`umtali.learn.puzzles`, Umtali's in
:mod:`umtali.games.umtali.learn.puzzles`): every shipped puzzle replayed from its source
(the position is what that player saw, no card he could not see is named, the answer is
a legal move that stands clear of the next by 5 points), the generator on a small run,
the data file's checks, ``umtali puzzles`` as a real command and the API."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from umtali.games.umtali.learn.puzzles import PUZZLES, facts_of, play_hand, position_of, seen_cards
from umtali.games.umtali.learn.review import said
from umtali.games.umtali.match import Match
from umtali.games.umtali.state import HandState
from umtali.games.umtali.view import PlayerView
from umtali.kernel.cards import card_ascii, card_name, parse_card
from umtali.learn.puzzles import GAP, Puzzle, PuzzleError, dump_puzzles, generate, read_puzzles
from umtali.learn.review import CLEAR
from umtali.web.app import create_app

UMTALI = Path(sys.executable).parent / "umtali"
_SOURCE = re.compile(r"seed (\d+), game (\d+) \(\w+ against \w+\), player ([12]), move (\d+)")


@cache
def _hand(seed: int, game: int) -> Match:
    return play_hand(seed, game)


def _view_of(puzzle: Puzzle) -> tuple[PlayerView, HandState]:
    """The view the puzzle's player had, replayed from its source, and the hand played."""
    found = _SOURCE.fullmatch(puzzle.source)
    assert found, puzzle.source
    seed, game, player, move = (int(x) for x in found.groups())
    played = _hand(seed, game - 1).hands[0]
    state = HandState(played.deck, played.dealer, played.rules)
    for done in played.moves_played()[: move - 1]:
        state.push(done)
    assert state.player == player - 1
    return PlayerView.of(state, player - 1, with_history=False), played


def _check(puzzle: Puzzle, gap: float = GAP) -> None:
    view, _played = _view_of(puzzle)
    assert puzzle.position == position_of(view)
    assert puzzle.facts == facts_of(view)
    legal = {said(m) for m in view.legal}
    assert {o.move for o in puzzle.options} <= legal
    assert 0 <= puzzle.answer < len(puzzle.options)
    assert puzzle.gap >= gap
    assert puzzle.gap >= CLEAR * puzzle.error
    ranked = sorted(puzzle.options, key=lambda o: -o.expected)
    assert ranked[0] == puzzle.best
    assert ranked[0].expected - ranked[1].expected == pytest.approx(puzzle.gap, abs=0.02)
    # No card the player could not see is named anywhere in the puzzle.
    seen = seen_cards(view)
    shown = set(puzzle.position["hand"])
    shown |= {c for c in puzzle.position["pile"] if c is not None}
    for side in puzzle.position["sides"]:
        for column in side["columns"]:
            shown |= set(column["cards"]) | ({column["played_off"]} - {None})
    for option in puzzle.options:
        shown |= set(option.cards)
    assert shown <= seen
    hidden = {card_ascii(c) for c in range(52)} - seen
    words = json.dumps(puzzle.to_dict(), ensure_ascii=False)
    named = {c for c in hidden if card_name(parse_card(c)) in words}
    assert not named, f"puzzle {puzzle.number} names {named}, which its player could not see"


def test_at_least_fifty_puzzles_are_shipped_and_each_is_what_its_player_saw() -> None:
    puzzles = PUZZLES.shipped()
    assert len(puzzles) >= 50
    assert [p.number for p in puzzles] == list(range(1, len(puzzles) + 1))
    for puzzle in puzzles:
        _check(puzzle)
        assert puzzle.playouts > 800 - len(puzzle.options)  # deals x moves
        assert "points more than" in puzzle.explanation


@pytest.mark.slow
def test_a_small_run_of_the_generator_makes_valid_puzzles_the_same_each_time() -> None:
    made = generate(PUZZLES, games=2, seed=0, screen=40, check=80, gap=3.0)
    assert made, "two games with a 3-point gap give at least one puzzle"
    for puzzle in made:
        _check(puzzle, gap=3.0)
    text = dump_puzzles("umtali", made)
    assert [p.to_dict() for p in read_puzzles(text, "umtali")] == [p.to_dict() for p in made]
    again = generate(PUZZLES, games=1, seed=0, screen=40, check=80, gap=3.0)
    assert [p.to_dict() for p in again] == [p.to_dict() for p in made[: len(again)]]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda b: b.update(format=9), "format"),
        (lambda b: b.update(game="gin"), "no puzzles of umtali"),
        (lambda b: b["puzzles"][0].update(answer=7), "answer is not one of its moves"),
        (lambda b: b["puzzles"][0].update(options=[]), "fewer than two moves"),
        (lambda b: b["puzzles"][0].update(number=3), "numbered"),
        (lambda b: b["puzzles"][0]["options"][0].update(expected="x"), "expected points"),
    ],
)
def test_a_puzzle_file_that_is_wrong_is_refused_with_what_is_wrong(change, message) -> None:  # type: ignore[no-untyped-def]
    body = json.loads(dump_puzzles("umtali", PUZZLES.shipped()[:1]))
    change(body)
    with pytest.raises(PuzzleError, match=message):
        read_puzzles(json.dumps(body), "umtali")


def _run(*args: str, answers: str = "") -> subprocess.CompletedProcess[str]:
    assert UMTALI.exists(), f"the umtali console script is not installed at {UMTALI}"
    env = dict(os.environ, NO_COLOR="1", PYTHONIOENCODING="utf-8", COLUMNS="200")
    return subprocess.run(
        [str(UMTALI), "puzzles", *args],
        input=answers,
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        env=env,
        check=False,
    )


@pytest.mark.process
def test_the_terminal_asks_a_puzzle_refuses_a_bad_answer_and_explains() -> None:
    puzzle = PUZZLES.shipped()[0]
    wrong = next(i for i in range(len(puzzle.options)) if i != puzzle.answer)
    done = _run("--puzzle", "1", answers=f"nine\n0\n{puzzle.answer + 1}\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Traceback" not in out + done.stderr
    assert f"Puzzle 1 of {len(PUZZLES.shipped())}. {puzzle.prompt}" in out
    assert "'nine' is not one of the moves" in out
    assert "'0' is not one of the moves" in out
    assert f"Right: {puzzle.best.move} is the best move." in out
    assert puzzle.explanation in out
    assert "You found 1 of 1." in out
    missed = _run("--puzzle", "1", answers=f"{wrong + 1}\n")
    assert f"Not this time: the best move is {puzzle.best.move}." in missed.stdout
    shuffled = _run("--seed", "3", answers="q\n")
    assert shuffled.returncode == 0
    assert "Puzzle " in shuffled.stdout
    assert _run("--seed", "3", answers="q\n").stdout == shuffled.stdout


@pytest.mark.process
@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--puzzle", "100000"), "no puzzle 100000"),
        (("--game", "gin"), "Gin Rummy has no puzzles yet"),
        (("--puzzle", "x"), "--puzzle"),
        (("generate", "--out", "."), "is a folder"),
        (("generate", "--out", "p.json", "--gap", "0"), "--gap"),
    ],
)
def test_the_terminal_refuses_what_it_cannot_do_in_a_sentence(
    args: tuple[str, ...], said: str
) -> None:
    done = _run(*args)
    assert done.returncode == 2
    assert said in done.stderr
    assert "Traceback" not in done.stderr


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'umtali.db'}")) as test_client:
        yield test_client


def test_the_api_serves_the_puzzles_and_refuses_what_is_not_one(client: TestClient) -> None:
    shipped = PUZZLES.shipped()
    info = client.get("/api/puzzles/umtali").json()
    assert info == {"game": "umtali", "title": "Umtali", "count": len(shipped)}
    one = client.get("/api/puzzles/umtali/2")
    assert one.status_code == 200
    assert one.json() == shipped[1].to_dict()
    for path, words in [
        ("/api/puzzles/umtali/0", "no puzzle 0"),
        (f"/api/puzzles/umtali/{len(shipped) + 1}", f"no puzzle {len(shipped) + 1}"),
        ("/api/puzzles/gin", "Gin Rummy has no puzzles yet"),
        ("/api/puzzles/chess/1", "no such game"),
    ]:
        answer = client.get(path)
        assert answer.status_code == 404, path
        assert words in answer.json()["detail"]
    assert client.get("/api/puzzles/umtali/two").status_code == 422
    page = client.get("/puzzles")
    assert page.status_code == 200
    assert "puzzles.js" in page.text
    assert 'href="/puzzles"' in client.get("/").text
