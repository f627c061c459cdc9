"""The browser server's HTTP and WebSocket API (FastAPI): ``create_app`` builds it.

The routes only translate: each request is checked against its model in
:mod:`umtali.web.protocol` (or its game's own, :mod:`umtali.web.tables`), handed to
:class:`umtali.web.server.GameServer`, and its answer written through a model again.
They are grouped by concern in :mod:`umtali.web.routers`, their dependencies in
:mod:`umtali.web.deps`. docs/WEB.md lists the endpoints.

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

import functools
import gc
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import datetime
from typing import Any, Final

from fastapi import FastAPI

from umtali.web.broadcast import Broadcaster, PostgresBroadcaster
from umtali.web.capacity import Capacity
from umtali.web.deps import install_handlers
from umtali.web.limits import SEAT_REQUESTS, RateLimit
from umtali.web.middleware import MAX_BODY_BYTES, BodyLimit, HideSecrets, TextOnly
from umtali.web.presence import GRACE_SECONDS
from umtali.web.protocol import Problem
from umtali.web.routers import (
    docs,
    games,
    health,
    learning,
    open_tables,
    pages,
    puzzles,
    records,
    reviews,
    rules,
    seats,
)
from umtali.web.server import GameServer
from umtali.web.socket import SOCKET_FLOOD, SOCKET_MESSAGES
from umtali.web.store import Store
from umtali.web.tables import state_type
from umtali.web.transport import ServerLimits

__all__ = [
    "MAX_BODY_BYTES",
    "SOCKET_FLOOD",
    "SOCKET_MESSAGES",
    "HideSecrets",
    "create_app",
]


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
    hint_level: str | None = None,
    api_docs: bool = False,
    limits: ServerLimits | None = None,
    capacity: Capacity | None = None,
) -> FastAPI:
    """The server's application over the database at ``store_url`` (``DATABASE_URL``,
    else ``sqlite:///umtali.db``, when ``None``), or over an open ``store`` (which the
    caller then closes). It plays every registered game that has a browser table.

    ``broadcaster``: how changes are announced; by default through PostgreSQL's
    ``LISTEN``/``NOTIFY`` on PostgreSQL (several processes may share the database), and
    within the process on SQLite. ``bot_threads``: how many computer decisions think
    at once. ``grace``: seconds a person may be away before another may hand his
    seat to the computer. ``clock``: the time presence goes by (tests set it).
    ``seat_requests``: each seat's limit of HTTP moves, hints and questions;
    ``socket_messages``: each WebSocket's limit of messages. ``hint_level``: the
    computer level whose choice a hint gives (each game's default when ``None``, or
    when the game has no such level). ``api_docs``: serve the API's documentation pages
    ``/docs`` and ``/redoc`` (for development: see :mod:`umtali.web.routers.docs`).
    ``limits``: the transport's limits, of which the application keeps the time a
    request's body may take and the WebSockets a seat may hold open (``umtali serve``
    gives uvicorn the others). ``capacity``: the limits on new games and on the games
    kept in memory (:class:`~umtali.web.capacity.Capacity`'s defaults when ``None``)."""
    owned = store is None
    opened = Store.open(store_url) if store is None else store
    told: dict[str, Any] = {} if clock is None else {"clock": clock}
    server = GameServer(
        opened,
        broadcaster=broadcaster,
        bot_threads=bot_threads,
        grace=grace,
        seat_requests=seat_requests,
        hint_level=hint_level,
        capacity=capacity,
        **told,
    )
    if broadcaster is None and opened.is_postgresql:
        server.broadcaster = PostgresBroadcaster(
            opened, server.outdate, server.forget_all, server.forget_presence
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
        summary="Umtali and the other card games of the umtali package: the server of the"
        " browser game",
        lifespan=lifespan,
        responses={404: {"model": Problem}, 413: {"model": Problem}},
        # FastAPI's documentation pages load their scripts from a public CDN: off
        # unless asked for, and then under the pages' policy (routers/docs.py).
        docs_url=None,
        redoc_url=None,
    )
    app.state.server = server
    # Outermost last: the body's size is checked before it is read for surrogates.
    app.add_middleware(TextOnly)
    limits = limits or ServerLimits()
    app.add_middleware(
        BodyLimit,
        limit=max_body,
        larger={
            learning.REPLAY_PATH: max(max_body, learning.REPLAY_MAX_BYTES),
            reviews.REVIEW_PATH: max(max_body, learning.REPLAY_MAX_BYTES),
        },
        seconds=limits.body_seconds,
    )
    install_handlers(app)
    app.include_router(health.router)
    app.include_router(games.router)
    app.include_router(open_tables.router)
    app.include_router(seats.router(state_type(), socket_messages, limits.sockets_per_seat))
    app.include_router(records.router)
    app.include_router(learning.router())
    app.include_router(reviews.router(max(max_body, learning.REPLAY_MAX_BYTES)))
    app.include_router(puzzles.router())
    app.include_router(rules.router)
    app.include_router(pages.router)
    if api_docs:
        app.include_router(docs.router)
    return app
