"""Tasks in worker processes (:mod:`umtali.sim.processes`): every result comes back, and
a failure anywhere stops every worker at once, without the hang of a pool's
``terminate()`` (an arena test once hung there for half an hour)."""

from __future__ import annotations

import multiprocessing
import os

import pytest

from umtali.sim.processes import WorkerDiedError, play_in_processes


def _square(n: int) -> int:
    return n * n


def _fails_on_seven(n: int) -> int:
    if n == 7:
        raise ValueError("seven is not played")
    return n


def _dies_on_three(n: int) -> int:
    if n == 3:
        os._exit(9)  # as a worker killed by the system ends: no word to the parent
    return n


def _no_workers_left() -> bool:
    return not multiprocessing.active_children()


@pytest.mark.parametrize("workers", [1, 2, 5])
def test_every_task_s_result_comes_back_once(workers: int) -> None:
    results: list[int] = []
    play_in_processes(_square, range(40), workers, results.append)
    assert sorted(results) == [n * n for n in range(40)]
    assert _no_workers_left()


def test_no_task_needs_no_worker_to_do_anything() -> None:
    results: list[int] = []
    play_in_processes(_square, [], 3, results.append)
    assert results == []
    with pytest.raises(ValueError, match="at least one worker"):
        play_in_processes(_square, [1], 0, results.append)


def test_a_task_s_error_is_raised_here_and_every_worker_stops() -> None:
    # Many times over, with tasks still queued behind the failing one: the case in
    # which the pool's terminate() could hang.
    for _ in range(20):
        with pytest.raises(ValueError, match="seven is not played"):
            play_in_processes(_fails_on_seven, range(200), 2, lambda _: None)
        assert _no_workers_left()


def test_a_worker_that_dies_stops_the_run() -> None:
    with pytest.raises(WorkerDiedError, match="exit code 9"):
        play_in_processes(_dies_on_three, range(10), 2, lambda _: None)
    assert _no_workers_left()


def test_an_error_in_the_parent_stops_every_worker() -> None:
    seen: list[int] = []

    def refuse(n: int) -> None:
        seen.append(n)
        raise KeyboardInterrupt  # as Ctrl-C would, while the workers are busy

    with pytest.raises(KeyboardInterrupt):
        play_in_processes(_square, range(100), 2, refuse)
    assert len(seen) == 1
    assert _no_workers_left()
