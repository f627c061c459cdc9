"""What one server process lets its games take: how many new games a client address may
make, how many games may be in play in memory at once, how long an untouched game stays
in memory, and a fair share of the computer's threads and thinking time for every game.

:class:`Capacity` holds the settings (docs/WEB.md, "Limits", "Games and memory");
:class:`GameQuota` counts each address's new games; :class:`FairPool` runs the
computer's thinking, one decision at a time per game and round-robin across games, so
that a game with much to think about never starves another, and gives each decision its
share of the thinking budget (:func:`thinking_share`): the whole budget when no game
waits, less the more games wait.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import AsyncIterator, Callable, Hashable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from functools import partial
from typing import Final, TypeVar

import anyio
import anyio.to_thread

from umtali.web.limits import RateLimit, TokenBucket

__all__ = [
    "ADDRESSES",
    "BOT_SECONDS",
    "LEAST_BOT_SECONDS",
    "Capacity",
    "FairPool",
    "GameQuota",
    "ServerFullError",
    "TooManyGamesError",
    "thinking_share",
]

T = TypeVar("T")

ADDRESSES: Final = 10_000
"""How many client addresses' counts of new games are kept before the quiet ones are let
go (an address let go starts again with its full allowance)."""

BOT_SECONDS: Final = 1.0
"""The computer's thinking budget for one decision, in seconds, when no game waits."""

LEAST_BOT_SECONDS: Final = 0.05
"""However many games wait, a decision is given at least this long (or the whole budget,
if that is less)."""


def thinking_share(
    seconds: float, *, waiting: int, threads: int, least: float = LEAST_BOT_SECONDS
) -> float:
    """The thinking budget of a decision that starts while ``waiting`` other games wait
    for the pool's ``threads``: ``seconds / (1 + waiting / threads)``, but at least
    ``least`` (or ``seconds`` if that is less).

    A game that waits has about ``waiting / threads`` decisions ahead of it, so with
    every decision given this share, its wait and its own decision together take about
    ``seconds``, however many games think: under load the computer plays less well,
    not more slowly.

    >>> thinking_share(1.0, waiting=0, threads=2)
    1.0
    >>> thinking_share(1.0, waiting=2, threads=2), thinking_share(1.0, waiting=6, threads=2)
    (0.5, 0.25)
    >>> thinking_share(1.0, waiting=100, threads=2), thinking_share(0.01, waiting=100, threads=2)
    (0.05, 0.01)
    """
    return max(min(least, seconds), seconds / (1 + waiting / threads))


