"""Gin Rummy's melds and deadwood, computed exactly on card masks.

A meld is a set (three or four cards of a rank) or a sequence (three or more cards of a
suit in a row, ace low: ``A♠ 2♠ 3♠`` is one, ``Q♠ K♠ A♠`` is not). The cards outside
the melds are deadwood, counted ace 1, two to ten at face value, and J, Q, K 10 each.

Cards are the ids and masks of :mod:`umtali.kernel.cards`: each suit owns 13 consecutive bits,
ace lowest, so a sequence is a run of set bits within one suit's bits.

>>> best = best_arrangement(mask_of(parse_cards("As 2s 3s 7h 7d 7c Kc Qd 4h 5h")))
>>> best.points, [CardSet(meld).names() for meld in best.melds]
(29, [['7♣', '7♦', '7♥'], ['A♠', '2♠', '3♠']])
>>> deadwood_points(mask_of(parse_cards("Kc Qd 4h 5h")))
29
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Final

from umtali.kernel.cards import (
    RANK_MASKS,
    SUIT_MASKS,
    CardSet,
    cards_of,
    mask_of,
    parse_cards,  # noqa: F401 - the doctests read hands with it
    rank_of,
    suit_of,
)

__all__ = [
    "DEADWOOD_VALUES",
    "Arrangement",
    "Layoff",
    "arrangements",
    "best_arrangement",
    "best_arrangements",
    "deadwood_points",
    "defend",
    "is_meld",
    "lay_off",
    "layoff_surface",
    "melds_in",
    "min_deadwood",
]

DEADWOOD_VALUES: Final = tuple(min(rank_of(card), 10) for card in range(52))
"""The deadwood value of each card id: ace 1, two to ten at face value, J Q K 10."""

_LOWEST_IN_SUIT: Final = tuple(SUIT_MASKS[s] & -SUIT_MASKS[s] for s in range(4))

_SUIT_BITS: Final = (1 << 13) - 1
_SUIT_POINTS: Final = tuple(
    sum(DEADWOOD_VALUES[rank] for rank in range(13) if pattern >> rank & 1)
    for pattern in range(1 << 13)
)
"""By a suit's 13 bits (ace lowest), the deadwood value of those cards."""


def _meld_free_points(mask: int) -> int | None:
    """The deadwood value of ``mask`` when no meld can be made from it (no three of a
    rank, no three in a row of a suit), else ``None``: most hands in play hold few
    melds, and each of the search's sub-hands without one is settled by four lookups."""
    clubs, diamonds = mask & _SUIT_BITS, mask >> 13 & _SUIT_BITS
    hearts, spades = mask >> 26 & _SUIT_BITS, mask >> 39 & _SUIT_BITS
    for suit in (clubs, diamonds, hearts, spades):
        if suit & suit >> 1 & suit >> 2:
            return None
    if (clubs & diamonds & (hearts | spades)) | (hearts & spades & (clubs | diamonds)):
        return None
    return (
        _SUIT_POINTS[clubs] + _SUIT_POINTS[diamonds] + _SUIT_POINTS[hearts] + _SUIT_POINTS[spades]
    )


def deadwood_points(mask: int) -> int:
    """The deadwood value of the cards in ``mask``.

    >>> deadwood_points(mask_of(parse_cards("Ac 10d Kh")))
    21
    """
    return sum(DEADWOOD_VALUES[card] for card in cards_of(mask))


def _is_sequence(mask: int) -> bool:
    if mask.bit_count() < 3:
        return False
    suit = suit_of(mask.bit_length() - 1)
    if mask & ~SUIT_MASKS[suit]:
        return False
    low = mask & -mask
    # A run of set bits: adding the lowest bit carries through all of them.
    return (mask + low) & mask == 0


def _is_set(mask: int) -> bool:
    count = mask.bit_count()
    if not 3 <= count <= 4:
        return False
    rank = rank_of(mask.bit_length() - 1)
    return mask & ~RANK_MASKS[rank] == 0


def is_meld(mask: int) -> bool:
    """Whether the cards of ``mask`` form one meld: a set or a sequence.

    >>> is_meld(mask_of(parse_cards("9h 10h Jh"))), is_meld(mask_of(parse_cards("Qs Ks As")))
    (True, False)
    >>> is_meld(mask_of(parse_cards("4c 4d 4s 4h"))), is_meld(mask_of(parse_cards("4c 4d")))
    (True, False)
    """
    return _is_set(mask) or _is_sequence(mask)


def _sets_through(card: int, mask: int) -> Iterator[int]:
    """Every set (three or four of a rank) within ``mask`` that holds ``card``."""
    others = [c for c in cards_of(RANK_MASKS[rank_of(card)] & mask) if c != card]
    for size in (2, 3):
        for chosen in combinations(others, size):
            yield (1 << card) | mask_of(chosen)


