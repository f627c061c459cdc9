"""The grade of one answer, for the lessons and the quiz alike.

>>> verdict = Verdict(False, "no", reasons=("the top discard lies face down",),
...                   mistakes=("the answer is no, not yes",))
>>> verdict.correct, verdict.answer
(False, 'no')
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Verdict"]


@dataclass(frozen=True)
class Verdict:
    """The grade of one answer (or, for a question skipped, just the right answer).

    Attributes:
        correct: whether the answer agrees with the engine (or with the book, for a
            judgement the rules do not decide).
        answer: the right answer, as the learner would write it.
        reasons: why it is the answer, one sentence a line, from the engine wherever it
            has something to say (refusals, acceptance lists, score breakdowns).
        mistakes: what was wrong with the learner's own answer, most specific first.
        read_as: how plays written without commas were read, to show the learner.
    """

    correct: bool
    answer: str
    reasons: tuple[str, ...] = ()
    mistakes: tuple[str, ...] = ()
    read_as: str | None = None
