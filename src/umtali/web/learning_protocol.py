"""The learning pages' protocol: every message of the lesson, quiz and replay API, as
pydantic models (the routes are in :mod:`umtali.web.learning`).

Cards are written in ASCII notation (``"10h"``, ``"Ks"``), as the game's API writes
them, so that a page draws them all the same way. Nothing here is hidden from the
learner: a lesson and a replay show both hands, the stock count and every discard, face
down or not, since the one who watches holds them all.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

from umtali.learn.answers import MAX_TRIES
from umtali.web.protocol import GinHandEnd, GinScoreSheet

__all__ = [
    "MAX_ANSWER_CHARS",
    "AnswerReply",
    "AnswerRequest",
    "AnswerStatus",
    "AskEvent",
    "BoardEvent",
    "BoardModel",
    "ColumnModel",
    "GinBoardModel",
    "GinHandModel",
    "HandOverEvent",
    "HoldsEvent",
    "LessonEvent",
    "LessonInfo",
    "LessonList",
    "LessonScript",
    "NarrateEvent",
    "OpeningEvent",
    "PauseEvent",
    "PileCard",
    "PlayEvent",
    "PositionModel",
    "QuestionModel",
    "QuizModel",
    "ReplayBoard",
    "ReplayHand",
    "ReplayReply",
    "ReplayStep",
    "ScoreLineModel",
    "ScoresModel",
    "SideModel",
    "SideScoreModel",
    "SummaryEvent",
    "TurnStartEvent",
    "VerdictModel",
]

MAX_ANSWER_CHARS: Final = 500
"""The longest answer read: the longest right answer (a whole hand put down) is far
shorter."""


class _Message(BaseModel):
    """A message: unknown fields are refused, not ignored, so a typo is noticed."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# -- what is shown ----------------------------------------------------------------------------


class ColumnModel(_Message):
    """One column on a side of the table: its kind (``sequence``, ``group``,
    ``marriage``, ``pair`` or ``solo``), its cards as laid (top card first), and for a
    solo card the table card it was played off."""

    kind: str
    cards: list[str]
    played_off: str | None = None


class PileCard(_Message):
    """A card of the discard pile, and whether it was laid face down."""

    card: str
    face_down: bool = False


class BoardModel(_Message):
    """A hand of Umtali as it stands, everything face up: both hands (in the order of a
    hand: spades, hearts, diamonds, clubs, high to low), both sides of the table, the
    discard pile bottom to top, and the stock's size. ``points``: the points each player
    has on the table, ``None`` while a question asks for them. ``to_move``: the player
    to move, ``None`` once the hand is over. ``game`` tells it from a
    :class:`GinBoardModel` in a replay."""

    game: Literal["umtali"] = "umtali"
    dealer: int
    to_move: int | None
    turn: int
    stock: int
    pile: list[PileCard]
    hands: tuple[list[str], list[str]]
    tables: tuple[list[ColumnModel], list[ColumnModel]]
    points: tuple[int, int] | None


class SideModel(_Message):
    """One side of the table in a question's position: a caption and its columns."""

    caption: str
    columns: list[ColumnModel]


class PositionModel(_Message):
    """What a question shows, top to bottom: a note, sides of the table, the learner's
    hand, the discard pile (``None`` for a card that lies face down)."""

    note: str
    sides: list[SideModel]
    hand: list[str] | None
    hand_caption: str
    pile: list[str | None] | None
    pile_caption: str


class QuestionModel(_Message):
    """A question as it is put: ``prompt``; ``kind``, what it asks (a page may choose its
    input by it); ``answer_prompt``, the words before the answer; ``expects``, what an
    answer looks like; ``format_first``: whether to explain that before the first answer;
    ``choices``: (key, text) pairs to choose from (none for an open question);
    ``position``: what to show. The right answer and the explanation come only with an
    answer's reply."""

    prompt: str
    kind: str
    answer_prompt: str
    expects: str
    format_first: bool
    choices: list[tuple[str, str]]
    position: PositionModel | None
    number: int
    topic: str


# -- answers --------------------------------------------------------------------------------


class AnswerRequest(_Message):
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


class VerdictModel(_Message):
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


class AnswerReply(_Message):
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


# -- lessons --------------------------------------------------------------------------------


class ScoreLineModel(_Message):
    """One column of a hand's score: what it is, its cards, the sum, the points."""

    what: str
    cards: str
    values: str
    points: int


class SideScoreModel(_Message):
    """One player's score for a hand, column by column."""

    player: int
    label: str
    score: int
    lines: list[ScoreLineModel]


class ScoresModel(_Message):
    """A finished hand's score, Player 1's first, and who won it in a sentence."""

    sides: tuple[SideScoreModel, SideScoreModel]
    result: str


class OpeningEvent(_Message):
    """The lesson begins."""

    type: Literal["opening"] = "opening"
    number: int
    title: str
    intro: str


class TurnStartEvent(_Message):
    """A turn begins: who moves, and our note on the situation."""

    type: Literal["turn"] = "turn"
    number: int
    player: int
    label: str
    note: str


class PlayEvent(_Message):
    """A move, in notation and as a sentence."""

    type: Literal["play"] = "play"
    move: str
    sentence: str


class HoldsEvent(_Message):
    """What the player to move holds after his draw, before a question on it."""

    type: Literal["holds"] = "holds"
    player: int
    name: str
    hand: list[str]


