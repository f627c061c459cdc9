"""Plays written as a playing surface: reading the learner's, and writing the engine's.

A surface is written as groups separated by commas, a group of two or more cards being
one overlapped column and a single card a solo card, e.g. ``J♠, 10♠, 4♦ 3♦ 2♦, K♣ Q♣``.
Written without commas, the cards are read as the melds the engine would lay, if that
reading is the only one.

>>> parse_surface("J♠, 10s, 4d 3d 2d")
Surface(columns=('4♦ 3♦ 2♦',), solos='10♠ J♠')
>>> surface_text(parse_surface("kc qc 4d 3d 2d 10h 10s js"))
'J♠, 10♠, 10♥, 4♦ 3♦ 2♦, K♣ Q♣'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from umtali.games.umtali.melds import hand_melds
from umtali.games.umtali.moves import column_order
from umtali.kernel.cards import ALL_CARDS, CardSet, bit, card_name, cards_of, display_key, mask_of
from umtali.learn.answers import AnswerError, in_typed_order, read_cards

__all__ = [
    "Surface",
    "card_list",
    "column_key",
    "column_names",
    "parse_surface",
    "plays_text",
    "read_ungrouped",
    "surface_text",
]


def card_list(mask: int) -> str:
    """Cards as the book lists them: spades, hearts, diamonds, clubs, high to low.

    >>> card_list(CardSet.parse("4c 6c 5d 5h 5s").mask)
    '5♠ 5♥ 5♦ 6♣ 4♣'
    """
    return " ".join(CardSet(mask).sorted_for_display())


def column_names(mask: int) -> str:
    """An overlapped column's cards top-down, as the engine lays it out.

    >>> column_names(CardSet.parse("2d 4d 3d").mask)
    '4♦ 3♦ 2♦'
    """
    return " ".join(card_name(c) for c in column_order(mask))


def column_key(mask: int) -> tuple[int, int]:
    """Columns are listed by their top cards, in the order of a hand."""
    return display_key(column_order(mask)[0])


@dataclass(frozen=True)
class Surface:
    """A playing surface as the learner wrote it.

    Attributes:
        columns: the overlapped columns (groups of two or more cards), as masks.
        solos: the solo cards, as a mask.
        read_without_commas: whether the groups were read from cards written without
            commas (see :func:`read_ungrouped`).
        typed: every card written, in the order the learner wrote them (the order his
            cards are named back to him in).
    """

    columns: tuple[int, ...]
    solos: int
    read_without_commas: bool = field(default=False, compare=False)
    typed: tuple[int, ...] = field(default=(), compare=False)

    @property
    def cards(self) -> int:
        """Every card written."""
        m = self.solos
        for c in self.columns:
            m |= c
        return m

    def __repr__(self) -> str:
        columns = tuple(column_names(c) for c in self.columns)
        return f"Surface(columns={columns!r}, solos={str(CardSet(self.solos))!r})"


def parse_surface(text: str, hand: int = ALL_CARDS) -> Surface:
    """Read plays written as comma-separated groups: a group of two or more cards is an
    overlapped column, a single card a solo card. ``none`` means nothing is played.

    Written without commas, the cards (which must all be in ``hand``) are read as melds
    wherever they make one, if that can be done in one way only (see
    :func:`read_ungrouped`).

    >>> parse_surface("K♣ Q♣, J♠ , js")
    Traceback (most recent call last):
    ...
    umtali.learn.answers.AnswerError: J♠ is written twice
    >>> parse_surface("kc qc 4d 3d 2d 10h 10s js")
    Surface(columns=('4♦ 3♦ 2♦', 'K♣ Q♣'), solos='10♥ 10♠ J♠')
    """
    if not text.strip():
        raise AnswerError("nothing was typed")
    if text.strip().lower() in ("none", "nothing"):
        return Surface((), 0)
    columns: list[int] = []
    solos = 0
    seen = 0
    typed: list[int] = []
    parts = text.replace(";", ",").split(",")
    for part in parts:
        cards = read_cards(part)
        for c in cards:
            if seen & bit(c):
                raise AnswerError(f"{card_name(c)} is written twice")
            seen |= bit(c)
            typed.append(c)
        if len(cards) == 1:
            solos |= bit(cards[0])
        elif cards:
            columns.append(mask_of(cards))
    if not seen:
        raise AnswerError("no cards were given")
    if len(parts) == 1 and len(columns) == 1:
        return replace(read_ungrouped(columns[0], hand, typed), typed=tuple(typed))
    return Surface(tuple(columns), solos, typed=tuple(typed))


def _meld_readings(cards: int, enough: int = 2) -> list[Surface]:
    """Ways to read ``cards`` as overlapped melds and solo cards, at most ``enough`` of
    them (whether there is exactly one is all that matters).

    A reading lays melds one after another as the engine offers them to a hand of these
    cards (:func:`umtali.games.umtali.melds.hand_melds`: each laid whole, R4), until the cards left, the
    solo cards, make no meld. A meld that shares no card with any other offered is in
    every reading, so all such are laid at once; only melds that share cards are choices.
    """
    found: list[Surface] = []

    def lay(left: int, laid: tuple[int, ...]) -> None:
        melds = hand_melds(left)
        if not melds:
            reading = Surface(tuple(sorted(laid, key=column_key)), left, True)
            if reading not in found:
                found.append(reading)
            return
        alone = [m for m in melds if not any(m & other for other in melds if other != m)]
        if alone:
            lay(left & ~mask_of(c for m in alone for c in cards_of(m)), (*laid, *alone))
            return
        for meld in melds:
            if len(found) >= enough:
                return
            lay(left & ~meld, (*laid, meld))

    lay(cards, ())
    return sorted(found, key=lambda s: [column_key(c) for c in s.columns])


def plays_text(solos: Sequence[int], columns: Sequence[int]) -> str:
    """Plays written the way the learner is asked to write them: the solo cards, then
    the overlapped columns, separated by commas."""
    return ", ".join([card_name(c) for c in solos] + [column_names(m) for m in columns]) or "none"


def surface_text(surface: Surface) -> str:
    """A surface written the way the learner is asked to write one."""
    return plays_text(sorted(cards_of(surface.solos), key=display_key), surface.columns)


def read_ungrouped(cards: int, hand: int = ALL_CARDS, typed: Sequence[int] = ()) -> Surface:
    """Cards written without commas, read as melds wherever they make one: accepted when
    there is exactly one such reading, else refused with the readings and the format.
    Cards not in ``hand`` are refused before any reading, named in the order ``typed``
    gives (the order the learner wrote them in).

    >>> read_ungrouped(CardSet.parse("5s 5h 5c 4c 3c").mask)
    Traceback (most recent call last):
    ...
    umtali.learn.answers.AnswerError: without commas these cards can be read in more than one way (4♣, 3♣, 5♠ 5♥ 5♣ or 5♠, 5♥, 5♣ 4♣ 3♣): put a comma between the groups, like 9♠ 8♠ 7♠, J♦, Q♦
    >>> read_ungrouped(CardSet.parse("5s 5h 5c").mask, hand=CardSet.parse("5s 5h 9d").mask)
    Traceback (most recent call last):
    ...
    umtali.learn.answers.AnswerError: 5♣ is not in your hand
    """
    foreign = in_typed_order(cards & ~hand, typed)
    if foreign:
        names = " ".join(card_name(c) for c in foreign)
        raise AnswerError(f"{names} {'is' if len(foreign) == 1 else 'are'} not in your hand")
    readings = _meld_readings(cards)
    if len(readings) == 1:
        return readings[0]
    shown = " or ".join(surface_text(r) for r in readings)
    raise AnswerError(
        f"without commas these cards can be read in more than one way ({shown}): put a"
        " comma between the groups, like 9♠ 8♠ 7♠, J♦, Q♦"
    )
