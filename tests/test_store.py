"""The server's storage, on an SQLite file and on a real PostgreSQL: every acknowledged
move survives a closed store and a killed process, two stores never both take a move's
index, a stored game replays to the very record of the game played, secrets are kept
only as hashes, and a deck's commitment checks out once the deck is revealed."""

from __future__ import annotations

import random
import signal
import sqlite3
import stat
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, text

from tests.postgres import PostgresServer
from umtali import games
from umtali.games.umtali.match import Match, MatchKind
from umtali.games.umtali.record import loads
from umtali.games.umtali.rules import STANDARD
from umtali.games.umtali.state import HandState
from umtali.kernel.deck import seeded_deck
from umtali.kernel.players import MatchError
from umtali.kernel.record import RecordError, dumps
from umtali.web import postgres
from umtali.web.models import Base
from umtali.web.store import (
    DEFAULT_URL,
    GAME_CHANNEL,
    MIGRATION_LOCK,
    MIGRATIONS,
    PRESENCE_CHANNEL,
    Deal,
    HandConflict,
    MoveConflict,
    SeatRef,
    Store,
    StoreError,
    deck_commitment,
    secret_hash,
)

REPO = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Database:
    """An empty database for one test: its URL and a way to read all it holds as text."""

    url: str
    dump: Callable[[], str]


def umtali_match(store: Store, game_id: int) -> Match:
    """The stored game, read back as the game of Umtali these tests store."""
    match = store.load_match(game_id)
    assert isinstance(match, Match), match
    return match


def sqlite_dump(path: Path) -> str:
    """The SQL text of an SQLite database and the raw bytes of its files (the database,
    and its log if one is left), so that a value hidden anywhere in them shows."""
    with sqlite3.connect(path) as connection:
        sql = "\n".join(connection.iterdump())
    connection.close()
    raw = b"".join(p.read_bytes() for p in sorted(path.parent.glob(path.name + "*")))
    return sql + raw.decode("latin-1")


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Database:
    if request.param == "sqlite":
        path = tmp_path / "umtali.db"
        return Database(f"sqlite:///{path}", lambda: sqlite_dump(path))
    server: PostgresServer = request.getfixturevalue("postgres_server")
    url = server.create_database()
    return Database(url, lambda: server.dump(url))


@pytest.fixture
def store(database: Database) -> Iterator[Store]:
    with Store.open(database.url) as opened:
        yield opened


def umtali_game(
    kind: MatchKind = "game",
    *,
    players: tuple[str, str] = ("Ann", "Bob"),
    first_dealer: int = 1,
    meta: dict[str, Any] | None = None,
) -> Match:
    """A new match of Umtali, as a server makes one before its first deal."""
    meta = {"seed": 7, "humans": [0]} if meta is None else meta
    return Match(STANDARD, kind=kind, first_dealer=first_dealer, players=players, meta=meta)


def new_game(
    store: Store, kind: MatchKind = "game", *, seats: tuple[int, ...] = (0, 1), **options: Any
) -> int:
    return store.create_game(umtali_game(kind, **options), seats=seats).game_id


def play_and_store(
    store: Store,
    game_id: int,
    seed: int,
    report: Callable[[int, int, str], None] = lambda hand, move, text: None,
) -> Match:
    """Play the stored game on to its end with random legal moves, as a server would:
    each move is stored before the next is chosen, and ``report`` hears of it only
    once it is committed. Returns the match as played in memory."""
    match = umtali_match(store, game_id)
    rng = random.Random(seed)
    while not match.is_over():
        hand = match.current
        if hand is None:
            deck = seeded_deck(f"{seed}/{len(match.hands)}")
            store.start_hand(game_id, len(match.hands), deck)
            hand = match.new_hand(deck)
        legal = hand.legal_actions()
        hand.push(legal[rng.randrange(len(legal))])
        played = hand.moves_played()
        outcome = hand.outcome()
        hand_index, move_index, move = len(match.hands) - 1, len(played) - 1, played[-1].text()
        store.append_move(
            game_id,
            hand_index,
            move_index,
            move,
            scores=None if outcome is None else outcome.scores,
        )
        report(hand_index, move_index, move)
    return match


