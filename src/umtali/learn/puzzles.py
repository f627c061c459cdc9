"""Puzzles (layer 5): positions from computer games where one move is clearly best, for
any game that makes them.

A game's :class:`PuzzleMaker` (its spec's ``puzzles`` hook) plays seeded games between
its computer levels and offers every decision of them as a :class:`Spot`. The generator
(:func:`generate`) weighs each spot with the game review's playouts
(:func:`umtali.learn.review.weigh`, through :meth:`Spot.weigh`), keeps the ones whose
best move beats the next by at least :data:`GAP` points, clear of the playouts' noise by
:data:`umtali.learn.review.CLEAR` standard errors, weighs each kept one again with more
playouts on other deals, and keeps it only if the same move still stands clear. The
game then writes the :class:`Puzzle`: the position as that player saw it (never a card
he could not see), the moves with their expected points, the answer and a sentence
saying why.

Puzzles are plain data (:meth:`Puzzle.to_dict`), shipped in each game's own folder as
JSON and read back with every field checked (:func:`read_puzzles`).

>>> p = Puzzle(1, "seed 0, game 1", "Your move.", ("You hold 2♠.",), {}, (
...     Option("discard 2♠", ("2s",), 3.0), Option("draw", (), -4.0)), 0, 7.0, 1.0, 800, "Why.")
>>> read_puzzles(dump_puzzles("umtali", [p]), "umtali")[0] == p
True
>>> clear_gap([Alternative("a", 3.0, 0.0, 0.0), Alternative("b", -4.0, 7.0, 1.0)], 5.0)
True
"""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from typing import Any, Final, Protocol

from umtali.learn.review import CLEAR, Alternative, ReviewError, Settings

__all__ = [
    "GAP",
    "Option",
    "Puzzle",
    "PuzzleError",
    "PuzzleMaker",
    "Spot",
    "clear_gap",
    "dump_puzzles",
    "generate",
    "read_puzzles",
]

GAP: Final = 5.0
"""Points by which a puzzle's answer beats the next best move, at least."""

FORMAT: Final = 1
"""The version of the puzzles' data file."""


class PuzzleError(ValueError):
    """A puzzle file that cannot be read, or a puzzle asked for that is not there."""


@dataclass(frozen=True)
class Option:
    """One move of a puzzle: as the player reads it, the cards it names (ASCII, as the
    table draws them) and the points it is expected to win (his score minus his
    opponent's at the hand's end, on average)."""

    move: str
    cards: tuple[str, ...]
    expected: float


@dataclass(frozen=True)
class Puzzle:
    """A position where one move is clearly best.

    Attributes:
        number: its number in its file, from 1.
        source: where it was found (the seed, game, hand and move), for anyone to check.
        prompt: what the player is asked.
        facts: sentences saying what he sees (his hand, the pile, the table, the counts).
        position: the same for a page to draw, in the learning pages' form (hand, sides
            of the table, pile).
        options: the moves he may choose among.
        answer: the index of the best move in ``options``.
        gap: how many points the best move is expected to win more than the next.
        error: the standard error of ``gap``.
        playouts: the playouts the figures come from.
        explanation: why the answer is best, for a card player.
    """

    number: int
    source: str
    prompt: str
    facts: tuple[str, ...]
    position: dict[str, Any]
    options: tuple[Option, ...]
    answer: int
    gap: float
    error: float
    playouts: int
    explanation: str

    @property
    def best(self) -> Option:
        return self.options[self.answer]

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "source": self.source,
            "prompt": self.prompt,
            "facts": list(self.facts),
            "position": self.position,
            "options": [
                {"move": o.move, "cards": list(o.cards), "expected": round(o.expected, 2)}
                for o in self.options
            ],
            "answer": self.answer,
            "gap": round(self.gap, 2),
            "error": round(self.error, 2),
            "playouts": self.playouts,
            "explanation": self.explanation,
        }


