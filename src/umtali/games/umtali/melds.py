"""Pure meld combinatorics on card masks: what a hand may lay, what the table accepts.

Everything here works on int masks (see :mod:`umtali.kernel.cards`) and lookup tables, with no
state and no I/O. The hand state and the bots both build on it.

Melds a hand may lay now (R4): a maximal run of 3+ of one suit within A..10 (no Jack can
be in a sequence), all cards of a rank held 3+ times (not Jacks), or K and Q of a suit.

>>> from umtali.kernel.cards import CardSet
>>> hand = CardSet.parse("6d 4d 3d 2d Kc Qc 9c 2c Js 10s 10h").mask
>>> [CardSet(m) for m in hand_melds(hand)]
[CardSet('2♦ 3♦ 4♦'), CardSet('Q♣ K♣')]

A card on the table accepts solo cards (proper additions): a solo card accepts its rank
and its neighbours in suit, a group or pair accepts its rank, a sequence its two ends.

>>> from umtali.kernel.cards import parse_card
>>> CardSet(SOLO_ACCEPTS[parse_card("5c")])
CardSet('4♣ 5♣ 6♣ 5♦ 5♥ 5♠')
>>> CardSet(meld_accepts(CardSet.parse("9h 8h 7h").mask))
CardSet('6♥ 10♥')
>>> meld_accepts(CardSet.parse("Kc Qc").mask)
0
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from umtali.kernel.cards import (
    JACK,
    JACKS,
    QUEENS,
    RANK_MASKS,
    CardSet,
    card_points,
    cards_of,
    rank_of,
)

__all__ = [
    "SOLO_ACCEPTS",
    "ColumnKind",
    "MeldPlan",
    "card_reach",
    "closes_with_run",
    "column_kind",
    "column_points",
    "end_is_acceptable",
    "hand_melds",
    "is_closing_meld",
    "is_pair",
    "meld_accepts",
    "meld_plans",
    "meldable_cards",
    "plays_reach",
    "short_melds",
    "solo_playable",
]


class ColumnKind(IntEnum):
    """The kind of a column on the table."""

    SEQUENCE = 0
    GROUP = 1
    MARRIAGE = 2
    PAIR = 3
    SOLO = 4

    @property
    def label(self) -> str:
        return self.name.lower()


_SEQUENCE: Final = ColumnKind.SEQUENCE
_GROUP: Final = ColumnKind.GROUP
_MARRIAGE: Final = ColumnKind.MARRIAGE
_PAIR: Final = ColumnKind.PAIR

_NO_JACK: Final = 0x1FFF & ~(1 << (JACK - 1))  # rank bits, Jack cleared
_QUEENS: Final = QUEENS

_SUIT_BITS: Final = 0x1FFF
_LOW_TEN: Final = 0x3FF  # A..10 of one suit: the only ranks a sequence can use
_LOW_TENS: Final = _LOW_TEN | _LOW_TEN << 13 | _LOW_TEN << 26 | _LOW_TEN << 39


def _runs_of(bits: int) -> tuple[int, ...]:
    """Maximal runs of 3+ set bits in a 10-bit value, as masks."""
    runs = []
    i = 0
    while i < 10:
        if bits >> i & 1:
            j = i
            while j + 1 < 10 and bits >> (j + 1) & 1:
                j += 1
            if j - i >= 2:
                runs.append(((1 << (j + 1)) - 1) ^ ((1 << i) - 1))
            i = j + 1
        else:
            i += 1
    return tuple(runs)


_RUNS: Final = tuple(_runs_of(b) for b in range(1 << 10))
"""_RUNS[b]: the maximal runs of 3+ in the A..10 bits of one suit."""


def _two_runs_of(bits: int) -> tuple[int, ...]:
    """Runs of exactly two set bits in a 10-bit value (neither neighbour set), as masks."""
    # Bit j + 1 of ``padded`` is bit j of ``bits``, so its four bits from i are the
    # cards i - 1 .. i + 2: a gap, two cards, a gap (below A and above 10 is a gap).
    padded = bits << 1
    return tuple(3 << i for i in range(9) if padded >> i & 0b1111 == 0b0110)


_TWO_RUNS: Final = tuple(_two_runs_of(b) for b in range(1 << 10))
"""_TWO_RUNS[b]: the runs of exactly two in the A..10 bits of one suit: a two-card run
with no third card in hand to make it a sequence."""

_CLUB_RUNS, _DIAMOND_RUNS, _HEART_RUNS, _SPADE_RUNS = (
    tuple(tuple(run << 13 * s for run in runs) for runs in _RUNS) for s in range(4)
)


def _neighbours(card: int) -> int:
    rank = rank_of(card)
    m = 0
    if rank > 1:
        m |= 1 << (card - 1)
    if rank < 13:
        m |= 1 << (card + 1)
    return m


SUIT_NEIGHBOURS: Final = tuple(_neighbours(c) for c in range(52))
"""SUIT_NEIGHBOURS[c]: the next lower and higher card of c's suit (aces low, no wrap)."""

