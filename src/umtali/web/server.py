"""The games a server process plays, apart from HTTP: what the routes of
:mod:`umtali.web.app` call.

The database is the truth. A game is read from it (:meth:`Store.load_match`) the first
time this process needs it and kept in memory after that; every change is stored first
and shown after: a move is played through the engine (:meth:`PlaySession.submit`),
stored with :meth:`Store.append_move`, and only then acknowledged to its player and
announced to the other seat. A change that cannot be stored (another process stored a
move there first, or the database failed) drops the game from memory, so that the next
request reads it again from the database; a move refused or beaten to its place by a
stale copy is tried once more against the game read again, so a stale copy never makes
a legal move fail.

Each hand is dealt from a secure shuffle (:class:`secrets.SystemRandom`) and its deck is
stored with a salted commitment (:meth:`Store.start_hand`) before anyone sees a card.
The computer's decisions are seeded (:func:`umtali.kernel.seeds.decision_rng`) from a seed
kept in the game's ``meta`` and think in a small pool of threads, so a slow decision
holds up only its own game.

Announcements go through a :class:`Broadcaster`. It carries only "game N changed":
each listener then asks for its own seat's state, so nothing secret travels through
it. :class:`LocalBroadcaster` serves one process; :class:`PostgresBroadcaster` reaches
every process sharing a PostgreSQL database, through ``LISTEN``/``NOTIFY``.

A game is of Umtali or of Gin Rummy: its session (:data:`AnySession`) answers the same
calls whichever it is, and what a seat is shown of Gin Rummy is built in
:mod:`umtali.web.gin_table`. A game of three- or four-hand Gin Rummy is a
:class:`~umtali.games.gin.party_session.GinPartySession`: each of its seats plays its own
hand through that hand's session, the computer plays the seats no person holds (whole
hands between computers too, at once), and what a seat is shown is built in
:mod:`umtali.web.gin_party`.

Between two people, a seat whose player has been away longer than the grace period
may be handed to the computer by the other player, and reclaimed by its own when he
comes back (:meth:`GameServer.hand_over`, :meth:`GameServer.reclaim`). A finished game
offers a rematch (:meth:`GameServer.rematch`), whose links are worked out from the old
ones (:func:`umtali.web.store.rematch_secret`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import secrets
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from functools import partial
from typing import Any, Final, Protocol, TypeVar

import anyio
import anyio.to_thread
import psycopg

from umtali.games.gin.bots import GIN_BOTS
from umtali.games.gin.match import GinMatch, GinPartyMatch
from umtali.games.gin.party_session import GinPartySession, PartyHand
from umtali.games.gin.rules import GIN_PRESETS
from umtali.games.gin.session import DEFAULT_GIN_BOT, GinAccepted, GinPlaySession
from umtali.games.umtali.bots import DEFAULT_BOT
from umtali.games.umtali.describe import how_hand_ended
from umtali.games.umtali.match import Match, MatchKind
from umtali.games.umtali.moves import Move
from umtali.games.umtali.rules import PRESETS
from umtali.games.umtali.session import Accepted, PlaySession, Refused, Seats
from umtali.games.umtali.view import PlayerView
from umtali.kernel.deck import shuffled_deck
from umtali.kernel.english import YOU
from umtali.kernel.record import AnyMatch, AnyRecord, dumps, record_of, replay_any
from umtali.web.gin_party import (
    PartyTold,
    party_last_move,
    party_seat_table,
    party_version,
)
from umtali.web.gin_table import (
    gin_last_move,
    gin_seat_table,
    gin_seats,
    gin_session_of,
)
from umtali.web.protocol import (
    GameCreated,
    GinHandEnd,
    HandEnd,
    HintReply,
    NewGameRequest,
    Opponent,
    ScoreSheetModel,
    SeatLink,
    SeatState,
    VerifyReply,
    WhyReply,
    levels_of,
)
from umtali.web.store import (
    GAME_CHANNEL,
    PRESENCE_CHANNEL,
    HandConflict,
    MoveConflict,
    RematchConflict,
    SeatInfo,
    SeatRef,
    Store,
    deck_text,
    read_notice,
    rematch_secret,
)

__all__ = [
    "GRACE_SECONDS",
    "HEARTBEAT_SECONDS",
    "Broadcaster",
    "GameServer",
    "LocalBroadcaster",
    "NotNow",
    "NotYourTurn",
    "PostgresBroadcaster",
    "RateLimit",
    "RecordWithheld",
    "Subscription",
    "TokenBucket",
]

BOT_THREADS: Final = 2
"""How many computer decisions this process thinks about at once; more wait their turn."""

HEARTBEAT_SECONDS: Final = 20.0
"""How often, at most, a seat's ``last_seen_at`` is written while its WebSocket is open
or its link is used (a third of the grace period, when that is shorter)."""

GRACE_SECONDS: Final = 90.0
"""How long a person may be away before the other may hand his seat to the computer."""

LISTEN_RETRY_SECONDS: Final = (0.1, 5.0)
"""The first and the longest wait before the listener connects again after losing its
connection (the wait doubles each time it fails)."""

T = TypeVar("T")

log = logging.getLogger("umtali.web")


def _utc_now() -> datetime:
    return datetime.now(UTC)


# -- rate limits ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class RateLimit:
    """At most ``rate`` requests a second on average, and ``burst`` at once."""

    rate: float
    burst: float


class TokenBucket:
    """A token bucket: :meth:`take` spends a token if one is left; tokens come back at
    ``limit.rate`` a second, up to ``limit.burst``.

    >>> now = [0.0]
    >>> bucket = TokenBucket(RateLimit(rate=2, burst=3), clock=lambda: now[0])
    >>> [bucket.take() for _ in range(4)]
    [True, True, True, False]
    >>> bucket.wait()
    0.5
    >>> now[0] = 0.5
    >>> bucket.take(), bucket.take()
    (True, False)
    """

    def __init__(self, limit: RateLimit, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self._clock = clock
        self._tokens = limit.burst
        self._stamp = clock()

    def _fill(self) -> None:
        now = self._clock()
        self._tokens = min(self.limit.burst, self._tokens + (now - self._stamp) * self.limit.rate)
        self._stamp = now

    def take(self) -> bool:
        """Spend a token, if there is one."""
        self._fill()
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False

    def wait(self) -> float:
        """Seconds until the next token."""
        self._fill()
        return max(0.0, (1 - self._tokens) / self.limit.rate)

    @property
    def full(self) -> bool:
        """Whether the bucket is full again (nothing spent lately)."""
        self._fill()
        return self._tokens >= self.limit.burst


SEAT_REQUESTS: Final = RateLimit(rate=10, burst=20)
"""The default limit on a seat's moves, hints and questions over HTTP."""


