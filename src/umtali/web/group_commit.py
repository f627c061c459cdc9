"""Group commit: the frequent small writes of many threads, committed together.

A move or a heartbeat is one small write, and each commit waits for the disk. Written
one transaction each, the writes of a busy server queue behind one another: on SQLite,
which lets one connection write at a time, every writer holds the write lock through
its own statements and its own sync, and a thread holding it also waits its turn for
Python's interpreter lock while the event loop runs. A queue of twenty writes is then
twenty syncs and twenty hand-overs long, and the move at its end waits for all of them.

:class:`GroupCommit` lets the writes that arrive while one is being committed go
together in the next transaction. Each write runs in a savepoint of that transaction,
so one that fails (a move already stored, a game that is over) is undone alone and
raises its error to its own caller; the others commit. The transaction's commit
acknowledges them all: no caller returns before its write is on the disk, and if the
commit fails every caller of the group gets the error, so nothing is acknowledged that
was not stored.

No thread of its own is needed. The first writer to find nobody committing becomes the
*leader*: it takes what is queued and commits it. Writers arriving meanwhile wait on
their own event. When the leader has committed, it hands the lead to the first writer
still waiting, so no caller stays behind to commit other callers' writes after its own.

>>> import sqlite3
>>> from contextlib import contextmanager
>>> db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
>>> _ = db.execute("CREATE TABLE moves (n INTEGER PRIMARY KEY)")
>>> @contextmanager
... def transaction():
...     db.execute("BEGIN IMMEDIATE")
...     try:
...         yield db
...     except BaseException:
...         db.execute("ROLLBACK")
...         raise
...     db.execute("COMMIT")
>>> @contextmanager
... def savepoint(connection):
...     connection.execute("SAVEPOINT job")
...     try:
...         yield
...     except BaseException:
...         connection.execute("ROLLBACK TO job")
...         raise
...     finally:
...         connection.execute("RELEASE job")
>>> writes = GroupCommit(transaction, savepoint)
>>> writes.run(lambda c: c.execute("INSERT INTO moves VALUES (1)").rowcount)
1
>>> writes.run(lambda c: c.execute("INSERT INTO moves VALUES (1)"))
Traceback (most recent call last):
...
sqlite3.IntegrityError: UNIQUE constraint failed: moves.n
>>> db.execute("SELECT count(*) FROM moves").fetchone()
(1,)
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Generic, TypeVar

__all__ = ["GroupCommit"]

C = TypeVar("C")
"""The connection a write is given."""
T = TypeVar("T")

MAX_GROUP: int = 64
"""The most writes committed together: enough to empty any queue a burst makes, few
enough that a savepoint's work never makes the group's first write wait long."""


class _Write(Generic[C]):
    """One caller's write: the work, and then its outcome."""

    __slots__ = ("done", "error", "result", "wake", "work")

    def __init__(self, work: Callable[[C], object]) -> None:
        self.work = work
        self.wake = threading.Event()
        """Set when the write is committed (or failed), or when its caller is to lead."""
        self.done = False
        self.result: object = None
        self.error: BaseException | None = None


class GroupCommit(Generic[C]):
    """Commit the writes of many threads in shared transactions.

    Args:
        transaction: a context manager factory that begins a write transaction and
            yields its connection; it commits when the block ends without an error,
            and rolls back when it raises.
        savepoint: a context manager factory that, given the connection, wraps one
            write in a savepoint: released when the write succeeds, rolled back (and
            the error raised again) when it fails.
    """

    def __init__(
        self,
        transaction: Callable[[], AbstractContextManager[C]],
        savepoint: Callable[[C], AbstractContextManager[object]],
    ) -> None:
        self._transaction = transaction
        self._savepoint = savepoint
        self._mutex = threading.Lock()
        self._queue: list[_Write[C]] = []
        self._leading = False

    def run(self, work: Callable[[C], T]) -> T:
        """Run ``work`` with the connection of a write transaction, and return what it
        returned once that transaction is committed; raise what it raised (its
        savepoint undone), or the commit's own error."""
        write: _Write[C] = _Write(work)
        with self._mutex:
            self._queue.append(write)
            lead = not self._leading
            self._leading = True
        if not lead:
            write.wake.wait()
        if not write.done:  # this caller leads: its own write is first in the queue
            self._lead()
        if write.error is not None:
            raise write.error
        return write.result  # type: ignore[return-value]  # what ``work`` returned

    def _lead(self) -> None:
        """Commit what is queued, then pass the lead on (or give it up)."""
        with self._mutex:
            group, self._queue = self._queue[:MAX_GROUP], self._queue[MAX_GROUP:]
        try:
            self._commit(group)
        finally:
            with self._mutex:
                if self._queue:
                    self._queue[0].wake.set()  # not done: it wakes to lead
                else:
                    self._leading = False
            for write in group:
                write.done = True
                write.wake.set()

    def _commit(self, group: list[_Write[C]]) -> None:
        """Each write in its savepoint, then one commit for all of them."""
        try:
            with self._transaction() as connection:
                for write in group:
                    try:
                        with self._savepoint(connection):
                            write.result = write.work(connection)
                    except Exception as error:  # the write's own failure: it alone is undone
                        write.error = error
        except BaseException as error:  # the transaction failed: nothing of it was stored
            for write in group:
                write.result = None
                write.error = error
            if not isinstance(error, Exception):
                raise