class Weighed(Protocol):
    """A spot weighed: its alternatives best first (the game's figures besides)."""

    @property
    def alternatives(self) -> tuple[Alternative, ...]: ...

    @property
    def playouts(self) -> int: ...


class Spot(Protocol):
    """One decision of a computer game, offered as a puzzle."""

    @property
    def source(self) -> str: ...

    def weigh(self, settings: Settings) -> Weighed:
        """Every move of the decision played out by the review's playouts."""

    def puzzle(self, weighed: Weighed, number: int) -> Puzzle:
        """The puzzle this spot makes, with the figures of ``weighed``."""


class PuzzleMaker(Protocol):
    """A game's puzzles (its spec's ``puzzles`` hook)."""

    @property
    def levels(self) -> tuple[tuple[str, str], ...]:
        """The pairs of computer levels whose games the puzzles come from, in turn."""

    def spots(self, seed: int, game: int) -> Iterator[Spot]:
        """The decisions of game ``game`` (from 0) of the run seeded ``seed``, between
        ``levels[game % len(levels)]``, a hand at a time."""

    def shipped(self) -> tuple[Puzzle, ...]:
        """The puzzles that come with the game."""


def clear_gap(alternatives: Sequence[Alternative], gap: float) -> bool:
    """Whether the best of ``alternatives`` (best first) beats the next by ``gap``
    points or more, clear of the playouts' noise."""
    if len(alternatives) < 2:
        return False
    second = alternatives[1]
    return second.loss >= gap and second.loss >= CLEAR * second.error


def _promising(alternatives: Sequence[Alternative], gap: float) -> bool:
    """Whether a first, rough weighing leaves room for a clear gap of ``gap`` points:
    at least half of it found, and the whole of it within the playouts' noise."""
    if len(alternatives) < 2:
        return False
    second = alternatives[1]
    return second.loss >= gap / 2 and second.loss + CLEAR * second.error >= gap


def generate(
    maker: PuzzleMaker,
    *,
    games: int,
    seed: int,
    screen: int = 80,
    check: int = 800,
    gap: float = GAP,
    most: int | None = None,
    jobs: int = 1,
    progress: Callable[[int, Sequence[Puzzle]], None] | None = None,
) -> list[Puzzle]:
    """Puzzles from ``games`` games of ``maker``: each decision weighed with ``screen``
    playouts; those that may have a gap of ``gap`` points weighed again with ``check``
    playouts (other deals), and kept when the best move stands clear of the next by
    ``gap`` points or more (:func:`clear_gap`), the same move as first found. ``most``
    puzzles at most, the games' first (so the first ``n`` of a run are the run with
    ``most=n``). ``jobs`` processes share the games; the puzzles are the same for any
    number of them (deterministic for a seed). ``progress(game, found)`` is told after
    each game, with the puzzles found so far."""
    if gap <= 0:
        raise ReviewError("the gap is a number of points above 0")
    first = Settings(playouts=screen, seed=seed)
    second = Settings(playouts=check, seed=seed + 1)
    work = [(maker, seed, game, first, second, gap) for game in range(games)]
    found: list[Puzzle] = []
    if jobs <= 1:
        results: Iterator[list[Puzzle]] = map(_one_game, work)
        return _gather(results, found, most, progress)
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn")) as pool:
        try:
            return _gather(pool.map(_one_game, work), found, most, progress)
        finally:
            pool.shutdown(cancel_futures=True)


def _gather(
    results: Iterator[list[Puzzle]],
    found: list[Puzzle],
    most: int | None,
    progress: Callable[[int, Sequence[Puzzle]], None] | None,
) -> list[Puzzle]:
    """The games' puzzles in the games' order, numbered, ``most`` at most."""
    for game, puzzles in enumerate(results, 1):
        for puzzle in puzzles:
            found.append(replace(puzzle, number=len(found) + 1))
            if most is not None and len(found) >= most:
                return found
        if progress is not None:
            progress(game, found)
    return found