# -- announcing changes -------------------------------------------------------------------------


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
    notice of a game changed by another process, it drops its copy of the game
    (``forget``), which is stale, and then wakes its listeners of that game, who read
    it again. A notice that carries this process's store's token (:attr:`Store.token`)
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
        forget: Callable[[int], None],
        forget_all: Callable[[], None],
        forget_presence: Callable[[int], None] = lambda _game_id: None,
    ) -> None:
        super().__init__()
        self._store = store
        self._forget = forget
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
            self._forget(game_id)
        elif channel == PRESENCE_CHANNEL:
            self._forget_presence(game_id)
        await self.publish(game_id)


# -- errors the routes turn into answers -------------------------------------------------------


class NotYourTurn(Exception):  # noqa: N818 - an answer, not a fault
    """A hint asked for by the seat not to move."""


class NotNow(Exception):  # noqa: N818 - an answer, not a fault
    """A request that the game's state does not allow now (a hand-over while the other
    player is here, a rematch while the game is played): the message says why."""


class RecordWithheld(Exception):  # noqa: N818 - an answer, not a fault
    """The record of a game in play asked for by someone who holds no seat in it."""


# -- one game in memory ---------------------------------------------------------------------


AnySession = PlaySession | GinPlaySession | GinPartySession
"""A game at the table, of either game: the first two answer the same calls
(``submit``, ``check``, ``bot_move``, ``hint``, ``to_move``, ``needs_deal``, ``result``
...); what each seat is shown is built by its own game's table (:func:`seat_table`,
:func:`umtali.web.gin_table.gin_seat_table`). A party game is played hand by hand,
each through its own :class:`GinPlaySession` (:func:`_playing`)."""


@dataclass
class _LiveGame:
    game_id: int
    session: AnySession
    commitment: str
    persons: frozenset[int]
    """The seats the game was made for people to play by link."""
    handed_over: frozenset[int] = frozenset()
    """The persons' seats the computer plays for now."""
    rematch: int | None = None
    tables: dict[int, dict[str, Any]] = field(default_factory=dict)
    """What each person's seat is shown of the game, without who is present."""
    hand_ends: dict[tuple[int, int], HandEnd] = field(default_factory=dict)
    """How a finished hand ended, as each seat is told it, by (seat, hand index): a
    hand over never changes, so it is told once."""
    gin_hand_ends: dict[tuple[int, int], tuple[HandEnd, GinHandEnd]] = field(default_factory=dict)
    """The same for Gin Rummy, with its own account of the hand's end."""
    commitments: dict[int, str] = field(default_factory=dict)
    """A party game's: each hand's deck commitment, by hand index (each seat is shown
    the one of the hand it plays)."""
    party_told: PartyTold = field(default_factory=PartyTold)
    """A party game's: what its seats were told of finished hands."""

    @property
    def version(self) -> int:
        """Hands dealt plus moves played: it grows with every stored change."""
        if isinstance(self.session, GinPartySession):
            return party_version(self.session)
        hands = self.session.match.hands
        return len(hands) + sum(len(hand.history) for hand in hands)


def _playing(party: GinPartySession, player: int) -> tuple[PartyHand, int] | Refused:
    """The hand under way at which the party's ``player`` sits, with his seat in it;
    refused when he sits this hand out, or his hand is over and the other table's
    is not (four-hand)."""
    for hand in party.under_way():
        if player in hand.table.players:
            if hand.session.match.hands[0].is_over():
                return Refused(
                    "your hand is over: the next deal comes once the other table's hand is over too"
                )
            return hand, hand.table.players.index(player)
    if party.is_over():
        return Refused("the game is over: there is nothing left to play")
    return Refused("you sit out this hand: you play again once it is over")


def _other_of(live: _LiveGame, seat: int) -> int:
    """The player ``seat`` plays against: the other seat of a game of two; in a party
    game, the other player at the hand it plays (or last played), -1 before its first."""
    if not isinstance(live.session, GinPartySession):
        return 1 - seat
    return next(
        (
            hand.table.players[1 - hand.table.players.index(seat)]
            for hand in reversed(live.session.hands)
            if seat in hand.table.players
        ),
        -1,
    )


def _secure_deck() -> tuple[int, ...]:
    """A deck shuffled from the operating system's randomness: nobody can predict it,
    not even from earlier decks."""
    return shuffled_deck(secrets.SystemRandom())


def _seats_of(match: AnyMatch) -> Seats:
    """The seats a stored game keeps in its ``meta``, its levels its own game's."""
    return gin_seats(match) if isinstance(match, GinMatch) else Seats.of(match.meta)


def _persons_of(match: AnyRecord) -> frozenset[int]:
    """The seats of a stored game played by people through their links."""
    if isinstance(match, GinPartyMatch):
        return frozenset(match.meta["humans"])
    return _seats_of(match).humans