def _melds_with_lowest(card: int, mask: int) -> Iterator[int]:
    """Every meld within ``mask`` that holds ``card``, the lowest card id in ``mask``."""
    yield from _sets_through(card, mask)
    # ``card`` is the lowest of ``mask``, so a sequence through it starts at it.
    suit_mask = SUIT_MASKS[suit_of(card)]
    run = 1 << card
    nxt = card + 1
    while (1 << nxt) & suit_mask & mask:
        run |= 1 << nxt
        if run.bit_count() >= 3:
            yield run
        nxt += 1


def melds_in(mask: int) -> list[int]:
    """Every meld that can be made from the cards of ``mask`` (overlapping ones included).

    >>> [CardSet(m).names() for m in melds_in(mask_of(parse_cards("5h 6h 7h 7c 7d")))]
    [['7♣', '7♦', '7♥'], ['5♥', '6♥', '7♥']]
    """
    found: list[int] = []
    rest = mask
    while rest:
        low = rest & -rest
        found.extend(_melds_with_lowest(low.bit_length() - 1, mask & ~(low - 1)))
        rest ^= low
    return sorted(found, key=lambda meld: (meld.bit_length(), meld))


@lru_cache(maxsize=1 << 17)
def min_deadwood(mask: int) -> int:
    """The least deadwood the cards of ``mask`` can be left with by any arrangement.

    >>> min_deadwood(mask_of(parse_cards("As 2s 3s 4s 5c 5d 5h Kd Kh 9c")))
    29
    """
    points = _meld_free_points(mask)
    if points is not None:
        return points
    low = mask & -mask
    card = low.bit_length() - 1
    best: int = DEADWOOD_VALUES[card] + min_deadwood(mask ^ low)
    for meld in _melds_with_lowest(card, mask):
        left = min_deadwood(mask & ~meld)
        if left < best:
            best = left
    return best


def _melds_through(card: int, mask: int) -> Iterator[int]:
    """Every meld within ``mask`` that holds ``card`` (which ``mask`` holds)."""
    yield from _sets_through(card, mask)
    # The sequences through ``card``: each run of its suit's cards in ``mask`` from a
    # start at or below it to an end at or above it, three cards or more.
    suit_mask = SUIT_MASKS[suit_of(card)] & mask
    low = card
    while low - 1 >= 0 and (1 << (low - 1)) & suit_mask:
        low -= 1
    high = card
    while (1 << (high + 1)) & suit_mask:
        high += 1
    for start in range(low, card + 1):
        for end in range(max(card, start + 2), high + 1):
            yield ((1 << (end + 1)) - 1) ^ ((1 << start) - 1)


def min_deadwood_adding(mask: int, card: int, least: int | None = None) -> int:
    """``min_deadwood(mask | bit(card))`` for a ``card`` not in ``mask``, ``least`` being
    ``min_deadwood(mask)`` when known: the new card is either left over or in one of
    the few melds through it, so only what those melds leave is searched (a player
    weighing every card he might draw asks this for each of them).

    >>> from umtali.kernel.cards import parse_card
    >>> hand = mask_of(parse_cards("As 2s 3s 4s 5c 5d Kd Kh 9c"))
    >>> min_deadwood_adding(hand, parse_card("5h")), min_deadwood(hand | 1 << parse_card("5h"))
    (29, 29)
    """
    held = min_deadwood(mask) if least is None else least
    best = held + DEADWOOD_VALUES[card]
    whole = mask | 1 << card
    for meld in _melds_through(card, whole):
        left = min_deadwood(whole & ~meld)
        if left < best:
            best = left
    return best


@dataclass(frozen=True)
class Arrangement:
    """Melds laid from a hand and the deadwood left: ``melds`` and ``deadwood`` are card
    masks, ``points`` the deadwood's value. Melds are ordered by their lowest card."""

    melds: tuple[int, ...]
    deadwood: int
    points: int

    def __str__(self) -> str:
        shown = [" ".join(CardSet(meld).names()) for meld in self.melds]
        dead = f"deadwood {CardSet(self.deadwood)} ({self.points})" if self.deadwood else "gin"
        return " | ".join([*shown, dead])


def arrangements(mask: int) -> Iterator[Arrangement]:
    """Every way to lay disjoint melds from ``mask`` (none at all included), each once."""

    def walk(rest: int, melds: tuple[int, ...], dead: int) -> Iterator[Arrangement]:
        if not rest:
            ordered = tuple(sorted(melds, key=lambda m: m & -m))
            yield Arrangement(ordered, dead, deadwood_points(dead))
            return
        low = rest & -rest
        card = low.bit_length() - 1
        yield from walk(rest ^ low, melds, dead | low)
        for meld in _melds_with_lowest(card, rest):
            yield from walk(rest & ~meld, (*melds, meld), dead)

    yield from walk(mask, (), 0)


