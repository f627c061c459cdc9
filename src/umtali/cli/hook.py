"""What a game gives the terminal: the object its spec's ``terminal`` hook names
(``"umtali.games.<game>.terminal:SCREEN"``), a :class:`GameTerminal`.

The ``umtali`` command names no game. It asks the registry (:mod:`umtali.games`) for the
game's spec, makes and resumes its sessions through the spec, tells its records through
:mod:`umtali.replaying`, and asks the game's :class:`GameTerminal` only for what nobody
else can draw: the screen a game is played on, a replay's boards and hands' ends, the
words for its variants in ``--help``, and its lessons and quiz where it has them.

A game's screen may build on the shared machinery: :class:`umtali.cli.prompting.TurnPrompt`
for a game of two on a :class:`~umtali.session.shared.TwoSeatSession` (the turn loop and
every word a prompt knows), :class:`~umtali.cli.prompting.Pausing` for any other,
:mod:`umtali.cli.cards` for cards, and :class:`~umtali.cli.terminal.Terminal` for input
and output.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from umtali.cli.terminal import Terminal
from umtali.games.api import GameSpec
from umtali.session.kept import KeptGame

__all__ = ["GameTerminal", "NoScreenError", "Screen", "Teaching", "terminal_of"]


class Screen(Protocol):
    """A game being played at the terminal, kept in a file (``kept``): what ``umtali
    play`` starts, runs and stops, whichever the game.
    :class:`~umtali.cli.kept.KeptPlay` gives ``kept`` and :meth:`stop`."""

    kept: KeptGame

    def introduce(self, seed: int | None, resumed: str | None) -> None:
        """The first words: what is played (the seed only when the player gave it: it
        would reveal the deal), or, with ``resumed`` (the file), which game goes on."""

    def run(self) -> int:
        """Play the game to its end; the exit status, 0. ``quit`` and the end of input
        raise :class:`~umtali.cli.terminal.QuitRequested` (then :meth:`stop` saves)."""

    def stop(self, why: str | None = None, status: int = 0) -> int:
        """Save the game on the way out and say how to go on; the exit status."""


@dataclass(frozen=True)
class Teaching:
    """A game's lessons and quiz at the terminal (``umtali lesson N``, ``umtali quiz``).

    Attributes:
        lessons: how many lessons there are, numbered from 1.
        lesson: runs lesson N at a terminal; the exit status, 0. ``quit`` and the end of
            input raise :class:`~umtali.cli.terminal.QuitRequested`.
        quiz: runs the quiz at a terminal, likewise.
        lessons_told: what a lesson is, for ``--help`` ("one of the book's four
            lesson hands").
        quiz_told: what the quiz is, for ``--help``.
    """

    lessons: int
    lesson: Callable[[Terminal, int], int]
    quiz: Callable[[Terminal], int]
    lessons_told: str
    quiz_told: str


@dataclass(frozen=True)
class GameTerminal:
    """A game at the terminal: the object its spec's ``terminal`` hook names.

    Attributes:
        screen: the screen that plays the game kept in a :class:`KeptGame` (new or
            resumed, of any of the game's seat counts) at a :class:`Terminal`.
        board: a replay's ``board`` (:class:`~umtali.games.events.TurnEnds`,
            :class:`~umtali.games.events.HandEnds`, :class:`~umtali.games.events.HandStops`)
            as plain text, every card shown; the second argument names the players at
            the hand's seats where :class:`~umtali.games.events.HandBegins` gave them
            (a hand of three- or four-hand play), ``None`` to name them by seat.
        summary: a hand's end as the replay tells it (``HandEnds.summary``), as lines
            of plain text ending with the result; ``None`` for a game whose replay
            gives no summary (its result is told alone).
        variants: what each variant is, in a few words for ``--help`` (a variant left
            out is offered by its name alone).
        teaching: its lessons and quiz, where it has them.
    """

    screen: Callable[[Terminal, KeptGame], Screen]
    board: Callable[[Any, Sequence[str] | None], str]
    summary: Callable[[Any], Sequence[str]] | None = None
    variants: Mapping[str, str] = field(default_factory=dict)
    teaching: Teaching | None = None


class NoScreenError(LookupError):
    """A game that cannot be shown at the terminal; the message says which and why."""


def terminal_of(spec: GameSpec) -> GameTerminal:
    """The terminal part of the game ``spec`` (:class:`NoScreenError` if it has none)."""
    if not spec.has("terminal"):
        raise NoScreenError(f"{spec.title} cannot be played at the terminal: it has no screen")
    hook = spec.hook("terminal")
    if not isinstance(hook, GameTerminal):
        raise NoScreenError(
            f"{spec.title}'s terminal hook {spec.terminal!r} is not a GameTerminal"
            " (umtali.cli.hook)"
        )
    return hook
