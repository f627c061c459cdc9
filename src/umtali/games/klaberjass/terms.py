"""Klaberjass's cards (ruling K): the 32-card deck, the card points, the orders in which
cards take tricks, and the sequences a hand holds. Cards are the kernel's ids (the 7 to the
ace of each suit); a set of cards is a mask.

>>> from umtali.kernel.cards import parse_cards, mask_of, card_name
>>> bin(DECK).count("1")
32
>>> [card_points(c, trump=HEARTS) for c in parse_cards("Jh 9h Ah Js 9s")]
[20, 14, 11, 2, 0]
>>> sum(card_points(c, trump=SPADES) for c in cards_of(DECK))
152
>>> sequences(mask_of(parse_cards("7h 8h 9h Jh Qh Kh As Ks Qs Js")))  # (value, top rank, suit)
[(50, 1, 3), (20, 13, 2), (20, 9, 2)]
"""

from __future__ import annotations

from typing import Final

from umtali.kernel.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    HEARTS,
    JACK,
    KING,
    QUEEN,
    SPADES,
    SUIT_SYMBOLS,
    cards_of,
    make_card,
    rank_of,
    suit_of,
)

__all__ = [
    "CLUBS",
    "DECK",
    "DIAMONDS",
    "HEARTS",
    "NATURAL",
    "SPADES",
    "SUIT_NAMES",
    "card_points",
    "sequences",
    "strength",
    "suit_mask",
]

NATURAL: Final = (7, 8, 9, 10, JACK, QUEEN, KING, ACE)
"""The ranks of the deck in natural order, lowest first: sequences run in it (ace high
only, no wrap)."""

DECK: Final = sum(1 << make_card(rank, suit) for rank in NATURAL for suit in range(4))
"""The 32 cards, 7 to ace in four suits, as a mask."""

SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")

_SUIT_MASKS: Final = tuple(sum(1 << make_card(r, s) for r in NATURAL) for s in range(4))

_PLAIN_POINTS: Final = {ACE: 11, 10: 10, KING: 4, QUEEN: 3, JACK: 2}
_TRUMP_POINTS: Final = {**_PLAIN_POINTS, JACK: 20, 9: 14}

_ORDERS: Final = {
    # rank order, lowest first, for (trump, plain)
    "book": ((7, 8, 10, QUEEN, KING, ACE, 9, JACK), (7, 8, 9, 10, JACK, QUEEN, KING, ACE)),
    "classic": ((7, 8, QUEEN, KING, 10, ACE, 9, JACK), (7, 8, 9, JACK, QUEEN, KING, 10, ACE)),
}


def suit_mask(suit: int) -> int:
    """The eight cards of ``suit``."""
    return _SUIT_MASKS[suit]


def card_points(card: int, *, trump: int) -> int:
    """What ``card`` counts in the tricks: A 11, 10 10, K 4, Q 3, J 2, the rest 0; the
    jack of trump 20 and the nine of trump 14."""
    table = _TRUMP_POINTS if suit_of(card) == trump else _PLAIN_POINTS
    return table.get(rank_of(card), 0)


def _strength_table(ranking: str) -> tuple[tuple[int, ...], ...]:
    """For each trump suit, each card's strength: 16 + its place among trumps, or its
    place in its plain suit (0-7)."""
    trump_order, plain_order = _ORDERS[ranking]
    tables = []
    for trump in range(4):
        row = [0] * 52
        for suit in range(4):
            order = trump_order if suit == trump else plain_order
            for place, rank in enumerate(order):
                row[make_card(rank, suit)] = place + (16 if suit == trump else 0)
        tables.append(tuple(row))
    return tuple(tables)


_STRENGTH: Final = {ranking: _strength_table(ranking) for ranking in _ORDERS}


def strength(ranking: str, trump: int) -> tuple[int, ...]:
    """Each card's strength in a trick with ``trump``, by card id: any trump beats any
    plain card; among plain cards, only those of the suit led count (the caller checks
    the suit)."""
    return _STRENGTH[ranking][trump]


def _runs(bits: int) -> list[tuple[int, int]]:
    """The maximal runs of three or more set bits of ``bits`` (natural places 0-7), as
    (length, top place), the highest first."""
    runs = []
    length = 0
    for place in range(8):
        if bits >> place & 1:
            length += 1
        else:
            if length >= 3:
                runs.append((length, place - 1))
            length = 0
    if length >= 3:
        runs.append((length, 7))
    return sorted(runs, key=lambda run: -run[1])


_NATURAL_PLACE: Final = {rank: place for place, rank in enumerate(NATURAL)}


def sequences(hand: int) -> list[tuple[int, int, int]]:
    """The sequences in ``hand``: each maximal run of three or more cards of a suit in
    natural order, as (value, top rank, suit), the best first (a run of three is worth
    20, of four or more 50)."""
    found = []
    for suit in range(4):
        bits = 0
        for card in cards_of(hand & _SUIT_MASKS[suit]):
            bits |= 1 << _NATURAL_PLACE[rank_of(card)]
        for length, top in _runs(bits):
            found.append((50 if length >= 4 else 20, NATURAL[top], suit))
    return sorted(found, key=lambda s: (s[0], _NATURAL_PLACE[s[1]]), reverse=True)


def suit_symbol(suit: int) -> str:
    """The suit's symbol, as cards are named."""
    return SUIT_SYMBOLS[suit]
