"""The server's storage: games, seats, decks and moves in SQLite or PostgreSQL.

The server holds the truth, and this is where it keeps it. A :class:`Store` writes each
fact in a transaction of its own and commits it before returning, so whatever a caller
acknowledges after a call has returned survives a ``kill -9`` of the process. Several
server processes may share one PostgreSQL database: when two of them try to store a
move at the same index of the same hand, the database's primary key lets one in and the
other gets a :class:`MoveConflict` (docs/WEB.md tells the whole scheme).

A game of any registered game is stored as what replays it, its record's facts, and
read back by replaying it through its engine with :func:`umtali.kernel.record.replay_any`,
the same check a saved record passes:

>>> import tempfile, os
>>> from umtali import games
>>> from umtali.kernel.deck import seeded_deck
>>> folder = tempfile.TemporaryDirectory()
>>> store = Store.open(f"sqlite:///{os.path.join(folder.name, 'umtali.db')}")
>>> session = games.get("umtali").maker().new(seed=1, humans={0}, length="hand")
>>> new = store.create_game(session.match, seats=(0,))
>>> store.seat_for_secret(new.secrets[0]) == SeatRef(new.game_id, 0)
True
>>> commitment = store.start_hand(new.game_id, 0, seeded_deck(7))
>>> store.append_move(new.game_id, 0, 0, "keep")
>>> store.load_match(new.game_id).hands[0].moves_played()
[Move.keep()]
>>> store.close(); folder.cleanup()

The database is named by a URL (:func:`database_url`): an SQLite file by default,
``umtali.db`` in the current folder, or ``DATABASE_URL`` from the environment, e.g.
``postgresql://user@host/umtali``. ``Store.open`` brings its tables up to date with the
Alembic migrations shipped in ``umtali.web.migrations``.

On PostgreSQL every change to a game also sends ``NOTIFY umtali_game, '<token>:<game
id>'`` in its own transaction, so the notice goes out if and only if the change is
committed; a seat's arrival or departure sends ``umtali_presence`` the same way. The
token is the store's own random mark (:attr:`Store.token`), so that a process knows its
own notices. Each server process listens (:class:`umtali.web.server.PostgresBroadcaster`).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Self, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    URL,
    Connection,
    Engine,
    Row,
    and_,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    or_,
    select,
    text,
)
from sqlalchemy import update as sa_update
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, IntegrityError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import ConnectionPoolEntry

from umtali import games
from umtali.games.api import GameSpec
from umtali.kernel.cards import card_ascii, mask_of, parse_card
from umtali.kernel.deck import check_deck
from umtali.kernel.players import MatchError, check_name
from umtali.kernel.record import (
    RECORD_FORMAT,
    RECORD_VERSION,
    RecordError,
    dumps,
    record_of,
    replay_any,
)
from umtali.web.group_commit import GroupCommit
from umtali.web.models import GameRow, HandRow, MoveRow, OpenTableRow, SeatRow
from umtali.web.postgres import MOVE_STATEMENT, SEEN_STATEMENT, postgresql_engine

__all__ = [
    "DEFAULT_URL",
    "GAME_CHANNEL",
    "INTEGERS",
    "PRESENCE_CHANNEL",
    "Deal",
    "DeckCommitment",
    "GameNews",
    "HandConflict",
    "MoveConflict",
    "NewGame",
    "OpenTable",
    "OpenTableFull",
    "OpenTableGone",
    "OpenTerms",
    "RematchConflict",
    "SeatInfo",
    "SeatRef",
    "SeatTaken",
    "Store",
    "StoreError",
    "StoredGame",
    "StoredHand",
    "TableWait",
    "database_url",
    "deck_commitment",
    "deck_text",
    "read_notice",
    "rematch_secret",
    "secret_hash",
]

DEFAULT_URL: Final = "sqlite:///umtali.db"
"""The database when ``DATABASE_URL`` names none: the file ``umtali.db`` in the current
folder (with ``umtali.db-wal`` and ``umtali.db-shm`` beside it while it is open)."""

MIGRATIONS: Final = Path(__file__).with_name("migrations")

INTEGERS: Final = range(-(2**31), 2**31)
"""The numbers a column of the tables' ``INTEGER`` holds (32 bits on PostgreSQL; ids
in SQLite could grow past it only after 2,147,483,647 games). A game id or hand index
outside names no row, and is answered as such without asking the database, which
would fail on it (SQLite raises ``OverflowError`` from 2**63, PostgreSQL an error of
range)."""

SECRET_BYTES: Final = 32
"""A seat's secret carries 256 random bits: a link can be neither guessed nor worked out
from another link."""

SALT_BYTES: Final = 32
"""The deck commitment's salt. Without it, a player could test the few deck orders that
agree with his own cards against the commitment; 256 bits leave nothing to test."""

_MAX_SECRET_CHARS: Final = 200
"""A secret longer than this is no secret the store gave out, and is not hashed."""

_SQLITE_BUSY_MS: Final = 10_000
"""How long an SQLite connection waits for another's write to finish before failing. A
write here takes milliseconds; ten seconds is room for a slow disk, not a wait anyone
plans for."""

POOL_CONNECTIONS: Final = 16
"""The connections a store keeps open to its database. The server runs at most this
many database calls at once (:attr:`Store.connections`), so no call waits for a
connection while holding a thread, and none opens and closes one for a single call (a
new PostgreSQL connection starts a process)."""

POOL_OVERFLOW: Final = 4
"""Connections opened beyond :data:`POOL_CONNECTIONS` when a caller other than the
server's bounded calls (a test, a script) needs one, closed again after use."""

MIGRATION_LOCK: Final = 0x756D74616C69
"""The PostgreSQL advisory lock taken while migrating ("umtali" in ASCII): servers started
together migrate one after the other, and the later ones find nothing left to do."""

OPEN_TABLES_LOCK: Final = 0x756D74616C6A
"""The PostgreSQL advisory lock taken, for its transaction, by whoever opens a table: the
open tables are counted and the new one stored one opener at a time, so no limit is
passed by openers of several processes at once (SQLite's writers take turns anyway)."""

_MIGRATING: Final = threading.Lock()
"""Held while this process migrates: Alembic's ``context`` and ``op`` are module-wide, so
two threads migrating at once would each run through the other's."""

GAME_CHANNEL: Final = "umtali_game"
"""The PostgreSQL channel told the id of each game that changed (a deal, a move, a
hand-over, a rematch), in the transaction of the change."""

PRESENCE_CHANNEL: Final = "umtali_presence"
"""The PostgreSQL channel told the id of a game one of whose players came or went: the
game itself did not change."""

_BEGIN: Final = "umtali_begin"
"""The execution option naming how an SQLite transaction begins (see ``_sqlite_engine``)."""


_NOTIFY: Final = text("SELECT pg_notify(:channel, :payload)")

_MOVES_IN_HAND: Final = (
    select(func.count())
    .select_from(MoveRow)
    .where(MoveRow.game_id == bindparam("game"), MoveRow.hand_index == bindparam("hand"))
    .scalar_subquery()
)

_MOVE_PROBE: Final = (
    select(GameRow.finished_at, HandRow.hand_index, HandRow.ended_at, _MOVES_IN_HAND)
    .select_from(GameRow)
    .outerjoin(
        HandRow,
        (HandRow.game_id == GameRow.id) & (HandRow.hand_index == bindparam("hand")),
    )
    .where(GameRow.id == bindparam("game"))
)
"""Whether a move may be stored, in one read: the game's end, the hand (if dealt) and
its end, and how many moves the hand holds. Built once: a move runs only the query."""

