"""No lost game, no traceback, no terminal injection: the ``umtali`` command under
ordinary misuse and hostile input, run as a real process.

Each test stands for one finding of the data-safety review (issue 11): the number in
its comment is the item it answers.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Final

import pytest

from tests.test_cli_play import moves_of, play
from tests.test_cli_play_live import Live, resumes_identically
from umtali.games.umtali.match import Match
from umtali.kernel.record import save_file

UMTALI = str(Path(sys.executable).parent / "umtali")
ENV = dict(os.environ, NO_COLOR="1", PYTHONIOENCODING="utf-8")


def umtali(
    *args: str, input: str = "", stdout: Any = subprocess.PIPE
) -> subprocess.CompletedProcess[str]:
    """``umtali ARGS`` as a real process, ``input`` on its standard input."""
    return subprocess.run(
        [UMTALI, *args],
        input=input,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=300,
        env=ENV,
        check=False,
    )


_PLAYED: dict[int, bytes] = {}
"""The records :func:`saved_game` has had ``umtali play`` make, by moves answered."""


def saved_game(tmp_path: Path, answers: int = 6, name: str = "game.json") -> Path:
    """A game against the greedy level, saved after ``answers`` moves of ours. Seed 4
    plays it the same way every time, so each is played once for the module and then
    copied: a process each time would be most of the module's time."""
    record = tmp_path / name
    if answers in _PLAYED:
        record.write_bytes(_PLAYED[answers])
        return record
    result = play(
        "--seed", "4", "--bot", "greedy", "--save", str(record), script="1\n" * answers + "quit\n"
    )
    assert result.returncode == 0, result.stderr
    _PLAYED[answers] = record.read_bytes()
    return record


def edited(record: Path, change: Any) -> None:
    """Apply ``change`` to the record's JSON data, as a person with an editor would (the
    digest goes: an edited record without one is still read, then checked)."""
    data = json.loads(record.read_text(encoding="utf-8"))
    data.pop("digest", None)
    change(data)
    record.write_text(json.dumps(data), encoding="utf-8")


# -- 1. a command that writes a file never replaces one it did not make ----------------------


def test_demo_does_not_overwrite_a_saved_game_unless_forced(tmp_path: Path) -> None:
    record = saved_game(tmp_path)
    before = record.read_bytes()
    refused = umtali("demo", "--seed", "1", "--save", str(record))
    assert refused.returncode == 2
    assert f"{record} already exists" in refused.stderr
    assert "--force" in refused.stderr
    assert "demo hand" not in refused.stdout  # refused before anything was played
    assert record.read_bytes() == before
    forced = umtali("demo", "--seed", "1", "--save", str(record), "--force")
    assert forced.returncode == 0, forced.stderr
    assert json.loads(record.read_text(encoding="utf-8"))["match"] == "hand"


def test_play_save_replaces_an_existing_file_only_with_force(tmp_path: Path) -> None:
    record = saved_game(tmp_path)
    forced = play("--seed", "9", "--bot", "greedy", "--save", str(record), "--force", script="q\n")
    assert forced.returncode == 0, forced.stderr
    assert json.loads(record.read_text(encoding="utf-8"))["meta"]["seed"] == 9


def test_arena_keeps_earlier_results_unless_forced(tmp_path: Path) -> None:
    args = ("arena", "random", "random", "--games", "1", "--jobs", "1", "--quiet")
    first = umtali(*args, "--out", str(tmp_path))
    assert first.returncode == 0, first.stderr
    results = tmp_path / "random-vs-random-seed0.json"
    before = results.read_bytes()
    again = umtali(*args, "--out", str(tmp_path))
    assert again.returncode == 2
    assert "already exist" in again.stderr
    assert "--force" in again.stderr
    assert "win rate" not in again.stdout  # refused before the games were played
    assert results.read_bytes() == before
    forced = umtali(*args, "--out", str(tmp_path), "--force")
    assert forced.returncode == 0, forced.stderr


# -- 2. a closed or broken output saves the game ------------------------------------------------


