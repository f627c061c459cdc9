"""Deck orders: the explicit chance of a hand.

A hand is fully determined by its deck order and the moves played, so a record of both
replays exactly. The deal reads the deck front to back:

* cards 0, 2, …, 18 go to the non-dealer and 1, 3, …, 19 to the dealer (dealt alternately);
* card 20, the 11th card, goes to whoever the dealer chooses (R1), or, when nobody gets
  an 11th card (seed 003), is turned up to start the discard pile: the upcard;
* cards 21.. are the stock, card 21 on top.

>>> deck = shuffled_deck(random.Random(7))
>>> len(deck), sorted(deck) == list(range(52))
(52, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any, Final

from umtali.cards import ALL_CARDS, card_name, cards_of, mask_of, parse_cards

__all__ = [
    "FIRST_STOCK_INDEX",
    "UPCARD_INDEX",
    "InvalidDeckError",
    "check_deck",
    "deal_hands",
    "seeded_deck",
    "shuffle",
    "shuffled_deck",
    "stacked_deck",
]

FIRST_STOCK_INDEX = 21

UPCARD_INDEX: Final = FIRST_STOCK_INDEX - 1
"""The deck position of the 11th card, which is the upcard when nobody is dealt 11."""


class InvalidDeckError(ValueError):
    """A deck order that is not the 52 cards once each."""


def shuffled_deck(rng: random.Random) -> tuple[int, ...]:
    """A uniformly random deck order drawn from ``rng`` (no global randomness)."""
    deck = list(range(52))
    shuffle(deck, rng)
    return tuple(deck)


def shuffle(items: list[Any], rng: random.Random) -> None:
    """Shuffle ``items`` in place exactly as ``rng.shuffle(items)`` does (the same order
    from the same RNG state), only faster for a plain :class:`random.Random`: its
    draws are made inline rather than through a method call per card.

    >>> a, b = list(range(30)), list(range(30))
    >>> random.Random(7).shuffle(a); shuffle(b, random.Random(7)); a == b
    True
    """
    if type(rng) is not random.Random:
        rng.shuffle(items)  # a subclass may draw differently: let it
        return
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        # random.Random._randbelow_with_getrandbits(i + 1), inline.
        k = (i + 1).bit_length()
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]


def sample_to_front(items: list[Any], k: int, rng: random.Random) -> None:
    """Move a uniformly random ``k`` of ``items`` to its front, in random order (the first
    ``k`` steps of a Fisher-Yates shuffle), drawing as :func:`shuffle` does.

    >>> cards = list(range(10)); sample_to_front(cards, 3, random.Random(1))
    >>> sorted(cards) == list(range(10)), len(set(cards[:3]))
    (True, 3)
    """
    n = len(items)
    getrandbits = rng.getrandbits
    for i in range(min(k, n - 1)):
        # a uniform j in i..n-1, as random.Random._randbelow_with_getrandbits(n - i)
        span = n - i
        bits = span.bit_length()
        j = getrandbits(bits)
        while j >= span:
            j = getrandbits(bits)
        j += i
        items[i], items[j] = items[j], items[i]


def seeded_deck(seed: int | str) -> tuple[int, ...]:
    """The deck order of a seed: the same seed gives the same deck on every machine.

    The seed is an int or text; anything else (``None`` would mean the OS's entropy, a
    deal no record could reproduce) is refused.
    """
    if not isinstance(seed, int | str) or isinstance(seed, bool):
        raise InvalidDeckError(f"a deck seed is a whole number or text, not {seed!r}")
    return shuffled_deck(random.Random(seed))


_ALL_IDS: Final = frozenset(range(52))


def check_deck(deck: Sequence[int]) -> tuple[int, ...]:
    """The deck as a tuple, or :class:`InvalidDeckError` saying what is wrong with it."""
    if len(deck) != 52:
        raise InvalidDeckError(f"a deck has 52 cards, this one {len(deck)}")
    # The common case in one step: 52 plain ints, all different, all card ids.
    cards = tuple(deck)
    if set(map(type, cards)) == {int} and set(cards) == _ALL_IDS:
        return cards
    seen = 0
    for i, c in enumerate(deck):
        if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < 52:
            raise InvalidDeckError(f"deck position {i} holds {c!r}, which is no card id")
        if seen >> c & 1:
            raise InvalidDeckError(f"deck position {i} repeats {card_name(c)}")
        seen |= 1 << c
    return tuple(deck)


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
    >>> from umtali.cards import CardSet
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
