"""The browser server's protocol: every message in and out, as pydantic models.

The models are the schema: FastAPI checks each request against them (a body that does
not fit is refused with 422 and says why) and writes each answer through them, and
``/openapi.json`` publishes them. docs/WEB.md tells what each message means.

What a seat is sent is a :class:`SeatState`: the fields every game's seat has are
here; each game's table (its ``table`` hook, :mod:`umtali.web.tables`) subclasses it
with its own ``game`` and the keys only its game has, and builds it from that seat's
view of the game and nothing else that could name a hidden card. The application
publishes the union of the games' models, told apart by ``game``.

The WebSocket carries JSON messages too: :data:`ClientMessage` in, :data:`ServerMessage`
out (docs/WEB.md, "The WebSocket").
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Final, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializeAsAny,
    TypeAdapter,
    field_validator,
    model_validator,
)

from umtali import games
from umtali.games.api import GameSpec
from umtali.kernel.english import plural, subject
from umtali.kernel.players import MAX_PERSON_NAME, check_person_name, level_title

__all__ = [
    "CLIENT_MESSAGE",
    "MAX_MOVE_CHARS",
    "MAX_SOCKET_MESSAGE_BYTES",
    "MAX_STATUS_SECRETS",
    "ClientMessage",
    "ClientMove",
    "ClientPing",
    "GameCreated",
    "GameOffered",
    "GamesOffered",
    "HandEnd",
    "HandSide",
    "Health",
    "HintReply",
    "Levels",
    "Message",
    "MoveAccepted",
    "MoveRefused",
    "MoveRequest",
    "NameRequest",
    "NewGameRequest",
    "OpenTableListed",
    "OpenTableNote",
    "OpenTableRequest",
    "OpenTables",
    "Opponent",
    "Problem",
    "RuleLink",
    "ScoreSheetModel",
    "SeatLink",
    "SeatState",
    "SeatStatus",
    "SeatsStatus",
    "SeatsStatusRequest",
    "ServerAccepted",
    "ServerError",
    "ServerMessage",
    "ServerPong",
    "ServerRefused",
    "SitRequest",
    "VerifyReply",
    "WhyReply",
    "offered",
    "served",
]

MAX_MOVE_CHARS: Final = 200
"""The longest move text accepted: the longest move in notation is far shorter."""

MAX_SOCKET_MESSAGE_BYTES: Final = 4096
"""The largest message a client may send over the WebSocket (UTF-8 bytes): a move is
far shorter. A longer one is answered with an error and not read."""


class Message(BaseModel):
    """A message: unknown fields are refused, not ignored, so a typo is noticed. Every
    model of the protocol, a game's own among them, is one."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def served() -> list[GameSpec]:
    """The games the server plays: those of the registry that have a browser table."""
    return [spec for spec in games.games() if spec.has("table")]


def _names_of_games(schema: dict[str, Any]) -> None:
    """The schema of a field that names a game: one of the games served now."""
    schema["enum"] = [spec.name for spec in served()]


def _lengths_of_games(schema: dict[str, Any]) -> None:
    """The schema of a match's length: one of those some game served has."""
    schema["enum"] = list(dict.fromkeys(length for spec in served() for length in spec.lengths))


_NUMBERS: Final = {2: "two", 3: "three", 4: "four"}


def _counts(counts: list[int]) -> str:
    """Seat counts in words.

    >>> _counts([3, 4])
    'three or four'
    """
    return " or ".join(_NUMBERS.get(count, str(count)) for count in counts)


def _seats_refusal(spec: GameSpec, players: int) -> str:
    """Why ``spec`` is not played by ``players``, and which games are.

    >>> _seats_refusal(games.get("umtali"), 3).startswith("three or four players play ")
    True
    """
    others = sorted({n for other in served() for n in other.seat_counts} - set(spec.seat_counts))
    playing = [other.title for other in served() if players in other.seat_counts]
    if not playing:
        return f"no game here has {players} players"
    return (
        f"{_counts(others)} players play {' or '.join(playing)} only: {spec.title} is a game"
        f" of {_counts(list(spec.seat_counts))}"
    )


# -- in ------------------------------------------------------------------------------------------


