"""What a game's teaching in the browser shares, whatever the game: an answer to one of
its questions read and graded as the terminal reads and grades it.

A question is any object with the shape of :class:`Gradable` (Umtali's
:class:`umtali.games.umtali.learn.question.Question` is one). Its tries are counted by
:class:`umtali.learn.answers.Attempts`, so the browser gives the verdicts, reasons and
tries the terminal gives. Nothing is kept between requests: the page sends back how
many unreadable answers it has had.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from umtali.learn.answers import MAX_TRIES, Attempts, Unanswered
from umtali.learn.verdict import Verdict
from umtali.web.learning_protocol import AnswerReply, AnswerRequest, AnswerStatus, VerdictModel

__all__ = ["Gradable", "answer_question", "verdict_model"]


class Gradable(Protocol):
    """A question a learner answers by typing."""

    @property
    def grade(self) -> Callable[[str], Verdict]:
        """Reads an answer and grades it (``AnswerError`` for text it cannot read)."""

    @property
    def reveal(self) -> Callable[[], Verdict]:
        """The right answer, for a question passed over."""

    @property
    def expects(self) -> str:
        """What a well-formed answer looks like, in a sentence."""

    @property
    def why(self) -> str:
        """The explanation shown after any answer."""


def verdict_model(verdict: Verdict) -> VerdictModel:
    """A verdict as the pages are sent it."""
    return VerdictModel(
        correct=verdict.correct,
        answer=verdict.answer,
        reasons=list(verdict.reasons),
        mistakes=list(verdict.mistakes),
        read_as=verdict.read_as,
    )


def answer_question(question: Gradable, request: AnswerRequest) -> AnswerReply:
    """Read one answer to ``question`` as the terminal reads it (:class:`Attempts`: a
    skip word passes, an unreadable answer uses a try, the last try shows the answer)
    and grade it."""
    attempts = Attempts(question.grade, question.expects, can_quit=False)  # a page is left
    attempts.tries = request.tries
    reply = attempts.offer(request.answer)
    result = reply.result
    verdict: Verdict | None
    status: AnswerStatus
    if result is None:
        status, verdict = "unreadable", None
    elif isinstance(result, Unanswered):
        status = "skipped" if result is Unanswered.SKIPPED else "no_valid_answer"
        verdict = question.reveal()
    else:
        status, verdict = "graded", result
    return AnswerReply(
        status=status,
        message=reply.message,
        tries=attempts.tries,
        tries_left=MAX_TRIES - attempts.tries,
        verdict=None if verdict is None else verdict_model(verdict),
        why=question.why if verdict is not None else "",
    )
