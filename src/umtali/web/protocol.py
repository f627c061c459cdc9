"""The browser server's protocol: every message in and out, as pydantic models.

The models are the schema: FastAPI checks each request against them (a body that does
not fit is refused with 422 and says why) and writes each answer through them, and
``/openapi.json`` publishes them. docs/WEB.md tells what each message means.

What a seat is sent (:class:`SeatState`) is built from that seat's
:class:`umtali.games.umtali.view.PlayerView` and nothing else that could name a hidden card: the
other player's hand, the stock and a face-down discard he laid are never in it.

A game of Gin Rummy is sent the same :class:`SeatState`, its ``view`` the seat's
:class:`umtali.games.gin.view.GinView`, with Gin Rummy's own table in ``gin``
(:class:`GinTable`).

The WebSocket carries JSON messages too: :data:`ClientMessage` in, :data:`ServerMessage`
out (docs/WEB.md, "The WebSocket").
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from umtali.games.gin.bots import GIN_BOTS
from umtali.games.gin.rules import GIN_PRESETS
from umtali.games.gin.session import DEFAULT_GIN_BOT
from umtali.games.umtali.bots import BOTS, DEFAULT_BOT
from umtali.games.umtali.rules import PRESETS

__all__ = [
    "CLIENT_MESSAGE",
    "MAX_MOVE_CHARS",
    "MAX_SOCKET_MESSAGE_BYTES",
    "ClientMessage",
    "ClientMove",
    "ClientPing",
    "GameCreated",
    "GameName",
    "GameOffered",
    "GamesOffered",
    "GinHandEnd",
    "GinResult",
    "GinScoreSheet",
    "GinSide",
    "GinTable",
    "HandEnd",
    "Health",
    "HintReply",
    "Levels",
    "MoveAccepted",
    "MoveRefused",
    "MoveRequest",
    "NewGameRequest",
    "Opponent",
    "PartyHandResult",
    "PartyTable",
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


GameName = Literal["umtali", "gin"]
"""The games the server plays, as a record's ``game`` names them."""

GAME_TITLES: Final[dict[str, str]] = {"umtali": "Umtali", "gin": "Gin Rummy"}


def levels_of(game: str) -> tuple[list[str], str]:
    """The computer's levels of ``game``, weakest first, and its default level.

    >>> levels_of("gin")
    (['random', 'greedy', 'expert'], 'expert')
    """
    if game == "gin":
        return list(GIN_BOTS), DEFAULT_GIN_BOT
    return list(BOTS), DEFAULT_BOT


def rules_of(game: str) -> list[str]:
    """The rules presets of ``game``, the standard first: Umtali's ``umtali.games.umtali.rules.PRESETS``
    (read when asked, so a preset added there is offered at once), Gin Rummy's variants.

    >>> rules_of("gin")
    ['standard', 'oklahoma']
    """
    return list(GIN_PRESETS if game == "gin" else PRESETS)


# -- in ------------------------------------------------------------------------------------------


class NewGameRequest(_Message):
    """``POST /api/games``: a game of ``game`` (Umtali unless told) against the computer
    (``opponent: "computer"``, at ``level``, the person in ``seat``), or between two
    people who play by link (``opponent: "person"``). ``rules`` names a preset of the
    game (``GET /api/games-offered`` lists them); ``level`` and ``rules`` left out are
    the game's defaults.

    Gin Rummy may have three or four ``players``: the person takes ``seat``, the
    seats in ``invite`` go to friends by link, and the computer plays the others."""

    game: GameName = Field(default="umtali", description="umtali, or gin (Gin Rummy)")
    opponent: Literal["computer", "person"] = "computer"
    level: str | None = Field(
        default=None,
        description=f"the computer's level: for Umtali {', '.join(BOTS)} (default"
        f" {DEFAULT_BOT}), for Gin Rummy {', '.join(GIN_BOTS)} (default {DEFAULT_GIN_BOT});"
        " between two people, the level of the computer that plays a seat handed over to it",
    )
    rules: str | None = Field(
        default=None,
        description="the rules preset: for Umtali one of umtali.games.umtali.rules.PRESETS (default"
        f" standard), for Gin Rummy {' or '.join(GIN_PRESETS)} (default standard)",
        max_length=40,
    )
    seat: int = Field(
        default=0,
        ge=0,
        le=3,
        description="the person's seat against the computer (0 or 1; in a party game, 0 to"
        " players - 1)",
    )
    players: Literal[2, 3, 4] = Field(
        default=2, description="how many play: 3 or 4 for three- or four-hand Gin Rummy"
    )
    invite: list[int] = Field(
        default_factory=list,
        max_length=3,
        description="in a party game, the seats given to friends, a link each; the"
        " computer plays the seats neither the person's nor invited",
    )
    kind: Literal["hand", "game", "session"] = Field(
        default="game",
        description="a single hand, a game (four hands) or a session; Gin Rummy is played"
        " as a game, to its rules' target",
    )

    @model_validator(mode="after")
    def _known_to_the_game(self) -> NewGameRequest:
        title = GAME_TITLES[self.game]
        levels, _default = levels_of(self.game)
        if self.level is not None and self.level not in levels:
            raise ValueError(f"the computer's level at {title} is one of {', '.join(levels)}")
        presets = rules_of(self.game)
        if self.rules is not None and self.rules not in presets:
            raise ValueError(f"the rules of {title} are one of {', '.join(presets)}")
        if self.game == "gin" and self.kind != "game":
            raise ValueError(
                "Gin Rummy is played as a game, to its rules' target: its kind is 'game'"
            )
        if self.players == 2:
            if self.seat > 1:
                raise ValueError("a game of two has seats 0 and 1")
            if self.invite:
                raise ValueError(
                    "friends are invited to the seats of a party game (3 or 4 players); a game"
                    " of two between people is opponent 'person'"
                )
            return self
        if self.game != "gin":
            raise ValueError("three or four players play Gin Rummy only: Umtali is a game of two")
        if self.opponent != "computer":
            raise ValueError(
                "a party game is made by one person, against the computer: invite friends to"
                " its other seats with 'invite'"
            )
        if self.seat >= self.players:
            raise ValueError(f"a game of {self.players} has seats 0 to {self.players - 1}")
        others = set(range(self.players)) - {self.seat}
        if len(set(self.invite)) != len(self.invite) or not set(self.invite) <= others:
            raise ValueError(
                f"'invite' lists other seats than yours ({self.seat}), each once: some of"
                f" {sorted(others)}"
            )
        return self


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