SOLO_ACCEPTS: Final = tuple(RANK_MASKS[rank_of(c)] | SUIT_NEIGHBOURS[c] for c in range(52))
"""SOLO_ACCEPTS[c]: the cards a solo c accepts (its own bit included, harmlessly)."""

_TENS_AND_COURT: Final = RANK_MASKS[10] | RANK_MASKS[11] | RANK_MASKS[12] | RANK_MASKS[13]
_ACES: Final = RANK_MASKS[1]
_KINGS: Final = RANK_MASKS[13]
_ALL: Final = (1 << 52) - 1
_EVERY_SUIT: Final = 1 | 1 << 13 | 1 << 26 | 1 << 39


def card_reach(mask: int) -> int:
    """The cards that share a rank with a card of ``mask`` or lie next to one in its
    suit: the union of ``SOLO_ACCEPTS`` over ``mask``, in a few bit operations.

    A card outside ``card_reach(hand)`` that the table does not accept, and is no Jack,
    cannot be played from ``hand`` this turn: melds and solos only ever join cards of
    one rank or neighbours in a suit.

    >>> CardSet(card_reach(CardSet.parse("5c").mask)) == CardSet(SOLO_ACCEPTS[4])
    True
    """
    neighbours = (mask << 1) & _ALL & ~_ACES | (mask >> 1) & ~_KINGS
    ranks = (mask | mask >> 13 | mask >> 26 | mask >> 39) & _SUIT_BITS
    return neighbours | ranks * _EVERY_SUIT


def hand_melds(hand: int) -> list[int]:
    """Every overlapped meld the hand may lay now, maximal as R4 demands.

    A run longer than three is offered only whole, a rank held four times only as the
    group of four: a smaller meld would leave in hand a card that extends it.
    """
    low = hand & _LOW_TENS
    # Three cards in a row anywhere: a run of a suit can use only its A..10, so a shifted
    # bit never joins two suits. Most hands have none, and skip the run tables.
    if low & low >> 1 & low >> 2:
        melds = [
            *_CLUB_RUNS[hand & _LOW_TEN],
            *_DIAMOND_RUNS[hand >> 13 & _LOW_TEN],
            *_HEART_RUNS[hand >> 26 & _LOW_TEN],
            *_SPADE_RUNS[hand >> 39 & _LOW_TEN],
        ]
    else:
        melds = []
    a = hand & _SUIT_BITS
    b = (hand >> 13) & _SUIT_BITS
    c = (hand >> 26) & _SUIT_BITS
    d = (hand >> 39) & _SUIT_BITS
    three = ((a & b & (c | d)) | (c & d & (a | b))) & _NO_JACK
    while three:
        low = three & -three
        melds.append(hand & RANK_MASKS[low.bit_length()])
        three ^= low
    married = hand & _KINGS & ((hand & _QUEENS) << 1)
    while married:
        king = married & -married
        melds.append(king | king >> 1)
        married ^= king
    return melds


