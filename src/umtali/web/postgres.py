"""What the store does differently on PostgreSQL: its connection pool, and the two
frequent writes (a move, a heartbeat) each sent as one statement.

A move stored as the ORM would store it costs six round trips to the database: a ping
of the pooled connection, ``BEGIN``, the check that the move is the hand's next one, the
insert, the notice to other processes and ``COMMIT``. At a few hundred moves a second
those waits, not the work, make the slowest moves slow. Here the check, the insert, the
end of the hand and the notice are one statement (data-modifying ``WITH`` queries),
run on a connection in autocommit, where one statement is one transaction: one round
trip, and still all or nothing.

The pool pings a connection only when it has been idle a while
(:data:`PING_AFTER_IDLE`): a connection in steady use is known to be alive, and an idle
one is the one a restart of the database may have closed. A connection that dies in
use fails its call alone; SQLAlchemy then renews the whole pool.
"""

from __future__ import annotations

import time
from typing import Any, Final

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import URL
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.pool import ConnectionPoolEntry, PoolProxiedConnection

__all__ = ["MOVE_STATEMENT", "PING_AFTER_IDLE", "SEEN_STATEMENT", "postgresql_engine"]

PING_AFTER_IDLE: Final = 2.0
"""Seconds a pooled connection may rest before it is pinged on its next checkout. Under
load every connection is used many times a second and none is pinged; a database
restart takes longer than this, so a connection it closed has rested longer."""

_RESTED_SINCE: Final = "umtali_rested_since"
"""Where a pooled connection's record keeps the moment it was last checked in."""

MOVE_STATEMENT: Final = text(
    """
    WITH probe AS (
        SELECT games.finished_at,
               hands.hand_index AS hand_found,
               hands.ended_at,
               (SELECT count(*) FROM moves
                 WHERE moves.game_id = :game AND moves.hand_index = :hand) AS moves_stored
          FROM games
          LEFT JOIN hands ON hands.game_id = games.id AND hands.hand_index = :hand
         WHERE games.id = :game
    ), stored AS (
        INSERT INTO moves (game_id, hand_index, move_index, text, created_at)
        SELECT :game, :hand, :move_index, :text, :created_at
          FROM probe
         WHERE probe.finished_at IS NULL
           AND probe.hand_found IS NOT NULL
           AND probe.ended_at IS NULL
           AND probe.moves_stored = :move_index
        RETURNING 1
    ), ended AS (
        UPDATE hands
           SET score_0 = :score_0, score_1 = :score_1, ended_at = :created_at
         WHERE hands.game_id = :game AND hands.hand_index = :hand
           AND CAST(:ends AS boolean)
           AND EXISTS (SELECT 1 FROM stored)
        RETURNING 1
    ), told AS (
        SELECT pg_notify(:channel, :payload) FROM stored
    )
    SELECT probe.finished_at, probe.hand_found, probe.ended_at, probe.moves_stored,
           (SELECT count(*) FROM stored) + (SELECT count(*) FROM ended)
             + (SELECT count(*) FROM told) AS written
      FROM probe
    """
)
"""Store a move if, and only if, it is the next of a hand that is dealt and not over, in
a game not finished; end the hand with its scores when ``ends``; tell other processes.
Returns the probe (as ``_MOVE_PROBE`` in the store reads it) and what was written, or
no row when the game does not exist. Two processes storing the same index both pass the
probe, and the primary key lets one in: the other gets an ``IntegrityError``."""

SEEN_STATEMENT: Final = text(
    """
    WITH seen AS (
        UPDATE seats SET last_seen_at = :last_seen_at
         WHERE seats.game_id = :game AND seats.seat = :seat_number
        RETURNING 1
    ), told AS (
        SELECT pg_notify(:channel, :payload) FROM seen WHERE CAST(:announce AS boolean)
    )
    SELECT (SELECT count(*) FROM seen) AS seen, (SELECT count(*) FROM told) AS told
    """
)
"""Note when a seat's player was seen, and tell it on the presence channel when asked:
returns how many seats were marked (0 when there is no such seat played by link)."""


def postgresql_engine(url: URL, *, pool_size: int, max_overflow: int) -> Engine:
    """An engine on PostgreSQL whose pool pings a connection only after it has rested
    :data:`PING_AFTER_IDLE` seconds, and hands out a fresh one if the ping fails."""
    engine = create_engine(url, pool_size=pool_size, max_overflow=max_overflow)

    @event.listens_for(engine, "checkin")
    def _rest(_dbapi_connection: Any, record: ConnectionPoolEntry) -> None:
        record.info[_RESTED_SINCE] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _wake(
        dbapi_connection: Any, record: ConnectionPoolEntry, _proxy: PoolProxiedConnection
    ) -> None:
        rested_since = record.info.get(_RESTED_SINCE)
        if rested_since is None or time.monotonic() - rested_since < PING_AFTER_IDLE:
            return
        try:
            engine.dialect.do_ping(dbapi_connection)
        except Exception as error:
            # The pool discards this connection and checks out another (three tries).
            raise DisconnectionError(f"a pooled connection was closed: {error}") from error

    return engine
