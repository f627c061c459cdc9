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
from collections.abc import Sequence
from typing import Any, Final

from umtali.kernel.cards import card_name

__all__ = [
    "InvalidDeckError",
    "check_deck",
    "seeded_deck",
    "shuffle",
    "shuffled_deck",
]


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
