"""The few terms every layer of a hand shares: its phases, the players' names, and how a
discard-pile entry is written.

A leaf module: the state, the refusals (:mod:`umtali.reasons`) and the front ends all
read these, so none of them has to import another to learn where a hand stands.

>>> Phase.DRAW, player_name(1)
(<Phase.DRAW: 1>, 'Player 2')
>>> entry = 30 | FACE_DOWN  # 5♥ laid face down
>>> entry & PILE_CARD, bool(entry & FACE_DOWN)
(30, True)
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

__all__ = ["FACE_DOWN", "PILE_CARD", "UNPRINTABLE", "Phase", "player_name"]


class Phase(IntEnum):
    """Where the hand stands."""

    CHOOSE = 0  # the dealer chooses who gets the 11th card
    DRAW = 1  # the player to move draws
    PLAY = 2  # the player to move melds, then discards or goes out
    OVER = 3  # the hand has ended


def player_name(player: int) -> str:
    """'Player 1' or 'Player 2' for player 0 or 1, as the book numbers them."""
    return f"Player {player + 1}"


FACE_DOWN: Final = 64
"""Flag on a discard-pile entry: the card lies face down. An entry is the card id (0..51,
six bits) with this seventh bit set or not."""

PILE_CARD: Final = 63
"""Mask of the card id in a discard-pile entry (``entry & PILE_CARD``)."""


UNPRINTABLE: Final = frozenset(("Cc", "Cf", "Cs", "Zl", "Zp"))
"""Unicode categories of the characters that are not shown as themselves: control
characters (Cc: escape, line feed), format characters (Cf: bidi overrides, zero-width
joiners), lone surrogates (Cs: no encoding can write them) and the line and paragraph
separators (Zl, Zp). A player's name holds none of them (:class:`umtali.match.Match`
refuses it), and the terminal writes any it must print as escapes."""
