"""A side's score, column by column, as the lessons and the quiz show it.

Each line is a :class:`ScoreLine`: what the column is, its cards, the sum of their values
and its points. :func:`aligned` writes lines as text whose columns line up in a
fixed-width font, whatever the width of the cards (``10♠`` is one character wider than
``J♠``) or of the points.

>>> from umtali.kernel.cards import CardSet, parse_card
>>> from umtali.games.umtali.melds import ColumnKind
>>> from umtali.games.umtali.state import Column
>>> columns = [
...     Column(ColumnKind.SOLO, CardSet.parse("Js")),
...     Column(ColumnKind.SOLO, CardSet.parse("10s"), played_off=parse_card("Js")),
...     Column(ColumnKind.SEQUENCE, CardSet.parse("7s 6s 5s")),
...     Column(ColumnKind.GROUP, CardSet.parse("Ks Kh Kc")),
...     Column(ColumnKind.MARRIAGE, CardSet.parse("Kc Qc")),
... ]
>>> for line in aligned([score_line(column, multiplier=2) for column in columns]):
...     print(line)
solo      J♠                            5
solo      10♠ (off J♠)                  5
sequence  7♠ 6♠ 5♠         1 + 1 + 1 =  3
group     K♠ K♥ K♣         5 + 5 + 5 = 15
marriage  K♣ Q♣          (5 + 5) × 2 = 20
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from umtali.games.umtali.melds import ColumnKind, column_points
from umtali.games.umtali.state import Column
from umtali.kernel.cards import card_name, card_points

__all__ = ["ScoreLine", "aligned", "cards_line", "score_line"]


@dataclass(frozen=True)
class ScoreLine:
    """One line of a score breakdown.

    Attributes:
        what: what the line counts (``"sequence"``, ``"forfeited by Player 1"``).
        cards: its cards, as shown (a solo card with the card it was played off).
        values: the sum of the cards' values (``"1 + 1 + 1"``, ``"(5 + 5) × 2"`` for a
            marriage), ``""`` for a single card.
        points: what the line scores.
    """

    what: str
    cards: str
    values: str
    points: int

    @property
    def total(self) -> str:
        """The sum and its result in one piece: ``"5 + 5 + 5 = 15"``, ``"5"``."""
        return f"{self.values} = {self.points}" if self.values else str(self.points)


def score_line(column: Column, multiplier: int) -> ScoreLine:
    """The breakdown line of one column of the table (``multiplier``: a marriage's)."""
    cards = column.top_down()
    names = " ".join(card_name(c) for c in cards)
    points = column_points(column.kind, column.cards.mask, multiplier)
    values = " + ".join(str(card_points(c)) for c in cards)
    if column.kind is ColumnKind.MARRIAGE:
        values = f"({values}) × {multiplier}"
    elif len(cards) == 1:
        values = ""
    if column.played_off is not None:
        names += f" (off {card_name(column.played_off)})"
    return ScoreLine(column.kind.label, names, values, points)


def cards_line(what: str, cards: Sequence[int]) -> ScoreLine:
    """The breakdown line of loose cards at face value (those a player is left holding)."""
    values = " + ".join(str(card_points(c)) for c in cards) if len(cards) > 1 else ""
    points = sum(card_points(c) for c in cards)
    return ScoreLine(what, " ".join(card_name(c) for c in cards), values, points)


def aligned(lines: Sequence[ScoreLine]) -> tuple[str, ...]:
    """``lines`` as text in columns that line up: what, the cards, the sum (right-aligned,
    so that its ``=`` signs line up) and the points (right-aligned)."""
    what = max((len(line.what) for line in lines), default=0)
    cards = max((len(line.cards) for line in lines), default=0)
    values = max((len(line.values) for line in lines), default=0)
    points = max((len(str(line.points)) for line in lines), default=0)
    # A breakdown of single cards has no sums: no empty column is kept for them.
    sums = values + 3 if values else 0
    rows = []
    for line in lines:
        total = f"{line.values} =" if line.values else ""
        rows.append(
            f"{line.what:<{what}}  {line.cards:<{cards}}  {total:>{sums}} {line.points:>{points}}"
        )
    return tuple(rows)
