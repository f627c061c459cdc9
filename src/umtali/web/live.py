"""The games a server process holds in memory: each read from the database the first
time it is needed (:class:`LiveGame`), kept after that, and dropped when another
process changed it (:class:`LiveGames`). The database stays the truth: a copy here is
only ever a faster way to the same game.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from umtali.games.api import GameSpec, Session
from umtali.web.tables import GameTable, SeatContext

__all__ = ["LiveGame", "LiveGames"]


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

    @property
    def version(self) -> int:
        """Grows with every change (a hand dealt, a move played), as soon as it is made
        in memory."""
        return self.session.version

    def refresh(self) -> None:
        """Work out again what each person's seat is shown (after a change)."""
        self.tables = {
            seat: self.table.seat_table(self.session, seat, self.context)
            for seat in sorted(self.persons)
        }
        self.shown = self.session.version


class LiveGames:
    """The games in memory, each with its lock (one game's changes are made one at a
    time), and what tells a copy read while it was made stale."""

    def __init__(self) -> None:
        self._games: dict[int, LiveGame] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._forgotten: dict[int, int] = {}
        """How many times each game was forgotten: a game read while it is forgotten
        may have been read before the change that made it stale."""
        self._epoch = 0
        """How many times every game was forgotten."""

    def get(self, game_id: int) -> LiveGame | None:
        """The copy of ``game_id`` in memory, if there is one."""
        return self._games.get(game_id)

    def __contains__(self, game_id: int) -> bool:
        return game_id in self._games

    def lock(self, game_id: int) -> asyncio.Lock:
        """The lock of ``game_id``, held around every change of it."""
        return self._locks.setdefault(game_id, asyncio.Lock())

    def stamp(self, game_id: int) -> tuple[int, int]:
        """Where forgetting stands for ``game_id``, taken before it is read."""
        return self._epoch, self._forgotten.get(game_id, 0)

    def keep(self, live: LiveGame, stamp: tuple[int, int]) -> None:
        """Keep ``live`` in memory unless it was forgotten since ``stamp`` was taken (it
        may then have been read before the change that made it stale)."""
        if self.stamp(live.game_id) == stamp:
            self._games[live.game_id] = live

    def forget(self, game_id: int) -> None:
        """Drop the copy of ``game_id``: the next request reads it again."""
        self._games.pop(game_id, None)
        self._forgotten[game_id] = self._forgotten.get(game_id, 0) + 1

    def forget_all(self) -> None:
        """Drop every game (news of other processes' changes may be lost)."""
        self._games.clear()
        self._epoch += 1
