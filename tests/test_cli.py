"""The ``umtali`` console command, run as a real process."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

UMTALI = shutil.which("umtali", path=str(Path(sys.executable).parent)) or shutil.which("umtali")


def run(*args: str, encoding: str = "utf-8") -> subprocess.CompletedProcess[str]:
    assert UMTALI, "the umtali console script is not installed"
    env = dict(os.environ, PYTHONIOENCODING=encoding)
    return subprocess.run(
        [UMTALI, *args], capture_output=True, text=True, timeout=120, env=env, check=False
    )


def test_an_output_without_suit_symbols_gets_suit_letters() -> None:
    # An ASCII-only console (or a file in a legacy encoding) must not end in a traceback.
    result = run("demo", "--seed", "3", encoding="ascii")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "Player 1  hand: 7s 6s 4h 2h Ah 8d 7d 2d 6c 4c Ac" in result.stdout


def commands() -> list[str]:
    """Every subcommand, as the parser knows them (a new one is tested as it comes)."""
    from umtali.cli.parser import build_parser

    sub = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return list(sub.choices)


def test_help_lists_every_command() -> None:
    result = run("--help")
    assert result.returncode == 0
    listed = {line.split()[0] for line in result.stdout.splitlines() if line.startswith("    ")}
    assert set(commands()) <= listed
    assert {"play", "lesson", "quiz", "demo", "replay", "bench", "arena"} <= set(commands())


@pytest.mark.parametrize("command", commands())
def test_every_command_has_help(command: str) -> None:
    result = run(command, "--help")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"usage: umtali {command}")
    assert "options:" in result.stdout
    assert result.stderr == ""


def test_python_dash_m_runs_the_same_command() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "umtali", "--version"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == run("--version").stdout


def test_version() -> None:
    result = run("--version")
    assert result.returncode == 0
    assert result.stdout.startswith("umtali ")


def test_demo_is_reproducible_and_saves_a_record_that_replays(tmp_path: Path) -> None:
    record = tmp_path / "demo.json"
    first = run("demo", "--seed", "42", "--save", str(record))
    second = run("demo", "--seed", "42")
    assert first.returncode == 0, first.stderr
    saved = f"Record saved to {record} (replay it with: umtali replay {record})\n"
    assert first.stdout.replace(saved, "") == second.stdout
    assert "hand over" in first.stdout
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["format"] == "umtali-record"
    replay = run("replay", str(record))
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout.rstrip().endswith(first.stdout.rstrip().splitlines()[-1])
    # The replay prints every move the demo printed.
    demo_moves = [line for line in first.stdout.splitlines() if line.startswith("    ")]
    replay_moves = [line for line in replay.stdout.splitlines() if line.startswith("    ")]
    assert demo_moves == replay_moves


def test_replay_of_the_lesson_game(tmp_path: Path) -> None:
    from tests.test_records import lesson_game
    from umtali.kernel.record import save_file

    path = tmp_path / "lessons.json"
    save_file(lesson_game(), path)
    result = run("replay", str(path))
    assert result.returncode == 0, result.stderr
    assert "Player 2 takes 6♥ and 5♥ from the discard pile" in result.stdout
    assert "Player 1 cannot go out and forfeits" in result.stdout
    assert "game 1 totals: 159–110" in result.stdout
    assert "The game is over: won by Player 1." in result.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "no such file"),
        ("{not json}", "not valid JSON"),
        ('{"format": ', "the record is cut short (byte 10)"),
        (
            '{"format": "umtali-record", "version": 1, "match": "game", "rules": {"preset": "x"}}',
            "unknown rules preset",
        ),
    ],
)
def test_replay_of_a_bad_file_says_why_without_a_traceback(
    tmp_path: Path, content: str | None, message: str
) -> None:
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    result = run("replay", str(path))
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr + result.stdout


def test_bench_prints_figures() -> None:
    result = run("bench", "--seconds", "0.6")
    assert result.returncode == 0, result.stderr
    for label in ("hands per second", "moves per second", "legal_moves call", "meld_plans call"):
        assert label in result.stdout
    assert "determinize+playout" in result.stdout


@pytest.mark.parametrize(
    "args",
    [
        ["bench", "--seconds", "-1"],
        ["bench", "--seconds", "x"],
        ["bench", "--peers", "--block", "0"],
        ["bench", "--peers", "--seconds", "1", "--block", "2"],
    ],
)
def test_bad_options_are_refused_cleanly(args: list[str]) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr


def test_replay_steps_turn_by_turn(tmp_path: Path) -> None:
    record = tmp_path / "demo.json"
    assert run("demo", "--seed", "9", "--save", str(record)).returncode == 0
    assert UMTALI
    result = subprocess.run(
        [UMTALI, "replay", "--step", str(record)],
        input="\n\nwhat\n\nq\n",
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, NO_COLOR="1"),
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("[Enter] next turn, q to stop>") == 5
    assert "Press Enter for the next turn, or type q to stop." in result.stdout
    # Pauses come after the deal, then after turns 1, 2 (asked twice) and 3, where q stops.
    assert "turn 3 ·" in result.stdout
    assert "turn 4 ·" not in result.stdout
    assert result.stdout.rstrip().endswith("Replay stopped.")


def test_moves_read_well_to_the_human_player() -> None:
    # Hand 1, turn 3: Player 2 plays 10♦ off Player 1's J♦; Player 1 is "You".
    from umtali.games.umtali.describe import describe_move
    from umtali.games.umtali.lessons import LESSONS

    lesson = LESSONS[0]
    hand = lesson.replay(turn=3)  # the first two turns played
    names = ("You", "Computer")
    assert describe_move(hand, hand.parse_move("take 6h 5h"), names=names) == (
        "Computer takes 6♥ and 5♥ from the discard pile"
    )
    hand.push_text("take 6h 5h")
    hand.push_text("meld 7h 6h 5h")
    assert describe_move(hand, hand.parse_move("play 10d off Jd"), names=names) == (
        "Computer plays 10♦ off your J♦"
    )
    hand.push_text("play 10d off Jd")
    hand.push_text("pair 9s 9c")
    hand.push_text("draw")
    assert describe_move(hand, hand.parse_move("play 4h off 5h"), names=names) == (
        "You play 4♥ off Computer's 5♥"
    )


def test_without_rich_the_command_says_what_to_install() -> None:
    # The library needs nothing outside Python; the terminal needs rich, the `cli` extra.
    code = (
        "import sys; sys.modules['rich'] = None\n"  # as if rich were not installed
        "from umtali.cli import main\n"
        "sys.exit(main(['--version']))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 1
    assert "pip install 'umtali[cli]'" in result.stderr
    assert "Traceback" not in result.stderr
