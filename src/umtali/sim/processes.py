"""Tasks played in worker processes, each result handed over as it comes, and every
worker stopped at once when anything goes wrong.

The arena's runs once used :class:`multiprocessing.pool.Pool`, whose ``terminate()``
can hang for ever when a worker's error stops the run while the pool's own threads are
still handing out tasks (CPython issues 78178 and 96995: the task handler waits on a
queue's lock that nobody will release). Here nothing is shared between the processes
but one pipe each: the parent sends a worker its next task when the last one's result
comes back, so no lock can be left held, and stopping the run is killing the workers.

>>> results = []
>>> play_in_processes(abs, [-3, 1, -2], 2, results.append)
>>> sorted(results)
[1, 2, 3]
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any, TypeVar

__all__ = ["WorkerDiedError", "play_in_processes"]

T = TypeVar("T")
R = TypeVar("R")


class WorkerDiedError(RuntimeError):
    """A worker process ended without giving its task's result or error (killed by the
    system, out of memory, or a crash of the interpreter)."""


def play_in_processes(
    function: Callable[[T], R],
    tasks: Iterable[T],
    workers: int,
    on_result: Callable[[R], None],
) -> None:
    """``function(task)`` for every task, in ``workers`` processes, ``on_result`` called in
    this process with each result as it comes (in the order they finish).

    An error raised by ``function`` in a worker is raised here (the same exception,
    pickled); an error in ``on_result``, Ctrl-C, or a worker that dies, stops every
    worker at once before it propagates (a dead worker as :class:`WorkerDiedError`).
    Workers ignore Ctrl-C: the parent stops the run. Each task and result crosses a pipe,
    so both must pickle.
    """
    if workers < 1:
        raise ValueError(f"play_in_processes needs at least one worker, not {workers}")
    context = multiprocessing.get_context()
    pending: Iterator[T] = iter(tasks)
    processes: dict[Connection, Any] = {}
    try:
        for _ in range(workers):
            ours, theirs = context.Pipe()
            process = context.Process(target=_serve, args=(theirs, function), daemon=True)
            process.start()
            theirs.close()
            processes[ours] = process
        busy: set[Connection] = set()
        for conn in processes:
            if _hand_next(conn, pending):
                busy.add(conn)
        while busy:
            sentinels = {processes[conn].sentinel: conn for conn in busy}
            ready = wait([*busy, *sentinels])
            for conn in [r for r in ready if r in busy]:
                _take_result(conn, processes[conn], on_result)
                if not _hand_next(conn, pending):
                    busy.discard(conn)
            for sentinel, conn in sentinels.items():
                if sentinel in ready and conn in busy and not conn.poll():
                    raise _died(processes[conn])
    finally:
        for process in processes.values():
            if process.is_alive():
                process.kill()
        for conn, process in processes.items():
            process.join()
            conn.close()


def _hand_next(conn: Connection, pending: Iterator[T]) -> bool:
    """Send the worker its next task (True), or tell it there is none (False)."""
    task = next(pending, _DONE)
    conn.send(task)
    return task is not _DONE


def _take_result(conn: Connection, process: Any, on_result: Callable[[R], None]) -> None:
    try:
        kind, value = conn.recv()
    except EOFError:
        raise _died(process) from None
    if kind == "error":
        raise value
    on_result(value)


def _died(process: Any) -> WorkerDiedError:
    """The error of a worker that has ended without a word (reaped, for its exit code)."""
    process.join()
    return WorkerDiedError(
        f"a worker process ended without its task's result (exit code {process.exitcode})"
    )


class _Done:
    """The message that tells a worker there are no more tasks."""

    def __reduce__(self) -> str:
        return "_DONE"  # the same object in every process


_DONE: Any = _Done()


def _serve(conn: Connection, function: Callable[[Any], Any]) -> None:
    """A worker: take tasks from ``conn`` and send back each one's result, until told
    there are no more or a task fails (its error sent back, and the worker ends)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        task = conn.recv()
        if task is _DONE:
            return
        try:
            result = function(task)
        except BaseException as error:  # every failure goes to the parent
            conn.send(("error", error))
            return
        conn.send(("ok", result))
