"""A seat, by its link: its state, its moves, a hint, "why not?", handing an away
player's seat to the computer and taking it back, the rematch, and its WebSocket; and
how a few seats stand at once (``POST /api/seats/status``, the home page's "My games").

A seat's state is its game's own model (:mod:`umtali.web.tables`): :func:`router` is
given the union of the games' models, so the schema publishes each game's state, told
apart by ``game``.
"""

from __future__ import annotations

import contextlib
from typing import Any

import anyio
from fastapi import APIRouter, WebSocket
from fastapi.responses import JSONResponse
from pydantic import Field, create_model

from umtali import games
from umtali.games.api import Refused
from umtali.kernel.english import YOU
from umtali.web.deps import Holder, Limited, Seat, Server
from umtali.web.limits import RateLimit
from umtali.web.protocol import (
    GameCreated,
    HintReply,
    MoveAccepted,
    MoveRefused,
    MoveRequest,
    NameRequest,
    Problem,
    SeatsStatus,
    SeatsStatusRequest,
    SeatState,
    SeatStatus,
    WhyReply,
)
from umtali.web.server import GameServer, SeatRefused
from umtali.web.socket import NO_SEAT_CODE, SOCKET_MESSAGES, serve_socket
from umtali.web.store import StoreError
from umtali.web.transport import TOO_MANY_SOCKETS_CODE, ServerLimits, SocketCount

__all__ = ["router"]


def router(
    state: Any,
    socket_messages: RateLimit = SOCKET_MESSAGES,
    sockets_per_seat: int = ServerLimits.sockets_per_seat,
) -> APIRouter:
    """The seat's routes, its state of the type ``state`` (the games' state models);
    ``socket_messages``: each WebSocket's limit of messages; ``sockets_per_seat``: how
    many WebSockets one seat may hold open at once."""
    routes = APIRouter()
    accepted: Any = create_model(
        "MoveAccepted",
        __base__=MoveAccepted,
        state=(state, Field(description="what the seat sees now, its game's own state")),
    )

    @routes.get("/api/seat/{secret}", response_model=state)
    async def seat_state(server: Server, seat: Seat) -> SeatState:
        """What this seat is shown now."""
        return await server.state(seat.ref, seat.secret)

    @routes.post(
        "/api/seat/{secret}/move",
        response_model=accepted,
        responses={
            409: {"model": MoveRefused, "description": "refused: nothing changed"},
            429: {"model": Problem},
        },
    )
    async def move(server: Server, seat: Limited, request: MoveRequest) -> Any:
        """Play a move in notation: accepted once stored, or refused with the reason."""
        reply = await server.submit(seat.ref, request.move, seat.secret)
        if isinstance(reply, Refused):
            rule = reply.rule if isinstance(reply, SeatRefused) else None
            refused = MoveRefused(reason=reply.sentence, rule=rule)
            return JSONResponse(refused.model_dump(), status_code=409)
        return accepted(
            hand_index=reply.hand_index,
            move_index=reply.move_index,
            sentence=reply.accepted.sentence,
            state=reply.state,
        )

    _add_requests(routes, state)
    _add_status(routes)
    _add_socket(routes, socket_messages, SocketCount(sockets_per_seat))
    return routes


