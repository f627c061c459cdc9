"""Gin Rummy's models in the browser (layer 7): what its seat is sent beyond the
fields every game has (``gin``: :class:`GinTable`; ``party``: :class:`PartyTable`, in
three- and four-hand), a board and a hand's end as its replay draws them, and its
replay's steps, hands and score sheet.

Every model is a :class:`umtali.web.protocol.Message`, so an unknown field is refused.
Cards are written in ASCII notation (``"10h"``, ``"Ks"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from umtali.web.learning_protocol import ReplayHand, ReplayReply, ReplayStep
from umtali.web.protocol import Message, SeatState

__all__ = [
    "GinBoardModel",
    "GinHand",
    "GinHandEnd",
    "GinHandModel",
    "GinReplay",
    "GinResult",
    "GinScoreSheet",
    "GinSeatState",
    "GinSide",
    "GinStep",
    "GinTable",
    "PartyHandResult",
    "PartyTable",
]


# -- the seat ---------------------------------------------------------------------------------


class GinSide(Message):
    """One player's cards at the end of a hand of Gin Rummy, as they were laid: his
    melds (the knocker's with the other player's layoffs on them), his deadwood and its
    count, the cards he laid off, whether he knocked, and his points in the hand."""

    name: str
    melds: list[list[str]]
    deadwood: list[str]
    deadwood_points: int
    laid_off: list[str]
    knocked: bool
    score: int


class GinHandEnd(Message):
    """How a hand of Gin Rummy ended: ``how`` (gin, knock, undercut, dead), both
    sides, the ``winner`` (``None`` for a dead hand), the Oklahoma spade
    ``multiplier``, and a sentence that tells it. The knock's face-down discard is in
    neither side."""

    hand_index: int
    how: str
    winner: int | None
    multiplier: int
    sides: tuple[GinSide, GinSide]
    result: str


class GinResult(Message):
    """A finished game of Gin Rummy: the winner, the points from the hands, the line
    bonuses (25 a hand won), the game bonus (doubled by a shutout) and the final
    scores."""

    winner: int
    points: tuple[int, int]
    line: tuple[int, int]
    game_bonus: int
    shutout: bool
    final: tuple[int, int]


class GinScoreSheet(Message):
    """The score sheet of a game of Gin Rummy: each finished hand's points and how it
    ended, the totals, the target, and the game's end with its bonuses once it is
    over."""

    hands: list[tuple[tuple[int, int], str]]
    totals: tuple[int, int]
    target: int
    result: GinResult | None


class PartyHandResult(Message):
    """One finished hand of a party game: its ``number`` (from 1) and ``hand_index``
    (from 0, for ``verify``), the party's ``players`` at its seats 0 and 1, the
    ``dealer``, what each seat scored, the party player who won (``None`` for a dead
    hand), how it ended, and a sentence that tells it."""

    number: int
    hand_index: int
    players: tuple[int, int]
    dealer: int
    scores: tuple[int, int]
    winner: int | None
    how: str
    result: str


class PartyTable(Message):
    """What a seat of three- or four-hand Gin Rummy is shown of the whole game, beside
    the hand it plays: the players (``you`` is this seat's number; ``kinds`` says who
    is a person by link and who the computer), the draw for places (three-hand) or the
    teams (four-hand), who plays whom in the hand or deal under way (``seating``) and
    whether this seat sits it out, every hand counted so far, the last deal's result
    (four-hand), the running totals (by player, or by team: ``teams``), and the end."""

    size: Literal[3, 4]
    you: int
    players: list[str]
    kinds: list[Literal["person", "computer"]]
    draw: str | None
    teams: list[tuple[int, int]] | None
    teams_sentence: str | None
    seating: str | None
    sits_out: bool
    hands: list[PartyHandResult]
    last_deal: str | None
    totals: list[int]
    totals_sentence: str
    target: int
    over: bool
    result: str | None
    final: list[int] | None


class GinTable(Message):
    """What a seat of Gin Rummy is shown beyond its view: its own hand laid out in the
    melds that leave the least deadwood (``melds``, ``deadwood``, ``deadwood_points``),
    the hand's knock limit, the score sheet, and the end of the last hand that ended."""

    variant: str
    melds: list[list[str]]
    deadwood: list[str]
    deadwood_points: int
    knock_limit: int
    sheet: GinScoreSheet
    hand_end: GinHandEnd | None


class GinSeatState(SeatState):
    """What a seat of Gin Rummy is shown: the fields every game's seat has
    (:class:`~umtali.web.protocol.SeatState`), ``view`` being the seat's
    :class:`~umtali.games.gin.view.GinView` (the other player's knock discard face
    down), with Gin Rummy's own table in ``gin`` and, in three- and four-hand, the whole
    game in ``party``. ``scores`` then holds one game of the hands' points and
    ``previous`` the last hand's scores and sentence, so that what reads only the
    fields every game has still reads a game of Gin Rummy."""

    game: Literal["gin"] = "gin"
    gin: GinTable | None = None
    party: PartyTable | None = None


# -- replays ----------------------------------------------------------------------------------


class GinHandModel(Message):
    """One player's cards in a replayed hand of Gin Rummy, all face up: ``cards`` in the
    order of a hand, and the same cards laid out as the melds that leave the least
    deadwood (``melds``), the ``deadwood`` and its count (``deadwood_points``)."""

    cards: list[str]
    melds: list[list[str]]
    deadwood: list[str]
    deadwood_points: int


class GinBoardModel(Message):
    """A hand of Gin Rummy as it stands, everything face up: both players' cards, the
    discard pile bottom to top, the stock's size, the hand's knock limit and its
    multiplier (2 when an Oklahoma upcard was a spade)."""

    game: Literal["gin"] = "gin"
    hands: tuple[GinHandModel, GinHandModel]
    pile: list[str]
    stock: int
    knock_limit: int
    multiplier: int


class GinStep(ReplayStep):
    """A step of a replay of Gin Rummy: its board is Gin Rummy's."""

    board: GinBoardModel


class GinHand(ReplayHand):
    """A hand of a replay of Gin Rummy; once over, its end as laid (``gin_end``: both
    sides' melds, layoffs, deadwood and points)."""

    steps: Sequence[GinStep]
    gin_end: GinHandEnd | None = None


class GinReplay(ReplayReply):
    """``POST /api/replay`` for a record of Gin Rummy. A game between two adds its score
    sheet (``gin_sheet``: each hand's points, the totals and, once over, the line and
    game bonuses) and the sentence that tells its end with the bonuses
    (``gin_result``)."""

    game: Literal["gin"] = "gin"
    hands: Sequence[GinHand]
    gin_sheet: GinScoreSheet | None = None
    gin_result: str | None = None
