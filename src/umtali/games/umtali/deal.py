"""How Umtali deals from a deck order: ten cards each, dealt alternately, the 11th card to
whoever the dealer chooses (R1) or turned up as the upcard (seed 003), and the stock.

* cards 0, 2, ..., 18 go to the non-dealer and 1, 3, ..., 19 to the dealer;
* card 20, the 11th card, goes to whoever the dealer chooses, or, when nobody gets an
  11th card, is turned up to start the discard pile: the upcard;
* cards 21.. are the stock, card 21 on top.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from umtali.kernel.cards import (
    ALL_CARDS,
    card_name,  # noqa: F401 - the doctests name cards with it
    cards_of,
    mask_of,
    parse_cards,
)
from umtali.kernel.deck import InvalidDeckError, check_deck

__all__ = [
    "FIRST_STOCK_INDEX",
    "UPCARD_INDEX",
    "deal_hands",
    "stacked_deck",
]


FIRST_STOCK_INDEX = 21


UPCARD_INDEX: Final = FIRST_STOCK_INDEX - 1
"""The deck position of the 11th card, which is the upcard when nobody is dealt 11."""


def deal_hands(deck: Sequence[int], dealer: int, eleventh: int) -> tuple[int, int]:
    """The two hands (masks, by player) dealt from ``deck``; ``eleventh`` gets 11 cards,
    or nobody when it is -1 (the 11th card is then the upcard, ``deck[UPCARD_INDEX]``).

    >>> deck = tuple(range(52))
    >>> [len(cards_of(h)) for h in deal_hands(deck, 0, 1)], deal_hands(deck, 0, -1)[1] & 1 << 20
    ([10, 11], 0)
    """
    hands = [0, 0]
    for i in range(UPCARD_INDEX):
        to = dealer if i % 2 else 1 - dealer
        hands[to] |= 1 << deck[i]
    if eleventh >= 0:
        hands[eleventh] |= 1 << deck[UPCARD_INDEX]
    return hands[0], hands[1]


def stacked_deck(
    dealer_hand: Iterable[int] | str,
    other_hand: Iterable[int] | str,
    stock: Iterable[int] | str = (),
    *,
    dealer_gets_eleven: bool = True,
    upcard: int | str | None = None,
) -> tuple[int, ...]:
    """A deck that deals the given hands, with ``stock`` on top of the stock in order.

    The player receiving 11 cards (the dealer unless ``dealer_gets_eleven`` is false) must
    be given 11, the other 10. With an ``upcard`` (a deal where nobody gets 11, seed
    003), both hands hold 10 and the upcard lies at the 11th card's place. Cards not named
    fill the bottom of the stock in id order.

    >>> deck = stacked_deck("Ks 9s Kh 7h 5h 3h 2h Ah Kc 9c 10d",
    ...                     "Js 7s 6s 5s 10h 6h 10c 5c Qd Jd", "4c 4h")
    >>> from umtali.kernel.cards import CardSet
    >>> hands = deal_hands(deck, dealer=1, eleventh=1)
    >>> CardSet(hands[1]).sorted_for_display()
    ['K♠', '9♠', 'K♥', '7♥', '5♥', '3♥', '2♥', 'A♥', '10♦', 'K♣', '9♣']
    >>> [card_name(c) for c in deck[21:23]]
    ['4♣', '4♥']
    >>> deck = stacked_deck("Ks 9s Kh 7h 5h 3h 2h Ah Kc 9c", "Js 7s 6s 5s 10h 6h 10c 5c Qd Jd",
    ...                     "4c", upcard="10d")
    >>> card_name(deck[UPCARD_INDEX]), card_name(deck[FIRST_STOCK_INDEX])
    ('10♦', '4♣')
    """

    def read(cards: Iterable[int] | str) -> list[int]:
        # Keep the caller's order: for the stock it is the draw order.
        return parse_cards(cards) if isinstance(cards, str) else list(cards)

    big, small = read(dealer_hand), read(other_hand)
    if not dealer_gets_eleven:
        big, small = small, big
    top = read(stock)
    if upcard is not None:
        turned = read(upcard) if isinstance(upcard, str) else [upcard]
        if len(big) != 10 or len(small) != 10 or len(turned) != 1:
            raise InvalidDeckError(
                f"with an upcard the hands hold 10 cards each and one card is turned up,"
                f" not {len(big)}, {len(small)} and {len(turned)}"
            )
        big = [*big, turned[0]]
    elif len(big) != 11 or len(small) != 10:
        raise InvalidDeckError(
            f"the hands must hold 11 and 10 cards, not {len(big)} and {len(small)}"
        )
    used = mask_of(big) | mask_of(small) | mask_of(top)
    if used.bit_count() != len(big) + len(small) + len(top):
        raise InvalidDeckError("a card is named twice among the hands and the stock")
    rest = cards_of(ALL_CARDS & ~used)
    dealer_cards = big if dealer_gets_eleven else small
    other_cards = small if dealer_gets_eleven else big
    deck: list[int] = []
    for i in range(10):
        deck.append(other_cards[i])
        deck.append(dealer_cards[i])
    deck.append(big[10])
    return check_deck(deck + top + rest)