def short_melds(hand: int) -> list[int]:
    """The two-card melds of the last turns (seed 003), maximal as R4 wants melds: a pair
    of a rank held exactly twice (not Jacks), and two cards in a row of one suit within
    A..10 with neither neighbour in hand. A third card would make them a group or a
    sequence, which :func:`hand_melds` lists.

    >>> [CardSet(m) for m in short_melds(CardSet.parse("5h 6h 9c 9d Js Jh 2s 3s 4s").mask)]
    [CardSet('9♣ 9♦'), CardSet('5♥ 6♥')]
    """
    melds = [run << 13 * s for s in range(4) for run in _TWO_RUNS[hand >> 13 * s & _LOW_TEN]]
    a = hand & _SUIT_BITS
    b = (hand >> 13) & _SUIT_BITS
    c = (hand >> 26) & _SUIT_BITS
    d = (hand >> 39) & _SUIT_BITS
    # Exactly two of the four suits hold the rank: at least two, and not three.
    two = (a & b | c & d | (a | b) & (c | d)) & ~((a & b & (c | d)) | (c & d & (a | b)))
    two &= _NO_JACK
    pairs = []
    while two:
        low = two & -two
        pairs.append(hand & RANK_MASKS[low.bit_length()])
        two ^= low
    return pairs + melds


def is_closing_meld(mask: int, runs: bool) -> bool:
    """Whether ``mask`` may be the two-card column a player goes out with: a pair (R6),
    or with ``runs`` also two cards in a row of one suit within A..10 (seed 003).

    >>> is_closing_meld(CardSet.parse("6h 5h").mask, True), is_closing_meld(CardSet.parse("6h 5h").mask, False)
    (True, False)
    """
    if is_pair(mask):
        return True
    if not runs or mask.bit_count() != 2 or mask & ~_LOW_TENS:
        return False
    low = mask & -mask
    return mask == low | low << 1 and (low.bit_length() - 1) % 13 < 9


def meldable_cards(hand: int) -> int:
    """The cards of the hand that lie in some meld it may lay (The Rule keeps them from solo)."""
    m = 0
    for meld in hand_melds(hand):
        m |= meld
    return m


def solo_playable(hand: int, open_mask: int) -> int:
    """Cards of the hand playable as solo cards now: Jacks, and proper additions to the
    table (``open_mask``) that no meld in the hand claims."""
    return hand & (open_mask | JACKS) & ~meldable_cards(hand)


def column_kind(mask: int) -> ColumnKind:
    """The kind of an overlapped column from its cards.

    >>> column_kind(CardSet.parse("Kc Qc").mask).label, column_kind(CardSet.parse("9s 9c").mask)
    ('marriage', <ColumnKind.PAIR: 3>)
    """
    ranks = (mask | mask >> 13 | mask >> 26 | mask >> 39) & _SUIT_BITS
    if ranks & (ranks - 1) == 0:  # one rank
        return _PAIR if mask.bit_count() == 2 else _GROUP
    if mask.bit_count() == 2 and mask & _KINGS:
        return _MARRIAGE  # a two-card run (seed 003's last turns) never holds a King
    return _SEQUENCE


def column_points(kind: ColumnKind, mask: int, marriage_multiplier: int = 2) -> int:
    """Points of a column on the table (R9): face value, a marriage multiplied.

    >>> column_points(ColumnKind.MARRIAGE, CardSet.parse("Kc Qc").mask)
    20
    """
    # Every card scores 1, and 10, J, Q and K score 4 more.
    points = mask.bit_count() + 4 * (mask & _TENS_AND_COURT).bit_count()
    return points * marriage_multiplier if kind == _MARRIAGE else points


