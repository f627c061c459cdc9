"""The games a server process plays, apart from HTTP: what the routes of
:mod:`umtali.web.routers` call.

Every game is played the same way, through the :class:`~umtali.games.api.Session` its
game's maker gives (:meth:`~umtali.games.api.GameSpec.maker`): the server names no
game. What a seat is shown is built by the game's own table
(:mod:`umtali.web.tables`), from that seat's view only.

The database is the truth. A game is read from it (:meth:`Store.load_match`) the first
time this process needs it and kept in memory after that (:mod:`umtali.web.live`);
every change is stored first and shown after: a move is played through the engine
(``session.submit``), stored with :meth:`Store.append_move`, and only then acknowledged
to its player and announced to the other seats. A change that cannot be stored
(another process stored a move there first, or the database failed) drops the game
from memory, so that the next request reads it again from the database; a move refused
or beaten to its place by a stale copy is tried once more against the game read again,
so a stale copy never makes a legal move fail.

Each hand is dealt from a secure shuffle (:class:`secrets.SystemRandom`) of its game's
deck, and its deck is stored with a salted commitment (:meth:`Store.start_hand`) before
anyone sees a card. The computer's decisions are seeded from a seed kept in the game's
``meta`` and think in a small pool of threads shared fairly (:class:`FairPool`: one
decision at a time per game, the games taking turns), so a slow decision holds up only
its own game; each decision has a thinking budget (``Capacity.bot_seconds``, less
while games wait for the pool), at which a computer that searches stops with the best
move it has found. The move it plays is stored as any other: a replay plays the stored
moves and never thinks again. A game of three or four may deal at two tables at once, and the computer plays
the seats no person holds (whole hands between computers too, at once).

Announcements go through a :class:`~umtali.web.broadcast.Broadcaster`; it carries only
"game N changed", and each listener then asks for its own seat's state, so nothing
secret travels through it.

Between people, a seat whose player has been away longer than the grace period may be
handed to the computer by the player he plays against, and reclaimed by its own when he
comes back (:meth:`GameServer.hand_over`, :meth:`GameServer.reclaim`). A finished game
offers a rematch (:meth:`GameServer.rematch`), whose links are worked out from the old
ones (:func:`umtali.web.store.rematch_secret`).
"""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any, Final, TypeVar

import anyio
import anyio.to_thread

from umtali import games
from umtali.games.api import Accepted, Refused
from umtali.kernel.deck import shuffled_deck
from umtali.kernel.english import YOU
from umtali.kernel.players import player_name, seat_names
from umtali.kernel.record import dumps, record_of, replay_any
from umtali.web.broadcast import (
    Broadcaster,
    LocalBroadcaster,
    PostgresBroadcaster,
    Subscription,
)
from umtali.web.capacity import (
    Capacity,
    FairPool,
    GameQuota,
    ServerFullError,
    TooManyGamesError,
)
from umtali.web.limits import SEAT_REQUESTS, RateLimit, TokenBucket
from umtali.web.live import LiveGame, LiveGames
from umtali.web.presence import GRACE_SECONDS, HEARTBEAT_SECONDS, Presence
from umtali.web.protocol import (
    GameCreated,
    HintReply,
    NewGameRequest,
    OpenTableListed,
    OpenTableNote,
    OpenTableRequest,
    OpenTables,
    RuleLink,
    SeatLink,
    SeatState,
    VerifyReply,
    WhyReply,
)
from umtali.web.rules_page import rule_link
from umtali.web.store import (
    Deal,
    GameNews,
    HandConflict,
    MoveConflict,
    OpenTableFull,
    OpenTerms,
    RematchConflict,
    SeatInfo,
    SeatRef,
    SeatTaken,
    Store,
    deck_text,
    rematch_secret,
)
from umtali.web.tables import SeatContext, table_of

__all__ = [
    "BOT_THREADS",
    "GRACE_SECONDS",
    "HEARTBEAT_SECONDS",
    "NAME_CHANGES",
    "SEAT_REQUESTS",
    "Broadcaster",
    "Capacity",
    "GameServer",
    "LocalBroadcaster",
    "NotNow",
    "NotOffered",
    "NotYourTurn",
    "PostgresBroadcaster",
    "RateLimit",
    "RecordWithheld",
    "ServerFullError",
    "Submitted",
    "Subscription",
    "TokenBucket",
    "TooManyGamesError",
]

NAME_CHANGES: Final = 5
"""How many times a seat's player may change his name in one game (counted by each
server process)."""

BOT_THREADS: Final = 2
"""How many computer decisions this process thinks about at once; more wait their turn."""

T = TypeVar("T")


def _utc_now() -> datetime:
    return datetime.now(UTC)


# -- errors the routes turn into answers -------------------------------------------------------


