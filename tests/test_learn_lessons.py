"""The lessons in process (:mod:`umtali.learn`): the script of events, the notes loaded
from the content files, and every grader against the engine."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

from tests.scripted import LESSON_QUESTIONS, LESSON_RIGHT
from umtali.games.umtali.learn.lesson import (
    Ask,
    Board,
    Narrate,
    Opening,
    Pause,
    Play,
    Scores,
    Step,
    Summary,
    Tally,
    TurnStart,
    steps,
)
from umtali.games.umtali.learn.lesson_grading import (
    ask,
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
    moves_done,
    reveal,
)
from umtali.games.umtali.learn.notes import LessonQuestion, lesson_notes
from umtali.games.umtali.lessons import LESSONS
from umtali.games.umtali.state import HandState
from umtali.kernel.cards import CardSet
from umtali.learn.answers import AnswerError, Attempts, Unanswered, parse_card_answer
from umtali.learn.verdict import Verdict

LESSON_NOTES = lesson_notes()


# -- a learner working through a lesson's script, in process ---------------------------------


@dataclass
class Answered:
    """One question of a lesson as a learner met it: what was said about each try, and the
    verdict (a skip or giving up: the answer revealed, in ``shown``)."""

    prompt: str
    messages: list[str] = field(default_factory=list)
    verdict: Verdict | Unanswered | None = None
    shown: Verdict | None = None


def work_through(number: int, lines: list[str]) -> tuple[list[Answered], Tally, list[Step]]:
    """Walk lesson ``number`` typing ``lines`` (an answer to each question, Enter at each
    pause), as the terminal does, and return the questions met, the tally and the events.
    The walk stops where the lines run out."""
    typed: Iterator[str] = iter(lines)
    answered: list[Answered] = []
    tally = Tally()
    events: list[Step] = []
    for step in steps(number):
        events.append(step)
        if isinstance(step, Pause) and next(typed, None) is None:
            break  # Enter was not pressed: the learner stopped
        if not isinstance(step, Ask):
            continue
        question = step.question
        tally.asked += 1
        record = Answered(question.prompt)
        answered.append(record)
        attempts = Attempts(question.grade, question.expects)
        while record.verdict is None:
            text = next(typed, None)
            if text is None:
                return answered, tally, events
            reply = attempts.offer(text)
            if reply.message:
                record.messages.append(reply.message)
            record.verdict = reply.result
        if isinstance(record.verdict, Unanswered):
            record.shown = question.reveal()
            tally.skipped += record.verdict is Unanswered.SKIPPED
        else:
            tally.right += record.verdict.correct
    return answered, tally, events


@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_every_lesson_runs_to_the_end_with_right_answers(number: int) -> None:
    answered, tally, events = work_through(number, LESSON_RIGHT[number])
    total = LESSON_QUESTIONS[number]
    assert len(answered) == total
    assert all(isinstance(a.verdict, Verdict) and a.verdict.correct for a in answered), answered
    assert tally.line() == f"You answered {total} of {total} questions correctly."
    assert isinstance(events[0], Opening)
    assert isinstance(events[-1], Summary)


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
    answered, tally, _ = work_through(2, answers)
    marriage, points, plays, take, score = answered
    assert isinstance(marriage.verdict, Verdict)
    assert not marriage.verdict.correct
    assert marriage.verdict.answer == "K♦ Q♦"
    assert marriage.verdict.reasons[0] == (
        "10♦ cannot be played: nothing on the table accepts it, and only a Jack is played off"
        " nothing."
    )
    assert any(
        "I can't read that: 'twenty' is not an answer here: give a number" in m
        for m in points.messages
    )
    assert isinstance(points.verdict, Verdict)
    assert (points.verdict.correct, points.verdict.answer) == (False, "20")
    assert points.verdict.reasons == ("marriage  K♦ Q♦   (5 + 5) × 2 = 20",)
    assert "I can't read that: 'banana' is not a card" in plays.messages[0]
    assert "9♥ is not in Player 1's hand" in plays.messages[1]
    assert plays.verdict is Unanswered.SKIPPED
    assert plays.shown is not None
    assert plays.shown.answer == "5♣ 4♣ 3♣, 10♣, 10♦, Q♠"
    assert "answer yes or no. Try again (2 tries left, or 'skip')." in take.messages[0]
    assert take.verdict is Unanswered.NO_VALID_ANSWER
    assert take.shown is not None
    assert any(
        "the top discard lies face down and cannot be drawn" in r for r in take.shown.reasons
    )
    assert isinstance(score.verdict, Verdict)
    assert (score.verdict.correct, score.verdict.answer) == (True, "40 to 22")
    assert tally.line() == "You answered 1 of 5 questions correctly (1 skipped)."


def test_a_discard_not_in_hand_is_refused_with_the_engine_reason() -> None:
    answered, _, _ = work_through(4, ["none", "Qs", "Kh", ""])
    discard = answered[1]
    assert "Player 2 cannot discard Q♠ now: Q♠ is not in Player 2's hand." in discard.messages[0]
    assert isinstance(discard.verdict, Verdict)
    assert (discard.verdict.correct, discard.verdict.answer) == (False, "A♥")


def test_strategy_question_explains_the_book_answer() -> None:
    answered, _, events = work_through(4, [*LESSON_RIGHT[4][:5], "yes"])
    verdict = answered[-1].verdict
    assert isinstance(verdict, Verdict)
    assert (verdict.correct, verdict.answer) == (False, "no")
    asked = [e.question for e in events if isinstance(e, Ask)][-1]
    assert "In the game, Player 2 took it anyway." in asked.why


# -- the script of events --------------------------------------------------------------------


def test_the_script_tells_every_move_in_order() -> None:
    for lesson in LESSONS:
        events = list(steps(lesson.number))
        state = HandState(lesson.deck(), dealer=lesson.dealer)
        moves = [state.push_text(text) for _, text in lesson.moves()]
        assert [e.move for e in events if isinstance(e, Play)] == moves
        starts = [e for e in events if isinstance(e, TurnStart)]
        assert [s.number for s in starts] == list(range(1, len(lesson.turns) + 1))
        assert [s.player for s in starts] == [t.player for t in lesson.turns]
        assert sum(isinstance(e, Pause) for e in events) == len(lesson.turns) - 1
        assert sum(isinstance(e, Narrate) for e in events) == len(lesson.turns)


def test_the_opening_turn_shows_the_deal_and_lesson_one_tells_its_moves() -> None:
    events = list(steps(1))
    assert isinstance(events[1], TurnStart)
    assert events[1].label == "Player 2 (dealer)"
    deal = events[3]
    assert isinstance(deal, Board)
    assert deal.caption == "The deal"
    assert deal.state.hand(0) == CardSet.parse("Js 7s 6s 5s 10h 6h Qd Jd 10c 5c")
    sentences = [e.sentence for e in events if isinstance(e, Play)]
    assert "Player 2 takes 6♥ and 5♥ from the discard pile" in sentences
    assert "Player 2 goes out with the pair 9♠ 9♣" in sentences
    assert "Player 1 plays 10♣ off Player 2's 10♦, and goes out" in sentences


def test_a_board_keeps_the_hand_as_it_was() -> None:
    boards = [e for e in steps(1) if isinstance(e, Board)]
    assert len(boards[0].state.hand(1)) == 11
    assert not boards[0].state.is_over()
    assert boards[-1].state.is_over()
    assert not boards[-1].show_points  # the score follows


def test_points_stay_hidden_while_a_question_asks_for_them() -> None:
    events = list(steps(2))
    index = next(
        i for i, e in enumerate(events) if isinstance(e, Ask) and e.question.kind == "table_points"
    )
    board = events[index - 1]
    assert isinstance(board, Board)
    assert not board.show_points


def test_the_hand_score_is_asked_before_the_breakdown() -> None:
    events = list(steps(4))
    kinds = [e.question.kind if isinstance(e, Ask) else type(e).__name__ for e in events[-4:]]
    assert kinds == ["hand_score", "Scores", "game_score", "Summary"]
    scores = events[-3]
    assert isinstance(scores, Scores)
    assert [side.score for side in scores.sides] == [55, 8]
    assert scores.sides[0].lines[-1].what == "forfeited by Player 2"
    summary = events[-1]
    assert isinstance(summary, Summary)
    assert summary.totals == (159, 110)
    assert summary.next_lesson is None


def test_the_marriage_is_shown_doubled_in_the_breakdown() -> None:
    scores = next(e for e in steps(3) if isinstance(e, Scores))
    lines = [line for side in scores.sides for line in side.lines]
    assert any(line.what == "marriage" and line.total == "(5 + 5) × 2 = 20" for line in lines)
    assert any(line.what == "forfeited by Player 1" and line.total == "1 + 1 = 2" for line in lines)


def test_a_lesson_that_does_not_exist_is_refused() -> None:
    for number in (0, 5):
        with pytest.raises(ValueError, match="there are 4 lessons"):
            steps(number)


def test_a_question_is_put_on_a_copy_of_the_hand() -> None:
    spec = LESSON_NOTES[0].questions[0]
    state = lesson_state(LESSONS[0], spec.turn, spec.moment)
    question = ask(spec, state, lesson=1)
    state.push_text("meld K♠ K♥ K♣")
    assert question.grade("Ks Kh Kc 3h 2h Ah").correct
    assert question.answer_prompt == "Cards (like Ks 10h Q♦), or 'none' (or skip): "
    assert question.expects == "Expected: Cards (like Ks 10h Q♦), or 'none'."


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
    # One Jack named as overlapped is no meld at all: the same reason, and no crash.
    one = check_overlapped(state, parse_card_answer("Js"))
    assert not one.correct
    assert "Jacks are never overlapped: each Jack is played solo" in one.reasons


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


def _all_questions() -> list[tuple[int, LessonQuestion]]:
    return [(notes.number, q) for notes in LESSON_NOTES for q in notes.questions]


@pytest.mark.parametrize(
    ("number", "question"),
    _all_questions(),
    ids=[f"lesson{n}-turn{q.turn}-{q.kind}" for n, q in _all_questions()],
)
def test_every_question_has_an_answer_the_grader_accepts(
    number: int, question: LessonQuestion
) -> None:
    lesson = LESSONS[number - 1]
    turn = question.turn
    state = lesson_state(lesson, turn, question.moment)
    rest = lesson.rest(turn, moves_done(lesson, turn, question.moment)) if turn else ()
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
    from umtali.games.umtali.melds import SOLO_ACCEPTS, meld_accepts

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
    from umtali.games.umtali.deal import stacked_deck
    from umtali.games.umtali.moves import Move
    from umtali.games.umtali.state import HandState

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


def test_a_half_right_answer_is_told_what_was_missing_and_what_was_wrong() -> None:
    from umtali.learn.answers import parse_card_list

    state = lesson_state(LESSONS[0], turn=2, moment="after_draw")  # Player 1 drew 4♣
    some = check_plays(state, parse_card_list("7s 6s Jd Qd Js"))
    assert some.mistakes == ("You named 7♠ 6♠ J♦ Q♦ J♠; missing: 5♠.",)
    extra = check_plays(state, parse_card_list("10h 7s 6s 5s Js Jd Qd"))
    assert extra.mistakes == ("You named 10♥ 7♠ 6♠ 5♠ J♠ J♦ Q♦; wrong: 10♥.",)
    both = check_plays(state, parse_card_list("Qd Jd 10h"))
    assert both.mistakes == ("You named Q♦ J♦ 10♥; missing: 7♠ 6♠ 5♠ J♠; wrong: 10♥.",)
    nothing = check_plays(state, parse_card_list("none"))
    assert nothing.mistakes == ("You named no card; missing: 7♠ 6♠ 5♠ J♦ Q♦ J♠.",)
    question = LESSON_NOTES[2].questions[1]  # which cards go down overlapped (none)
    jacks = grade(
        question, lesson_state(LESSONS[2], question.turn, question.moment), "Jh Js", lesson=3
    )
    assert jacks.mistakes == ("You named J♥ J♠; wrong: J♥ J♠.",)
