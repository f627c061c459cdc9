"""The self-test in process (:mod:`umtali.games.umtali.learn.quiz`): the twelve questions set up from
their specs, every answer asked of the engine, the graders, reading plays, and the
content file checked as it loads."""

from __future__ import annotations

import pytest

from tests.scripted import BOOK_ANSWERS, OTHER_SPELLINGS, QUIZ_WRONG
from umtali.games.umtali.deal import stacked_deck
from umtali.games.umtali.learn.question import Question
from umtali.games.umtali.learn.quiz import accepted_off, build_questions, try_moves, try_solo_off
from umtali.games.umtali.learn.quiz_grading import (
    grade_card_set,
    grade_number,
    grade_surface,
    grade_yes_no,
)
from umtali.games.umtali.learn.surface import Surface, parse_surface
from umtali.games.umtali.melds import ColumnKind, hand_melds, meld_plans
from umtali.games.umtali.state import Column, HandState
from umtali.kernel.cards import CardSet, card_ascii, card_name, parse_card
from umtali.learn.answers import AnswerError

QUESTIONS = build_questions()


def deal(dealer_hand: str, other_hand: str, *, dealer: int) -> HandState:
    """A hand dealt from a stacked deck, the dealer keeping the 11th card."""
    state = HandState(stacked_deck(dealer_hand, other_hand), dealer=dealer)
    state.push_text("keep")
    return state


# -- reading a playing surface (cards, yes or no, numbers: tests/test_learn_answers.py) -----


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
    assert wrong.mistakes == ("The answer is no, not yes",)
    assert wrong.answer == "no"
    assert wrong.reasons == ("the engine refuses it",)
    with pytest.raises(AnswerError):
        grade_yes_no("perhaps", False, [])


def test_grade_number() -> None:
    assert grade_number("40", 40, []).correct
    assert grade_number("41", 40, []).mistakes == ("41 is too high",)
    assert grade_number("30", 40, []).mistakes == ("30 is too low",)
    with pytest.raises(AnswerError):
        grade_number("lots", 40, [])


def test_grade_card_set_off_a_solo_five_of_clubs() -> None:
    question = QUESTIONS[3]
    for text in ("5♠ 5♥ 5♦ 6♣ 4♣", "4c 6C 5d 5h 5s", "5H,5S,5D,4C,6C"):
        assert question.grade(text).correct, text
    wrong = question.grade("5♠ 5♥ 5♦ 6♣ 7♣ 5♣")
    assert not wrong.correct
    assert wrong.answer == "5♠ 5♥ 5♦ 6♣ 4♣"
    assert any("5♣ is already on the table" in m for m in wrong.mistakes)
    assert any(
        m.endswith("a solo card takes only a card of its rank or the next card of its suit.")
        and "7♣" in m
        for m in wrong.mistakes
    )
    assert "You missed 4♣: you could play 4♣ off 5♣" in wrong.mistakes
    with pytest.raises(AnswerError):
        question.grade("five of spades")


def test_grade_card_set_off_a_pair_of_kings() -> None:
    question = QUESTIONS[4]
    assert question.grade("kd kh").correct
    wrong = question.grade("K♥ K♦ Q♣")
    assert wrong.mistakes == ("Q♣ cannot be played: a pair takes only cards of its own rank.",)
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
    assert verdict.mistakes == ("You missed 4♣: you could play 4♣ off 5♣",)


def test_grade_surface_question_1() -> None:
    question = QUESTIONS[0]
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
    assert "You missed K♣ Q♣ (an overlapped column)" in missed.mistakes
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
    assert "You missed J♠ (a solo card)" in nothing.mistakes
    with pytest.raises(AnswerError):
        question.grade("J♠ 10♠, J♠")