def random_hand_moves(seed: int, dealer: int) -> tuple[list[str], tuple[int, int]]:
    """The moves of a whole random hand dealt from ``seeded_deck(seed)``, and its scores."""
    hand = HandState(seeded_deck(seed), dealer)
    rng = random.Random(seed)
    while not hand.is_over():
        legal = hand.legal_actions()
        hand.push(legal[rng.randrange(len(legal))])
    outcome = hand.outcome()
    assert outcome is not None
    return [m.text() for m in hand.moves_played()], outcome.scores


# -- games and seats ------------------------------------------------------------------------


def test_a_new_game_gives_each_linked_seat_its_own_secret(store: Store) -> None:
    new = store.create_game(
        umtali_game("game", players=("Ann", "Bob"), first_dealer=0), seats=(0, 1)
    )
    assert set(new.secrets) == {0, 1}
    assert new.secrets[0] != new.secrets[1]
    assert all(len(secret) >= 43 for secret in new.secrets.values())  # 256 bits, base64
    for seat, secret in new.secrets.items():
        assert store.seat_for_secret(secret) == SeatRef(new.game_id, seat)
    assert store.seat_for_secret(new.secrets[0][:-1] + "x") is None
    assert store.seat_for_secret("") is None
    assert store.seat_for_secret("x" * 10_000) is None
    assert store.games_in_play() == [new.game_id]


def test_a_seat_played_by_the_computer_has_no_link(store: Store) -> None:
    new = store.create_game(
        umtali_game("hand", players=("Ann", "Computer"), first_dealer=0), seats=(0,)
    )
    assert set(new.secrets) == {0}
    with pytest.raises(StoreError, match="no seat 1"):
        store.mark_seen(SeatRef(new.game_id, 1))


def test_what_no_record_could_hold_is_refused_before_anything_is_stored(store: Store) -> None:
    with pytest.raises(MatchError):
        new_game(store, players=("Ann", "Bob\u202e"))
    with pytest.raises(MatchError):
        new_game(store, first_dealer=2)
    with pytest.raises(RecordError):
        new_game(store, meta={"seen": {1, 2}})
    with pytest.raises(StoreError, match="seats"):
        new_game(store, seats=(0, 0))
    assert store.games_in_play() == []


def test_a_seat_is_marked_seen(store: Store) -> None:
    new = store.create_game(umtali_game("hand", players=("A", "B"), first_dealer=0))
    seat = SeatRef(new.game_id, 1)
    assert store.last_seen(seat) is None
    store.mark_seen(seat)
    seen = store.last_seen(seat)
    assert seen is not None
    assert seen.tzinfo is not None
    assert store.last_seen(SeatRef(new.game_id, 0)) is None


def test_a_finished_game_is_no_longer_in_play_and_takes_no_moves(store: Store) -> None:
    first, second = new_game(store), new_game(store)
    store.start_hand(first, 0, seeded_deck(1))
    store.finish_game(first)
    store.finish_game(first)  # again: nothing changes
    assert store.games_in_play() == [second]
    with pytest.raises(StoreError, match="finished"):
        store.append_move(first, 0, 0, "keep")
    with pytest.raises(StoreError, match="no game 99"):
        store.finish_game(99)


# -- hands and moves ------------------------------------------------------------------------


def test_moves_are_kept_after_the_store_is_closed(database: Database) -> None:
    with Store.open(database.url) as store:
        game = new_game(store, kind="hand")
        store.start_hand(game, 0, seeded_deck(3))
        moves, scores = random_hand_moves(3, dealer=1)
        for index, move in enumerate(moves[:5]):
            store.append_move(game, 0, index, move)
    with Store.open(database.url) as store:
        match = umtali_match(store, game)
        assert [m.text() for m in match.hands[0].moves_played()] == moves[:5]
        for index, move in enumerate(moves[5:], start=5):
            last = index == len(moves) - 1
            store.append_move(game, 0, index, move, scores=scores if last else None)
    # PostgreSQL URLs as people write them (with no driver) get psycopg 3.
    with Store.open(database.url.replace("postgresql+psycopg://", "postgresql://")) as store:
        match = umtali_match(store, game)
        assert match.is_over()
        assert match.hands[0].outcome() is not None
        assert store.games_in_play() == [game]  # until the server finishes it


