"""``umtali bench --peers``: the engines side by side. Figures are printed, not asserted;
these tests check that every engine really plays and that the report adds up."""

from __future__ import annotations

import inspect
import os
import random
import statistics
from pathlib import Path

import pytest

from tests.test_cli import run
from umtali.games.gin.arena import peers as gin_peers
from umtali.games.umtali.arena.engines import UmtaliActions, UmtaliMoves
from umtali.rl import bench as rl_bench
from umtali.rl.encoding import researched
from umtali.rl.pettingzoo import OrderEnforcing
from umtali.sim import peers
from umtali.sim.bench import run_bench
from umtali.sim.peers import (
    PeerTally,
    compare_engines,
    load_engines,
    peer_report,
)


def test_umtali_engines_play_and_time_their_legal_moves() -> None:
    engines: list[peers.Engine] = [UmtaliActions(), UmtaliMoves()]
    tallies = compare_engines(engines, seconds=0.2, block=0.1, seed=3)
    for tally in tallies:
        assert tally.hands > 0
        # A random hand of Umtali runs to dozens of moves: these are whole hands.
        assert tally.moves > 20 * tally.hands
        assert tally.legal_ns
        # Each timed call is a few microseconds (the timer's own cost taken off): not a
        # millisecond, and not below zero by more than the timer's jitter.
        assert tally.legal_median_us < 1000
        assert statistics.median(tally.legal_ns) > 0
        assert tally.moves_per_second > 0
        assert tally.legal_median_us > 0


def test_both_umtali_interfaces_play_the_same_hands() -> None:
    # The same seed deals the same hands and makes the same random choices, whichever
    # interface reads the legal moves: the Move objects are the same moves in order.
    assert UmtaliActions().play_hand(random.Random(8)) == UmtaliMoves().play_hand(random.Random(8))


def test_the_report_gives_ratios_against_each_peer() -> None:
    ours = PeerTally("umtali (action ints)", "0.1.0", seconds=2.0, hands=100, moves=8000)
    peer = PeerTally("open_spiel gin_rummy", "2.0.2", seconds=2.0, hands=10, moves=2000)
    ours.legal_ns.extend([2000, 3000, 4000])
    peer.legal_ns.extend([500])
    text = peer_report([ours, peer], ["rlcard is not installed"], "pinned to core 0")
    assert "4,000" in text
    assert "1,000" in text
    assert "3.00" in text  # the median legal-moves call, µs
    assert "4.0× open_spiel gin_rummy" in text
    assert "left out: rlcard is not installed" in text


def test_the_gin_rummy_peers_are_compared_with_gin_and_umtali_and_no_other_game() -> None:
    ours = PeerTally("umtali PettingZoo env", "0.1.0", seconds=1.0, hands=10, moves=4000)
    gin = PeerTally("umtali gin PettingZoo env", "0.1.0", seconds=1.0, hands=10, moves=2000)
    other = PeerTally("umtali klaberjass PettingZoo env", "0.1.0", 1.0, 10, 3000)
    peer = PeerTally("open_spiel gin_rummy", "2.0.2", seconds=1.0, hands=10, moves=1000)
    text = peer_report([ours, gin, other, peer], [], "")
    assert "umtali klaberjass PettingZoo env" in text  # its figures are in the table
    ratios = text.split("ours ÷ peer")[1]
    assert "4.0× open_spiel gin_rummy" in ratios
    assert "umtali gin PettingZoo env" in ratios  # the peers' own game: the fairest race
    assert "2.0× open_spiel gin_rummy" in ratios
    assert "klaberjass" not in ratios


def test_a_missing_peer_is_left_out_with_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    def not_installed(*args: object) -> None:
        raise ImportError("No module named 'pyspiel'")

    monkeypatch.setattr(gin_peers.OpenSpielGin, "__init__", not_installed)
    monkeypatch.setattr(gin_peers.RLCardGin, "__init__", not_installed)
    monkeypatch.setattr(rl_bench.PettingZooEngine, "__init__", not_installed)
    monkeypatch.setattr(rl_bench.BatchEngine, "__init__", not_installed)
    engines, missing = load_engines(0, more=rl_bench.ENGINES)
    assert [e.name for e in engines] == [
        "umtali (action ints)",
        "umtali (Move objects)",
        "umtali gin_rummy",
    ]
    assert len(missing) == 2 + len(rl_bench.ENGINES)
    assert sum("pip install -e '.[bench]'" in m for m in missing) == 2
    # The env, the batches of two sizes and the parallel one, of every researched game.
    assert sum("pip install -e '.[rl]'" in m for m in missing) == 4 * len(researched())


def test_the_benchmark_is_the_games_through_the_registry() -> None:
    result = run_bench(0.2, seed=1)  # the default game's: Umtali's engine
    text = result.report()
    assert "moves per second" in text
    assert "determinize+playout" in text
    with pytest.raises(ValueError, match="Gin Rummy has no engine benchmark"):
        run_bench(0.2, game="gin")


def test_chance_outcomes_are_drawn_by_their_probability() -> None:
    rng = random.Random(1)
    assert {gin_peers._pick_outcome([(4, 0.0), (7, 1.0)], rng) for _ in range(50)} == {7}
    uniform = [(a, 1 / 3) for a in (10, 11, 12)]
    assert {gin_peers._pick_outcome(uniform, rng) for _ in range(200)} == {10, 11, 12}