class NewGameRequest(Message):
    """``POST /api/games``: a game of ``game`` (the default game unless told) against the
    computer (``opponent: "computer"``, at ``level``, the person in ``seat``), or between
    people who each play by link (``opponent: "person"``). ``rules`` names a variant of
    the game, ``kind`` how long it is; ``GET /api/games-offered`` lists what each game
    has, and what is left out is the game's default.

    A game of three or four (``players``, where the game has that many seats) is made
    by one person against the computer: the person takes ``seat``, the seats in
    ``invite`` go to friends by link, and the computer plays the others."""

    game: str = Field(
        default=games.DEFAULT_GAME,
        description="which game (GET /api/games-offered lists them)",
        json_schema_extra=_names_of_games,
    )
    opponent: Literal["computer", "person"] = "computer"
    level: str | None = Field(
        default=None,
        description="the computer's level, one of the game's (default: the game's own);"
        " between people, the level of the computer that plays a seat handed over to it",
    )
    rules: str | None = Field(
        default=None,
        description="the game's variant of the rules (default: its first, standard)",
        max_length=40,
    )
    seat: int = Field(
        default=0,
        ge=0,
        le=3,
        description="the person's seat against the computer (0 or 1; in a game of more, 0 to"
        " players - 1)",
    )
    players: Literal[2, 3, 4] = Field(
        default=2, description="how many play: 3 or 4 where the game has that many seats"
    )
    invite: list[int] = Field(
        default_factory=list,
        max_length=3,
        description="in a game of three or four, the seats given to friends, a link each;"
        " the computer plays the seats neither the person's nor invited",
    )
    kind: str | None = Field(
        default=None,
        max_length=40,
        description="how long: one of the game's lengths (default: its first, a game)",
        json_schema_extra=_lengths_of_games,
    )
    name: str | None = Field(
        default=None,
        max_length=200,
        description=f"the asker's name, shown at his seat (1 to {MAX_PERSON_NAME} visible"
        " characters, without '<', '>' or '&'; spaces around it dropped); not given: he is"
        " 'Player N' (N his seat, from 1)",
    )

    @field_validator("name")
    @classmethod
    def _a_name(cls, name: str | None) -> str | None:
        return None if name is None else check_person_name(name)

    @field_validator("game")
    @classmethod
    def _a_game_offered(cls, game: str) -> str:
        return _game_offered(game)

    @property
    def spec(self) -> GameSpec:
        """The game asked for."""
        return games.get(self.game)

    @property
    def persons(self) -> list[int]:
        """The seats people play by link: the person's first, then the friends' in the
        order asked for (every seat, in order, between people). The first is the asker's,
        the one :attr:`name` names."""
        if self.opponent == "person":
            return list(range(self.players))
        return [self.seat, *self.invite]

    @model_validator(mode="after")
    def _known_to_the_game(self) -> NewGameRequest:
        spec = self.spec
        if self.level is not None and self.level not in spec.levels:
            raise ValueError(
                f"the computer's level at {spec.title} is one of {', '.join(spec.levels)}"
            )
        _rules_and_length(spec, self.rules, self.kind)
        if self.players not in spec.seat_counts:
            raise ValueError(_seats_refusal(spec, self.players))
        if self.players == 2:
            if self.seat > 1:
                raise ValueError("a game of two has seats 0 and 1")
            if self.invite:
                raise ValueError(
                    "friends are invited to the seats of a party game (3 or 4 players); a game"
                    " of two between people is opponent 'person'"
                )
            return self
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


class NameRequest(Message):
    """``POST /api/seat/{secret}/name``: the name of the person at this seat, shown to
    every seat and kept in the game's record (as :attr:`NewGameRequest.name` is
    checked)."""

    name: str = Field(
        max_length=200,
        description=f"1 to {MAX_PERSON_NAME} visible characters, without '<', '>' or '&'"
        " (spaces around it dropped)",
    )

    @field_validator("name")
    @classmethod
    def _a_name(cls, name: str) -> str:
        return check_person_name(name)


MAX_STATUS_SECRETS: Final = 20
"""The most seats one ``POST /api/seats/status`` asks about: a browser keeps a few."""