def meld_accepts(mask: int) -> int:
    """Cards a freshly laid overlapped column accepts as solos: its rank for a group or a
    pair, the next card at either end for a sequence, nothing for a marriage."""
    first = (mask & -mask).bit_length() - 1
    rank = RANK_MASKS[first % 13 + 1]
    if not mask & ~rank:
        return rank
    if mask & _KINGS and mask.bit_count() == 2:
        return 0  # a marriage
    return (SUIT_NEIGHBOURS[first] | SUIT_NEIGHBOURS[mask.bit_length() - 1]) & ~mask


def is_pair(mask: int) -> bool:
    """Two cards of one rank, not Jacks (Jacks are never overlapped)."""
    if mask.bit_count() != 2:
        return False
    low = mask & -mask
    rank = rank_of(low.bit_length() - 1)
    return rank != JACK and mask & RANK_MASKS[rank] == mask


def end_is_acceptable(
    left: int,
    taken: int,
    pair_to_go_out: bool,
    closing_runs: bool = False,
    odd_discard: bool = True,
    kept: int = 0,
) -> bool:
    """Whether a meld phase ending with ``left`` in hand satisfies a take that binds
    ``taken`` (R3's take-two, seed 003's deep take): each card of ``taken`` still in hand
    must go into the two-card column the player goes out with (R6; ``closing_runs``: a
    two-card run may close too), beside at most one odd card to discard if
    ``odd_discard``. ``kept``: cards that may not be discarded this turn at all, not even
    to go out (seed 003's top card taken); a hand of nothing else cannot end the turn.

    >>> [end_is_acceptable(CardSet.parse(left).mask, 0, True, kept=CardSet.parse("Qc").mask)
    ...  for left in ("Qc", "Qc 2d", "")]
    [False, True, True]
    """
    still = left & taken
    if not still:
        return not kept or not left or bool(left & ~kept)
    if not pair_to_go_out:
        return False
    closes = closes_with_run if closing_runs else is_pair
    n = left.bit_count()
    if n == 2:
        return closes(left)
    if n == 3 and odd_discard:
        return any(closes(left & ~(1 << x)) for x in cards_of(left & ~(taken | kept)))
    return False


def closes_with_run(mask: int) -> bool:
    """Whether a player may go out with ``mask``: a pair, or a two-card run (seed 003)."""
    return is_closing_meld(mask, True)


def _solo_closure(
    hand: int, open_mask: int, short: bool = False
) -> tuple[int, int, int, list[int]]:
    """Play every solo card that is or becomes playable. Safe to do eagerly: a solo card
    lies in no meld of the hand, so playing it removes no option and only opens more.
    Returns the hand, the open mask, the cards played, and the hand's melds (the same
    before and after: taking away cards that lie in no meld changes no meld). With
    ``short`` the two-card melds of the last turn count as melds too."""
    played = 0
    melds = hand_melds(hand) + short_melds(hand) if short else hand_melds(hand)
    blocked = 0
    for m in melds:
        blocked |= m
    while True:
        solos = hand & (open_mask | JACKS) & ~blocked
        if not solos:
            return hand, open_mask, played, melds
        played |= solos
        hand &= ~solos
        open_mask |= card_reach(solos)


def _melds_play_all(melds: list[int], cards: int) -> bool:
    """Whether one of ``melds`` holds every card of ``cards``, or two that share no card
    hold them between them. A compulsory phase may lay such melds first (a meld stays one
    while none of its cards is played), so it can play ``cards``: half the take-twos that
    leave the search's first step with melds in hand are settled here.

    >>> sevens, run = CardSet.parse("7c 7d 7h").mask, CardSet.parse("Js 10s 9s").mask
    >>> _melds_play_all([sevens, run], CardSet.parse("7c 10s").mask)
    True
    >>> _melds_play_all([sevens, CardSet.parse("9h 8h 7h").mask], CardSet.parse("7c 9h").mask)
    False
    """
    holding = [m for m in melds if m & cards]
    for i, m in enumerate(holding):
        if m & cards == cards:
            return True
        for other in holding[i + 1 :]:
            if not m & other and (m | other) & cards == cards:
                return True
    return False


