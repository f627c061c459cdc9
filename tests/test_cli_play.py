"""``umtali play`` end to end, with scripted input: in this process through the command's
own ``main`` (its standard input a script), and a few times as a real process in a real
terminal (tmux)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from umtali.games.umtali.bots import DEFAULT_BOT
from umtali.kernel.cards import display_key, parse_card
from umtali.kernel.players import computer_name

UMTALI = str(Path(sys.executable).parent / "umtali")


@dataclass(frozen=True)
class Played:
    """What a run of ``umtali play`` left: as :class:`subprocess.CompletedProcess` has it."""

    returncode: int
    stdout: str
    stderr: str


def play(*args: str, script: str, cwd: Path | None = None, timeout: float = 300) -> Played:
    """``umtali play ARGS`` run in this process by the command's ``main``, ``script`` as
    its standard input, in the folder ``cwd``, without colour. (``timeout`` is kept for
    the callers that ran it as a process.)"""
    from umtali.cli.main import main

    out, err = io.StringIO(), io.StringIO()
    stdin, colour = sys.stdin, os.environ.get("NO_COLOR")
    sys.stdin = io.StringIO(script)
    os.environ["NO_COLOR"] = "1"
    try:
        with contextlib.chdir(cwd or Path.cwd()), contextlib.redirect_stderr(err):
            try:
                code = main(["play", *args], out)
            except SystemExit as e:  # argparse refuses an option so
                code = e.code if isinstance(e.code, int) else 2
    finally:
        sys.stdin = stdin
        if colour is None:
            del os.environ["NO_COLOR"]
        else:
            os.environ["NO_COLOR"] = colour
    return Played(code, out.getvalue(), err.getvalue())


def moves_of(record: Path) -> list[list[str]]:
    data = json.loads(record.read_text(encoding="utf-8"))
    return [hand["moves"] for hand in data["hands"]]


def test_a_whole_game_against_the_computer(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    # Always the first legal move; any answer moves on at the "next hand" prompts.
    result = play("--seed", "11", "--bot", "expert", "--save", str(record), script="1\n" * 3000)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Traceback" not in out + result.stderr
    assert "Game so far" in out
    assert out.count("End of the hand") == 4
    assert "Total" in out
    assert re.search(r"(You win|Computer \(Expert\) wins) the game\.|The game is drawn\.", out)
    data = json.loads(record.read_text(encoding="utf-8"))
    assert len(data["hands"]) == 4
    assert all("scores" in hand for hand in data["hands"])
    # The computer's moves are shown as sentences, and its draws stay hidden.
    assert "Computer (Expert) draws from the stock" in out


@pytest.fixture(scope="module")
def random_session(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, list[Any]]:
    """A whole session against the random bot, always picking option 1: what it printed,
    and the hands of its saved record."""
    record = tmp_path_factory.mktemp("session") / "session.json"
    result = play(
        "--seed", "5", "--session", "--bot", "random", "--save", str(record), script="1\n" * 12000
    )
    assert result.returncode == 0, result.stderr
    hands: list[Any] = json.loads(record.read_text(encoding="utf-8"))["hands"]
    return result.stdout, hands


def test_a_session_plays_until_two_games_are_won(random_session: tuple[str, list[Any]]) -> None:
    out, _ = random_session
    assert re.search(
        r"(You win|Computer \(Beginner\) wins) the session\.|The session is drawn\.", out
    )
    assert "Games won:" in out


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
                "²",  # a digit, but no number a move can have
                "٣٠",  # a number (30), in other digits: no move 30
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
    result = play("--seed", "7", "--bot", "greedy", script=script, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Traceback" not in out + result.stderr
    assert "Type a move, a number, or help" in out
    assert "'fly away' is not a move" in out
    assert "There is no move 99" in out
    assert "'²' is not a move" in out
    assert "There is no move 30" in out
    assert "must first draw" in out
    assert "'Zz' is not a card" in out
    assert "Write the move after 'why'" in out
    assert "Hint:" in out
    assert "Umtali in brief" in out
    assert "No hand has been finished yet. This hand so far: You 0, Computer (Casual) " in out
    # A word that is no move and no command: what may be typed is named.
    assert "Type moves to list the moves you may make, hint for a suggestion, or help" in out
    # Nothing was played: quitting keeps no file.
    assert "Nothing was played yet, so nothing was saved." in out
    assert not list(tmp_path.glob("umtali-*.json"))


def test_quit_saves_and_resume_continues_identically(tmp_path: Path) -> None:
    whole = tmp_path / "whole.json"
    play("--seed", "21", "--bot", "greedy", "--save", str(whole), script="1\n" * 3000)
    saved = tmp_path / "saved.json"
    first = play(
        "--seed", "21", "--bot", "greedy", "--save", str(saved), script="1\n" * 40 + "quit\n"
    )
    assert first.returncode == 0, first.stderr
    assert "Game saved to" in first.stdout
    halfway = moves_of(saved)
    assert sum(len(m) for m in halfway) < sum(len(m) for m in moves_of(whole))
    second = play("--resume", str(saved), script="1\n" * 3000)
    assert second.returncode == 0, second.stderr
    assert "Resuming the game" in second.stdout
    assert moves_of(saved) == moves_of(whole)


def test_end_of_input_saves_like_quit(tmp_path: Path) -> None:
    result = play("--seed", "4", "--bot", "greedy", script="1\n1\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    saves = list(tmp_path.glob("umtali-*.json"))
    assert len(saves) == 1
    assert "Continue it with: umtali play --resume" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--resume", "missing.json"], "cannot resume missing.json: no such file"),
        (["--bot", "genius"], "invalid choice: 'genius'"),
        (["--hotseat", "--bot", "greedy"], "so --bot cannot be used with it; leave it out"),
    ],
)
def test_bad_options_are_refused(tmp_path: Path, args: list[str], message: str) -> None:
    result = play(*args, script="", cwd=tmp_path)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_resuming_a_finished_game_is_refused(tmp_path: Path) -> None:
    record = tmp_path / "done.json"
    play("--seed", "2", "--bot", "greedy", "--save", str(record), script="1\n" * 3000)
    result = play("--resume", str(record), script="")
    assert result.returncode == 2
    assert "already over" in result.stderr


def test_resuming_a_record_not_made_by_play_is_refused(tmp_path: Path) -> None:
    record = tmp_path / "demo.json"
    subprocess.run(
        [UMTALI, "demo", "--seed", "1", "--save", str(record)], capture_output=True, check=True
    )
    data = json.loads(record.read_text(encoding="utf-8"))
    del data["digest"]  # edited by hand
    data["hands"][0]["moves"] = data["hands"][0]["moves"][:3]
    del data["hands"][0]["scores"]
    record.write_text(json.dumps(data), encoding="utf-8")
    result = play("--resume", str(record), script="")
    assert result.returncode == 2
    assert "was not saved by 'umtali play'" in result.stderr


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_play_in_a_real_terminal(tmp_path: Path) -> None:
    session = f"umtali-test-{os.getpid()}"
    command = f"cd {tmp_path} && {UMTALI} play --seed 7 --bot greedy; sleep 30"
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


# -- the record: where it is kept, and when keeping it fails ------------------------------------


def unwritable_folder(tmp_path: Path) -> Path:
    """A folder no file can be created in: a read-only one, or /sys for root (whom
    permission bits do not stop)."""
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        (folder / "probe").touch()
    except OSError:
        return folder
    (folder / "probe").unlink()
    if Path("/sys").is_dir():
        return Path("/sys")
    pytest.skip("no unwritable folder to test with")


@pytest.mark.parametrize(
    ("target", "message"),
    [
        ("missing/game.json", "the folder missing does not exist"),
        (".", "it is a folder; give a file name"),
        ("LOCKED/game.json", "cannot keep the game in"),
    ],
)
def test_a_save_file_that_cannot_be_written_is_refused_before_the_deal(
    tmp_path: Path, target: str, message: str
) -> None:
    target = target.replace("LOCKED", str(unwritable_folder(tmp_path)))
    result = play(
        "--seed", "4", "--bot", "greedy", "--save", target, script="1\n" * 50, cwd=tmp_path
    )
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert "Your hand" not in result.stdout  # no hand was dealt, so none is lost


def test_save_refuses_to_overwrite_a_game_it_is_not_resuming(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    first = play("--seed", "4", "--bot", "greedy", "--save", str(record), script="1\n1\nquit\n")
    assert first.returncode == 0, first.stderr
    before = record.read_text(encoding="utf-8")
    again = play("--seed", "5", "--bot", "greedy", "--save", str(record), script="1\n" * 20)
    assert again.returncode == 2
    assert "already exists" in again.stderr
    assert f"umtali play --resume {record}" in again.stderr
    assert "another file name" in again.stderr
    assert record.read_text(encoding="utf-8") == before
    # Resuming it, and keeping it under the same name, is what --save is for.
    resumed = play("--resume", str(record), "--save", str(record), script="quit\n")
    assert resumed.returncode == 0, resumed.stderr


# -- what the screen says -------------------------------------------------------------------------


def test_the_seed_of_a_live_game_is_shown_only_when_the_player_gave_it(tmp_path: Path) -> None:
    unseeded = play("--bot", "greedy", script="1\nquit\n", cwd=tmp_path)
    assert unseeded.returncode == 0, unseeded.stderr
    assert "Seed" not in unseeded.stdout
    assert "seed" not in unseeded.stdout.lower().replace("--resume", "")
    # The record keeps it all the same: a resumed game deals on from it.
    (saved,) = tmp_path.glob("umtali-*.json")
    assert isinstance(json.loads(saved.read_text(encoding="utf-8"))["meta"]["seed"], int)
    seeded = play("--seed", "877", "--bot", "greedy", script="quit\n", cwd=tmp_path)
    assert "Seed 877." in seeded.stdout


def test_the_human_is_spoken_to_as_you(tmp_path: Path) -> None:
    result = play("--seed", "11", "--bot", "expert", script="1\n" * 3000, cwd=tmp_path)
    out = result.stdout
    for wrong in ("You wins", "You deals", "You holds", "to You", "Player 1's hand"):
        assert wrong not in out, wrong
    # Inside a sentence, "you" is not capitalised.
    assert not re.search(r"[;,] You |and You ", out), re.findall(r".*[;,] You .*|.*and You .*", out)
    assert re.search(r"(You win|Computer \(Expert\) wins) the hand\.", out)
    assert re.search(r"· (You deal|Computer \(Expert\) deals)", out)
    # The engine's refusals, addressed to the player who made the move.
    script = "discard 9h\n1\ndiscard Qh\nquit\n"
    refused = play("--seed", "3", "--bot", "expert", script=script, cwd=tmp_path)
    assert "You cannot discard 9♥ now: you are to move, and must first draw" in refused.stdout
    assert "Q♥ is not in your hand" in refused.stdout


def forfeit_lines(out: str) -> list[list[str]]:
    lines = re.findall(r"(?:forfeited by the opponent|forfeited to you): (.*?)\s+\d*$", out, re.M)
    lines += re.findall(r"You cannot go out and forfeit (.*?) to ", out)
    return [line.split() for line in lines]


@pytest.fixture(scope="module")
def expert_game(tmp_path_factory: pytest.TempPathFactory) -> str:
    """What a whole game against the expert printed, always picking option 1."""
    result = play(
        "--seed", "3", "--bot", "expert", script="1\n" * 3000, cwd=tmp_path_factory.mktemp("game")
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_the_end_of_a_hand_says_who_went_out_and_lists_forfeits_like_a_hand(
    expert_game: str,
) -> None:
    out = expert_game
    endings = re.findall(r"End of the hand: (.*)\.", out)
    assert len(endings) == 4
    for ending in endings:
        assert re.match(r"(You|Computer \(Expert\)) went out first|the stock ran out", ending)
    forfeits = forfeit_lines(out)
    assert forfeits, "no hand of this game ended with forfeited cards"
    for cards in forfeits:
        assert cards == sorted(cards, key=lambda card: display_key(parse_card(card))), (
            cards
        )  # spades first, high to low


def test_the_board_shows_the_top_discard_once_the_cards_under_it_and_the_last_turn(
    expert_game: str,
) -> None:
    out = expert_game
    piles = re.findall(r"Top discard (\S+).*\nUnder the top discard: (.*)", out)
    assert piles
    for top, under in piles:
        assert top not in under.split(), (top, under)  # the top card once, on its own line
    assert "This is your last turn: Computer (Expert) has gone out." in out


def test_game_so_far_gives_the_current_games_totals(
    random_session: tuple[str, list[Any]],
) -> None:
    out, hands = random_session
    assert len(hands) >= 8
    boards = re.split(r"\n(?=Game \d, hand \d of 4 · (?:turn \d+|the deal) · your move)", out)
    checked = 0
    for board_text in boards[1:]:
        head = re.match(r"Game (\d), hand (\d) of 4", board_text)
        assert head
        game, number = int(head[1]), int(head[2])
        shown = re.search(r"Game so far: You (\d+), Computer \(Beginner\) (\d+)", board_text)
        if number == 1:
            assert shown is None, board_text  # a new game starts from nothing
            continue
        assert shown is not None, board_text
        first = (game - 1) * 4
        done = hands[first : first + number - 1]
        totals = (sum(h["scores"][0] for h in done), sum(h["scores"][1] for h in done))
        assert (int(shown[1]), int(shown[2])) == totals, (game, number)
        checked += game > 1
    assert checked  # boards of the second game were among them


def test_hints_come_from_the_default_level_whoever_the_opponent_is(tmp_path: Path) -> None:
    result = play("--seed", "3", "--bot", "random", script="hint\nquit\n", cwd=tmp_path)
    assert f"(The {DEFAULT_BOT} level would play this.)" in result.stdout
    assert "random" not in result.stdout.split("Hint:")[1].split("\n")[0]


def test_the_computer_plays_the_default_level_unless_told(tmp_path: Path) -> None:
    result = play("--seed", "3", script="quit\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"A game of Umtali: You against {computer_name(DEFAULT_BOT)}." in result.stdout


def test_the_dealer_is_told_what_keep_and_give_mean_and_bad_answers_are_refused(
    tmp_path: Path,
) -> None:
    # Seed 2: You deal the first hand.
    script = "give me\ntake 5h\n3\nhelp\nkeep it\ngive\nquit\n"
    result = play("--seed", "2", "--bot", "expert", script=script, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Traceback" not in out + result.stderr
    assert "Your hand (0)" not in out
    assert "You deal, so you choose who gets the 11th card: 'keep' it" in out
    assert "'give me' is not a move" in out
    assert "you deal and must first choose who receives the 11th card" in out
    assert "There is no move 3: choose 1 to 2" in out
    assert "keep · give: the dealer keeps the 11th card" in out  # in help
    assert "'keep it' is not a move" in out
    assert "You deal and give the 11th card to Computer (Expert)" in out


def test_a_very_long_line_is_refused_without_echoing_it(tmp_path: Path) -> None:
    result = play("--seed", "3", "--bot", "greedy", script="x" * 6000 + "\nquit\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "That line is 6000 characters long" in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) < 400
    assert "nothing was saved" in result.stdout


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        (["--bot", "random"], "--bot"),
        (["--seed", "9"], "--seed"),
        (["--session"], "--session"),
        (["--hotseat", "--bot", "greedy"], "--bot and --hotseat"),
    ],
)
def test_resume_refuses_options_that_would_be_ignored(
    tmp_path: Path, extra: list[str], named: str
) -> None:
    record = tmp_path / "game.json"
    play("--seed", "4", "--bot", "greedy", "--save", str(record), script="1\nquit\n")
    result = play("--resume", str(record), *extra, script="1\n" * 20)
    assert result.returncode == 2
    assert f"so {named} cannot be used with it" in result.stderr
    assert "Traceback" not in result.stderr


def test_quit_at_the_next_hand_prompt_saves(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    # Enough first moves to finish hand 1, but not hand 2: the pause between them is the
    # first prompt that is not a move; "quit" is sent there.
    whole = play("--seed", "11", "--bot", "greedy", "--save", str(record), script="1\n" * 3000)
    assert whole.returncode == 0
    first_hand = moves_of(record)[0]
    record.unlink()
    answers = whole.stdout.split("Press Enter for the next hand")[0].count("You> ")
    script = "1\n" * answers + "x" * 300 + "\nscore\nquit\n"
    result = play("--seed", "11", "--bot", "greedy", "--save", str(record), script=script)
    assert result.returncode == 0, result.stderr
    assert "That line is 300 characters long" in result.stdout  # and asked again
    assert result.stdout.count("Game 1\n") >= 2  # the score sheet, shown again on 'score'
    assert "Game saved to" in result.stdout
    assert moves_of(record) == [first_hand]


def test_hearts_and_diamonds_are_red_when_colour_is_on(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
    env.update(FORCE_COLOR="1", TERM="xterm-256color", PYTHONIOENCODING="utf-8")
    result = subprocess.run(
        [UMTALI, "play", "--seed", "3", "--bot", "greedy"],
        input="quit\n",
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
        check=False,
    )
    hand = next(line for line in result.stdout.splitlines() if "Your hand" in line)
    red = re.findall(r"\x1b\[(?:[0-9;]*;)?31m([0-9AJQK]+.)", hand)
    plain = re.sub(r"\x1b\[[0-9;]*m", "", hand)
    assert sorted(red) == sorted(re.findall(r"[0-9AJQK]+[♥♦]", plain)), repr(hand)
    assert red
    # And none with NO_COLOR.
    no_colour = play("--seed", "3", "--bot", "greedy", script="quit\n", cwd=tmp_path)
    assert "\x1b[" not in no_colour.stdout


# -- saving on request, and resuming records written or edited elsewhere ----------------------


def test_save_keeps_the_game_and_plays_on(tmp_path: Path) -> None:
    result = play("--seed", "4", "--bot", "greedy", script="1\nsave\n1\n1\nquit\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    (record,) = tmp_path.glob("umtali-*.json")  # one file: quit saves where save did
    saved = f"Game saved to {record.name}; it is saved there again after every hand. Playing on."
    assert saved in out
    assert "You> " in out.split(saved)[1]  # and the game went on
    assert out.rstrip().endswith(f"umtali play --resume {record.name}")


def saved_game(tmp_path: Path, moves: int = 1) -> dict[str, Any]:
    """A game against greedy, quit after ``moves`` answers, as its record reads."""
    record = tmp_path / "game.json"
    script = "1\n" * moves + "quit\n"
    play("--seed", "4", "--bot", "greedy", "--save", str(record), script=script)
    data: dict[str, Any] = json.loads(record.read_text(encoding="utf-8"))
    del data["digest"]  # the tests edit it, as by hand: a record without one is still read
    return data


@pytest.mark.parametrize(
    ("meta", "message"),
    [
        ('"seed": "7"', "its 'seed' must be a whole number, not '7'"),
        ('"seed": 3.7', "its 'seed' must be a whole number, not 3.7"),
        ('"seed": true', "its 'seed' must be a whole number, not True"),
        ('"humans": "0"', "its 'humans' must list the seats at the keyboard"),
        ('"humans": [0, 0]', "its 'humans' must list the seats at the keyboard"),
        ('"humans": [false]', "its 'humans' must list the seats at the keyboard"),
        ('"humans": [2]', "its 'humans' must list the seats at the keyboard"),
        ('"bot": "genius"', "its 'bot' must be one of random, greedy, expert, search"),
    ],
)
def test_a_hand_edited_record_with_bad_seats_is_refused(
    tmp_path: Path, meta: str, message: str
) -> None:
    data = saved_game(tmp_path)
    key = meta.split(":")[0].strip('"')
    data["meta"][key] = "PLACEHOLDER"
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps(data).replace(f'"{key}": "PLACEHOLDER"', meta), encoding="utf-8")
    result = play("--resume", str(edited), script="1\n" * 20)
    assert result.returncode == 2
    assert f"cannot resume {edited}: the saved game's seats ('meta')" in result.stderr
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert "Your hand" not in result.stdout


def test_resuming_at_the_computers_turn_tells_each_of_its_moves_once(tmp_path: Path) -> None:
    from umtali.games.umtali.record import load_file

    data = saved_game(tmp_path, moves=8)
    # Cut the hand back into the computer's last turn, after its draw.
    moves = data["hands"][-1]["moves"]
    hand = load_file(tmp_path / "game.json").hands[-1]
    while hand.player == 0:
        hand.pop()
    assert hand.turn > 2, "not a turn with a draw"
    data["hands"][-1]["moves"] = moves[: len(hand.history)]
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(data), encoding="utf-8")
    result = play("--resume", str(cut), script="quit\n")
    assert result.returncode == 0, result.stderr
    # Its turn since ours: what it did before the save, then the rest live, each once.
    told = re.findall(r"^  Computer \(Casual\) .*$", result.stdout, re.M)
    assert len(told) == len(set(told)), told
    assert len([line for line in told if " from the " in line]) == 1, told  # one draw


def test_a_single_hand_has_no_game_totals(tmp_path: Path) -> None:
    from umtali.games.umtali.match import Match
    from umtali.games.umtali.session import Seats, first_dealer_for
    from umtali.kernel.deck import seeded_deck
    from umtali.kernel.record import save_file

    match = Match(
        kind="hand",
        players=("You", "Computer (Casual)"),
        meta=Seats(4, frozenset({0}), "greedy").meta(),
        first_dealer=first_dealer_for(4),
    )
    match.new_hand(seeded_deck("4/0"))
    record = tmp_path / "hand.json"
    save_file(match, record)
    result = play("--resume", str(record), script="1\n" * 3 + "quit\n")
    assert result.returncode == 0, result.stderr
    assert "A single hand" in result.stdout
    assert "Your hand (" in result.stdout
    assert "Game so far" not in result.stdout
    assert "Game 1, hand 1 of 4" not in result.stdout


def test_resuming_where_the_record_cannot_be_kept_says_what_to_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import tempfile

    from umtali.cli.play import PlayError, PlayOptions, run_play
    from umtali.cli.terminal import Terminal

    saved_game(tmp_path)
    record = tmp_path / "game.json"

    def read_only(*args: object, **kwargs: object) -> tuple[int, str]:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", read_only)  # the folder refuses new files
    with pytest.raises(PlayError) as refused:
        run_play(Terminal(io.StringIO(), color=False), PlayOptions(resume=str(record)))
    message = str(refused.value)
    assert f"no file can be written in the folder {tmp_path} (Permission denied)" in message
    assert f"umtali play --resume {record} --save OTHER_FILE" in message


def test_control_characters_typed_are_echoed_as_escapes(tmp_path: Path) -> None:
    script = "\x1b[2J\x00draw\nquit\n"
    result = play("--seed", "4", "--bot", "greedy", script=script, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout
    assert "\x00" not in result.stdout
    assert "You> \\x1b[2J\\x00draw" in result.stdout