def test_a_move_index_taken_by_another_store_is_a_conflict(database: Database) -> None:
    with Store.open(database.url) as one, Store.open(database.url) as other:
        game = new_game(one, kind="hand")
        one.start_hand(game, 0, seeded_deck(5))
        moves, _scores = random_hand_moves(5, dealer=1)
        one.append_move(game, 0, 0, moves[0])
        with pytest.raises(MoveConflict, match="move 0 is stored already"):
            other.append_move(game, 0, 0, moves[0])
        other.append_move(game, 0, 1, moves[1])
        with pytest.raises(MoveConflict):
            one.append_move(game, 0, 1, moves[1])
        with pytest.raises(StoreError, match="the next is move 2, not 5"):
            one.append_move(game, 0, 5, moves[5])
        with pytest.raises(StoreError, match="no hand 1"):
            one.append_move(game, 1, 0, "keep")
        played = umtali_match(one, game).hands[0].moves_played()
        assert [m.text() for m in played] == moves[:2]


def test_racing_stores_store_each_move_exactly_once(database: Database) -> None:
    """Two stores (two server processes) race to store the same moves, index by index:
    at every index exactly one of them wins and the other hears so."""
    moves, scores = random_hand_moves(11, dealer=1)
    with Store.open(database.url) as one, Store.open(database.url) as other:
        game = new_game(one, kind="hand")
        one.start_hand(game, 0, seeded_deck(11))
        wins: dict[str, list[int]] = {"one": [], "other": []}
        start = threading.Barrier(2)

        def race(name: str, store: Store) -> None:
            start.wait()
            for index, move in enumerate(moves):
                last = index == len(moves) - 1
                try:
                    store.append_move(game, 0, index, move, scores=scores if last else None)
                except MoveConflict:
                    continue
                wins[name].append(index)

        threads = [
            threading.Thread(target=race, args=item) for item in (("one", one), ("other", other))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert sorted(wins["one"] + wins["other"]) == list(range(len(moves)))
        match = umtali_match(other, game)
        assert [m.text() for m in match.hands[0].moves_played()] == moves
        assert match.is_over()


def test_a_hand_is_dealt_once_and_in_turn(store: Store) -> None:
    game = new_game(store, kind="hand")
    with pytest.raises(StoreError, match="the next is hand 0, not 1"):
        store.start_hand(game, 1, seeded_deck(1))
    store.start_hand(game, 0, seeded_deck(1))
    with pytest.raises(HandConflict):
        store.start_hand(game, 0, seeded_deck(2))
    with pytest.raises(StoreError, match="hand 0 is still in play"):
        store.start_hand(game, 1, seeded_deck(2))
    moves, scores = random_hand_moves(1, dealer=1)
    for index, move in enumerate(moves):
        store.append_move(game, 0, index, move, scores=scores if index == len(moves) - 1 else None)
    with pytest.raises(StoreError, match="hand 0 is over"):
        store.append_move(game, 0, len(moves), "draw")
    with pytest.raises(StoreError, match="is over: no more hands"):
        store.start_hand(game, 1, seeded_deck(2))


def test_a_whole_game_replays_to_the_record_of_the_game_played(store: Store) -> None:
    game = new_game(store, kind="game")
    played = play_and_store(store, game, seed=21)
    assert played.is_over()
    assert dumps(umtali_match(store, game)) == dumps(played)
    assert store.record_json(game) == dumps(played)
    again = loads(store.record_json(game))  # as `umtali replay` reads it
    assert again.game_totals() == played.game_totals()


def test_rows_that_do_not_replay_are_refused_on_loading(store: Store) -> None:
    game = new_game(store, kind="hand")
    store.start_hand(game, 0, seeded_deck(4))
    store.append_move(game, 0, 0, "discard Zz")  # the store does not judge moves
    with pytest.raises(StoreError, match="does not replay: hand 1, move 1"):
        umtali_match(store, game)


# -- what is secret ---------------------------------------------------------------------------


def test_secrets_are_stored_only_as_hashes(database: Database) -> None:
    with Store.open(database.url) as store:
        new = store.create_game(umtali_game("game", players=("A", "B"), first_dealer=0))
    dump = database.dump()
    for secret in new.secrets.values():
        assert secret not in dump
        assert secret_hash(secret) in dump  # the dump is the right one


def test_the_deck_commitment_checks_out_once_the_deck_is_revealed(store: Store) -> None:
    game = new_game(store, kind="hand")
    deck = seeded_deck(8)
    published = store.start_hand(game, 0, deck)
    hidden = store.commitment(game, 0)
    assert (hidden.commitment, hidden.salt, hidden.deck) == (published, None, None)
    moves, scores = random_hand_moves(8, dealer=1)
    for index, move in enumerate(moves):
        store.append_move(game, 0, index, move, scores=scores if index == len(moves) - 1 else None)
    revealed = store.commitment(game, 0)
    assert revealed.commitment == published
    assert revealed.deck == deck
    assert revealed.salt is not None
    assert len(revealed.salt) == 32
    assert deck_commitment(revealed.salt, revealed.deck) == published
    # A given salt is used as it is, and another deck does not fit the commitment.
    other = new_game(store, kind="hand")
    assert store.start_hand(other, 0, deck, salt=b"s" * 32) == deck_commitment(b"s" * 32, deck)
    assert deck_commitment(b"s" * 32, seeded_deck(9)) != deck_commitment(b"s" * 32, deck)


# -- set-up -----------------------------------------------------------------------------------


def test_migrations_apply_once_and_match_the_models(database: Database) -> None:
    Store.open(database.url).close()
    with Store.open(database.url) as store:  # again: nothing left to do
        with store.engine.connect() as connection:
            versions = connection.execute(text("SELECT version_num FROM alembic_version")).all()
            assert versions == [(ScriptDirectory(str(MIGRATIONS)).get_current_head(),)]
            assert versions == [("0006",)]
            differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
        assert differences == []


def test_a_server_starting_while_another_migrates_waits_for_it(database: Database) -> None:
    """While one server holds the migration's lock (and changes the schema), another
    server's ``Store.open`` waits, then migrates on a schema that is no longer the one
    it would have read first, without an error."""
    engine = create_engine(database.url)
    with engine.connect() as holder:
        if engine.dialect.name == "postgresql":
            holder.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        else:
            # The sqlite3 module begins no transaction before DDL: begin one by hand.
            holder.connection.dbapi_connection.isolation_level = None  # type: ignore[union-attr]
            holder.exec_driver_sql("PRAGMA journal_mode = WAL")  # as a server's file is
            holder.exec_driver_sql("BEGIN IMMEDIATE")
        holder.exec_driver_sql("CREATE TABLE other_server (x INTEGER)")
        errors: list[BaseException] = []

        def open_store() -> None:
            try:
                Store.open(database.url).close()
            except BaseException as e:
                errors.append(e)

        second = threading.Thread(target=open_store)
        second.start()
        second.join(timeout=1)
        assert second.is_alive(), f"the second server did not wait for the lock: {errors}"
        holder.exec_driver_sql("COMMIT")
    second.join(timeout=60)
    engine.dispose()
    assert errors == []
    with Store.open(database.url) as store, store.engine.connect() as connection:
        versions = connection.execute(text("SELECT version_num FROM alembic_version")).all()
    assert versions == [(ScriptDirectory(str(MIGRATIONS)).get_current_head(),)]


def test_the_sqlite_file_is_private_and_logged_ahead(tmp_path: Path) -> None:
    path = tmp_path / "game.db"
    with Store.open(f"sqlite:///{path}") as store, store.engine.connect() as connection:
        settings = {
            pragma: connection.exec_driver_sql(f"PRAGMA {pragma}").scalar()
            for pragma in ("journal_mode", "foreign_keys", "synchronous", "busy_timeout")
        }
    assert settings == {
        "journal_mode": "wal",
        "foreign_keys": 1,
        "synchronous": 2,  # FULL
        "busy_timeout": 10_000,
    }
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_the_default_database_is_a_file_in_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    assert DEFAULT_URL == "sqlite:///umtali.db"
    with Store.open() as store:
        assert store.url == "sqlite:///umtali.db"
    assert (tmp_path / "umtali.db").is_file()
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'other.db'}")
    Store.open().close()
    assert (tmp_path / "other.db").is_file()


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://localhost/umtali", "SQLite or PostgreSQL, not 'mysql'"),
        ("sqlite://", "in-memory"),
        ("sqlite:///:memory:", "in-memory"),
        ("not a url", "is not a database URL"),
    ],
)
def test_urls_the_store_cannot_use_are_refused(url: str, message: str) -> None:
    with pytest.raises(StoreError, match=message):
        Store.open(url)


