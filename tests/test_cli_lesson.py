"""``umtali lesson N``: the real console command with scripted input, and the terminal
renderer in process. The lessons themselves (script, questions, grading) are tested in
process in tests/test_learn_lessons.py."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.scripted import LESSON_QUESTIONS as QUESTIONS
from tests.scripted import LESSON_RIGHT as RIGHT
from tests.scripted import typed_terminal, wrapped_bullets
from umtali.cli.terminal import QuitRequested
from umtali.games.umtali.terminal.lesson import run_lesson

UMTALI = Path(sys.executable).parent / "umtali"


def run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    assert UMTALI.exists(), f"the umtali console script is not installed at {UMTALI}"
    env = dict(os.environ, NO_COLOR="1", PYTHONIOENCODING="utf-8")
    return subprocess.run(
        [str(UMTALI), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )


def script(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


# -- the console command -------------------------------------------------------------


def test_lesson_one_with_right_answers() -> None:
    result = run("lesson", "1", stdin=script(RIGHT[1]))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    out = result.stdout
    assert "Traceback" not in out
    assert "Lesson 1:" in out
    # The deal, both hands face up.
    assert "Player 1's hand (10): J♠ 7♠ 6♠ 5♠  10♥ 6♥  Q♦ J♦  10♣ 5♣" in out
    assert "Player 2's hand (11): K♠ 9♠  K♥ 7♥ 5♥ 3♥ 2♥ A♥  10♦  K♣ 9♣" in out
    # Every move, described by the engine's describer.
    assert "Player 2 takes 6♥ and 5♥ from the discard pile" in out
    assert "Player 2 goes out with the pair 9♠ 9♣" in out
    assert "Player 1 plays 10♣ off Player 2's 10♦, and goes out" in out
    # Each question was graded right, then the scores by column, then the tally.
    assert out.count("Right:") == QUESTIONS[1]
    assert "Not quite" not in out
    assert "The engine allows it: 'take 6♥ 5♥'" in out
    assert "group     K♠ K♥ K♣" in out
    assert "5 + 5 + 5 = 15" in out
    assert "Player 1 wins the hand and deals the next one." in out
    assert "You answered 5 of 5 questions correctly." in out


def test_the_marriage_is_shown_doubled_in_the_breakdown() -> None:
    out = run("lesson", "3", stdin=script(RIGHT[3])).stdout
    assert "marriage" in out
    assert "(5 + 5) × 2 = 20" in out
    assert re.search(r"forfeited by Player 1 +7♠ 4♥ +1 \+ 1 = +2\n", out)


@pytest.mark.parametrize("number", ["7", "0", "-1"])
def test_a_lesson_that_does_not_exist_is_refused(number: str) -> None:
    result = run("lesson", number)
    assert result.returncode == 2
    assert "there are four lessons, 1 to 4" in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_a_lesson_number_that_is_no_number_is_refused() -> None:
    result = run("lesson", "two")
    assert result.returncode == 2
    assert "invalid int value" in result.stderr
    assert "Traceback" not in result.stderr


def test_end_of_input_mid_lesson_stops_cleanly() -> None:
    result = run("lesson", "1", stdin="Ks Kh Kc 3h 2h Ah\n")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert "You answered 1 of 1 question correctly." in result.stdout
    assert "Lesson stopped." in result.stdout


def test_end_of_input_at_once_stops_cleanly() -> None:
    result = run("lesson", "3", stdin="")
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    assert "Lesson stopped." in result.stdout


def test_quit_stops_the_lesson() -> None:
    result = run("lesson", "1", stdin="Ks Kh Kc 3h 2h Ah\nquit\n")
    assert result.returncode == 0, result.stderr
    assert "Lesson stopped." in result.stdout
    assert "Turn 2" not in result.stdout


# -- in process ------------------------------------------------------------------------


@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_run_lesson_in_process(number: int) -> None:
    term, out = typed_terminal(RIGHT[number])
    assert run_lesson(term, number) == 0
    assert "Traceback" not in out.getvalue()
    assert f"{QUESTIONS[number]} of {QUESTIONS[number]}" in out.getvalue()


def test_run_lesson_raises_quit_with_the_tally_so_far() -> None:
    term, out = typed_terminal(["none", "skip", "quit"])
    with pytest.raises(QuitRequested):
        run_lesson(term, 4)
    assert "You answered 1 of 2 questions correctly (1 skipped)." in out.getvalue()


def test_run_lesson_refuses_a_bad_number() -> None:
    term, _ = typed_terminal([])
    with pytest.raises(ValueError, match="lessons"):
        run_lesson(term, 5)


# -- tries ---------------------------------------------------------------------------------


def test_an_empty_answer_does_not_use_up_a_try() -> None:
    answers = ["", "", "", "", *RIGHT[1]]
    result = run("lesson", "1", stdin=script(answers))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.count("No answer given.") == 4
    assert "Here is the answer." not in out
    assert out.count("Right:") == QUESTIONS[1]


# -- what a new player met ------------------------------------------------------------------


def test_a_half_right_answer_is_told_what_was_missing_in_the_order_typed() -> None:
    # The book's spelling K-♠ is read; the cards named back come in the order typed.
    out = run("lesson", "1", stdin=script(["K-♣ K♥ K-♠", "quit"])).stdout
    assert "Not quite. The answer: 3♥ 2♥ A♥, K♠ K♥ K♣." in out
    assert "  • You named K♣ K♥ K♠; missing: 3♥ 2♥ A♥." in out


def breakdown(out: str) -> list[str]:
    """The rows of the score table: the lines after its heading that name a column."""
    table = out.split("The score, column by column:\n")[1].split("wins the hand")[0]
    return [line for line in table.splitlines() if line.startswith("  ")]


@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_the_score_breakdown_lines_up_its_sums_and_points(number: int) -> None:
    term, out = typed_terminal(RIGHT[number])
    run_lesson(term, number)
    rows = breakdown(out.getvalue())
    if number != 4:  # the other hands have 10s on the table, a character wider
        assert any("10" in row.split("=")[0] for row in rows), rows
    sums = [row for row in rows if " = " in row]
    assert len({row.index(" = ") for row in sums}) == 1, sums
    # The points are set right: every row ends in the same column, both players' alike.
    assert len({len(row.rstrip()) for row in rows}) == 1, rows


@pytest.mark.parametrize("width", [80, 60])
def test_wrapped_points_are_indented_under_their_text(width: int) -> None:
    whole, whole_out = typed_terminal(RIGHT[1])
    run_lesson(whole, 1)
    narrow, narrow_out = typed_terminal(RIGHT[1], width=width, wraps=True)
    run_lesson(narrow, 1)
    wrapped = wrapped_bullets(whole_out.getvalue(), narrow_out.getvalue(), ("•", "▸"), width)
    assert wrapped, "no point is long enough to wrap"
    for head, after in wrapped.items():
        assert re.match(r" {4}\S", after), (head, after)
