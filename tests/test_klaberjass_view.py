"""A Klaberjass player's view names no card he may not know (ruling K): scanned over
hundreds of random hands at every move, and the moments when the bottom card, the
sequence cards and bella become known."""

from __future__ import annotations

import json
import random
import re

import pytest

from umtali.games.klaberjass.match import KlaberjassMatch
from umtali.games.klaberjass.moves import EXCHANGE, PLAY, KlaberjassMove
from umtali.games.klaberjass.rules import CLASSIC, KlaberjassRules
from umtali.games.klaberjass.state import KlaberjassHand
from umtali.games.klaberjass.terms import DECK
from umtali.games.klaberjass.view import KlaberjassView, sequence_cards
from umtali.kernel.cards import KING, QUEEN, card_ascii, cards_of, make_card, parse_card
from umtali.kernel.deck import seeded_deck

CARD_TEXT = re.compile(r"\b(?:10|[2-9AJQK])[cdhs]\b")
SCHMEISS_RULES = KlaberjassRules(name="schmeiss", schmeiss=True)


def named_cards(data: object) -> set[int]:
    return {parse_card(text) for text in CARD_TEXT.findall(json.dumps(data))}


def knowable(hand: KlaberjassHand, seat: int) -> int:
    """Every card ``seat`` may know now: his own (held or played), every card played,
    the turned-up card (dealt face up), the 7 given for it, the bottom once shown, and
    the scorer's sequence cards (to the scorer at once, to the other after trick one)."""
    known = hand.hands[seat] | hand.held(seat) | 1 << hand.turned
    for _, action in hand.history:
        move = KlaberjassMove.of_action(action)
        if move.kind == PLAY:
            known |= 1 << move.card
        if move.kind == EXCHANGE:
            known |= 1 << make_card(7, hand.trump)
    if hand.bottom_shown():
        known |= 1 << hand.bottom
    scores = hand.sequence_points()
    if scores != (0, 0):
        scorer = 0 if scores[0] else 1
        if scorer == seat or sum(hand.tricks_won) >= 1:
            known |= sequence_cards(hand.held(scorer))
    return known


def test_no_view_names_a_card_its_seat_may_not_know() -> None:
    rng = random.Random(11)
    states = 0
    for seed in range(300):
        rules = (KlaberjassRules(), CLASSIC, SCHMEISS_RULES)[seed % 3]
        match = KlaberjassMatch(rules, first_dealer=seed % 2)
        hand = match.new_hand(seeded_deck(seed, DECK))
        while True:
            for seat in (0, 1):
                view = KlaberjassView.of(match, seat)
                named = named_cards(view.to_dict())
                hidden = named - set(cards_of(knowable(hand, seat)))
                assert not hidden, (seed, seat, hand.phase, [card_ascii(c) for c in hidden])
                assert named_cards(str(view.to_dict())) == named
                assert view.hand == hand.hands[seat]
                assert view.legal == (tuple(hand.legal_moves()) if hand.to_move() == seat else ())
                states += 1
            if hand.is_over():
                break
            hand.push(rng.choice(hand.legal_actions()))
    assert states > 10_000


def test_the_view_names_its_own_hand_and_every_card_played() -> None:
    rng = random.Random(2)
    match = KlaberjassMatch(first_dealer=0)
    hand = match.new_hand(seeded_deck(5, DECK))
    while hand.phase != "play":
        hand.push(rng.choice(hand.legal_actions()))
    hand.push(hand.legal_actions()[0])  # the elder (seat 1) leads
    view = KlaberjassView.of(match, 0)
    data = view.to_dict()
    assert set(data["hand"]) == {card_ascii(c) for c in cards_of(hand.hands[0])}
    assert data["trick"] == [card_ascii(hand.trick[0])]
    assert data["played"] == data["trick"]
    assert view.other_cards == 8
    assert view.hand.bit_count() == 9


def play_to_exchange(seed: int) -> tuple[KlaberjassMatch, KlaberjassHand] | None:
    """A hand whose first bidder takes the turned-up suit and where a player holds its 7
    (so there is an exchange to settle), or ``None``."""
    match = KlaberjassMatch(first_dealer=0)
    hand = match.new_hand(seeded_deck(seed, DECK))
    hand.push_text("take")
    return (match, hand) if hand.phase == "exchange" else None


def test_the_bottom_card_is_hidden_until_the_exchange_is_settled() -> None:
    found = next(f for seed in range(200) if (f := play_to_exchange(seed)) is not None)
    match, hand = found
    bottom = card_ascii(hand.bottom)
    for seat in (0, 1):
        view = KlaberjassView.of(match, seat)
        assert view.bottom is None
        assert view.turned == hand.turned
        assert bottom not in CARD_TEXT.findall(str(view.to_dict()))
    holder = hand.to_move()
    assert holder is not None
    hand.push_text("exchange")
    seven = make_card(7, hand.trump)
    for seat in (0, 1):
        view = KlaberjassView.of(match, seat)
        assert view.bottom == hand.bottom
        assert view.to_dict()["bottom"] == bottom
        assert view.turned is None
        assert view.exchanged
        assert view.exchanger == holder
        assert view.given_seven == seven
        assert view.to_dict()["given_seven"] == card_ascii(seven)
    assert hand.turned in cards_of(KlaberjassView.of(match, holder).hand)