_MOVE_INSERT: Final = insert(MoveRow)

_SEEN: Final = (
    sa_update(SeatRow)
    .where(SeatRow.game_id == bindparam("game"), SeatRow.seat == bindparam("seat_number"))
    .values(last_seen_at=bindparam("last_seen_at"))
)

_HAND_END: Final = (
    sa_update(HandRow)
    .where(HandRow.game_id == bindparam("game"), HandRow.hand_index == bindparam("hand"))
    .values(
        score_0=bindparam("score_0"),
        score_1=bindparam("score_1"),
        ended_at=bindparam("ended_at"),
    )
)


_HEAD_COLUMNS: Final = frozenset(("match", "first_dealer", "party"))
"""The keys of a record's head that the ``games`` table keeps besides its envelope's:
``kind``, ``first_dealer`` and ``party`` (a game's spec names those its records have)."""


class StoreError(Exception):
    """What the store cannot do: a game, hand or seat that does not exist, a move out of
    turn order, a write to a finished hand or game, data that no longer replays."""


class MoveConflict(StoreError):  # noqa: N818 - a lost race, not a mistake
    """The index a move was to take is taken: another server process (or an earlier try
    of this one) stored a move there first. Reload the game and look again."""


class HandConflict(StoreError):  # noqa: N818 - a lost race, not a mistake
    """The hand is dealt already: another server process started it first."""


class RematchConflict(StoreError):  # noqa: N818 - a lost race, not a mistake
    """The game has its rematch already: the other player (or another process) asked
    first. :meth:`Store.rematch_of` names it."""


class SeatTaken(StoreError):  # noqa: N818 - a lost race, not a mistake
    """The seat of an open table was taken by someone else first."""


class OpenTableGone(StoreError):  # noqa: N818 - an answer, not a fault
    """A table that is not open (never was, nobody sat down in time, or its opener gave
    the seat to the computer instead)."""


class OpenTableFull(StoreError):  # noqa: N818 - a limit, not a fault
    """A table not opened: its opener's address has as many open as it may
    (``per_address``), or the server has (not ``per_address``)."""

    def __init__(self, message: str, *, per_address: bool) -> None:
        super().__init__(message)
        self.per_address = per_address


@dataclass(frozen=True)
class OpenTerms:
    """How a table is opened to anyone (:meth:`Store.create_game`): which seat waits,
    the opener's address (kept as a hash), until when it waits, and how many tables may
    wait at once from one address and in all."""

    seat: int
    address: str
    opened_at: datetime
    wait: timedelta
    per_address: int
    in_all: int


@dataclass(frozen=True)
class OpenTable:
    """A table waiting for whoever sits down, as the list shows it: its game, rules and
    length, the name of the one who waits, when he opened it and until when it waits."""

    game_id: int
    game: str
    rules: str
    kind: str
    waiting: str
    opened_at: datetime
    wait_until: datetime


@dataclass(frozen=True)
class TableWait:
    """A game's open table as its seats are told of it: the seat that waits, until when,
    and whether someone sat down or the opener closed it."""

    seat: int
    wait_until: datetime
    sat: bool
    closed: bool

    def waiting(self, now: datetime) -> bool:
        """Whether the table still waits and is listed at ``now``."""
        return not self.sat and not self.closed and now < self.wait_until


@dataclass(frozen=True)
class SeatRef:
    """A seat of a stored game: ``seat`` is 0 for Player 1, 1 for Player 2."""

    game_id: int
    seat: int


@dataclass(frozen=True)
class SeatInfo:
    """A seat played by a link, as presence needs it: when it was given out, when its
    player was last seen, and since when the computer plays it (``None``: its person
    does). Times are in UTC."""

    seat: int
    created_at: datetime
    last_seen_at: datetime | None
    handed_over_at: datetime | None


@dataclass(frozen=True)
class StoredGame:
    """A game as one read of the database holds it (:meth:`Store.load_game`): its match
    replayed, its seats played by link, its rematch, each hand's commitment, and how
    many moves each hand has stored."""

    match: Any
    seats: list[SeatInfo]
    rematch: int | None
    commitments: dict[int, str]
    moves: dict[int, int]
    """The moves stored in each hand, by hand index."""
    table: TableWait | None = None
    """The game's open table, if it was opened to anyone."""


@dataclass(frozen=True)
class StoredHand:
    """A hand as it was dealt and stored: its deck (of card numbers), its dealer and
    seats as the rules named them, its commitment."""

    hand_index: int
    deck: list[int]
    dealer: int
    seats: tuple[int, ...] | None
    commitment: str


@dataclass(frozen=True)
class GameNews:
    """What a game stored since a copy of it was read (:meth:`Store.game_news`): the
    hands dealt and the moves played after it, in order, with the seats and rematch as
    they are now."""

    hands: list[StoredHand]
    moves: list[tuple[int, int, str]]
    """(hand index, move index, text) of each move, in the order played within a hand."""
    seats: list[SeatInfo]
    rematch: int | None
    players: list[str]
    """The players' names as they are now (a person may give his at his seat)."""
    table: TableWait | None = None
    """The game's open table, if it was opened to anyone."""


@dataclass(frozen=True)
class NewGame:
    """A game just created: its id, and the secret of each seat played through a link.
    The secrets are given out here once: the store keeps only their hashes."""

    game_id: int
    secrets: Mapping[int, str]


@dataclass(frozen=True)
class Deal:
    """A hand to deal: its deck, in order, who deals it (``None``: the store replays the
    game to find out), the game's players at its seats in a game with a party, and the
    salt of its commitment (fresh random bytes when ``None``)."""

    deck: Sequence[int]
    dealer: int | None = None
    seats: tuple[int, ...] | None = None
    salt: bytes | None = None


@dataclass(frozen=True)
class DeckCommitment:
    """The published commitment to a hand's deck, and, once the hand is over, what
    proves it: the salt and the deck. Anyone can then check
    ``deck_commitment(salt, deck) == commitment``."""

    commitment: str
    salt: bytes | None
    deck: tuple[int, ...] | None


# -- pure helpers ---------------------------------------------------------------------------


def database_url(environ: Mapping[str, str] = os.environ) -> str:
    """``DATABASE_URL`` from ``environ`` when it is set and not blank, else
    :data:`DEFAULT_URL`.

    >>> database_url({}), database_url({"DATABASE_URL": "postgresql:///umtali"})
    ('sqlite:///umtali.db', 'postgresql:///umtali')
    """
    return environ.get("DATABASE_URL", "").strip() or DEFAULT_URL


def read_notice(payload: str) -> tuple[str, int] | None:
    """The token of the store that sent a notice and the id of its game, from the
    notice's payload (``<token>:<game id>``); ``None`` for a payload of any other shape.

    >>> read_notice("9f2c41d0aa03b7e5:17"), read_notice("17"), read_notice("x:y")
    (('9f2c41d0aa03b7e5', 17), None, None)
    """
    token, colon, game = payload.partition(":")
    if not (colon and token and game.isascii() and game.isdigit()):
        return None
    return token, int(game)


def deck_text(deck: Sequence[int]) -> str:
    """A deck order as the text its commitment hashes: its cards' ASCII names (52 for
    the whole pack), top of the deal first, separated by single spaces.

    >>> deck_text(range(52)).split()[:3]
    ['Ac', '2c', '3c']
    """
    return " ".join(card_ascii(card) for card in deck)