class NotYourTurn(Exception):  # noqa: N818 - an answer, not a fault
    """A hint asked for by a seat not to move."""


class NotNow(Exception):  # noqa: N818 - an answer, not a fault
    """A request that the game's state does not allow now (a hand-over while the other
    player is here, a rematch while the game is played): the message says why."""


class NotOffered(Exception):  # noqa: N818 - an answer, not a fault
    """A new game that its game does not offer (its maker refused it): the message says
    why."""


class RecordWithheld(Exception):  # noqa: N818 - an answer, not a fault
    """The record of a game in play asked for by someone who holds no seat in it."""


@dataclass(frozen=True)
class SeatRefused(Refused):
    """A move refused at a seat, with the link to the rule it breaks (where its game's
    rules page anchors one)."""

    rule: RuleLink | None = None


def cited(reply: Refused, game: str) -> SeatRefused:
    """``reply`` with the link to the first rule it cites that ``game``'s page anchors."""
    return SeatRefused(reply.reason, reply.rules, rule_link(game, reply.rules))


@dataclass(frozen=True)
class Submitted:
    """A move accepted and stored: where it stands, and the seat's state after it (and
    after the computer's replies)."""

    accepted: Accepted[Any]
    hand_index: int
    move_index: int
    state: SeatState


_STALE: Final = (
    "another move was stored at this point first (the game was played on elsewhere):"
    " look at the game again"
)


def _handed_over(seats: list[SeatInfo]) -> frozenset[int]:
    """The seats of ``seats`` the computer plays while their persons are away."""
    return frozenset(info.seat for info in seats if info.handed_over_at)


def _follow(live: LiveGame, news: GameNews) -> bool:
    """Play ``news`` on ``live`` as it was stored: first the moves of the hands it knows,
    then each deal it lacks, the hands of a deal together, each followed by its moves.
    ``False`` when the news does not follow on from the copy (which may then be half
    brought up to date, and is to be dropped)."""
    if _handed_over(news.seats) != live.handed_over:
        return False  # the seats' players changed: the session is made anew
    if list(news.players) != list(live.session.players):
        return False  # a player gave his name: the match is read anew
    moves: dict[int, list[tuple[int, str]]] = {}
    for hand_index, move_index, text in news.moves:
        moves.setdefault(hand_index, []).append((move_index, text))
    session = live.session
    try:
        for hand_index in sorted(set(moves) & set(live.moves)):
            if not _follow_moves(live, hand_index, moves.pop(hand_index)):
                return False
        hands = list(news.hands)
        while hands:
            due = session.deals_due()
            deal, hands = hands[: len(due)], hands[len(due) :]
            if not due or [hand.dealer for hand in deal] != [d.dealer for d in due]:
                return False
            session.deal([hand.deck for hand in deal])
            live.stored_hands({hand.hand_index: hand.commitment for hand in deal})
            for hand in deal:
                if not _follow_moves(live, hand.hand_index, moves.pop(hand.hand_index, [])):
                    return False
    except ValueError:  # a deal the session refuses
        return False
    return not moves  # every move read was played


def _follow_moves(live: LiveGame, hand_index: int, moves: list[tuple[int, str]]) -> bool:
    """Play ``moves`` (each with its index in the hand) at hand ``hand_index`` of
    ``live``, in order: ``False`` at the first one that is not the hand's next."""
    for move_index, text in moves:
        if move_index != live.moves.get(hand_index, 0):
            return False
        if isinstance(live.session.follow(hand_index, text), Refused):
            return False
        live.stored_move(hand_index, move_index)
    return True


def _titled(name: str) -> str:
    """A name of rules or of a length as a title: ``"oklahoma"`` is ``"Oklahoma"``."""
    return name.replace("_", " ").capitalize()


def _link(seat: int, secret: str, base: str = "") -> SeatLink:
    """The link of a seat, from its secret: the paths of its state and its socket."""
    return SeatLink(
        seat=seat,
        secret=secret,
        state=f"{base}/api/seat/{secret}",
        socket=f"{base}/ws/seat/{secret}",
    )


# -- the server -------------------------------------------------------------------------------


