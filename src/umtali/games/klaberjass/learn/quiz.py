"""A short quiz on Klaberjass's rules (layer 5): the questions' words are package data
(``quiz.toml``), every answer is the engine's: card points and the orders of the cards
(:mod:`~umtali.games.klaberjass.terms`), the maker's rule
(:func:`~umtali.games.klaberjass.state.maker_rule`), and the sequences, the exchange and
the legal cards of a real hand (the deal of the first "how to play" lesson).

>>> quiz = build_quiz()
>>> len(quiz.questions), quiz.questions[0].grade("20").correct
(8, True)
>>> quiz.questions[6].grade("125 0").mistakes
('the maker scores 0 and the other player 125, not 125 and 0',)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

from umtali.games.klaberjass.learn.howto import in_hand_order, scripts
from umtali.games.klaberjass.moves import KlaberjassMove
from umtali.games.klaberjass.state import KlaberjassHand, maker_rule
from umtali.games.klaberjass.terms import HEARTS, card_points, strength, suit_mask
from umtali.kernel.cards import CardSet, card_name, cards_of, mask_of, parse_card, suit_of
from umtali.learn.answers import (
    parse_card_answer,
    parse_number,
    parse_numbers,
    parse_yes_no,
)
from umtali.learn.content import Table, load
from umtali.learn.quizzing import Quiz, TypedQuestion
from umtali.learn.verdict import Verdict

__all__ = ["build_quiz"]

SOURCE = "umtali.games.klaberjass.learn:quiz.toml"

_CARDS = "write cards like J♥ 10s, or 'none'"


# -- grading -------------------------------------------------------------------------------


def _number(text: str, value: int, why: tuple[str, ...]) -> Verdict:
    given = parse_number(text)
    if given == value:
        return Verdict(True, str(value), why)
    mistake = f"{given} is {'too high' if given > value else 'too low'}"
    return Verdict(False, str(value), why, (mistake,))


def _yes_no(text: str, truth: bool, why: tuple[str, ...]) -> Verdict:
    word = "yes" if truth else "no"
    if parse_yes_no(text) == truth:
        return Verdict(True, word, why)
    return Verdict(False, word, why, (f"the answer is {word}",))


def _cards(text: str, right: CardSet, why: tuple[str, ...]) -> Verdict:
    given = parse_card_answer(text)
    answer = " ".join(card_name(c) for c in cards_of(right.mask)) or "none"
    if given == right:
        return Verdict(True, answer, why)
    mistakes = [f"the {card_name(c)} may not be played" for c in cards_of(given.mask & ~right.mask)]
    mistakes += [f"you missed the {card_name(c)}" for c in cards_of(right.mask & ~given.mask)]
    return Verdict(False, answer, why, tuple(mistakes))


def _higher(
    text: str, cards: tuple[int, int], power: Sequence[int], why: tuple[str, ...]
) -> Verdict:
    higher = max(cards, key=lambda card: power[card])
    given = parse_card_answer(text)
    answer = card_name(higher)
    if given == CardSet([higher]):
        return Verdict(True, answer, why)
    if given.mask.bit_count() != 1 or given.mask & ~mask_of(cards):
        return Verdict(
            False, answer, why, (f"name one card: {' or '.join(card_name(c) for c in cards)}",)
        )
    return Verdict(False, answer, why, (f"the {answer} is the higher",))


def _pair(text: str, scores: tuple[int, int], why: tuple[str, ...]) -> Verdict:
    given = parse_numbers(text, 2)
    answer = f"{scores[0]} {scores[1]}"
    if given == scores:
        return Verdict(True, answer, why)
    told = f"the maker scores {scores[0]} and the other player {scores[1]}, not {given[0]} and {given[1]}"
    return Verdict(False, answer, why, (told,))


# -- the positions, on the engine ---------------------------------------------------------------


def _lesson_hand(moves: int) -> KlaberjassHand:
    """The first lesson's hand after its first ``moves`` moves."""
    scripted = scripts()[0]
    hand = scripted.hand()
    for step in scripted.steps[:moves]:
        hand.push(step.move)
    return hand


