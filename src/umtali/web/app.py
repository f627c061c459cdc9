"""The browser server's HTTP and WebSocket API (FastAPI): ``create_app`` builds it.

The routes only translate: each request is checked against its model in
:mod:`umtali.web.protocol`, handed to :class:`umtali.web.server.GameServer`, and its
answer written through a model again. A seat is named by its secret in the path (the
link is the seat); a secret the store did not give out is answered 404, the same for a
forged one as for a mistyped one. docs/WEB.md lists the endpoints.

>>> import tempfile, os
>>> from fastapi.testclient import TestClient
>>> folder = tempfile.TemporaryDirectory()
>>> app = create_app(f"sqlite:///{os.path.join(folder.name, 'umtali.db')}")
>>> with TestClient(app) as client:
...     seat = client.post("/api/games", json={"level": "random"}).json()["seats"][0]
...     state = client.get(seat["state"]).json()
...     state["your_turn"] == bool(state["legal"])
True
>>> folder.cleanup()
"""

from __future__ import annotations

import contextlib
import functools
import gc
import json
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, MutableMapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any, Final

import anyio
from fastapi import Depends, FastAPI, Path, Request, WebSocket
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ValidationError
from starlette.websockets import WebSocketDisconnect

from umtali.games.umtali.bots import BOTS, DEFAULT_BOT
from umtali.games.umtali.session import Refused
from umtali.web import learning, pages
from umtali.web.protocol import (
    CLIENT_MESSAGE,
    GAME_TITLES,
    MAX_SOCKET_MESSAGE_BYTES,
    ClientPing,
    GameCreated,
    GameOffered,
    GamesOffered,
    Health,
    HintReply,
    Levels,
    MoveAccepted,
    MoveRefused,
    MoveRequest,
    NewGameRequest,
    Problem,
    SeatState,
    ServerAccepted,
    ServerError,
    ServerPong,
    ServerRefused,
    VerifyReply,
    WhyReply,
    levels_of,
    rules_of,
)
from umtali.web.server import (
    GRACE_SECONDS,
    SEAT_REQUESTS,
    Broadcaster,
    GameServer,
    NotNow,
    NotYourTurn,
    PostgresBroadcaster,
    RateLimit,
    RecordWithheld,
    TokenBucket,
)
from umtali.web.store import SeatRef, Store, StoreError

__all__ = [
    "MAX_BODY_BYTES",
    "SOCKET_FLOOD",
    "SOCKET_MESSAGES",
    "HideSecrets",
    "create_app",
]

MAX_BODY_BYTES: Final = 16 * 1024
"""The largest request body read: every message in the protocol is far smaller."""

SOCKET_MESSAGES: Final = RateLimit(rate=10, burst=20)
"""The limit on the messages one WebSocket connection may send: a player sends a few
moves a second at most."""

SOCKET_FLOOD: Final = RateLimit(rate=1, burst=20)
"""How many messages over :data:`SOCKET_MESSAGES` a connection may send (each answered
with an error and dropped) before it is closed with code 1008: a client that keeps
flooding is not a player."""