class BoardEvent(_Message):
    """The hand as it stands, under a caption (``""``: none)."""

    type: Literal["board"] = "board"
    board: BoardModel
    caption: str


class AskEvent(_Message):
    """A question: ``index`` (from 1) is the one to answer it by."""

    type: Literal["ask"] = "ask"
    index: int
    question: QuestionModel


class NarrateEvent(_Message):
    """Our commentary on the turn just played, one point each."""

    type: Literal["narrate"] = "narrate"
    points: list[str]


class PauseEvent(_Message):
    """A turn is over and another follows: the learner says when to go on."""

    type: Literal["pause"] = "pause"


class HandOverEvent(_Message):
    """The last move is played."""

    type: Literal["hand_over"] = "hand_over"


class ScoresEvent(_Message):
    """The hand's score, column by column."""

    type: Literal["scores"] = "scores"
    scores: ScoresModel


class SummaryEvent(_Message):
    """The end of the lesson: the game's totals after it, what to remember, and the next
    lesson (``None`` after the last)."""

    type: Literal["summary"] = "summary"
    number: int
    totals: tuple[int, int]
    points: list[str]
    next_lesson: int | None


LessonEvent = Annotated[
    OpeningEvent
    | TurnStartEvent
    | PlayEvent
    | HoldsEvent
    | BoardEvent
    | AskEvent
    | NarrateEvent
    | PauseEvent
    | HandOverEvent
    | ScoresEvent
    | SummaryEvent,
    Field(discriminator="type"),
]
"""One event of a lesson's script, told apart by its ``type``."""


class LessonInfo(_Message):
    """A lesson hand in the list: its number, title, what it is about, and how many
    questions it asks."""

    number: int
    title: str
    intro: str
    questions: int


class LessonList(_Message):
    """``GET /api/lessons``: the four lesson hands, in order."""

    lessons: list[LessonInfo]


class LessonScript(_Message):
    """``GET /api/lessons/{n}``: the lesson's script, event by event."""

    number: int
    title: str
    events: list[LessonEvent]


# -- the quiz -------------------------------------------------------------------------------


class QuizModel(_Message):
    """``GET /api/quiz``: the quiz's title and opening words, and its questions, each
    answered by its ``number``."""

    title: str
    intro: str
    questions: list[QuestionModel]


# -- replays --------------------------------------------------------------------------------


class GinHandModel(_Message):
    """One player's cards in a replayed hand of Gin Rummy, all face up: ``cards`` in the
    order of a hand, and the same cards laid out as the melds that leave the least
    deadwood (``melds``), the ``deadwood`` and its count (``deadwood_points``)."""

    cards: list[str]
    melds: list[list[str]]
    deadwood: list[str]
    deadwood_points: int


class GinBoardModel(_Message):
    """A hand of Gin Rummy as it stands, everything face up: both players' cards, the
    discard pile bottom to top, the stock's size, the hand's knock limit and its
    multiplier (2 when an Oklahoma upcard was a spade)."""

    game: Literal["gin"] = "gin"
    hands: tuple[GinHandModel, GinHandModel]
    pile: list[str]
    stock: int
    knock_limit: int
    multiplier: int


ReplayBoard = Annotated[BoardModel | GinBoardModel, Field(discriminator="game")]
"""The board of a replay's step, Umtali's or Gin Rummy's, told apart by its ``game``."""


class ReplayStep(_Message):
    """One step of a replay, as ``umtali replay --step`` pauses: the deal or a turn
    (``title``), who played it (the hand's seat, ``None`` for the deal), the sentences
    of its moves, and the hand after it."""

    title: str
    player: int | None
    sentences: list[str]
    board: ReplayBoard


class ReplayHand(_Message):
    """One hand of a record: its number in the match, its ``dealer`` (a seat of the
    hand), the two players at it as its moves and boards name them (``names``, seat 0
    first: in three- and four-hand Gin Rummy, two of the party), its steps; once over,
    its result in a sentence and its score (Umtali's column by column in ``scores``,
    Gin Rummy's melds, layoffs, deadwood and points in ``gin_end``); ``totals``, the
    totals when a game ends with it (or, in a party game, after its hand or deal);
    ``stopped``, when the record stops inside it."""

    number: int | None
    title: str
    dealer: int
    names: tuple[str, str]
    steps: list[ReplayStep]
    result: str | None
    scores: ScoresModel | None = None
    gin_end: GinHandEnd | None = None
    totals: str | None
    stopped: bool


class ReplayReply(_Message):
    """``POST /api/replay``: which ``game`` the record holds (``umtali`` or ``gin``),
    what it holds in words (``heading``; ``seating``: in a party game, the draw for
    places or the teams), the players by name (two, or three or four in a party game),
    every hand, and the last word (who won, or where an unfinished record stops).
    A game of Gin Rummy between two adds its score sheet (``gin_sheet``: each hand's
    points, the totals and, once over, the line and game bonuses) and the sentence that
    tells its end with the bonuses (``gin_result``)."""

    game: Literal["umtali", "gin"]
    heading: str
    seating: str | None = None
    names: list[str]
    hands: list[ReplayHand]
    end: str | None
    gin_sheet: GinScoreSheet | None = None
    gin_result: str | None = None