def test_our_gin_rummy_plays_whole_hands_in_the_peer_race() -> None:
    engine = gin_peers.UmtaliGin()
    assert engine.play_hand(random.Random(2)) > 10
    times: list[int] = []
    engine.timed_hand(random.Random(2), times, 0)
    assert len(times) > 10


def test_our_pettingzoo_env_plays_whole_hands_with_observations() -> None:
    pytest.importorskip("pettingzoo")
    engine = rl_bench.PettingZooEngine()
    moves, hands = engine.play(random.Random(2))
    assert (hands, moves > 20) == (1, True)
    times: list[int] = []
    engine.timed_hand(random.Random(2), times, 0)
    # One timed call a turn of either agent, and one more as each leaves the game.
    assert len(times) > 20


def _documented_loop() -> list[str]:
    """The loop of docs/RESEARCH.md's PettingZoo example, as source lines."""
    text = (Path(__file__).parent.parent / "docs" / "RESEARCH.md").read_text()
    section = text.split("## PettingZoo")[1].split("\n## ")[0]
    lines = section.split(">>> for agent in game.agent_iter():")[1].split(">>> game.agents")[0]
    return ["for agent in game.agent_iter():"] + [
        line.removeprefix("... ") for line in lines.strip().splitlines()
    ]


def test_the_bench_races_the_documented_pettingzoo_loop_line_for_line() -> None:
    """``umtali bench --peers`` times the loop a reader copies from docs/RESEARCH.md,
    on the environment the docs make (``env()``, its wrapper included)."""
    pytest.importorskip("pettingzoo")
    source = inspect.getsource(rl_bench.random_agents).splitlines()
    start = next(i for i, line in enumerate(source) if line.startswith("    for "))
    body = [line.removeprefix("    ").split("  # noqa")[0] for line in source[start:]]
    assert body == _documented_loop()
    engine = rl_bench.PettingZooEngine()
    assert type(engine.env) is OrderEnforcing


def test_our_batch_steps_every_hand_at_once() -> None:
    pytest.importorskip("numpy")
    engine = rl_bench.BatchEngine(16)
    assert engine.name == "umtali HandBatch (16)"
    moves, hands = engine.play(random.Random(2))
    assert moves == rl_bench.BATCH_STEPS * 16
    assert 0 <= hands < moves
    times: list[int] = []
    engine.timed_hand(random.Random(2), times, 0)
    assert len(times) == 1  # one step of the batch, shared out among its hands
    assert times[0] > 0


def test_the_parallel_batch_steps_on_every_core() -> None:
    pytest.importorskip("numpy")
    engine = rl_bench.ParallelBatchEngine(16)
    assert engine.name == f"umtali HandBatch (16) × {rl_bench.PARALLEL_WORKERS} processes"
    moves, hands = engine.play(random.Random(2))
    assert moves == rl_bench.BATCH_STEPS * 16 * rl_bench.PARALLEL_WORKERS
    assert 0 <= hands < moves
    # The bench pins its own process to one core; the workers may use them all.
    for pid in engine.batch.pids:
        assert len(os.sched_getaffinity(pid)) == (os.cpu_count() or 1)
    engine.batch.close()


def test_our_environments_race_beside_the_engines() -> None:
    pytest.importorskip("pettingzoo")
    engines, _ = load_engines(0, more=rl_bench.ENGINES)
    names = [e.name for e in engines]
    sizes = rl_bench.BATCH_SIZES
    assert names[3:7] == [
        "umtali PettingZoo env",
        *(f"umtali HandBatch ({hands})" for hands in sizes),
        f"umtali HandBatch ({sizes[-1]}) × {rl_bench.PARALLEL_WORKERS} processes",
    ]
    for engine in engines:
        if isinstance(engine, rl_bench.ParallelBatchEngine):
            engine.batch.close()
    tallies = compare_engines(engines[3:5], seconds=0.2, block=0.1, seed=1)
    assert all(t.hands > 0 and t.moves > 20 * t.hands for t in tallies)
    report = peer_report([*tallies, PeerTally("rlcard gin-rummy", "1.2.0", 1.0, 10, 1000)], [], "")
    assert "umtali PettingZoo env" in report.split("ours ÷ peer")[1]  # compared with RLCard


def test_open_spiel_gin_rummy_plays_whole_hands() -> None:
    pytest.importorskip("pyspiel")
    engine = gin_peers.OpenSpielGin()
    assert engine.play_hand(random.Random(2)) > 10
    times: list[int] = []
    engine.timed_hand(random.Random(2), times, 0)
    assert len(times) > 10


def test_rlcard_gin_rummy_plays_whole_hands() -> None:
    pytest.importorskip("rlcard")
    engine = gin_peers.RLCardGin(seed=2)
    assert engine.play_hand(random.Random(2)) > 10
    times: list[int] = []
    engine.timed_hand(random.Random(2), times, 0)
    assert len(times) > 10


def test_bench_peers_from_the_command_line() -> None:
    result = run("bench", "--peers", "--seconds", "0.4", "--block", "0.2")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "umtali (action ints)" in out
    assert "umtali (Move objects)" in out
    for name in ("open_spiel gin_rummy", "rlcard gin-rummy"):
        # Either measured and compared, or left out with the reason.
        assert f"× {name}" in out or "left out" in out
