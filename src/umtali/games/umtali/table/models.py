"""Umtali's models in the browser (layer 7): what its seat is sent beyond the fields
every game has, a board as a lesson and a replay draw it, a hand's score column by
column, the lessons' events and the quiz's questions, and its replay's steps and hands.

Every model is a :class:`umtali.web.protocol.Message`, so an unknown field is refused.
Cards are written in ASCII notation (``"10h"``, ``"Ks"``), as the game's API writes
them. Nothing of a lesson, a question or a replay is hidden: the one who watches holds
every card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import Field

from umtali.web.learning_protocol import ReplayHand, ReplayReply, ReplayStep
from umtali.web.protocol import Message, SeatState

__all__ = [
    "AskEvent",
    "BoardEvent",
    "BoardModel",
    "ColumnModel",
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
    "ScoreLineModel",
    "ScoresEvent",
    "ScoresModel",
    "SideModel",
    "SideScoreModel",
    "SummaryEvent",
    "TurnStartEvent",
    "UmtaliHand",
    "UmtaliReplay",
    "UmtaliSeatState",
    "UmtaliStep",
]


# -- what is shown ----------------------------------------------------------------------------


class ColumnModel(Message):
    """One column on a side of the table: its kind (``sequence``, ``group``,
    ``marriage``, ``pair`` or ``solo``), its cards as laid (top card first), and for a
    solo card the table card it was played off."""

    kind: str
    cards: list[str]
    played_off: str | None = None


class PileCard(Message):
    """A card of the discard pile, and whether it was laid face down."""

    card: str
    face_down: bool = False


class BoardModel(Message):
    """A hand of Umtali as it stands, everything face up: both hands (in the order of a
    hand: spades, hearts, diamonds, clubs, high to low), both sides of the table, the
    discard pile bottom to top, and the stock's size. ``points``: the points each player
    has on the table, ``None`` while a question asks for them. ``to_move``: the player
    to move, ``None`` once the hand is over. ``game`` tells it from another game's board
    in a replay."""

    game: Literal["umtali"] = "umtali"
    dealer: int
    to_move: int | None
    turn: int
    stock: int
    pile: list[PileCard]
    hands: tuple[list[str], list[str]]
    tables: tuple[list[ColumnModel], list[ColumnModel]]
    points: tuple[int, int] | None


class SideModel(Message):
    """One side of the table in a question's position: a caption and its columns."""

    caption: str
    columns: list[ColumnModel]


class PositionModel(Message):
    """What a question shows, top to bottom: a note, sides of the table, the learner's
    hand, the discard pile (``None`` for a card that lies face down)."""

    note: str
    sides: list[SideModel]
    hand: list[str] | None
    hand_caption: str
    pile: list[str | None] | None
    pile_caption: str


class QuestionModel(Message):
    """A question as it is put: ``prompt``; ``kind``, what it asks (a page may choose its
    input by it); ``answer_prompt``, the words before the answer; ``expects``, what an
    answer looks like; ``format_first``: whether to explain that before the first answer;
    ``choices``: (key, text) pairs to choose from (none for an open question);
    ``position``: what to show; ``picks``: the cards a page may offer to click to build an
    answer of cards (none for a question answered otherwise). The right answer and the explanation come only with an
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
    picks: list[str]


# -- lessons --------------------------------------------------------------------------------


class ScoreLineModel(Message):
    """One column of a hand's score: what it is, its cards, the sum, the points."""

    what: str
    cards: str
    values: str
    points: int


class SideScoreModel(Message):
    """One player's score for a hand, column by column."""

    player: int
    label: str
    score: int
    lines: list[ScoreLineModel]


class ScoresModel(Message):
    """A finished hand's score, Player 1's first, and who won it in a sentence."""

    sides: tuple[SideScoreModel, SideScoreModel]
    result: str


class OpeningEvent(Message):
    """The lesson begins."""

    type: Literal["opening"] = "opening"
    number: int
    title: str
    intro: str


class TurnStartEvent(Message):
    """A turn begins: who moves, and our note on the situation."""

    type: Literal["turn"] = "turn"
    number: int
    player: int
    label: str
    note: str


class PlayEvent(Message):
    """A move, in notation and as a sentence."""

    type: Literal["play"] = "play"
    move: str
    sentence: str


class HoldsEvent(Message):
    """What the player to move holds after his draw, before a question on it."""

    type: Literal["holds"] = "holds"
    player: int
    name: str
    hand: list[str]


class BoardEvent(Message):
    """The hand as it stands, under a caption (``""``: none)."""

    type: Literal["board"] = "board"
    board: BoardModel
    caption: str


class AskEvent(Message):
    """A question: ``index`` (from 1) is the one to answer it by."""

    type: Literal["ask"] = "ask"
    index: int
    question: QuestionModel


class NarrateEvent(Message):
    """Our commentary on the turn just played, one point each."""

    type: Literal["narrate"] = "narrate"
    points: list[str]


class PauseEvent(Message):
    """A turn is over and another follows: the learner says when to go on."""

    type: Literal["pause"] = "pause"


class HandOverEvent(Message):
    """The last move is played."""

    type: Literal["hand_over"] = "hand_over"


class ScoresEvent(Message):
    """The hand's score, column by column."""

    type: Literal["scores"] = "scores"
    scores: ScoresModel


class SummaryEvent(Message):
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


class LessonInfo(Message):
    """A lesson hand in the list: its number, title, what it is about, and how many
    questions it asks."""

    number: int
    title: str
    intro: str
    questions: int


class LessonList(Message):
    """``GET /api/lessons``: the four lesson hands, in order."""

    lessons: list[LessonInfo]


class LessonScript(Message):
    """``GET /api/lessons/{n}``: the lesson's script, event by event."""

    number: int
    title: str
    events: list[LessonEvent]


# -- the quiz -------------------------------------------------------------------------------


class QuizModel(Message):
    """``GET /api/quiz``: the quiz's title and opening words, and its questions, each
    answered by its ``number``."""

    title: str
    intro: str
    questions: list[QuestionModel]


# -- the seat ---------------------------------------------------------------------------------


class UmtaliSeatState(SeatState):
    """What a seat of Umtali is shown: the fields every game's seat has
    (:class:`~umtali.web.protocol.SeatState`), ``view`` being the seat's
    :class:`~umtali.games.umtali.view.PlayerView` without ``opponent_excluded``."""

    game: Literal["umtali"] = "umtali"


# -- replays ----------------------------------------------------------------------------------


class UmtaliStep(ReplayStep):
    """A step of a replay of Umtali: its board is Umtali's."""

    board: BoardModel


class UmtaliHand(ReplayHand):
    """A hand of a replay of Umtali; once over, its score column by column
    (``scores``)."""

    steps: Sequence[UmtaliStep]
    scores: ScoresModel | None = None


class UmtaliReplay(ReplayReply):
    """``POST /api/replay`` for a record of Umtali."""

    game: Literal["umtali"] = "umtali"
    hands: Sequence[UmtaliHand]
