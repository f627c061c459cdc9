"""``umtali quiz``: the book's twelve self-test questions, in the terminal.

A few tests drive the command as a real process through its console script, with piped
answers; the others run the terminal quiz in process. The questions and their grading
are tested in process against :mod:`umtali.learn` in tests/test_learn_quiz.py.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.scripted import BOOK_ANSWERS, QUIZ_WRONG, typed_terminal, wrapped_bullets
from umtali.cli.terminal import QuitRequested
from umtali.games.umtali.deal import stacked_deck
from umtali.games.umtali.learn.question import Question
from umtali.games.umtali.learn.quiz import AnswerKind, build_questions
from umtali.games.umtali.learn.quiz_grading import grade_surface, surface_solution
from umtali.games.umtali.learn.surface import Surface, read_ungrouped
from umtali.games.umtali.melds import meld_plans
from umtali.games.umtali.state import HandState
from umtali.games.umtali.terminal.quiz import run_quiz
from umtali.learn.answers import MAX_TRIES

UMTALI = Path(sys.executable).parent / "umtali"


def quiz(*answers: str) -> subprocess.CompletedProcess[str]:
    """Run ``umtali quiz`` with ``answers`` piped in, one a line."""
    assert UMTALI.exists(), f"the umtali console script is not installed at {UMTALI}"
    env = dict(os.environ, NO_COLOR="1", PYTHONIOENCODING="utf-8", COLUMNS="200")
    return subprocess.run(
        [str(UMTALI), "quiz"],
        input="".join(f"{a}\n" for a in answers),
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        env=env,
        check=False,
    )


def flat(text: str) -> str:
    """Text with every run of whitespace made one space (immune to line wrapping)."""
    return " ".join(text.split())


def clean(result: subprocess.CompletedProcess[str]) -> str:
    """The flattened output of a run that exited 0 without a traceback."""
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stdout + result.stderr
    return flat(result.stdout)


def missed_section(out: str) -> str:
    assert "Questions missed:" in out
    return out.split("Questions missed:", 1)[1]


def deal(dealer_hand: str, other_hand: str, *, dealer: int) -> HandState:
    """A hand dealt from a stacked deck, the dealer keeping the 11th card."""
    state = HandState(stacked_deck(dealer_hand, other_hand), dealer=dealer)
    state.push_text("keep")
    return state


# -- the real command --------------------------------------------------------------------------


def test_the_books_answers_score_12_out_of_12() -> None:
    out = clean(quiz(*BOOK_ANSWERS))
    assert "Score: 12/12" in out
    assert out.count("Right.") == 12
    assert "Wrong." not in out
    assert "Questions missed" not in out
    for n in range(1, 13):
        assert f"Question {n} of 12" in out


def test_the_positions_are_drawn() -> None:
    out = clean(quiz(*BOOK_ANSWERS))
    assert "Your hand: J♠ 10♠ 10♥ 6♦ 4♦ 3♦ 2♦ K♣ Q♣ 9♣ 2♣" in out
    assert "solo: 5♣" in out
    assert "solo: J♥ J♠ 10♠ (off J♠) 9♠ (off 10♠)" in out
    assert "Discard pile, bottom to top: K♦ K♣ [face down]" in out
    assert "Your hand: J♠ 10♠ 9♠ K♥ 8♥ 7♥ 10♦ 7♦ A♦ 7♣ 6♣" in out


def test_wrong_answers_give_the_score_the_answer_and_the_engines_reason() -> None:
    answers = [QUIZ_WRONG[n][0] if n in QUIZ_WRONG else BOOK_ANSWERS[n - 1] for n in range(1, 13)]
    out = clean(quiz(*answers))
    assert f"Score: {12 - len(QUIZ_WRONG)}/12" in out
    assert out.count("Wrong.") == len(QUIZ_WRONG)
    summary = missed_section(out)
    numbers = [int(n) for n in re.findall(r"(?:^| )(\d+)\. ", summary)]
    assert numbers == sorted(QUIZ_WRONG)
    for n, (_, reasons) in QUIZ_WRONG.items():
        for reason in reasons:
            assert reason in summary, (n, reason)
    # The right answers are shown with the reasons.
    assert "The answer: J♠, 10♠, 10♥, 4♦ 3♦ 2♦, K♣ Q♣ (left in hand: 6♦ 9♣ 2♣)" in out
    assert "The answer: 5♠ 5♥ 5♦ 6♣ 4♣" in out
    assert "The answer: 40" in out
    assert "The answer: J♠, 10♠, 9♠, 10♦, 7♥ 7♦ 7♣ (left in hand: K♥ 8♥ A♦ 6♣)" in out


def test_the_quiz_and_the_lessons_share_their_quit_and_skip_words() -> None:
    out = clean(quiz("s", "q"))
    assert "Skipped (counted as wrong)." in out
    assert "Stopped after 1 of 12 questions: 0 right so far." in out
    lesson = subprocess.run(
        [str(UMTALI), "lesson", "1"],
        input="s\nq\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
        env=dict(os.environ, NO_COLOR="1", PYTHONIOENCODING="utf-8"),
        check=False,
    )
    assert "Skipped." in lesson.stdout
    assert "Lesson stopped." in lesson.stdout
    assert "Turn 2" not in lesson.stdout


def test_end_of_input_mid_quiz_stops_cleanly() -> None:
    out = clean(quiz(*BOOK_ANSWERS[:4], "K♥"))
    assert "Question 6 of 12" in out
    assert "Stopped after 5 of 12 questions: 4 right so far." in out
    assert "5. cards playable off a pair of Kings" in missed_section(out)
    assert out.endswith("Quiz stopped.")


def test_end_of_input_at_once_and_quit_stop_cleanly() -> None:
    out = clean(quiz())
    assert "Stopped after 0 of 12 questions: 0 right so far." in out
    out = clean(quiz(BOOK_ANSWERS[0], "quit"))
    assert "Stopped after 1 of 12 questions: 1 right so far." in out
    assert "Quiz stopped." in out


# -- the session, in process ---------------------------------------------------------------


def answered(*answers: str) -> str:
    """The flattened output of the quiz in process with ``answers`` typed, one a line,
    through the end of input (after which the quiz stops, as the command does)."""
    term, out = typed_terminal(list(answers))
    with contextlib.suppress(QuitRequested):
        run_quiz(term)
    return flat(out.getvalue())


def test_run_quiz_in_process() -> None:
    term, out = typed_terminal(list(BOOK_ANSWERS))
    assert run_quiz(term) == 0
    assert "Score: 12/12" in flat(out.getvalue())


def test_run_quiz_stops_on_end_of_input_after_a_summary() -> None:
    term, out = typed_terminal([BOOK_ANSWERS[0]])
    with pytest.raises(QuitRequested):
        run_quiz(term, build_questions()[:2])
    text = flat(out.getvalue())
    assert "Question 1 of 2" in text
    assert "Stopped after 1 of 2 questions: 1 right so far." in text


# -- answers without commas ---------------------------------------------------------------------


def test_plays_written_without_commas_are_read_as_melds_and_graded() -> None:
    answers = list(BOOK_ANSWERS)
    answers[0] = "kc qc 4d 3d 2d 10h 10s js"
    answers[11] = "js 10s 9s 10d 7h 7d 7c"
    out = answered(*answers)
    assert "Score: 12/12" in out
    assert "Read as: J♠, 10♠, 10♥, 4♦ 3♦ 2♦, K♣ Q♣" in out
    assert "Read as: J♠, 10♠, 9♠, 10♦, 7♥ 7♦ 7♣" in out


def test_the_format_of_plays_is_explained_before_the_first_answer() -> None:
    out = answered(*BOOK_ANSWERS)
    for number in (1, 12):
        question = out.split(f"Question {number} of 12")[1]
        before_answer = question.split("Your plays:")[0]
        assert "Write your plays as groups separated by commas" in before_answer
        assert "Without commas, the cards are read as melds wherever they make one" in (
            before_answer
        )


def test_plays_that_read_two_ways_without_commas_are_asked_again() -> None:
    # K♣ Q♣ Q♠ Q♦: the marriage or the group of Queens (R4); the quiz's own hands never
    # read two ways, so the question is put on this one.
    state = deal("Kc Qc Qs Qd 9h 7h 5s 3s 2d 6c 4c", "As 4s Ah 2h 3d 5d 7d 8c 9c 10c", dealer=0)
    plans = meld_plans(state.hands[0], state.open_mask)
    question = Question(
        prompt="Which plays?",
        kind=AnswerKind.SURFACE.value,
        answer_prompt=AnswerKind.SURFACE.prompt,
        expects=AnswerKind.SURFACE.expects,
        grade=lambda text: grade_surface(text, state, plans),
        reveal=lambda: surface_solution(state, plans),
        number=1,
        topic="a marriage or a group",
    )
    term, out = typed_terminal(["kc qc qs qd", "K♣ Q♣"])
    run_quiz(term, [question])
    text = flat(out.getvalue())
    assert "without commas these cards can be read in more than one way" in text
    assert "put a comma between the groups" in text
    assert f"Try again ({MAX_TRIES - 1} tries left, or 'skip')" in text
    assert "Score: 1/1" in text


def test_an_answer_without_commas_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from umtali.games.umtali.learn import surface as surface_module

    readings: list[int] = []

    def counted(cards: int, hand: int, typed: tuple[int, ...] | list[int] = ()) -> Surface:
        readings.append(cards)
        return read_ungrouped(cards, hand, typed)

    monkeypatch.setattr(surface_module, "read_ungrouped", counted)
    term, out = typed_terminal(["kc qc 4d 3d 2d 10h 10s js"])
    run_quiz(term, build_questions()[:1])
    assert "Read as: J♠, 10♠, 10♥, 4♦ 3♦ 2♦, K♣ Q♣" in flat(out.getvalue())
    assert len(readings) == 1


def test_plays_without_commas_with_a_card_not_in_hand_are_asked_again() -> None:
    out = answered("kc qc 4d 3d 2d 10h 10s js as", *BOOK_ANSWERS)
    assert "A♠ is not in your hand" in out
    assert f"Try again ({MAX_TRIES - 1} tries left, or 'skip')" in out
    assert "Score: 12/12" in out


# -- tries, skips and malformed answers ---------------------------------------------------------


@pytest.mark.parametrize(
    ("number", "bad", "message"),
    [
        (1, "hello", "'hello' is not a card"),
        (1, "J♠, j♠", "J♠ is written twice"),
        (2, "maybe", "'maybe' is neither yes nor no"),
        (4, "5x 5h", "'5x' is not a card"),
        (5, "kings", "'kings' is not a card"),
        (7, "forty", "'forty' is not a whole number"),
        (11, "10♠", "'10♠' is neither yes nor no"),
        (12, "J♠, 10♠, 9♠ 7", "'7' is not a card"),
    ],
)
def test_a_malformed_answer_is_explained_and_asked_again(
    number: int, bad: str, message: str
) -> None:
    answers = list(BOOK_ANSWERS)
    answers.insert(number - 1, bad)
    out = answered(*answers)
    assert message in out
    expects = {
        AnswerKind.SURFACE: "Write your plays as groups separated by commas",
        AnswerKind.YES_NO: "Answer yes or no",
        AnswerKind.CARDS: "Write cards separated by spaces or commas",
        AnswerKind.NUMBER: "Answer with a whole number",
    }
    kind = AnswerKind(build_questions()[number - 1].kind)
    assert expects[kind].lower() in out.lower()  # said once, by the reader or the quiz
    assert f"Try again ({MAX_TRIES - 1} tries left, or 'skip')" in out
    assert "Score: 12/12" in out


def test_three_malformed_answers_count_as_wrong() -> None:
    out = answered("x", "y y", "zzz", *BOOK_ANSWERS[1:])
    assert "Try again (1 try left, or 'skip')" in out
    assert f"No answer in the expected form after {MAX_TRIES} tries" in out
    assert "The answer: J♠, 10♠, 10♥, 4♦ 3♦ 2♦, K♣ Q♣" in out
    assert "Score: 11/12" in out
    assert "1. your opening plays (no valid answer)" in missed_section(out)


def test_skip_counts_as_wrong_and_shows_the_answer() -> None:
    answers = list(BOOK_ANSWERS)
    answers[6] = "skip"
    out = answered(*answers)
    assert "Skipped (counted as wrong)." in out
    assert "The answer: 40" in out
    assert "Score: 11/12" in out
    assert "7. scoring a table (skipped) — answer: 40" in missed_section(out)


def test_an_empty_answer_uses_up_no_try() -> None:
    out = answered("", "", "", *BOOK_ANSWERS)
    assert out.count("No answer given.") == 3
    assert "No answer in the expected form" not in out
    assert "Score: 12/12" in out


def test_no_explanation_names_the_face_down_discard() -> None:
    answers = list(BOOK_ANSWERS)
    answers[8] = "yes"  # wrong: the explanation is shown, and again in the summary
    out = answered(*answers)
    hidden = "6♥"  # the discard the opponent laid face down in question 9
    question_9 = out.split("Question 9 of 12")[1].split("Question 10 of 12")[0]
    assert "[face down]" in question_9
    assert "Taking the face-down card is not allowed now" in question_9
    assert hidden not in question_9
    assert hidden not in missed_section(out)


# -- what a new player met ------------------------------------------------------------------


def test_the_score_of_a_table_is_broken_down_in_columns_that_line_up() -> None:
    term, out = typed_terminal(["skip"] * 6 + ["38", "quit"])
    with contextlib.suppress(QuitRequested):
        run_quiz(term)
    why = out.getvalue().split("Question 7 of 12")[1].split("Why:\n")[1].split("  - total")[0]
    rows = why.splitlines()
    assert rows[2] == "  - solo      10♠ (off J♠)                    5"
    assert len(rows) == 6, rows
    assert len({len(row) for row in rows}) == 1, rows
    assert len({row.index(" = ") for row in rows if " = " in row}) == 1, rows


def test_wrong_cards_are_named_in_the_order_typed() -> None:
    off_five = build_questions()[3]  # cards playable off a solo 5♣
    mistakes = off_five.grade("7c 5s 8c").mistakes
    # In the order of a hand, 8♣ would come before 7♣.
    assert mistakes[0].startswith("7♣ cannot be played"), mistakes
    assert mistakes[1].startswith("8♣ cannot be played"), mistakes
    plays = build_questions()[0].grade("J♠, As, 2s, 10♠, 10♥, 4♦ 3♦ 2♦, K♣ Q♣").mistakes
    assert plays[:2] == ("A♠ is not in your hand", "2♠ is not in your hand")


@pytest.mark.parametrize("width", [80, 60])
def test_wrapped_points_are_indented_under_their_text(width: int) -> None:
    answers = ["skip"] * 12
    whole, whole_out = typed_terminal(answers)
    run_quiz(whole)
    narrow, narrow_out = typed_terminal(answers, width=width, wraps=True)
    run_quiz(narrow)
    lines = whole_out.getvalue(), narrow_out.getvalue()
    wrapped = wrapped_bullets(*lines, ("-",), width)
    assert wrapped, "no point is long enough to wrap"
    for first, after in wrapped.items():
        # Under the text: the marker's column and its space, then a word.
        indent = first.index("-") + 2
        assert re.match(f" {{{indent}}}\\S", after), (first, after)
    # The summary's numbered lines wrap under their text too.
    summary = narrow_out.getvalue().split("Questions missed:\n")[1].splitlines()
    numbered = [i for i, line in enumerate(summary) if re.match(r" +\d+\. ", line)]
    assert len({summary[i].index(".") for i in numbered}) == 1  # 9. and 10. alike
    text_at = summary[numbered[0]].index(".") + 2
    for i in numbered:
        after = summary[i + 1]
        assert after.lstrip().startswith("- ") or re.match(f" {{{text_at}}}\\S", after), after


def test_a_quiz_of_one_question_counts_it_in_the_singular() -> None:
    term, out = typed_terminal([])
    with pytest.raises(QuitRequested):
        run_quiz(term, build_questions()[:1])
    assert out.getvalue().startswith("Umtali self-test\n1 question;")
    assert "Stopped after 0 of 1 question: 0 right so far." in out.getvalue()