def _one_game(
    work: tuple[PuzzleMaker, int, int, Settings, Settings, float],
) -> list[Puzzle]:
    """The puzzles of one game (numbered 0: :func:`_gather` numbers them)."""
    maker, seed, game, first, second, gap = work
    found: list[Puzzle] = []
    for spot in maker.spots(seed, game):
        weighed = spot.weigh(first)
        if not _promising(weighed.alternatives, gap):
            continue
        again = spot.weigh(second)
        if not clear_gap(again.alternatives, gap):
            continue
        if again.alternatives[0].move != weighed.alternatives[0].move:
            continue
        found.append(spot.puzzle(again, 0))
    return found


def dump_puzzles(game: str, puzzles: Sequence[Puzzle]) -> str:
    """The puzzles' data file, JSON."""
    body = {"format": FORMAT, "game": game, "puzzles": [p.to_dict() for p in puzzles]}
    return json.dumps(body, ensure_ascii=False, indent=1) + "\n"


def read_puzzles(text: str, game: str) -> tuple[Puzzle, ...]:
    """The puzzles of a data file of ``game``, every field checked
    (:class:`PuzzleError` says what is wrong)."""
    try:
        body = json.loads(text)
    except ValueError as e:
        raise PuzzleError(f"the puzzles are no JSON: {e}") from None
    if not isinstance(body, dict) or body.get("format") != FORMAT:
        raise PuzzleError(f"the puzzles' file is not of format {FORMAT}")
    if body.get("game") != game:
        raise PuzzleError(f"these are no puzzles of {game}")
    items = body.get("puzzles")
    if not isinstance(items, list):
        raise PuzzleError("the puzzles' file holds no list of puzzles")
    return tuple(_puzzle(item, n) for n, item in enumerate(items, 1))


def _puzzle(item: Any, number: int) -> Puzzle:
    where = f"puzzle {number}"
    if not isinstance(item, dict):
        raise PuzzleError(f"{where} is no table of fields")
    options = item.get("options")
    if not isinstance(options, list) or len(options) < 2:
        raise PuzzleError(f"{where} has fewer than two moves")
    read = tuple(_option(o, where) for o in options)
    answer = item.get("answer")
    if type(answer) is not int or not 0 <= answer < len(read):
        raise PuzzleError(f"{where}: its answer is not one of its moves")
    facts = item.get("facts")
    if not isinstance(facts, list) or not all(isinstance(f, str) for f in facts):
        raise PuzzleError(f"{where}: its facts are no list of sentences")
    position = item.get("position")
    if not isinstance(position, dict):
        raise PuzzleError(f"{where}: its position is no table")
    if item.get("number") != number:
        raise PuzzleError(f"{where} is numbered {item.get('number')!r}")
    texts = [item.get(k) for k in ("source", "prompt", "explanation")]
    if not all(isinstance(t, str) and t for t in texts):
        raise PuzzleError(f"{where}: its source, prompt and explanation are sentences")
    figures = [_number(item.get(k), f"{where}: its {k} is no number") for k in ("gap", "error")]
    if type(item.get("playouts")) is not int:
        raise PuzzleError(f"{where}: its playouts are no whole number")
    return Puzzle(
        number,
        str(texts[0]),
        str(texts[1]),
        tuple(facts),
        position,
        read,
        answer,
        figures[0],
        figures[1],
        int(item["playouts"]),
        str(texts[2]),
    )


def _option(item: Any, where: str) -> Option:
    if not isinstance(item, dict):
        raise PuzzleError(f"{where}: a move is no table of fields")
    move, cards, expected = item.get("move"), item.get("cards"), item.get("expected")
    if not isinstance(move, str) or not move:
        raise PuzzleError(f"{where}: a move has no words")
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise PuzzleError(f"{where}: the cards of {move!r} are no list of cards")
    points = _number(expected, f"{where}: {move!r} has no expected points")
    return Option(move, tuple(cards), points)


def _number(value: Any, refusal: str) -> float:
    """``value`` if it is a number (not a truth value), else :class:`PuzzleError`."""
    if type(value) not in (int, float):
        raise PuzzleError(refusal)
    return float(value)