NO_SEAT: Final = (
    "no seat has this link: check that it was copied whole (a link cannot be guessed,"
    " and a game's links are given out only when it is created)"
)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyLimit:
    """Refuse with 413 a request body over ``limit`` bytes, whether its length is
    announced or it comes in chunks, before the application reads it whole."""

    def __init__(
        self,
        app: ASGIApp,
        limit: int = MAX_BODY_BYTES,
        larger: Mapping[str, int] | None = None,
    ) -> None:
        self.app = app
        self.limit = limit
        self.larger = dict(larger or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # A route that takes larger bodies (a record to replay) names its own limit.
        limit = self.larger.get(scope.get("path", ""), self.limit)
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (not value.isdigit() or int(value) > limit):
                await self._refuse(send, limit)
                return
        # The body is read here, whole, up to the limit (it is small), and handed on.
        body = b""
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before sending it all
            body += message.get("body", b"")
            if len(body) > limit:
                await self._refuse(send, limit)
                return
            if not message.get("more_body", False):
                break
        given = False

        async def replayed() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replayed, send)

    async def _refuse(self, send: Send, limit: int) -> None:
        body = json.dumps(
            {"detail": f"the request body is too large: at most {limit:,} bytes are read"}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


class HideSecrets(logging.Filter):
    """Cut a seat's secret out of a log record's path: uvicorn logs each WebSocket it
    accepts with its path (``/ws/seat/SECRET``), and whoever reads the log must not
    be able to play the seat.

    >>> record = logging.LogRecord("uvicorn.error", 20, "", 0, '"WebSocket %s"',
    ...                            ("/ws/seat/abcDEF_-123",), None)
    >>> HideSecrets().filter(record), record.getMessage()
    (True, '"WebSocket /ws/seat/…"')
    """

    _SECRET = re.compile(r"(/(?:ws|api)/seat/)[^/\s\"?]+")

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                self._SECRET.sub(r"\1…", arg) if isinstance(arg, str) else arg
                for arg in record.args
            )
        if isinstance(record.msg, str):
            record.msg = self._SECRET.sub(r"\1…", record.msg)
        return True


class _NoSeatError(Exception):
    """A secret that names no seat."""


class _TooManyError(Exception):
    """A seat over its limit of requests; ``seconds`` until the next is allowed."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds


@dataclass(frozen=True)
class Holder:
    """Who holds a seat's link: the seat, and the secret it came with (from which a
    rematch's link is worked out)."""

    ref: SeatRef
    secret: str


async def _holder(request: Request, secret: Annotated[str, Path(max_length=200)]) -> Holder:
    server: GameServer = request.app.state.server
    ref = await server.seat(secret)
    if ref is None:
        raise _NoSeatError
    await server.seen(ref)
    return Holder(ref, secret)


Seat = Annotated[Holder, Depends(_holder)]
"""The seat a route's ``{secret}`` names (its player is seen now); 404 when it names
none."""


def _limited(server: GameServer, ref: SeatRef) -> None:
    """Count a request against the seat's limit: 429 when it is over."""
    wait = server.allow(ref)
    if wait is not None:
        raise _TooManyError(wait)


def _problem(status: int, detail: str, headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(Problem(detail=detail).model_dump(), status_code=status, headers=headers)


def _read_error(text: str, error: ValidationError) -> ServerError:
    """What is wrong with a client's message, in words, with its ``id`` if it had one."""
    try:
        data = json.loads(text)
    except ValueError as e:
        return ServerError(detail=f"the message is not JSON: {e}")
    given = data.get("id") if isinstance(data, dict) else None
    number = given if type(given) is int else None
    kind = data.get("type") if isinstance(data, dict) else None
    if kind not in ("move", "ping"):
        return ServerError(
            detail='a message is a JSON object whose "type" is "move" ({"type": "move",'
            ' "move": "draw", "id": 1}) or "ping", not '
            + (json.dumps(kind)[:40] if kind is not None else "one without a type"),
            id=number,
        )
    wrong = "; ".join(
        f"{'.'.join(str(part) for part in problem['loc'][1:]) or 'message'}: {problem['msg']}"
        for problem in error.errors()
    )
    return ServerError(detail=f"the {kind} message is not right: {wrong}", id=number)


GC_YOUNGEST: Final = 20_000
"""Allocations between two collections of the youngest generation of Python's garbage
collector (700 by default). Each game in memory holds thousands of objects, and the
collector stops every thread of the process while it runs; with the default, its
collections of the oldest generation came every few seconds under load and each held
every request for 100 to 170 ms (docs/PERFORMANCE.md, "The browser server under
load"). Rarer collections keep that off a move's round trip."""


@functools.cache
def _settle_gc() -> None:
    """Once a process: put what is alive after start-up (modules, classes, the
    application) out of the collector's way (:func:`gc.freeze`), and collect more
    rarely (:data:`GC_YOUNGEST`). Nothing is kept longer than without it: an object
    is freed as soon as nothing refers to it, as ever."""
    gc.collect()
    gc.freeze()
    _youngest, middle, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNGEST, middle, oldest)


