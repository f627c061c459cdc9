"""``umtali bench``: uniform-random play on one core, timed. Prints figures; asserts nothing.

The player loop uses the public API only: :meth:`HandState.legal_actions` (one list per
decision) and :meth:`HandState.push`.
"""

from __future__ import annotations

import os
import random
import time
from dataclasses import dataclass

from umtali.deck import shuffled_deck
from umtali.rules import STANDARD, RuleSet
from umtali.state import HandState

__all__ = ["BenchResult", "pin_to_one_core", "run_bench"]


@dataclass(frozen=True)
class BenchResult:
    seconds: float
    hands: int
    moves: int
    legal_calls: int
    legal_seconds: float

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds

    @property
    def legal_moves_microseconds(self) -> float:
        return 1e6 * self.legal_seconds / max(1, self.legal_calls)

    def report(self) -> str:
        return "\n".join(
            [
                f"random hands played : {self.hands} in {self.seconds:.1f} s",
                f"hands per second    : {self.hands_per_second:,.0f}",
                f"moves per second    : {self.moves_per_second:,.0f}",
                f"legal_moves call    : {self.legal_moves_microseconds:.2f} µs mean"
                f" over {self.legal_calls:,} fresh positions",
            ]
        )


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


def run_bench(seconds: float = 5.0, seed: int = 0, rules: RuleSet = STANDARD) -> BenchResult:
    """Play uniform-random hands for about ``seconds`` and measure.

    Two thirds of the time go to the plain player loop (hands/s, moves/s); the rest times
    each legal-move generation on fresh positions of the same kind of play.
    """
    if seconds <= 0:
        raise ValueError(f"the benchmark needs a positive number of seconds, not {seconds}")
    rng = random.Random(seed)
    hands = moves = 0
    start = time.perf_counter()
    deadline = start + seconds * 2 / 3
    now = start
    while now < deadline:
        state = HandState(shuffled_deck(rng), rng.randrange(2), rules)
        while not state.is_over():
            legal = state.legal_actions()
            state.push(legal[rng.randrange(len(legal))])
            moves += 1
        hands += 1
        now = time.perf_counter()
    play_seconds = now - start

    calls = 0
    legal_seconds = 0.0
    timer = time.perf_counter
    deadline = now + seconds / 3
    while timer() < deadline:
        state = HandState(shuffled_deck(rng), rng.randrange(2), rules)
        while not state.is_over():
            t0 = timer()
            legal = state.legal_actions()
            legal_seconds += timer() - t0
            calls += 1
            state.push(legal[rng.randrange(len(legal))])
    return BenchResult(play_seconds, hands, moves, calls, legal_seconds)
