"""``umtali quiz``: the book's twelve self-test questions, graded by the engine.

The command is driven as a real process through its console script, with piped answers;
the grading functions are also tested directly, on the quiz's own positions.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from umtali.cards import CardSet, card_name, parse_card
from umtali.cli.answers import AnswerError
from umtali.cli.quiz import (
    MAX_TRIES,
    AnswerKind,
    Question,
    Surface,
    grade_card_set,
    grade_number,
    grade_surface,
    grade_yes_no,
    parse_surface,
    read_ungrouped,
    run_quiz,
    surface_solution,
)
from umtali.cli.quiz_questions import (
    accepted_off,
    build_questions,
    question_1,
    question_4,
    question_5,
    question_12,
    try_moves,
    try_solo_off,
)
from umtali.cli.terminal import QuitRequested, Terminal
from umtali.deck import stacked_deck
from umtali.melds import ColumnKind, hand_melds, meld_plans
from umtali.state import Column, HandState

UMTALI = Path(sys.executable).parent / "umtali"

# The book's answers to its self-test, typed the way the book prints them.
BOOK_ANSWERS = (
    "J♠, 10♠, 10♥, 4♦ 3♦ 2♦, K♣ Q♣",
    "no",
    "yes",
    "5♠ 5♥ 5♦ 6♣ 4♣",
    "K♥ K♦",
    "no",
    "40",
    "no",
    "no",
    "yes",
    "no",
    "J♠, 10♠, 9♠, 10♦, 7♥ 7♦ 7♣",
)

# The same answers in other spellings, cases and orders.
OTHER_SPELLINGS = (
    "10h, js, TS, 2d 3d 4D, qc kc",
    "N",
    "Y",
    "4c, 6c, 5d, 5h, 5s",
    "kd and kh",
    "No.",
    "40 points",
    "n",
    "NO",
    "yes",
    "no",
    "7c 7d 7h; 10d, 9s, Ts, J♠",
)


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


def deal(dealer_hand: str, other_hand: str, *, dealer: int) -> HandState:
    """A hand dealt from a stacked deck, the dealer keeping the 11th card."""
    state = HandState(stacked_deck(dealer_hand, other_hand), dealer=dealer)
    state.push_text("keep")
    return state


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


# -- the real command --------------------------------------------------------------------------


def test_the_books_answers_score_12_out_of_12() -> None:
    out = clean(quiz(*BOOK_ANSWERS))
    assert "Score: 12/12" in out
    assert out.count("Right.") == 12
    assert "Wrong." not in out
    assert "Questions missed" not in out
    for n in range(1, 13):
        assert f"Question {n} of 12" in out


def test_any_spelling_case_and_order_is_accepted() -> None:
    out = clean(quiz(*OTHER_SPELLINGS))
    assert "Score: 12/12" in out, out


def test_the_positions_are_drawn() -> None:
    out = clean(quiz(*BOOK_ANSWERS))
    assert "Your hand: J♠ 10♠ 10♥ 6♦ 4♦ 3♦ 2♦ K♣ Q♣ 9♣ 2♣" in out
    assert "solo: 5♣" in out
    assert "solo: J♥ J♠ 10♠ (off J♠) 9♠ (off 10♠)" in out
    assert "Discard pile, bottom to top: K♦ K♣ [face down]" in out
    assert "Your hand: J♠ 10♠ 9♠ K♥ 8♥ 7♥ 10♦ 7♦ A♦ 7♣ 6♣" in out


WRONG = {
    1: (
        "J♠, 10♠ 10♥, 4♦ 3♦ 2♦",
        [
            "10♠ must be played solo, not overlapped",
            "10♥ must be played solo, not overlapped",
            "a pair can be laid only to go out",
            "you missed K♣ Q♣",
            "every playable card must be played before the turn ends",
        ],
    ),
    2: (
        "yes",
        [
            "8♦ cannot be played: a sequence takes only the next card of its suit at either end",
            "accepts: 10♥ 6♥",
        ],
    ),
    4: (
        "5♠ 5♥ 5♦ 6♣ 7♣",
        [
            "a solo card takes only a card of its rank or the next card of its suit",
            "you missed 4♣",
        ],
    ),
    6: ("yes", ["nothing was discarded"]),
    7: ("30", ["30 is too low", "marriage K♣ Q♣: 20"]),
    9: ("yes", ["the top discard lies face down and cannot be drawn"]),
    10: ("no", ["a group takes only cards of its own rank", "accepts: 3♦"]),
    11: ("yes", ["The Rule says it must be overlapped in the meld 10♠ 10♥ 10♦"]),
    12: (
        "J♠ 10♠ 9♠, 10♦, 7♥ 7♦ 7♣",
        ["Jacks are never overlapped", "J♠ must be played solo", "9♠ must be played solo"],
    ),
}


def test_wrong_answers_give_the_score_the_answer_and_the_engines_reason() -> None:
    answers = [WRONG[n][0] if n in WRONG else BOOK_ANSWERS[n - 1] for n in range(1, 13)]
    out = clean(quiz(*answers))
    assert f"Score: {12 - len(WRONG)}/12" in out
    assert out.count("Wrong.") == len(WRONG)
    summary = missed_section(out)
    numbers = [int(n) for n in re.findall(r"(?:^| )(\d+)\. ", summary)]
    assert numbers == sorted(WRONG)
    for n, (_, reasons) in WRONG.items():
        for reason in reasons:
            assert reason in summary, (n, reason)
    # The right answers are shown with the reasons.
    assert "The answer: J♠, 10♠, 10♥, 4♦ 3♦ 2♦, K♣ Q♣ (left in hand: 6♦ 9♣ 2♣)" in out
    assert "The answer: 5♠ 5♥ 5♦ 6♣ 4♣" in out
    assert "The answer: 40" in out
    assert "The answer: J♠, 10♠, 9♠, 10♦, 7♥ 7♦ 7♣ (left in hand: K♥ 8♥ A♦ 6♣)" in out


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
    out = clean(quiz(*answers))
    assert message in out
    expects = {
        AnswerKind.SURFACE: "Write your plays as groups separated by commas",
        AnswerKind.YES_NO: "Answer yes or no",
        AnswerKind.CARDS: "Write cards separated by spaces or commas",
        AnswerKind.NUMBER: "Answer with a whole number",
    }
    kind = build_questions()[number - 1].kind
    assert expects[kind].lower() in out.lower()  # said once, by the reader or the quiz
    assert f"Try again ({MAX_TRIES - 1} tries left, or 'skip')" in out
    assert "Score: 12/12" in out


def test_three_malformed_answers_count_as_wrong() -> None:
    answers = ["x", "y y", "zzz", *BOOK_ANSWERS[1:]]
    out = clean(quiz(*answers))
    assert "Try again (1 try left, or 'skip')" in out
    assert f"No answer in the expected form after {MAX_TRIES} tries" in out
    assert "The answer: J♠, 10♠, 10♥, 4♦ 3♦ 2♦, K♣ Q♣" in out
    assert "Score: 11/12" in out
    assert "1. your opening plays (no valid answer)" in missed_section(out)


def test_skip_counts_as_wrong_and_shows_the_answer() -> None:
    answers = list(BOOK_ANSWERS)
    answers[6] = "skip"
    out = clean(quiz(*answers))
    assert "Skipped (counted as wrong)." in out
    assert "The answer: 40" in out
    assert "Score: 11/12" in out
    assert "7. scoring a table (skipped) — answer: 40" in missed_section(out)


def test_an_empty_answer_uses_up_no_try() -> None:
    answers = ["", "", "", *BOOK_ANSWERS]
    out = clean(quiz(*answers))
    assert out.count("No answer given.") == 3
    assert "No answer in the expected form" not in out
    assert "Score: 12/12" in out


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


# -- reading a playing surface (cards, yes or no, numbers: tests/test_cli_answers.py) -------


def test_parse_surface() -> None:
    surface = parse_surface("J♠, 10s , th, 4d 3d 2d, kc qc,")
    assert surface.solos == CardSet.parse("Js 10s 10h").mask
    assert set(surface.columns) == {
        CardSet.parse("4d 3d 2d").mask,
        CardSet.parse("Kc Qc").mask,
    }
    assert parse_surface("none") == Surface((), 0)
    for text in ("", ",", "J♠, J♠", "J♠ Js", "4d 3d 2x", "meld 4d 3d 2d"):
        with pytest.raises(AnswerError):
            parse_surface(text)


# -- grading -------------------------------------------------------------------------------------


def test_grade_yes_no() -> None:
    right = grade_yes_no("No", False, ["the engine refuses it"])
    assert right.correct
    wrong = grade_yes_no("yes", False, ["the engine refuses it"])
    assert not wrong.correct
    assert wrong.mistakes == ("the answer is no, not yes",)
    assert wrong.answer.text == "no"
    assert wrong.answer.why == ("the engine refuses it",)
    with pytest.raises(AnswerError):
        grade_yes_no("perhaps", False, [])


def test_grade_number() -> None:
    assert grade_number("40", 40, []).correct
    assert grade_number("41", 40, []).mistakes == ("41 is too high",)
    assert grade_number("30", 40, []).mistakes == ("30 is too low",)
    with pytest.raises(AnswerError):
        grade_number("lots", 40, [])


def test_grade_card_set_off_a_solo_five_of_clubs() -> None:
    question = question_4()
    for text in ("5♠ 5♥ 5♦ 6♣ 4♣", "4c 6C 5d 5h 5s", "5H,5S,5D,4C,6C"):
        assert question.grade(text).correct, text
    wrong = question.grade("5♠ 5♥ 5♦ 6♣ 7♣ 5♣")
    assert not wrong.correct
    assert wrong.answer.text == "5♠ 5♥ 5♦ 6♣ 4♣"
    assert any("5♣ is already on the table" in m for m in wrong.mistakes)
    assert any(
        m.endswith("a solo card takes only a card of its rank or the next card of its suit (R4)")
        and "7♣" in m
        for m in wrong.mistakes
    )
    assert "you missed 4♣: the engine allows 'play 4♣ off 5♣'" in wrong.mistakes
    with pytest.raises(AnswerError):
        question.grade("five of spades")


def test_grade_card_set_off_a_pair_of_kings() -> None:
    question = question_5()
    assert question.grade("kd kh").correct
    wrong = question.grade("K♥ K♦ Q♣")
    assert wrong.mistakes == ("Q♣ cannot be played: a pair takes only cards of its own rank (R4)",)
    assert not question.grade("K♥").correct


def test_grade_card_set_explains_with_the_given_check() -> None:
    five = parse_card("5c")
    verdict = grade_card_set(
        "6c",
        expected=CardSet.parse("6c 4c"),
        target=five,
        on_table=CardSet.parse("5c"),
        check=lambda card: None if card_name(card) in ("6♣", "4♣") else "refused",
    )
    assert not verdict.correct
    assert verdict.mistakes == ("you missed 4♣: the engine allows 'play 4♣ off 5♣'",)


def test_grade_surface_question_1() -> None:
    question = question_1()
    for text in (
        "J♠, 10♠, 10♥, 4♦ 3♦ 2♦, K♣ Q♣",
        "K♣ Q♣, 2♦ 3♦ 4♦, 10♥, 10♠, J♠",
        "qc kc, jS, tS, 10h, 3d 2d 4d",
    ):
        assert question.grade(text).correct, text

    paired = question.grade("J♠, 10♠ 10♥, 4♦ 3♦ 2♦, K♣ Q♣")
    assert not paired.correct
    assert "10♠ must be played solo, not overlapped" in paired.mistakes
    assert any("a pair can be laid only to go out" in m for m in paired.mistakes)

    missed = question.grade("J♠, 10♠, 10♥, 4♦ 3♦ 2♦")
    assert "you missed K♣ Q♣ (an overlapped column)" in missed.mistakes
    assert any(
        "every playable card must be played before the turn ends" in m for m in missed.mistakes
    )

    solo_king = question.grade("J♠, 10♠, 10♥, 4♦ 3♦ 2♦, K♣, Q♣")
    assert any(
        m.startswith("K♣ must be overlapped in K♣ Q♣") and "The Rule" in m
        for m in solo_king.mistakes
    )

    too_much = question.grade("J♠, 10♠, 10♥, 6♦ 4♦ 3♦ 2♦, K♣ Q♣, 9♣, A♠")
    assert "A♠ is not in your hand" in too_much.mistakes
    assert any(m.startswith("6♦ cannot be played") for m in too_much.mistakes)
    assert any(
        "a sequence is three or more consecutive cards of one suit" in m for m in too_much.mistakes
    )
    assert any(m.startswith("9♣ cannot be played") for m in too_much.mistakes)

    nothing = question.grade("none")
    assert not nothing.correct
    assert "you missed J♠ (a solo card)" in nothing.mistakes
    with pytest.raises(AnswerError):
        question.grade("J♠ 10♠, J♠")


def test_grade_surface_question_12() -> None:
    question = question_12()
    assert question.grade("J♠, 10♠, 9♠, 10♦, 7♥ 7♦ 7♣").correct
    run = question.grade("J♠ 10♠ 9♠, 10♦, 7♥ 7♦ 7♣")
    assert any("Jacks are never overlapped" in m for m in run.mistakes)
    short = question.grade("J♠, 10♠, 9♠, 10♦, 7♥ 7♦")
    assert "7♥ belongs in the overlapped column 7♥ 7♦ 7♣" in short.mistakes
    assert "you missed 7♣ (in 7♥ 7♦ 7♣)" in short.mistakes
    eight = question.grade("J♠, 10♠, 9♠, 10♦, 7♥ 7♦ 7♣, 8♥")
    assert any(m.startswith("8♥ cannot be played") for m in eight.mistakes)


def test_grade_surface_uses_every_plan_the_engine_allows() -> None:
    # K♣ Q♣ Q♠ Q♦: the marriage or the group of Queens, the player's choice (R4).
    state = deal("Kc Qc Qs Qd 9h 7h 5s 3s 2d 6c 4c", "As 4s Ah 2h 3d 5d 7d 8c 9c 10c", dealer=0)
    plans = meld_plans(state.hands[0], state.open_mask)
    assert len(plans) == 2
    assert grade_surface("K♣ Q♣", state, plans).correct
    assert grade_surface("Q♠ Q♦ Q♣", state, plans).correct
    mixed = grade_surface("K♣ Q♣, Q♠ Q♦", state, plans)
    assert not mixed.correct
    assert any("also allows" in why for why in mixed.answer.why)


# -- the questions ask the engine ----------------------------------------------------------------


@pytest.mark.parametrize("number", range(1, 13))
def test_the_engine_agrees_with_the_books_answer(number: int) -> None:
    question = build_questions()[number - 1]
    assert question.number == number
    assert question.grade(BOOK_ANSWERS[number - 1]).correct


@pytest.mark.parametrize("question", build_questions(), ids=lambda q: f"q{q.number}")
def test_the_shown_solution_is_graded_right(question: Question) -> None:
    text = question.solution.text
    if question.kind is AnswerKind.SURFACE:
        text = text.split(" (left in hand")[0]
    assert question.grade(text).correct


def test_acceptance_sets_agree_with_move_legality() -> None:
    # What the quiz calls the answer (SOLO_ACCEPTS / meld_accepts) is exactly the set of
    # cards the move generator lets a player play off the card.
    columns = [
        Column(ColumnKind.SOLO, CardSet.parse("5c")),
        Column(ColumnKind.PAIR, CardSet.parse("Ks Kc")),
        Column(ColumnKind.GROUP, CardSet.parse("3s 3h 3c")),
    ]
    for column in columns:
        tables: tuple[tuple[Column, ...], tuple[Column, ...]] = ((), (column,))
        accepted = accepted_off(column, column.cards)
        target = column.cards.mask.bit_length() - 1
        legal = CardSet(
            c
            for c in range(52)
            if c not in column.cards and try_solo_off(tables, 0, c, target) is None
        )
        assert legal == accepted, column


def test_try_moves_reports_the_engines_refusal() -> None:
    state = deal("Js Kc 9d 7d 5s Qh 2h 8c Ad 4c 6h", "10s 10d 10h 3s 5d 2c 6c 9h Kh 4s", dealer=1)
    assert try_moves(state, ["play J♠"]) == (True, "")
    legal, why = try_moves(state, ["play J♠", "discard K♣", "draw", "play 10♠ off J♠"])
    assert not legal
    assert "The Rule" in why
    # The position itself is untouched.
    assert state.turn == 1


# -- the session, in process ---------------------------------------------------------------


def _reader(lines: list[str]) -> Iterator[str]:
    yield from lines


def _terminal(lines: list[str]) -> tuple[Terminal, io.StringIO]:
    out = io.StringIO()
    feed = _reader(lines)

    def read(_prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return Terminal(out, read, color=False, width=200), out


def test_run_quiz_in_process() -> None:
    term, out = _terminal(list(BOOK_ANSWERS))
    assert run_quiz(term) == 0
    assert "Score: 12/12" in flat(out.getvalue())


def test_run_quiz_stops_on_end_of_input_after_a_summary() -> None:
    term, out = _terminal([BOOK_ANSWERS[0]])
    with pytest.raises(QuitRequested):
        run_quiz(term, build_questions()[:2])
    text = flat(out.getvalue())
    assert "Question 1 of 2" in text
    assert "Stopped after 1 of 2 questions: 1 right so far." in text


# -- answers without commas, and what an explanation may show ----------------------------------


def test_plays_written_without_commas_are_read_as_melds_and_graded() -> None:
    answers = list(BOOK_ANSWERS)
    answers[0] = "kc qc 4d 3d 2d 10h 10s js"
    answers[11] = "js 10s 9s 10d 7h 7d 7c"
    out = clean(quiz(*answers))
    assert "Score: 12/12" in out
    assert "Read as: J♠, 10♠, 10♥, 4♦ 3♦ 2♦, K♣ Q♣" in out
    assert "Read as: J♠, 10♠, 9♠, 10♦, 7♥ 7♦ 7♣" in out


def test_the_format_of_plays_is_explained_before_the_first_answer() -> None:
    out = clean(quiz(*BOOK_ANSWERS))
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
        1,
        "a marriage or a group",
        "Which plays?",
        (),
        AnswerKind.SURFACE,
        lambda text: grade_surface(text, state, plans),
        surface_solution(state, plans),
    )
    term, out = _terminal(["kc qc qs qd", "K♣ Q♣"])
    run_quiz(term, [question])
    text = flat(out.getvalue())
    assert "without commas these cards can be read in more than one way" in text
    assert "put a comma between the groups" in text
    assert f"Try again ({MAX_TRIES - 1} tries left, or 'skip')" in text
    assert "Score: 1/1" in text


def test_an_answer_without_commas_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from umtali.cli import quiz as quiz_module

    readings: list[int] = []

    def counted(cards: int, hand: int) -> Surface:
        readings.append(cards)
        return read_ungrouped(cards, hand)

    monkeypatch.setattr(quiz_module, "read_ungrouped", counted)
    term, out = _terminal(["kc qc 4d 3d 2d 10h 10s js"])
    run_quiz(term, [question_1()])
    assert "Read as: J♠, 10♠, 10♥, 4♦ 3♦ 2♦, K♣ Q♣" in flat(out.getvalue())
    assert len(readings) == 1


def test_plays_without_commas_with_a_card_not_in_hand_are_asked_again() -> None:
    answers = ["kc qc 4d 3d 2d 10h 10s js as", *BOOK_ANSWERS]
    out = clean(quiz(*answers))
    assert "A♠ is not in your hand" in out
    assert f"Try again ({MAX_TRIES - 1} tries left, or 'skip')" in out
    assert "Score: 12/12" in out


def test_plays_without_commas_are_read_as_the_melds_the_engine_would_lay() -> None:
    assert parse_surface("kc qc 4d 3d 2d 10h 10s js") == parse_surface(
        "J♠, 10♠, 10♥, 4♦ 3♦ 2♦, K♣ Q♣"
    )
    assert parse_surface("Js 10s 9s") == Surface((), CardSet.parse("Js 10s 9s").mask)
    # Six in a row go down whole: neither three of them may be laid while the next is
    # in hand (R4), so there is one reading, not two.
    assert parse_surface("6c 5c 4c 3c 2c ac") == Surface(
        (CardSet.parse("6c 5c 4c 3c 2c Ac").mask,), 0
    )
    # K♣ with three Queens: a marriage, or a group of Queens. Which? Commas must say.
    for text in ("kc qc qs qd", "5s 5h 5c 4c 3c"):
        with pytest.raises(AnswerError, match="more than one way"):
            parse_surface(text)


def test_plays_without_commas_name_only_cards_of_the_hand() -> None:
    question = question_1()
    with pytest.raises(AnswerError, match=r"^A♠ is not in your hand$"):
        question.grade("kc qc 4d 3d 2d 10h 10s js as")
    # Written with commas, a card from elsewhere is a mistake to explain, as before.
    assert "A♠ is not in your hand" in question.grade("J♠, 10♠, 10♥, 4♦ 3♦ 2♦, K♣ Q♣, A♠").mistakes


def test_the_whole_pack_without_commas_is_read_in_a_few_steps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Reading tried every subset of the cards once: 24 cards took half a minute, 52 never
    # ended. It now asks the engine for the melds a few times per meld laid.
    from umtali.cli import quiz as quiz_module

    asked: list[int] = []

    def counted(hand: int) -> list[int]:
        asked.append(hand)
        return hand_melds(hand)

    monkeypatch.setattr(quiz_module, "hand_melds", counted)
    with pytest.raises(AnswerError, match="more than one way"):
        parse_surface(" ".join(card_name(c) for c in range(52)))
    assert len(asked) < 50
    asked.clear()
    # Eight melds that share no card: one reading, found without trying their orders.
    one_way = "As 2s 3s 5h 6h 7h 9s 9h 9c Kd Qd Kc Qc 4d 5d 6d Ac 2c 3c 10s 10h 10d"
    assert len(parse_surface(one_way).columns) == 8
    assert len(asked) < 10


def test_no_explanation_names_the_face_down_discard() -> None:
    answers = list(BOOK_ANSWERS)
    answers[8] = "yes"  # wrong: the explanation is shown, and again in the summary
    out = clean(quiz(*answers))
    hidden = "6♥"  # the discard the opponent laid face down in question 9
    question_9 = out.split("Question 9 of 12")[1].split("Question 10 of 12")[0]
    assert "[face down]" in question_9
    assert "taking the face-down card is not allowed now" in question_9
    assert hidden not in question_9
    assert hidden not in missed_section(out)