def create_app(
    store_url: str | None = None,
    *,
    store: Store | None = None,
    broadcaster: Broadcaster | None = None,
    bot_threads: int = 2,
    max_body: int = MAX_BODY_BYTES,
    grace: float = GRACE_SECONDS,
    clock: Callable[[], datetime] | None = None,
    seat_requests: RateLimit = SEAT_REQUESTS,
    socket_messages: RateLimit = SOCKET_MESSAGES,
    hint_level: str = DEFAULT_BOT,
) -> FastAPI:
    """The server's application over the database at ``store_url`` (``DATABASE_URL``,
    else ``sqlite:///umtali.db``, when ``None``), or over an open ``store`` (which the
    caller then closes).

    ``broadcaster``: how changes are announced; by default through PostgreSQL's
    ``LISTEN``/``NOTIFY`` on PostgreSQL (several processes may share the database), and
    within the process on SQLite. ``bot_threads``: how many computer decisions think
    at once. ``grace``: seconds a person may be away before the other may hand his
    seat to the computer. ``clock``: the time presence goes by (tests set it).
    ``seat_requests``: each seat's limit of HTTP moves, hints and questions;
    ``socket_messages``: each WebSocket's limit of messages. ``hint_level``: the
    computer level whose choice a hint gives."""
    owned = store is None
    opened = Store.open(store_url) if store is None else store
    server = GameServer(
        opened,
        broadcaster=broadcaster,
        bot_threads=bot_threads,
        grace=grace,
        seat_requests=seat_requests,
        hint_level=hint_level,
        **({} if clock is None else {"clock": clock}),
    )
    if broadcaster is None and opened.is_postgresql:
        server.broadcaster = PostgresBroadcaster(
            opened, server.forget, server.forget_all, server.forget_presence
        )

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        _settle_gc()
        await server.broadcaster.start()
        try:
            yield
        finally:
            await server.broadcaster.stop()
            if owned:
                opened.close()

    app = FastAPI(
        title="Umtali",
        summary="Umtali, the two-player rummy: the server of the browser game",
        lifespan=lifespan,
        responses={404: {"model": Problem}, 413: {"model": Problem}},
    )
    app.state.server = server
    app.add_middleware(
        BodyLimit,
        limit=max_body,
        larger={learning.REPLAY_PATH: max(max_body, learning.REPLAY_MAX_BYTES)},
    )

    @app.exception_handler(StoreError)
    async def _missing(_request: Request, error: StoreError) -> JSONResponse:
        return _problem(404, str(error))

    @app.exception_handler(RecordWithheld)
    async def _withheld(_request: Request, error: RecordWithheld) -> JSONResponse:
        return _problem(403, str(error))

    @app.exception_handler(NotYourTurn)
    async def _not_your_turn(_request: Request, error: NotYourTurn) -> JSONResponse:
        return _problem(409, str(error))

    @app.exception_handler(NotNow)
    async def _not_now(_request: Request, error: NotNow) -> JSONResponse:
        return _problem(409, str(error))

    @app.exception_handler(_NoSeatError)
    async def _no_seat(_request: Request, _error: _NoSeatError) -> JSONResponse:
        return _problem(404, NO_SEAT)

    @app.exception_handler(_TooManyError)
    async def _too_many(_request: Request, error: _TooManyError) -> JSONResponse:
        limit = seat_requests
        return _problem(
            429,
            f"too many requests for this seat: at most {limit.rate:g} a second"
            f" ({limit.burst:g} at once); try again in {max(error.seconds, 0.1):.1f} seconds",
            headers={"Retry-After": str(max(1, round(error.seconds + 0.5)))},
        )

    @app.get("/healthz")
    async def healthz() -> Health:
        return Health()

    @app.get("/api/levels")
    async def levels() -> Levels:
        """The computer's levels, weakest first, and the one a new game gets unless told."""
        return Levels(levels=list(BOTS), default=DEFAULT_BOT)

    @app.get("/api/games-offered")
    async def games_offered() -> GamesOffered:
        """The games a new game may be (Umtali, Gin Rummy), each with its computer's
        levels, its rules presets and the kinds of match it may be."""
        return GamesOffered(
            games=[
                GameOffered(
                    game=game,
                    title=GAME_TITLES[game],
                    levels=levels_of(game)[0],
                    default_level=levels_of(game)[1],
                    rules=rules_of(game),
                    default_rules="standard",
                    kinds=["game"] if game == "gin" else ["hand", "game", "session"],
                )
                for game in ("umtali", "gin")
            ]
        )

    @app.post("/api/games", status_code=201)
    async def new_game(request: NewGameRequest) -> GameCreated:
        """A new game against the computer, or between two people by link."""
        return await server.create(request)

    @app.get("/api/seat/{secret}")
    async def seat_state(seat: Seat) -> SeatState:
        """What this seat is shown now."""
        return await server.state(seat.ref, seat.secret)

    @app.post(
        "/api/seat/{secret}/move",
        response_model=MoveAccepted,
        responses={
            409: {"model": MoveRefused, "description": "refused: nothing changed"},
            429: {"model": Problem},
        },
    )
    async def move(seat: Seat, request: MoveRequest) -> MoveAccepted | JSONResponse:
        """Play a move in notation: accepted once stored, or refused with the reason."""
        _limited(server, seat.ref)
        reply = await server.submit(seat.ref, request.move, seat.secret)
        if isinstance(reply, Refused):
            return JSONResponse(MoveRefused(reason=reply.reason).model_dump(), status_code=409)
        return MoveAccepted(
            hand_index=reply.hand_index,
            move_index=reply.move_index,
            sentence=reply.accepted.sentence,
            state=reply.state,
        )

    @app.get(
        "/api/seat/{secret}/hint", responses={409: {"model": Problem}, 429: {"model": Problem}}
    )
    async def hint(seat: Seat) -> HintReply:
        """The move the hint level would make now, and why (to the player to move)."""
        _limited(server, seat.ref)
        return await server.hint(seat.ref)

    @app.post("/api/seat/{secret}/why", responses={429: {"model": Problem}})
    async def why(seat: Seat, request: MoveRequest) -> WhyReply:
        """Whether a move would be allowed now, and if not why: nothing is played."""
        _limited(server, seat.ref)
        return await server.why(seat.ref, request.move)

    @app.post("/api/seat/{secret}/hand-over", responses={409: {"model": Problem}})
    async def hand_over(seat: Seat) -> SeatState:
        """Let the computer play the other seat, whose player has been away longer than
        the grace period (409 with the reason otherwise)."""
        return await server.hand_over(seat.ref, seat.secret)

    @app.post("/api/seat/{secret}/reclaim")
    async def reclaim(seat: Seat) -> SeatState:
        """Play this seat again, after the computer played it while its player was away."""
        return await server.reclaim(seat.ref, seat.secret)

    @app.post("/api/seat/{secret}/rematch", responses={409: {"model": Problem}})
    async def rematch(seat: Seat) -> GameCreated:
        """Once the game is over: this seat's link to a new game with the same opponent,
        level and kind (the same game whoever of the two asks first)."""
        return await server.rematch(seat.ref, seat.secret)

    @app.get("/api/seat/{secret}/record")
    async def seat_record(seat: Seat) -> Response:
        """The game's record for its player: the finished hands while it is played."""
        text = await server.record(seat.ref.game_id, seat.ref)
        return Response(text, media_type="application/json")

    @app.get("/api/games/{game_id}/record", responses={403: {"model": Problem}})
    async def record(game_id: int) -> Response:
        """The record ``umtali replay`` reads, once the game is over."""
        text = await server.record(game_id)
        return Response(text, media_type="application/json")

    @app.get("/api/games/{game_id}/hands/{hand_index}/verify")
    async def verify(game_id: int, hand_index: int) -> VerifyReply:
        """A hand's deck commitment; with the salt and the deck once the hand is over."""
        return await server.verify(game_id, hand_index)

    app.include_router(learning.router)
    app.include_router(pages.router)

    @app.websocket("/ws/seat/{secret}")
    async def seat_socket(websocket: WebSocket, secret: str) -> None:
        """The seat's state now and after every change; moves and pings in (docs/WEB.md,
        "The WebSocket")."""
        ref = await server.seat(secret) if len(secret) <= 200 else None
        if ref is None:
            await websocket.close(code=4404, reason="no seat has this link")
            return
        await websocket.accept()
        await server.seen(ref, announce=True)
        try:
            await _serve_socket(server, websocket, Holder(ref, secret), socket_messages)
        finally:
            with anyio.CancelScope(shield=True), contextlib.suppress(Exception):
                await server.seen(ref, announce=True)  # gone: the other seat is told

    return app