def _union_if_disjoint(melds: list[int]) -> int:
    """The cards of ``melds`` if no two share a card, else 0.

    Disjoint melds commute: laying one neither removes nor changes another (a meld's
    cards stay claimed by it, so none of them goes off as a solo meanwhile), and a
    compulsory phase lays them all. The searches then lay them in one step instead of
    trying every order."""
    union = 0
    total = 0
    for m in melds:
        union |= m
        total += m.bit_count()
    return union if union.bit_count() == total else 0


def _all_accepts(melds: list[int]) -> int:
    accepts = 0
    for m in melds:
        accepts |= meld_accepts(m)
    return accepts


def plays_reach(
    hand: int,
    open_mask: int,
    taken: int,
    *,
    pair_to_go_out: bool,
    stop_anywhere: bool,
    closing_runs: bool = False,
    odd_discard: bool = True,
    short: bool = False,
    kept: int = 0,
) -> bool:
    """Whether some way of playing the meld phase on from here plays every card of
    ``taken`` (or keeps them for the closing pair, R6), and then ends the turn. The
    take-two test of R3, and the deep take's (seed 003: ``taken`` is then the deepest card
    alone; ``kept`` the card taken from the top, which may not be discarded).

    With ``stop_anywhere`` the player may end the phase at any point (non-compulsory
    variants); otherwise the phase ends only when nothing is playable. ``closing_runs``
    and ``odd_discard`` say how a player may close (see :func:`end_is_acceptable`),
    ``short`` that two-card melds are melds now (the last turn, seed 003).

    >>> hand = CardSet.parse("7h 6h 5h 9s 9c 10d").mask
    >>> taken = CardSet.parse("6h 5h").mask
    >>> plays_reach(hand, 0, taken, pair_to_go_out=True, stop_anywhere=False)
    True
    >>> plays_reach(CardSet.parse("7h 6h 3c").mask, 0, CardSet.parse("6h 3c").mask,
    ...             pair_to_go_out=True, stop_anywhere=False)
    False
    """
    # Quick refusal: a taken card with nothing to join, that the table does not accept,
    # can never be played (most refusals in play end here, without a search).
    for c in cards_of(taken & hand & ~(open_mask | JACKS)):
        if not SOLO_ACCEPTS[c] & hand & ~(1 << c):
            return False
    if not stop_anywhere:
        # The search's first step, inline: most takes that pass the refusal above are
        # settled by it, the hand holding no meld once its solos are played.
        hand, open_mask, _, melds = _solo_closure(hand, open_mask, short)
        if not hand & taken:
            return True
        if not melds:
            return end_is_acceptable(hand, taken, pair_to_go_out, closing_runs, odd_discard, kept)
        if _melds_play_all(melds, hand & taken) and not kept:
            return True
    seen: set[tuple[int, ...]] = set()

    def search(hand: int, open_mask: int, reserve: int = 0) -> bool:
        """``reserve``: a card held back from play, to be discarded at the end."""
        if stop_anywhere and end_is_acceptable(
            hand | reserve, taken, pair_to_go_out, closing_runs, odd_discard, kept
        ):
            return True
        before, opened = hand, open_mask
        hand, open_mask, played, melds = _solo_closure(hand, open_mask, short)
        if not hand & taken and (
            not kept
            or end_is_acceptable(
                hand | reserve, taken, pair_to_go_out, closing_runs, odd_discard, kept
            )
        ):
            return True  # all on the table: nothing later can take them back
        if stop_anywhere and end_is_acceptable(
            hand | reserve, taken, pair_to_go_out, closing_runs, odd_discard, kept
        ):
            return True  # the solos played, the melds left in hand
        key = (hand, open_mask, reserve) if reserve else (hand, open_mask)
        if key in seen:
            return False
        seen.add(key)
        # Playing every solo at once may in the end leave the card that may not be
        # discarded alone in hand: one of them, held back from here instead, is then the
        # discard that ends the turn. (It lies in no meld, so holding it binds nothing
        # else by The Rule.)
        if (
            kept
            and not reserve
            and any(search(before & ~(1 << c), opened, 1 << c) for c in cards_of(played & ~taken))
        ):
            return True
        if not melds:
            return end_is_acceptable(
                hand | reserve, taken, pair_to_go_out, closing_runs, odd_discard, kept
            )
        if not stop_anywhere and len(melds) > 1:
            union = _union_if_disjoint(melds)
            if union:
                return search(hand & ~union, open_mask | _all_accepts(melds))
        return any(search(hand & ~m, open_mask | meld_accepts(m), reserve) for m in melds)

    return search(hand, open_mask)