# -- kill -9 ----------------------------------------------------------------------------------

CHILD = """
import sys
from tests.test_store import play_and_store
from umtali.web.store import Store

store = Store.open(sys.argv[1])
play_and_store(
    store,
    int(sys.argv[2]),
    seed=int(sys.argv[3]),
    report=lambda hand, move, text: print(hand, move, text, sep="|", flush=True),
)
print("done", flush=True)
"""


def test_a_killed_process_loses_no_move_it_reported_committed(database: Database) -> None:
    """A process storing a game's moves is killed with SIGKILL part-way; every move it
    reported after its commit is in the database, and the game plays on from there."""
    with Store.open(database.url) as store:
        game = new_game(store, kind="session")
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, database.url, str(game), "31"],
        cwd=REPO,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdout is not None
    reported: list[tuple[int, int, str]] = []
    try:
        while len(reported) < 40:
            line = child.stdout.readline()
            assert line not in ("", "done\n"), "the child stopped before it was killed"
            hand, move, move_text = line.rstrip("\n").split("|")
            reported.append((int(hand), int(move), move_text))
    finally:
        child.send_signal(signal.SIGKILL)
        # Lines the child printed before it died count as reported too.
        for line in child.stdout:
            if line != "done\n":
                hand, move, move_text = line.rstrip("\n").split("|")
                reported.append((int(hand), int(move), move_text))
        child.wait(timeout=60)
    assert child.returncode == -signal.SIGKILL
    with Store.open(database.url) as store:
        match = umtali_match(store, game)
        stored = [
            (h, m, move.text())
            for h, hand_state in enumerate(match.hands)
            for m, move in enumerate(hand_state.moves_played())
        ]
        assert stored[: len(reported)] == reported
        # At most one move committed whose report the kill cut off.
        assert len(stored) - len(reported) in (0, 1)
        finished = play_and_store(store, game, seed=32)
        assert finished.is_over()
        assert dumps(umtali_match(store, game)) == dumps(finished)


