"""Announcing changes: a :class:`Broadcaster` tells the listeners of a game (its seats'
WebSockets) that it changed, or that one of its players came or went. Only the game's
id travels, never a state: each listener then asks for its own seat's state, so nothing
secret goes through here.

:class:`LocalBroadcaster` serves one process; :class:`PostgresBroadcaster` reaches every
process sharing a PostgreSQL database, through ``LISTEN``/``NOTIFY``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import Any, Final, Protocol

import psycopg

from umtali.web.store import GAME_CHANNEL, PRESENCE_CHANNEL, Store, read_notice

__all__ = [
    "LISTEN_RETRY_SECONDS",
    "Broadcaster",
    "LocalBroadcaster",
    "PostgresBroadcaster",
    "Subscription",
]

LISTEN_RETRY_SECONDS: Final = (0.1, 5.0)
"""The first and the longest wait before the listener connects again after losing its
connection (the wait doubles each time it fails)."""

log = logging.getLogger("umtali.web")


class Subscription:
    """One listener's news of a game: :meth:`changed` returns once the game has changed
    since it last returned. Changes that come while nobody waits are merged into one,
    so a slow listener never piles up messages."""

    def __init__(self) -> None:
        self._changed = asyncio.Event()

    def notify(self) -> None:
        self._changed.set()

    async def changed(self) -> None:
        await self._changed.wait()
        self._changed.clear()


class Broadcaster(Protocol):
    """Tells the listeners of a game that it changed (or that one of its players came
    or went): only the game's id travels, never a state."""

    async def publish(self, game_id: int) -> None:
        """Announce that ``game_id`` changed (after the change is committed)."""

    def subscribe(self, game_id: int) -> AbstractAsyncContextManager[Subscription]:
        """Listen to ``game_id`` while the context is open."""

    async def start(self) -> None:
        """Begin (in the application's lifespan, on the event loop)."""

    async def stop(self) -> None:
        """End, letting go of what :meth:`start` took."""


class LocalBroadcaster:
    """A :class:`Broadcaster` within one process: enough for one server process."""

    def __init__(self) -> None:
        self._listeners: dict[int, set[Subscription]] = {}

    async def publish(self, game_id: int) -> None:
        for subscription in list(self._listeners.get(game_id, ())):
            subscription.notify()

    async def publish_all(self) -> None:
        """Wake every listener of every game."""
        for game_id in list(self._listeners):
            await self.publish(game_id)

    @asynccontextmanager
    async def subscribe(self, game_id: int) -> AsyncIterator[Subscription]:
        subscription = Subscription()
        self._listeners.setdefault(game_id, set()).add(subscription)
        try:
            yield subscription
        finally:
            listeners = self._listeners.get(game_id, set())
            listeners.discard(subscription)
            if not listeners:
                self._listeners.pop(game_id, None)

    def listeners(self, game_id: int) -> int:
        """How many listen to ``game_id`` (for tests)."""
        return len(self._listeners.get(game_id, ()))

    async def start(self) -> None:
        """Nothing to begin."""

    async def stop(self) -> None:
        """Nothing to end."""


class PostgresBroadcaster(LocalBroadcaster):
    """A :class:`Broadcaster` for every process sharing a PostgreSQL database.

    The store sends the notices itself: ``NOTIFY umtali_game, '<token>:<id>'`` inside the
    transaction of each change to a game, so a notice goes out exactly when the change
    is committed, even if the process dies right after (and ``umtali_presence`` when
    a player comes or goes). :meth:`publish` therefore wakes only this process's
    listeners. Each process listens (``LISTEN``) on one connection of its own: on a
    notice of a game changed by another process, it marks its copy of the game stale
    (``outdate``: the copy catches up with what was stored before it is used next),
    and then wakes its listeners of that game, who read their states again. A notice that carries this process's store's token (:attr:`Store.token`)
    tells of a change made here, which the copy in memory has and whose listeners
    were woken when it was stored: it is let pass.

    A notice of a player who came or went drops only what was read of who is present.

    If the listening connection drops, it connects again (waiting longer after each
    failure); notices sent meanwhile are lost, so it then drops every game in memory
    (``forget_all``) and wakes every listener.
    """

    def __init__(
        self,
        store: Store,
        outdate: Callable[[int], None],
        forget_all: Callable[[], None],
        forget_presence: Callable[[int], None] = lambda _game_id: None,
    ) -> None:
        super().__init__()
        self._store = store
        self._outdate = outdate
        self._forget_all = forget_all
        self._forget_presence = forget_presence
        self._task: asyncio.Task[None] | None = None
        self._listening: asyncio.Event | None = None
        self.listener_pid: int | None = None
        """The PostgreSQL process id of the listening connection (``None`` while it is
        down): a test can end it to see the listener come back."""
        self.reconnections = 0
        """How many times the listener connected again after losing its connection."""

    def _connect_args(self) -> dict[str, Any]:
        engine = self._store.engine
        _args, kwargs = engine.dialect.create_connect_args(engine.url)
        kwargs.pop("context", None)  # SQLAlchemy's adapters: not for a bare connection
        return dict(kwargs)

    async def start(self) -> None:
        """Start listening; returns once ``LISTEN`` is in place (or after 10 seconds
        of trying, listening on in the background), so no notice is missed after."""
        self._listening = asyncio.Event()
        self._task = asyncio.create_task(self._listen(), name="umtali LISTEN")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._listening.wait(), timeout=10)

    async def stop(self) -> None:
        """Stop listening and close the connection."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _listen(self) -> None:
        wait, longest = LISTEN_RETRY_SECONDS
        first = True
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(
                    **self._connect_args(), autocommit=True
                ) as connection:
                    await connection.execute(f"LISTEN {GAME_CHANNEL}")
                    await connection.execute(f"LISTEN {PRESENCE_CHANNEL}")
                    self.listener_pid = connection.info.backend_pid
                    if not first:
                        # Notices sent while the connection was down are lost: every
                        # copy in memory may be stale.
                        self.reconnections += 1
                        log.warning("listening again for changes made by other processes")
                        self._forget_all()
                        await self.publish_all()
                    first = False
                    wait = LISTEN_RETRY_SECONDS[0]
                    assert self._listening is not None
                    self._listening.set()
                    async for notice in connection.notifies():
                        await self._receive(notice.channel, notice.payload)
            except (psycopg.Error, OSError) as e:
                self.listener_pid = None
                log.warning("lost the connection that listens for changes (%s): retrying", e)
                await asyncio.sleep(wait)
                wait = min(longest, wait * 2)

    async def _receive(self, channel: str, payload: str) -> None:
        notice = read_notice(payload)
        if notice is None:
            return  # not a notice of ours
        token, game_id = notice
        if token == self._store.token:
            # A change made here: the copy in memory has it, and the listeners were
            # woken when it was stored.
            return
        if channel == GAME_CHANNEL:
            self._outdate(game_id)
        elif channel == PRESENCE_CHANNEL:
            self._forget_presence(game_id)
        await self.publish(game_id)
