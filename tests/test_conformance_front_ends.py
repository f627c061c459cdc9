"""The conformance suite's front ends: every registered game, Toy included, played through
the real ``umtali`` command (``play``, ``play --resume``, ``replay``, ``demo``, ``arena``)
and the web API (a random game on SQLite, every message its seats receive scanned for
cards they may not see). Toy is registered for the processes started here by
``UMTALI_GAMES`` alone: no file outside its folder names it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tests.toy_game
from umtali import games
from umtali.games.api import GameSpec

UMTALI = str(Path(sys.executable).parent / "umtali")
REPO = Path(__file__).parent.parent
TOY = "tests.toy_game:SPEC"


SPECS = [pytest.param(spec, id=spec.name) for spec in tests.toy_game.every_game()]
SEATINGS = [
    pytest.param(spec, seats, id=f"{spec.name}-{seats}")
    for spec in tests.toy_game.every_game()
    for seats in spec.seat_counts
]


def umtali(
    *args: str, cwd: Path, script: str = "", timeout: float = 600
) -> subprocess.CompletedProcess[str]:
    """The real console script, Toy registered through ``UMTALI_GAMES`` alone."""
    env = dict(
        os.environ,
        UMTALI_GAMES=TOY,
        PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
        NO_COLOR="1",
        PYTHONIOENCODING="utf-8",
    )
    env.pop("COLUMNS", None)
    env.pop("LINES", None)
    return subprocess.run(
        [UMTALI, *args],
        input=script,
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=timeout,
        check=False,
    )


@pytest.mark.parametrize(("spec", "seats"), SEATINGS)
def test_a_game_is_played_saved_resumed_and_replayed_at_the_terminal(
    spec: GameSpec, seats: int, tmp_path: Path
) -> None:
    # The first move listed, again and again, then quit: the game is kept in its file.
    players = ["--players", str(seats)] if seats != spec.seat_counts[0] else []
    played = umtali(
        "play", "--game", spec.name, *players, "--seed", "5", "--bot", spec.levels[0],
        "--save", "g.json", script="1\n" * 12 + "quit\n", cwd=tmp_path,
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert "Traceback" not in played.stdout + played.stderr
    record = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
    assert record.get("game", games.DEFAULT_GAME) == spec.name
    assert len(record["players"]) == seats

    resumed = umtali("play", "--resume", "g.json", script="quit\n", cwd=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))["hands"] == record["hands"]

    replayed = umtali("replay", "g.json", cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stderr
    assert "unfinished" in replayed.stdout.splitlines()[-1]


@pytest.mark.parametrize("spec", SPECS)
def test_a_demo_is_played_and_told_to_its_end(spec: GameSpec, tmp_path: Path) -> None:
    demo = umtali("demo", "--game", spec.name, "--seed", "2", "--save", "d.json", cwd=tmp_path)
    assert demo.returncode == 0, demo.stderr
    replayed = umtali("replay", "d.json", cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stderr


@pytest.mark.parametrize("spec", SPECS)
def test_the_arena_plays_every_game_and_keeps_its_results(spec: GameSpec, tmp_path: Path) -> None:
    a, b = spec.levels[0], spec.levels[min(1, len(spec.levels) - 1)]
    arena = umtali(
        "arena", a, b, "--game", spec.name, "--games", "2", "--jobs", "1", "--out", "runs",
        "--quiet", cwd=tmp_path,
    )  # fmt: skip
    assert arena.returncode == 0, arena.stderr
    [result] = (tmp_path / "runs").glob(f"*{a}-vs-{b}-seed0.json")  # (Umtali's files name no game)
    data = json.loads(result.read_text(encoding="utf-8"))
    assert (data["game"], data["deals"]) == (spec.name, 2)
    assert len(data["records"]) == 2 * spec.seat_counts[0]  # each deal once a seat


def test_without_its_registration_a_toy_record_is_refused_by_name(tmp_path: Path) -> None:
    demo = umtali("demo", "--game", "toy", "--save", "d.json", cwd=tmp_path)
    assert demo.returncode == 0, demo.stderr
    env = {k: v for k, v in os.environ.items() if k != "UMTALI_GAMES"}
    plain = subprocess.run(
        [UMTALI, "replay", "d.json"], capture_output=True, text=True, cwd=tmp_path, env=env,
        timeout=120, check=False,
    )  # fmt: skip
    assert plain.returncode != 0
    assert "'game' must be one of" in plain.stderr
    assert "not 'toy'" in plain.stderr