def deck_commitment(salt: bytes, deck: Sequence[int]) -> str:
    """The commitment to a deck: SHA-256, in hex, of ``salt`` followed by
    :func:`deck_text` in ASCII.

    >>> salt = bytes(32)
    >>> deck_commitment(salt, range(52)) == hashlib.sha256(
    ...     salt + deck_text(range(52)).encode("ascii")).hexdigest()
    True
    """
    return hashlib.sha256(salt + deck_text(deck).encode("ascii")).hexdigest()


def secret_hash(secret: str) -> str:
    """The SHA-256 of a seat's secret, in hex: what the store keeps instead of it.

    A plain hash is enough (no salt, no slow hash): a secret is 256 random bits, not a
    password a person chose, so there is no list of likely secrets to try.
    """
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def rematch_secret(secret: str, game_id: int, seat: int) -> str:
    """The secret of ``seat`` in the rematch ``game_id``, for the holder of ``secret``,
    his link to the game before: an HMAC-SHA256 keyed with that secret, in URL-safe
    base64 (43 characters, 256 bits).

    Worked out, never stored: the server keeps only hashes, so it cannot look up the
    new link of the player who did not ask for the rematch. It works it out again each
    time he comes back with his old link, and nobody without that link can.

    >>> old = "k" * 43
    >>> rematch_secret(old, 8, 1) == rematch_secret(old, 8, 1) != rematch_secret(old, 8, 0)
    True
    >>> len(rematch_secret(old, 8, 1))
    43
    """
    message = f"umtali rematch: game {game_id}, seat {seat}".encode()
    digest = hmac.new(secret.encode("utf-8"), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode("ascii").rstrip("=")


def _now() -> datetime:
    return datetime.now(UTC)


def _spec_of(game: GameRow) -> GameSpec:
    """The game a stored game is of: a :class:`StoreError` if no game of that name is
    registered in this process."""
    try:
        return games.get(game.game)
    except LookupError:
        raise StoreError(
            f"game {game.id} is a game of {game.game!r}, which this server does not have"
        ) from None


def _utc(moment: datetime | None) -> datetime | None:
    """A stored time as UTC: SQLite keeps no time zone, and the store writes UTC only."""
    return None if moment is None else moment.replace(tzinfo=moment.tzinfo or UTC)


def _engine_url(url: str) -> URL:
    """The SQLAlchemy URL for ``url``: plain ``postgresql://`` (or ``postgres://``) URLs
    get the psycopg 3 driver, which the ``web`` extra installs."""
    try:
        parsed = make_url(url)
    except ArgumentError as e:
        raise StoreError(f"{url!r} is not a database URL: {e}") from None
    if parsed.drivername in ("postgres", "postgresql"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    if parsed.get_backend_name() not in ("sqlite", "postgresql"):
        raise StoreError(
            f"the store runs on SQLite or PostgreSQL, not {parsed.get_backend_name()!r}"
        )
    if parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:"):
        raise StoreError(
            "an in-memory SQLite database would vanish with its connection: name a file,"
            " like sqlite:///umtali.db"
        )
    return parsed


def _sqlite_engine(url: URL) -> Engine:
    """An engine on an SQLite file, set up for a server that must not lose a move.

    Every connection turns on write-ahead logging (readers never wait for the writer),
    a wait for the write lock instead of an instant failure, foreign keys, and a full
    sync at each commit (so a commit survives a power cut, not only a killed process).
    The sqlite3 module's own transaction handling is switched off: it does not begin a
    transaction before DDL or SELECT, so migrations and reads would not be atomic.
    SQLAlchemy's ``begin`` event begins each one instead, with ``BEGIN IMMEDIATE`` for
    writes: a write transaction takes the write lock before it reads, so two writers
    queue instead of both reading, then one failing when it comes to write.
    """
    _create_private_file(url.database)
    engine = create_engine(url, pool_size=POOL_CONNECTIONS, max_overflow=POOL_OVERFLOW)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {_SQLITE_BUSY_MS}")
        _use_wal(cursor)
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA synchronous = FULL")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Any) -> None:
        mode = connection.get_execution_options().get(_BEGIN, "DEFERRED")
        connection.exec_driver_sql(f"BEGIN {mode}")

    return engine


def _use_wal(cursor: Any) -> None:
    """Put the database in write-ahead-log mode, once for good: the file remembers it.

    The switch needs the file to itself, and SQLite refuses it at once, without the
    busy timeout's wait, while another connection writes (as another server starting
    on the same new file may). So this waits here, for as long as the timeout says.
    """
    deadline = time.monotonic() + _SQLITE_BUSY_MS / 1000
    while cursor.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
        try:
            cursor.execute("PRAGMA journal_mode = WAL")
        except sqlite3.OperationalError:
            if time.monotonic() > deadline:
                raise
        else:
            if time.monotonic() > deadline:  # refused without an error: it never will
                raise StoreError("this SQLite file cannot keep a write-ahead log")
        time.sleep(0.01)


def _create_private_file(database: str | None) -> None:
    """Create the SQLite file readable by its owner only, if it does not exist: it holds
    the decks of hands in play. SQLite gives its -wal and -shm files the same mode."""
    if not database or database.startswith("file:"):
        return
    try:
        os.close(os.open(database, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    except FileExistsError:
        pass
    except OSError as e:
        raise StoreError(f"cannot create the database file {database!r}: {e.strerror}") from None


def _migrate(engine: Engine) -> None:
    """Apply every migration the database lacks, in one transaction.

    The configuration is built here, so no ``alembic.ini`` is needed where the server
    runs. The transaction is the store's own: on SQLite it begins with ``BEGIN
    IMMEDIATE`` and on PostgreSQL it takes an advisory lock first, so two servers
    starting at once migrate one after the other.

    SQLite changes a table's constraints by copying the table and dropping the old one
    (Alembic's batch mode), which its foreign keys refuse while other tables' rows
    point at it. So on SQLite the keys are turned off around the migration (outside
    the transaction: SQLite takes the switch only there), checked whole before it
    commits, and turned on again, as SQLite's own procedure for changing a table is.
    """
    config = Config()
    # The option is read through configparser, to which "%" is special.
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    writer = engine.execution_options(**{_BEGIN: "IMMEDIATE"})
    with _MIGRATING, writer.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        raw = connection.connection.dbapi_connection
        assert raw is not None
        if sqlite:
            raw.execute("PRAGMA foreign_keys = OFF")
        try:
            with connection.begin():
                if not sqlite:
                    connection.execute(
                        text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK}
                    )
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
                if sqlite and connection.exec_driver_sql("PRAGMA foreign_key_check").first():
                    raise StoreError("a migration left a row that points at no row")
        finally:
            if sqlite:
                raw.execute("PRAGMA foreign_keys = ON")


T = TypeVar("T")

# -- the store ------------------------------------------------------------------------------


class Store:
    """The server's database. Open one with :meth:`open`; each method is one transaction,
    committed before it returns. A store may be used from several threads at once, and
    several stores (in one process or many) may share one database."""

    def __init__(self, engine: Engine) -> None:
        """Use :meth:`open`, which also brings the tables up to date."""
        self._engine = engine
        self._reads = sessionmaker(engine, expire_on_commit=False)
        self._write_engine = engine.execution_options(**{_BEGIN: "IMMEDIATE"})
        self._writes = sessionmaker(self._write_engine, expire_on_commit=False)
        self._postgresql = engine.dialect.name == "postgresql"
        # On PostgreSQL a move and a heartbeat are each one statement, which in
        # autocommit is its own transaction: no BEGIN and COMMIT round trips.
        self._one_statement = engine.execution_options(isolation_level="AUTOCOMMIT")
        # SQLite lets one connection write at a time, and a writer that finds the lock
        # taken sleeps in its busy handler, up to 100 ms a time, instead of being woken
        # when the lock is freed. This process's writers therefore queue here, where a
        # waiter wakes at once; the busy handler is left to writers of other processes.
        self._write_turn: AbstractContextManager[Any] = (
            nullcontext() if self._postgresql else threading.Lock()
        )
        self._grouped: GroupCommit[Connection] = GroupCommit(
            self._row_transaction, Connection.begin_nested
        )
        self.token = secrets.token_hex(8)
        """This store's mark on its notices (``<token>:<game id>``), by which a
        listener knows the changes made through this store from other processes'. It
        is random, and it tells nothing of any game or seat."""

    @property
    def connections(self) -> int:
        """How many database calls may run at once without waiting for a connection."""
        return POOL_CONNECTIONS

    @property
    def is_postgresql(self) -> bool:
        """Whether the database is PostgreSQL (which announces changes by ``NOTIFY``)."""
        return self._postgresql

    @classmethod
    def open(cls, url: str | None = None) -> Store:
        """Open the database at ``url`` (:func:`database_url` when ``None``) and apply
        any migration it lacks. An SQLite file that does not exist is created, readable
        by its owner only."""
        parsed = _engine_url(database_url() if url is None else url)
        if parsed.get_backend_name() == "sqlite":
            engine = _sqlite_engine(parsed)
        else:
            engine = postgresql_engine(
                parsed, pool_size=POOL_CONNECTIONS, max_overflow=POOL_OVERFLOW
            )
        try:
            _migrate(engine)
        except BaseException:
            engine.dispose()
            raise
        return cls(engine)

    @property
    def url(self) -> str:
        """The database's URL, with any password hidden."""
        return self._engine.url.render_as_string(hide_password=True)

    @property
    def engine(self) -> Engine:
        """The SQLAlchemy engine (for LISTEN/NOTIFY and for tests)."""
        return self._engine

    def close(self) -> None:
        """Close every pooled connection. Nothing is lost: everything was committed."""
        self._engine.dispose()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    @contextmanager
    def _write(self, announce: int | None = None, channel: str = GAME_CHANNEL) -> Iterator[Session]:
        """A write transaction; ``announce``: the game whose change it is, told on
        ``channel`` (PostgreSQL) when, and only if, the transaction commits."""
        with self._write_turn, self._writes() as session, session.begin():
            yield session
            if announce is not None and self._postgresql:
                session.execute(_NOTIFY, self._notice(channel, announce))

    def _write_rows(
        self,
        work: Callable[[Connection], T],
        announce: int | None,
        channel: str = GAME_CHANNEL,
    ) -> T:
        """:meth:`_write` without the ORM's session, for the frequent writes (a move, a
        heartbeat): the same lock and notice, at a fraction of the cost.

        On SQLite, which lets one connection write at a time, the writes of threads that
        come together are committed together (:mod:`umtali.web.group_commit`), each in
        its own savepoint so that its failure undoes it alone. PostgreSQL lets many
        transactions write at once and groups their commits itself, so there each
        write is its own transaction, on its own connection, as before."""
        if not self._postgresql:
            return self._grouped.run(work)
        with self._row_transaction() as connection:
            done = work(connection)
            if announce is not None:
                connection.execute(_NOTIFY, self._notice(channel, announce))
            return done

    @contextmanager
    def _row_transaction(self) -> Iterator[Connection]:
        """The transaction of one :meth:`_write_rows` write (on SQLite, of a group)."""
        with self._write_turn, self._write_engine.begin() as connection:
            yield connection

    def _notice(self, channel: str, game_id: int) -> dict[str, str]:
        return {"channel": channel, "payload": f"{self.token}:{game_id}"}

    @contextmanager
    def _read(self) -> Iterator[Session]:
        with self._reads() as session, session.begin():
            yield session

    # -- games and seats -----------------------------------------------------------------

    def create_game(
        self,
        match: object,
        *,
        seats: Sequence[int] = (0, 1),
        rematch_of: int | None = None,
        names: Mapping[int, str] | None = None,
        open_table: OpenTerms | None = None,
    ) -> NewGame:
        """Store a new match of any registered game, before its first deal, and give
        each seat in ``seats`` (the seats played through a link) a fresh secret.

        The game's row holds what its record's head holds (:func:`record_of`): which
        game, its rules, players and meta, and what its game keeps besides
        (:attr:`~umtali.games.api.GameSpec.record_head`: how long a match is, who deals
        first, how a party is seated), so the game replays from its rows alone. A match
        no record can hold is refused as :func:`umtali.kernel.record.dumps` refuses it
        (a ``RecordError``).

        ``rematch_of``: the finished game this one is the rematch of. Its seats get no
        secret here: each is worked out from the seat's link to that game
        (:func:`rematch_secret`) and stored when its player comes back with it
        (:meth:`claim_seat`). A game has one rematch: :class:`RematchConflict` when it
        has one already.

        ``names``: the players' names at some seats, in place of the match's (a
        person's at his seat); each as :func:`~umtali.kernel.players.check_name` allows.

        ``open_table``: the game is opened to anyone, its seat ``open_table.seat`` given
        no secret until someone sits down (:meth:`sit`); refused
        (:class:`OpenTableFull`), and nothing stored, when its opener's address or the
        server has as many tables waiting as it may.
        """
        dumps(match)  # refuses a meta no record can hold
        data = record_of(match)
        spec = games.get(data.get("game", games.DEFAULT_GAME))
        if data["hands"]:
            raise StoreError("a game is stored before its first deal")
        unkept = sorted(set(spec.record_head) - _HEAD_COLUMNS)
        if unkept:
            raise StoreError(f"{spec.title}'s records have {unkept}, which no column keeps")
        players = len(data["players"])
        if len(set(seats)) != len(seats) or not set(seats) <= set(range(players)):
            raise StoreError(
                f"the seats played by link are some of 0 to {players - 1}, each at most"
                f" once, not {list(seats)!r}"
            )
        named = list(data["players"])
        for seat, name in (names or {}).items():
            if not 0 <= seat < players:
                raise StoreError(f"a name is given to one of seats 0 to {players - 1}, not {seat}")
            try:
                check_name(seat, name)
            except MatchError as e:
                raise StoreError(str(e)) from None
            named[seat] = name
        return self._insert_game(
            {
                "game": spec.name,
                "kind": data.get("match", "game"),
                "rules": data["rules"],
                "players": named,
                # A party seats its players itself: its record has no first dealer.
                "first_dealer": data.get("first_dealer", 0),
                "meta": data["meta"],
                "party": data.get("party"),
            },
            seats,
            rematch_of,
            open_table,
        )

    def _insert_game(
        self,
        columns: dict[str, Any],
        seats: Sequence[int],
        rematch_of: int | None,
        open_table: OpenTerms | None = None,
    ) -> NewGame:
        """Store a game row of ``columns`` with a seat row for each of ``seats``, given a
        fresh secret unless the game is a rematch (see :meth:`create_game`)."""
        now = _now()
        given = (
            {}
            if rematch_of is not None
            else {
                seat: secrets.token_urlsafe(SECRET_BYTES)
                for seat in sorted(seats)
                if open_table is None or seat != open_table.seat
            }
        )
        hashes: dict[int, str | None] = dict.fromkeys(seats)
        hashes.update((seat, secret_hash(secret)) for seat, secret in given.items())
        try:
            with self._write(announce=rematch_of) as session:
                if rematch_of is not None:
                    before = self._game(session, rematch_of)
                    if before.finished_at is None:
                        raise StoreError(f"game {rematch_of} is still in play: no rematch yet")
                if open_table is not None:
                    self._check_open_room(session, open_table)
                game = GameRow(**columns, created_at=now, rematch_of=rematch_of)
                session.add(game)
                session.flush()  # assigns the id
                session.add_all(
                    SeatRow(game_id=game.id, seat=seat, secret_hash=hashed, created_at=now)
                    for seat, hashed in sorted(hashes.items())
                )
                if open_table is not None:
                    session.add(
                        OpenTableRow(
                            game_id=game.id,
                            seat=open_table.seat,
                            address=secret_hash(open_table.address),
                            opened_at=open_table.opened_at,
                            wait_until=open_table.opened_at + open_table.wait,
                        )
                    )
                game_id = game.id
        except IntegrityError:
            raise RematchConflict(f"game {rematch_of} has its rematch already") from None
        return NewGame(game_id, given)

    def _check_open_room(self, session: Session, terms: OpenTerms) -> None:
        """Refuse (:class:`OpenTableFull`) a table that would pass a limit of the tables
        waiting at ``terms.opened_at``: its address's, or the server's."""
        if self._postgresql:
            session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": OPEN_TABLES_LOCK})
        waiting = (
            select(func.count()).select_from(OpenTableRow).where(*_waiting_at(terms.opened_at))
        )
        if (session.scalar(waiting) or 0) >= terms.in_all:
            raise OpenTableFull(
                f"the server has {terms.in_all} tables waiting for players, as many as it"
                " lists: sit down at one of them, or try again in a few minutes",
                per_address=False,
            )
        mine = waiting.where(OpenTableRow.address == secret_hash(terms.address))
        if (session.scalar(mine) or 0) >= terms.per_address:
            raise OpenTableFull(
                f"you have {terms.per_address} tables waiting already, as many as one player"
                " may: wait for someone to sit down at one, or play the computer there",
                per_address=True,
            )

    def open_tables(self, at: datetime, limit: int) -> list[OpenTable]:
        """The tables waiting at ``at`` for whoever sits down, the longest waiting first,
        at most ``limit``. Nothing secret: no seat's secret or hash, no address."""
        query = (
            select(OpenTableRow, GameRow)
            .join(GameRow, GameRow.id == OpenTableRow.game_id)
            .where(*_waiting_at(at), GameRow.finished_at.is_(None))
            .order_by(OpenTableRow.opened_at, OpenTableRow.game_id)
            .limit(limit)
        )
        with self._read() as session:
            return [
                OpenTable(
                    game_id=table.game_id,
                    game=game.game,
                    rules=str(game.rules.get("preset", "standard")),
                    kind=game.kind,
                    waiting=game.players[0],
                    opened_at=_utc(table.opened_at) or at,
                    wait_until=_utc(table.wait_until) or at,
                )
                for table, game in session.execute(query).all()
            ]

    def sit(self, game_id: int, name: str, *, at: datetime) -> tuple[int, str]:
        """Sit ``name`` down at the open table ``game_id`` at ``at``: its waiting seat,
        with a fresh secret (given out here once), and the seat's player named. Of two
        who sit down at once exactly one gets the seat, the other :class:`SeatTaken`;
        a table not waiting is :class:`OpenTableGone`. The game is announced as changed."""
        if game_id not in INTEGERS:
            raise OpenTableGone(f"there is no open table {_shown(game_id)}")
        with self._write(announce=game_id) as session:
            table = session.get(OpenTableRow, game_id)
            if table is None:
                raise OpenTableGone(f"there is no open table {game_id}")
            taken = session.execute(
                sa_update(OpenTableRow)
                .where(OpenTableRow.game_id == game_id, *_waiting_at(at))
                .values(sat_at=at)
                .execution_options(synchronize_session=False)
            )
            if taken.rowcount != 1:  # type: ignore[attr-defined]
                session.refresh(table)
                if table.sat_at is not None:
                    raise SeatTaken("someone sat down at this table first: choose another")
                raise OpenTableGone(
                    "this table is no longer open: nobody sat down in time, or its player"
                    " chose to play the computer"
                )
            secret = secrets.token_urlsafe(SECRET_BYTES)
            session.execute(
                sa_update(SeatRow)
                .where(
                    SeatRow.game_id == game_id,
                    SeatRow.seat == table.seat,
                    SeatRow.secret_hash.is_(None),
                )
                .values(secret_hash=secret_hash(secret), last_seen_at=at)
                .execution_options(synchronize_session=False)
            )
            game = self._game(session, game_id)
            players = list(game.players)
            players[table.seat] = name
            game.players = players
            return table.seat, secret

    def play_computer_instead(self, game_id: int, *, at: datetime) -> bool | None:
        """Close the open table ``game_id`` and let the computer play its waiting seat
        from ``at``: ``True`` once done (again: it changes nothing), ``False`` when
        someone sat down first, ``None`` when the game was not opened to anyone. The
        game is announced as changed."""
        with self._write(announce=game_id) as session:
            table = session.get(OpenTableRow, game_id)
            if table is None:
                return None
            session.execute(
                sa_update(OpenTableRow)
                .where(
                    OpenTableRow.game_id == game_id,
                    OpenTableRow.sat_at.is_(None),
                    OpenTableRow.closed_at.is_(None),
                )
                .values(closed_at=at)
                .execution_options(synchronize_session=False)
            )
            session.refresh(table)
            if table.sat_at is not None:
                return False
            seat = session.get(SeatRow, (game_id, table.seat))
            if seat is not None and seat.handed_over_at is None:
                seat.handed_over_at = at
            return True

    @staticmethod
    def _table(session: Session, game_id: int) -> TableWait | None:
        table = session.get(OpenTableRow, game_id)
        if table is None:
            return None
        return TableWait(
            table.seat,
            _utc(table.wait_until) or _now(),
            table.sat_at is not None,
            table.closed_at is not None,
        )

    def rematch_of(self, game_id: int) -> int | None:
        """The id of the rematch of ``game_id``, if one was made."""
        with self._read() as session:
            return self._rematch_of(session, game_id)

    @staticmethod
    def _rematch_of(session: Session, game_id: int) -> int | None:
        found: int | None = session.scalar(select(GameRow.id).where(GameRow.rematch_of == game_id))
        return found

    def claim_seat(self, game_id: int, seat: int, secret: str) -> None:
        """Give ``seat`` of the rematch ``game_id`` its link, whose ``secret`` the caller
        worked out with :func:`rematch_secret`. Claiming it again with the same secret
        changes nothing; a seat that has another link is refused (:class:`StoreError`)."""
        wanted = secret_hash(secret)
        with self._write() as session:
            row = session.get(SeatRow, (game_id, seat))
            if row is None:
                raise StoreError(f"game {game_id} has no seat {seat} played by link")
            if row.secret_hash is None:
                # Claimed at the same moment by another process: its secret is the same.
                session.execute(
                    sa_update(SeatRow)
                    .where(
                        SeatRow.game_id == game_id,
                        SeatRow.seat == seat,
                        SeatRow.secret_hash.is_(None),
                    )
                    .values(secret_hash=wanted)
                )
            elif not hmac.compare_digest(row.secret_hash, wanted):
                raise StoreError(f"game {game_id}: seat {seat} has another link")

    def seat_for_secret(self, secret: str) -> SeatRef | None:
        """The seat whose link carries ``secret``, or ``None``.

        The seat is found by the secret's hash; the hashes are then compared in constant
        time. Looking up a hash tells an attacker nothing about any secret, since he
        would need a secret to produce the hash he looks up.
        """
        if not isinstance(secret, str) or not 0 < len(secret) <= _MAX_SECRET_CHARS:
            return None
        wanted = secret_hash(secret)
        with self._read() as session:
            row = session.scalars(select(SeatRow).where(SeatRow.secret_hash == wanted)).first()
        if row is None or row.secret_hash is None:
            return None
        if not hmac.compare_digest(row.secret_hash, wanted):
            return None
        return SeatRef(row.game_id, row.seat)

    def mark_seen(
        self, seat: SeatRef, *, at: datetime | None = None, announce: bool = False
    ) -> None:
        """Note that the player of ``seat`` was seen ``at`` (now by default);
        ``announce``: he came or went, which is told on :data:`PRESENCE_CHANNEL`."""
        values = {
            "game": seat.game_id,
            "seat_number": seat.seat,
            "last_seen_at": _now() if at is None else at,
        }

        missing = f"game {seat.game_id} has no seat {seat.seat} played by link"
        if self._postgresql:
            told = {**values, **self._notice(PRESENCE_CHANNEL, seat.game_id), "announce": announce}
            with self._one_statement.connect() as connection:
                if connection.execute(SEEN_STATEMENT, told).one().seen != 1:
                    raise StoreError(missing)
            return

        def mark(connection: Connection) -> None:
            if connection.execute(_SEEN, values).rowcount != 1:
                raise StoreError(missing)

        self._write_rows(mark, seat.game_id if announce else None, channel=PRESENCE_CHANNEL)

    def last_seen(self, seat: SeatRef) -> datetime | None:
        """When the player of ``seat`` was last seen (UTC), or ``None`` if never."""
        with self._read() as session:
            row = session.get(SeatRow, (seat.game_id, seat.seat))
            if row is None:
                raise StoreError(f"game {seat.game_id} has no seat {seat.seat} played by link")
            return _utc(row.last_seen_at)

    def seats(self, game_id: int) -> list[SeatInfo]:
        """The seats of ``game_id`` played by a link, by seat (none for a game that does
        not exist)."""
        with self._read() as session:
            return self._seats(session, game_id)

    @staticmethod
    def _seats(session: Session, game_id: int) -> list[SeatInfo]:
        rows = session.scalars(
            select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
        ).all()
        return [
            SeatInfo(
                row.seat,
                _utc(row.created_at) or _now(),
                _utc(row.last_seen_at),
                _utc(row.handed_over_at),
            )
            for row in rows
        ]

    def set_name(self, seat: SeatRef, name: str) -> None:
        """Give the player at ``seat`` the name ``name`` (as
        :func:`~umtali.kernel.players.check_name` allows): the game's record names him so
        from now on. Every process holding the game hears of it (PostgreSQL)."""
        try:
            check_name(seat.seat, name)
        except MatchError as e:
            raise StoreError(str(e)) from None
        with self._write(announce=seat.game_id) as session:
            game = self._game(session, seat.game_id)
            players = list(game.players)
            if not 0 <= seat.seat < len(players):
                raise StoreError(f"game {seat.game_id} has no seat {seat.seat}")
            players[seat.seat] = name
            game.players = players

    def hand_over(self, seat: SeatRef, handed_over: bool, *, at: datetime | None = None) -> None:
        """Let the computer play ``seat`` from now (``at``), or, ``handed_over`` false,
        give it back to its person. The game is announced as changed."""
        with self._write(announce=seat.game_id) as session:
            row = session.get(SeatRow, (seat.game_id, seat.seat))
            if row is None:
                raise StoreError(f"game {seat.game_id} has no seat {seat.seat} played by link")
            row.handed_over_at = (_now() if at is None else at) if handed_over else None

    def version(self, game_id: int) -> int:
        """Hands dealt plus moves stored in ``game_id``: a copy in memory that counts
        fewer is stale."""
        with self._read() as session:
            hands = session.scalar(
                select(func.count()).select_from(HandRow).where(HandRow.game_id == game_id)
            )
            moves = session.scalar(
                select(func.count()).select_from(MoveRow).where(MoveRow.game_id == game_id)
            )
            return (hands or 0) + (moves or 0)

    def games_in_play(self) -> list[int]:
        """The ids of the games not finished, oldest first: what a server resumes."""
        with self._read() as session:
            query = select(GameRow.id).where(GameRow.finished_at.is_(None)).order_by(GameRow.id)
            return list(session.scalars(query))

    def finish_game(self, game_id: int) -> None:
        """Close a game (over, or abandoned): it is no longer in play, and no hand or
        move may be added to it. Closing it again changes nothing."""
        with self._write() as session:
            game = self._game(session, game_id)
            if game.finished_at is None:
                game.finished_at = _now()
                if self._postgresql:  # told only of a change: closing again is none
                    session.execute(_NOTIFY, self._notice(GAME_CHANNEL, game_id))

    # -- hands and moves -----------------------------------------------------------------

    def start_hand(
        self,
        game_id: int,
        hand_index: int,
        deck: Sequence[int],
        *,
        salt: bytes | None = None,
        dealer: int | None = None,
        seats: tuple[int, ...] | None = None,
    ) -> str:
        """Store the deck of the next hand and return its commitment (publish it now;
        :meth:`commitment` reveals the deck once the hand is over): :meth:`start_hands`
        of one hand."""
        (commitment,) = self.start_hands(game_id, hand_index, [Deal(deck, dealer, seats, salt)])
        return commitment

    def start_hands(self, game_id: int, hand_index: int, deals: Sequence[Deal]) -> list[str]:
        """Store the decks of the next hands, ``hand_index`` and those after it, all in
        one transaction (the hands of one deal, at its tables), and return their
        commitments.

        ``hand_index`` must be the number of hands dealt so far. Each deck is the game's
        deck (:attr:`~umtali.games.api.GameSpec.deck_cards`) in its order, and its
        ``dealer`` the one the rules name: the caller's, who holds the game replayed (as
        a move is, it is checked when the game is next read); by default it is found by
        replaying the game here, which also refuses a hand after the match's end. Raises
        :class:`HandConflict` when a hand is dealt already, :class:`StoreError` when it
        cannot be dealt yet; then none is stored.

        A hand of a game with a party (three or four players, each hand at a table of
        two) names its ``seats``, the game's players at the hand's seats, and its
        ``dealer`` among them. A player plays one hand at a time: a hand is dealt while
        others are in play only when none of its players is at them.
        """
        commitments = []
        try:
            with self._write(announce=game_id) as session:
                game = self._game(session, game_id)
                hands = list(
                    session.scalars(
                        select(HandRow)
                        .where(HandRow.game_id == game_id)
                        .order_by(HandRow.hand_index)
                    )
                )
                for index, deal in enumerate(deals, start=hand_index):
                    row = self._hand_row(session, game, hands, index, deal)
                    session.add(row)
                    hands.append(row)
                    commitments.append(row.commitment)
        except IntegrityError:
            raise HandConflict(f"game {game_id} has its hand {hand_index} dealt already") from None
        return commitments

    def _hand_row(
        self, session: Session, game: GameRow, hands: Sequence[HandRow], index: int, deal: Deal
    ) -> HandRow:
        """The row of hand ``index`` of ``game``, checked, after ``hands``."""
        if deal.seats is not None and (deal.dealer is None or deal.dealer not in deal.seats):
            raise StoreError(
                f"a party hand is dealt by one of its players {deal.seats}, not {deal.dealer!r}"
            )
        cards = self._deck_of(game, deal.deck, deal.dealer, deal.seats)
        self._check_next_hand(game, hands, index, deal.seats)
        dealer = deal.dealer
        if dealer is None:
            match = self._replay(session, game)[0]
            if match.is_over():
                raise StoreError(f"game {game.id} is over: no more hands are dealt")
            dealer = int(match.next_dealer())
        salt = secrets.token_bytes(SALT_BYTES) if deal.salt is None else deal.salt
        return HandRow(
            game_id=game.id,
            hand_index=index,
            dealer=dealer,
            seats=None if deal.seats is None else list(deal.seats),
            deck=deck_text(cards),
            salt=salt.hex(),
            commitment=deck_commitment(salt, cards),
            started_at=_now(),
        )

    @staticmethod
    def _deck_of(
        game: GameRow, deck: Sequence[int], dealer: int | None, seats: tuple[int, ...] | None
    ) -> tuple[int, ...]:
        """``deck`` checked as a deck of ``game``'s, and the hand's dealer and seats as
        players of it."""
        cards = check_deck(deck, _spec_of(game).deck_cards)
        players = len(game.players)
        if (game.party is None) != (seats is None):
            raise StoreError(
                f"game {game.id}: a hand names its seats in a game with a party, and only there"
            )
        if seats is not None and not set(seats) <= set(range(players)):
            raise StoreError(f"the seats of a hand are players 0 to {players - 1}, not {seats}")
        if dealer is not None and not 0 <= dealer < players:
            raise StoreError(f"the dealer is one of players 0 to {players - 1}, not {dealer!r}")
        return cards

    @staticmethod
    def _check_next_hand(
        game: GameRow, hands: Sequence[HandRow], hand_index: int, seats: tuple[int, ...] | None
    ) -> None:
        """Refuse a hand that is not the next, one dealt to a player still at a hand in
        play, and one dealt after the game's end."""
        game_id = game.id
        if hand_index < len(hands):
            raise HandConflict(f"game {game_id} has its hand {hand_index} dealt already")
        if hand_index > len(hands):
            raise StoreError(
                f"game {game_id} has {len(hands)} hand(s) dealt: the next is"
                f" hand {len(hands)}, not {hand_index}"
            )
        everyone = range(len(game.players))
        players = set(everyone if seats is None else seats)
        for hand in hands:
            at_it = set(everyone if hand.seats is None else hand.seats)
            if hand.ended_at is None and at_it & players:
                raise StoreError(f"game {game_id}: hand {hand.hand_index} is still in play")
        if game.finished_at is not None:
            raise StoreError(f"game {game_id} is over: no more hands are dealt")

    def append_move(
        self,
        game_id: int,
        hand_index: int,
        move_index: int,
        text: str,
        *,
        scores: tuple[int, ...] | None = None,
    ) -> None:
        """Store move ``move_index`` (from 0) of hand ``hand_index``, in notation.

        ``scores`` are the hand's scores when this move ends it (``hand.outcome()`` says
        so); they are stored with the move, in its transaction, and from then on the
        hand is over and its deck revealed. The store does not judge the move: the
        caller has played it through the engine, and :meth:`load_match` replays it.

        Raises :class:`MoveConflict` when a move already holds that index (stored by
        another process, or by this call's earlier try whose answer was lost), and
        :class:`StoreError` when the index skips one or the hand is over.
        """
        if scores is not None and not (
            len(scores) == 2 and all(type(score) is int for score in scores)
        ):
            raise StoreError(f"scores are two whole numbers, not {scores!r}")
        where = {"game": game_id, "hand": hand_index}

        def refuse(found: Row[Any] | None) -> None:
            """Raise what keeps the move out, as the probe found the game and hand."""
            if found is None:
                raise StoreError(f"there is no game {game_id}")
            finished_at, hand_found, ended_at, count = tuple(found)[:4]
            if finished_at is not None:
                raise StoreError(f"game {game_id} is finished: it takes no more moves")
            if hand_found is None:
                raise StoreError(f"game {game_id} has no hand {hand_index}")
            if move_index < count:
                raise MoveConflict(self._taken(game_id, hand_index, move_index))
            if ended_at is not None:
                raise StoreError(f"game {game_id}: hand {hand_index} is over")
            if move_index > count:
                raise StoreError(
                    f"game {game_id}, hand {hand_index} has {count} move(s): the next is"
                    f" move {count}, not {move_index}"
                )

        if self._postgresql:
            try:
                self._append_move_statement(
                    where, move_index, text, scores, refuse, self._notice(GAME_CHANNEL, game_id)
                )
            except IntegrityError:
                raise MoveConflict(self._taken(game_id, hand_index, move_index)) from None
            return

        def store(connection: Connection) -> None:
            refuse(connection.execute(_MOVE_PROBE, where).first())
            now = _now()
            connection.execute(
                _MOVE_INSERT,
                {
                    "game_id": game_id,
                    "hand_index": hand_index,
                    "move_index": move_index,
                    "text": text,
                    "created_at": now,
                },
            )
            if scores is not None:
                connection.execute(
                    _HAND_END,
                    {**where, "score_0": scores[0], "score_1": scores[1], "ended_at": now},
                )

        try:
            self._write_rows(store, game_id)
        except IntegrityError:
            # Two writers counted the same moves and tried the same index (PostgreSQL
            # lets both count; the primary key lets only the first in).
            raise MoveConflict(self._taken(game_id, hand_index, move_index)) from None

    def _append_move_statement(
        self,
        where: dict[str, int],
        move_index: int,
        text: str,
        scores: tuple[int, ...] | None,
        refuse: Callable[[Row[Any] | None], None],
        notice: dict[str, str],
    ) -> None:
        """:meth:`append_move` on PostgreSQL: the probe, the insert, the hand's end and
        the notice in one statement (:data:`umtali.web.postgres.MOVE_STATEMENT`)."""
        values = {
            **where,
            **notice,
            "move_index": move_index,
            "text": text,
            "created_at": _now(),
            "ends": scores is not None,
            "score_0": None if scores is None else scores[0],
            "score_1": None if scores is None else scores[1],
        }
        with self._one_statement.connect() as connection:
            found = connection.execute(MOVE_STATEMENT, values).first()
        if found is None or not found.written:
            refuse(found)
            raise StoreError(f"move {move_index} was not stored")  # the probe let it by

    @staticmethod
    def _taken(game_id: int, hand_index: int, move_index: int) -> str:
        return (
            f"game {game_id}, hand {hand_index}: move {move_index} is stored already;"
            " reload the game"
        )

    def commitment(self, game_id: int, hand_index: int) -> DeckCommitment:
        """The commitment to a hand's deck, with the salt and deck once the hand is over."""
        if game_id not in INTEGERS or hand_index not in INTEGERS:
            raise StoreError(
                f"game {_shown(game_id)} has no hand {_shown(hand_index)}: a game id or hand"
                f" index is a whole number from 0 to {INTEGERS[-1]:,}"
            )
        with self._read() as session:
            hand = session.get(HandRow, (game_id, hand_index))
            if hand is None:
                raise StoreError(f"game {game_id} has no hand {hand_index}")
            if hand.ended_at is None:
                return DeckCommitment(hand.commitment, None, None)
            cards = [parse_card(name) for name in hand.deck.split()]
            deck = check_deck(cards, mask_of(cards))  # its game's deck, checked when stored
            return DeckCommitment(hand.commitment, bytes.fromhex(hand.salt), deck)

    def commitments(self, game_id: int) -> dict[int, str]:
        """The commitment published at each hand's deal, by hand index: what the seats
        of a party game are shown, each of the hand it plays."""
        with self._read() as session:
            rows = session.execute(
                select(HandRow.hand_index, HandRow.commitment).where(HandRow.game_id == game_id)
            )
            return {row.hand_index: row.commitment for row in rows}

    # -- reading a game back ---------------------------------------------------------------

    def load_match(self, game_id: int) -> Any:
        """The stored game as its game's match, of two players or more, every stored
        move replayed through its engine by
        :func:`umtali.kernel.record.replay_any`. Raises :class:`StoreError` if there is
        no such game, or if what is stored does not replay."""
        with self._read() as session:
            return self._replay(session, self._game(session, game_id))[0]

    def load_game(self, game_id: int) -> StoredGame:
        """All a server keeps of ``game_id``, in one read: its match (as
        :meth:`load_match`), seats, rematch, commitments, and moves stored by hand."""
        with self._read() as session:
            match, hands, moves = self._replay(session, self._game(session, game_id))
            return StoredGame(
                match,
                self._seats(session, game_id),
                self._rematch_of(session, game_id),
                {hand.hand_index: hand.commitment for hand in hands},
                {index: len(texts) for index, texts in moves.items()},
                self._table(session, game_id),
            )

    def game_news(self, game_id: int, hands_known: int, moves_known: Mapping[int, int]) -> GameNews:
        """What ``game_id`` stored beyond a copy that knows its first ``hands_known``
        hands and, of each hand in ``moves_known``, that many moves (the hands left out
        are over, or have no move the copy lacks): a process brings its copy up to
        date with it rather than read the whole game again. The moves are read before
        the hands, so that every move read has its hand read too."""
        if game_id not in INTEGERS:
            raise StoreError(f"there is no game {_shown(game_id)}")
        known = [
            and_(MoveRow.hand_index == hand, MoveRow.move_index >= count)
            for hand, count in moves_known.items()
        ]
        query = (
            select(MoveRow.hand_index, MoveRow.move_index, MoveRow.text)
            .where(MoveRow.game_id == game_id)
            .where(or_(MoveRow.hand_index >= hands_known, *known))
            .order_by(MoveRow.hand_index, MoveRow.move_index)
        )
        with self._read() as session:
            moves = [(row.hand_index, row.move_index, row.text) for row in session.execute(query)]
            hands = session.scalars(
                select(HandRow)
                .where(HandRow.game_id == game_id, HandRow.hand_index >= hands_known)
                .order_by(HandRow.hand_index)
            ).all()
            return GameNews(
                [
                    StoredHand(
                        hand.hand_index,
                        [parse_card(name) for name in hand.deck.split()],
                        hand.dealer,
                        None if hand.seats is None else tuple(hand.seats),
                        hand.commitment,
                    )
                    for hand in hands
                ],
                moves,
                self._seats(session, game_id),
                self._rematch_of(session, game_id),
                list(self._game(session, game_id).players),
                self._table(session, game_id),
            )

    def record_json(self, game_id: int) -> str:
        """The game's record, as ``umtali replay`` reads it (:func:`umtali.kernel.record.dumps`).
        It holds every deck, the hand in play's too: the server's, not a seat's."""
        return dumps(self.load_match(game_id))

    @staticmethod
    def _game(session: Session, game_id: int) -> GameRow:
        if game_id not in INTEGERS:
            raise StoreError(
                f"there is no game {_shown(game_id)}: a game id is a whole number from 1 to"
                f" {INTEGERS[-1]:,}"
            )
        game = session.get(GameRow, game_id)
        if game is None:
            raise StoreError(f"there is no game {game_id}")
        return game

    @staticmethod
    def _replay(
        session: Session, game: GameRow
    ) -> tuple[Any, Sequence[HandRow], dict[int, list[str]]]:
        """Replay ``game`` from the rows ``session`` sees: its match, with the rows of
        its hands and the moves of each hand it was replayed from."""
        hands = session.scalars(
            select(HandRow).where(HandRow.game_id == game.id).order_by(HandRow.hand_index)
        ).all()
        moves: dict[int, list[str]] = {hand.hand_index: [] for hand in hands}
        query = (
            select(MoveRow.hand_index, MoveRow.text)
            .where(MoveRow.game_id == game.id)
            .order_by(MoveRow.hand_index, MoveRow.move_index)
        )
        for hand_index, move in session.execute(query):
            moves[hand_index].append(move)
        entries: list[dict[str, Any]] = []
        for hand in hands:
            entry: dict[str, Any] = {
                "dealer": hand.dealer,
                "deck": hand.deck.split(),
                "moves": moves[hand.hand_index],
            }
            if hand.score_0 is not None and hand.score_1 is not None:
                entry["scores"] = [hand.score_0, hand.score_1]
            if hand.seats is not None:
                entry["seats"] = hand.seats
            entries.append(entry)
        spec = _spec_of(game)
        data = {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            **({} if spec.name == games.DEFAULT_GAME else {"game": spec.name}),
            "rules": game.rules,
            "players": game.players,
            **_head(game, spec),
            "meta": game.meta,
            "hands": entries,
        }
        try:
            return replay_any(data, game=spec.name), hands, moves
        except RecordError as e:
            raise StoreError(f"game {game.id} does not replay: {e}") from None


def _waiting_at(at: datetime) -> tuple[Any, ...]:
    """The conditions of an open table that waits at ``at``: nobody sat down, its opener
    did not close it, its wait is not over."""
    return (
        OpenTableRow.sat_at.is_(None),
        OpenTableRow.closed_at.is_(None),
        OpenTableRow.wait_until > at,
    )


def _head(game: GameRow, spec: GameSpec) -> dict[str, Any]:
    """The head of ``game``'s record besides its envelope, as its game's records have it
    (:attr:`~umtali.games.api.GameSpec.record_head`), from the row: how long the match
    is, and who deals first or, in a game with a party, its party (a party seats its
    players itself, so its record names no first dealer)."""
    head: dict[str, Any] = {}
    if "match" in spec.record_head:
        head["match"] = game.kind
    if game.party is not None and "party" in spec.record_head:
        head["party"] = game.party
    elif "first_dealer" in spec.record_head:
        head["first_dealer"] = game.first_dealer
    return head


def _shown(number: int) -> str:
    """``number`` as a message quotes it: whole when short, else its first digits and
    its length (a path may carry thousands of digits).

    >>> _shown(12), _shown(10**40)
    ('12', '1000000000… (41 digits)')
    """
    text = str(number)
    return text if len(text) <= 20 else f"{text[:10]}… ({len(text.lstrip('-'))} digits)"
