"""Learning in the browser: the replay of a record of any game (``POST /api/replay``)
and the pages ``/learn``, ``/quiz`` and ``/replay``. A game's own teaching (Umtali's
lessons and quiz, ``/api/lessons`` and ``/api/quiz``) comes with its table
(:attr:`umtali.web.tables.GameTable.routes`), which :func:`router` includes.

A replay reads a record with :func:`umtali.kernel.record.load_any_bytes` (every check
and message of ``umtali replay``) and has the record's game's table tell it
(:func:`umtali.web.replays.tell`), in the steps ``umtali replay --step`` pauses at.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Final

import anyio
from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import Response

from umtali import games
from umtali.kernel.record import RecordError, load_any_bytes
from umtali.web.learning_protocol import ReplayReply
from umtali.web.protocol import Problem
from umtali.web.routers.pages import STATIC_ROOT, file_response
from umtali.web.tables import replay_type, table_of, tables

__all__ = ["REPLAY_MAX_BYTES", "REPLAY_PATH", "replay_reply", "router"]

REPLAY_PATH: Final = "/api/replay"
"""Where a record is sent to be replayed: the one route whose body may exceed the
application's usual limit (:data:`REPLAY_MAX_BYTES`)."""

REPLAY_MAX_BYTES: Final = 2 * 1024 * 1024
"""The largest record the browser may send. A game's record takes about 7 KiB and a long
session's a few tens of KiB, so this refuses only what is no game record, without
holding the server to the 16 MiB a record file may hold on disk."""

_PAGES: Final = STATIC_ROOT / "learn"


def replay_reply(raw: bytes) -> ReplayReply:
    """The record in ``raw`` (a record file's bytes) read, raising :class:`RecordError`
    as ``umtali replay`` would refuse it, and told hand by hand by its game's table, in
    the steps ``umtali replay --step`` pauses at: the deal, then each turn, each with
    the hand after it. Every record the project writes is read, of every game."""
    match = load_any_bytes(raw)
    return table_of(games.spec_of(match)).tell(match)


def router() -> APIRouter:
    """The learning routes, with the routes of every game's table that has its own."""
    routes = APIRouter()
    _add_replay(routes, replay_type())
    for page in ("learn", "quiz", "replay"):
        _add_page(routes, page, _PAGES / f"{page}.html")
    for _spec, table in tables():
        if table.routes is not None:
            routes.include_router(table.routes)
    return routes


def _add_replay(routes: APIRouter, reply: Any) -> None:
    @routes.post(
        REPLAY_PATH,
        response_model=reply,
        responses={413: {"model": Problem}, 422: {"model": Problem}},
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": {"type": "object"}}},
                "description": "a game record, as `umtali replay` reads it",
            }
        },
    )
    async def replay(request: Request) -> ReplayReply:
        """Replay a record (the JSON text of a saved terminal game or of the browser
        game's download): every hand, turn by turn, all cards face up. A record that
        cannot be read is refused with 422 and what is wrong with it; one over
        :data:`REPLAY_MAX_BYTES`, with 413."""
        raw = bytearray()
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > REPLAY_MAX_BYTES:
                raise HTTPException(
                    413,
                    f"the record is too large: at most {REPLAY_MAX_BYTES // (1024 * 1024)} MiB"
                    " are read (a game's record takes a few KiB)",
                )
        try:
            # Reading a record replays every move: kept off the event loop.
            return await anyio.to_thread.run_sync(replay_reply, bytes(raw))
        except RecordError as e:
            raise HTTPException(422, f"cannot replay this record: {e}") from None


def _add_page(routes: APIRouter, name: str, path: Path) -> None:
    async def page(request: Request) -> Response:
        return file_response(request, path)

    page.__doc__ = f"The page /{name}."
    routes.add_api_route(f"/{name}", page, methods=["GET"], include_in_schema=False)