def _trump_lead() -> KlaberjassHand:
    """The first lesson's hand when a trump is led to a player who holds trumps both
    above and below it: the heading rule leaves him only the higher."""
    scripted = scripts()[0]
    hand = scripted.hand()
    for step in scripted.steps:
        if hand.phase == "play" and len(hand.trick) == 1 and suit_of(hand.trick[0]) == hand.trump:
            trumps = hand.hands[hand.player] & suit_mask(hand.trump)
            legal = mask_of(m.card for m in hand.legal_moves())
            if legal != trumps:
                return hand
        hand.push(step.move)
    raise AssertionError("the first lesson has no such trump lead")  # pragma: no cover


# -- the questions --------------------------------------------------------------------------


def _yes_or_no(
    text: str, truth: bool, why: tuple[str, ...]
) -> tuple[str, Callable[[str], Verdict], Callable[[], Verdict], str, str]:
    """A question answered yes or no, ``truth`` being the answer."""
    return (
        text,
        partial(_yes_no, truth=truth, why=why),
        lambda: Verdict(False, "yes" if truth else "no", why),
        "Yes or no: ",
        "answer yes or no",
    )


def _build(table: Table) -> tuple[str, Callable[[str], Verdict], Callable[[], Verdict], str, str]:
    """One question: its text, grader, revealed answer, answer prompt and expected form."""
    ask = table.text("ask")
    text = table.text("text")
    why = (table.text("why"),)
    grade: Callable[[str], Verdict]
    if ask == "jack_of_trump":
        value = card_points(parse_card("Jh"), trump=HEARTS)
        grade = partial(_number, value=value, why=why)
        return (
            text,
            grade,
            lambda: Verdict(False, str(value), why),
            "Points: ",
            "a whole number, like 12",
        )
    if ask in ("book_ranking", "classic_ranking"):
        pair = (
            (parse_card("Ah"), parse_card("9h"))
            if ask == "book_ranking"
            else (parse_card("10s"), parse_card("Ks"))
        )
        power = strength("book" if ask == "book_ranking" else "classic", HEARTS)
        grade = partial(_higher, cards=pair, power=power, why=why)
        answer = max(pair, key=lambda card: power[card])
        return (
            text,
            grade,
            lambda: Verdict(False, card_name(answer), why),
            "The higher: ",
            "one card, like 9h",
        )
    if ask == "heading":
        hand = _trump_lead()
        right = CardSet(m.card for m in hand.legal_moves())
        held = " ".join(card_name(c) for c in in_hand_order(hand.hands[hand.player]))
        text = text.format(led=card_name(hand.trick[0]), hand=held)
        grade = partial(_cards, right=right, why=why)
        shown = " ".join(card_name(c) for c in right)
        return text, grade, lambda: Verdict(False, shown, why), "Cards: ", _CARDS
    if ask == "sequences":
        started = _lesson_hand(3)  # the bidding and the exchange done
        return _yes_or_no(text, started.sequence_points()[1] > 0, why)
    if ask == "exchange_named":
        hand = _lesson_hand(0)
        for move in ("pass", "pass", "name ♠"):
            hand.push(KlaberjassMove.parse(move))
        return _yes_or_no(
            text, KlaberjassMove.parse("exchange").action in hand.legal_actions(), why
        )
    if ask == "maker_fails":
        _, scores, _ = maker_rule((55, 70), maker=0)
        grade = partial(_pair, scores=scores, why=why)
        return (
            text,
            grade,
            lambda: Verdict(False, f"{scores[0]} {scores[1]}", why),
            "Scores: ",
            "two numbers, the maker's first, like 30 25",
        )
    if ask == "maker_makes":
        _, scores, _ = maker_rule((80, 62), maker=0)
        grade = partial(_number, value=scores[1], why=why)
        return (
            text,
            grade,
            lambda: Verdict(False, str(scores[1]), why),
            "Points: ",
            "a whole number, like 12",
        )
    raise table.error("ask", f"no question is called {ask!r}")


def build_quiz() -> Quiz:
    """The quiz, every answer asked of the engine now."""
    content = load(SOURCE)
    content.only({"title", "intro", "questions"})
    questions = []
    for number, table in enumerate(content.tables("questions"), start=1):
        table.only({"ask", "topic", "text", "why"})
        text, grade, reveal, prompt, expects = _build(table)
        questions.append(
            TypedQuestion(
                number=number,
                topic=table.text("topic"),
                prompt=text,
                answer_prompt=prompt,
                expects=expects,
                grade=grade,
                reveal=reveal,
                why=table.text("why"),
            )
        )
    total = len(questions)
    intro = content.text("intro").format(questions=f"{total} questions")
    return Quiz(content.text("title"), intro, tuple(questions))
