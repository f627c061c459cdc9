"""The learning pages' protocol, as far as every game shares it (the routes are in
:mod:`umtali.web.routers.learning`): an answer to a question and its verdict, and the
frame of a replay, whose boards and hands' ends each game's table fills in with models
of its own (:mod:`umtali.web.tables`).

Cards are written in ASCII notation (``"10h"``, ``"Ks"``), as the game's API writes
them, so that a page draws them all the same way. Nothing here is hidden from the
learner: a lesson and a replay show every hand, the stock count and every discard, face
down or not, since the one who watches holds them all.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal

from pydantic import Field

from umtali.learn.answers import MAX_TRIES
from umtali.web.protocol import Message

__all__ = [
    "MAX_ANSWER_CHARS",
    "AnswerReply",
    "AnswerRequest",
    "AnswerStatus",
    "ReplayHand",
    "ReplayReply",
    "ReplayStep",
    "VerdictModel",
]

MAX_ANSWER_CHARS: Final = 500
"""The longest answer read: the longest right answer (a whole hand put down) is far
shorter."""


# -- answers --------------------------------------------------------------------------------


class AnswerRequest(Message):
    """An answer typed to a question (``skip`` passes over it), and how many answers to
    it could not be read before (the page counts them: after the last try the answer is
    shown)."""

    answer: str = Field(max_length=MAX_ANSWER_CHARS)
    tries: int = Field(
        default=0,
        ge=0,
        lt=MAX_TRIES,
        description=f"unreadable answers so far; after {MAX_TRIES} the answer is shown",
    )


class VerdictModel(Message):
    """The grade of an answer, or the right answer of a question passed over:
    ``answer``, the right answer; ``reasons``, why; ``mistakes``, what was wrong with the
    learner's; ``read_as``, how an answer without commas was read."""

    correct: bool
    answer: str
    reasons: list[str]
    mistakes: list[str]
    read_as: str | None


AnswerStatus = Literal["graded", "unreadable", "skipped", "no_valid_answer"]
"""What became of an answer (see :class:`AnswerReply`)."""


class AnswerReply(Message):
    """What became of an answer.

    ``status``: ``graded`` (``verdict`` is its grade), ``unreadable`` (``message`` says
    why; ask again, ``tries`` is the count to send with the next answer), ``skipped`` or
    ``no_valid_answer`` (after the last unreadable try; ``verdict`` then holds the right
    answer, not correct). ``why``: the lesson's explanation, shown after any answer.
    """

    status: AnswerStatus
    message: str
    tries: int
    tries_left: int
    verdict: VerdictModel | None
    why: str


# -- replays --------------------------------------------------------------------------------


class ReplayStep(Message):
    """One step of a replay, as ``umtali replay --step`` pauses: the deal or a turn
    (``title``), who played it (the hand's seat, ``None`` for the deal), the sentences
    of its moves, and the hand after it (``board``: its game's own model, whose ``game``
    names the game)."""

    title: str
    player: int | None
    sentences: list[str]
    board: Message


class ReplayHand(Message):
    """One hand of a record: its number in the match, its ``dealer`` (a seat of the
    hand), the two players at it as its moves and boards name them (``names``, seat 0
    first: in a game of three or four, two of its players), its steps; once over, its
    result in a sentence (the game's own account of its end, its score, is a key of the
    game's model); ``totals``, the totals when a game ends with it (or, in a game of
    three or four, after its hand or deal); ``stopped``, when the record stops inside
    it."""

    number: int | None
    title: str
    dealer: int
    names: tuple[str, str]
    steps: Sequence[ReplayStep]
    result: str | None
    totals: str | None
    stopped: bool


class ReplayReply(Message):
    """``POST /api/replay``: which ``game`` the record holds, what it holds in words
    (``heading``; ``seating``: in a game of three or four, how its players were
    placed), the players by name, every hand, and the last word (who won, or where an
    unfinished record stops). A game's own model may add more (Gin Rummy's score sheet
    and the sentence that tells its end with the bonuses)."""

    game: str
    heading: str
    seating: str | None = None
    names: list[str]
    hands: Sequence[ReplayHand]
    end: str | None