# -- PostgreSQL: notices and pooled connections ---------------------------------------------


@pytest.fixture
def postgresql_url(postgres_server: PostgresServer) -> str:
    return postgres_server.create_database()


def notices_of(listener: psycopg.Connection[Any]) -> list[tuple[str, str]]:
    """The notices the listener has been sent so far (without waiting for more)."""
    listener.execute("SELECT 1")  # a round trip delivers what arrived before it
    return [(notice.channel, notice.payload) for notice in listener.notifies(timeout=0.2)]


def test_moves_and_heartbeats_are_announced_only_when_they_are_written(
    postgresql_url: str,
) -> None:
    """Another process learns of a stored move (on the game channel) and of a player
    who came or went (on the presence channel); a move refused, or a heartbeat that
    is not announced, tells nothing."""
    plain_url = postgresql_url.replace("postgresql+psycopg://", "postgresql://")
    with (
        Store.open(postgresql_url) as store,
        psycopg.connect(plain_url, autocommit=True) as listener,
    ):
        listener.execute(f"LISTEN {GAME_CHANNEL}")
        listener.execute(f"LISTEN {PRESENCE_CHANNEL}")
        new = store.create_game(umtali_game("hand", players=("A", "B"), first_dealer=0), seats=(0,))
        game = new.game_id
        store.start_hand(game, 0, seeded_deck(3))
        notices_of(listener)  # the game's creation and deal are told as well
        mark = f"{store.token}:{game}"

        store.append_move(game, 0, 0, "keep")
        assert notices_of(listener) == [(GAME_CHANNEL, mark)]
        with pytest.raises(MoveConflict):
            store.append_move(game, 0, 0, "keep")
        with pytest.raises(StoreError, match="the next is move 1, not 3"):
            store.append_move(game, 0, 3, "keep")
        assert notices_of(listener) == []

        seat = SeatRef(game, 0)
        store.mark_seen(seat)
        assert notices_of(listener) == []
        store.mark_seen(seat, announce=True)
        assert notices_of(listener) == [(PRESENCE_CHANNEL, mark)]
        with pytest.raises(StoreError, match="no seat 1 played by link"):
            store.mark_seen(SeatRef(game, 1), announce=True)
        assert notices_of(listener) == []