class GameOffered(_Message):
    """One game the server plays: its name in requests, its title, the computer's
    levels (weakest first) with the default, its rules presets with the default, and the
    kinds of match it may be."""

    game: GameName
    title: str
    levels: list[str]
    default_level: str
    rules: list[str]
    default_rules: str
    kinds: list[Literal["hand", "game", "session"]]


class GamesOffered(_Message):
    """``GET /api/games-offered``: every game a new game may be, Umtali first."""

    games: list[GameOffered]


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


class GinSide(_Message):
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


class GinHandEnd(_Message):
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


class GinResult(_Message):
    """A finished game of Gin Rummy: the winner, the points from the hands, the line
    bonuses (25 a hand won), the game bonus (doubled by a shutout) and the final
    scores."""

    winner: int
    points: tuple[int, int]
    line: tuple[int, int]
    game_bonus: int
    shutout: bool
    final: tuple[int, int]


class GinScoreSheet(_Message):
    """The score sheet of a game of Gin Rummy: each finished hand's points and how it
    ended, the totals, the target, and the game's end with its bonuses once it is
    over."""

    hands: list[tuple[tuple[int, int], str]]
    totals: tuple[int, int]
    target: int
    result: GinResult | None


class PartyHandResult(_Message):
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


class PartyTable(_Message):
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


class GinTable(_Message):
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


class SeatState(_Message):
    """What one seat is shown: ``GET /api/seat/{secret}`` answers it, and the seat's
    WebSocket sends it after every change of the game.

    ``game`` says which game (``umtali`` or ``gin``) and ``rules`` its preset. ``view``
    is the seat's :class:`umtali.games.umtali.view.PlayerView` (in Gin Rummy its
    :class:`umtali.games.gin.view.GinView`, the other player's knock discard face down) as
    JSON (cards in ASCII notation) of the last hand dealt; ``legal`` its moves in notation when it is to
    move; ``recap`` the other player's moves since this seat's last one, told as this
    seat saw them; ``commitment`` the hand's published deck commitment (check it with
    ``GET /api/games/{id}/hands/{hand_index}/verify`` once the hand is over).
    ``version`` grows with every stored change (a deal, a move)."""

    type: Literal["state"] = "state"
    game: GameName = Field(default="umtali", description="which game: umtali or gin")
    rules: str = Field(default="standard", description="the rules preset the game is played by")
    game_id: int
    seat: int
    version: int
    names: tuple[str, str] = Field(description="the players, this seat named 'You'")
    kind: Literal["hand", "game", "session"]
    title: str
    hand_index: int
    commitment: str
    view: dict[str, Any] | None = Field(
        description="the seat's view of its hand; None only for a seat of a party game that"
        " has not yet played a hand (it sat out every one so far)"
    )
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
    gin: GinTable | None = Field(
        default=None, description="Gin Rummy's own table (``None`` in a game of Umtali)"
    )
    party: PartyTable | None = Field(
        default=None,
        description="three- or four-hand Gin Rummy: the whole game as this seat is told it"
        " (``None`` in a game of two). The other fields tell the hand this seat plays (or"
        " last played, while it sits out)",
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