class SeatsStatusRequest(Message):
    """``POST /api/seats/status``: the links (their secrets) of the seats this browser
    holds, at most :data:`MAX_STATUS_SECRETS`."""

    secrets: list[Annotated[str, Field(min_length=1, max_length=200)]] = Field(
        max_length=MAX_STATUS_SECRETS,
        description=f"the secrets of seats' links, at most {MAX_STATUS_SECRETS}",
    )


def _game_offered(game: str) -> str:
    """``game``, if the server plays it (else ``ValueError``, naming those it plays)."""
    names = [spec.name for spec in served()]
    if game not in names:
        known = " or ".join(repr(name) for name in names)
        raise ValueError(f"the game is one of {known}, not {game[:40]!r}")
    return game


def _rules_and_length(spec: GameSpec, rules: str | None, kind: str | None) -> None:
    """Refuse (``ValueError``) rules or a length ``spec`` does not have."""
    title = spec.title
    if rules is not None and rules not in spec.variants:
        raise ValueError(f"the rules of {title} are one of {', '.join(spec.variants)}")
    if kind is not None and kind not in spec.lengths:
        which = " or ".join(f"a {length}" for length in spec.lengths)
        raise ValueError(
            f"{title} is played as {which}: its kind is one of"
            f" {', '.join(repr(length) for length in spec.lengths)}"
        )


class OpenTableRequest(NameRequest):
    """``POST /api/open-tables``: a game of two between people, of ``game`` with its
    ``rules`` and length (``kind``), opened to anyone: the asker takes seat 0 under
    ``name`` (shown in the list), and seat 1 waits for whoever sits down (``POST
    /api/open-tables/{id}/sit``)."""

    game: str = Field(
        default=games.DEFAULT_GAME,
        description="which game (GET /api/games-offered lists them)",
        json_schema_extra=_names_of_games,
    )
    rules: str | None = Field(
        default=None,
        max_length=40,
        description="the game's variant of the rules (default: its first, standard)",
    )
    kind: str | None = Field(
        default=None,
        max_length=40,
        description="how long: one of the game's lengths (default: its first, a game)",
        json_schema_extra=_lengths_of_games,
    )

    @field_validator("game")
    @classmethod
    def _a_game_offered(cls, game: str) -> str:
        return _game_offered(game)

    @model_validator(mode="after")
    def _known_to_the_game(self) -> OpenTableRequest:
        spec = games.get(self.game)
        _rules_and_length(spec, self.rules, self.kind)
        if 2 not in spec.seat_counts:
            raise ValueError(
                f"a table is opened for two players: {spec.title} is not played by two"
            )
        return self

    def new_game(self) -> NewGameRequest:
        """The game it makes: between two people, the opener in seat 0."""
        return NewGameRequest(
            game=self.game, opponent="person", rules=self.rules, kind=self.kind, name=self.name
        )


class SitRequest(NameRequest):
    """``POST /api/open-tables/{id}/sit``: sit down at an open table as ``name``.
    ``seats``: the secrets of the seats the asker's browser holds (its "My games"), so
    that the opener of a table is not sat down across from himself."""

    seats: list[Annotated[str, Field(max_length=200)]] = Field(
        default_factory=list,
        max_length=20,
        description="the secrets of the seats this browser holds; a sit at a table one of"
        " them belongs to is refused (409)",
    )


class MoveRequest(Message):
    """``POST /api/seat/{secret}/move``: a move in notation, like ``draw`` or
    ``discard 4c down``."""

    move: str = Field(min_length=1, max_length=MAX_MOVE_CHARS)


class ClientMove(Message):
    """Over the WebSocket: play ``move`` (in notation). ``id`` is the client's own
    number for it, sent back in the answer (``accepted`` or ``refused``)."""

    type: Literal["move"]
    move: str = Field(min_length=1, max_length=MAX_MOVE_CHARS)
    id: int | None = None


class ClientPing(Message):
    """Over the WebSocket: is the server there? It answers ``pong``."""

    type: Literal["ping"]


ClientMessage = Annotated[ClientMove | ClientPing, Field(discriminator="type")]
"""What a client may send over the WebSocket, told apart by ``type``."""

