"""``umtali lesson N`` and ``umtali quiz``: a game's lessons and quiz, where its terminal
has them (:class:`umtali.cli.hook.Teaching`); the default game's unless ``--game`` names
another. A game without them is refused, with the games that have them.
"""

from __future__ import annotations

import argparse
from typing import Final, TextIO

from umtali import games
from umtali.cli.choosing import either, game_named
from umtali.cli.hook import NoScreenError, Teaching, terminal_of
from umtali.cli.terminal import QuitRequested, Terminal
from umtali.cli.usage import UsageError
from umtali.games.api import GameSpec

__all__ = ["cmd_lesson", "cmd_quiz", "teachings"]

_WORDS: Final = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")


def _number(count: int) -> str:
    """A small count in words, as a sentence writes it ("four"); larger ones in figures."""
    return _WORDS[count] if 0 <= count < len(_WORDS) else str(count)


def teachings() -> list[tuple[GameSpec, Teaching]]:
    """The games whose terminal has lessons and a quiz, with them."""
    found = []
    for spec in games.games():
        try:
            teaching = terminal_of(spec).teaching
        except NoScreenError:
            continue
        if teaching is not None:
            found.append((spec, teaching))
    return found


def _teaching(args: argparse.Namespace, what: str, offered: str) -> tuple[GameSpec, Teaching]:
    """The lessons and quiz of the game ``--game`` names (the default game's); refused
    as having no ``what``, which ``offered`` ("lessons are") for the games that have
    them."""
    spec = game_named(args.game)
    try:
        teaching = terminal_of(spec).teaching
    except NoScreenError:
        teaching = None
    if teaching is None:
        others = [f"{other.title} (--game {other.name})" for other, _ in teachings()]
        elsewhere = f"; {offered} offered for {either(others, 'and')}" if others else ""
        raise UsageError(f"{spec.title} has no {what} at the terminal{elsewhere}")
    return spec, teaching


def _again(spec: GameSpec, command: str) -> str:
    """The command that runs ``command`` of ``spec`` again."""
    game = "" if spec.name == games.DEFAULT_GAME else f" --game {spec.name}"
    return f"umtali {command}{game}"


def cmd_lesson(args: argparse.Namespace, out: TextIO) -> int:
    """``umtali lesson N``: walk through a game's lesson N."""
    spec, teaching = _teaching(args, "lessons", "lessons are")
    count = teaching.lessons
    if not 1 <= args.number <= count:
        if count == 1:
            raise UsageError(f"there is one lesson, lesson 1; there is no lesson {args.number}")
        raise UsageError(
            f"there are {_number(count)} lessons, 1 to {count}; {args.number} is not one of them"
        )
    try:
        return teaching.lesson(Terminal(out), args.number)
    except QuitRequested:
        again = _again(spec, f"lesson {args.number}")
        print(f"Lesson stopped. Come back any time with: {again}", file=out)
        return 0


def cmd_quiz(args: argparse.Namespace, out: TextIO) -> int:
    """``umtali quiz``: a game's self-test questions, graded."""
    _spec, teaching = _teaching(args, "quiz", "a quiz is")
    try:
        return teaching.quiz(Terminal(out))
    except QuitRequested:
        print("Quiz stopped.", file=out)
        return 0
