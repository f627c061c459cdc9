"""A seat's WebSocket (``/ws/seat/{secret}``): its state pushed now and after every
change of the game or of who is present, and the client's moves and pings read and
answered, one at a time (docs/WEB.md, "The WebSocket").
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Final

import anyio
from fastapi import WebSocket
from pydantic import BaseModel, ValidationError
from starlette.websockets import WebSocketDisconnect

from umtali.games.api import Refused
from umtali.web.deps import Holder
from umtali.web.limits import RateLimit, TokenBucket
from umtali.web.middleware import lone_surrogate, surrogate_refusal
from umtali.web.protocol import (
    CLIENT_MESSAGE,
    MAX_SOCKET_MESSAGE_BYTES,
    ClientPing,
    SeatState,
    ServerAccepted,
    ServerError,
    ServerPong,
    ServerRefused,
)
from umtali.web.server import GameServer, SeatRefused

__all__ = ["NO_SEAT_CODE", "SOCKET_FLOOD", "SOCKET_MESSAGES", "serve_socket"]

NO_SEAT_CODE: Final = 4404
"""The close code of a socket whose link names no seat: the page stops trying again
(``static/js/live.js``). The socket is accepted and then closed with it, so that the
page sees the code rather than a failed handshake."""

SOCKET_MESSAGES: Final = RateLimit(rate=10, burst=20)
"""The limit on the messages one WebSocket connection may send: a player sends a few
moves a second at most."""

SOCKET_FLOOD: Final = RateLimit(rate=1, burst=20)
"""How many messages over :data:`SOCKET_MESSAGES` a connection may send (each answered
with an error and dropped) before it is closed with code 1008: a client that keeps
flooding is not a player."""


def _read_error(text: str, error: ValidationError) -> ServerError:
    """What is wrong with a client's message, in words, with its ``id`` if it had one."""
    try:
        data = json.loads(text)
    except ValueError as e:
        return ServerError(detail=f"the message is not JSON: {e}")
    given = data.get("id") if isinstance(data, dict) else None
    number = given if type(given) is int else None
    place = lone_surrogate(data)
    if place is not None:
        return ServerError(detail=surrogate_refusal(place), id=number)
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


async def serve_socket(
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
            rule = reply.rule if isinstance(reply, SeatRefused) else None
            await send(ServerRefused(id=parsed.id, reason=reply.sentence, rule=rule))
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
