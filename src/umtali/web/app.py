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

import json
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from typing import Annotated, Any, Final

import anyio
from fastapi import Depends, FastAPI, Path, Request, WebSocket
from fastapi.responses import JSONResponse, Response
from starlette.websockets import WebSocketDisconnect

from umtali.session import Refused
from umtali.web import learning, pages
from umtali.web.protocol import (
    GameCreated,
    Health,
    HintReply,
    MoveAccepted,
    MoveRefused,
    MoveRequest,
    NewGameRequest,
    Problem,
    SeatState,
    VerifyReply,
)
from umtali.web.server import Broadcaster, GameServer, NotYourTurn, RecordWithheld
from umtali.web.store import SeatRef, Store, StoreError

__all__ = ["MAX_BODY_BYTES", "create_app"]

MAX_BODY_BYTES: Final = 16 * 1024
"""The largest request body read: every message in the protocol is far smaller."""

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

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (not value.isdigit() or int(value) > self.limit):
                await self._refuse(send)
                return
        # The body is read here, whole, up to the limit (it is small), and handed on.
        body = b""
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before sending it all
            body += message.get("body", b"")
            if len(body) > self.limit:
                await self._refuse(send)
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

    async def _refuse(self, send: Send) -> None:
        body = json.dumps(
            {"detail": f"the request body is too large: at most {self.limit:,} bytes are read"}
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


class _NoSeatError(Exception):
    """A secret that names no seat."""


async def _seat_of(request: Request, secret: Annotated[str, Path(max_length=200)]) -> SeatRef:
    server: GameServer = request.app.state.server
    ref = await server.seat(secret)
    if ref is None:
        raise _NoSeatError
    return ref


Seat = Annotated[SeatRef, Depends(_seat_of)]
"""The seat a route's ``{secret}`` names; 404 when it names none."""


def _problem(status: int, detail: str) -> JSONResponse:
    return JSONResponse(Problem(detail=detail).model_dump(), status_code=status)


def create_app(
    store_url: str | None = None,
    *,
    store: Store | None = None,
    broadcaster: Broadcaster | None = None,
    bot_threads: int = 2,
    max_body: int = MAX_BODY_BYTES,
) -> FastAPI:
    """The server's application over the database at ``store_url`` (``DATABASE_URL``,
    else ``sqlite:///umtali.db``, when ``None``), or over an open ``store`` (which the
    caller then closes). ``bot_threads``: how many computer decisions think at once."""
    owned = store is None
    opened = Store.open(store_url) if store is None else store
    server = GameServer(opened, broadcaster=broadcaster, bot_threads=bot_threads)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        if owned:
            opened.close()

    app = FastAPI(
        title="Umtali",
        summary="Umtali, the two-player rummy: the server of the browser game",
        lifespan=lifespan,
        responses={404: {"model": Problem}, 413: {"model": Problem}},
    )
    app.state.server = server
    app.add_middleware(BodyLimit, limit=max_body)

    @app.exception_handler(StoreError)
    async def _missing(_request: Request, error: StoreError) -> JSONResponse:
        return _problem(404, str(error))

    @app.exception_handler(RecordWithheld)
    async def _withheld(_request: Request, error: RecordWithheld) -> JSONResponse:
        return _problem(403, str(error))

    @app.exception_handler(NotYourTurn)
    async def _not_your_turn(_request: Request, error: NotYourTurn) -> JSONResponse:
        return _problem(409, str(error))

    @app.exception_handler(_NoSeatError)
    async def _no_seat(_request: Request, _error: _NoSeatError) -> JSONResponse:
        return _problem(404, NO_SEAT)

    @app.get("/healthz")
    async def healthz() -> Health:
        return Health()

    @app.post("/api/games", status_code=201)
    async def new_game(request: NewGameRequest) -> GameCreated:
        """A new game against the computer, or between two people by link."""
        return await server.create(request)

    @app.get("/api/seat/{secret}")
    async def seat_state(ref: Seat) -> SeatState:
        """What this seat is shown now."""
        await server.seen(ref)
        return await server.state(ref)

    @app.post(
        "/api/seat/{secret}/move",
        response_model=MoveAccepted,
        responses={409: {"model": MoveRefused, "description": "refused: nothing changed"}},
    )
    async def move(ref: Seat, request: MoveRequest) -> MoveAccepted | JSONResponse:
        """Play a move in notation: accepted once stored, or refused with the reason."""
        await server.seen(ref)
        reply = await server.submit(ref, request.move)
        if isinstance(reply, Refused):
            return JSONResponse(MoveRefused(reason=reply.reason).model_dump(), status_code=409)
        accepted, hand_index, move_index, state = reply
        return MoveAccepted(
            hand_index=hand_index, move_index=move_index, sentence=accepted.sentence, state=state
        )

    @app.get("/api/seat/{secret}/hint", responses={409: {"model": Problem}})
    async def hint(ref: Seat) -> HintReply:
        """The move the hint level would make now, and why (to the player to move)."""
        return await server.hint(ref)

    @app.get("/api/seat/{secret}/record")
    async def seat_record(ref: Seat) -> Response:
        """The game's record for its player: the finished hands while it is played."""
        text = await server.record(ref.game_id, ref)
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
        """The seat's state now, and again after every change of the game."""
        ref = await server.seat(secret) if len(secret) <= 200 else None
        if ref is None:
            await websocket.close(code=4404, reason="no seat has this link")
            return
        await websocket.accept()
        async with server.broadcaster.subscribe(ref.game_id) as news:

            async def push() -> None:
                sent = -1
                try:
                    while True:
                        state = await server.state(ref)
                        if state.version != sent:
                            await websocket.send_text(state.model_dump_json())
                            sent = state.version
                        await news.changed()
                except (WebSocketDisconnect, RuntimeError):
                    return  # the client went away while a state was sent

            async with anyio.create_task_group() as group:
                group.start_soon(push)
                try:
                    while (await websocket.receive())["type"] != "websocket.disconnect":
                        pass  # the client says nothing the server needs yet
                finally:
                    group.cancel_scope.cancel()

    return app