def _add_requests(routes: APIRouter, state: Any) -> None:
    """The seat's requests besides its state and its moves."""

    @routes.get(
        "/api/seat/{secret}/hint", responses={409: {"model": Problem}, 429: {"model": Problem}}
    )
    async def hint(server: Server, seat: Limited) -> HintReply:
        """The move the hint level would make now, and why (to the player to move)."""
        return await server.hint(seat.ref)

    @routes.post("/api/seat/{secret}/why", responses={429: {"model": Problem}})
    async def why(server: Server, seat: Limited, request: MoveRequest) -> WhyReply:
        """Whether a move would be allowed now, and if not why: nothing is played."""
        return await server.why(seat.ref, request.move)

    @routes.post(
        "/api/seat/{secret}/hand-over", response_model=state, responses={409: {"model": Problem}}
    )
    async def hand_over(server: Server, seat: Seat) -> SeatState:
        """Let the computer play the seat of the player this one plays against, who has
        been away longer than the grace period (409 with the reason otherwise)."""
        return await server.hand_over(seat.ref, seat.secret)

    @routes.post("/api/seat/{secret}/reclaim", response_model=state)
    async def reclaim(server: Server, seat: Seat) -> SeatState:
        """Play this seat again, after the computer played it while its player was away."""
        return await server.reclaim(seat.ref, seat.secret)

    @routes.post(
        "/api/seat/{secret}/name",
        response_model=state,
        responses={409: {"model": Problem}, 429: {"model": Problem}},
    )
    async def name(server: Server, seat: Limited, request: NameRequest) -> SeatState:
        """Give this seat's player the name he chose: every seat is shown it, and the
        game's record keeps it (409 once he changed it too many times)."""
        return await server.rename(seat.ref, request.name, seat.secret)

    @routes.post("/api/seat/{secret}/rematch", responses={409: {"model": Problem}})
    async def rematch(server: Server, seat: Seat) -> GameCreated:
        """Once the game is over: this seat's link to a new game with the same players,
        level and length (the same game whoever asks first)."""
        return await server.rematch(seat.ref, seat.secret)


def _add_status(routes: APIRouter) -> None:
    """How a few seats stand, for the home page's list of the games a browser plays."""

    @routes.post("/api/seats/status", responses={422: {"model": Problem}})
    async def seats_status(server: Server, request: SeatsStatusRequest) -> SeatsStatus:
        """For each secret (at most 20), what its seat may see of how its game stands:
        the game, the opponents, whether it is to move, whether the game is over. A
        secret that names no seat is answered ``known: false``, never an error. Asking
        does not count as being at the table (the other players are not told)."""
        return SeatsStatus(seats=[await _status(server, secret) for secret in request.secrets])


async def _status(server: GameServer, secret: str) -> SeatStatus:
    """How the seat of ``secret`` stands, as its player may see it."""
    ref = await server.seat(secret)
    if ref is None:
        return SeatStatus(known=False)
    try:
        state = await server.state(ref)
    except StoreError:
        return SeatStatus(known=False)
    opponents = list(state.names)
    if YOU in opponents:
        opponents.remove(YOU)
    return SeatStatus(
        known=True,
        game=state.game,
        game_title=games.get(state.game).title,
        where=state.title,
        opponents=opponents,
        your_turn=state.your_turn,
        over=state.over,
        result=state.result,
        review=state.review and state.previous is not None,
    )


def _add_socket(routes: APIRouter, limit: RateLimit, sockets: SocketCount) -> None:
    """The seat's WebSocket; ``sockets`` counts each seat's open ones."""

    @routes.websocket("/ws/seat/{secret}")
    async def seat_socket(websocket: WebSocket, secret: str) -> None:
        """The seat's state now and after every change; moves and pings in (docs/WEB.md,
        "The WebSocket")."""
        server: GameServer = websocket.app.state.server
        ref = await server.seat(secret) if len(secret) <= 200 else None
        # Accepted first: a socket closed before it opens is answered 403 at the
        # handshake, which a browser reports as 1006, a network failure it retries; the
        # codes below tell the page to stop.
        await websocket.accept()
        if ref is None:
            await websocket.close(code=NO_SEAT_CODE, reason="no seat has this link")
            return
        if not sockets.enter(ref):
            await websocket.close(
                code=TOO_MANY_SOCKETS_CODE,
                reason=f"this seat has {sockets.most} connections open already",
            )
            return
        try:
            await server.seen(ref, announce=True)
            try:
                await serve_socket(server, websocket, Holder(ref, secret), limit)
            finally:
                with anyio.CancelScope(shield=True), contextlib.suppress(Exception):
                    await server.seen(ref, announce=True)  # gone: the other seats are told
        finally:
            sockets.leave(ref)
