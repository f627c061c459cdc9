"""A quiz of typed answers (layer 5), whatever the game: questions with no position to
draw, each read and graded by a function the game gives, for any front end to ask (the
terminal's: :mod:`umtali.cli.quizzing`).

>>> from umtali.learn.answers import parse_number
>>> question = TypedQuestion(number=1, topic="Sums", prompt="1 + 1?", answer_prompt="> ",
...     expects="a whole number", grade=lambda text: Verdict(parse_number(text) == 2, "2"),
...     reveal=lambda: Verdict(False, "2"))
>>> question.grade("2").correct, question.grade("3").answer
(True, '2')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from umtali.learn.verdict import Verdict

__all__ = ["Quiz", "TypedQuestion", "Verdict"]


@dataclass(frozen=True)
class TypedQuestion:
    """A question answered by typing.

    Attributes:
        number: its number in the quiz, from 1.
        topic: a few words naming it in the summary.
        prompt: the question.
        answer_prompt: the words the answer is typed after.
        expects: what a well-formed answer looks like, in a sentence.
        grade: reads an answer and grades it; raises
            :class:`~umtali.learn.answers.AnswerError` for text it cannot read.
        reveal: the right answer, for a question skipped or given up.
        why: the explanation shown after any answer (``""``: none).
    """

    number: int
    topic: str
    prompt: str
    answer_prompt: str
    expects: str
    grade: Callable[[str], Verdict]
    reveal: Callable[[], Verdict]
    why: str = ""


@dataclass(frozen=True)
class Quiz:
    """A quiz: its title, what it is (said first), and its questions in order."""

    title: str
    intro: str
    questions: tuple[TypedQuestion, ...]