CLIENT_MESSAGE: Final[TypeAdapter[ClientMove | ClientPing]] = TypeAdapter(ClientMessage)
"""Reads a :data:`ClientMessage` from JSON text (``validate_json``)."""


# -- out -----------------------------------------------------------------------------------------


class Problem(Message):
    """Any refusal of a request (404, 409, 413, 422): what is wrong, in words."""

    detail: str


class Health(Message):
    """``GET /healthz``."""

    status: Literal["ok"] = "ok"


class Levels(Message):
    """``GET /api/levels`` (the default game's) and ``GET /api/games/{name}/levels``: a
    game's computer levels, weakest first, and the default."""

    levels: list[str]
    default: str

    @classmethod
    def of(cls, spec: GameSpec) -> Levels:
        return cls(levels=list(spec.levels), default=spec.default_level)


class GameOffered(Message):
    """One game the server plays: its name in requests, its title, the computer's
    levels (weakest first) with the default, its rules variants with the default, the
    lengths a match of it may have (the default first), and how many may play it (the
    usual first)."""

    game: str = Field(json_schema_extra=_names_of_games)
    title: str
    levels: list[str]
    level_names: dict[str, str] = Field(
        description="how players call each level: the form's label, and the computer's"
        " name at the table, on the score sheet and in the record ('Computer (Casual)')"
    )
    default_level: str
    rules: list[str]
    default_rules: str
    kinds: list[str]
    seat_counts: list[int]


class GamesOffered(Message):
    """``GET /api/games-offered``: every game a new game may be, in the registry's
    order (the default game first)."""

    games: list[GameOffered]


def offered() -> GamesOffered:
    """What ``GET /api/games-offered`` answers: every game served, from its spec."""
    return GamesOffered(
        games=[
            GameOffered(
                game=spec.name,
                title=spec.title,
                levels=list(spec.levels),
                level_names={level: level_title(level) for level in spec.levels},
                default_level=spec.default_level,
                rules=list(spec.variants),
                default_rules=spec.variants[0],
                kinds=list(spec.lengths),
                seat_counts=list(spec.seat_counts),
            )
            for spec in served()
        ]
    )


class SeatLink(Message):
    """One seat played through a link: whoever holds ``secret`` plays the seat."""

    seat: int
    secret: str
    state: str = Field(description="the seat's state: GET this path")
    socket: str = Field(description="the seat's WebSocket: the state after every change")


class OpenTableListed(Message):
    """One table open to anyone, waiting for a player: its ``id`` (the game's, which
    ``POST /api/open-tables/{id}/sit`` takes), its game, rules and length, by name and
    as players call them, who waits there, since when and until when. Nothing secret."""

    id: int
    game: str = Field(json_schema_extra=_names_of_games)
    game_title: str
    rules: str
    rules_title: str
    kind: str = Field(json_schema_extra=_lengths_of_games)
    kind_title: str
    waiting: str = Field(description="the name of the player who opened it and waits")
    since: datetime
    until: datetime = Field(description="when it stops waiting and leaves the list")


class OpenTables(Message):
    """``GET /api/open-tables``: the tables waiting for a player, the longest waiting
    first (at most the server's limit of open tables), and how long a table waits."""

    tables: list[OpenTableListed]
    wait_seconds: float


class OpenTableNote(Message):
    """In a seat's state, while its game's open table waits for someone to sit down:
    until when it is listed, and whether that time is ``over`` (nobody sat down: the
    opener may let the computer play the seat instead, ``POST .../hand-over``)."""

    until: datetime
    over: bool


class GameCreated(Message):
    """``POST /api/games``: the new game, and one link for each person's seat. The
    secrets are given out here only: the server keeps their hashes. A rematch answers
    the same, with the one link of the seat that asks (``POST .../rematch``, or a
    state's ``rematch``)."""

    game_id: int
    seats: list[SeatLink]


class Opponent(Message):
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


class ScoreSheetModel(Message):
    """The score sheet: each game begun (its hands' scores and its totals), the games
    won in a session, and the points on the table in the hand under way."""

    games: list[tuple[int, list[tuple[int, int]], tuple[int, int]]]
    games_won: tuple[int, int] | None
    this_hand: tuple[int, int] | None