def _session_of(
    match: AnyRecord, handed_over: frozenset[int] = frozenset(), hint_level: str = DEFAULT_BOT
) -> AnySession:
    """The session of a stored game, the seats ``handed_over`` played by the computer.
    Its decks come from a secure shuffle, not from its seed, so the session is built
    directly rather than by ``of_match`` (which checks the decks against the seed); the
    seed still seeds the computer's decisions. A game of Gin Rummy gets its own
    (:func:`umtali.web.gin_table.gin_session_of`), a party game its own too."""
    if isinstance(match, GinPartyMatch):
        hints = hint_level if hint_level in GIN_BOTS else DEFAULT_GIN_BOT
        return GinPartySession.of_stored(match, hint_level=hints, handed_over=handed_over)
    if isinstance(match, GinMatch):
        return gin_session_of(match, handed_over, hint_level)
    seats = Seats.of(match.meta)
    people = seats.humans - handed_over
    levels = tuple(None if seat in people else seats.bot for seat in (0, 1))
    return PlaySession(match, seats.seed, (levels[0], levels[1]), hint_level=hint_level)


def _scores(session: PlaySession) -> ScoreSheetModel:
    sheet = session.score_sheet(running=True)
    return ScoreSheetModel(
        games=[(number, list(hands), totals) for number, hands, totals in sheet.games],
        games_won=sheet.games_won,
        this_hand=sheet.this_hand,
    )


def _sent_view(view: PlayerView) -> dict[str, Any]:
    """The view as a seat is sent it: all of it but ``opponent_excluded``, the cards
    the rules show the other player cannot hold. That list is worked out from what the
    seat saw, so it tells him nothing new, but it names cards whose place he does not
    know; leaving it out keeps the rule simple: no message names a card hidden from
    its seat."""
    data = view.to_dict()
    del data["opponent_excluded"]
    return data


def seat_table(live: _LiveGame, seat: int) -> dict[str, Any]:
    """What ``seat`` is shown of the game now, as :class:`SeatState`'s fields but who
    is present: built from its view of the last hand dealt, and the other player's
    moves told as it saw them (R11). A game of Gin Rummy is laid out by
    :func:`umtali.web.gin_table.gin_seat_table`, a party game by
    :func:`umtali.web.gin_party.party_seat_table`."""
    session = live.session
    if isinstance(session, GinPartySession):
        return party_seat_table(
            session,
            seat,
            game_id=live.game_id,
            version=live.version,
            commitments=live.commitments,
            persons=live.persons,
            told=live.party_told,
            played_by_computer=seat in live.handed_over,
        )
    if isinstance(session, GinPlaySession):
        return gin_seat_table(
            session,
            seat,
            game_id=live.game_id,
            version=live.version,
            commitment=live.commitment,
            played_by_computer=seat in live.handed_over,
            hand_ends=live.gin_hand_ends,
        )
    match = session.match
    hand = match.hands[-1]
    view = session.view(seat) if match.current is not None else PlayerView.of(hand, seat)
    names = session.names_for(seat)
    recap = session.recap(seat, view=view)
    previous = None
    ended = [i for i, past in enumerate(match.hands) if past.is_over()]
    if ended:
        previous = live.hand_ends.get((seat, ended[-1]))
        if previous is None:
            outcome = match.hands[ended[-1]].outcome()
            assert outcome is not None
            previous = live.hand_ends[seat, ended[-1]] = HandEnd(
                hand_index=ended[-1],
                scores=outcome.scores,
                how=how_hand_ended(outcome, names),
                recap=list(session.recap(seat, ended[-1]).lines),
            )
    over = match.is_over()
    played_by_computer = seat in live.handed_over
    return {
        "game": "umtali",
        "rules": match.rules.name,
        "game_id": live.game_id,
        "seat": seat,
        "version": live.version,
        "names": names,
        "kind": match.kind,
        "title": session.hand_title(names),
        "hand_index": session.hand_index,
        "commitment": live.commitment,
        "view": _sent_view(view),
        "legal": [] if played_by_computer else [move.text() for move in view.legal],
        "your_turn": session.to_move() == seat,
        "recap": list(recap.lines),
        "since_own_move": recap.since_own_move,
        "scores": _scores(session),
        "over": over,
        "result": session.result(names) if over else None,
        "previous": previous,
    }


@dataclass(frozen=True)
class Submitted:
    """A move accepted and stored: where it stands, and the seat's state after it (and
    after the computer's replies)."""

    accepted: Accepted | GinAccepted
    hand_index: int
    move_index: int
    state: SeatState


_STALE: Final = (
    "another move was stored at this point first (the game was played on elsewhere):"
    " look at the game again"
)


# -- the server -------------------------------------------------------------------------------


