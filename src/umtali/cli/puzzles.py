"""``umtali puzzles``: a game's puzzles at the terminal, one at a time (the answer read,
checked and explained), and ``umtali puzzles generate``, which makes them
(:mod:`umtali.learn.puzzles`). The game's ``puzzles`` hook holds them."""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TextIO

from umtali.cli.choosing import game_named
from umtali.cli.terminal import printable
from umtali.cli.usage import UsageError
from umtali.games.api import GameSpec, HookError
from umtali.learn.puzzles import Puzzle, PuzzleError, PuzzleMaker, dump_puzzles, generate
from umtali.learn.review import ReviewError

__all__ = ["cmd_generate", "cmd_puzzles", "puzzle_lines", "verdict_lines"]

_STOP = ("q", "quit", "stop")


def _maker(args: argparse.Namespace) -> tuple[GameSpec, PuzzleMaker]:
    spec = game_named(args.game)
    try:
        maker: PuzzleMaker = spec.hook("puzzles")
    except HookError:
        raise UsageError(f"{spec.title} has no puzzles yet") from None
    return spec, maker


def cmd_puzzles(args: argparse.Namespace, out: TextIO) -> int:
    """``umtali puzzles``: the puzzles in a random order (``--seed``), or ``--puzzle N``."""
    spec, maker = _maker(args)
    try:
        puzzles = maker.shipped()
    except PuzzleError as e:
        raise UsageError(f"the puzzles of {spec.title} cannot be read: {e}") from None
    if args.puzzle is not None:
        if not 1 <= args.puzzle <= len(puzzles):
            raise UsageError(
                f"there are {len(puzzles)} puzzles, 1 to {len(puzzles)}; no puzzle {args.puzzle}"
            )
        order = [puzzles[args.puzzle - 1]]
    else:
        order = list(puzzles)
        random.Random(args.seed).shuffle(order)
    print(
        f"{spec.title} puzzles: in each position one move is worth at least 5 points more"
        " than any other. Type the number of your move, or q to stop.",
        file=out,
    )
    right = asked = 0
    for puzzle in order:
        print("", file=out)
        for line in puzzle_lines(puzzle, len(puzzles)):
            print(line, file=out)
        choice = _read_choice(puzzle, out)
        if choice is None:
            break
        asked += 1
        right += choice == puzzle.answer
        for line in verdict_lines(puzzle, choice):
            print(line, file=out)
    if asked:
        print("", file=out)
        print(f"You found {right} of {asked}.", file=out)
    return 0


def _read_choice(puzzle: Puzzle, out: TextIO) -> int | None:
    """The index of the move the player types (``None``: he stops or input ends)."""
    count = len(puzzle.options)
    while True:
        print(f"Your move (1-{count}, q to stop): ", end="", file=out)
        out.flush()
        line = sys.stdin.readline()
        if not line:
            print("", file=out)
            return None
        text = line.strip().lower()
        if text in _STOP:
            return None
        if text.isdigit() and 1 <= int(text) <= count:
            return int(text) - 1
        said = printable(line.strip()[:20]) or "nothing"
        print(f"'{said}' is not one of the moves: type a number from 1 to {count}.", file=out)


def puzzle_lines(puzzle: Puzzle, total: int) -> Iterator[str]:
    """A puzzle as the terminal shows it: what the player sees, then the moves."""
    yield f"Puzzle {puzzle.number} of {total}. {puzzle.prompt}"
    for fact in puzzle.facts:
        yield f"  {fact}"
    for n, option in enumerate(puzzle.options, 1):
        yield f"  {n}. {option.move}"


def verdict_lines(puzzle: Puzzle, choice: int) -> Iterator[str]:
    """Whether ``choice`` was the answer, each move's points, and why."""
    best = puzzle.best
    if choice == puzzle.answer:
        yield f"Right: {best.move} is the best move."
    else:
        yield f"Not this time: the best move is {best.move}."
    yield "Points each move is expected to win (your score minus your opponent's):"
    for option in sorted(puzzle.options, key=lambda o: -o.expected):
        mark = "you " if option is puzzle.options[choice] else "    "
        yield f"  {mark}{option.move:<34} {option.expected:+7.1f}"
    yield puzzle.explanation


def cmd_generate(args: argparse.Namespace, out: TextIO) -> int:
    """``umtali puzzles generate``: puzzles from computer games, written to ``--out``."""
    spec, maker = _maker(args)
    path = Path(args.out)
    if path.is_dir():
        raise UsageError(f"{args.out} is a folder: --out names the file to write")
    started = time.perf_counter()

    def progress(game: int, found: Sequence[Puzzle]) -> None:
        # Written after each game: a run stopped early leaves the puzzles found so far,
        # the first of them the same as a run asked for that many (--count).
        _write(path, args.out, dump_puzzles(spec.name, found))
        if args.verbose:
            print(f"game {game}: {len(found)} puzzles", file=out, flush=True)

    try:
        puzzles = generate(
            maker,
            games=args.games,
            seed=args.seed,
            screen=args.screen,
            check=args.check,
            gap=args.gap,
            most=args.count,
            jobs=args.jobs,
            progress=progress,
        )
    except ReviewError as e:
        raise UsageError(str(e)) from None
    _write(path, args.out, dump_puzzles(spec.name, puzzles))
    seconds = time.perf_counter() - started
    print(f"{len(puzzles)} puzzles written to {args.out} in {seconds:.0f} s.", file=out)
    return 0


def _write(path: Path, name: str, text: str) -> None:
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as e:
        raise UsageError(f"cannot write {name}: {e.strerror or e}") from None
