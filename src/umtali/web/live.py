"""The games a server process holds in memory: each read from the database the first
time it is needed (:class:`LiveGame`), kept after that, and dropped when another
process changed it or when it has been idle a while (:class:`LiveGames`). The database stays the truth: a copy here is
only ever a faster way to the same game.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any, Final

from umtali.games.api import GameSpec, Session
from umtali.web.store import TableWait
from umtali.web.tables import GameTable, SeatContext

__all__ = ["HANDS_AT_ONCE", "LiveGame", "LiveGames"]

HANDS_AT_ONCE: Final = 2
"""The most hands of one game under way at once (a deal at two tables): only the last
this many hands dealt may gain moves."""


@dataclass
class LiveGame:
    """One game in memory: its session (any game's, as :class:`~umtali.games.api.Session`
    plays it), its game and table, and what the server keeps beside it."""

    game_id: int
    spec: GameSpec
    table: GameTable
    session: Session
    persons: frozenset[int]
    """The seats the game was made for people to play by link."""
    handed_over: frozenset[int] = frozenset()
    """The persons' seats the computer plays for now."""
    rematch: int | None = None
    commitments: dict[int, str] = field(default_factory=dict)
    """Each hand's deck commitment, by hand index: every hand dealt is here, so its
    length is the index of the next hand to deal."""
    context: SeatContext = field(default_factory=lambda: SeatContext(frozenset()))
    """What the game's table keeps of finished hands, and the persons' seats."""
    tables: dict[int, dict[str, Any]] = field(default_factory=dict)
    """What each person's seat is shown of the game, without what the server adds."""
    shown: int = -1
    """The version :attr:`tables` show: a change is made in memory before it is stored
    and shown, and a state read meanwhile is the one shown before it, with its version."""
    moves: dict[int, int] = field(default_factory=dict)
    """The moves stored in each hand, by hand index: where news of the game begins."""
    notices: int = 0
    """How many notices of changes stored by another process came for this copy."""
    caught_up: int = 0
    """How many of :attr:`notices` the copy has caught up with."""
    open_table: TableWait | None = None
    """The game's open table, if it was opened to anyone (who waits, until when)."""

    @property
    def behind(self) -> bool:
        """Another process stored a change this copy may lack: catch up before using it."""
        return self.caught_up != self.notices

    @property
    def version(self) -> int:
        """Grows with every change (a hand dealt, a move played), as soon as it is made
        in memory."""
        return self.session.version

    def stored_move(self, hand_index: int, move_index: int) -> None:
        """Note a move of the game stored (here, or read back from another process)."""
        self.moves[hand_index] = move_index + 1

    def stored_hands(self, commitments: dict[int, str]) -> None:
        """Note hands of the game dealt and stored, with their commitments."""
        self.commitments.update(commitments)
        self.moves.update(dict.fromkeys(commitments, 0))

    def open_hands(self) -> dict[int, int]:
        """The moves stored in each hand that may still be played: the last
        :data:`HANDS_AT_ONCE` dealt."""
        last = len(self.commitments)
        return {hand: self.moves.get(hand, 0) for hand in range(max(0, last - HANDS_AT_ONCE), last)}

    def refresh(self) -> None:
        """Work out again what each person's seat is shown (after a change)."""
        self.tables = {
            seat: self.table.seat_table(self.session, seat, self.context)
            for seat in sorted(self.persons)
        }
        self.shown = self.session.version


@dataclass
class _Slot:
    """What is kept of a game while a request holds or waits for its lock."""

    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    users: int = 0
    """The requests holding or waiting for :attr:`lock`."""
    forgotten: int = 0
    """How many times the game was forgotten meanwhile: a game read while it is
    forgotten may have been read before the change that made it stale."""
    outdated: int = 0
    """How many notices of changes made elsewhere came meanwhile: a game read while
    one comes may lack that change, and is kept :attr:`LiveGame.behind`."""