def test_the_bottom_is_shown_when_play_begins_without_an_exchange() -> None:
    match = KlaberjassMatch(first_dealer=0)
    hand = match.new_hand(seeded_deck(9, DECK))
    hand.push_text("pass")
    hand.push_text("pass")
    assert KlaberjassView.of(match, 0).bottom is None
    hand.push(hand.legal_actions()[0])  # the elder names a suit: no exchange
    assert hand.phase == "play"
    view = KlaberjassView.of(match, 1)
    assert view.bottom == hand.bottom
    assert view.turned is None
    assert not view.exchanged


def hand_with_a_scorer(min_seed: int = 0) -> tuple[KlaberjassMatch, KlaberjassHand, int]:
    """A hand just begun whose sequences score for one player, and that player."""
    for seed in range(min_seed, 2000):
        match = KlaberjassMatch(first_dealer=seed % 2)
        hand = match.new_hand(seeded_deck(seed, DECK))
        hand.push_text("take")
        if hand.phase == "exchange":
            hand.push_text("keep")
        scores = hand.sequence_points()
        if scores != (0, 0):
            return match, hand, 0 if scores[0] else 1
    raise AssertionError("no hand with a scoring sequence")


def test_the_scorers_sequence_cards_are_shown_to_the_other_after_trick_one() -> None:
    match, hand, scorer = hand_with_a_scorer()
    cards = sequence_cards(hand.held(scorer))
    assert cards
    other = 1 - scorer
    own_view, other_view = KlaberjassView.of(match, scorer), KlaberjassView.of(match, other)
    assert own_view.sequence_points == other_view.sequence_points == hand.sequence_points()
    assert own_view.sequence_cards == cards
    assert other_view.sequence_cards == 0
    rng = random.Random(4)
    hand.push(rng.choice(hand.legal_actions()))
    assert KlaberjassView.of(match, other).sequence_cards == 0  # the trick is under way
    hand.push(rng.choice(hand.legal_actions()))
    assert sum(hand.tricks_won) == 1
    assert KlaberjassView.of(match, other).sequence_cards == cards
    shown = set(KlaberjassView.of(match, other).to_dict()["sequence_cards"])
    assert shown == {card_ascii(card) for card in cards_of(cards)}


def test_a_losing_sequence_is_never_shown() -> None:
    for seed in range(5000):
        match = KlaberjassMatch(first_dealer=seed % 2)
        hand = match.new_hand(seeded_deck(seed, DECK))
        hand.push_text("take")
        if hand.phase == "exchange":
            hand.push_text("keep")
        held = [sequence_cards(hand.held(p)) for p in (0, 1)]
        scores = hand.sequence_points()
        if scores != (0, 0) and held[0] and held[1]:
            break
    else:
        raise AssertionError("no hand where both hold a sequence")
    loser = 1 if scores[0] else 0
    rng = random.Random(0)
    while not hand.is_over():
        hand.push(rng.choice(hand.legal_actions()))
        seen = KlaberjassView.of(match, 1 - loser)
        unplayed = held[loser] & ~seen.played
        assert not seen.sequence_cards & held[loser] & ~held[1 - loser]
        assert not named_cards(seen.to_dict()) & set(cards_of(unplayed))


def test_bella_is_hidden_from_the_other_until_the_second_card_is_played() -> None:
    for seed in range(2000):
        match = KlaberjassMatch(first_dealer=0)
        hand = match.new_hand(seeded_deck(seed, DECK))
        hand.push_text("take")
        if hand.phase == "exchange":
            hand.push_text("exchange")
        if hand.bella() != (0, 0):
            break
    else:
        raise AssertionError("no hand with bella")
    owner = 0 if hand.bella()[0] else 1
    pair = {make_card(KING, hand.trump), make_card(QUEEN, hand.trump)}
    rng = random.Random(1)
    while not hand.is_over():
        still_held = pair & set(cards_of(hand.hands[owner]))
        assert KlaberjassView.of(match, owner).bella[owner] == 20
        assert KlaberjassView.of(match, 1 - owner).bella[owner] == (0 if still_held else 20)
        hand.push(rng.choice(hand.legal_actions()))
    assert KlaberjassView.of(match, 1 - owner).bella[owner] == 20


def test_a_view_of_a_match_before_its_first_deal_is_refused() -> None:
    with pytest.raises(ValueError, match="no hand"):
        KlaberjassView.of(KlaberjassMatch(), 0)
