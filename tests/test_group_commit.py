"""Group commit (umtali.web.group_commit): writes of many threads share transactions, each
caller gets its own outcome, and nothing is acknowledged that was not committed."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

import pytest

from umtali.web.group_commit import MAX_GROUP, GroupCommit


class Database:
    """An SQLite file with a table of moves, counting the commits made on it."""

    def __init__(self, path: Path) -> None:
        self.connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self.connection.execute("CREATE TABLE moves (n INTEGER PRIMARY KEY)")
        self.commits = 0
        self.fail_next_commit = False
        self.inside = threading.Event()
        """Set while a transaction is open (so a test can queue writes behind it)."""
        self.hold = threading.Event()
        self.hold.set()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        self.connection.execute("BEGIN IMMEDIATE")
        try:
            self.inside.set()
            self.hold.wait()
            yield self.connection
            if self.fail_next_commit:
                self.fail_next_commit = False
                raise sqlite3.OperationalError("disk I/O error")
        except BaseException:
            self.connection.execute("ROLLBACK")
            raise
        finally:
            self.inside.clear()
        self.connection.execute("COMMIT")
        self.commits += 1

    @staticmethod
    @contextmanager
    def savepoint(connection: sqlite3.Connection) -> Iterator[None]:
        connection.execute("SAVEPOINT write")
        try:
            yield
        except BaseException:
            connection.execute("ROLLBACK TO write")
            raise
        finally:
            connection.execute("RELEASE write")

    def stored(self) -> list[int]:
        return [n for (n,) in self.connection.execute("SELECT n FROM moves ORDER BY n")]


@pytest.fixture
def db(tmp_path: Path) -> Database:
    return Database(tmp_path / "moves.db")


def insert(n: int) -> Callable[[sqlite3.Connection], int]:
    def work(connection: sqlite3.Connection) -> int:
        connection.execute("INSERT INTO moves VALUES (?)", (n,))
        return n * 10

    return work


def test_each_writer_gets_its_own_result_and_error(db: Database) -> None:
    writes = GroupCommit(db.transaction, Database.savepoint)
    # Moves 0-199 from 8 threads; every 7th is a move already stored (a conflict).
    db.connection.execute("INSERT INTO moves VALUES (-7)")

    def write(n: int) -> int | sqlite3.IntegrityError:
        target = -7 if n % 7 == 0 else n
        try:
            return writes.run(insert(target))
        except sqlite3.IntegrityError as error:
            return error

    with ThreadPoolExecutor(8) as pool:
        outcomes = list(pool.map(write, range(200)))
    for n, outcome in enumerate(outcomes):
        if n % 7 == 0:
            assert isinstance(outcome, sqlite3.IntegrityError)
        else:
            assert outcome == n * 10
    assert db.stored() == [-7] + [n for n in range(200) if n % 7]


def test_writes_that_arrive_during_a_commit_go_in_the_next_one_together(db: Database) -> None:
    writes = GroupCommit(db.transaction, Database.savepoint)
    db.hold.clear()  # the first write's transaction waits, so the others queue behind it
    with ThreadPoolExecutor(21) as pool:
        first = pool.submit(writes.run, insert(0))
        assert db.inside.wait(5)
        rest = [pool.submit(writes.run, insert(n)) for n in range(1, 21)]
        while len(writes._queue) < 20:  # every one queued before the first commits
            threading.Event().wait(0.001)
        db.hold.set()
        assert first.result(5) == 0
        assert [f.result(5) for f in rest] == [n * 10 for n in range(1, 21)]
    assert db.commits == 2  # one for the first write, one for the twenty behind it
    assert db.stored() == list(range(21))


def test_a_group_is_at_most_max_group_writes(db: Database) -> None:
    writes = GroupCommit(db.transaction, Database.savepoint)
    db.hold.clear()
    behind = MAX_GROUP + 5
    with ThreadPoolExecutor(behind + 1) as pool:
        first = pool.submit(writes.run, insert(0))
        assert db.inside.wait(5)
        rest = [pool.submit(writes.run, insert(n)) for n in range(1, behind + 1)]
        while len(writes._queue) < behind:
            threading.Event().wait(0.001)
        db.hold.set()
        first.result(5)
        for f in rest:
            f.result(5)
    assert db.commits == 3  # the first, then 64, then 5
    assert len(db.stored()) == behind + 1


def test_a_failed_commit_fails_every_write_of_its_group_and_stores_none(
    db: Database,
) -> None:
    writes = GroupCommit(db.transaction, Database.savepoint)
    writes.run(insert(1))
    db.hold.clear()
    with ThreadPoolExecutor(6) as pool:
        first = pool.submit(writes.run, insert(2))
        assert db.inside.wait(5)
        rest = [pool.submit(writes.run, insert(n)) for n in range(3, 8)]
        while len(writes._queue) < 5:
            threading.Event().wait(0.001)
        db.fail_next_commit = True  # the first transaction (write 2 alone) fails to commit
        db.hold.set()
        with pytest.raises(sqlite3.OperationalError, match="disk I/O"):
            first.result(5)
        assert [f.result(5) for f in rest] == [n * 10 for n in range(3, 8)]
    assert db.stored() == [1, 3, 4, 5, 6, 7]  # 2 was never acknowledged, nor stored


def test_after_a_failed_commit_the_next_writer_leads(db: Database) -> None:
    writes = GroupCommit(db.transaction, Database.savepoint)
    db.fail_next_commit = True
    with pytest.raises(sqlite3.OperationalError):
        writes.run(insert(1))
    assert writes.run(insert(2)) == 20
    assert db.stored() == [2]
