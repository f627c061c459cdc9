"""A question as a front end puts it: what to show, how to ask, how to grade.

Lessons and the quiz both hand their questions over in this one form, so a terminal and
a web page ask them the same way. What the learner sees of the game is plain data (a
:class:`Position`: captions, columns, cards), never a rendering.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from umtali.games.umtali.state import Column
from umtali.kernel.cards import CardSet
from umtali.learn.verdict import Verdict

__all__ = ["Position", "Question", "Side"]


@dataclass(frozen=True)
class Side:
    """One side of the table as shown: a caption and its columns, as laid."""

    caption: str
    columns: tuple[Column, ...]


@dataclass(frozen=True)
class Position:
    """What the learner is shown of a game, top to bottom.

    Attributes:
        note: a sentence about the table, shown first (``""``: none).
        sides: sides of the table, in the order shown.
        hand: the learner's hand, if shown.
        hand_caption: the words before the hand.
        pile: the discard pile, bottom to top (``None`` for a card lying face down), if
            shown.
        pile_caption: the words before the pile.
    """

    note: str = ""
    sides: tuple[Side, ...] = ()
    hand: CardSet | None = None
    hand_caption: str = "Your hand"
    pile: tuple[int | None, ...] | None = None
    pile_caption: str = "Discard pile, bottom to top"


@dataclass(frozen=True)
class Question:
    """A question ready to be asked and graded.

    Attributes:
        prompt: the question, as the learner reads it.
        kind: what it asks, a name a front end may choose its input by (a lesson
            question's kind, like ``"meld_choice"``, or a quiz answer's, like
            ``"surface"``).
        answer_prompt: the words the answer is typed after.
        expects: what a well-formed answer looks like, in a sentence.
        grade: reads an answer and grades it against the engine; raises
            :class:`~umtali.learn.answers.AnswerError` for text it cannot read.
        reveal: the right answer, for a question skipped or given up.
        choices: (key, text) pairs to choose from, in order (none for an open question);
            a text may be ``""``, the key saying it all (the quiz's ``yes``, ``no``).
        why: an explanation shown after any answer, right or wrong (``""``: none).
        position: what the learner is shown, if anything.
        number: its number in a series (the quiz's 1 to 12), 0 if none.
        topic: a few words naming it in a summary.
        picks: the cards a learner may click to build an answer of cards (``None``:
            none, the answer is typed or chosen).
    """

    prompt: str
    kind: str
    answer_prompt: str
    expects: str
    grade: Callable[[str], Verdict]
    reveal: Callable[[], Verdict]
    choices: tuple[tuple[str, str], ...] = ()
    why: str = ""
    position: Position | None = None
    number: int = 0
    topic: str = ""
    picks: CardSet | None = None

    @property
    def format_first(self) -> bool:
        """Whether the answer's format is explained before the first answer: plays
        written as a surface are new to a learner (the quiz's ``surface`` kind)."""
        return self.kind == "surface"
