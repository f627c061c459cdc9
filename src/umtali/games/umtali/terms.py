"""The few terms every layer of a hand shares: its phases and how a discard-pile entry is
written (the players' names are every game's: :mod:`umtali.kernel.players`).

A leaf module: the state, the refusals (:mod:`umtali.games.umtali.reasons`) and the front ends all
read these, so none of them has to import another to learn where a hand stands.

>>> Phase.DRAW
<Phase.DRAW: 1>
>>> entry = 30 | FACE_DOWN  # 5♥ laid face down
>>> entry & PILE_CARD, bool(entry & FACE_DOWN)
(30, True)
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

__all__ = ["FACE_DOWN", "PILE_CARD", "Phase"]


class Phase(IntEnum):
    """Where the hand stands."""

    CHOOSE = 0  # the dealer chooses who gets the 11th card
    DRAW = 1  # the player to move draws
    PLAY = 2  # the player to move melds, then discards or goes out
    OVER = 3  # the hand has ended


FACE_DOWN: Final = 64
"""Flag on a discard-pile entry: the card lies face down. An entry is the card id (0..51,
six bits) with this seventh bit set or not."""

PILE_CARD: Final = 63
"""Mask of the card id in a discard-pile entry (``entry & PILE_CARD``)."""