class GameServer:
    """The games of one server process, over one :class:`Store`.

    Every method that changes a game holds that game's lock, so one game's moves are
    played one at a time; other games go on meanwhile. Database calls run in worker
    threads, and the computer's thinking in a pool of ``bot_threads`` threads, so the
    event loop is never held up.

    ``grace``: how long (seconds) a person must be away before another may hand his
    seat to the computer. ``clock``: the time presence is measured by (a test sets
    it). ``seat_requests``: the limit on each seat's moves, hints and questions.
    ``hint_level``: the computer level whose choice a hint gives, where the game has
    that level (else the game's default). ``capacity``: the limits on new games and
    on the games kept in memory (:class:`Capacity`); ``monotonic``: the time idleness
    and new games are measured by (a test sets it).
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
        hint_level: str | None = None,
        capacity: Capacity | None = None,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.broadcaster: Broadcaster = broadcaster or LocalBroadcaster()
        self.presence = Presence(store, self._db, grace=grace, clock=clock)
        self.capacity = capacity or Capacity()
        """The limits on new games and on the games kept in memory."""
        self.pool = FairPool(bot_threads)
        """The computer's threads, shared fairly between the games."""
        self._quota = GameQuota(self.capacity, clock=monotonic)
        self._creating = 0
        self.reads = 0
        """Games read whole from the database (for tests and operators)."""
        self.catch_ups = 0
        """Copies brought up to date with another process's changes instead (:meth:`_catch_up`)."""
        self._db_limiter: anyio.CapacityLimiter | None = None
        self._games = LiveGames(monotonic)
        self._swept = monotonic()
        self._claimed: set[SeatRef] = set()
        self.seat_requests = seat_requests
        """The limit on each seat's moves, hints and questions over HTTP."""
        self._buckets: dict[SeatRef, TokenBucket] = {}
        self._hint_level = hint_level
        self._secrets: dict[str, SeatRef] = {}
        self._renames: dict[SeatRef, int] = {}
        """How many times each seat changed its name (:meth:`rename`)."""

    @property
    def grace(self) -> float:
        """Seconds a person may be away before his seat may be handed to the computer."""
        return self.presence.grace

    @property
    def clock(self) -> Callable[[], datetime]:
        """The time presence goes by."""
        return self.presence.clock

    @property
    def heartbeat(self) -> float:
        """Seconds between two notes that a connected seat's player is here."""
        return self.presence.heartbeat

    @property
    def presence_window(self) -> float:
        """A player seen within this many seconds is present."""
        return self.presence.window

    # -- running off the event loop ----------------------------------------------------------

    async def _db(self, call: Callable[[], T]) -> T:
        """Run a database call in a worker thread, at most as many at once as the store
        has connections: a call beyond them waits here, on the event loop, rather than
        in a thread blocked on the pool."""
        if self._db_limiter is None:  # made in the event loop, at its first use
            self._db_limiter = anyio.CapacityLimiter(self.store.connections)
        return await anyio.to_thread.run_sync(call, limiter=self._db_limiter)

    async def _think(self, game_id: int, decide: Callable[[float], T]) -> T:
        """Run the computer's (or a hint's) thinking for ``game_id`` in the bounded
        pool, on the game's turn: ``decide`` is given its thinking budget in seconds,
        the capacity's ``bot_seconds``, less when games wait (:meth:`FairPool.share`)."""
        return await self.pool.think(game_id, decide, self.capacity.bot_seconds)

    # -- games in memory ---------------------------------------------------------------------

    def forget(self, game_id: int) -> None:
        """Drop the copy in memory of ``game_id``: the next request reads it again
        (what a broadcaster does when another process changed the game)."""
        self._games.forget(game_id)
        self.presence.forget(game_id)

    def outdate(self, game_id: int) -> None:
        """Note that another process stored a change of ``game_id`` (what a broadcaster
        does on its notice): the copy in memory catches up before it is used next
        (:meth:`_catch_up`)."""
        self._games.outdate(game_id)
        self.presence.forget(game_id)

    def forget_presence(self, game_id: int) -> None:
        """Drop what this process read of who is present in ``game_id`` (a player came
        or went, in another process)."""
        self.presence.forget(game_id)

    def forget_all(self) -> None:
        """Drop every game in memory (news of other processes' changes may be lost)."""
        self._games.forget_all()
        self.presence.forget_all()

    def in_memory(self, game_id: int) -> bool:
        """Whether this process holds a copy of ``game_id`` (for tests)."""
        return game_id in self._games

    def behind(self, game_id: int) -> bool:
        """Whether this process holds a copy of ``game_id`` that another process's
        change has made stale (for tests)."""
        live = self._games.get(game_id)
        return live is not None and live.behind

    def footprint(self) -> dict[str, int]:
        """How much this process keeps, by what (for tests and operators): games in
        memory, game locks held or waited for, addresses counted for new games,
        games in the computer's pool, seats' request counts, links known."""
        return {
            "games": len(self._games),
            "locks": self._games.locks,
            "addresses": len(self._quota),
            "thinking": self.pool.games,
            "buckets": len(self._buckets),
            "secrets": len(self._secrets),
        }

    def in_play(self) -> int:
        """Games in play held in memory, and games being made."""
        return self._creating + sum(1 for live in self._games if not live.session.is_over())

    def evict(self, game_id: int) -> bool:
        """Let ``game_id`` leave memory now, unless a request is changing it: whether it
        went. Every change is stored before it is acknowledged, so nothing is lost; the
        next request reads the game again from the database."""
        if not self._games.evict(game_id):
            return False
        self.presence.forget(game_id)
        return True

    def evict_idle(self, now: float | None = None) -> list[int]:
        """Let every game untouched for :attr:`Capacity.idle_seconds` leave memory (as
        :meth:`evict`): the games that went."""
        return [
            game_id
            for game_id in self._games.idle(self.capacity.idle_seconds, now)
            if self.evict(game_id)
        ]

    def _sweep(self) -> None:
        """Now and then (every quarter of the idle time, at most every minute), let the
        idle games leave memory."""
        now = self._games.clock()
        if now - self._swept >= min(self.capacity.idle_seconds / 4, 60.0):
            self._swept = now
            self.evict_idle(now)

    @asynccontextmanager
    async def _game(self, game_id: int) -> AsyncIterator[LiveGame]:
        """The game, locked, read from the database if this process does not hold it.
        If anything fails inside, the copy in memory is dropped: the database decides."""
        self._sweep()
        async with self._games.locked(game_id):
            live = self._games.get(game_id)
            try:
                if live is None:
                    live = await self._load(game_id)
                elif live.behind:
                    live = await self._catch_up(live)
                yield live
            except BaseException:
                self.forget(game_id)
                raise

    async def _read(self, game_id: int) -> LiveGame:
        """The game as the database holds it, with its session of the stored match."""
        stored = await self._db(lambda: self.store.load_game(game_id))
        self.reads += 1
        self.presence.note_infos(game_id, stored.seats)
        handed_over = _handed_over(stored.seats)
        spec = games.spec_of(stored.match)
        maker = spec.maker()
        persons = maker.persons(stored.match)
        session = maker.stored(stored.match, handed_over=handed_over, hint_level=self._hint_level)
        return LiveGame(
            game_id,
            spec,
            table_of(spec),
            session,
            persons,
            handed_over=handed_over,
            rematch=stored.rematch,
            commitments=stored.commitments,
            context=SeatContext(persons),
            moves=stored.moves,
            open_table=stored.table,
        )

    async def _load(self, game_id: int) -> LiveGame:
        """Read the game, and go on from where it stands. Another process may go on
        from there at the same moment; whoever stores second reads the game again.
        The copy is kept in memory only if no notice made it stale while it was read
        (else the next request reads it again)."""
        for attempt in range(3):
            stamp = self._games.stamp(game_id)
            live = await self._read(game_id)
            if live.session.is_over():
                # Closed, should the process have stopped between the last move and the
                # close (closing again changes nothing).
                await self._db(partial(self.store.finish_game, game_id))
            try:
                # A process stopped between a person's move and the computer's reply (or
                # between two hands) left the game waiting on the server: go on.
                await self._advance(live)
            except (MoveConflict, HandConflict):
                if attempt == 2:
                    raise
                continue  # another process went on first: read what it stored
            live.refresh()
            self._games.keep(live, stamp)
            return live
        raise AssertionError("unreachable")  # pragma: no cover

    async def _catch_up(self, live: LiveGame) -> LiveGame:
        """Bring a copy that another process's change made stale up to date: the hands
        dealt and moves played since it was read (:meth:`Store.game_news`) are played
        on it as they were stored, which costs one small read instead of the whole
        game's. News that does not follow on from the copy (a seat handed over, a deal
        it did not expect, a move it refuses) drops it, and the game is read again;
        so does a change made at the same moment as one the copy then makes itself."""
        game_id = live.game_id
        notices = live.notices
        news = await self._db(
            partial(self.store.game_news, game_id, len(live.commitments), live.open_hands())
        )
        if not _follow(live, news):
            self.forget(game_id)
            return await self._load(game_id)
        live.caught_up = notices
        self.catch_ups += 1
        live.rematch = news.rematch
        live.open_table = news.table
        self.presence.note_infos(game_id, news.seats)
        try:
            # As after a whole read: a process that stopped between a change and what
            # the server does after it (a deal, the computer's reply) left it undone.
            await self._advance(live)
        except (MoveConflict, HandConflict):
            self.forget(game_id)  # the process that made the change went on first
            return await self._load(game_id)
        live.refresh()
        return live

    async def _changed(self, live: LiveGame) -> None:
        """After a committed change: new states, and the news to every listener."""
        live.refresh()
        await self.broadcaster.publish(live.game_id)

    # -- changes, each stored before it is shown ------------------------------------------------

    async def _deal(self, live: LiveGame) -> None:
        """Deal the hands due (one, or one at each table of a deal), each from a secure
        shuffle of the game's deck, all stored in one transaction with their seats and
        commitments before any card of them is shown."""
        shuffle = secrets.SystemRandom()
        deals = [
            Deal(shuffled_deck(shuffle, live.spec.deck_cards), due.dealer, due.players)
            for due in live.session.deals_due()
        ]
        first = len(live.commitments)
        commitments = await self._db(partial(self.store.start_hands, live.game_id, first, deals))
        live.session.deal([deal.deck for deal in deals])
        live.stored_hands(dict(enumerate(commitments, start=first)))

    async def _store_move(self, live: LiveGame) -> tuple[int, int]:
        """Store the move just played, with its hand's scores when it ended the hand,
        and close the game when it ended the match: where the move stands (its hand,
        its index in the hand)."""
        played = live.session.last_played()
        await self._db(
            partial(
                self.store.append_move,
                live.game_id,
                played.hand_index,
                played.move_index,
                played.text,
                scores=played.scores,
            )
        )
        live.stored_move(played.hand_index, played.move_index)
        if live.session.is_over():
            await self._db(partial(self.store.finish_game, live.game_id))
        return played.hand_index, played.move_index

    async def _advance(self, live: LiveGame) -> None:
        """Deal and let the computer move (at every table, a hand between computers
        played to its end at once) until a person is to move or the match is over,
        announcing each change once it is stored."""
        session = live.session
        while not session.is_over():
            if session.deals_due():
                await self._deal(live)
            elif session.computer_to_move() is not None:
                await self._think(live.game_id, lambda budget: session.bot_move(budget=budget))
                await self._store_move(live)
            else:
                return  # a person is to move
            await self._changed(live)

    # -- what the routes call -------------------------------------------------------------------

    async def seen(self, ref: SeatRef, *, announce: bool = False) -> None:
        """Note that the seat's player is here (:meth:`Presence.seen`)."""
        await self.presence.seen(ref, self.broadcaster, announce=announce)

    def next_presence_change(self, state: SeatState) -> float | None:
        """Seconds until ``state``'s ``opponent`` (or its open table's wait) changes with
        time alone, or ``None``."""
        change = self.presence.next_change(state)
        note = state.open_table
        if note is None or note.over:
            return change
        ends = max(0.0, (note.until - self.clock()).total_seconds()) + 0.5
        return ends if change is None else min(change, ends)

    def allow(self, ref: SeatRef) -> float | None:
        """Spend one of the seat's requests: ``None`` if it may go on, else the seconds
        to wait before the next (HTTP moves, hints and questions: 429)."""
        bucket = self._buckets.get(ref)
        if bucket is None:
            if len(self._buckets) > 10_000:  # let go of the seats quiet lately
                self._buckets = {k: b for k, b in self._buckets.items() if not b.full}
            bucket = self._buckets[ref] = TokenBucket(self.seat_requests)
        return None if bucket.take() else max(bucket.wait(), 0.001)

    def admit(self, address: str | None) -> None:
        """Count a new game asked for from ``address`` (the client's; ``None`` counts
        nothing): :class:`TooManyGamesError` when the address is over its limit,
        :class:`ServerFullError` when this process holds as many games in play as it
        may."""
        capacity = self.capacity
        if self.in_play() >= capacity.games_in_play:
            self.evict_idle()
            if self.in_play() >= capacity.games_in_play:
                raise ServerFullError(
                    f"the server is full: it plays {capacity.games_in_play} games at once"
                    " and takes no new one now; try again in a minute",
                    60.0,
                )
        if address is None:
            return
        wait = self._quota.take(address)
        if wait is not None:
            raise TooManyGamesError(
                f"too many new games from your address: at most {capacity.games_per_minute}"
                f" a minute; try again in {max(1, math.ceil(wait))} seconds",
                wait,
            )

    async def create(
        self,
        request: NewGameRequest,
        base: str = "",
        address: str | None = None,
        open_terms: OpenTerms | None = None,
    ) -> GameCreated:
        """A new game of the game asked for, made by its maker and stored, its first
        hand dealt (and the computer's first moves made, when it is to move): one link
        for each person's seat, the asker's first, then the friends' in the order
        asked for. ``address``: the client's, whose new games are counted
        (:meth:`admit`). ``open_terms``: the game is an open table (:meth:`open_table`)."""
        self.admit(address)
        self._creating += 1
        try:
            return await self._create(request, base, open_terms)
        finally:
            self._creating -= 1

    async def open_table(
        self, request: OpenTableRequest, base: str = "", address: str | None = None
    ) -> GameCreated:
        """A game of two between people opened to anyone: the opener's link (seat 0),
        his table listed (:meth:`open_tables`) until someone sits down at seat 1
        (:meth:`sit`) or its wait is over. Counted as a new game of ``address``
        (:meth:`admit`), and refused when the address, or the server, has as many
        tables waiting as it may (:class:`TooManyGamesError`, :class:`ServerFullError`):
        a table so refused is not counted among the address's new games."""
        capacity = self.capacity
        terms = OpenTerms(
            seat=1,
            address=address or "",
            opened_at=self.clock(),
            wait=timedelta(seconds=capacity.open_wait_seconds),
            per_address=capacity.open_per_address,
            in_all=capacity.open_tables,
        )
        try:
            return await self.create(request.new_game(), base, address, terms)
        except OpenTableFull as e:
            if address is not None:
                self._quota.give_back(address)
            wait = min(60.0, capacity.open_wait_seconds)
            if e.per_address:
                raise TooManyGamesError(str(e), wait) from None
            raise ServerFullError(str(e), wait) from None

    async def open_tables(self) -> OpenTables:
        """The tables waiting for a player now, the longest waiting first, at most the
        capacity's ``open_tables``: nothing secret (no link, no address)."""
        now, limit = self.clock(), self.capacity.open_tables
        found = await self._db(lambda: self.store.open_tables(now, limit))
        listed = []
        for table in found:
            spec = games.get(table.game)
            listed.append(
                OpenTableListed(
                    id=table.game_id,
                    game=spec.name,
                    game_title=spec.title,
                    rules=table.rules,
                    rules_title=_titled(table.rules),
                    kind=table.kind,
                    kind_title=_titled(table.kind),
                    waiting=table.waiting,
                    since=table.opened_at,
                    until=table.wait_until,
                )
            )
        return OpenTables(tables=listed, wait_seconds=self.capacity.open_wait_seconds)

    async def sit(
        self, table_id: int, name: str, base: str = "", held: Sequence[str] = ()
    ) -> GameCreated:
        """Sit ``name`` down at the open table ``table_id``: the link of its waiting seat.
        Of two who sit down at once, in any of the server's processes, one gets it and
        the other :class:`NotNow` ("someone sat down first"); a table no longer open is
        a ``StoreError`` (404). The opener's table is told at once.

        ``held``: the secrets of the seats the asker's browser holds. When one of them is
        a seat of this table, its opener is asking to sit across from himself: refused
        (:class:`NotNow`)."""
        for secret in held:
            ref = await self.seat(secret)
            if ref is not None and ref.game_id == table_id:
                raise NotNow(
                    "this is your own table: it waits for someone else to sit down, and your"
                    " seat is under My games"
                )
        at = self.clock()
        try:
            seat, secret = await self._db(lambda: self.store.sit(table_id, name, at=at))
        except SeatTaken as e:
            raise NotNow(str(e)) from None
        self.forget(table_id)  # read again: the seat's player has a name now
        await self.broadcaster.publish(table_id)
        async with self._game(table_id):
            pass  # reads it back, and plays on
        return GameCreated(game_id=table_id, seats=[_link(seat, secret, base)])

    async def _create(
        self, request: NewGameRequest, base: str, open_terms: OpenTerms | None = None
    ) -> GameCreated:
        persons = request.persons
        try:
            session = request.spec.maker().new(
                seed=secrets.randbits(63),
                humans=persons,
                seats=request.players,
                level=request.level,
                variant=request.rules,
                length=request.kind,
            )
        except ValueError as e:
            raise NotOffered(str(e)) from None
        names = {seat: player_name(seat) for seat in persons}
        if request.name is not None:
            names[persons[0]] = request.name
        new = await self._db(
            lambda: self.store.create_game(
                session.match, seats=sorted(persons), names=names, open_table=open_terms
            )
        )
        async with self._game(new.game_id):
            pass  # reads it back, deals the first hand and plays the computer's moves
        return GameCreated(
            game_id=new.game_id,
            seats=[_link(seat, new.secrets[seat], base) for seat in persons if seat in new.secrets],
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

    async def _live(self, game_id: int) -> LiveGame:
        live = self._games.get(game_id)
        if live is not None and not live.behind:
            return live
        async with self._game(game_id) as live:
            return live

    async def state(self, ref: SeatRef, secret: str | None = None) -> SeatState:
        """What the seat is shown now; with its link to the rematch, when there is one
        (``secret``, the seat's link, works it out)."""
        live = await self._live(ref.game_id)
        return await self._state_of(live, ref, secret)

    async def _state_of(self, live: LiveGame, ref: SeatRef, secret: str | None) -> SeatState:
        """The seat's state, as its game's model checks it: its table's part and what
        the server adds (the game, who is present, the hand's commitment)."""
        # What the seat is shown and its version, read together: a change may be made
        # and shown while this waits for the database below.
        part, shown = live.tables[ref.seat], live.shown
        infos = await self.presence.seat_infos(ref.game_id)
        rematch = None
        if secret is not None and live.rematch is not None:
            rematch = await self._rematch_link(live.rematch, ref.seat, secret)
        handed_over = ref.seat in live.handed_over
        open_table = None
        table = live.open_table
        if table is not None and not table.sat and not table.closed and ref.seat != table.seat:
            open_table = OpenTableNote(until=table.wait_until, over=not table.waiting(self.clock()))
        # A seat the computer plays while its person is away is offered no move.
        fields = {**part, "legal": [] if handed_over else part["legal"]}
        return live.table.state(
            **fields,
            game=live.spec.name,
            game_id=live.game_id,
            seat=ref.seat,
            version=shown,
            commitment=live.commitments.get(part["hand_index"], ""),
            opponent=self.presence.opponent(live, ref.seat, infos),
            handed_over=handed_over,
            rematch=rematch,
            your_name=live.session.players[ref.seat],
            name_given=live.session.players[ref.seat] not in (player_name(ref.seat), YOU),
            open_table=open_table,
            # The reviews are of games of two (docs/REVIEW.md).
            review=live.spec.has("review") and len(live.session.players) == 2,
        )

    async def submit(
        self, ref: SeatRef, text: str, secret: str | None = None
    ) -> Submitted | Refused:
        """Play ``text`` for the seat: refused (nothing changes) or stored, then shown,
        then answered by the computer where it plays. A refusal or a lost race that may
        come from a stale copy in memory is tried once more against the game read again
        from the database."""
        first = await self._submit(ref, text, secret, retry=True)
        if first is not None:
            return first
        second = await self._submit(ref, text, secret, retry=False)
        return second if second is not None else Refused(_STALE)

    async def _stale(self, live: LiveGame) -> bool:
        """Whether the database holds more of the game than ``live`` (it is then
        dropped, to be read again)."""
        if await self._db(lambda: self.store.version(live.game_id)) == live.version:
            return False
        self.forget(live.game_id)
        return True

    async def _submit(
        self, ref: SeatRef, text: str, secret: str | None, *, retry: bool
    ) -> Submitted | Refused | None:
        """One try of :meth:`submit`; ``None``: the copy in memory was stale (it is
        dropped)."""
        async with self._game(ref.game_id) as live:
            if ref.seat in live.handed_over:
                return Refused(
                    "the computer plays your seat since you were away: reclaim it to play on"
                )
            reply = live.session.submit(ref.seat, text)
            if isinstance(reply, Refused):
                if retry and await self._stale(live):
                    return None
                return cited(reply, live.session.game)
            try:
                hand_index, move_index = await self._store_move(live)
            except MoveConflict:
                self.forget(ref.game_id)
                return None
            await self._changed(live)
            try:
                await self._advance(live)
            except (MoveConflict, HandConflict):
                self.forget(ref.game_id)  # another process replied first: the move stands
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
                reply = live.session.check(ref.seat, text)
                if isinstance(reply, Refused) and retry and await self._stale(live):
                    continue
            break
        if isinstance(reply, Refused):
            rule = cited(reply, live.session.game).rule
            return WhyReply(legal=False, reason=reply.sentence, rule=rule)
        return WhyReply(legal=True, reason=None)

    async def hint(self, ref: SeatRef) -> HintReply:
        """The move the hint level would make for the seat now, and why (:class:`NotYourTurn`
        when it is not the seat's move)."""
        async with self._game(ref.game_id) as live:
            if ref.seat in live.handed_over:
                raise NotYourTurn("a hint is given to the player to move, and it is not your turn")
            # The session refuses in the game's words (it is not his turn, he sits this
            # hand out): at once, before any thinking.
            session, seat = live.session, ref.seat
            hint = await self._think(ref.game_id, lambda budget: session.hint(seat, budget=budget))
            if isinstance(hint, Refused):
                raise NotYourTurn(hint.reason)
            return HintReply(move=hint.move.text(), level=hint.level, why=hint.why)

    async def hand_over(self, ref: SeatRef, secret: str | None = None) -> SeatState:
        """Let the computer play the seat of the player this seat plays against, who
        has been away longer than the grace period (:class:`NotNow` with the reason
        when he may not be); the computer moves at once if it is its turn. Asked again,
        it changes nothing."""
        async with self._game(ref.game_id) as live:
            other = live.session.opponent_of(ref.seat)
            table = live.open_table
            if table is not None and other == table.seat and not table.sat:
                return await self._play_computer_instead(live, ref, secret, table.seat)
            if other is None or other not in live.handed_over:
                infos = await self.presence.seat_infos(ref.game_id, fresh=True)
                away, present = (
                    (0.0, False) if other is None else self.presence.absence(infos, other)
                )
                refusal = self.presence.hand_over_refusal(live, ref.seat, away, present)
                if refusal is not None:
                    raise NotNow(refusal)
                assert other is not None
                handed = SeatRef(ref.game_id, other)
                at = self.clock()
                await self._db(lambda: self.store.hand_over(handed, True, at=at))
                await self._set_handed_over(live, live.handed_over | {other})
            return await self._state_of(live, ref, secret)

    async def _play_computer_instead(
        self, live: LiveGame, ref: SeatRef, secret: str | None, seat: int
    ) -> SeatState:
        """Close ``live``'s open table, whose ``seat`` nobody sat down at, and let the
        computer play that seat: at any time while it waits, or once its wait is over
        (:class:`NotNow` when someone sat down first)."""
        at = self.clock()
        done = await self._db(lambda: self.store.play_computer_instead(live.game_id, at=at))
        if not done:
            self.forget(live.game_id)
            raise NotNow("someone sat down at your table first: you play against them")
        assert live.open_table is not None
        live.open_table = replace(live.open_table, closed=True)
        if seat not in live.handed_over:
            await self._set_handed_over(live, live.handed_over | {seat})
        return await self._state_of(live, ref, secret)

    async def reclaim(self, ref: SeatRef, secret: str | None = None) -> SeatState:
        """Give the seat back to its player from the computer, which played it while he
        was away. Asked of a seat he plays already, it changes nothing."""
        async with self._game(ref.game_id) as live:
            if ref.seat in live.handed_over:
                await self._db(lambda: self.store.hand_over(ref, False))
                await self._set_handed_over(live, live.handed_over - {ref.seat})
            return await self._state_of(live, ref, secret)

    async def rename(self, ref: SeatRef, name: str, secret: str | None = None) -> SeatState:
        """Give the person at the seat the name ``name`` (checked already): stored, then
        shown to every seat. A seat may change its name :data:`NAME_CHANGES` times a
        game (:class:`NotNow` after that); giving the name it has changes nothing."""
        async with self._game(ref.game_id) as live:
            if ref.seat not in live.persons:
                raise NotNow("only a person's seat is named by its player")
            if live.session.players[ref.seat] == name:
                return await self._state_of(live, ref, secret)
            changes = self._renames.get(ref, 0)
            if changes >= NAME_CHANGES:
                raise NotNow(
                    f"a name may be changed {NAME_CHANGES} times a game, and yours has been:"
                    " it stays as it is"
                )
            await self._db(lambda: self.store.set_name(ref, name))
            if len(self._renames) >= 100_000:
                self._renames.clear()
            self._renames[ref] = changes + 1
        # The match names its players: read it again, then tell every seat.
        self.forget(ref.game_id)
        await self.broadcaster.publish(ref.game_id)
        return await self.state(ref, secret)

    async def _set_handed_over(self, live: LiveGame, handed_over: frozenset[int]) -> None:
        """After the hand-over is stored: the session with its new players, shown to
        all, and the computer's moves if it is to move."""
        live.handed_over = handed_over
        live.session = live.spec.maker().stored(
            live.session.match, handed_over=handed_over, hint_level=self._hint_level
        )
        await self._changed(live)
        await self._advance(live)

    async def rematch(self, ref: SeatRef, secret: str, base: str = "") -> GameCreated:
        """A new game with the same seats, level and length, once this one is over: this
        seat's link to it (:class:`NotNow` while the game is played). The other
        persons' seats are told of it in their states (``rematch``). A game has one
        rematch: whoever asks second, or again, gets his link to the same one."""
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

    async def _new_rematch(self, live: LiveGame) -> int:
        """The rematch of ``live``, stored: its session's rematch, made from the game as
        stored (its seats all their own people's, whoever the computer plays for now),
        dealt from a fresh secret seed."""
        as_made = live.spec.maker().stored(live.session.match, hint_level=self._hint_level)
        again = as_made.rematch(secrets.randbits(63))
        # The people keep their names ("Player N" for one an older game called "You").
        players = seat_names(live.session.players)
        names = {seat: players[seat] for seat in live.persons}
        try:
            new = await self._db(
                lambda: self.store.create_game(
                    again.match, seats=sorted(live.persons), rematch_of=live.game_id, names=names
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
        with the hands whose results everyone was told only (a hand in play's deck
        holds the stock and the other hands) and without the seed of the computer's
        decisions."""
        async with self._game(game_id) as live:
            session = live.session
            if session.is_over():
                return dumps(session.match)
            if ref is None or ref.game_id != game_id:
                raise RecordWithheld(
                    f"game {game_id} is still in play: its record is given to its players"
                    " only, through their links, until it is over"
                )
            data = record_of(session.match)
            data["hands"] = data["hands"][: live.table.hands_told(session)]
            data["meta"] = {k: v for k, v in data["meta"].items() if k != "seed"}
            return dumps(replay_any(data))

    async def verify(self, game_id: int, hand_index: int) -> VerifyReply:
        """A hand's deck commitment; with its salt and deck once the hand is over."""
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