def test_grade_surface_question_12() -> None:
    question = QUESTIONS[11]
    assert question.grade("J♠, 10♠, 9♠, 10♦, 7♥ 7♦ 7♣").correct
    run = question.grade("J♠ 10♠ 9♠, 10♦, 7♥ 7♦ 7♣")
    assert any("Jacks are never overlapped" in m for m in run.mistakes)
    short = question.grade("J♠, 10♠, 9♠, 10♦, 7♥ 7♦")
    assert "7♥ belongs in the overlapped column 7♥ 7♦ 7♣" in short.mistakes
    assert "You missed 7♣ (in 7♥ 7♦ 7♣)" in short.mistakes
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
    assert any("This is right too" in why for why in mixed.reasons)


# -- the questions ask the engine ----------------------------------------------------------------


@pytest.mark.parametrize("number", range(1, 13))
def test_the_engine_agrees_with_the_books_answer(number: int) -> None:
    question = build_questions()[number - 1]
    assert question.number == number
    assert question.grade(BOOK_ANSWERS[number - 1]).correct


@pytest.mark.parametrize("question", build_questions(), ids=lambda q: f"q{q.number}")
def test_the_shown_solution_is_graded_right(question: Question) -> None:
    text = question.reveal().answer
    if question.kind == "surface":
        text = text.split(" (left in hand")[0]
    assert question.grade(text).correct


@pytest.mark.parametrize("question", build_questions(), ids=lambda q: f"q{q.number}")
def test_the_cards_offered_to_click_hold_the_answer_and_give_nothing_away(
    question: Question,
) -> None:
    # A question answered in cards offers its hand, or (no hand shown) the cards near the
    # column: every card of the right answer, and others besides; the rest offer none.
    if question.kind not in ("surface", "cards"):
        assert question.picks is None
        return
    assert question.picks is not None
    if question.position is not None and question.position.hand is not None:
        assert question.picks == question.position.hand
    right = CardSet.parse(question.reveal().answer.split(" (left in hand")[0].replace(",", " "))
    assert not right - question.picks
    assert question.picks - right


def clicked(groups: list[list[str]], *, next_group: bool = False) -> str:
    """The answer the quiz page builds from cards clicked (common.js ``answerForm``): each
    card in ASCII notation, the cards of a group separated by spaces, the groups by
    ", " (``next_group``: Next group pressed once more before Answer)."""
    return ", ".join(" ".join(group) for group in groups) + (", " if next_group else "")


@pytest.mark.parametrize(
    "question", [q for q in QUESTIONS if q.picks is not None], ids=lambda q: f"q{q.number}"
)
@pytest.mark.parametrize("next_group", [False, True])
def test_the_answer_built_by_clicks_is_read_as_typed(question: Question, next_group: bool) -> None:
    # The book's right answer, clicked card by card in the order it is written, group by
    # group (a cards question is one group), is graded right.
    right = question.reveal().answer.split(" (left in hand")[0]
    groups = [[card_ascii(parse_card(c)) for c in group.split()] for group in right.split(",")]
    if question.kind == "cards":
        groups = [[card for group in groups for card in group]]
    assert question.grade(clicked(groups, next_group=next_group)).correct
    # Clicked in the opposite order too: any order of the cards of a group is read.
    backwards = clicked([group[::-1] for group in groups[::-1]], next_group=next_group)
    assert question.grade(backwards).correct


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
    question = QUESTIONS[0]
    with pytest.raises(AnswerError, match=r"^A♠ is not in your hand$"):
        question.grade("kc qc 4d 3d 2d 10h 10s js as")
    # Written with commas, a card from elsewhere is a mistake to explain, as before.
    assert "A♠ is not in your hand" in question.grade("J♠, 10♠, 10♥, 4♦ 3♦ 2♦, K♣ Q♣, A♠").mistakes


