"""``umtali lesson N``: the real console command with scripted input, and the graders."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from umtali.cards import CardSet
from umtali.cli.answers import AnswerError, parse_card_answer
from umtali.cli.lesson import run_lesson
from umtali.cli.lesson_grading import (
    check_discard,
    check_hand_score,
    check_may_discard,
    check_may_take,
    check_may_take_two,
    check_meld_choice,
    check_overlapped,
    check_plays,
    check_safe_discard,
    check_should,
    check_table_points,
    game_totals,
    grade,
    lesson_state,
    parse_choice,
    reveal,
)
from umtali.cli.lesson_notes import LESSON_NOTES, Question
from umtali.cli.terminal import QuitRequested, Terminal
from umtali.lessons import LESSONS

UMTALI = Path(sys.executable).parent / "umtali"

# Right answers, and Enter between turns, for the whole of each lesson.
RIGHT: dict[int, list[str]] = {
    1: ["Ks Kh Kc 3h 2h Ah", "", "js jd qd 7s 6s 5s", "", "yes", "", "no", "31 28"],
    2: ["Kd Qd", "20", "", "", "5c 4c 3c 10c 10d Qs", "", "", "no", "40 22"],
    3: ["Js Jh Jd Qh Qc", "none", "", "sequence", "", "b", "33 52"],
    4: [
        "none",
        "Ah",
        "",
        "Kc Qc As Ah Ad",
        "",
        "no",
        "",
        "2c",
        "",
        "no",
        "",
        "",
        "no",
        "55 8",
        "159 110",
    ],
}
QUESTIONS = {1: 5, 2: 5, 3: 5, 4: 9}


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
    assert "You answered 5 of 5 question(s) correctly." in out


@pytest.mark.parametrize("number", [2, 3, 4])
def test_every_lesson_runs_to_the_end_with_right_answers(number: int) -> None:
    result = run("lesson", str(number), stdin=script(RIGHT[number]))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Traceback" not in out + result.stderr
    assert out.count("Right:") == QUESTIONS[number], out
    total = QUESTIONS[number]
    assert f"You answered {total} of {total} question(s) correctly." in out


def test_the_marriage_is_shown_doubled_in_the_breakdown() -> None:
    out = run("lesson", "3", stdin=script(RIGHT[3])).stdout
    assert "marriage" in out
    assert "(5 + 5) × 2 = 20" in out
    assert "forfeited by Player 1" in out
    assert "1 + 1 = 2" in out


def test_wrong_and_malformed_answers_get_reasons_and_retries() -> None:
    answers = [
        "Kd Qd 10d",  # wrong: 10♦ goes nowhere (the engine's reason)
        "twenty",  # malformed number
        "5",  # wrong
        "",
        "",
        "banana",  # not cards
        "9h",  # not in Player 1's hand
        "skip",
        "",
        "",
        "maybe",  # not yes or no
        "perhaps",
        "dunno",  # third malformed answer: the answer is shown
        "40-22",
    ]
    result = run("lesson", "2", stdin=script(answers))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Traceback" not in out + result.stderr
    assert "Not quite. The answer: K♦ Q♦." in out
    assert (
        "10♦ cannot be played: nothing on the table accepts it, and only a Jack is played off"
        " nothing" in out
    )
    assert "I can't read that: 'twenty' is not an answer here: give a number" in out
    assert "Not quite. The answer: 20." in out
    assert "marriage K♦ Q♦: (5 + 5) × 2 = 20" in out
    assert "I can't read that: 'banana' is not a card" in out
    assert "9♥ is not in Player 1's hand" in out
    assert "Skipped." in out
    assert "The answer: 5♣ 4♣ 3♣, 10♣, 10♦, Q♠." in out
    assert "answer yes or no. Try again (2 tries left, or 'skip')." in out
    assert "Here is the answer." in out
    assert "the top discard lies face down and cannot be drawn" in out
    assert "Right: 40 to 22." in out
    assert "You answered 1 of 5 question(s) correctly (1 skipped)." in out


def test_a_discard_not_in_hand_is_refused_with_the_engine_reason() -> None:
    answers = ["none", "Qs", "Kh", ""]
    result = run("lesson", "4", stdin=script(answers))
    out = result.stdout
    assert result.returncode == 0, result.stderr
    assert "'discard Q♠' is not allowed now: Q♠ is not in Player 2's hand" in out
    assert "Not quite. The answer: A♥." in out


def test_strategy_question_explains_the_book_answer() -> None:
    answers = [*RIGHT[4][:5], "yes"]
    out = run("lesson", "4", stdin=script(answers)).stdout
    assert "Not quite. The answer: no." in out
    assert "In the game, Player 2 took it anyway." in out


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
    assert "You answered 1 of 1 question(s) correctly." in result.stdout
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


def terminal(lines: list[str]) -> tuple[Terminal, io.StringIO]:
    out = io.StringIO()
    feed: Iterator[str] = iter(lines)

    def read(_prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    return Terminal(out, read, color=False, width=100), out


@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_run_lesson_in_process(number: int) -> None:
    term, out = terminal(RIGHT[number])
    assert run_lesson(term, number) == 0
    assert "Traceback" not in out.getvalue()
    assert f"{QUESTIONS[number]} of {QUESTIONS[number]}" in out.getvalue()


def test_run_lesson_raises_quit_with_the_tally_so_far() -> None:
    term, out = terminal(["none", "skip", "quit"])
    with pytest.raises(QuitRequested):
        run_lesson(term, 4)
    assert "You answered 1 of 2 question(s) correctly (1 skipped)." in out.getvalue()


def test_run_lesson_refuses_a_bad_number() -> None:
    term, _ = terminal([])
    with pytest.raises(ValueError, match="lessons"):
        run_lesson(term, 5)


# -- reading answers (cards, yes or no, numbers: tests/test_cli_answers.py) -------------


def test_choices() -> None:
    assert parse_choice("B", ["a", "b", "c"]) == "b"
    assert parse_choice("group", ["sequence", "group"]) == "group"
    with pytest.raises(AnswerError, match="not one of the choices"):
        parse_choice("d", ["a", "b", "c"])


# -- the graders, against the engine -----------------------------------------------------


def test_plays_is_graded_against_the_meld_plans() -> None:
    state = lesson_state(LESSONS[0], 1, "after_draw")
    right = check_plays(state, parse_card_answer("Ah 2h 3h Kc Kh Ks"))
    assert right.correct
    assert right.answer == "3♥ 2♥ A♥, K♠ K♥ K♣"
    missing = check_plays(state, parse_card_answer("Ks Kh Kc"))
    assert not missing.correct
    assert "Player 2 lays the sequence 3♥ 2♥ A♥" in missing.reasons
    with pytest.raises(AnswerError, match="not in Player 2's hand"):
        check_plays(state, parse_card_answer("Js"))


def test_plays_after_the_draw_includes_proper_additions() -> None:
    state = lesson_state(LESSONS[0], 2, "after_draw")
    assert check_plays(state, parse_card_answer("Js Jd Qd 7s 6s 5s")).correct
    wrong = check_plays(state, parse_card_answer("Js Jd 7s 6s 5s 10h"))
    assert not wrong.correct
    assert "Player 1 plays Q♦ off his own J♦" in wrong.reasons
    assert any(r.startswith("10♥ makes no meld") for r in wrong.reasons)


def test_best_plays_prefers_the_marriage() -> None:
    state = lesson_state(LESSONS[3], 2, "after_draw")
    assert check_plays(state, parse_card_answer("Kc Qc As Ah Ad"), best=True).correct
    groups = check_plays(state, parse_card_answer("Qs Qc Qd As Ah Ad"), best=True)
    assert not groups.correct
    assert "score 18" in groups.reasons[0]
    assert "score 23" in groups.reasons[0]
    # Without "best", either choice of melds is a right answer.
    assert check_plays(state, parse_card_answer("Qs Qc Qd As Ah Ad")).correct


def test_overlapped_jacks_are_refused_with_the_engine_reason() -> None:
    state = lesson_state(LESSONS[2], 1, "after_draw")
    assert check_overlapped(state, CardSet()).correct
    wrong = check_overlapped(state, parse_card_answer("Js Jh Jd"))
    assert not wrong.correct
    assert wrong.answer == "none"
    assert any("Jacks are never overlapped" in r for r in wrong.reasons)
    solo = check_overlapped(state, parse_card_answer("Qh"))
    assert "Player 1 plays Q♥ off his own J♥: a single card, never overlapped." in solo.reasons


def test_discard_questions() -> None:
    state = lesson_state(LESSONS[3], 1, "before_end")
    assert check_discard(state, parse_card_answer("Ah"), "Ah").correct
    assert not check_discard(state, parse_card_answer("Kh"), "Ah").correct
    with pytest.raises(AnswerError, match="not in Player 2's hand"):
        check_discard(state, parse_card_answer("Qs"), "Ah")
    with pytest.raises(AnswerError, match="one card"):
        check_discard(state, parse_card_answer("Ah Kh"), "Ah")


def test_safe_discard_is_checked_by_looking_ahead() -> None:
    state = lesson_state(LESSONS[3], 5, "before_end")
    verdict = check_safe_discard(state, "2s", yes=False)
    assert verdict.correct
    assert verdict.answer == "no"
    assert "Player 1 takes 2♠ and 2♣ from the discard pile" in verdict.reasons[0]
    assert "goes out with the pair 2♠ 2♣" in verdict.reasons[0]
    assert not check_safe_discard(state, "2s", yes=True).correct
    assert check_safe_discard(state, "6d", yes=True).correct


def test_take_and_discard_permissions_come_from_the_legal_moves() -> None:
    take_two = lesson_state(LESSONS[0], 3, "start")
    assert check_may_take_two(take_two, True).correct
    empty_pile = lesson_state(LESSONS[0], 4, "start")
    verdict = check_may_take(empty_pile, False)
    assert verdict.correct
    assert "no face-up card" in verdict.reasons[0]
    face_down = lesson_state(LESSONS[1], 5, "start")
    assert "face down" in check_may_take(face_down, True).reasons[0]
    assert not check_may_take(face_down, True).correct
    last_turn = lesson_state(LESSONS[3], 7, "before_end")
    refused = check_may_discard(last_turn, True)
    assert not refused.correct
    assert "on the last turn a player may discard only to go out" in refused.reasons[0]


def test_meld_choice_keeps_the_pair_to_go_out() -> None:
    state = lesson_state(LESSONS[2], 2, "after_draw")
    question = next(q for q in LESSON_NOTES[2].questions if q.kind == "meld_choice")
    verdict = check_meld_choice(state, question, "sequence")
    assert verdict.correct
    assert verdict.answer == "sequence"
    assert not check_meld_choice(state, question, "group").correct
    assert any("goes out with the pair 3♠ 3♦" in r for r in verdict.reasons)


def test_points_and_scores_come_from_the_engine() -> None:
    state = lesson_state(LESSONS[1], 1, "before_end")
    assert check_table_points(state, 20).correct
    assert not check_table_points(state, 10).correct
    for lesson in LESSONS:
        final = lesson_state(lesson, 0, "end")
        assert check_hand_score(final, lesson.scores).correct
        assert not check_hand_score(final, lesson.scores[::-1]).correct
    assert game_totals(3) == (104, 102)
    assert game_totals(4) == (159, 110)
    assert check_should("no", False).correct
    assert not check_should("no", True).correct


def _all_questions() -> list[tuple[int, Question]]:
    return [(notes.number, q) for notes in LESSON_NOTES for q in notes.questions]


@pytest.mark.parametrize(
    ("number", "question"),
    _all_questions(),
    ids=[f"lesson{n}-turn{q.turn}-{q.kind}" for n, q in _all_questions()],
)
def test_every_question_has_an_answer_the_grader_accepts(number: int, question: Question) -> None:
    lesson = LESSONS[number - 1]
    turn = question.turn
    state = lesson_state(lesson, turn, question.moment)
    rest: list[str] = []
    if turn:
        moves = list(lesson.turns[turn - 1].moves)
        done = {"start": 0, "after_draw": 1, "before_end": len(moves) - 1}.get(
            question.moment, len(moves)
        )
        rest = moves[done:] + [m for t in lesson.turns[turn:] for m in t.moves]
    shown = reveal(question, state, lesson=number, rest=rest)
    answer = question.book if question.kind in ("choice", "forfeit") else shown.answer
    assert grade(question, state, answer, lesson=number, rest=rest).correct, shown


def test_the_notes_fit_the_lessons() -> None:
    for lesson, notes in zip(LESSONS, LESSON_NOTES, strict=True):
        assert notes.number == lesson.number
        assert len(notes.turns) == len(lesson.turns)
        assert len(notes.questions) >= 3
        for question in notes.questions:
            assert 0 <= question.turn <= len(lesson.turns)
            assert (question.turn == 0) == (question.moment == "end")
            if question.options and question.kind != "meld_choice":
                assert question.book in dict(question.options)


# -- tries, and the commentary checked against the engine -----------------------------------


def test_an_empty_answer_does_not_use_up_a_try() -> None:
    answers = ["", "", "", "", *RIGHT[1]]
    result = run("lesson", "1", stdin=script(answers))
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.count("No answer given.") == 4
    assert "Here is the answer." not in out
    assert out.count("Right:") == QUESTIONS[1]


def test_the_commentary_on_the_five_of_hearts_agrees_with_the_engine() -> None:
    # Lesson 1, turn 2: Player 1 leaves the 5♥ on the pile. Had he taken it, the engine
    # would offer him these melds; the commentary must know them.
    state = lesson_state(LESSONS[0], turn=2, moment="start")
    state.push_text("take 5h")
    melds = [str(m).removeprefix("meld ") for m in state.legal_moves if str(m).startswith("meld")]
    assert sorted(melds) == ["5♠ 5♥ 5♣", "7♠ 6♠ 5♠"]
    note = LESSON_NOTES[0].turns[1].before
    assert "fits nothing" not in note
    assert "three fives" in note
    assert "7♠ 6♠ 5♠" in note


def test_the_summary_says_what_each_kind_of_column_takes() -> None:
    from umtali.melds import SOLO_ACCEPTS, meld_accepts

    (point,) = [p for p in LESSON_NOTES[0].summary if "take" in p and "solo" in p]
    # What the engine's tables say, and the words for it.
    marriage, group = CardSet.parse("Kc Qc").mask, CardSet.parse("9s 9h 9c").mask
    sequence, solo = CardSet.parse("5d 4d 3d").mask, CardSet.parse("8h")
    assert meld_accepts(marriage) == 0
    assert CardSet(meld_accepts(group) & ~group) == CardSet.parse("9d")
    assert CardSet(meld_accepts(sequence) & ~sequence) == CardSet.parse("6d 2d")
    assert CardSet(SOLO_ACCEPTS[next(iter(solo))]) - solo == CardSet.parse("9h 7h 8s 8d 8c")
    assert "a marriage nothing" in point
    assert "a group or a pair only its rank" in point
    assert "a sequence only the next card at either end" in point
    assert "a solo card takes its rank or the next card up or down in its suit" in point


def test_the_note_on_jacks_does_not_forget_the_opening_turn() -> None:
    from umtali.deck import stacked_deck
    from umtali.moves import Move
    from umtali.state import HandState

    # R2: the opening turn has no draw, and a Jack goes down in it all the same.
    opening = HandState(
        stacked_deck("Js Kc 9d 7d 5s Qh 2h 8c Ad 4c 6h", "10s 10d 10h 3s 5d 2c 6c 9h Kh 4s"),
        dealer=0,
    )
    opening.push_text("keep")
    assert opening.turn == 1
    assert Move.solo(CardSet.parse("Js").mask.bit_length() - 1) in opening.legal_moves
    (note,) = [n for n in LESSON_NOTES[0].turns[1].after if "A Jack can always" in n]
    assert "once the turn's draw is made" not in note
    assert "opening turn" in note