def best_arrangements(mask: int) -> list[Arrangement]:
    """Every arrangement of ``mask`` with the least deadwood.

    >>> for a in best_arrangements(mask_of(parse_cards("8c 8d 8h 9h 10h Jh 8s"))):
    ...     print(a)
    8♣ 8♦ 8♠ | 8♥ 9♥ 10♥ J♥ | gin
    8♣ 8♦ 8♥ 8♠ | 9♥ 10♥ J♥ | gin
    """
    least = min_deadwood(mask)
    return [a for a in _all_arrangements(mask) if a.points == least]


@lru_cache(maxsize=1 << 12)
def _all_arrangements(mask: int) -> tuple[Arrangement, ...]:
    return tuple(arrangements(mask))


def best_arrangement(mask: int) -> Arrangement:
    """The arrangement a knocker lays: the least deadwood and, among arrangements as good,
    the one whose melds give an opponent the fewest cards to lay off (the knocker cannot
    see the other hand, so only his own cards decide: :func:`layoff_surface`).

    >>> print(best_arrangement(mask_of(parse_cards("8c 8d 8h 9h 10h Jh 8s"))))
    8♣ 8♦ 8♥ 8♠ | 9♥ 10♥ J♥ | gin

    (The four eights take no layoff; laid as a set of three and a longer sequence, the
    sequence would take the seven of hearts as well as the queen.)
    """
    candidates = best_arrangements(mask)
    return min(candidates, key=lambda a: (layoff_surface(a.melds, mask), a.melds))


def _run_extensions(run: int) -> int:
    """The cards just below and just above a sequence, within its suit."""
    suit = SUIT_MASKS[suit_of(run.bit_length() - 1)]
    return ((run << 1) | (run >> 1)) & suit & ~run


def layoff_surface(melds: tuple[int, ...], own: int) -> int:
    """How many cards outside ``own`` could ever be laid off on ``melds``: the fourth card
    of each set and every card that would extend a sequence, chained."""
    outside = ~own & ((1 << 52) - 1)
    return lay_off(outside, melds).laid.bit_count()


@dataclass(frozen=True)
class Layoff:
    """Cards laid off on a knocker's melds: ``laid`` (a mask) and the melds as they stand
    after it."""

    laid: int
    melds: tuple[int, ...]


def lay_off(cards: int, melds: tuple[int, ...]) -> Layoff:
    """Lay off as many of ``cards`` as possible on ``melds``.

    A sequence takes the cards that extend it at either end, one after another; a set of
    three takes its fourth card. A card that could go on a sequence goes there, since it
    may open the way for the next card of the suit, while a set can only ever take that
    one card. The result is the most that can be laid off, not only a greedy amount.

    >>> run, triple = mask_of(parse_cards("4s 5s 6s")), mask_of(parse_cards("7c 7d 7h"))
    >>> CardSet(lay_off(mask_of(parse_cards("7s 8s 3h")), (run, triple)).laid).names()
    ['7♠', '8♠']
    """
    placed = list(melds)
    laid = 0
    grown = True
    while grown:  # sequences first, chained until none grows
        grown = False
        for i, meld in enumerate(placed):
            if _is_set(meld):
                continue
            extra = _run_extensions(meld) & cards & ~laid
            if extra:
                placed[i] = meld | extra
                laid |= extra
                grown = True
    for i, meld in enumerate(placed):
        if _is_set(meld) and meld.bit_count() == 3:
            fourth = RANK_MASKS[rank_of(meld.bit_length() - 1)] & cards & ~laid & ~meld
            if fourth:
                placed[i] = meld | fourth
                laid |= fourth
    return Layoff(laid, tuple(placed))


def defend(mask: int, knocker_melds: tuple[int, ...]) -> tuple[Arrangement, Layoff]:
    """The knocker's opponent's best answer: his own melds and his layoffs on the
    knocker's melds, leaving him the least deadwood. Every arrangement of his hand is
    tried, since breaking a meld of his own can let more cards be laid off.

    >>> knocked = (mask_of(parse_cards("2h 3h 4h")), mask_of(parse_cards("9c 9d 9s")))
    >>> own, layoff = defend(mask_of(parse_cards("5h 6h 7h 9h Kc")), knocked)
    >>> CardSet(layoff.laid).names(), own.points - deadwood_points(layoff.laid)
    (['5♥', '6♥', '7♥', '9♥'], 10)
    """
    best: tuple[int, Arrangement, Layoff] | None = None
    for own in _all_arrangements(mask):
        layoff = lay_off(own.deadwood, knocker_melds)
        left = own.points - deadwood_points(layoff.laid)
        if best is None or left < best[0]:
            best = (left, own, layoff)
    assert best is not None  # every hand has at least the arrangement with no melds
    return best[1], best[2]
