"""What a Klaberjass hand is worth to a bidder: an estimate of the points it takes with
a given trump, and the estimate a hand needs before its holder makes trump. The
``expert`` bids on it, and the ``search`` level's playouts bid the same way.

>>> from umtali.kernel.cards import mask_of, parse_cards
>>> strong = mask_of(parse_cards("Jh 9h Ah 10h As Ks"))
>>> hand_worth(strong, 2, "book") >= BID_THRESHOLD
True
>>> hand_worth(mask_of(parse_cards("7h 8c 9d Qs Kc 10d")), 2, "book") < BID_THRESHOLD
True
"""

from __future__ import annotations

from typing import Final

from umtali.games.klaberjass.terms import sequences, suit_mask
from umtali.kernel.cards import ACE, JACK, KING, QUEEN, cards_of, make_card, rank_of

__all__ = ["BID_THRESHOLD", "hand_worth"]

BID_THRESHOLD: Final = 44.0
"""The estimate (six cards and what the turned-up card brings) a hand needs to make
trump: the maker must outscore the other or lose everything."""

_TRUMP_WORTH: Final = {JACK: 30.0, 9: 22.0, ACE: 14.0, 10: 10.0, KING: 7.0, QUEEN: 6.0}
"""What each trump is worth to a bidder: its points and the tricks it wins."""

_SMALL_TRUMP_WORTH: Final = 5.0
"""A small trump (the 7 and 8, or any not in the table above) still ruffs a trick."""

_SIDE_ACE_WORTH: Final = 13.0
_SIDE_GUARDED_TEN_WORTH: Final = 6.0
_SEQUENCE_SHARE: Final = 0.6
"""The share of its sequences a bidder counts on: the other may hold a better one."""


def hand_worth(hand: int, trump: int, ranking: str) -> float:
    """An estimate of the points ``hand`` takes with ``trump``: trumps by rank, side aces,
    a ten guarded by its ace (the classic ten is second in its suit), sequences and bella."""
    worth = 0.0
    trumps = hand & suit_mask(trump)
    for card in cards_of(trumps):
        worth += _TRUMP_WORTH.get(rank_of(card), _SMALL_TRUMP_WORTH)
    if trumps.bit_count() >= 4:
        worth += 10.0  # the long trump suit draws the other's and keeps the lead
    for suit in range(4):
        if suit == trump:
            continue
        side = hand & suit_mask(suit)
        if side >> make_card(ACE, suit) & 1:
            worth += _SIDE_ACE_WORTH
            if side >> make_card(10, suit) & 1:
                worth += _SIDE_GUARDED_TEN_WORTH * (2 if ranking == "classic" else 1)
        elif not side:
            worth += 4.0 if trumps.bit_count() >= 2 else 0.0  # a void to ruff in
    worth += _SEQUENCE_SHARE * sum(value for value, _, _ in sequences(hand))
    pair = 1 << make_card(KING, trump) | 1 << make_card(QUEEN, trump)
    if hand & pair == pair:
        worth += 20.0
    return worth
