"""The seed scheme every game's sessions share: hand ``i`` of a session seeded ``seed`` is
dealt from ``f"{seed}/{i}"``, its first dealer drawn from ``f"{seed}/first dealer"``,
and the computer's decision at move ``m`` of hand ``i`` made with its own
``random.Random(f"{seed}/{i}/{m}")``. So a saved game, resumed, plays on exactly as it
would have, and the arena's games do not depend on the order they are played in.
"""

from __future__ import annotations

import random

from umtali.kernel.cards import ALL_CARDS
from umtali.kernel.deck import seeded_deck

__all__ = [
    "Seed",
    "decision_rng",
    "deck_for",
    "first_dealer_for",
]


Seed = int | str
"""A session's seed: ``umtali play`` keeps a whole number; the arena's games are
``"SEED/DEAL"``."""


def deck_for(seed: Seed, hand_index: int, cards: int = ALL_CARDS) -> tuple[int, ...]:
    """The deck of hand ``hand_index`` (from 0) of the session seeded ``seed``: an order
    of ``cards`` (a mask; all 52 by default, a game of fewer cards passes its own)."""
    return seeded_deck(f"{seed}/{hand_index}", cards)


def first_dealer_for(seed: Seed) -> int:
    """The seat that deals the first hand of the session seeded ``seed``."""
    return random.Random(f"{seed}/first dealer").randrange(2)


def decision_rng(seed: Seed, hand_index: int, move_index: int) -> random.Random:
    """The RNG of one decision: move ``move_index`` of hand ``hand_index``. Hints use
    negative move indices, so that asking for one changes nothing that follows.

    >>> decision_rng(7, 0, 3).random() == decision_rng(7, 0, 3).random()
    True
    """
    return random.Random(f"{seed}/{hand_index}/{move_index}")
