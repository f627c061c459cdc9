"""``umtali play`` as a live process: answers typed as the prompts appear, Ctrl-C sent to
the real process, and whole hot-seat hands in a real terminal (tmux)."""

from __future__ import annotations

import io
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.test_cli_play import Played, moves_of, play
from umtali.cli.play import PlayOptions, run_play
from umtali.cli.terminal import Terminal
from umtali.games.umtali.moves import Move

UMTALI = str(Path(sys.executable).parent / "umtali")


def piped(*args: str, script: str, cwd: Path) -> Played:
    return play(*args, script=script, cwd=cwd, timeout=600)


def to_move(record: Path) -> int:
    """Who is to move in the unfinished last hand of ``record`` (0 = the human)."""
    from umtali.games.umtali.record import load_file

    hand = load_file(record).current
    assert hand is not None, "the hand in the record is over"
    return hand.player


class Live:
    """``umtali play`` with a pipe for input and one for output, read as it comes."""

    def __init__(self, *args: str, cwd: Path) -> None:
        env = dict(os.environ, NO_COLOR="1", PYTHONIOENCODING="utf-8")
        self.proc = subprocess.Popen(
            [UMTALI, "play", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            env=env,
        )
        self._data = bytearray()
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.mark = 0
        self.sent = 0

    def _read(self) -> None:
        assert self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        while chunk := os.read(fd, 65536):
            with self._lock:
                self._data += chunk

    @property
    def text(self) -> str:
        with self._lock:
            return self._data.decode("utf-8", errors="replace")

    def new(self) -> str:
        """The output since the last prompt answered."""
        return self.text[self.mark :]

    def prompt(self, timeout: float = 120.0) -> str:
        """Wait for the next prompt (output ending in '> ' and then quiet): its line."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.text
            if text.endswith("> ") and len(text) > self.mark:
                time.sleep(0.05)
                if self.text == text:
                    self.mark = len(text)
                    return text.rsplit("\n", 1)[-1]
            if self.proc.poll() is not None and self.text == text:
                break
            time.sleep(0.01)
        raise AssertionError(f"no prompt came; the output ends:\n{self.text[-2000:]}")

    def send(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()
        self.sent += 1

    def finish(self, timeout: float = 60.0) -> tuple[int, str, str]:
        assert self.proc.stdin is not None
        assert self.proc.stderr is not None
        self.proc.stdin.close()
        code = self.proc.wait(timeout=timeout)
        self._reader.join(timeout=10)
        return code, self.text, self.proc.stderr.read().decode("utf-8", errors="replace")


# -- Ctrl-C, and the signals that end a program ---------------------------------------------


def resumes_identically(record: Path, args: tuple[str, ...], answered: int, cwd: Path) -> None:
    """``record``, resumed and played on with the first legal move each time, ends as the
    game of ``args`` played straight through with the same answers does."""
    more = 6
    resumed = piped("--resume", str(record), script="1\n" * more + "quit\n", cwd=cwd)
    assert resumed.returncode == 0, resumed.stderr
    assert "Traceback" not in resumed.stdout + resumed.stderr
    reference = cwd / "reference.json"
    script = "1\n" * (answered + more) + "quit\n"
    whole = piped(*args, "--save", str(reference), script=script, cwd=cwd)
    assert whole.returncode == 0, whole.stderr
    assert moves_of(record) == moves_of(reference)


def test_ctrl_c_while_the_computer_thinks_saves_and_resumes_identically(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from umtali.games.umtali import session as session_module
    from umtali.games.umtali.bots import Bot, make_bot
    from umtali.games.umtali.view import PlayerView

    class CtrlCDuringItsFifthChoice:
        """The computer's level, and the player pressing Ctrl-C while it chooses its
        fifth move: the interrupt comes out of the choice, as Python raises it there."""

        def __init__(self, bot: Bot) -> None:
            self.bot = bot
            self.name = bot.name
            self.choices = 0

        def choose(self, view: PlayerView, rng: random.Random) -> Move:
            move = self.bot.choose(view, rng)
            self.choices += 1
            if self.choices == 5:
                raise KeyboardInterrupt
            return move

    monkeypatch.setattr(
        session_module,
        "make_bot",
        lambda level, reproducible: CtrlCDuringItsFifthChoice(make_bot(level, reproducible=True)),
    )
    args = ("--seed", "8", "--bot", "search")
    record = tmp_path / "game.json"
    answers: list[str] = []

    def answer(prompt: str) -> str:
        answers.append("1")
        return "1"

    out = io.StringIO()
    options = PlayOptions(bot="search", seed=8, save=str(record))
    assert run_play(Terminal(out, answer, color=False), options) == 130  # as shells say Ctrl-C
    monkeypatch.undo()  # the games below play in this process too, at full strength
    text = out.getvalue()
    assert "Interrupted (Ctrl-C): saving the game." in text
    assert f"Game saved to {record}. Continue it with: umtali play --resume {record}" in text
    assert to_move(record) == 1  # saved in the computer's turn, its choice not played
    resumes_identically(record, args, len(answers), tmp_path)


@pytest.mark.parametrize(
    ("signum", "said", "status"),
    [
        (signal.SIGINT, None, 130),  # Ctrl-C at a prompt is taken as quit: nothing to say
        (signal.SIGTERM, "Stopped (SIGTERM)", 143),
        (signal.SIGHUP, "The terminal was closed (SIGHUP)", 129),
    ],
    ids=["SIGINT", "SIGTERM", "SIGHUP"],
)
def test_a_signal_at_a_prompt_saves_the_hand_in_progress_and_resumes_identically(
    tmp_path: Path, signum: int, said: str | None, status: int
) -> None:
    args = ("--seed", "21", "--bot", "greedy")
    record = tmp_path / "game.json"
    live = Live(*args, "--save", str(record), cwd=tmp_path)
    for _ in range(7):
        live.prompt()
        live.send("1")
    live.prompt()
    live.proc.send_signal(signum)
    code, out, err = live.finish()
    assert code == status, err  # 128 + the signal's number, as shells report it
    assert "Traceback" not in out + err
    if said is not None:
        assert f"{said}: saving the game." in out
    assert f"Continue it with: umtali play --resume {record}" in out
    resumes_identically(record, args, live.sent, tmp_path)


# -- a save that fails once the game is under way ----------------------------------------------


def test_a_failed_save_is_reported_and_the_game_goes_on(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    record = folder / "game.json"
    live = Live("--seed", "11", "--bot", "greedy", "--save", str(record), cwd=tmp_path)
    line = live.prompt()
    shutil.rmtree(folder)  # the folder goes away after the check at the start
    while "Press Enter for the next hand" not in line:
        live.send("1")
        line = live.prompt()
    assert f"The game could not be saved to {record}" in live.text
    assert "Playing on" in live.text
    live.send("")  # on to hand 2
    assert "You> " in live.prompt()
    live.send("quit")
    code, out, err = live.finish()
    assert code == 0, err
    assert "Traceback" not in out + err
    saved = re.search(r"Game saved to (umtali-\S+\.json)\.", out)
    assert saved, out[-1500:]
    assert len(moves_of(tmp_path / saved[1])) == 2  # hand 1 whole, hand 2 begun


# -- hot-seat -------------------------------------------------------------------------------------


def test_hotseat_hand_overs_at_the_start_and_after_a_resume_and_quit_there(tmp_path: Path) -> None:
    record = tmp_path / "hs.json"
    live = Live("--hotseat", "--seed", "6", "--save", str(record), cwd=tmp_path)
    first = live.prompt()
    assert first.startswith("Hand the terminal to Player")  # before the very first turn
    live.send("who? me?")  # anything but quit goes on
    hand_overs = 1
    while hand_overs < 4:
        line = live.prompt()
        if line.startswith("Hand the terminal"):
            hand_overs += 1
            if hand_overs == 4:
                live.send("quit")
                break
        live.send("1")
    code, out, err = live.finish()
    assert code == 0, err
    assert "Game saved to" in out
    # After a resume, the first thing is a hand-over again, then what happened meanwhile.
    resumed = piped("--resume", str(record), script="\nquit\n", cwd=tmp_path)
    out = resumed.stdout
    assert out.index("Hand the terminal to") < out.index("Your hand (")
    assert re.search(r"(Since your last turn|So far in this hand) \(Player \d\):", out)


def test_hotseat_tells_the_incoming_player_only_what_he_may_see(tmp_path: Path) -> None:
    result = piped("--hotseat", "--seed", "6", script="\n1" * 400 + "\nquit\n", cwd=tmp_path)
    out = result.stdout
    recaps = re.findall(
        r"(?:Since your last turn|So far in this hand) \(Player (\d)\):\n((?:  .*\n)+)", out
    )
    assert len(recaps) > 5
    for reader, lines in recaps:
        for line in lines.strip("\n").split("\n"):
            # Only the other player's moves, and his stock draws without the card.
            assert line.startswith(f"  Player {3 - int(reader)} "), line
            assert not re.search(r"draws \S+ from the stock", line), line
            assert "face down" not in line or "a card face down" in line, line


# -- a real terminal --------------------------------------------------------------------------------


class Tmux:
    """A tmux server of the test's own, with one window running a command."""

    def __init__(self, tmp_path: Path, command: str, width: int = 100, height: int = 50) -> None:
        # A name never used before: an id() can be reused once an object is gone, and
        # a new session on the socket of a server still shutting down fails.
        self.socket = f"umtali-test-{os.getpid()}-{uuid.uuid4().hex[:12]}"
        conf = tmp_path / "tmux.conf"
        conf.write_text("set -g history-limit 50000\n", encoding="utf-8")
        # COLUMNS and LINES (pytest-xdist sets them in its workers) would override the
        # size of the window tmux gives the program.
        unset = ("NO_COLOR", "TMUX", "COLUMNS", "LINES")
        env = {k: v for k, v in os.environ.items() if k not in unset}
        env["TERM"] = "xterm-256color"
        self.tmux(
            "-f", str(conf), "new-session", "-d", "-x", str(width), "-y", str(height),
            f"cd {tmp_path} && {command}; sleep 60",
            env=env,
        )  # fmt: skip

    def tmux(self, *args: str, env: dict[str, str] | None = None) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.socket, *args], capture_output=True, text=True, env=env
        )
        if done.returncode != 0:
            raise RuntimeError(f"tmux {args[0:3]} failed ({done.returncode}): {done.stderr}")
        return done.stdout

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", *keys)

    def screen(self, history: bool = False, escapes: bool = False) -> str:
        args = ["capture-pane", "-p"]
        if history:
            args += ["-S", "-"]
        if escapes:
            args.append("-e")
        return self.tmux(*args)

    def cursor_line(self) -> tuple[int, str]:
        """Where the cursor is (its row), and its line up to the cursor."""
        y, x = map(int, self.tmux("display", "-p", "#{cursor_y} #{cursor_x}").split())
        lines = self.screen().split("\n")  # (without the spaces that end a line)
        return y, (lines[y] if y < len(lines) else "").ljust(x)[:x]

    def wait_for(self, *needles: str, history: bool = False, timeout: float = 30.0) -> str:
        deadline = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < deadline:
            screen = self.screen(history)
            if all(n in screen for n in needles):
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{needles} did not appear on the screen:\n{screen}")

    def wait_until(self, done: Callable[[tuple[int, str]], bool], timeout: float = 30.0) -> str:
        """Wait until ``done`` holds of the cursor's row and line; that line."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            cursor = self.cursor_line()
            if done(cursor):
                return cursor[1]
            time.sleep(0.05)
        raise AssertionError(f"the cursor is at {self.cursor_line()} on:\n{self.screen()}")

    def prompt(self, timeout: float = 60.0) -> str:
        """Wait until the cursor waits after a prompt ending in '> ': that line. (After
        :meth:`type`, the line with the answer is left behind: this is a new prompt.)"""
        return self.wait_until(lambda cursor: cursor[1].endswith("> "), timeout)

    def type(self, text: str) -> None:
        """Type ``text`` at the prompt and press Enter, and wait until the line is taken:
        the cursor has left it."""
        if text:
            self.tmux("send-keys", "-l", text)
            self.wait_until(lambda cursor: cursor[1].endswith("> " + text))
        typed = self.cursor_line()
        self.tmux("send-keys", "Enter")
        self.wait_until(lambda cursor: cursor != typed)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, check=False)


needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


@needs_tmux
def test_a_hotseat_hand_in_a_real_terminal_never_shows_the_other_hand(tmp_path: Path) -> None:
    term = Tmux(tmp_path, f"{UMTALI} play --hotseat --seed 6")
    try:
        outgoing_hand = None
        hand_overs = 0
        while True:
            line = term.prompt()
            everything = term.screen(history=True)
            if line.startswith("Hand the terminal to"):
                hand_overs += 1
                # The whole scrollback holds the hand-over screen and nothing else.
                assert "Your hand" not in everything, everything
                assert "from the stock" not in everything, everything
                term.type("")
                line = term.prompt()
                everything = term.screen(history=True)
                if outgoing_hand is not None:
                    assert outgoing_hand not in everything, everything
                assert everything.count("Your hand (") <= 1, everything  # his own, once
                if line.startswith("Player"):
                    # The Up arrow recalls nothing the other player typed: the line stays
                    # empty, as the mark typed after it shows.
                    term.keys("Up", "Up")
                    term.tmux("send-keys", "-l", "#")
                    recalled = term.wait_until(lambda cursor: cursor[1].endswith("#"))
                    assert recalled == line + "#", recalled
                    term.keys("C-u")  # and the line is emptied again
                    assert term.prompt() == line
            if line.startswith("Press Enter for the next hand"):
                break
            mine = re.findall(r"Your hand \(\d+\): .*", term.screen())
            outgoing_hand = mine[-1].rstrip() if mine else outgoing_hand
            term.type("1")
        assert hand_overs >= 5
        screen = term.screen(history=True)
        assert "End of the hand: Player" in screen
        term.type("quit")
        term.wait_for("Game saved to")
    finally:
        term.close()


@needs_tmux
def test_the_terminal_has_colour_line_editing_word_wrap_and_ctrl_c(tmp_path: Path) -> None:
    term = Tmux(tmp_path, f"{UMTALI} play --seed 7 --bot expert", width=60)
    try:
        term.prompt()
        # Prose wraps between words: the greeting, read line by line, is whole.
        joined = " ".join(term.screen().split())
        assert "A game of Umtali: You against Computer (Expert). Seed 7. Type help at any" in joined
        # Hearts and diamonds in the hand are red.
        hand = next(ln for ln in term.screen(escapes=True).split("\n") if "Your hand" in ln)
        red = re.findall(r"\x1b\[(?:[0-9;]*;)?31m([0-9AJQK]+.)", hand)
        plain = re.sub(r"\x1b\[[0-9;]*m", "", hand)
        assert red, repr(hand)
        assert sorted(red) == sorted(re.findall(r"[0-9AJQK]+[♥♦]", plain)), repr(hand)
        # Line editing: type "dw", go back one character, insert "ra": "draw".
        term.tmux("send-keys", "-l", "dw")
        term.keys("Left")
        term.tmux("send-keys", "-l", "ra")
        term.wait_until(lambda cursor: cursor[1].endswith("> dra"))  # the cursor before "w"
        term.type("")
        term.wait_for("You draw ")
        # History: the arrow up brings "draw" back; the engine refuses a second draw.
        term.prompt()
        term.keys("Up")
        term.wait_until(lambda cursor: cursor[1].endswith("> draw"))
        term.type("")
        term.wait_for("you have already drawn")
        # Ctrl-C at the prompt saves the game.
        term.prompt()
        term.keys("C-c")
        screen = term.wait_for("Game saved to")
        assert "Traceback" not in screen
    finally:
        term.close()


@needs_tmux
def test_closing_the_terminal_saves_the_hand_in_progress(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    term = Tmux(
        tmp_path, f"{UMTALI} play --seed 21 --bot greedy --save {record} 2>{tmp_path}/err.log"
    )
    try:
        for _ in range(3):
            term.prompt()
            term.type("1")
        term.prompt()
    finally:
        term.close()  # the terminal goes away: the program gets SIGHUP
    deadline = time.monotonic() + 30
    while not record.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert record.exists(), "the game was not saved when its terminal was closed"
    assert "Traceback" not in (tmp_path / "err.log").read_text(encoding="utf-8")
    hands = json.loads(record.read_text(encoding="utf-8"))["hands"]
    assert len(hands) == 1
    assert len(hands[0]["moves"]) >= 3  # the hand in progress, with our moves in it
