"""A Gin Rummy player's view names no card he may not know: scanned over whole hands."""

from __future__ import annotations

import json
import random
import re

from umtali.cards import card_ascii, cards_of, mask_of, parse_card
from umtali.gin.state import TAKE, GinHand
from umtali.gin.view import GinView

CARD_TEXT = re.compile(r"\b(?:10|[2-9AJQK])[cdhs]\b")


def named_cards(data: object) -> set[int]:
    return {parse_card(text) for text in CARD_TEXT.findall(json.dumps(data))}


def test_no_view_names_a_hidden_card() -> None:
    rng = random.Random(8)
    for seed in range(60):
        hand = GinHand.from_seed(seed, dealer=seed % 2)
        while True:
            stock = mask_of(hand.deck[hand.stock_pos :])
            for seat in (0, 1):
                view = GinView.of(hand, seat)
                other = hand.hand(1 - seat)
                hidden = stock | other & ~view.opponent_known
                if hand.is_over():
                    hidden = stock  # both hands are shown at the end, never the stock
                assert not named_cards(view.to_dict()) & set(cards_of(hidden)), (seed, seat)
            if hand.is_over():
                break
            hand.push(rng.choice(hand.legal_actions()))


def test_a_card_taken_from_the_pile_is_known_until_it_is_discarded() -> None:
    hand = GinHand.from_seed(21, dealer=0)
    upcard = hand.top_discard()
    assert upcard is not None
    hand.push(TAKE)  # player 1 takes the upcard
    assert GinView.of(hand, 0).opponent_known == 1 << upcard
    assert card_ascii(upcard) in GinView.of(hand, 0).to_dict()["opponent_known"]
    discard = next(m for m in hand.legal_moves() if m.kind == "discard")
    hand.push(discard)
    assert GinView.of(hand, 0).opponent_known == 1 << upcard  # he threw another card
    assert GinView.of(hand, 1).opponent_known == 0
