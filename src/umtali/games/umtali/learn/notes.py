"""Our commentary on the four lesson hands, and the questions put to the learner: the
types, and their loading from ``content/lesson1.toml`` to ``lesson4.toml``.

The cards, the moves and the scores live in :mod:`umtali.games.umtali.lessons`; the content files hold
only words: for every turn of every lesson, what happens and why, and the questions
asked at chosen moments. The wording is ours throughout (the strategic points come from
the rule book, the sentences do not). Nothing here decides what is legal or what scores:
:mod:`umtali.games.umtali.learn.lesson_grading` asks the engine, and uses these notes only to explain.

A question names the moment it is asked and the kind of answer it wants; the kind says
how it is graded against the engine. Loading checks every value's type, and the notes
against the hands (a turn note for every turn, questions on turns that exist).

>>> [len(notes.turns) for notes in lesson_notes()]
[4, 5, 3, 7]
>>> all(len(notes.questions) >= 3 for notes in lesson_notes())
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Literal, cast, get_args

from umtali.games.umtali.learn.help import CONTENT
from umtali.games.umtali.lessons import LESSONS
from umtali.learn.content import Table, load

__all__ = [
    "LessonNotes",
    "LessonQuestion",
    "Moment",
    "QuestionKind",
    "TurnNote",
    "lesson_notes",
]

Moment = Literal["start", "after_draw", "before_end", "after_turn", "end"]
"""When a question is asked:

- ``start``: before the turn's first move (before the draw);
- ``after_draw``: after the draw (on the opening turn: once the cards are dealt);
- ``before_end``: before the turn's last move (the discard, the pair, the forfeit);
- ``after_turn``: once the turn is over;
- ``end``: when the hand is over.
"""

QuestionKind = Literal[
    "plays",
    "best_plays",
    "overlapped",
    "discard",
    "may_take",
    "may_take_two",
    "may_discard",
    "safe_discard",
    "should",
    "choice",
    "forfeit",
    "meld_choice",
    "table_points",
    "hand_score",
    "game_score",
]
"""What a question asks, and so how it is graded:

- ``plays``: the cards the player to move must play in this meld phase (the engine's meld
  plans; any plan the rules allow is right);
- ``best_plays``: the same, for the plan that scores the most;
- ``overlapped``: which of the cards played go into overlapped columns ("none" allowed);
- ``discard``: the card to discard, a judgement the book makes (``book``); the engine
  checks the card may be discarded and what the opponent could do with it;
- ``may_take`` / ``may_take_two`` / ``may_discard``: yes or no, decided by the engine's
  legal moves, explained by the engine's reason when the answer is no;
- ``safe_discard``: yes or no for discarding ``card``: the engine looks whether the
  opponent could then take the top two discards;
- ``should``: yes or no, a judgement the book makes (``book``);
- ``choice``: one of ``options``, the book's answer is ``book``;
- ``forfeit``: a ``choice`` about the end of the hand, whose explanation the engine
  completes by playing the rest of the hand;
- ``meld_choice``: which of ``options`` (each a meld, in card text) to lay; the right one
  is the one after which the engine lets the player go out;
- ``table_points``: the points the player to move has on the table now;
- ``hand_score``: both scores of the hand, Player 1 first;
- ``game_score``: both game totals after this hand, Player 1 first.
"""


@dataclass(frozen=True)
class LessonQuestion:
    """A question of a lesson, as the content gives it (graded as the
    :class:`~umtali.games.umtali.learn.question.Question` that :func:`umtali.games.umtali.learn.lesson_grading.ask`
    makes of it).

    Attributes:
        turn: the turn it belongs to (1 = the opening turn); ``0`` for an ``end`` question.
        moment: when in that turn it is asked.
        kind: what it asks (see :data:`QuestionKind`).
        prompt: the question, as the learner reads it.
        why: our explanation, shown after the answer whether it was right or wrong.
        book: the book's answer for judgement questions: a card (``"Ah"``), ``"yes"`` or
            ``"no"``, or an option key.
        card: for ``safe_discard``, the card in question.
        options: for ``choice``, ``forfeit`` and ``meld_choice``: (key, text) pairs.
    """

    turn: int
    moment: Moment
    kind: QuestionKind
    prompt: str
    why: str = ""
    book: str = ""
    card: str = ""
    options: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class TurnNote:
    """Our commentary on one turn.

    Attributes:
        before: the situation as the turn begins.
        after: what the moves showed, one point a line.
    """

    before: str
    after: tuple[str, ...]


@dataclass(frozen=True)
class LessonNotes:
    """Everything we say about one lesson hand.

    Attributes:
        number: the lesson (1 to 4), as in :data:`umtali.games.umtali.lessons.LESSONS`.
        title: a short title.
        intro: what the lesson is about, before the deal.
        turns: one note per turn of the hand, in order.
        questions: the questions, in the order they are asked.
        summary: the lesson's main points, shown at the end.
    """

    number: int
    title: str
    intro: str
    turns: tuple[TurnNote, ...]
    questions: tuple[LessonQuestion, ...]
    summary: tuple[str, ...]


def _question(table: Table, turns: int) -> LessonQuestion:
    table.only({"turn", "moment", "kind", "prompt", "why", "book", "card", "options"})
    question = LessonQuestion(
        turn=table.integer("turn"),
        moment=cast(Moment, table.choice("moment", get_args(Moment))),
        kind=cast(QuestionKind, table.choice("kind", get_args(QuestionKind))),
        prompt=table.text("prompt"),
        why=table.text("why", ""),
        book=table.text("book", ""),
        card=table.text("card", ""),
        options=table.pairs("options"),
    )
    if not 0 <= question.turn <= turns:
        raise table.error("turn", f"the hand has turns 1 to {turns} (0: at the end)")
    if (question.turn == 0) != (question.moment == "end"):
        raise table.error("moment", "'end' goes with turn 0, and only with it")
    if question.kind in ("choice", "forfeit") and question.book not in dict(question.options):
        raise table.error("book", f"{question.book!r} is not one of the options' keys")
    return question


def _turn(table: Table) -> TurnNote:
    table.only({"before", "after"})
    return TurnNote(before=table.text("before"), after=table.texts("after"))


def _notes(number: int) -> LessonNotes:
    lesson = LESSONS[number - 1]
    table = load(f"{CONTENT}/lesson{number}.toml")
    table.only({"number", "title", "intro", "summary", "turns", "questions"})
    if table.integer("number") != number:
        raise table.error("number", f"expected {number}")
    turns = tuple(_turn(t) for t in table.tables("turns"))
    if len(turns) != len(lesson.turns):
        raise table.error("turns", f"the hand has {len(lesson.turns)} turns, not {len(turns)}")
    return LessonNotes(
        number=number,
        title=table.text("title"),
        intro=table.text("intro"),
        turns=turns,
        questions=tuple(_question(q, len(turns)) for q in table.tables("questions")),
        summary=table.texts("summary"),
    )


@cache
def lesson_notes() -> tuple[LessonNotes, ...]:
    """The notes of every lesson hand, in order, loaded once (:class:`ContentError` if a
    file does not fit, see :mod:`umtali.learn.content`)."""
    return tuple(_notes(lesson.number) for lesson in LESSONS)
