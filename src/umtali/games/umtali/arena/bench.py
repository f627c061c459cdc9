"""Umtali's ``umtali bench``: uniform-random play on one core, timed. Prints figures;
asserts nothing. The command reaches it through the registry (Umtali's arena hook,
:mod:`umtali.sim.bench`).

The player loop uses the public API only: :meth:`HandState.legal_actions` (one list per
decision) and :meth:`HandState.push`; the playouts add :class:`PlayerView` and
:func:`determinize`. ``umtali bench --peers`` (:mod:`umtali.sim.peers`) runs the same kind
of play beside other engines.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

from umtali.games.umtali.melds import meld_plans
from umtali.games.umtali.rules import STANDARD, RuleSet
from umtali.games.umtali.state import HandState
from umtali.games.umtali.terms import Phase
from umtali.games.umtali.view import PlayerView, determinize
from umtali.kernel.deck import shuffled_deck
from umtali.sim.bench import clock_overhead

__all__ = ["PLAYOUTS_PER_VIEW", "BenchResult", "run_bench"]


@dataclass(frozen=True)
class BenchResult:
    seconds: float
    hands: int
    moves: int
    legal_calls: int
    legal_seconds: float
    legal_median_ns: float = float("nan")
    playout_rates: tuple[float, ...] = ()
    search_playout_rates: tuple[float, ...] = ()
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
        """Determinize+playout per second with a new view each time: the median block."""
        return statistics.median(self.playout_rates) if self.playout_rates else 0.0

    @property
    def search_playouts_per_second(self) -> float:
        """The same with :data:`PLAYOUTS_PER_VIEW` playouts per view: the median block."""
        rates = self.search_playout_rates
        return statistics.median(rates) if rates else 0.0

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
        if self.playout_rates:
            lines.append(
                f"determinize+playout : {self.search_playouts_per_second:,.0f} per second"
                f" with {PLAYOUTS_PER_VIEW} per view, as in a search"
                f" ({_spread(self.search_playout_rates)});"
                f" {self.playouts_per_second:,.0f} per second with a new view each time"
                f" ({_spread(self.playout_rates)})"
            )
        return "\n".join(lines)


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

    # The two kinds of playout take turns in short blocks, and each figure is the median
    # block: a slow spell of a shared machine falls on both and moves neither much.
    fresh: list[float] = []
    searched: list[float] = []
    block = seconds / 8 / PLAYOUT_BLOCKS
    for _ in range(PLAYOUT_BLOCKS if views else 0):
        fresh.append(_playout_rate(views, 1, block, rng))
        searched.append(_playout_rate(views, PLAYOUTS_PER_VIEW, block, rng))
    plan_times = _time_meld_plans(at_draw[:20_000], overhead)
    return BenchResult(
        play_seconds,
        hands,
        moves,
        len(times),
        sum(times) / 1e9,
        statistics.median(times) if times else float("nan"),
        tuple(fresh),
        tuple(searched),
        len(plan_times),
        statistics.median(plan_times) if plan_times else float("nan"),
        statistics.fmean(plan_times) if plan_times else float("nan"),
    )


def _time_meld_plans(hands: list[tuple[int, int]], overhead: int) -> list[int]:
    """Nanoseconds of :func:`umtali.games.umtali.melds.meld_plans` on each (hand, table openings)."""
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


PLAYOUT_BLOCKS = 8
"""Blocks of each kind of playout; the figures are the median block."""


def _playout_rate(
    views: list[PlayerView], per_view: int, seconds: float, rng: random.Random
) -> float:
    """Determinize and play out at random, ``per_view`` times for each view in turn
    (starting at a random view), for about ``seconds``; playouts per second. Worlds keep
    no undo: a playout never pops (:meth:`HandState.forget_undo`). The playout is
    :meth:`HandState.play_out`, the engine's random rollout."""
    playouts = 0
    first = rng.randrange(len(views))
    start = now = time.perf_counter()
    deadline = start + seconds
    while now < deadline:
        view = views[(first + playouts // per_view) % len(views)]
        determinize(view, rng, undo=False).play_out(rng)
        playouts += 1
        now = time.perf_counter()
    return playouts / (now - start)


def _spread(rates: tuple[float, ...]) -> str:
    return f"median of {len(rates)} blocks, {min(rates):,.0f} to {max(rates):,.0f}"
