"""Umtali at the terminal (layer 7): :data:`SCREEN`, what its spec's ``terminal`` hook
names and ``umtali`` asks for (:class:`umtali.cli.hook.GameTerminal`).

* :mod:`~umtali.games.umtali.terminal.play`: the screen of a game (``umtali play``).
* :mod:`~umtali.games.umtali.terminal.render`: its board, hand's end and score sheet.
* :mod:`~umtali.games.umtali.terminal.lesson` and :mod:`~umtali.games.umtali.terminal.quiz`:
  the book's lessons and quiz (``umtali lesson N``, ``umtali quiz``).

A replay's board is the hand itself (a :class:`~umtali.games.umtali.state.HandState`),
drawn as :func:`umtali.games.umtali.describe.render_state` writes it; a hand's end is
told by its board and result, with no summary.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from umtali.cli.hook import GameTerminal, Teaching
from umtali.games.umtali.describe import render_state
from umtali.games.umtali.lessons import LESSONS
from umtali.games.umtali.state import HandState
from umtali.games.umtali.terminal.lesson import run_lesson
from umtali.games.umtali.terminal.play import Game
from umtali.games.umtali.terminal.quiz import run_quiz

__all__ = ["SCREEN"]


def _board(board: HandState, names: Sequence[str] | None) -> str:
    """A replay's board: both hands and both sides of the table, by seat (a hand of
    Umtali is always between the game's two players, in their seats)."""
    return render_state(board)


SCREEN: Final = GameTerminal(
    screen=Game,
    board=_board,
    variants={
        "standard": "the book's game, with the rulings R1-R11",
        "practical": "seed 003's looser game: ten cards and an upcard, melding when you"
        " like, any discard taken with the cards above it",
    },
    teaching=Teaching(
        lessons=len(LESSONS),
        lesson=run_lesson,
        quiz=run_quiz,
        lessons_told="one of the book's four lesson hands",
        quiz_told="the book's twelve self-test questions, graded",
    ),
)
"""Umtali at the terminal (its spec's ``terminal`` hook)."""
