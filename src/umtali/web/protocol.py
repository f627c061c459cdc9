"""The browser server's protocol: every message in and out, as pydantic models.

The models are the schema: FastAPI checks each request against them (a body that does
not fit is refused with 422 and says why) and writes each answer through them, and
``/openapi.json`` publishes them. docs/WEB.md tells what each message means.

What a seat is sent (:class:`SeatState`) is built from that seat's
:class:`umtali.view.PlayerView` and nothing else that could name a hidden card: the
other player's hand, the stock and a face-down discard he laid are never in it.

The WebSocket carries JSON messages too: :data:`ClientMessage` in, :data:`ServerMessage`
out (docs/WEB.md, "The WebSocket").
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, field_validator

from umtali.bots import BOTS, DEFAULT_BOT

__all__ = [
    "CLIENT_MESSAGE",
    "MAX_MOVE_CHARS",
    "MAX_SOCKET_MESSAGE_BYTES",
    "ClientMessage",
    "ClientMove",
    "ClientPing",
    "GameCreated",
    "HandEnd",
    "Health",
    "HintReply",
    "Levels",
    "MoveAccepted",
    "MoveRefused",
    "MoveRequest",
    "NewGameRequest",
    "Opponent",
    "Problem",
    "ScoreSheetModel",
    "SeatLink",
    "SeatState",
    "ServerAccepted",
    "ServerError",
    "ServerMessage",
    "ServerPong",
    "ServerRefused",
    "VerifyReply",
    "WhyReply",
]

MAX_MOVE_CHARS: Final = 200
"""The longest move text accepted: the longest move in notation is far shorter."""

MAX_SOCKET_MESSAGE_BYTES: Final = 4096
"""The largest message a client may send over the WebSocket (UTF-8 bytes): a move is
far shorter. A longer one is answered with an error and not read."""


class _Message(BaseModel):
    """A message: unknown fields are refused, not ignored, so a typo is noticed."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# -- in ------------------------------------------------------------------------------------------


class NewGameRequest(_Message):
    """``POST /api/games``: a game against the computer (``opponent: "computer"``, at
    ``level``, the person in ``seat``), or between two people who play by link
    (``opponent: "person"``)."""

    opponent: Literal["computer", "person"] = "computer"
    level: str = Field(
        default=DEFAULT_BOT,
        description=f"the computer's level: {', '.join(BOTS)}; between two people, the"
        " level of the computer that plays a seat handed over to it",
    )
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


class ClientMove(_Message):
    """Over the WebSocket: play ``move`` (in notation). ``id`` is the client's own
    number for it, sent back in the answer (``accepted`` or ``refused``)."""

    type: Literal["move"]
    move: str = Field(min_length=1, max_length=MAX_MOVE_CHARS)
    id: int | None = None


class ClientPing(_Message):
    """Over the WebSocket: is the server there? It answers ``pong``."""

    type: Literal["ping"]


ClientMessage = Annotated[ClientMove | ClientPing, Field(discriminator="type")]
"""What a client may send over the WebSocket, told apart by ``type``."""

CLIENT_MESSAGE: Final[TypeAdapter[ClientMove | ClientPing]] = TypeAdapter(ClientMessage)
"""Reads a :data:`ClientMessage` from JSON text (``validate_json``)."""


# -- out -----------------------------------------------------------------------------------------


class Problem(_Message):
    """Any refusal of a request (404, 409, 413, 422): what is wrong, in words."""

    detail: str


class Health(_Message):
    """``GET /healthz``."""

    status: Literal["ok"] = "ok"


class Levels(_Message):
    """``GET /api/levels``: the computer's levels, weakest first, and the default."""

    levels: list[str]
    default: str


class SeatLink(_Message):
    """One seat played through a link: whoever holds ``secret`` plays the seat."""

    seat: int
    secret: str
    state: str = Field(description="the seat's state: GET this path")
    socket: str = Field(description="the seat's WebSocket: the state after every change")


class GameCreated(_Message):
    """``POST /api/games``: the new game, and one link for each person's seat. The
    secrets are given out here only: the server keeps their hashes. A rematch answers
    the same, with the one link of the seat that asks (``POST .../rematch``, or a
    state's ``rematch``)."""

    game_id: int
    seats: list[SeatLink]


class Opponent(_Message):
    """The other seat, as this seat is told of it.

    ``kind``: who the game was made for, a ``person`` by link or the ``computer``.
    For a person: ``present`` while his link is open (his WebSocket's heartbeat, or a
    request, within the last few seconds); ``away_seconds``, how long he has been away
    (``None`` while present); ``handed_over``, the computer plays his seat now (he
    may reclaim it); ``can_hand_over``, he has been away longer than the grace
    period, so this seat may hand his seat to the computer (``POST
    .../hand-over``)."""

    kind: Literal["computer", "person"]
    present: bool
    away_seconds: int | None
    can_hand_over: bool
    handed_over: bool


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
    opponent: Opponent
    handed_over: bool = Field(
        description="the computer plays this seat while its person was away; POST"
        " .../reclaim to play it again"
    )
    rematch: GameCreated | None = Field(
        description="once the game is over and a rematch was asked for: this seat's link to it"
    )


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


class WhyReply(_Message):
    """``POST /api/seat/{secret}/why``: whether the move would be allowed now, and if
    not, the engine's reason (nothing is played)."""

    legal: bool
    reason: str | None


class ServerAccepted(_Message):
    """Over the WebSocket: the move ``id`` was played and stored. ``move`` is the move
    as the engine completed it; the ``state`` message of ``version`` (after the
    computer's replies, in a game against it) follows or came just before."""

    type: Literal["accepted"] = "accepted"
    id: int | None
    move: str
    sentence: str
    hand_index: int
    move_index: int
    version: int


class ServerRefused(_Message):
    """Over the WebSocket: the move ``id`` was refused, for the engine's ``reason``;
    nothing changed."""

    type: Literal["refused"] = "refused"
    id: int | None
    reason: str


class ServerError(_Message):
    """Over the WebSocket: a message that was not read (not JSON, no known ``type``,
    too long, or over the rate limit), and why; ``id`` when the message had one."""

    type: Literal["error"] = "error"
    detail: str
    id: int | None = None


class ServerPong(_Message):
    """Over the WebSocket: the answer to ``ping``."""

    type: Literal["pong"] = "pong"


ServerMessage = SeatState | ServerAccepted | ServerRefused | ServerError | ServerPong
"""What the server sends over the WebSocket, told apart by ``type``."""


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
