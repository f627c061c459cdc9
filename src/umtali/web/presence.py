"""Who is at the table: each seat played by link notes when its player was last seen (a
request, or the heartbeat of an open WebSocket), and the other players are told
whether he is here, how long he has been away, and once the grace period is over that
the computer may take his seat.

Reading a state costs no write: a seat's ``last_seen_at`` is written at most once a
:attr:`Presence.heartbeat`, and the seats read for presence are kept a little while
(news of a player who came or went reads them again at once).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import datetime
from typing import Final, Protocol, TypeVar

from umtali.web.broadcast import Broadcaster
from umtali.web.live import LiveGame
from umtali.web.protocol import Opponent, SeatState
from umtali.web.store import SeatInfo, SeatRef, Store

__all__ = ["GRACE_SECONDS", "HEARTBEAT_SECONDS", "Database", "Presence"]

HEARTBEAT_SECONDS: Final = 20.0
"""How often, at most, a seat's ``last_seen_at`` is written while its WebSocket is open
or its link is used (a third of the grace period, when that is shorter)."""

GRACE_SECONDS: Final = 90.0
"""How long a person may be away before the other may hand his seat to the computer."""

T = TypeVar("T")


class Database(Protocol):
    """Runs a database call off the event loop, at most as many at once as the store
    has connections (the server's)."""

    def __call__(self, call: Callable[[], T]) -> Awaitable[T]: ...


class Presence:
    """The seats' comings and goings in one server process, over its :class:`Store`.

    ``db`` runs a database call off the event loop (the server's); ``grace`` is how
    long (seconds) a person must be away before another may hand his seat to the
    computer; ``clock`` the time presence is measured by (a test sets it)."""

    def __init__(
        self,
        store: Store,
        db: Database,
        *,
        grace: float,
        clock: Callable[[], datetime],
    ) -> None:
        if not grace > 0:
            raise ValueError(f"the grace period is a positive number of seconds, not {grace!r}")
        self.store = store
        self._db = db
        self.grace = grace
        self.clock = clock
        self._seen: dict[SeatRef, float] = {}
        """When each seat's next heartbeat is due to be written (monotonic seconds)."""
        self._jitter = random.Random()
        """Spreads the heartbeats (not secret: it says only when a note is written)."""
        self._infos: dict[int, tuple[float, list[SeatInfo]]] = {}
        """Each game's seats as presence needs them, and until when (monotonic seconds)
        they are used without reading them again."""

    @property
    def heartbeat(self) -> float:
        """Seconds between two notes that a connected seat's player is here."""
        return min(HEARTBEAT_SECONDS, self.grace / 3)

    @property
    def window(self) -> float:
        """A player seen within this many seconds is present: two heartbeats, so one
        late heartbeat does not make him look away."""
        return 2 * self.heartbeat

    def forget(self, game_id: int) -> None:
        """Drop what was read of who is present in ``game_id``."""
        self._infos.pop(game_id, None)

    def forget_all(self) -> None:
        """Drop what was read of every game."""
        self._infos.clear()

    async def seen(self, ref: SeatRef, broadcaster: Broadcaster, *, announce: bool) -> None:
        """Note that the seat's player is here: in the database at most once a
        :attr:`heartbeat`, so that reading a state costs no write; ``announce``: he has
        just come or gone (a WebSocket opened or closed), which is written at once and
        told to the other seats through ``broadcaster``."""
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
            await broadcaster.publish(ref.game_id)
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

    def note_infos(self, game_id: int, infos: list[SeatInfo]) -> None:
        """Keep ``infos``, the game's seats just read with the game itself, as if
        :meth:`seat_infos` had read them now."""
        self._infos[game_id] = (self._fresh_until(time.monotonic()), infos)

    def _fresh_until(self, now: float) -> float:
        return now + self.heartbeat * (1 + self._jitter.random()) / 4

    async def seat_infos(self, game_id: int, *, fresh: bool = False) -> list[SeatInfo]:
        """The game's seats as presence needs them, read again once they are older
        than a quarter to half a heartbeat (at random, so that games read at once are
        not all read again at once), for the heartbeats other processes wrote, or at
        once when ``fresh``. News of a player who came or went reads them again at
        once; a heartbeat written here is noted in them. A player is judged away after
        two heartbeats unseen, so half a heartbeat of staleness never makes a present
        player look away."""
        now = time.monotonic()
        cached = self._infos.get(game_id)
        if cached is not None and now < cached[0] and not fresh:
            return cached[1]
        infos = await self._db(lambda: self.store.seats(game_id))
        self._infos[game_id] = (self._fresh_until(now), infos)
        return infos

    def absence(self, infos: list[SeatInfo], seat: int) -> tuple[float, bool]:
        """Seconds since ``seat``'s player was last seen (since his link was given out,
        if never), and whether he is present: seen within :attr:`window`."""
        info = next((info for info in infos if info.seat == seat), None)
        if info is None:
            return 0.0, False
        last = info.last_seen_at or info.created_at
        away = max(0.0, (self.clock() - last).total_seconds())
        return away, info.last_seen_at is not None and away < self.window

    def opponent(self, live: LiveGame, seat: int, infos: list[SeatInfo]) -> Opponent:
        """The other player as ``seat`` is told of him now: the one it plays against at
        the hand it plays or last played."""
        other = live.session.opponent_of(seat)
        if other is None or other not in live.persons:
            return Opponent(
                kind="computer",
                present=True,
                away_seconds=None,
                can_hand_over=False,
                handed_over=False,
            )
        away, present = self.absence(infos, other)
        return Opponent(
            kind="person",
            present=present,
            away_seconds=None if present else int(away),
            can_hand_over=self.hand_over_refusal(live, seat, away, present) is None,
            handed_over=other in live.handed_over,
        )

    def hand_over_refusal(
        self, live: LiveGame, seat: int, away: float, present: bool
    ) -> str | None:
        """Why ``seat`` may not hand the other player's seat to the computer now, or
        ``None``."""
        other = live.session.opponent_of(seat)
        if other is None:
            return "nobody plays against you yet: you have sat out every hand so far"
        name = live.session.players[other]
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

    def next_change(self, state: SeatState) -> float | None:
        """Seconds until ``state``'s ``opponent`` changes with time alone (the grace
        period runs out), or ``None``."""
        opponent = state.opponent
        if opponent.away_seconds is None or opponent.can_hand_over or opponent.handed_over:
            return None
        if state.over:
            return None
        return max(0.0, self.grace - opponent.away_seconds) + 1.0
