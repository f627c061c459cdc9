"""``umtali bench``: uniform-random play on one core, timed. Prints figures; asserts nothing.

The player loop uses the public API only: :meth:`HandState.legal_actions` (one list per
decision) and :meth:`HandState.push`; the playouts add :class:`PlayerView` and
:func:`determinize`. ``umtali bench --peers`` (:mod:`umtali.sim.peers`) runs the same kind
of play beside other engines.
"""

from __future__ import annotations

import os
import random
import statistics
import time
from dataclasses import dataclass

from umtali.deck import shuffled_deck
from umtali.melds import meld_plans
from umtali.rules import STANDARD, RuleSet
from umtali.state import HandState, Phase
from umtali.view import PlayerView, determinize

__all__ = ["BenchResult", "clock_overhead", "pin_to_one_core", "run_bench"]


@dataclass(frozen=True)
class BenchResult:
    seconds: float
    hands: int
    moves: int
    legal_calls: int
    legal_seconds: float
    legal_median_ns: float = float("nan")
    playouts: int = 0
    playout_seconds: float = 0.0
    search_playouts: int = 0
    search_playout_seconds: float = 0.0
    plan_calls: int = 0
    plan_median_ns: float = float("nan")
    plan_mean_ns: float = float("nan")

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds

    @property
    def legal_moves_microseconds(self) -> float:
        return 1e6 * self.legal_seconds / max(1, self.legal_calls)

    @property
    def playouts_per_second(self) -> float:
        return self.playouts / self.playout_seconds if self.playout_seconds else 0.0

    @property
    def search_playouts_per_second(self) -> float:
        seconds = self.search_playout_seconds
        return self.search_playouts / seconds if seconds else 0.0

    def report(self) -> str:
        lines = [
            f"random hands played : {self.hands:,} in {self.seconds:.1f} s",
            f"hands per second    : {self.hands_per_second:,.0f}",
            f"moves per second    : {self.moves_per_second:,.0f}",
            f"legal_moves call    : {self.legal_median_ns / 1000:.2f} µs median,"
            f" {self.legal_moves_microseconds:.2f} µs mean"
            f" over {self.legal_calls:,} fresh positions",
        ]
        if self.plan_calls:
            lines.append(
                f"meld_plans call     : {self.plan_median_ns / 1000:.2f} µs median,"
                f" {self.plan_mean_ns / 1000:.2f} µs mean over {self.plan_calls:,} hands"
                " at a draw (the bots' meld planning)"
            )
        if self.playouts:
            lines.append(
                f"determinize+playout : {self.search_playouts_per_second:,.0f} per second"
                f" with {PLAYOUTS_PER_VIEW} per view, as in a search;"
                f" {self.playouts_per_second:,.0f} per second with a new view each time"
            )
        return "\n".join(lines)


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

    Half the time goes to the plain player loop (hands/s, moves/s); a quarter times each
    legal-move generation on fresh positions of the same kind of play (the clock's own
    cost taken off); the last quarter determinizes views met in random play and plays
    each out at random to the end of the hand, the unit of work of a search bot: first
    with a new view each time, then :data:`PLAYOUTS_PER_VIEW` times per view.
    """
    if seconds <= 0:
        raise ValueError(f"the benchmark needs a positive number of seconds, not {seconds}")
    rng = random.Random(seed)
    hands = moves = 0
    start = time.perf_counter()
    deadline = start + seconds / 2
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

    clock = time.perf_counter_ns
    overhead = clock_overhead()
    times: list[int] = []
    views: list[PlayerView] = []
    at_draw: list[tuple[int, int]] = []
    deadline = time.perf_counter() + seconds / 4
    while time.perf_counter() < deadline:
        state = HandState(shuffled_deck(rng), rng.randrange(2), rules)
        while not state.is_over():
            t0 = clock()
            legal = state.legal_actions()
            times.append(clock() - t0 - overhead)
            if state.phase != Phase.CHOOSE and rng.random() < 0.1:
                views.append(PlayerView.of(state, state.player, with_history=False))
            if state.phase == Phase.DRAW:
                at_draw.append((state.hands[state.player], state.open_mask))
            state.push(legal[rng.randrange(len(legal))])

    fresh = _playouts(views, 1, seconds / 8, rng)
    searched = _playouts(views, PLAYOUTS_PER_VIEW, seconds / 8, rng)
    plan_times = _time_meld_plans(at_draw[:20_000], overhead)
    return BenchResult(
        play_seconds,
        hands,
        moves,
        len(times),
        sum(times) / 1e9,
        statistics.median(times) if times else float("nan"),
        *fresh,
        *searched,
        len(plan_times),
        statistics.median(plan_times) if plan_times else float("nan"),
        statistics.fmean(plan_times) if plan_times else float("nan"),
    )


def _time_meld_plans(hands: list[tuple[int, int]], overhead: int) -> list[int]:
    """Nanoseconds of :func:`umtali.melds.meld_plans` on each (hand, table openings)."""
    clock = time.perf_counter_ns
    times = []
    for hand, open_mask in hands:
        t0 = clock()
        meld_plans(hand, open_mask)
        times.append(clock() - t0 - overhead)
    return times


PLAYOUTS_PER_VIEW = 16
"""Playouts per view in the search-like figure: a search decision determinizes one view
many times (the ``search`` bot up to 240), which lets it reuse what depends on the view
alone (the table's indexes)."""


def _playouts(
    views: list[PlayerView], per_view: int, seconds: float, rng: random.Random
) -> tuple[int, float]:
    """Determinize and play out at random, ``per_view`` times for each view in turn, for
    about ``seconds``; the count and the time taken. Worlds keep no undo: a playout never
    pops (:meth:`HandState.forget_undo`)."""
    playouts = 0
    start = now = time.perf_counter()
    deadline = start + seconds
    while views and now < deadline:
        view = views[playouts // per_view % len(views)]
        world = determinize(view, rng, undo=False)
        while not world.is_over():
            legal = world.legal_actions()
            world.push(legal[rng.randrange(len(legal))])
        playouts += 1
        now = time.perf_counter()
    return playouts, now - start


def clock_overhead() -> int:
    """The median nanoseconds of two back-to-back clock reads, taken off each timing."""
    clock = time.perf_counter_ns
    samples = []
    for _ in range(2001):
        t0 = clock()
        samples.append(clock() - t0)
    return int(statistics.median(samples))
