"""``umtali demo`` and ``umtali replay`` as a new user meets them: stepping through a demo,
the winner on the last line, a saved demo that names its players as the screen did, and
the replay of a game that was stopped before its end."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

from umtali.cli.main import main
from umtali.games.umtali.lessons import LESSONS
from umtali.games.umtali.match import Match
from umtali.kernel.record import save_file

UMTALI = str(Path(sys.executable).parent / "umtali")
DEMO_3_RESULT = "Player 2 wins the hand, 35 to 18."  # seed 3: Player 2 goes out


def umtali(*args: str) -> str:
    """What the command prints, run in process (it reads no input)."""
    out = io.StringIO()
    assert main(list(args), out) == 0
    return out.getvalue()


def typed(*args: str, stdin: str) -> subprocess.CompletedProcess[str]:
    """The command as a process, with ``stdin`` typed at its prompts."""
    return subprocess.run(
        [UMTALI, *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, NO_COLOR="1", PYTHONIOENCODING="utf-8"),
        check=False,
    )


def last_line(text: str) -> str:
    return text.rstrip().splitlines()[-1]


# -- demo ----------------------------------------------------------------------------------


def test_the_last_line_of_a_demo_names_the_winner_and_the_score() -> None:
    out = umtali("demo", "--seed", "3")
    assert "hand over (out): 18–35" in out
    assert last_line(out) == DEMO_3_RESULT


def test_demo_step_pauses_after_each_turn_and_q_stops_it() -> None:
    result = typed("demo", "--seed", "3", "--step", stdin="\n\nq\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    # Pauses come after the deal, then after turns 1 and 2, where q stops.
    assert out.count("[Enter] next turn, q to stop>") == 3
    assert "turn 2 ·" in out
    assert "turn 3 ·" not in out
    assert last_line(out) == "Demo stopped."


def test_demo_step_to_the_end_shows_the_same_hand_and_ends_with_the_winner() -> None:
    whole = umtali("demo", "--seed", "3")
    result = typed("demo", "--seed", "3", "--step", stdin="\n" * 50)
    assert result.returncode == 0, result.stderr
    # No pause after the last turn: nothing follows it but the result.
    assert last_line(result.stdout) == DEMO_3_RESULT
    stepped = result.stdout.replace("[Enter] next turn, q to stop> \n", "")
    assert stepped == whole


def test_a_saved_demo_names_its_players_as_the_screen_did(tmp_path: Path) -> None:
    record = tmp_path / "demo.json"
    out = umtali("demo", "--seed", "3", "--save", str(record))
    players = json.loads(record.read_text(encoding="utf-8"))["players"]
    assert players == ["Player 1", "Player 2"]
    for name in players:
        assert f"{name}  hand:" in out
    assert last_line(out) == DEMO_3_RESULT
    replay = umtali("replay", str(record))
    assert replay.startswith("Hand between Player 1 and Player 2,")
    assert last_line(replay) == DEMO_3_RESULT


# -- replay of an unfinished game -------------------------------------------------------------


def replayed(folder: Path, moves: list[str], players: tuple[str, str]) -> str:
    """The replay of a game of which the book's first lesson hand was played as far as
    ``moves`` go, and no further."""
    game = Match(kind="game", first_dealer=1, players=players)
    hand = game.new_hand(LESSONS[0].deck())
    for text in moves:
        hand.push_text(text)
    save_file(game, folder / "stopped.json")
    return umtali("replay", str(folder / "stopped.json"))


def test_the_replay_of_a_game_stopped_mid_hand_says_so_and_who_was_to_move(
    tmp_path: Path,
) -> None:
    out = replayed(tmp_path, [*LESSONS[0].turns[0].moves, "draw"], ("Ann", "Player 2"))
    assert "(the hand is unfinished)" in out
    assert last_line(out) == (
        "The game is unfinished: hand 1 stops at turn 2, with Ann (Player 1) to move."
    )


def test_the_replay_of_a_game_stopped_between_hands_says_who_deals_next(
    tmp_path: Path,
) -> None:
    moves = [text for turn in LESSONS[0].turns for text in turn.moves]
    out = replayed(tmp_path, moves, ("Player 1", "Player 2"))
    assert "Player 1 wins the hand, 31 to 28." in out
    assert last_line(out) == (
        "The game is unfinished after hand 1, with Player 1 to deal the next hand."
    )


def test_the_replay_of_a_finished_game_ends_with_its_winner(tmp_path: Path) -> None:
    from tests.test_records import lesson_game

    save_file(lesson_game(), tmp_path / "lessons.json")
    out = umtali("replay", str(tmp_path / "lessons.json"))
    assert "Player 2 wins the hand, 52 to 33." in out  # the winner's score first
    assert "unfinished" not in out.split("== Hand 4")[1]
    assert last_line(out) == "The game is over: won by Player 1."