def test_a_reader_that_stops_reading_leaves_the_game_saved(tmp_path: Path) -> None:
    # umtali play --save g.json | head -c 3000
    record = tmp_path / "game.json"
    proc = subprocess.Popen(
        [UMTALI, "play", "--seed", "4", "--bot", "greedy", "--save", str(record)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    assert proc.stderr is not None
    proc.stdin.write(b"1\n" * 400)
    proc.stdin.close()
    proc.stdout.read(3000)
    proc.stdout.close()
    code = proc.wait(timeout=120)
    err = proc.stderr.read().decode()
    assert "Traceback" not in err
    assert code == 1
    # The moves played before the output was closed are in the record, and it plays on.
    assert sum(map(len, moves_of(record))) >= 3
    assert play("--resume", str(record), script="1\n1\nquit\n").returncode == 0


def test_a_full_disk_under_the_output_saves_the_game(tmp_path: Path) -> None:
    record = saved_game(tmp_path)
    before = moves_of(record)
    with open("/dev/full", "w") as full:
        result = umtali("play", "--resume", str(record), stdout=full)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "No space left on device" in result.stderr
    assert f"the game was saved to {record}" in result.stderr
    assert moves_of(record) == before


# -- 3 and 5. text from a record: markup, control characters, surrogates ----------------------


def game_with_names(tmp_path: Path, names: tuple[str, str]) -> Path:
    """A saved game (the greedy level, seed 4, nothing played yet) whose players are
    called ``names``, written by the library so that it is a well-formed record."""
    record = saved_game(tmp_path, answers=0)
    match = Match(
        kind="game",
        first_dealer=json.loads(record.read_text(encoding="utf-8"))["first_dealer"],
        players=names,
        meta=json.loads(record.read_text(encoding="utf-8"))["meta"],
    )
    record.unlink()
    save_file(match, record)
    return record


def test_markup_in_a_name_is_shown_as_it_is_and_the_hand_is_saved(tmp_path: Path) -> None:
    record = game_with_names(tmp_path, ("[/oops]", "Computer [bold]"))
    result = play("--resume", str(record), script="1\n" * 400 + "quit\n")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert "End of the hand" in result.stdout
    assert "[/oops]" in result.stdout
    assert "Computer [bold] holds" in result.stdout
    assert len(moves_of(record)) >= 2  # hand 1 was saved whole, hand 2 begun


@pytest.mark.parametrize(
    "name",
    ["\x1b[2J\x1b]0;pwned\x07", "Eve\u202e", "\udcff", "x" * 5000],
    ids=["escape-sequences", "bidi-override", "lone-surrogate", "five-thousand-characters"],
)
def test_a_record_cannot_write_control_characters_to_the_terminal(
    tmp_path: Path, name: str
) -> None:
    record = saved_game(tmp_path, answers=0)
    edited(record, lambda data: data.__setitem__("players", [name, "Computer (greedy)"]))
    for args in (("replay", str(record)), ("play", "--resume", str(record))):
        result = umtali(*args, input="quit\n")
        shown = result.stdout + result.stderr
        assert "Traceback" not in shown, shown
        assert "\x1b" not in shown
        assert "\x07" not in shown
        assert "\u202e" not in shown
        assert len(shown) < 5000
        if result.returncode == 2:  # refused when read: the message says which name
            assert "players" in result.stderr


# -- 4. one game, one player: two programs never play on in the same file ---------------------


def test_a_second_resume_of_the_same_file_is_refused_while_the_first_plays(
    tmp_path: Path,
) -> None:
    record = saved_game(tmp_path)
    first = Live("--resume", str(record), cwd=tmp_path)
    first.prompt()
    second = play("--resume", str(record), script="1\nquit\n")
    assert second.returncode == 2
    assert f"{record} is being played in another umtali play (process {first.proc.pid})" in (
        second.stderr
    )
    first.send("1")
    first.prompt()
    first.send("quit")
    code, _, err = first.finish()
    assert code == 0, err
    # The first game's move is kept, and once it is over the file is free again.
    assert sum(map(len, moves_of(record))) > 0
    third = play("--resume", str(record), script="quit\n")
    assert third.returncode == 0, third.stderr
    assert not (tmp_path / ".game.json.lock").exists()


def test_a_new_game_locks_its_save_file_too(tmp_path: Path) -> None:
    record = tmp_path / "new.json"
    first = Live("--seed", "3", "--bot", "greedy", "--save", str(record), cwd=tmp_path)
    first.prompt()
    second = play("--seed", "3", "--bot", "greedy", "--save", str(record), "--force", script="q\n")
    assert second.returncode == 2
    assert "is being played in another umtali play" in second.stderr
    first.send("quit")
    assert first.finish()[0] == 0


# -- 6. the bytes read from a record are capped, not only the file's size ---------------------


def test_replaying_an_endless_file_is_refused_without_reading_it_all() -> None:
    result = umtali("replay", "/dev/zero")
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "more than 16 MiB" in result.stderr


# -- 7. a closed standard input is the end of input ----------------------------------------


@pytest.mark.parametrize(
    "args",
    [("play", "--seed", "2"), ("lesson", "1"), ("quiz",), ("replay", "--step", "RECORD")],
    ids=["play", "lesson", "quiz", "replay-step"],
)
def test_a_closed_standard_input_ends_the_command_cleanly(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    if "RECORD" in args:
        record = tmp_path / "demo.json"
        assert umtali("demo", "--seed", "1", "--save", str(record)).returncode == 0
        args = tuple(str(record) if a == "RECORD" else a for a in args)
    result = subprocess.run(
        ["sh", "-c", 'exec "$0" "$@" <&-', UMTALI, *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=ENV,
        cwd=tmp_path,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert "lost sys.stdin" not in result.stderr


# -- 8. every option is range-checked ---------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("bench", "--seconds", "1e-300"), "give from 0.1 to 3600 seconds"),
        (("bench", "--seconds", "nan"), "give from 0.1 to 3600 seconds"),
        (("bench", "--seconds", "inf"), "give from 0.1 to 3600 seconds"),
        (("bench", "--peers", "--block", "1e-9"), "give from 0.05 to 3600 seconds"),
        (("play", "--save", ""), "a file name is needed here"),
        (("play", "--resume", " "), "a file name is needed here"),
        (("demo", "--save", ""), "a file name is needed here"),
        (("replay", ""), "a file name is needed here"),
        (("arena", "random", "random", "--out", ""), "a file name is needed here"),
        (("arena", "random", "random", "--games", "0"), "--games must be from 1"),
        (("lesson", "5"), "four lessons"),
        (("serve", "--port", "99999"), "give a port from 1 to 65535"),
        (("serve", "--port", "http"), "give a port from 1 to 65535"),
        (("play", "--seed", "9" * 5000), "invalid int value"),
        (("play", "--bot", "x" * 5000), "invalid choice"),
        (("play", "x" * 5000), "unrecognized arguments"),
    ],
)
def test_options_out_of_range_are_refused_with_status_2(
    args: tuple[str, ...], message: str
) -> None:
    result = umtali(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr) < 2000


# -- 9. a burst of signals: saved once, no traceback --------------------------------------


_SAID_ON: Final = {
    128 + signal.SIGTERM: "Stopped (SIGTERM): saving the game.",
    128 + signal.SIGINT: None,  # Ctrl-C at a prompt is taken as quit: nothing to say
    128 + signal.SIGHUP: "The terminal was closed (SIGHUP): saving the game.",
}
"""The exit status after each of the burst's signals, and what the game says on it at
a prompt."""


@pytest.mark.parametrize("together", [False, True], ids=["a millisecond apart", "all at once"])
def test_a_burst_of_signals_saves_the_game_without_a_traceback(
    tmp_path: Path, together: bool
) -> None:
    """Nine signals (TERM, INT, HUP, three times) a millisecond apart, or all at once (sent
    while the process is stopped). The first the program handles stops it; which one that
    is when several are already waiting is not the order they were sent in (CPython runs
    waiting handlers by signal number), so the test asks only that the exit status and
    the words agree, and that the game is saved once and resumes as it was. (On a
    loaded machine SIGTERM and SIGINT may both be waiting: SIGINT is handled first.)"""
    args = ("--seed", "21", "--bot", "greedy")
    record = tmp_path / "game.json"
    live = Live(*args, "--save", str(record), cwd=tmp_path)
    for _ in range(5):
        live.prompt()
        live.send("1")
    live.prompt()
    if together:
        live.proc.send_signal(signal.SIGSTOP)
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP) * 3:
        live.proc.send_signal(signum)
        if not together:
            time.sleep(0.001)
    if together:
        live.proc.send_signal(signal.SIGCONT)
    code, out, err = live.finish()
    assert "Traceback" not in out + err
    assert "race condition" not in err
    assert code in _SAID_ON, err
    if together:
        assert code == 128 + signal.SIGHUP  # the lowest number of the three waiting
    said = _SAID_ON[code]
    assert said is None or said in out
    assert sum(out.count(words) for words in _SAID_ON.values() if words) == (said is not None)
    assert out.count("Game saved to") == 1
    resumes_identically(record, args, live.sent, tmp_path)


# -- 12. a saved game's deals are the ones its seed makes ------------------------------------


def test_a_reordered_stock_is_refused_on_resume(tmp_path: Path) -> None:
    record = saved_game(tmp_path)

    def reorder_the_stock(data: dict[str, Any]) -> None:
        deck = data["hands"][-1]["deck"]
        deck[-1], deck[-2] = deck[-2], deck[-1]  # the bottom of the stock

    edited(record, reorder_the_stock)
    result = play("--resume", str(record), script="1\nquit\n")
    assert result.returncode == 2
    assert "hand 1 is not dealt as its seed deals it" in result.stderr
    assert "changed after it was saved" in result.stderr


def test_a_changed_first_dealer_is_refused_on_resume(tmp_path: Path) -> None:
    record = saved_game(tmp_path, answers=0)

    def other_seed(data: dict[str, Any]) -> None:
        data["meta"]["seed"] += 1

    edited(record, other_seed)
    result = play("--resume", str(record), script="quit\n")
    assert result.returncode == 2
    assert "changed after it was saved" in result.stderr