@dataclass(frozen=True)
class MeldPlan:
    """One end state of a compulsory meld phase.

    Attributes:
        melds: the overlapped columns laid, as masks, in a canonical order.
        solos: the cards played solo.
        left: the cards left in hand.
        points: what the plays score (R9; a marriage at the standard multiplier unless given).
        opens: the cards the table accepts afterwards (beyond what it accepted before).
    """

    melds: tuple[int, ...]
    solos: int
    left: int
    points: int
    opens: int

    def __repr__(self) -> str:
        melds = ", ".join(str(CardSet(m)) for m in self.melds)
        return (
            f"MeldPlan(melds=[{melds}], solos={CardSet(self.solos)!s}, "
            f"left={CardSet(self.left)!s}, points={self.points})"
        )


def meld_plans(hand: int, open_mask: int, marriage_multiplier: int = 2) -> list[MeldPlan]:
    """The distinct end states a compulsory meld phase can reach from ``hand`` with the
    table accepting ``open_mask``, best-scoring first.

    Plans differ only where melds overlap (the player's free choice, R4.3); the order of
    independent plays and the choice of which card a solo is played off change nothing
    here. Self-test question 12:

    >>> hand = CardSet.parse("Kh 8h 7h Js 10s 9s 10d 7d Ad 7c 6c").mask
    >>> meld_plans(hand, 0)
    [MeldPlan(melds=[7♣ 7♦ 7♥], solos=10♦ 9♠ 10♠ J♠, left=6♣ A♦ 8♥ K♥, points=19)]
    """
    left, opened, played, options = _solo_closure(hand, open_mask)
    if not options:  # most hands: no meld, so one end (found fast, for the bots' playouts)
        points = sum(card_points(c) for c in cards_of(played))
        return [MeldPlan((), played, left, points, opened & ~open_mask & ~JACKS)]
    plans: dict[tuple[tuple[int, ...], int], MeldPlan] = {}
    seen: set[tuple[int, int, tuple[int, ...]]] = set()
    start_open = open_mask

    def search(hand: int, open_mask: int, melds: tuple[int, ...], solos: int) -> None:
        hand, open_mask, played, options = _solo_closure(hand, open_mask)
        solos |= played
        key = (hand, open_mask, melds)
        if key in seen:
            return
        seen.add(key)
        if not options:
            points = sum(card_points(c) for c in cards_of(solos)) + sum(
                column_points(column_kind(m), m, marriage_multiplier) for m in melds
            )
            plans[(melds, solos)] = MeldPlan(
                melds, solos, hand, points, open_mask & ~start_open & ~JACKS
            )
            return
        if len(options) > 1:
            union = _union_if_disjoint(options)
            if union:
                laid = tuple(sorted((*melds, *options)))
                search(hand & ~union, open_mask | _all_accepts(options), laid, solos)
                return
        for m in options:
            search(hand & ~m, open_mask | meld_accepts(m), tuple(sorted((*melds, m))), solos)

    search(hand, open_mask, (), 0)
    return sorted(plans.values(), key=lambda p: (-p.points, p.left, p.melds))
