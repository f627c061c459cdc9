"""Cards as rich text, for every game's screen: a card red or black, a hand sorted for
reading, a discard pile with its face-down cards, the cards new to a player marked.

The suits and ranks are :mod:`umtali.kernel.cards`'s, whatever the game; how a game lays
out its board is its own (``umtali.games.<game>.terminal``).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from rich.text import Text

from umtali.kernel.cards import card_name, display_key, suit_of

__all__ = [
    "NEW_MARK",
    "PILE_SHOWN",
    "card_text",
    "cards_text",
    "display_text",
    "hand_text",
    "pile_text",
    "top_discard_text",
    "under_the_top_text",
]

_RED: Final = {1, 2}  # diamonds, hearts

NEW_MARK: Final = "*"
"""Follows a card played since the player last saw the table (and it is underlined):
the mark says it without colour too."""


def card_text(card: int, new: bool = False) -> Text:
    """A card, red for hearts and diamonds; ``new``: marked as just played."""
    style = "bold red" if suit_of(card) in _RED else "bold"
    if not new:
        return Text(card_name(card), style=style)
    return Text.assemble((card_name(card), f"{style} underline"), (NEW_MARK, "bold yellow"))


def cards_text(cards: Iterable[int], sep: str = " ", new: int = 0) -> Text:
    """Cards in the order given; those in the mask ``new`` marked as just played."""
    text = Text()
    for i, c in enumerate(cards):
        if i:
            text.append(sep)
        text.append_text(card_text(c, bool(new >> c & 1)))
    return text


def hand_text(cards: Iterable[int]) -> Text:
    """A hand sorted by suit (♠ ♥ ♦ ♣) and rank, high to low, suits two spaces apart."""
    text = Text()
    last_suit = None
    for c in sorted(cards, key=display_key):
        if last_suit is not None:
            text.append("  " if suit_of(c) != last_suit else " ")
        text.append_text(card_text(c))
        last_suit = suit_of(c)
    return text


def pile_text(cards: Iterable[int | None], face_down: str = "(face down)") -> Text:
    """Discards in the order given, each card lying face down (``None``) as ``face_down``."""
    text = Text()
    for i, card in enumerate(cards):
        if i:
            text.append(" ")
        if card is None:
            text.append(face_down, style="dim")
        else:
            text.append_text(card_text(card))
    return text


def top_discard_text(pile: Sequence[int | None]) -> Text:
    """The top card of the discard pile (its last), face down or ``(none)``."""
    return pile_text(pile[-1:]) if pile else Text("(none)", style="dim")


PILE_SHOWN: Final = 6
"""How many discards, from the top down, a board lists unless it says otherwise."""


def under_the_top_text(pile: Sequence[int | None], shown: int = PILE_SHOWN) -> Text:
    """The discard pile under its top card (shown on its own), from the top down, as far
    as ``shown`` cards: the card under the top matters when both may be taken together.
    ``None`` is a card lying face down.

    >>> from umtali.kernel.cards import parse_card
    >>> str(under_the_top_text([parse_card("3s"), parse_card("5h"), parse_card("9d")]))
    'Under the top discard: 5♥ 3♠'
    """
    text = Text("Under the top discard: ")
    cards = list(reversed(pile[:-1]))
    text.append_text(pile_text(cards[:shown]))
    if len(cards) > shown:
        text.append(f" … ({len(pile)} cards in the pile)", style="dim")
    return text


def display_text(cards: Iterable[int]) -> Text:
    """Cards in the display order of a hand (spades, hearts, diamonds, clubs; high to
    low), in one run."""
    return cards_text(sorted(cards, key=display_key))
