"""The games a server process plays, apart from HTTP: what the routes of
:mod:`umtali.web.app` call.

The database is the truth. A game is read from it (:meth:`Store.load_match`) the first
time this process needs it and kept in memory after that; every change is stored first
and shown after: a move is played through the engine (:meth:`PlaySession.submit`),
stored with :meth:`Store.append_move`, and only then acknowledged to its player and
announced to the other seat. A change that cannot be stored (another process stored a
move there first, or the database failed) drops the game from memory, so that the next
request reads it again from the database.

Each hand is dealt from a secure shuffle (:class:`secrets.SystemRandom`) and its deck is
stored with a salted commitment (:meth:`Store.start_hand`) before anyone sees a card.
The computer's decisions are seeded (:func:`umtali.session.decision_rng`) from a seed
kept in the game's ``meta`` and think in a small pool of threads, so a slow decision
holds up only its own game.

Announcements go through a :class:`Broadcaster`. It carries only "game N changed":
each listener then asks for its own seat's state, so nothing secret travels through
it. :class:`LocalBroadcaster` serves one process; a PostgreSQL ``LISTEN``/``NOTIFY``
broadcaster can take its place to reach every process sharing the database.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Final, Protocol, TypeVar

import anyio
import anyio.to_thread

from umtali.bots import DEFAULT_BOT
from umtali.deck import shuffled_deck
from umtali.describe import YOU, describe_seen, how_hand_ended
from umtali.match import Match, MatchKind
from umtali.record import dumps, record_of, replay
from umtali.rules import STANDARD
from umtali.session import Accepted, PlaySession, Refused, Seats
from umtali.state import HandState
from umtali.view import PlayerView
from umtali.web.protocol import (
    GameCreated,
    HandEnd,
    HintReply,
    NewGameRequest,
    ScoreSheetModel,
    SeatLink,
    SeatState,
    VerifyReply,
)
from umtali.web.store import MoveConflict, SeatRef, Store, deck_text

__all__ = [
    "Broadcaster",
    "GameServer",
    "LocalBroadcaster",
    "NotYourTurn",
    "RecordWithheld",
    "Subscription",
]

BOT_THREADS: Final = 2
"""How many computer decisions this process thinks about at once; more wait their turn."""

SEEN_EVERY: Final = 60.0
"""How often, at most, a seat's ``last_seen_at`` is written (seconds)."""

T = TypeVar("T")


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
    """Tells the listeners of a game that it changed. A PostgreSQL implementation
    would ``NOTIFY`` in :meth:`publish` and, in each process, ``LISTEN`` and notify its
    local subscriptions (after :meth:`GameServer.forget` of the game, whose copy in
    memory is then stale)."""

    async def publish(self, game_id: int) -> None:
        """Announce that ``game_id`` changed (after the change is committed)."""

    def subscribe(self, game_id: int) -> AbstractAsyncContextManager[Subscription]:
        """Listen to ``game_id`` while the context is open."""


class LocalBroadcaster:
    """A :class:`Broadcaster` within one process: enough for one server process."""

    def __init__(self) -> None:
        self._listeners: dict[int, set[Subscription]] = {}

    async def publish(self, game_id: int) -> None:
        for subscription in list(self._listeners.get(game_id, ())):
            subscription.notify()

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


# -- errors the routes turn into answers -------------------------------------------------------


class NotYourTurn(Exception):  # noqa: N818 - an answer, not a fault
    """A hint asked for by the seat not to move."""


class RecordWithheld(Exception):  # noqa: N818 - an answer, not a fault
    """The record of a game in play asked for by someone who holds no seat in it."""


# -- one game in memory ---------------------------------------------------------------------


@dataclass
class _LiveGame:
    game_id: int
    session: PlaySession
    commitment: str
    states: dict[int, SeatState] = field(default_factory=dict)

    @property
    def version(self) -> int:
        """Hands dealt plus moves played: it grows with every stored change."""
        hands = self.session.match.hands
        return len(hands) + sum(len(hand.history) for hand in hands)


def _secure_deck() -> tuple[int, ...]:
    """A deck shuffled from the operating system's randomness: nobody can predict it,
    not even from earlier decks."""
    return shuffled_deck(secrets.SystemRandom())


