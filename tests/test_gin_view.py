"""A Gin Rummy player's view names no card he may not know: scanned over whole hands."""

from __future__ import annotations

import json
import random
import re

from umtali.games.gin.state import TAKE, GinHand, GinMove
from umtali.games.gin.view import GinView
from umtali.kernel.cards import card_ascii, cards_of, mask_of, parse_card

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


def test_the_knocks_face_down_discard_is_hidden_from_the_other_player() -> None:
    # Play seeded hands until one ends in a knock; the knocker's discard lies face down.
    rng = random.Random(3)
    for seed in range(200):
        hand = GinHand.from_seed(seed)
        while not hand.is_over():
            moves = list(hand.legal_moves())
            knocks = [m for m in moves if m.kind == "knock"]
            hand.push(knocks[0] if knocks else rng.choice(moves))
        knocker, action = hand.history[-1]
        knock = GinMove.of_action(action)
        if knock.kind == "knock":
            break
    else:
        raise AssertionError("no hand ended in a knock")
    assert knock.card is not None
    own = GinView.of(hand, knocker)
    assert own.pile[-1] == knock.card
    assert own.history[-1] == (knocker, knock)
    other = GinView.of(hand, 1 - knocker)
    assert knock.card not in other.pile
    assert other.pile == hand.pile[:-1]
    assert other.history[-1] == (knocker, GinMove("knock"))
    assert f"knock {card_ascii(knock.card)}" not in str(other.to_dict())
