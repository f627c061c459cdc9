"""Deck orders: the explicit chance of a hand.

A hand is fully determined by its deck order and the moves played, so a record of both
replays exactly. How a deck is dealt is each game's own (Umtali's:
:mod:`umtali.games.umtali.deal`); here are the orders themselves, of the whole pack or
of any part of it (a game of 32 cards deals from those), drawn from an RNG that is
passed in, or from a seed that gives the same order on every machine.

>>> deck = shuffled_deck(random.Random(7))
>>> len(deck), sorted(deck) == list(range(52))
(52, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from umtali.kernel.cards import ALL_CARDS, card_name, cards_of

__all__ = [
    "InvalidDeckError",
    "check_deck",
    "seeded_deck",
    "shuffle",
    "shuffled_deck",
]


class InvalidDeckError(ValueError):
    """A deck order that is not its deck's cards once each."""


def shuffled_deck(rng: random.Random, cards: int = ALL_CARDS) -> tuple[int, ...]:
    """A uniformly random order of ``cards`` (a mask; all 52 by default) drawn from
    ``rng`` (no global randomness)."""
    deck = cards_of(cards)
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


def seeded_deck(seed: int | str, cards: int = ALL_CARDS) -> tuple[int, ...]:
    """The deck order of a seed: the same seed gives the same deck on every machine.

    The seed is an int or text; anything else (``None`` would mean the OS's entropy, a
    deal no record could reproduce) is refused.
    """
    if not isinstance(seed, int | str) or isinstance(seed, bool):
        raise InvalidDeckError(f"a deck seed is a whole number or text, not {seed!r}")
    return shuffled_deck(random.Random(seed), cards)


_ALL_IDS: Final = frozenset(range(52))


def check_deck(deck: Sequence[int], cards: int = ALL_CARDS) -> tuple[int, ...]:
    """The deck as a tuple, or :class:`InvalidDeckError` saying what is wrong with it:
    it must hold each of ``cards`` (a mask; all 52 by default) once, and no other.

    >>> check_deck([0, 1, 2], cards=0b111)
    (0, 1, 2)
    >>> check_deck([0, 1, 5], cards=0b111)
    Traceback (most recent call last):
    ...
    umtali.kernel.deck.InvalidDeckError: deck position 2 holds 6♣, which this deck has not
    """
    size = cards.bit_count()
    if len(deck) != size:
        raise InvalidDeckError(f"a deck has {size} cards, this one {len(deck)}")
    # The common case in one step: plain ints, all different, all the deck's cards.
    order = tuple(deck)
    if cards == ALL_CARDS and set(map(type, order)) == {int} and set(order) == _ALL_IDS:
        return order
    seen = 0
    for i, c in enumerate(deck):
        if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < 52:
            raise InvalidDeckError(f"deck position {i} holds {c!r}, which is no card id")
        if not cards >> c & 1:
            raise InvalidDeckError(
                f"deck position {i} holds {card_name(c)}, which this deck has not"
            )
        if seen >> c & 1:
            raise InvalidDeckError(f"deck position {i} repeats {card_name(c)}")
        seen |= 1 << c
    return order