def _session_of(match: Match) -> PlaySession:
    """The session of a stored game. Its decks come from a secure shuffle, not from its
    seed, so the session is built directly rather than by ``of_match`` (which checks
    the decks against the seed); the seed still seeds the computer's decisions."""
    seats = Seats.of(match.meta)
    levels = tuple(None if seat in seats.humans else seats.bot for seat in (0, 1))
    return PlaySession(match, seats.seed, (levels[0], levels[1]))


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


def seat_state(live: _LiveGame, seat: int) -> SeatState:
    """What ``seat`` is shown now: built from its view of the last hand dealt, and the
    other player's moves told as it saw them (R11)."""
    session = live.session
    match = session.match
    hand = match.hands[-1]
    view = session.view(seat) if match.current is not None else PlayerView.of(hand, seat)
    names = session.names_for(seat)
    mine, recap = _recap(hand, seat, names)
    previous = None
    ended = [i for i, past in enumerate(match.hands) if past.is_over()]
    if ended:
        last = match.hands[ended[-1]]
        outcome = last.outcome()
        assert outcome is not None
        previous = HandEnd(
            hand_index=ended[-1],
            scores=outcome.scores,
            how=how_hand_ended(outcome, names),
            recap=_recap(last, seat, names)[1],
        )
    over = match.is_over()
    return SeatState(
        game_id=live.game_id,
        seat=seat,
        version=live.version,
        names=names,
        kind=match.kind,
        title=session.hand_title(names),
        hand_index=session.hand_index,
        commitment=live.commitment,
        view=_sent_view(view),
        legal=[move.text() for move in view.legal],
        your_turn=session.to_move() == seat,
        recap=recap,
        since_own_move=mine,
        scores=_scores(session),
        over=over,
        result=session.result(names) if over else None,
        previous=previous,
    )


def _recap(hand: HandState, seat: int, names: tuple[str, str]) -> tuple[bool, list[str]]:
    """Whether ``seat`` has moved in ``hand``, and the other player's moves since his
    last one, told from his view (R11)."""
    view = PlayerView.of(hand, seat)
    history = view.history
    mine = [i for i, (actor, _) in enumerate(history) if actor == seat]
    since = mine[-1] + 1 if mine else 0
    lines = [
        describe_seen(view, i, names) for i in range(since, len(history)) if history[i][0] != seat
    ]
    return bool(mine), lines


# -- the server -------------------------------------------------------------------------------


