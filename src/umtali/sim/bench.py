"""``umtali bench``: a game's engine played at random on one core, timed. Prints figures;
asserts nothing.

What is timed is the game's own (its arena hook's ``bench``, :mod:`umtali.sim.hooks`):
Umtali's plays whole hands through its engine's public API, times each legal-move call
and the search bots' determinize-and-play-out. What every benchmark shares is here:
pinning the process to one core, and the clock's own cost, taken off each timed call.
``umtali bench --peers`` (:mod:`umtali.sim.peers`) races the games' engines beside
other programs'.
"""

from __future__ import annotations

import os
import statistics
import time

from umtali import games
from umtali.games import DEFAULT_GAME
from umtali.sim.hooks import BenchReport, hook_of

__all__ = ["clock_overhead", "pin_to_one_core", "run_bench"]


def pin_to_one_core() -> str:
    """Pin this process to one core where the OS allows it; say what was done."""
    if hasattr(os, "sched_setaffinity"):
        try:
            core = min(os.sched_getaffinity(0))
            os.sched_setaffinity(0, {core})
            return f"pinned to core {core}"
        except OSError:
            pass
    return "not pinned (the OS does not allow it)"


def clock_overhead() -> int:
    """The median nanoseconds of two back-to-back clock reads, taken off each timing."""
    clock = time.perf_counter_ns
    samples = []
    for _ in range(2001):
        t0 = clock()
        samples.append(clock() - t0)
    return int(statistics.median(samples))


def run_bench(seconds: float = 5.0, seed: int = 0, game: str = DEFAULT_GAME) -> BenchReport:
    """Play ``game``'s engine at random for about ``seconds`` and measure (see the
    game's arena hook); ``ValueError`` for a game that has no benchmark."""
    result = hook_of(game).bench(seconds, seed)
    if result is None:
        raise ValueError(f"{games.get(game).title} has no engine benchmark")
    return result