async def _serve_socket(
    server: GameServer, websocket: WebSocket, seat: Holder, limit: RateLimit
) -> None:
    """Push the seat's state while reading the client's messages, until either side
    closes."""
    sending = anyio.Lock()

    async def send(message: BaseModel) -> None:
        async with sending:  # one message at a time, whichever task sends it
            await websocket.send_text(message.model_dump_json())

    async with server.broadcaster.subscribe(seat.ref.game_id) as news:

        async def push() -> None:
            sent: SeatState | None = None
            try:
                while True:
                    state = await server.state(seat.ref, seat.secret)
                    if state != sent:
                        await send(state)
                        sent = state
                    wait = server.heartbeat
                    change = server.next_presence_change(state)
                    if change is not None:
                        wait = min(wait, change)
                    with anyio.move_on_after(wait):
                        await news.changed()
                    await server.seen(seat.ref)  # the heartbeat: here still
            except (WebSocketDisconnect, RuntimeError):
                return  # the client went away while a state was sent

        async with anyio.create_task_group() as group:
            group.start_soon(push)
            try:
                await _read_messages(server, websocket, seat, limit, send)
            finally:
                group.cancel_scope.cancel()


async def _read_messages(
    server: GameServer,
    websocket: WebSocket,
    seat: Holder,
    limit: RateLimit,
    send: Callable[[BaseModel], Awaitable[None]],
) -> None:
    """Answer the client's messages, one at a time, until it goes."""
    messages = TokenBucket(limit)
    patience = TokenBucket(SOCKET_FLOOD)
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        if not messages.take():
            if not patience.take():
                await websocket.close(code=1008, reason="too many messages")
                return
            await send(
                ServerError(
                    detail=f"too many messages: at most {limit.rate:g} a second"
                    f" ({limit.burst:g} at once); this one was dropped, send it again later"
                )
            )
            continue
        text = message.get("text")
        if text is None:
            await send(ServerError(detail="send each message as JSON text, not as bytes"))
            continue
        if len(text) > MAX_SOCKET_MESSAGE_BYTES or len(text.encode()) > MAX_SOCKET_MESSAGE_BYTES:
            await send(
                ServerError(
                    detail=f"the message is too long: at most {MAX_SOCKET_MESSAGE_BYTES:,}"
                    " bytes are read"
                )
            )
            continue
        try:
            parsed = CLIENT_MESSAGE.validate_json(text)
        except ValidationError as e:
            await send(_read_error(text, e))
            continue
        if isinstance(parsed, ClientPing):
            await send(ServerPong())
            continue
        reply = await server.submit(seat.ref, parsed.move, seat.secret)
        if isinstance(reply, Refused):
            await send(ServerRefused(id=parsed.id, reason=reply.reason))
        else:
            await send(
                ServerAccepted(
                    id=parsed.id,
                    move=reply.accepted.move.text(),
                    sentence=reply.accepted.sentence,
                    hand_index=reply.hand_index,
                    move_index=reply.move_index,
                    version=reply.state.version,
                )
            )
