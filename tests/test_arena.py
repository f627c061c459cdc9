"""The arena: its statistics on known cases, duplicate deals, reproducibility, the CLI."""

from __future__ import annotations

import dataclasses
import io
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from umtali import games
from umtali.games.umtali.arena import BOOK, BOOK_HIGHEST_HAND, BOOK_MEAN_POINTS
from umtali.games.umtali.bots import BOTS, GreedyBot
from umtali.games.umtali.moves import Move
from umtali.games.umtali.view import PlayerView
from umtali.sim.arena import (
    ArenaError,
    ArenaResult,
    GameRecord,
    report,
    run_arena,
    summarize,
)
from umtali.sim.hooks import hook_of
from umtali.sim.stats import Z95, mean_interval, quantile, sample_sd, wilson_interval

UMTALI = Path(sys.executable).parent / "umtali"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def reproducible(result: ArenaResult) -> dict[str, Any]:
    """The results JSON without the ``run`` section (jobs, timings, machine)."""
    data: dict[str, Any] = json.loads(result.to_json())
    del data["run"]
    return data


# -- statistics ----------------------------------------------------------------------------
def test_wilson_interval_matches_published_values() -> None:
    assert round(Z95, 6) == 1.959964
    assert wilson_interval(8, 10) == pytest.approx((0.4902, 0.9433), abs=1e-4)
    assert wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson_interval(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    # A draw counts half: 2 wins and a draw in 4 games is a rate of 0.625.
    lo, hi = wilson_interval(2.5, 4)
    assert lo < 0.625 < hi
    with pytest.raises(ValueError, match="at least one"):
        wilson_interval(0, 0)
    with pytest.raises(ValueError, match="between"):
        wilson_interval(5, 4)


def test_mean_interval_sd_and_quantiles() -> None:
    assert sample_sd([0.0, 1.0, 1.0, 1.0]) == pytest.approx(0.5)
    mean, lo, hi = mean_interval([0.0, 1.0, 1.0, 1.0])
    assert (mean, lo, hi) == pytest.approx((0.75, 0.75 - Z95 * 0.25, 0.75 + Z95 * 0.25))
    assert mean_interval([3.0]) == (3.0, 3.0, 3.0)
    assert quantile([4, 1, 3, 2], 0.5) == 2.5
    assert quantile([1, 2, 3, 4, 5], 0.1) == pytest.approx(1.4)
    assert quantile([7], 0.9) == 7


def known_records() -> list[GameRecord]:
    """Two deals, each played twice, with hand scores (A, B) chosen by hand."""

    def game(deal: int, a_seat: int, hands: list[tuple[int, int]], ends: int = 0) -> GameRecord:
        return GameRecord(
            deal=deal,
            a_seat=a_seat,
            first_dealer=1,
            hands=tuple(hands),
            dealers=("A", "B", "A", "B"),
            ends=("dead: empty stock",) * ends + ("out",) * (4 - ends),
            moves=(40, 40),
        )

    return [
        game(0, 0, [(30, 20), (10, 10), (5, 40), (50, 0)]),  # 95-70: A
        game(0, 1, [(20, 30), (25, 25), (40, 5), (0, 50)]),  # 85-110: B
        game(1, 0, [(10, 10)] * 4, ends=1),  # 40-40: drawn
        game(1, 1, [(86, 0), (1, 2), (3, 4), (5, 6)]),  # 95-12: A
    ]


def test_summary_of_a_known_case() -> None:
    s = summarize(known_records(), BOOK)
    assert (s.deals, s.games, s.hands) == (2, 4, 16)
    assert (s.a_wins, s.b_wins, s.draws) == (2, 1, 1)
    assert s.game_rate == 0.625
    assert s.game_ci == wilson_interval(2.5, 4)
    assert s.a_wins_by_seat == (1, 1)
    assert s.b_wins_by_seat == (1, 0)  # B won deal 0 as Player 1
    assert s.deal_outcomes == {"A": 0, "split": 2, "B": 0}
    # Per deal: A scored (1 + 0)/2 and (½ + 1)/2.
    assert s.deal_rate == pytest.approx(0.625)
    half = Z95 * sample_sd([0.5, 0.75]) / 2**0.5
    assert s.deal_ci == pytest.approx((0.625 - half, 0.625 + half))
    # Margins per deal: (25 − 25)/2 and (0 + 83)/2.
    assert s.margin == pytest.approx(20.75)
    assert (s.a_hand_wins, s.b_hand_wins, s.hand_draws) == (4, 6, 6)
    assert s.hand_rate == pytest.approx(7 / 16)
    assert s.ends == {"dead: empty stock": 1, "out": 15}
    assert s.points_a.mean == pytest.approx(315 / 16)
    assert s.points_b.mean == pytest.approx(232 / 16)
    assert s.points_both.mean == pytest.approx(547 / 32)
    assert (s.points_a.minimum, s.points_a.maximum) == (0, 86)
    assert s.points_a.quantiles["p50"] == 10
    assert s.points_a.histogram[10] == 5
    assert sum(s.points_b.histogram.values()) == 16
    assert (s.highest.points, s.highest.bot, s.highest.deal, s.highest.a_seat) == (86, "A", 1, 1)
    assert s.highest.hand == 1
    assert s.book_highest_gap == 86 - BOOK_HIGHEST_HAND == 0
    assert s.book_mean_gap == pytest.approx(547 / 32 - BOOK_MEAN_POINTS)
    # The order of the records does not matter.
    assert summarize(known_records()[::-1], BOOK) == s
    data = s.to_dict()
    assert data["games"]["A_rate"] == 0.625
    assert data["highest_hand"] == {
        "points": 86,
        "bot": "A",
        "deal": 1,
        "a_seat": 1,
        "hand_number": 1,
    }
    with pytest.raises(ArenaError):
        summarize([])


def test_records_round_trip() -> None:
    for record in known_records():
        assert GameRecord.from_dict(json.loads(json.dumps(record.to_dict()))) == record


# -- playing -------------------------------------------------------------------------------
def test_same_seed_same_results_whatever_the_jobs() -> None:
    ticks: list[int] = []
    first = run_arena("random", "random", 4, seed=11, jobs=1, progress=ticks.append)
    assert sum(ticks) == 8
    assert len(first.records) == 8
    assert [(r.deal, r.a_seat) for r in first.records] == [(d, s) for d in range(4) for s in (0, 1)]
    again = run_arena("random", "random", 4, seed=11, jobs=1)
    in_two = run_arena("random", "random", 4, seed=11, jobs=2)
    assert in_two.jobs == 2
    assert reproducible(first) == reproducible(again) == reproducible(in_two)
    other = run_arena("random", "random", 4, seed=12, jobs=1)
    assert other.records != first.records
    # Both games of a deal start from the same first dealer seat.
    for a, b in zip(first.records[::2], first.records[1::2], strict=True):
        assert a.first_dealer == b.first_dealer


def test_duplicate_deals_mirror_for_a_bot_that_ignores_chance() -> None:
    # Greedy uses no randomness, so with the seats swapped each game replays the other,
    # seen from the other side: the deals are truly duplicated.
    result = run_arena("greedy", "greedy", 3, seed=5, jobs=1)
    for a, b in zip(result.records[::2], result.records[1::2], strict=True):
        assert (a.a_seat, b.a_seat) == (0, 1)
        assert b.hands == tuple((y, x) for x, y in a.hands)
        assert b.moves == a.moves[::-1]
    s = result.summary()
    assert s.game_rate == 0.5
    assert s.points_a == s.points_b


def test_greedy_beats_random() -> None:
    result = run_arena("greedy", "random", 15, seed=2024, jobs=2)
    s = result.summary()
    # Greedy wins about three hands in four against random, and almost every game.
    assert s.game_ci[0] > 0.6
    assert s.a_hand_wins > 2 * s.b_hand_wins
    assert s.points_a.mean > s.points_b.mean + 5
    text = report(result)
    assert f"book: {BOOK_MEAN_POINTS} points per hand" in text
    assert f"book: highest hand {BOOK_HIGHEST_HAND}" in text


class Peeker:
    """Checks what it is handed, then plays like greedy (or breaks the rules)."""

    name = "peeker"
    seen: list[tuple[type, int, int]] = []  # noqa: RUF012 - shared on purpose

    def __init__(self, cheat: bool = False) -> None:
        self.cheat = cheat

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        Peeker.seen.append((type(view), view.hands_left, sum(view.game_scores)))
        if self.cheat and view.turn > 3:
            return Move.keep()  # only the dealer's first choice
        return GreedyBot().choose(view, rng)


def test_bots_see_only_their_view_and_illegal_moves_are_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(BOTS, "peeker", Peeker)
    monkeypatch.setitem(BOTS, "cheat", lambda: Peeker(cheat=True))
    Peeker.seen.clear()
    run_arena("peeker", "random", 1, seed=1, jobs=1)
    assert {kind for kind, _, _ in Peeker.seen} == {PlayerView}
    assert {left for _, left, _ in Peeker.seen} == {3, 2, 1, 0}  # the game's context
    assert any(total > 0 for _, _, total in Peeker.seen)
    with pytest.raises(ArenaError, match=r"deal 0, A \(cheat\) as Player \d, hand 1.*not a legal"):
        run_arena("cheat", "random", 1, seed=1, jobs=1)
    with pytest.raises(ArenaError, match="not a legal move"):  # raised in a worker process
        run_arena("random", "cheat", 2, seed=1, jobs=2)


def test_a_game_without_an_arena_hook_plays_with_the_defaults(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Umtali registered again under another name, with no arena hook: the arena reads
    # everything from the Session protocol, and the figures are the same as Umtali's.
    umtali = games.get("umtali")
    plain = dataclasses.replace(umtali, name="plain", arena=None, _resolved={})
    monkeypatch.setitem(games._registry, "plain", plain)
    assert hook_of("plain").book is None
    result = run_arena("greedy", "random", 2, seed=3, jobs=1, game="plain")
    same = run_arena("greedy", "random", 2, seed=3, jobs=1)
    assert [r.hands for r in result.records] == [r.hands for r in same.records]
    assert [r.totals for r in result.records] == [r.totals for r in same.records]
    assert {end for r in result.records for end in r.ends} == {"over"}
    assert "book" not in result.to_dict()["summary"]
    assert "book:" not in report(result)
    # A level added to Umtali's bots is Umtali's hook's; the plain game knows its spec's.
    monkeypatch.setitem(BOTS, "peeker", Peeker)
    with pytest.raises(ArenaError, match=r"the Umtali levels are: random, greedy, expert, search$"):
        run_arena("peeker", "random", 1, game="plain")


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ArenaError, match="random, greedy"):
        run_arena("nobody", "random", 1)
    with pytest.raises(ArenaError, match="at least one deal"):
        run_arena("random", "random", 0)
    with pytest.raises(ArenaError, match="at least one job"):
        run_arena("random", "random", 1, jobs=0)


# -- the command ---------------------------------------------------------------------------
def umtali(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [str(UMTALI), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=cwd,
        check=False,
    )


def test_the_command_writes_json_and_png(tmp_path: Path) -> None:
    assert UMTALI.exists(), "the umtali console script is not installed"
    result = umtali("arena", "random", "greedy", "--games", "3", "--seed", "9", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "3 deals × 2 seatings = 6 games" in result.stdout
    assert "game win rate" in result.stdout
    assert "book: highest hand 86" in result.stdout
    folder = tmp_path / "arena-results"  # the default --out
    data = json.loads((folder / "random-vs-greedy-seed9.json").read_text(encoding="utf-8"))
    # The slowest decision of each bot is printed as the JSON has it.
    slowest = data["run"]["decision_ms"]
    assert re.search(
        rf"decision, slowest ms +{slowest['A']['max']:.1f} +{slowest['B']['max']:.1f}",
        result.stdout,
    )
    assert data["format"] == "umtali-arena"
    assert data["bots"] == {"A": "random", "B": "greedy"}
    assert (data["seed"], data["deals"]) == (9, 3)
    assert len(data["records"]) == 6
    summary = data["summary"]
    assert summary["games"]["games"] == 6
    assert summary["hands"]["hands"] == 24
    assert summary["points_per_hand"]["A"]["hands"] == 24
    png = (folder / "random-vs-greedy-seed9.png").read_bytes()
    assert png.startswith(PNG_MAGIC)

    # The same run in one process, in-process: the same figures and records.
    from umtali.cli.main import main

    out = io.StringIO()
    again = tmp_path / "again"
    args = ["arena", "random", "greedy", "--games", "3", "--seed", "9", "--jobs", "1"]
    assert main([*args, "--out", str(again), "--quiet"], out) == 0
    redo = json.loads((again / "random-vs-greedy-seed9.json").read_text(encoding="utf-8"))
    assert {k: v for k, v in redo.items() if k != "run"} == {
        k: v for k, v in data.items() if k != "run"
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nobody", "random"], "unknown bot level 'nobody'; the levels are: random, greedy"),
        (["random", "greedy", "--games", "0"], "--games must be"),
        (["random", "greedy", "--jobs", "0"], "--jobs must be"),
        (["random", "greedy", "--games", "many"], "invalid int value"),
    ],
)
def test_the_command_refuses_bad_input(tmp_path: Path, args: list[str], message: str) -> None:
    result = umtali("arena", *args, cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "arena-results").exists()


def test_without_matplotlib_the_json_is_still_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from umtali.cli.main import main

    for name in ("matplotlib", "matplotlib.figure", "matplotlib.backends.backend_agg"):
        monkeypatch.setitem(sys.modules, name, None)
    out = io.StringIO()
    args = ["arena", "random", "random", "--games", "1", "--jobs", "1", "--quiet"]
    assert main([*args, "--out", str(tmp_path)], out) == 0
    assert "pip install -e '.[arena]'" in out.getvalue()
    assert (tmp_path / "random-vs-random-seed0.json").exists()
    assert not (tmp_path / "random-vs-random-seed0.png").exists()


def test_an_unwritable_out_folder_is_refused(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    result = umtali(
        "arena", "random", "random", "--games", "1", "--out", str(blocker), cwd=tmp_path
    )
    assert result.returncode == 2
    assert "cannot write results to" in result.stderr
    assert "Traceback" not in result.stderr