class GameServer:
    """The games of one server process, over one :class:`Store`.

    Every method that changes a game holds that game's lock, so one game's moves are
    played one at a time; other games go on meanwhile. Database calls run in worker
    threads, and the computer's thinking in a pool of ``bot_threads`` threads, so the
    event loop is never held up.

    ``grace``: how long (seconds) a person must be away before the other may hand his
    seat to the computer. ``clock``: the time presence is measured by (a test sets
    it). ``seat_requests``: the limit on each seat's moves, hints and questions.
    ``hint_level``: the computer level whose choice a hint gives.
    """

    def __init__(
        self,
        store: Store,
        *,
        broadcaster: Broadcaster | None = None,
        bot_threads: int = BOT_THREADS,
        grace: float = GRACE_SECONDS,
        clock: Callable[[], datetime] = _utc_now,
        seat_requests: RateLimit = SEAT_REQUESTS,
        hint_level: str = DEFAULT_BOT,
    ) -> None:
        if not grace > 0:
            raise ValueError(f"the grace period is a positive number of seconds, not {grace!r}")
        self.store = store
        self.broadcaster: Broadcaster = broadcaster or LocalBroadcaster()
        self.grace = grace
        self.clock = clock
        self._bot_threads = bot_threads
        self._limiter: anyio.CapacityLimiter | None = None
        self._db_limiter: anyio.CapacityLimiter | None = None
        self._games: dict[int, _LiveGame] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._seen: dict[SeatRef, float] = {}
        """When each seat's next heartbeat is due to be written (monotonic seconds)."""
        self._jitter = random.Random()
        """Spreads the heartbeats (not secret: it says only when a note is written)."""
        self._claimed: set[SeatRef] = set()
        self._seat_requests = seat_requests
        self._buckets: dict[SeatRef, TokenBucket] = {}
        self._hint_level = hint_level
        self._secrets: dict[str, SeatRef] = {}
        self._infos: dict[int, tuple[float, list[SeatInfo]]] = {}
        """Each game's seats as presence needs them, and until when (monotonic seconds)
        they are used without reading them again."""
        self._forgotten: dict[int, int] = {}
        """How many times each game was forgotten: a game read while it is forgotten
        may have been read before the change that made it stale."""
        self._epoch = 0
        """How many times every game was forgotten."""

    @property
    def heartbeat(self) -> float:
        """Seconds between two notes that a connected seat's player is here."""
        return min(HEARTBEAT_SECONDS, self.grace / 3)

    @property
    def presence_window(self) -> float:
        """A player seen within this many seconds is present: two heartbeats, so one
        late heartbeat does not make him look away."""
        return 2 * self.heartbeat

    # -- running off the event loop ----------------------------------------------------------

    async def _db(self, call: Callable[[], T]) -> T:
        """Run a database call in a worker thread, at most as many at once as the store
        has connections: a call beyond them waits here, on the event loop, rather than
        in a thread blocked on the pool."""
        if self._db_limiter is None:  # made in the event loop, at its first use
            self._db_limiter = anyio.CapacityLimiter(self.store.connections)
        return await anyio.to_thread.run_sync(call, limiter=self._db_limiter)

    async def _think(self, call: Callable[[], T]) -> T:
        """Run the computer's (or a hint's) thinking in the bounded pool."""
        if self._limiter is None:  # made in the event loop, at its first use
            self._limiter = anyio.CapacityLimiter(self._bot_threads)
        return await anyio.to_thread.run_sync(call, limiter=self._limiter)

    # -- games in memory ---------------------------------------------------------------------

    def forget(self, game_id: int) -> None:
        """Drop the copy in memory of ``game_id``: the next request reads it again
        (what a broadcaster does when another process changed the game)."""
        self._games.pop(game_id, None)
        self._infos.pop(game_id, None)
        self._forgotten[game_id] = self._forgotten.get(game_id, 0) + 1

    def forget_presence(self, game_id: int) -> None:
        """Drop what this process read of who is present in ``game_id`` (a player came
        or went, in another process)."""
        self._infos.pop(game_id, None)

    def forget_all(self) -> None:
        """Drop every game in memory (news of other processes' changes may be lost)."""
        self._games.clear()
        self._infos.clear()
        self._epoch += 1

    def in_memory(self, game_id: int) -> bool:
        """Whether this process holds a copy of ``game_id`` (for tests)."""
        return game_id in self._games

    @asynccontextmanager
    async def _game(self, game_id: int) -> AsyncIterator[_LiveGame]:
        """The game, locked, read from the database if this process does not hold it.
        If anything fails inside, the copy in memory is dropped: the database decides."""
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            live = self._games.get(game_id)
            try:
                if live is None:
                    live = await self._load(game_id)
                yield live
            except BaseException:
                self.forget(game_id)
                raise

    async def _load(self, game_id: int) -> _LiveGame:
        """Read the game, and go on from where it stands. Another process may go on
        from there at the same moment; whoever stores second reads the game again.
        The copy is kept in memory only if no notice made it stale while it was read
        (else the next request reads it again)."""
        for attempt in range(3):
            began = (self._epoch, self._forgotten.get(game_id, 0))
            match = await self._db(lambda: self.store.load_any(game_id))
            infos = await self._db(lambda: self.store.seats(game_id))
            rematch = await self._db(lambda: self.store.rematch_of(game_id))
            handed_over = frozenset(info.seat for info in infos if info.handed_over_at)
            commitment = ""
            commitments: dict[int, str] = {}
            if isinstance(match, GinPartyMatch):
                commitments = await self._db(partial(self.store.commitments, game_id))
                if match.is_over():
                    # Closed, should the process have stopped between the last move and
                    # the close (closing again changes nothing).
                    await self._db(partial(self.store.finish_game, game_id))
            elif match.hands:
                last = len(match.hands) - 1
                found = await self._db(partial(self.store.commitment, game_id, last))
                commitment = found.commitment
            live = _LiveGame(
                game_id,
                _session_of(match, handed_over, self._hint_level),
                commitment,
                persons=_persons_of(match),
                handed_over=handed_over,
                rematch=rematch,
                commitments=commitments,
            )
            try:
                # A process stopped between a person's move and the computer's reply (or
                # between two hands) left the game waiting on the server: go on.
                await self._advance(live)
            except (MoveConflict, HandConflict):
                if attempt == 2:
                    raise
                continue  # another process went on first: read what it stored
            self._refresh(live)
            if (self._epoch, self._forgotten.get(game_id, 0)) == began:
                self._games[game_id] = live
            return live
        raise AssertionError("unreachable")  # pragma: no cover

    def _refresh(self, live: _LiveGame) -> None:
        """Rebuild what each person's seat is shown."""
        live.tables = {seat: seat_table(live, seat) for seat in sorted(live.persons)}

    async def _changed(self, live: _LiveGame) -> None:
        """After a committed change: new states, and the news to every listener."""
        self._refresh(live)
        await self.broadcaster.publish(live.game_id)

    # -- changes, each stored before it is shown ------------------------------------------------

    async def _deal(self, live: _LiveGame) -> None:
        if isinstance(live.session, GinPartySession):
            await self._deal_party(live, live.session)
            return
        match = live.session.match
        index = len(match.hands)
        deck = _secure_deck()
        dealer = match.next_dealer()
        live.commitment = await self._db(
            lambda: self.store.start_hand(live.game_id, index, deck, dealer=dealer)
        )
        match.new_hand(deck)

    async def _store_last_move(self, live: _LiveGame) -> None:
        """Store the move just played in memory: with the hand's scores when it ended
        the hand, and the game closed when it ended the match."""
        match = live.session.match
        assert not isinstance(match, GinPartyMatch)  # a party's moves: _store_party_move
        hand_index, move_index, text, scores = _last_move(match)
        await self._db(
            lambda: self.store.append_move(
                live.game_id, hand_index, move_index, text, scores=scores
            )
        )
        if match.is_over():
            await self._db(lambda: self.store.finish_game(live.game_id))

    async def _deal_party(self, live: _LiveGame, party: GinPartySession) -> None:
        """Deal a party game's next hand (three-hand) or the hands of its next deal
        (four-hand), each from a secure shuffle, each stored with its seats and its
        commitment before any card of it is shown."""
        decks = []
        index = len(party.hands)
        for table in party.tables_to_deal():
            deck = _secure_deck()
            live.commitments[index] = await self._db(
                partial(
                    self.store.start_hand,
                    live.game_id,
                    index,
                    deck,
                    dealer=table.dealer,
                    seats=table.players,
                )
            )
            decks.append(deck)
            index += 1
        party.deal(decks)

    async def _store_party_move(self, live: _LiveGame, hand: PartyHand) -> None:
        """Store the move just played at ``hand`` of a party game, with the hand's
        scores when it ended the hand."""
        hand_index, move_index, text, scores = party_last_move(hand)
        await self._db(
            lambda: self.store.append_move(
                live.game_id, hand_index, move_index, text, scores=scores
            )
        )

    async def _advance_party(self, live: _LiveGame, party: GinPartySession) -> None:
        """A party game's :meth:`_advance`: deal, let the computers move at every hand
        (a hand between computers is played to its end at once), count each deal once
        its hands are over, and close the game at its end; until a person is to move."""
        while not party.is_over():
            if party.needs_deal():
                await self._deal(live)
            elif party.needs_count():
                party.count()  # worked out from the hands stored: nothing to store
                if party.is_over():
                    await self._db(partial(self.store.finish_game, live.game_id))
            else:
                waiting = [
                    hand
                    for hand in party.under_way()
                    if (seat := hand.session.to_move()) is not None
                    and hand.session.levels[seat] is not None
                ]
                if not waiting:
                    return  # a person is to move
                hand = waiting[0]
                await self._think(hand.session.bot_move)
                await self._store_party_move(live, hand)
            await self._changed(live)

    async def _advance(self, live: _LiveGame) -> None:
        """Deal and let the computer move until a person is to move or the match is
        over, announcing each change once it is stored."""
        session = live.session
        if isinstance(session, GinPartySession):
            await self._advance_party(live, session)
            return
        while True:
            if session.is_over():
                return
            if session.needs_deal():
                await self._deal(live)
            else:
                seat = session.to_move()
                if seat is None or seat in session.humans:
                    return
                await self._think(session.bot_move)
                await self._store_last_move(live)
            await self._changed(live)

    # -- presence -----------------------------------------------------------------------------

    async def seen(self, ref: SeatRef, *, announce: bool = False) -> None:
        """Note that the seat's player is here: in the database at most once a
        :attr:`heartbeat`, so that reading a state costs no write; ``announce``: he
        has just come or gone (a WebSocket opened or closed), which is written at once
        and told to the other seat."""
        now = time.monotonic()
        if not announce and now < self._seen.get(ref, -math.inf):
            return
        # The next note is due within a heartbeat, at a random point of its second half:
        # seats that came at once (every seat, after a restart) would otherwise write
        # at the same moments for as long as they stay.
        self._seen[ref] = now + self.heartbeat * (0.5 + self._jitter.random() / 2)
        at = self.clock()
        await self._db(lambda: self.store.mark_seen(ref, at=at, announce=announce))
        if announce:
            self._infos.pop(ref.game_id, None)
            await self.broadcaster.publish(ref.game_id)
        else:
            self._note_seen(ref, at)

    def _note_seen(self, ref: SeatRef, at: datetime) -> None:
        """Bring the seats read for presence up to date with a heartbeat just written
        here, rather than read them all again for it."""
        cached = self._infos.get(ref.game_id)
        if cached is None:
            return
        fresh_until, infos = cached
        self._infos[ref.game_id] = (
            fresh_until,
            [replace(info, last_seen_at=at) if info.seat == ref.seat else info for info in infos],
        )

    def _opponent(self, live: _LiveGame, seat: int, infos: list[SeatInfo]) -> Opponent:
        """The other seat as ``seat`` is told of it now (in a party game, the other
        player at the hand it plays or last played)."""
        other = _other_of(live, seat)
        if other not in live.persons:
            return Opponent(
                kind="computer",
                present=True,
                away_seconds=None,
                can_hand_over=False,
                handed_over=False,
            )
        away, present = self._absence(infos, other)
        return Opponent(
            kind="person",
            present=present,
            away_seconds=None if present else int(away),
            can_hand_over=self._hand_over_refusal(live, seat, away, present) is None,
            handed_over=other in live.handed_over,
        )

    def _absence(self, infos: list[SeatInfo], seat: int) -> tuple[float, bool]:
        """Seconds since ``seat``'s player was last seen (since his link was given out,
        if never), and whether he is present: seen within :attr:`presence_window`."""
        info = next((info for info in infos if info.seat == seat), None)
        if info is None:
            return 0.0, False
        last = info.last_seen_at or info.created_at
        away = max(0.0, (self.clock() - last).total_seconds())
        return away, info.last_seen_at is not None and away < self.presence_window

    def _hand_over_refusal(
        self, live: _LiveGame, seat: int, away: float, present: bool
    ) -> str | None:
        """Why ``seat`` may not hand the other seat to the computer now, or ``None``."""
        other = _other_of(live, seat)
        if other < 0:
            return "nobody plays against you yet: you have sat out every hand so far"
        name = live.session.match.players[other]
        if other not in live.persons:
            return "this game is against the computer: there is no other person's seat to hand over"
        if live.session.is_over():
            return "the game is over: there is nothing left to play"
        if other in live.handed_over:
            return f"the computer plays for {name} already"
        if seat in live.handed_over:
            return "the computer plays your own seat: reclaim it first"
        if present:
            return f"{name} is here: a seat is handed to the computer only when its player is away"
        if away <= self.grace:
            return (
                f"{name} has been away {int(away)} seconds: the computer may take the seat"
                f" once {name} has been away {self.grace:g} seconds"
                f" (in {math.ceil(self.grace - away)} seconds)"
            )
        return None

    def next_presence_change(self, state: SeatState) -> float | None:
        """Seconds until ``state``'s ``opponent`` changes with time alone (the grace
        period runs out), or ``None``."""
        opponent = state.opponent
        if opponent.away_seconds is None or opponent.can_hand_over or opponent.handed_over:
            return None
        if state.over:
            return None
        return max(0.0, self.grace - opponent.away_seconds) + 1.0

    # -- what the routes call -------------------------------------------------------------------

    def allow(self, ref: SeatRef) -> float | None:
        """Spend one of the seat's requests: ``None`` if it may go on, else the seconds
        to wait before the next (HTTP moves, hints and questions: 429)."""
        bucket = self._buckets.get(ref)
        if bucket is None:
            if len(self._buckets) > 10_000:  # let go of the seats quiet lately
                self._buckets = {k: b for k, b in self._buckets.items() if not b.full}
            bucket = self._buckets[ref] = TokenBucket(self._seat_requests)
        return None if bucket.take() else max(bucket.wait(), 0.001)

    async def create(self, request: NewGameRequest, base: str = "") -> GameCreated:
        """A new game, its first hand dealt (and the computer's first moves made, when
        it is to move): one link for each person's seat."""
        level = request.level or levels_of(request.game)[1]
        if request.players > 2:
            persons = {request.seat, *request.invite}
            party = GinPartySession.new(
                players=request.players,
                seed=secrets.randbits(63),
                humans=persons,
                bot=level,
                rules=GIN_PRESETS[request.rules or "standard"],
            )
            new = await self._db(
                lambda: self.store.create_party_game(party.match, seats=sorted(persons))
            )
            async with self._game(new.game_id):
                pass  # reads it back, deals the first hand and plays the computer's moves
            # The creator's link first, then the friends' in the order they were asked for.
            order = [request.seat, *request.invite]
            return GameCreated(
                game_id=new.game_id,
                seats=[_link(seat, new.secrets[seat], base) for seat in order],
            )
        if request.opponent == "computer":
            humans = [request.seat]
            players = [f"Computer ({level})"] * 2
            players[request.seat] = YOU
        else:
            humans = [0, 1]
            players = ["Player 1", "Player 2"]
        seats = Seats(secrets.randbits(63), frozenset(humans), level)
        first_dealer = secrets.randbelow(2)
        kind: MatchKind = request.kind
        preset = request.rules or "standard"
        rules = GIN_PRESETS[preset] if request.game == "gin" else PRESETS[preset]
        new = await self._db(
            lambda: self.store.create_game(
                kind=kind,
                rules=rules,
                players=players,
                first_dealer=first_dealer,
                meta=seats.meta(),
                seats=humans,
            )
        )
        async with self._game(new.game_id):
            pass  # reads it back, deals the first hand and plays the computer's moves
        return GameCreated(
            game_id=new.game_id,
            seats=[_link(seat, secret, base) for seat, secret in sorted(new.secrets.items())],
        )

    async def seat(self, secret: str) -> SeatRef | None:
        """The seat whose link carries ``secret``, or ``None``. A link, once found, is
        kept in memory (a link never changes its seat); one that names no seat is
        asked of the database each time, so memory does not fill with forgeries."""
        known = self._secrets.get(secret)
        if known is not None:
            return known
        found = await self._db(lambda: self.store.seat_for_secret(secret))
        if found is not None:
            if len(self._secrets) >= 100_000:
                self._secrets.clear()
            self._secrets[secret] = found
        return found

    async def _seat_infos(self, game_id: int) -> list[SeatInfo]:
        """The game's seats as presence needs them, read again once they are older
        than a quarter to half a heartbeat (at random, so that games read at once are
        not all read again at once), for the heartbeats other processes wrote. News of
        a player who came or went reads them again at once; a heartbeat written here is
        noted in them. A player is judged away after two heartbeats unseen, so half a
        heartbeat of staleness never makes a present player look away."""
        now = time.monotonic()
        cached = self._infos.get(game_id)
        if cached is not None and now < cached[0]:
            return cached[1]
        infos = await self._db(lambda: self.store.seats(game_id))
        self._infos[game_id] = (now + self.heartbeat * (1 + self._jitter.random()) / 4, infos)
        return infos

    async def _live(self, game_id: int) -> _LiveGame:
        live = self._games.get(game_id)
        if live is not None:
            return live
        async with self._game(game_id) as live:
            return live

    async def state(self, ref: SeatRef, secret: str | None = None) -> SeatState:
        """What the seat is shown now; with its link to the rematch, when there is one
        (``secret``, the seat's link, works it out)."""
        live = await self._live(ref.game_id)
        return await self._state_of(live, ref, secret)

    async def _state_of(self, live: _LiveGame, ref: SeatRef, secret: str | None) -> SeatState:
        table = live.tables[ref.seat]
        infos = await self._seat_infos(ref.game_id)
        rematch = None
        if secret is not None and live.rematch is not None:
            rematch = await self._rematch_link(live.rematch, ref.seat, secret)
        return SeatState(
            **table,
            opponent=self._opponent(live, ref.seat, infos),
            handed_over=ref.seat in live.handed_over,
            rematch=rematch,
        )

    async def submit(
        self, ref: SeatRef, text: str, secret: str | None = None
    ) -> Submitted | Refused:
        """Play ``text`` for the seat: refused (nothing changes) or stored, then shown,
        then answered by the computer when it plays the other seat. A refusal or a
        lost race that may come from a stale copy in memory is tried once more
        against the game read again from the database."""
        first = await self._submit(ref, text, secret, retry=True)
        if first is not None:
            return first
        second = await self._submit(ref, text, secret, retry=False)
        return second if second is not None else Refused(_STALE)

    async def _submit(
        self, ref: SeatRef, text: str, secret: str | None, *, retry: bool
    ) -> Submitted | Refused | None:
        """One try of :meth:`submit`; ``None``: the copy in memory was stale (it is
        dropped)."""
        game_id = ref.game_id
        async with self._game(game_id) as live:
            if ref.seat in live.handed_over:
                return Refused(
                    "the computer plays your seat since you were away: reclaim it to play on"
                )
            session = live.session
            at_hand: PartyHand | None = None
            if isinstance(session, GinPartySession):
                playing = _playing(session, ref.seat)
                if isinstance(playing, Refused):
                    reply: Accepted | GinAccepted | Refused = playing
                else:
                    at_hand, seat_at_hand = playing
                    reply = at_hand.session.submit(seat_at_hand, text)
            else:
                reply = session.submit(ref.seat, text)
            if isinstance(reply, Refused):
                if retry and await self._db(lambda: self.store.version(game_id)) != live.version:
                    self.forget(game_id)
                    return None
                return reply
            try:
                if at_hand is not None:
                    hand_index, move_index, _text, _scores = party_last_move(at_hand)
                    await self._store_party_move(live, at_hand)
                else:
                    assert not isinstance(session, GinPartySession)
                    hand_index = session.hand_index
                    move_index = len(session.match.hands[hand_index].history) - 1
                    await self._store_last_move(live)
            except MoveConflict:
                self.forget(game_id)
                return None
            await self._changed(live)
            try:
                await self._advance(live)
            except (MoveConflict, HandConflict):
                self.forget(game_id)  # another process replied first: the move stands
            else:
                state = await self._state_of(live, ref, secret)
                return Submitted(reply, hand_index, move_index, state)
        return Submitted(reply, hand_index, move_index, await self.state(ref, secret))

    async def why(self, ref: SeatRef, text: str) -> WhyReply:
        """Whether ``text`` would be allowed for the seat now, and if not the engine's
        reason; nothing is played. Asked of a stale copy, it is asked again of the
        game read afresh."""
        for retry in (True, False):
            async with self._game(ref.game_id) as live:
                reply = self._check(live.session, ref.seat, text)
                if isinstance(reply, Refused) and retry:
                    stored = await self._db(lambda: self.store.version(ref.game_id))
                    if stored != live.version:
                        self.forget(ref.game_id)
                        continue
            break
        if isinstance(reply, Refused):
            return WhyReply(legal=False, reason=reply.reason)
        return WhyReply(legal=True, reason=None)

    @staticmethod
    def _check(session: AnySession, seat: int, text: str) -> Accepted | GinAccepted | Refused:
        """Whether ``text`` would be allowed for ``seat`` now (a party game's seat, at
        the hand it plays); nothing is played."""
        if not isinstance(session, GinPartySession):
            return session.check(seat, text)
        playing = _playing(session, seat)
        if isinstance(playing, Refused):
            return playing
        hand, seat_at_hand = playing
        return hand.session.check(seat_at_hand, text)

    async def hint(self, ref: SeatRef) -> HintReply:
        async with self._game(ref.game_id) as live:
            session: PlaySession | GinPlaySession
            seat = ref.seat
            if isinstance(live.session, GinPartySession):
                playing = _playing(live.session, ref.seat)
                if isinstance(playing, Refused):
                    raise NotYourTurn(playing.reason)
                session, seat = playing[0].session, playing[1]
            else:
                session = live.session
            if session.to_move() != seat or ref.seat in live.handed_over:
                raise NotYourTurn("a hint is given to the player to move, and it is not your turn")
            if isinstance(session, GinPlaySession):
                gin_hint = await self._think(partial(session.hint, seat))
                move, level, why = gin_hint.move.text(), gin_hint.level, gin_hint.why
            else:
                hint = await self._think(partial(session.hint, seat))
                move, level, why = hint.move.text(), hint.level, hint.why
            return HintReply(move=move, level=level, why=why)

    async def hand_over(self, ref: SeatRef, secret: str | None = None) -> SeatState:
        """Let the computer play the other seat, whose player has been away longer
        than the grace period (:class:`NotNow` with the reason when he may not be);
        the computer moves at once if it is its turn. Asked again, it changes nothing."""
        async with self._game(ref.game_id) as live:
            other = SeatRef(ref.game_id, _other_of(live, ref.seat))
            if other.seat not in live.handed_over:
                self._infos.pop(ref.game_id, None)
                infos = await self._seat_infos(ref.game_id)
                away, present = self._absence(infos, other.seat)
                refusal = self._hand_over_refusal(live, ref.seat, away, present)
                if refusal is not None:
                    raise NotNow(refusal)
                at = self.clock()
                await self._db(lambda: self.store.hand_over(other, True, at=at))
                await self._set_handed_over(live, live.handed_over | {other.seat})
            return await self._state_of(live, ref, secret)

    async def reclaim(self, ref: SeatRef, secret: str | None = None) -> SeatState:
        """Give the seat back to its player from the computer, which played it while he
        was away. Asked of a seat he plays already, it changes nothing."""
        async with self._game(ref.game_id) as live:
            if ref.seat in live.handed_over:
                await self._db(lambda: self.store.hand_over(ref, False))
                await self._set_handed_over(live, live.handed_over - {ref.seat})
            return await self._state_of(live, ref, secret)

    async def _set_handed_over(self, live: _LiveGame, handed_over: frozenset[int]) -> None:
        """After the hand-over is stored: the session with its new players, shown to
        all, and the computer's moves if it is to move."""
        live.handed_over = handed_over
        live.session = _session_of(live.session.match, handed_over, self._hint_level)
        await self._changed(live)
        await self._advance(live)

    async def rematch(self, ref: SeatRef, secret: str, base: str = "") -> GameCreated:
        """A new game with the same seats, level and kind, once this one is over: this
        seat's link to it (:class:`NotNow` while the game is played). The other
        person's seat is told of it in its state (``rematch``). A game has one rematch:
        whoever asks second, or again, gets his link to the same one."""
        async with self._game(ref.game_id) as live:
            if not live.session.is_over():
                raise NotNow("the game is still being played: a rematch is offered once it is over")
            if live.rematch is None:
                live.rematch = await self._new_rematch(live)
                await self.broadcaster.publish(live.game_id)
            new_game = live.rematch
        link = await self._rematch_link(new_game, ref.seat, secret, base)
        async with self._game(new_game):
            pass  # deals its first hand, and plays the computer's first moves
        return link

    async def _new_rematch(self, live: _LiveGame) -> int:
        if isinstance(live.session, GinPartySession):
            return await self._new_party_rematch(live, live.session)
        match = live.session.match
        seats = _seats_of(match)
        again = Seats(secrets.randbits(63), seats.humans, seats.bot)
        first_dealer = secrets.randbelow(2)
        # A game of Gin Rummy is played to its rules' target: its kind is always a game.
        kind: MatchKind = match.kind if isinstance(match, Match) else "game"
        try:
            new = await self._db(
                lambda: self.store.create_game(
                    kind=kind,
                    rules=match.rules,
                    players=match.players,
                    first_dealer=first_dealer,
                    meta=again.meta(),
                    seats=sorted(seats.humans),
                    rematch_of=live.game_id,
                )
            )
        except RematchConflict:
            found = await self._db(lambda: self.store.rematch_of(live.game_id))
            assert found is not None
            return found
        return new.game_id

    async def _new_party_rematch(self, live: _LiveGame, party: GinPartySession) -> int:
        """A party game's rematch: the same players, level and rules, its places (or
        first dealing team) drawn afresh."""
        again = party.rematch(secrets.randbits(63))
        try:
            new = await self._db(
                lambda: self.store.create_party_game(
                    again.match, seats=sorted(live.persons), rematch_of=live.game_id
                )
            )
        except RematchConflict:
            found = await self._db(lambda: self.store.rematch_of(live.game_id))
            assert found is not None
            return found
        return new.game_id

    async def _rematch_link(
        self, game_id: int, seat: int, secret: str, base: str = ""
    ) -> GameCreated:
        """The seat's link to the rematch ``game_id``, worked out from its link to the
        game before (``secret``), and given to the seat in the database the first
        time."""
        new_secret = rematch_secret(secret, game_id, seat)
        claimed = SeatRef(game_id, seat)
        if claimed not in self._claimed:
            await self._db(lambda: self.store.claim_seat(game_id, seat, new_secret))
            self._claimed.add(claimed)
        return GameCreated(game_id=game_id, seats=[_link(seat, new_secret, base)])

    async def record(self, game_id: int, ref: SeatRef | None = None) -> str:
        """The game's record as ``umtali replay`` reads it. Anyone may have it once the
        game is over; while it is played, only a seat's holder (``ref``), and then
        without the hand in play (its deck holds the stock and the other hand) and
        without the seed of the computer's decisions."""
        async with self._game(game_id) as live:
            match = live.session.match
            if match.is_over():
                return dumps(match)
            if ref is None or ref.game_id != game_id:
                raise RecordWithheld(
                    f"game {game_id} is still in play: its record is given to its players"
                    " only, through their links, until it is over"
                )
            data = record_of(match)
            if isinstance(match, GinPartyMatch):
                # Whole deals only: a four-hand deal's hands are recorded together.
                counted = len(match.hands) - len(match.under_way())
                data["hands"] = data["hands"][:counted]
            else:
                data["hands"] = [entry for entry in data["hands"] if "scores" in entry]
            data["meta"] = {k: v for k, v in data["meta"].items() if k != "seed"}
            return dumps(replay_any(data, parties=True))

    async def verify(self, game_id: int, hand_index: int) -> VerifyReply:
        found = await self._db(lambda: self.store.commitment(game_id, hand_index))
        over = found.salt is not None and found.deck is not None
        return VerifyReply(
            game_id=game_id,
            hand_index=hand_index,
            commitment=found.commitment,
            over=over,
            salt=None if found.salt is None else found.salt.hex(),
            deck=None if found.deck is None else deck_text(found.deck).split(),
        )


def _last_move(match: AnyMatch) -> tuple[int, int, str, tuple[int, int] | None]:
    """The move just played: its hand, its index in the hand, its text, and the hand's
    scores when it ended the hand. The last move alone is rebuilt, since every move of
    the hand rebuilt would cost more with each move."""
    if isinstance(match, GinMatch):
        return gin_last_move(match)
    hand_index = len(match.hands) - 1
    hand = match.hands[hand_index]
    move_index = len(hand.history) - 1
    text = Move.from_action(hand.history[move_index][1]).text()
    outcome = hand.outcome()
    return hand_index, move_index, text, None if outcome is None else outcome.scores


def _link(seat: int, secret: str, base: str = "") -> SeatLink:
    """The link of a seat, from its secret: the paths of its state and its socket."""
    return SeatLink(
        seat=seat,
        secret=secret,
        state=f"{base}/api/seat/{secret}",
        socket=f"{base}/ws/seat/{secret}",
    )
