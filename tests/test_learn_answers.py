"""Reading typed answers (:mod:`umtali.learn.answers`): the readers the lessons and the
quiz share, so both accept every spelling either ever did, and the tries they allow."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from umtali.games.umtali.learn.lesson_grading import grade, lesson_state
from umtali.games.umtali.learn.notes import lesson_notes
from umtali.games.umtali.learn.quiz import build_questions
from umtali.games.umtali.learn.quiz_grading import grade_yes_no
from umtali.games.umtali.lessons import LESSONS
from umtali.kernel.cards import CardSet, card_name
from umtali.learn.answers import (
    MAX_TRIES,
    AnswerError,
    Attempts,
    Reply,
    Unanswered,
    normalize,
    parse_card_answer,
    parse_choice,
    parse_number,
    parse_numbers,
    parse_yes_no,
    read_cards,
)

# -- cards ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "cards"),
    [
        # as the lesson reads them
        ("Ks 10h Qd", "Ks 10h Qd"),
        ("qd ks th", "Ks 10h Qd"),
        ("K♠, 10♥ and Q♦", "Ks 10h Qd"),
        ("k-♠ 10-♥ q-♦", "Ks 10h Qd"),
        ("QD KS 10H", "Ks 10h Qd"),
        ("Q♦;K♠;T♥", "Ks 10h Qd"),
        # as the quiz reads them
        ("K♠ 10♥", "K♠ 10♥"),
        ("ks th", "K♠ 10♥"),
        ("10h, Ks", "K♠ 10♥"),
        ("Th and KS", "K♠ 10♥"),
        ("k♤ 10♡", "K♠ 10♥"),
        ("K♠ and", "Ks"),
        # separators either one read
        ("Ks & 10h + Qd", "Ks 10h Qd"),
        ("Ks&10h+Qd/2c", "Ks 10h Qd 2c"),
        ("Ks AND 10h", "Ks 10h"),
        ("Ks Ks", "Ks"),
    ],
)
def test_cards_in_any_order_case_and_spelling(text: str, cards: str) -> None:
    assert parse_card_answer(text) == CardSet.parse(cards)


@pytest.mark.parametrize(
    "text", ["none", "None", "nothing", "no cards", "no card", "-", " None. ", "NOTHING!"]
)
def test_no_cards(text: str) -> None:
    assert parse_card_answer(text) == CardSet()


@pytest.mark.parametrize("text", ["", "kings", "11s", "K", "5x", "and"])
def test_malformed_cards(text: str) -> None:
    with pytest.raises(AnswerError):
        parse_card_answer(text)


def test_read_cards_keeps_order_and_repeats() -> None:
    assert [card_name(c) for c in read_cards("J♠ js, 10h and Th")] == ["J♠", "J♠", "10♥", "10♥"]
    assert read_cards("  ,  and ") == []
    with pytest.raises(AnswerError, match="'meld' is not a card"):
        read_cards("meld 4d 3d 2d")


# -- yes or no -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("yes", True),
        ("Y", True),
        (" yes. ", True),
        ("YES", True),
        ("yes .", True),
        ("yes he may", True),
        ("Yes he can!", True),
        ("no", False),
        ("N", False),
        ("n", False),
        ("NO!", False),
        ("no he may not", False),
        ("No  he cannot?", False),
    ],
)
def test_yes_no(text: str, value: bool) -> None:
    assert parse_yes_no(text) is value


@pytest.mark.parametrize("text", ["", "maybe", "perhaps", "yes no", "ja", "1", "yes he must"])
def test_yes_no_malformed(text: str) -> None:
    with pytest.raises(AnswerError, match="answer yes or no"):
        parse_yes_no(text)


# -- one number --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [("40", 40), (" 40 points ", 40), ("7 pts", 7), ("1 point", 1), ("12pts.", 12), ("-3", -3)],
)
def test_number(text: str, value: int) -> None:
    assert parse_number(text) == value


@pytest.mark.parametrize("text", ["", "forty", "4O", "40.5", "40 40", "points"])
def test_number_malformed(text: str) -> None:
    with pytest.raises(AnswerError, match="whole number"):
        parse_number(text)


# -- several numbers ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["31 28", "31, 28", "31 to 28", "31-28", "31 – 28", "31 and 28", "31 vs 28"]
)
def test_numbers(text: str) -> None:
    assert parse_numbers(text, 2) == (31, 28)


def test_one_number_of_several() -> None:
    assert parse_numbers(" 20 ", 1) == (20,)


# -- messages --------------------------------------------------------------------------------

CARDS = "write cards like Ks 10h Q♦, or 'none'"


@pytest.mark.parametrize(
    ("read", "text", "message"),
    [
        (parse_card_answer, "", f"nothing was typed: {CARDS}"),
        (parse_card_answer, "   ", f"nothing was typed: {CARDS}"),
        (parse_card_answer, "and &", f"no card named: {CARDS}"),
        (
            parse_card_answer,
            "5x 5h",
            "'5x' is not a card: the suit must be one of c d h s or ♣ ♦ ♥ ♠",
        ),
        (
            parse_card_answer,
            "kings",
            "'kings' is not a card: the rank must be A, 2-10 (or T), J, Q or K",
        ),
        (parse_card_answer, "K", "'K' is not a card: write a rank then a suit, like Ks, 10h or Q♦"),
        (parse_yes_no, " maybe ", "'maybe' is neither yes nor no: answer yes or no"),
        (parse_yes_no, "", "nothing was typed: answer yes or no"),
        (parse_number, "forty", "'forty' is not a whole number"),
        (parse_number, " ", "nothing was typed: give a whole number, like 12"),
        (lambda t: parse_numbers(t, 2), "31", "give exactly 2 numbers, like 30 25; you gave 1"),
        (
            lambda t: parse_numbers(t, 2),
            "thirty-one",
            "'thirty-one' is not an answer here: give 2 numbers, like 30 25",
        ),
        (
            lambda t: parse_numbers(t, 1),
            "twenty",
            "'twenty' is not an answer here: give a number, like 12",
        ),
        (lambda t: parse_numbers(t, 1), "20 30", "give exactly one number, like 12; you gave 2"),
        (lambda t: parse_numbers(t, 1), "2²", "'2²' is not an answer here: give a number, like 12"),
        (lambda t: parse_numbers(t, 2), "", "nothing was typed: give 2 numbers, like 30 25"),
    ],
)
def test_messages_say_what_was_expected(
    read: Callable[[str], object], text: str, message: str
) -> None:
    with pytest.raises(AnswerError) as caught:
        read(text)
    assert str(caught.value) == message


# -- other helpers and both commands -----------------------------------------------------


def test_normalize() -> None:
    assert normalize("  Skip!  ") == "skip"
    assert normalize("The   Sequence.") == "the sequence"
    assert normalize("") == ""


def test_the_lesson_and_the_quiz_read_the_same_spellings() -> None:
    # The quiz now reads the lesson's phrases and the book's K-♠ ...
    assert grade_yes_no("Yes he may.", True, []).correct
    assert build_questions()[4].grade("k-♥ & k-♦").correct
    # ... and the lesson the quiz's.
    state = lesson_state(LESSONS[0], 3, "start")
    question = next(q for q in lesson_notes()[0].questions if q.kind == "may_take_two")
    assert grade(question, state, " yes. ", lesson=1).correct
    with pytest.raises(AnswerError, match="neither yes nor no"):
        grade(question, state, "perhaps", lesson=1)


def test_choices() -> None:
    assert parse_choice("B", ["a", "b", "c"]) == "b"
    assert parse_choice("group", ["sequence", "group"]) == "group"
    with pytest.raises(AnswerError, match="not one of the choices"):
        parse_choice("d", ["a", "b", "c"])


# -- the tries of one question -------------------------------------------------------------


def test_an_empty_answer_uses_up_no_try() -> None:
    attempts = Attempts(parse_yes_no, "Answer yes or no (y or n).")
    for _ in range(MAX_TRIES + 1):
        reply = attempts.offer("")
        assert reply.result is None
        assert reply.message.startswith("No answer given. Answer yes or no (y or n).")
    assert attempts.offer("y") == Reply(True)


def test_unreadable_answers_count_down_to_giving_up() -> None:
    attempts = Attempts(parse_number, "Answer with a whole number, like 17.")
    first = attempts.offer("forty")
    assert first.result is None
    assert first.message == (
        "I can't read that: 'forty' is not a whole number. Answer with a whole number,"
        " like 17. Try again (2 tries left, or 'skip')."
    )
    assert "(1 try left, or 'skip')" in attempts.offer("lots").message
    last = attempts.offer("many")
    assert last == Reply(
        Unanswered.NO_VALID_ANSWER, "I can't read that: 'many' is not a whole number."
    )


def test_what_an_answer_looks_like_is_said_once() -> None:
    # The reader's message already says "answer yes or no": the hint is not repeated.
    reply = Attempts(parse_yes_no, "Answer yes or no (y or n).").offer("maybe")
    assert reply.message.lower().count("answer yes or no") == 1


@pytest.mark.parametrize("word", ["skip", "S", "pass", "Skip."])
def test_skip_words(word: str) -> None:
    assert Attempts(parse_yes_no, "yes or no").offer(word).result is Unanswered.SKIPPED


# -- the book's hyphen, read the same everywhere -----------------------------------------------


def test_the_books_hyphen_is_read_by_every_reader_of_cards() -> None:
    # The book writes J-♠; a learner who copies it is understood wherever a card is read:
    # card parsing, move notation, the play prompt, the lessons' answers and the quiz's.
    from umtali.games.umtali.learn.surface import parse_surface
    from umtali.games.umtali.notation import format_move, parse_move
    from umtali.kernel.cards import parse_card

    assert card_name(parse_card("J-♠")) == "J♠"
    assert card_name(parse_card("10-h")) == "10♥"
    assert format_move(parse_move("play 10-♦ off J-♦")) == "play 10♦ off J♦"
    hand = LESSONS[0].state_at(1, 1)  # Player 2 has kept the 11th card
    assert str(hand.parse_move("meld K-♠ K-♥ K-♣")) == "meld K♠ K♥ K♣"
    assert parse_card_answer("K-♠ K-♥ K-♣") == CardSet.parse("Ks Kh Kc")
    assert parse_surface("J-♠, 10-♠, 4-♦ 3-♦ 2-♦") == parse_surface("J♠, 10♠, 4♦ 3♦ 2♦")
    quiz = build_questions()
    assert quiz[0].grade("J-♠, 10-♠, 10-♥, 4-♦ 3-♦ 2-♦, K-♣ Q-♣").correct
    assert quiz[3].grade("5-♠ 5-♥ 5-♦ 6-♣ 4-♣").correct


@pytest.mark.parametrize("card", ["J♠-", "-J♠", "J--♠", "1-0♥", "J-♠♠"])
def test_a_hyphen_out_of_place_is_refused_by_every_reader_naming_it(card: str) -> None:
    from umtali.games.umtali.learn.surface import parse_surface
    from umtali.games.umtali.moves import InvalidMoveError
    from umtali.games.umtali.notation import parse_move
    from umtali.kernel.cards import InvalidCardError, parse_card

    with pytest.raises(InvalidCardError, match="a hyphen goes only between the rank and"):
        parse_card(card)
    with pytest.raises(InvalidMoveError, match="hyphen"):
        parse_move(f"play {card}")
    for read in (parse_card_answer, parse_surface):
        with pytest.raises(AnswerError, match="hyphen"):
            read(f"Q♦ {card}")


# -- counts and the learner's own order ---------------------------------------------------------


def test_counts_are_written_in_the_singular_for_one() -> None:
    from umtali.games.umtali.learn.lesson import Tally
    from umtali.games.umtali.learn.quiz import quiz_intro
    from umtali.learn.answers import counted

    assert counted(1, "point") == "1 point"
    assert counted(2, "point") == "2 points"
    assert Tally(asked=1, right=1).line() == "You answered 1 of 1 question correctly."
    assert Tally(asked=2, right=0, skipped=2).line() == (
        "You answered 0 of 2 questions correctly (2 skipped)."
    )
    assert quiz_intro(1)[1].startswith("1 question;")
    assert "(s)" not in quiz_intro(12)[1] + Tally(asked=1).line()


def test_cards_not_in_hand_are_named_in_the_order_typed() -> None:
    question = lesson_notes()[0].questions[0]  # Player 2's opening plays
    state = lesson_state(LESSONS[0], question.turn, question.moment)
    # In the order of a hand 5♠ would come before 2♣; the learner typed 2♣ first.
    with pytest.raises(AnswerError, match=r"^2♣ 5♠ are not in Player 2's hand"):
        grade(question, state, "2c 5s Ks", lesson=1)


def test_parse_card_list_keeps_the_typed_order() -> None:
    from umtali.learn.answers import in_typed_order, parse_card_list

    typed = parse_card_list("2c, K-♠ and 9h 2c")
    assert [card_name(c) for c in typed] == ["2♣", "K♠", "9♥"]
    assert [card_name(c) for c in in_typed_order(CardSet(typed).mask, typed)] == [
        "2♣",
        "K♠",
        "9♥",
    ]
