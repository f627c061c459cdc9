"""Teaching Umtali (layer 5): the book's four lessons and its self-test, for any front end.

The lessons are scripts of events (:func:`~umtali.games.umtali.learn.lesson.steps`), the quiz a list
of questions on real positions (:func:`~umtali.games.umtali.learn.quiz.build_questions`); both hand
over one kind of :class:`~umtali.games.umtali.learn.question.Question`, graded into one kind of
:class:`~umtali.learn.verdict.Verdict` against the engine. The words are package data in
``content/*.toml`` (read by :mod:`umtali.learn.content`; :mod:`.help` names them), the
rules in brief and the play help among them (:mod:`umtali.learn.reference`). A front end renders the events, shows the
positions and reads the answers: nothing here draws anything, so the terminal
(:mod:`umtali.cli`) and a web page reuse the same lessons and quiz.

Modules: :mod:`~umtali.learn.answers` (reading typed answers and counting tries),
:mod:`~umtali.games.umtali.learn.surface` (plays written as a playing surface),
:mod:`~umtali.games.umtali.learn.notes` (the lessons' commentary and questions),
:mod:`~umtali.games.umtali.learn.breakdown` (a table's score, column by column),
:mod:`~umtali.games.umtali.learn.lesson_grading`, :mod:`~umtali.games.umtali.learn.lesson`,
:mod:`~umtali.games.umtali.learn.quiz_grading`, :mod:`~umtali.games.umtali.learn.quiz`.

>>> from umtali.games.umtali.learn import build_questions, steps
>>> len(build_questions()), type(next(steps(1))).__name__
(12, 'Opening')
"""

from __future__ import annotations

from umtali.games.umtali.learn.lesson import steps
from umtali.games.umtali.learn.question import Position, Question, Side
from umtali.games.umtali.learn.quiz import build_questions
from umtali.learn.answers import AnswerError
from umtali.learn.content import ContentError
from umtali.learn.verdict import Verdict

__all__ = [
    "AnswerError",
    "ContentError",
    "Position",
    "Question",
    "Side",
    "Verdict",
    "build_questions",
    "steps",
]
