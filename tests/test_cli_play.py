"""``umtali play`` end to end through the real console script, with scripted input."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

UMTALI = str(Path(sys.executable).parent / "umtali")


def play(*args: str, script: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, NO_COLOR="1", PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [UMTALI, "play", *args],
        input=script,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        cwd=cwd,
        check=False,
    )


def moves_of(record: Path) -> list[list[str]]:
    data = json.loads(record.read_text(encoding="utf-8"))
    return [hand["moves"] for hand in data["hands"]]


def test_a_whole_game_against_the_computer(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    # Always the first legal move; any answer moves on at the "next hand" prompts.
    result = play("--seed", "11", "--save", str(record), script="1\n" * 3000)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Traceback" not in out + result.stderr
    assert out.count("End of the hand") == 4
    assert "Total" in out
    assert "wins the game" in out or "game is drawn" in out
    data = json.loads(record.read_text(encoding="utf-8"))
    assert len(data["hands"]) == 4
    assert all("scores" in hand for hand in data["hands"])
    # The computer's moves are shown as sentences, and its draws stay hidden.
    assert "Computer (expert) draws from the stock" in out


def test_a_session_plays_until_two_games_are_won(tmp_path: Path) -> None:
    record = tmp_path / "session.json"
    result = play(
        "--seed", "5", "--session", "--bot", "random", "--save", str(record), script="1\n" * 12000
    )
    assert result.returncode == 0, result.stderr
    assert "wins the session" in result.stdout or "session is drawn" in result.stdout
    assert "Games won:" in result.stdout


def test_hotseat_hands_the_terminal_over_between_players(tmp_path: Path) -> None:
    result = play("--hotseat", "--seed", "3", script="1\n" * 60 + "quit\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Hand the terminal to Player 2" in result.stdout
    assert "Hand the terminal to Player 1" in result.stdout
    assert "Game saved to" in result.stdout


def test_bad_input_gets_a_reason_and_a_new_prompt(tmp_path: Path) -> None:
    script = (
        "\n".join(
            [
                "",  # nothing typed
                "fly away",  # no move at all
                "99",  # no such number
                "discard 9s",  # a move, but not now (the draw comes first)
                "play Zz",  # not a card
                "why",  # why what?
                "why meld Ks Qs Js",
                "moves",
                "hint",
                "rules",
                "score",
                "help",
                "quit",
            ]
        )
        + "\n"
    )
    result = play("--seed", "7", script=script, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Traceback" not in out + result.stderr
    assert "Type a move, a number, or help" in out
    assert "'fly away' is not a move" in out
    assert "There is no move 99" in out
    assert "must first draw" in out
    assert "'Zz' is not a card" in out
    assert "Write the move after 'why'" in out
    assert "Hint:" in out
    assert "Umtali in brief" in out
    assert "No hand has been finished yet" in out
    assert "Game saved to" in out


def test_quit_saves_and_resume_continues_identically(tmp_path: Path) -> None:
    whole = tmp_path / "whole.json"
    play("--seed", "21", "--save", str(whole), script="1\n" * 3000)
    saved = tmp_path / "saved.json"
    first = play("--seed", "21", "--save", str(saved), script="1\n" * 40 + "quit\n")
    assert first.returncode == 0, first.stderr
    assert "Game saved to" in first.stdout
    halfway = moves_of(saved)
    assert sum(len(m) for m in halfway) < sum(len(m) for m in moves_of(whole))
    second = play("--resume", str(saved), script="1\n" * 3000)
    assert second.returncode == 0, second.stderr
    assert "Resuming the game" in second.stdout
    assert moves_of(saved) == moves_of(whole)


def test_end_of_input_saves_like_quit(tmp_path: Path) -> None:
    result = play("--seed", "4", script="1\n1\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    saves = list(tmp_path.glob("umtali-*.json"))
    assert len(saves) == 1
    assert "Continue it with: umtali play --resume" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--resume", "missing.json"], "cannot resume missing.json: no such file"),
        (["--bot", "genius"], "invalid choice: 'genius'"),
    ],
)
def test_bad_options_are_refused(tmp_path: Path, args: list[str], message: str) -> None:
    result = play(*args, script="", cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_resuming_a_finished_game_is_refused(tmp_path: Path) -> None:
    record = tmp_path / "done.json"
    play("--seed", "2", "--save", str(record), script="1\n" * 3000)
    result = play("--resume", str(record), script="")
    assert result.returncode == 2
    assert "already over" in result.stderr


def test_resuming_a_record_not_made_by_play_is_refused(tmp_path: Path) -> None:
    record = tmp_path / "demo.json"
    subprocess.run(
        [UMTALI, "demo", "--seed", "1", "--save", str(record)], capture_output=True, check=True
    )
    data = json.loads(record.read_text(encoding="utf-8"))
    data["hands"][0]["moves"] = data["hands"][0]["moves"][:3]
    del data["hands"][0]["scores"]
    record.write_text(json.dumps(data), encoding="utf-8")
    result = play("--resume", str(record), script="")
    assert result.returncode == 2
    assert "was not saved by 'umtali play'" in result.stderr


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_play_in_a_real_terminal(tmp_path: Path) -> None:
    session = f"umtali-test-{os.getpid()}"
    command = f"cd {tmp_path} && {UMTALI} play --seed 7; sleep 30"
    subprocess.run(
        ["tmux", "new-session", "-d", "-s", session, "-x", "100", "-y", "50", command], check=True
    )
    try:
        screen = wait_for(session, "You>")
        assert "Your hand (10)" in screen
        assert "Top discard" in screen
        subprocess.run(["tmux", "send-keys", "-t", session, "draw", "Enter"], check=True)
        screen = wait_for(session, "You draw ", "Your hand (11)")
        assert "Your hand (11)" in screen
        subprocess.run(["tmux", "send-keys", "-t", session, "quit", "Enter"], check=True)
        screen = wait_for(session, "Game saved to")
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False)


def wait_for(session: str, *needles: str, timeout: float = 20.0) -> str:
    deadline = time.monotonic() + timeout
    screen = ""
    while time.monotonic() < deadline:
        screen = subprocess.run(
            ["tmux", "capture-pane", "-p", "-t", session],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        if all(n in screen for n in needles):
            return screen
        time.sleep(0.2)
    raise AssertionError(f"{needles} did not appear on the screen:\n{screen}")
