"""The browser server's protocol: every message in and out, as pydantic models.

The models are the schema: FastAPI checks each request against them (a body that does
not fit is refused with 422 and says why) and writes each answer through them, and
``/openapi.json`` publishes them. docs/WEB.md tells what each message means.

What a seat is sent (:class:`SeatState`) is built from that seat's
:class:`umtali.view.PlayerView` and nothing else that could name a hidden card: the
other player's hand, the stock and a face-down discard he laid are never in it.
"""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from umtali.bots import BOTS, DEFAULT_BOT

__all__ = [
    "MAX_MOVE_CHARS",
    "GameCreated",
    "HandEnd",
    "Health",
    "HintReply",
    "MoveAccepted",
    "MoveRefused",
    "MoveRequest",
    "NewGameRequest",
    "Problem",
    "ScoreSheetModel",
    "SeatLink",
    "SeatState",
    "VerifyReply",
]

MAX_MOVE_CHARS: Final = 200
"""The longest move text accepted: the longest move in notation is far shorter."""


class _Message(BaseModel):
    """A message: unknown fields are refused, not ignored, so a typo is noticed."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# -- in ------------------------------------------------------------------------------------------


class NewGameRequest(_Message):
    """``POST /api/games``: a game against the computer (``opponent: "computer"``, at
    ``level``, the person in ``seat``), or between two people who play by link
    (``opponent: "person"``)."""

    opponent: Literal["computer", "person"] = "computer"
    level: str = Field(default=DEFAULT_BOT, description=f"the computer's level: {', '.join(BOTS)}")
    seat: Literal[0, 1] = Field(default=0, description="the person's seat against the computer")
    kind: Literal["hand", "game", "session"] = Field(
        default="game", description="a single hand, a game (four hands) or a session"
    )

    @field_validator("level")
    @classmethod
    def _known_level(cls, level: str) -> str:
        if level not in BOTS:
            raise ValueError(f"the computer's level is one of {', '.join(BOTS)}")
        return level


class MoveRequest(_Message):
    """``POST /api/seat/{secret}/move``: a move in notation, like ``draw`` or
    ``discard 4c down``."""

    move: str = Field(min_length=1, max_length=MAX_MOVE_CHARS)


# -- out -----------------------------------------------------------------------------------------


class Problem(_Message):
    """Any refusal of a request (404, 409, 413, 422): what is wrong, in words."""

    detail: str


class Health(_Message):
    """``GET /healthz``."""

    status: Literal["ok"] = "ok"


class SeatLink(_Message):
    """One seat played through a link: whoever holds ``secret`` plays the seat."""

    seat: int
    secret: str
    state: str = Field(description="the seat's state: GET this path")
    socket: str = Field(description="the seat's WebSocket: the state after every change")


class GameCreated(_Message):
    """``POST /api/games``: the new game, and one link for each person's seat. The
    secrets are given out here only: the server keeps their hashes."""

    game_id: int
    seats: list[SeatLink]


class ScoreSheetModel(_Message):
    """The score sheet: each game begun (its hands' scores and its totals), the games
    won in a session, and the points on the table in the hand under way."""

    games: list[tuple[int, list[tuple[int, int]], tuple[int, int]]]
    games_won: tuple[int, int] | None
    this_hand: tuple[int, int] | None


class HandEnd(_Message):
    """The last hand that ended, as this seat saw it: its scores, how it ended, and the
    other player's last moves in it (after this seat's last one), told as in
    :class:`SeatState`'s ``recap``. Sent on with every state until the next hand ends,
    since the next hand is dealt at once."""

    hand_index: int
    scores: tuple[int, int]
    how: str
    recap: list[str]


class SeatState(_Message):
    """What one seat is shown: ``GET /api/seat/{secret}`` answers it, and the seat's
    WebSocket sends it after every change of the game.

    ``view`` is the seat's :class:`umtali.view.PlayerView` as JSON (cards in ASCII
    notation) of the last hand dealt; ``legal`` its moves in notation when it is to
    move; ``recap`` the other player's moves since this seat's last one, told as this
    seat saw them; ``commitment`` the hand's published deck commitment (check it with
    ``GET /api/games/{id}/hands/{hand_index}/verify`` once the hand is over).
    ``version`` grows with every stored change (a deal, a move)."""

    type: Literal["state"] = "state"
    game_id: int
    seat: int
    version: int
    names: tuple[str, str] = Field(description="the players, this seat named 'You'")
    kind: Literal["hand", "game", "session"]
    title: str
    hand_index: int
    commitment: str
    view: dict[str, Any]
    legal: list[str]
    your_turn: bool
    recap: list[str]
    since_own_move: bool
    scores: ScoreSheetModel
    over: bool
    result: str | None
    previous: HandEnd | None


class MoveAccepted(_Message):
    """The move was played and stored; ``sentence`` tells it, ``state`` is what the seat
    sees now (after the computer's replies, when it plays one of the seats)."""

    accepted: Literal[True] = True
    hand_index: int
    move_index: int
    sentence: str
    state: SeatState


class MoveRefused(_Message):
    """Nothing was done (409): ``reason`` is the engine's, addressed to the player."""

    accepted: Literal[False] = False
    reason: str


class HintReply(_Message):
    """``GET /api/seat/{secret}/hint``: the move the hint level would make, and why."""

    move: str
    level: str
    why: str


class VerifyReply(_Message):
    """``GET /api/games/{id}/hands/{n}/verify``: the commitment published at the deal;
    once the hand is over, also the salt (hex) and the deck (ASCII card names, top of
    the deal first), so that ``sha256(salt + " ".join(deck))`` can be checked against
    it."""

    game_id: int
    hand_index: int
    commitment: str
    over: bool
    salt: str | None
    deck: list[str] | None