def test_the_whole_pack_without_commas_is_read_in_a_few_steps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Reading tried every subset of the cards once: 24 cards took half a minute, 52 never
    # ended. It now asks the engine for the melds a few times per meld laid.
    from umtali.games.umtali.learn import surface as surface_module

    asked: list[int] = []

    def counted(hand: int) -> list[int]:
        asked.append(hand)
        return hand_melds(hand)

    monkeypatch.setattr(surface_module, "hand_melds", counted)
    with pytest.raises(AnswerError, match="more than one way"):
        parse_surface(" ".join(card_name(c) for c in range(52)))
    assert len(asked) < 50
    asked.clear()
    # Eight melds that share no card: one reading, found without trying their orders.
    one_way = "As 2s 3s 5h 6h 7h 9s 9h 9c Kd Qd Kc Qc 4d 5d 6d Ac 2c 3c 10s 10h 10d"
    assert len(parse_surface(one_way).columns) == 8
    assert len(asked) < 10


# -- every answer, graded in process ---------------------------------------------------------


def test_any_spelling_case_and_order_is_accepted() -> None:
    for question, text in zip(QUESTIONS, OTHER_SPELLINGS, strict=True):
        assert question.grade(text).correct, (question.number, text)


@pytest.mark.parametrize("number", sorted(QUIZ_WRONG))
def test_a_wrong_answer_gets_the_answer_and_the_engines_reasons(number: int) -> None:
    text, reasons = QUIZ_WRONG[number]
    verdict = QUESTIONS[number - 1].grade(text)
    assert not verdict.correct
    said = " ".join((*verdict.mistakes, *verdict.reasons))
    for reason in reasons:
        assert reason in said, reason


def test_the_right_answers_come_with_what_is_left_in_hand() -> None:
    assert QUESTIONS[0].reveal().answer == "J♠, 10♠, 10♥, 4♦ 3♦ 2♦, K♣ Q♣ (left in hand: 6♦ 9♣ 2♣)"
    assert QUESTIONS[3].reveal().answer == "5♠ 5♥ 5♦ 6♣ 4♣"
    assert QUESTIONS[6].reveal().answer == "40"
    assert QUESTIONS[11].reveal().answer == "J♠, 10♠, 9♠, 10♦, 7♥ 7♦ 7♣ (left in hand: K♥ 8♥ A♦ 6♣)"


def test_no_explanation_names_the_face_down_discard() -> None:
    question = QUESTIONS[8]
    hidden = "6♥"  # the discard the opponent laid face down in question 9
    assert question.position is not None
    assert question.position.pile is not None
    assert question.position.pile[-1] is None  # shown face down
    verdict = question.grade("yes")
    said = " ".join((verdict.answer, *verdict.mistakes, *verdict.reasons))
    assert "Taking the face-down card is not allowed now" in said
    assert hidden not in said


# -- the positions, as plain data --------------------------------------------------------------


def test_the_positions_hold_the_books_hands_and_tables() -> None:
    first, fourth, seventh = QUESTIONS[0].position, QUESTIONS[3].position, QUESTIONS[6].position
    assert first is not None
    assert fourth is not None
    assert seventh is not None
    assert first.note == "The table is empty: you play first, with no draw."
    assert first.hand == CardSet.parse("10h Js 10s 6d 4d 3d 2d Kc Qc 9c 2c")
    assert [(s.caption, [str(c) for c in s.columns]) for s in fourth.sides] == [
        ("Opponent's side", ["solo 5♣"])
    ]
    assert fourth.hand is None
    # The table to score is the one the moves laid (tests/test_selftest.py checks it).
    scored = CardSet()
    for column in seventh.sides[0].columns:
        scored |= column.cards
    assert scored == CardSet.parse("Jh Js 10s 9s 4c 3c 2c Ac Kc Qc")


def test_the_questions_ask_as_the_content_says() -> None:
    kinds = [q.kind for q in QUESTIONS]
    assert kinds.count("surface") == 2
    assert kinds.count("cards") == 2
    assert kinds.count("number") == 1
    assert all(q.answer_prompt and q.expects and q.topic for q in QUESTIONS)
    assert [q.format_first for q in QUESTIONS] == [k == "surface" for k in kinds]