class LiveGames:
    """The games in memory, each with its lock (one game's changes are made one at a
    time), and what tells a copy read while it was made stale.

    Nothing is kept for a game id but its copy in memory, and its lock only while a
    request holds or waits for it: an id asked for that names no game leaves nothing
    behind. A game untouched for a while may leave memory (:meth:`idle`,
    :meth:`evict`); it is read again from the database when next asked for.
    ``clock``: the time idleness is measured by (seconds)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._games: dict[int, LiveGame] = {}
        self._touched: OrderedDict[int, float] = OrderedDict()
        """When each game in memory was last asked for, the least recently first."""
        self._slots: dict[int, _Slot] = {}
        self._epoch = 0
        """How many times every game was forgotten."""
        self.clock = clock

    def get(self, game_id: int) -> LiveGame | None:
        """The copy of ``game_id`` in memory, if there is one (it is touched: asked
        for now)."""
        live = self._games.get(game_id)
        if live is not None:
            self._touched[game_id] = self.clock()
            self._touched.move_to_end(game_id)
        return live

    def __contains__(self, game_id: int) -> bool:
        return game_id in self._games

    def __len__(self) -> int:
        return len(self._games)

    def __iter__(self) -> Iterator[LiveGame]:
        return iter(list(self._games.values()))

    @property
    def locks(self) -> int:
        """How many games' locks are kept (held or waited for) now."""
        return len(self._slots)

    @asynccontextmanager
    async def locked(self, game_id: int) -> AsyncIterator[None]:
        """Hold the lock of ``game_id``, held around every change of it; the lock is
        let go of once no request holds or waits for it."""
        slot = self._slots.get(game_id)
        if slot is None:
            slot = self._slots[game_id] = _Slot()
        slot.users += 1
        try:
            async with slot.lock:
                yield
        finally:
            slot.users -= 1
            if slot.users == 0:
                del self._slots[game_id]

    def stamp(self, game_id: int) -> tuple[int, int, int]:
        """Where forgetting and news stand for ``game_id``, taken before it is read
        (with its lock held)."""
        slot = self._slots.get(game_id)
        if slot is None:
            return self._epoch, 0, 0
        return self._epoch, slot.forgotten, slot.outdated

    def keep(self, live: LiveGame, stamp: tuple[int, int, int]) -> None:
        """Keep ``live`` in memory unless it was forgotten since ``stamp`` was taken (it
        may then have been read before the change that made it stale); kept
        :attr:`~LiveGame.behind` if news of a change came meanwhile."""
        now = self.stamp(live.game_id)
        if now[:2] != stamp[:2]:
            return
        if now[2] != stamp[2]:
            live.notices += 1
        self._games[live.game_id] = live
        self._touched[live.game_id] = self.clock()
        self._touched.move_to_end(live.game_id)

    def outdate(self, game_id: int) -> None:
        """Note that another process stored a change of ``game_id``: the copy in memory,
        and one being read or caught up now, catch up before they are used."""
        live = self._games.get(game_id)
        if live is not None:
            live.notices += 1
        slot = self._slots.get(game_id)
        if slot is not None:
            slot.outdated += 1

    def forget(self, game_id: int) -> None:
        """Drop the copy of ``game_id``: the next request reads it again. (A game whose
        lock no one holds is being read by no one: nothing more is noted.)"""
        self._games.pop(game_id, None)
        self._touched.pop(game_id, None)
        slot = self._slots.get(game_id)
        if slot is not None:
            slot.forgotten += 1

    def forget_all(self) -> None:
        """Drop every game (news of other processes' changes may be lost)."""
        self._games.clear()
        self._touched.clear()
        self._epoch += 1

    def idle(self, seconds: float, now: float | None = None) -> list[int]:
        """The games in memory untouched for ``seconds`` or more, whose locks no request
        holds or waits for, the least recently touched first."""
        since = (self.clock() if now is None else now) - seconds
        found = []
        for game_id, touched in self._touched.items():
            if touched > since:
                break
            if game_id not in self._slots:
                found.append(game_id)
        return found

    def evict(self, game_id: int) -> bool:
        """Let the copy of ``game_id`` go, unless a request holds or waits for its lock
        (a change may be under way): whether it went. Every change is stored before
        the lock is let go, so the database holds all that memory held."""
        if game_id in self._slots or game_id not in self._games:
            return False
        del self._games[game_id]
        self._touched.pop(game_id, None)
        return True