class HandSide(Message):
    """One player at the end of a hand, as every game's end-of-hand panel shows him:
    his name, the cards he laid (``melds``, each meld or column as laid; ``marked``,
    the cards of them the other player laid off), the cards left over (``left``: his
    deadwood, the cards he forfeited or still held; ``None`` for a card this seat may
    not see, drawn face down) and what they are (``left_label``), a ``note`` (who
    knocked, made trump...), his ``points`` in the hand and his ``total`` after it."""

    name: str
    melds: list[list[str]] = Field(default_factory=list)
    marked: list[str] = Field(default_factory=list)
    left: list[str | None] = Field(default_factory=list)
    left_label: str = ""
    note: str = ""
    points: int
    total: int | None = None


class HandEnd(Message):
    """The last hand that ended, as this seat saw it: its scores, how it ended, and the
    other player's last moves in it (after this seat's last one), told as in
    :class:`SeatState`'s ``recap``; for the end-of-hand panel every table draws alike,
    a ``heading`` (who won it and by how much, :func:`hand_heading`) and both players'
    cards and points (``sides``). Sent on with every state until the next hand ends,
    since the next hand is dealt at once. Only cards the seat may see after the hand
    are in it: a card hidden from it is ``None``."""

    hand_index: int
    scores: tuple[int, int]
    how: str
    recap: list[str]
    heading: str = ""
    sides: list[HandSide] = Field(default_factory=list)


def hand_heading(hand_index: int, names: tuple[str, str], scores: tuple[int, int]) -> str:
    """Who won hand ``hand_index`` (from 0) and by how much, from its scores.

    >>> hand_heading(0, ("You", "Ann"), (31, 28))
    'You win hand 1 by 3 points'
    >>> hand_heading(2, ("You", "Ann"), (0, 25)), hand_heading(1, ("A", "B"), (4, 4))
    ('Ann wins hand 3 by 25 points', 'Hand 2 is drawn, 4 all')
    >>> hand_heading(3, ("You", "Ann"), (0, 0))
    'Nobody scores hand 4'
    """
    first, second = scores
    if first == second == 0:
        return f"Nobody scores hand {hand_index + 1}"
    if first == second:
        return f"Hand {hand_index + 1} is drawn, {first} all"
    winner = 0 if first > second else 1
    return (
        f"{subject(names[winner], 'wins')} hand {hand_index + 1}"
        f" by {plural(abs(first - second), 'point')}"
    )