def test_the_move_that_ends_a_hand_stores_its_scores_with_it(store: Store) -> None:
    """The last move and the hand's scores are one write: the hand is over with it, and
    no move comes after."""
    game = new_game(store, kind="hand")
    store.start_hand(game, 0, seeded_deck(11))
    moves, scores = random_hand_moves(11, dealer=1)
    for index, move in enumerate(moves):
        store.append_move(game, 0, index, move, scores=scores if index == len(moves) - 1 else None)
    assert store.commitment(game, 0).deck is not None  # revealed: the hand is over
    with pytest.raises(StoreError, match="hand 0 is over"):
        store.append_move(game, 0, len(moves), "keep")
    assert umtali_match(store, game).hands[0].outcome() is not None


def test_a_connection_the_database_closed_while_it_rested_is_replaced(
    postgresql_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pooled connection that rested past the ping threshold is pinged on its next
    checkout; one the database closed meanwhile (as a restart would) is discarded and
    the call runs on a new one, with nothing refused."""
    monkeypatch.setattr(postgres, "PING_AFTER_IDLE", 0.0)
    plain_url = postgresql_url.replace("postgresql+psycopg://", "postgresql://")
    with Store.open(postgresql_url) as store:
        game = new_game(store, kind="hand")
        store.start_hand(game, 0, seeded_deck(5))
        moves, _scores = random_hand_moves(5, dealer=1)
        store.append_move(game, 0, 0, moves[0])
        with psycopg.connect(plain_url, autocommit=True) as admin:
            closed = admin.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchone()
        assert closed is not None
        assert closed[0] >= 1
        store.append_move(game, 0, 1, moves[1])
        store.mark_seen(SeatRef(game, 0))
        assert [m.text() for m in umtali_match(store, game).hands[0].moves_played()][1] == moves[1]


# -- any game ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "seats"), [("umtali", 2), ("gin", 2), ("gin", 3), ("gin", 4)])
def test_a_game_of_any_game_and_seat_count_is_stored_and_read_back(
    store: Store, game: str, seats: int
) -> None:
    """A new match of any registered game, made by its maker, is stored from its
    record's head and read back to the very same record."""
    session = games.get(game).maker().new(seed=5, humans={0}, seats=seats)
    new = store.create_game(session.match, seats=(0,))
    assert dumps(store.load_match(new.game_id)) == dumps(session.match)


def test_a_match_with_hands_is_not_stored(store: Store) -> None:
    session = games.get("umtali").maker().new(seed=5, humans={0}, seats=2)
    session.deal()
    with pytest.raises(StoreError, match="before its first deal"):
        store.create_game(session.match, seats=(0,))


def test_a_deal_at_two_tables_is_stored_whole_or_not_at_all(store: Store) -> None:
    """The hands of a four-hand deal are stored in one transaction: a deal refused at
    its second table stores nothing, and a player is dealt one hand at a time."""
    session = games.get("gin").maker().new(seed=6, humans={0}, seats=4)
    game = store.create_game(session.match, seats=(0,)).game_id
    due = session.deals_due()
    assert [deal.players for deal in due] == [(0, 1), (2, 3)]
    decks = [seeded_deck(f"6/{index}") for index in range(2)]
    clash = [Deal(decks[0], 0, (0, 1)), Deal(decks[1], 1, (1, 2))]
    with pytest.raises(StoreError, match="hand 0 is still in play"):
        store.start_hands(game, 0, clash)
    assert store.commitments(game) == {}
    deals = [Deal(deck, due_.dealer, due_.players) for deck, due_ in zip(decks, due, strict=True)]
    assert len(store.start_hands(game, 0, deals)) == 2
    session.deal(decks)
    assert dumps(store.load_match(game)) == dumps(session.match)


def test_a_player_is_dealt_no_second_hand_while_one_is_in_play(store: Store) -> None:
    game = new_game(store, kind="game")
    store.start_hand(game, 0, seeded_deck(1))
    with pytest.raises(StoreError, match="hand 0 is still in play"):
        store.start_hand(game, 1, seeded_deck(2), dealer=0)