class GameServer:
    """The games of one server process, over one :class:`Store`.

    Every method that changes a game holds that game's lock, so one game's moves are
    played one at a time; other games go on meanwhile. Database calls run in worker
    threads, and the computer's thinking in a pool of ``bot_threads`` threads, so the
    event loop is never held up.
    """

    def __init__(
        self,
        store: Store,
        *,
        broadcaster: Broadcaster | None = None,
        bot_threads: int = BOT_THREADS,
    ) -> None:
        self.store = store
        self.broadcaster: Broadcaster = broadcaster or LocalBroadcaster()
        self._bot_threads = bot_threads
        self._limiter: anyio.CapacityLimiter | None = None
        self._games: dict[int, _LiveGame] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._seen: dict[SeatRef, float] = {}

    # -- running off the event loop ----------------------------------------------------------

    async def _db(self, call: Callable[[], T]) -> T:
        """Run a database call in a worker thread."""
        return await anyio.to_thread.run_sync(call)

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
        match = await self._db(lambda: self.store.load_match(game_id))
        session = _session_of(match)
        commitment = ""
        if match.hands:
            index = len(match.hands) - 1
            commitment = (await self._db(lambda: self.store.commitment(game_id, index))).commitment
        live = _LiveGame(game_id, session, commitment)
        self._games[game_id] = live
        # A process stopped between a person's move and the computer's reply (or between
        # two hands) left the game waiting on the server: go on from there.
        await self._advance(live)
        self._refresh(live)
        return live

    def _refresh(self, live: _LiveGame) -> None:
        """Rebuild what each person's seat is shown."""
        live.states = {seat: seat_state(live, seat) for seat in sorted(live.session.humans)}

    async def _changed(self, live: _LiveGame) -> None:
        """After a committed change: new states, and the news to every listener."""
        self._refresh(live)
        await self.broadcaster.publish(live.game_id)

    # -- changes, each stored before it is shown ------------------------------------------------

    async def _deal(self, live: _LiveGame) -> None:
        match = live.session.match
        index = len(match.hands)
        deck = _secure_deck()
        live.commitment = await self._db(lambda: self.store.start_hand(live.game_id, index, deck))
        match.new_hand(deck)

    async def _store_last_move(self, live: _LiveGame) -> None:
        """Store the move just played in memory: with the hand's scores when it ended
        the hand, and the game closed when it ended the match."""
        match = live.session.match
        hand_index = len(match.hands) - 1
        hand = match.hands[hand_index]
        played = hand.moves_played()
        outcome = hand.outcome()
        text = played[-1].text()
        scores = None if outcome is None else outcome.scores
        await self._db(
            lambda: self.store.append_move(
                live.game_id, hand_index, len(played) - 1, text, scores=scores
            )
        )
        if match.is_over():
            await self._db(lambda: self.store.finish_game(live.game_id))

    async def _advance(self, live: _LiveGame) -> None:
        """Deal and let the computer move until a person is to move or the match is
        over, announcing each change once it is stored."""
        session = live.session
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

    # -- what the routes call -------------------------------------------------------------------

    async def create(self, request: NewGameRequest, base: str = "") -> GameCreated:
        """A new game, its first hand dealt (and the computer's first moves made, when
        it is to move): one link for each person's seat."""
        if request.opponent == "computer":
            humans = [request.seat]
            players = [f"Computer ({request.level})"] * 2
            players[request.seat] = YOU
        else:
            humans = [0, 1]
            players = ["Player 1", "Player 2"]
        seats = Seats(secrets.randbits(63), frozenset(humans), request.level or DEFAULT_BOT)
        first_dealer = secrets.randbelow(2)
        kind: MatchKind = request.kind
        new = await self._db(
            lambda: self.store.create_game(
                kind=kind,
                rules=STANDARD,
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
            seats=[
                SeatLink(
                    seat=seat,
                    secret=secret,
                    state=f"{base}/api/seat/{secret}",
                    socket=f"{base}/ws/seat/{secret}",
                )
                for seat, secret in sorted(new.secrets.items())
            ],
        )

    async def seat(self, secret: str) -> SeatRef | None:
        """The seat whose link carries ``secret``, or ``None``."""
        return await self._db(lambda: self.store.seat_for_secret(secret))

    async def seen(self, ref: SeatRef) -> None:
        """Note that the seat's player was seen now: in the database at most once every
        :data:`SEEN_EVERY` seconds, so that reading a state costs no write."""
        now = time.monotonic()
        if now - self._seen.get(ref, -SEEN_EVERY) < SEEN_EVERY:
            return
        self._seen[ref] = now
        await self._db(lambda: self.store.mark_seen(ref))

    async def state(self, ref: SeatRef) -> SeatState:
        """What the seat is shown now."""
        live = self._games.get(ref.game_id)
        if live is not None and ref.seat in live.states:
            return live.states[ref.seat]
        async with self._game(ref.game_id) as live:
            return live.states[ref.seat]

    async def submit(
        self, ref: SeatRef, text: str
    ) -> tuple[Accepted, int, int, SeatState] | Refused:
        """Play ``text`` for the seat: refused (nothing changes) or stored, then shown,
        then answered by the computer when it plays the other seat."""
        async with self._game(ref.game_id) as live:
            reply = live.session.submit(ref.seat, text)
            if isinstance(reply, Refused):
                return reply
            hand_index = live.session.hand_index
            move_index = len(live.session.match.hands[hand_index].history) - 1
            try:
                await self._store_last_move(live)
            except MoveConflict:
                self.forget(ref.game_id)
                return Refused(
                    "another move was stored at this point first (the game was played on"
                    " elsewhere): look at the game again"
                )
            await self._changed(live)
            await self._advance(live)
            return reply, hand_index, move_index, live.states[ref.seat]

    async def hint(self, ref: SeatRef) -> HintReply:
        async with self._game(ref.game_id) as live:
            session = live.session
            if session.to_move() != ref.seat:
                raise NotYourTurn("a hint is given to the player to move, and it is not your turn")
            hint = await self._think(lambda: session.hint(ref.seat))
            return HintReply(move=hint.move.text(), level=hint.level, why=hint.why)

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
            data["hands"] = [entry for entry in data["hands"] if "scores" in entry]
            data["meta"] = {k: v for k, v in data["meta"].items() if k != "seed"}
            return dumps(replay(data))

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