class SeatState(Message):
    """What one seat is shown: ``GET /api/seat/{secret}`` answers it, and the seat's
    WebSocket sends it after every change of the game. These are the fields every
    game's state has; a game's table adds its own (a subclass, its ``game`` fixed).

    ``game`` says which game and ``rules`` its variant. ``view`` is what the seat sees
    of the hand it plays (or last played) as JSON, cards in ASCII notation, as its
    game's view writes itself; ``legal`` its moves in notation when it is to move;
    ``recap`` the other players' moves since this seat's last one, told as this seat
    saw them; ``commitment`` the hand's published deck commitment (check it with ``GET
    /api/games/{id}/hands/{hand_index}/verify`` once the hand is over). ``scores`` and
    ``previous`` are the score sheet and the last hand that ended, in the shape every
    game gives them (a game's own account may add more). ``version`` grows with every
    stored change (a deal, a move)."""

    type: Literal["state"] = "state"
    game: str = Field(description="which game", json_schema_extra=_names_of_games)
    rules: str = Field(default="standard", description="the rules variant the game is played by")
    game_id: int
    seat: int
    version: int
    names: tuple[str, str] = Field(
        description="the players at the hand this seat plays, this seat named 'You'"
    )
    kind: str = Field(description="how long the match is", json_schema_extra=_lengths_of_games)
    title: str
    hand_index: int
    commitment: str
    view: dict[str, Any] | None = Field(
        description="the seat's view of its hand; None only for a seat of a game of three or"
        " four that has not yet played a hand (it sat out every one so far)"
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
    open_table: OpenTableNote | None = Field(
        default=None,
        description="while the game, opened to anyone, waits for someone to sit down",
    )
    your_name: str = Field(
        default="",
        description="the name this seat's player goes by in the game and its record: the one"
        " he gave, else 'Player N' (N his seat, from 1)",
    )
    name_given: bool = Field(
        default=False,
        description="whether the player gave his name (POST .../name), or goes by his seat's",
    )
    review: bool = Field(
        default=False,
        description="the game offers a review of a finished hand (POST"
        " /api/seat/{secret}/review; the page /review)",
    )


class SeatStatus(Message):
    """One seat of ``POST /api/seats/status``, as its own player may see it: ``known``
    false (and nothing else) for a secret that names no seat, forged or mistyped alike.
    ``game`` and ``game_title`` say which game, ``where`` how far it is (its state's
    ``title``), ``opponents`` whom the seat plays against, ``your_turn`` whether it is to
    move, ``over`` and ``result`` how it ended, ``review`` whether a hand of it may be
    reviewed."""

    known: bool
    game: str | None = None
    game_title: str | None = None
    where: str | None = None
    opponents: list[str] = Field(default_factory=list)
    your_turn: bool = False
    over: bool = False
    result: str | None = None
    review: bool = Field(
        default=False, description="a finished hand of this seat's can be reviewed (/review)"
    )


class SeatsStatus(Message):
    """``POST /api/seats/status``: each seat asked about, in the order asked."""

    seats: list[SeatStatus]


class MoveAccepted(Message):
    """The move was played and stored; ``sentence`` tells it, ``state`` is what the seat
    sees now (after the computer's replies, when it plays one of the seats)."""

    accepted: Literal[True] = True
    hand_index: int
    move_index: int
    sentence: str
    state: SerializeAsAny[SeatState] = Field(
        description="the seat's state, its game's own model (see SeatState)"
    )


class RuleLink(Message):
    """The rule a refused move breaks, on its game's rules page: ``id`` as the rules
    name it (``"R4"``), ``title`` its heading there, ``url`` the page at its anchor
    (``/rules/umtali#r4``)."""

    id: str
    title: str
    url: str


class MoveRefused(Message):
    """Nothing was done (409): ``reason`` is the game's sentence, addressed to the
    player; ``rule`` the rule it breaks, to link to, where it cites one."""

    accepted: Literal[False] = False
    reason: str
    rule: RuleLink | None = None


class HintReply(Message):
    """``GET /api/seat/{secret}/hint``: the move the hint level would make, and why."""

    move: str
    level: str
    why: str


class WhyReply(Message):
    """``POST /api/seat/{secret}/why``: whether the move would be allowed now, and if
    not, the engine's reason (nothing is played)."""

    legal: bool
    reason: str | None
    rule: RuleLink | None = None


class ServerAccepted(Message):
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


class ServerRefused(Message):
    """Over the WebSocket: the move ``id`` was refused, for the engine's ``reason``;
    nothing changed."""

    type: Literal["refused"] = "refused"
    id: int | None
    reason: str
    rule: RuleLink | None = None


class ServerError(Message):
    """Over the WebSocket: a message that was not read (not JSON, no known ``type``,
    too long, or over the rate limit), and why; ``id`` when the message had one."""

    type: Literal["error"] = "error"
    detail: str
    id: int | None = None


class ServerPong(Message):
    """Over the WebSocket: the answer to ``ping``."""

    type: Literal["pong"] = "pong"


ServerMessage = SeatState | ServerAccepted | ServerRefused | ServerError | ServerPong
"""What the server sends over the WebSocket, told apart by ``type``."""


class VerifyReply(Message):
    """``GET /api/games/{id}/hands/{n}/verify``: the commitment published at the deal;
    once the hand is over, also the salt (its bytes in hex) and the deck (ASCII card
    names, top of the deal first), so that
    ``sha256(bytes.fromhex(salt) + " ".join(deck).encode("ascii")).hexdigest()`` can be
    checked against it (docs/WEB.md, "Fairness", has a worked example)."""

    game_id: int
    hand_index: int
    commitment: str
    over: bool
    salt: str | None
    deck: list[str] | None
