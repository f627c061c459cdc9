"""Klaberjass in the arena and in ``umtali bench``: its hands' ends in its words, its
final totals with the pots paid, and its engine timed."""

from __future__ import annotations

from umtali.games.klaberjass.arena import KlaberjassBench
from umtali.sim.arena import run_arena
from umtali.sim.bench import run_bench


def test_the_arena_tells_how_each_hand_went_and_counts_the_pots() -> None:
    result = run_arena("expert", "greedy", 4, seed=3, jobs=1, game="klaberjass")
    assert len(result.records) == 8  # four deals, each played from both seats
    for record in result.records:
        assert set(record.ends) <= {"made", "failed", "tied", "thrown_in"}
        assert len(record.ends) == len(record.hands)
        # The final totals are the hands' scores plus what no hand's own score holds:
        # the pots that hands paid (never negative).
        assert min(record.bonuses) >= 0
    assert "thrown_in" in {end for record in result.records for end in record.ends}


def test_the_bench_times_random_play_and_legal_moves() -> None:
    report = run_bench(0.3, 1, game="klaberjass")
    assert isinstance(report, KlaberjassBench)
    assert report.hands > 0
    assert report.moves > 18 * report.hands // 2  # a played hand has 18 cards and bids
    # The legal moves are timed over whole hands for a share of the time: at least one
    # hand's positions, four when it is thrown in (how many more depends on the load).
    assert report.legal_calls >= 4
    text = report.report()
    assert f"random hands played : {report.hands:,}" in text
    assert "legal_actions call" in text