@dataclass(frozen=True)
class Capacity:
    """The limits on games and memory of one server process, each with its default.

    ``games_per_minute``: new games one client address may make in a minute (as many at
    once, then one every ``60 / games_per_minute`` seconds). ``games_in_play``: games in
    play this process may hold in memory before it refuses new ones. ``idle_seconds``:
    a game untouched this long leaves memory (it is read again from the database when
    next asked for). ``bot_seconds``: the computer's thinking budget for one decision
    when no game waits for the pool (:func:`thinking_share` when games wait).
    ``open_per_address``: tables one client address may have waiting for players at
    once; ``open_tables``: tables waiting in all (what the list shows at most);
    ``open_wait_seconds``: how long a table waits for someone to sit down. These three
    are counted in the database, so they hold for all the server's processes together.

    >>> Capacity(games_per_minute=0)
    Traceback (most recent call last):
    ...
    ValueError: games_per_minute must be a whole number of at least 1, not 0
    """

    games_per_minute: int = 20
    games_in_play: int = 2_000
    idle_seconds: float = 30 * 60.0
    bot_seconds: float = BOT_SECONDS
    open_per_address: int = 2
    open_tables: int = 200
    open_wait_seconds: float = 10 * 60.0

    def __post_init__(self) -> None:
        for name in ("games_per_minute", "games_in_play", "open_per_address", "open_tables"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number of at least 1, not {value!r}")
        for name in ("idle_seconds", "bot_seconds", "open_wait_seconds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise ValueError(f"{name} must be a number of seconds above 0, not {value!r}")

    @property
    def new_games(self) -> RateLimit:
        """Each address's limit of new games, as a token bucket's."""
        return RateLimit(rate=self.games_per_minute / 60, burst=self.games_per_minute)


class TooManyGamesError(Exception):
    """A client address over its limit of new games; ``seconds`` until its next."""

    def __init__(self, message: str, seconds: float) -> None:
        super().__init__(message)
        self.seconds = seconds


class ServerFullError(Exception):
    """A new game refused because the process holds as many games in play as it may."""

    def __init__(self, message: str, seconds: float) -> None:
        super().__init__(message)
        self.seconds = seconds


class GameQuota:
    """Each client address's allowance of new games (a token bucket each); at most
    :data:`ADDRESSES` addresses are remembered, the quiet ones let go first.

    >>> now = [0.0]
    >>> quota = GameQuota(Capacity(games_per_minute=2), clock=lambda: now[0])
    >>> [quota.take("a") for _ in range(3)], quota.take("b")
    ([None, None, 30.0], None)
    """

    def __init__(
        self,
        capacity: Capacity,
        *,
        clock: Callable[[], float] = time.monotonic,
        addresses: int = ADDRESSES,
    ) -> None:
        self.limit = capacity.new_games
        self._clock = clock
        self._addresses = addresses
        self._buckets: dict[str, TokenBucket] = {}

    def take(self, address: str) -> float | None:
        """Spend one new game of ``address``: ``None`` if it may, else the seconds until
        it may again."""
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) >= self._addresses:
                self._buckets = {k: b for k, b in self._buckets.items() if not b.full}
                if len(self._buckets) >= self._addresses:  # all busy: the oldest go
                    for old in list(self._buckets)[: len(self._buckets) // 2]:
                        del self._buckets[old]
            bucket = self._buckets[address] = TokenBucket(self.limit, clock=self._clock)
        return None if bucket.take() else max(bucket.wait(), 0.001)

    def give_back(self, address: str) -> None:
        """Return the new game ``address`` spent on one then refused (an open table over
        its limit): it does not count against the address's minute."""
        bucket = self._buckets.get(address)
        if bucket is not None:
            bucket.give_back()

    def __len__(self) -> int:
        return len(self._buckets)


class FairPool:
    """The computer's threads, shared fairly: each game (``key``) has its queue of
    decisions, run one at a time, and the games with something to think about take
    turns, round-robin, for the ``threads`` threads. A game asking for many decisions
    waits for its next one behind at most one decision of every other waiting game.

    A decision run by :meth:`think` is given its share of a thinking budget as its turn
    comes: the whole budget when no other game waits, less the more games wait
    (:func:`thinking_share`).

    ``started``: called with each decision's key as it starts (for tests).
    """

    def __init__(self, threads: int, started: Callable[[Hashable], None] | None = None) -> None:
        if threads < 1:
            raise ValueError(f"the computer needs at least one thread, not {threads}")
        self.threads = threads
        self._started = started
        self._queues: dict[Hashable, deque[asyncio.Event]] = {}
        self._turns: deque[Hashable] = deque()
        """The games waiting with nothing running, in the order they take their turns."""
        self._running: set[Hashable] = set()
        self._limiter: anyio.CapacityLimiter | None = None

    @property
    def waiting(self) -> int:
        """How many decisions wait for a thread."""
        return sum(len(queue) for queue in self._queues.values())

    @property
    def waiting_games(self) -> int:
        """How many games have a decision waiting for a thread."""
        return len(self._queues)

    def share(self, seconds: float) -> float:
        """A decision's share of ``seconds`` of thinking if it started now, as the games
        waiting make it (:func:`thinking_share`)."""
        return thinking_share(seconds, waiting=self.waiting_games, threads=self.threads)

    @property
    def games(self) -> int:
        """How many games have a decision waiting or running (what the pool keeps)."""
        return len(self._queues.keys() | self._running)

    async def run(self, key: Hashable, call: Callable[[], T]) -> T:
        """Run ``call`` in a thread on ``key``'s turn."""
        async with self._turn(key):
            return await anyio.to_thread.run_sync(call, limiter=self._limiter)

    async def think(self, key: Hashable, decide: Callable[[float], T], seconds: float) -> T:
        """Run ``decide(budget)`` in a thread on ``key``'s turn, ``budget`` being its
        share of ``seconds`` as the turn comes (:meth:`share`: the games still waiting
        then)."""
        async with self._turn(key):
            budget = self.share(seconds)
            return await anyio.to_thread.run_sync(partial(decide, budget), limiter=self._limiter)

    @asynccontextmanager
    async def _turn(self, key: Hashable) -> AsyncIterator[None]:
        """Wait for ``key``'s turn and hold a thread of the pool until the block ends."""
        if self._limiter is None:  # made in the event loop, at its first use
            self._limiter = anyio.CapacityLimiter(self.threads)
        go = asyncio.Event()
        queue = self._queues.get(key)
        if queue is None:
            queue = self._queues[key] = deque()
            if key not in self._running:
                self._turns.append(key)
        queue.append(go)
        self._dispatch()
        try:
            await go.wait()
        except BaseException:
            if go.is_set():  # given its turn as it was cancelled: hand the turn on
                self._finish(key)
            else:
                self._drop(key, go)
            raise
        try:
            if self._started is not None:
                self._started(key)
            yield
        finally:
            self._finish(key)

    def _dispatch(self) -> None:
        """Give the free threads to the games whose turn it is."""
        while self._turns and len(self._running) < self.threads:
            key = self._turns.popleft()
            queue = self._queues[key]
            go = queue.popleft()
            if not queue:
                del self._queues[key]
            self._running.add(key)
            go.set()

    def _finish(self, key: Hashable) -> None:
        self._running.discard(key)
        if key in self._queues:  # more to think about: to the back of the line
            self._turns.append(key)
        self._dispatch()

    def _drop(self, key: Hashable, go: asyncio.Event) -> None:
        queue = self._queues.get(key)
        if queue is None:
            return
        queue.remove(go)
        if not queue:
            del self._queues[key]
            if key in self._turns:
                self._turns.remove(key)
