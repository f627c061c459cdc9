"""A hand walked through (layer 5), whatever the game: a fixed deal played move by move
with every hand open, the learner asked at each move to choose it, and told whether
his choice is the one the lesson plays, and why.

A game's "how to play" lesson builds a :class:`Walkthrough` (Klaberjass's:
:mod:`umtali.games.klaberjass.learn.howto`); a front end shows its steps and reads the
choices (the terminal's: :mod:`umtali.cli.walking`). What is shown of the table is plain
data: lines of words and cards (:class:`Cards`), never a rendering.

>>> step = WalkStep(number=1, table=(("Your cards: ", Cards((0, 1))),), ask="Your move",
...     before="", answer="pass", told="You pass", why=("Nothing to take.",),
...     judge=lambda text: Judgement("same" if text == "pass" else "illegal", "..."))
>>> step.judge("pass").settled, step.judge("take").settled
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

__all__ = ["Cards", "Judgement", "Line", "Verdicts", "WalkStep", "Walkthrough"]


@dataclass(frozen=True)
class Cards:
    """Cards to show on a line, in this order (card ids)."""

    cards: tuple[int, ...]


Line = tuple[str | Cards, ...]
"""One line of what is shown: words and cards, in order."""

Verdicts = Literal["same", "other", "illegal", "unreadable", "shown"]
"""How a choice is judged: the lesson's own move (``same``), another legal move
(``other``), a move the rules forbid now (``illegal``), text that is no move
(``unreadable``), or no choice at all, the lesson's move shown (``shown``)."""


@dataclass(frozen=True)
class Judgement:
    """What the learner is told of his choice.

    Attributes:
        kind: how it is judged (:data:`Verdicts`).
        message: what he is told, in a sentence or two: the refusal of an illegal move
            names the rule the engine gives; another legal move is told apart from the
            lesson's.
    """

    kind: Verdicts
    message: str

    @property
    def settled(self) -> bool:
        """Whether the lesson goes on (its own move is played); otherwise the learner
        chooses again."""
        return self.kind in ("same", "other", "shown")


@dataclass(frozen=True)
class WalkStep:
    """One move of the hand, as the learner meets it.

    Attributes:
        number: its number, from 1.
        table: what is shown before the choice, line by line (both hands open).
        ask: the question, naming who is to move and what he may do.
        before: what to think about before choosing (``""``: nothing).
        answer: the move the lesson plays, as it is typed.
        told: that move as a sentence, as the table tells it.
        why: why the lesson plays it and the rules it shows, a point a line.
        judge: judges a typed choice (an empty one shows the lesson's move).
    """

    number: int
    table: tuple[Line, ...]
    ask: str
    before: str
    answer: str
    told: str
    why: tuple[str, ...]
    judge: Callable[[str], Judgement]


@dataclass(frozen=True)
class Walkthrough:
    """A hand walked through, from its opening to its score.

    Attributes:
        number: the lesson's number, from 1.
        title: its title.
        intro: what it is about, a paragraph a line.
        steps: its moves, in order.
        end_table: the table once the last move is played.
        ending: the hand's score and how it is reached, a point a line.
        summary: what to remember, a point a line.
    """

    number: int
    title: str
    intro: tuple[str, ...]
    steps: tuple[WalkStep, ...]
    end_table: tuple[Line, ...]
    ending: tuple[str, ...]
    summary: tuple[str, ...]
