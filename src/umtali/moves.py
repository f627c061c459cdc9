"""Moves: typed :class:`Move` objects for the public API, packed ints inside the engine.

Inside, a move is one int: its kind in the low four bits and its cards above, so move
lists are lists of ints and a move costs no object. :class:`Move` is made on demand.

>>> from umtali.cards import parse_card
>>> m = Move.solo(parse_card("10d"), parse_card("Jd"))
>>> m, Move.from_action(m.action) == m
(Move.solo(10♦, off=J♦), True)
>>> Move.pair(parse_card("3s"), parse_card("3d"), discard=parse_card("2d"), face_down=True)
Move.pair(3♠ 3♦, discard=2♦, face_down=True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Final

from umtali.cards import card_ascii, card_name, cards_of, mask_of, rank_of, suit_of

__all__ = [
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "MoveKind",
    "column_order",
]


class InvalidMoveError(ValueError):
    """Text or data that is not a move at all."""


class IllegalMoveError(ValueError):
    """A move the rules do not allow now; the message names the rule."""


class MoveKind(IntEnum):
    """What a move does. The value is the low four bits of the move's action int."""

    KEEP = 0  # the dealer keeps the 11th card (R1)
    GIVE = 1  # the dealer gives the 11th card to the opponent (R1)
    DRAW = 2  # draw the top card of the stock (R3)
    TAKE = 3  # take the top card of the discard pile (R3)
    TAKE_TWO = 4  # take the top two cards of the discard pile (R3)
    MELD = 5  # lay an overlapped sequence, group or marriage (R4)
    SOLO = 6  # play a solo card: a Jack, or a proper addition off a table card (R4)
    DISCARD = 7  # end the turn with a discard, face up or (going out) face down (R5)
    PAIR = 8  # go out with a pair, with or without a discard (R6)
    FORFEIT = 9  # end the last turn without going out: the hand is forfeited (R7)


_KIND_MASK: Final = 0xF
_NO_CARD: Final = 63


def column_order(mask: int) -> list[int]:
    """Cards of a column top-down as the book lays them: highest rank first, and within a
    rank spades, hearts, diamonds, clubs.

    >>> from umtali.cards import parse_card
    >>> [card_name(c) for c in column_order(mask_of(parse_card(t) for t in "3c 3s 3d".split()))]
    ['3♠', '3♦', '3♣']
    """
    return sorted(cards_of(mask), key=lambda c: (-rank_of(c), -suit_of(c)))


@dataclass(frozen=True, slots=True)
class Move:
    """A move. Build one with the class methods; ``action`` is its packed int.

    Attributes:
        kind: what the move does.
        cards: the cards it concerns: the taken card(s), the meld's cards top-down, the
            solo card, the discard, or the pair.
        target: for a solo, the table card it is played off (``None`` for a Jack).
        discard: for a pair, the card discarded with it, if any.
        face_down: for a discard (or a pair's discard), whether it is laid face down.
    """

    kind: MoveKind
    cards: tuple[int, ...] = ()
    target: int | None = None
    discard: int | None = None
    face_down: bool = False
    # The packed action once known (see ``action``); not part of the move's identity.
    _packed: int = field(default=-1, init=False, repr=False, compare=False)

    # -- constructors -------------------------------------------------------------
    @classmethod
    def keep(cls) -> Move:
        return cls(MoveKind.KEEP)

    @classmethod
    def give(cls) -> Move:
        return cls(MoveKind.GIVE)

    @classmethod
    def draw(cls) -> Move:
        return cls(MoveKind.DRAW)

    @classmethod
    def take(cls, card: int) -> Move:
        return cls(MoveKind.TAKE, (card,))

    @classmethod
    def take_two(cls, top: int, second: int) -> Move:
        return cls(MoveKind.TAKE_TWO, (top, second))

    @classmethod
    def meld(cls, cards: Iterable[int]) -> Move:
        return cls(MoveKind.MELD, tuple(column_order(mask_of(cards))))

    @classmethod
    def solo(cls, card: int, off: int | None = None) -> Move:
        return cls(MoveKind.SOLO, (card,), target=off)

    @classmethod
    def discard_card(cls, card: int, face_down: bool = False) -> Move:
        return cls(MoveKind.DISCARD, (card,), face_down=face_down)

    @classmethod
    def pair(
        cls, first: int, second: int, discard: int | None = None, face_down: bool = False
    ) -> Move:
        return cls(
            MoveKind.PAIR,
            tuple(column_order((1 << first) | (1 << second))),
            discard=discard,
            face_down=face_down,
        )

    @classmethod
    def forfeit(cls) -> Move:
        return cls(MoveKind.FORFEIT)

    # -- packed form ----------------------------------------------------------------
    @property
    def action(self) -> int:
        """The packed int the engine uses for this move (worked out once per move)."""
        packed = self._packed
        if packed < 0:
            packed = self._pack()
            object.__setattr__(self, "_packed", packed)
        return packed

    def _pack(self) -> int:
        k = self.kind
        if k in (MoveKind.KEEP, MoveKind.GIVE, MoveKind.DRAW, MoveKind.FORFEIT):
            return int(k)
        if k is MoveKind.TAKE:
            return k | self.cards[0] << 4
        if k is MoveKind.TAKE_TWO:
            return k | self.cards[0] << 4 | self.cards[1] << 10
        if k is MoveKind.MELD:
            return k | mask_of(self.cards) << 4
        if k is MoveKind.SOLO:
            off = _NO_CARD if self.target is None else self.target
            return k | self.cards[0] << 4 | off << 10
        if k is MoveKind.DISCARD:
            return k | self.cards[0] << 4 | int(self.face_down) << 10
        discard = _NO_CARD if self.discard is None else self.discard
        return k | mask_of(self.cards) << 4 | discard << 56 | int(self.face_down) << 62

    @classmethod
    def from_action(cls, action: int) -> Move:
        """The move of a packed int. Moves are immutable, so each action's move is made
        once and shared (views and bots turn every legal action into a move)."""
        if type(action) is int:
            move = _MOVES_BY_ACTION.get(action)
            if move is None:
                move = cls._decode(action)
                if len(_MOVES_BY_ACTION) >= _MOVE_CACHE_LIMIT:
                    _MOVES_BY_ACTION.clear()
                _MOVES_BY_ACTION[action] = move
            return move
        return cls._decode(action)

    @classmethod
    def _decode(cls, action: int) -> Move:
        move = cls._unpack(action)
        if move.action != action:  # stray bits: no move packs to this int
            raise InvalidMoveError(f"{action!r} is not a move action")
        return move

    @classmethod
    def _unpack(cls, action: int) -> Move:
        if not isinstance(action, int) or action < 0:
            raise InvalidMoveError(f"{action!r} is not a move action")
        try:
            k = MoveKind(action & _KIND_MASK)
        except ValueError:
            raise InvalidMoveError(f"{action!r} is not a move action") from None
        if k in (MoveKind.KEEP, MoveKind.GIVE, MoveKind.DRAW, MoveKind.FORFEIT):
            return cls(k)
        if k is MoveKind.TAKE:
            return cls.take(action >> 4 & 63)
        if k is MoveKind.TAKE_TWO:
            return cls.take_two(action >> 4 & 63, action >> 10 & 63)
        if k is MoveKind.MELD:
            return cls.meld(cards_of(action >> 4))
        if k is MoveKind.SOLO:
            off = action >> 10 & 63
            return cls.solo(action >> 4 & 63, None if off == _NO_CARD else off)
        if k is MoveKind.DISCARD:
            return cls.discard_card(action >> 4 & 63, bool(action >> 10 & 1))
        pair = cards_of(action >> 4 & ((1 << 52) - 1))
        discard = action >> 56 & 63
        if len(pair) != 2:
            raise InvalidMoveError(f"{action!r} is not a move action")
        return cls.pair(
            pair[0], pair[1], None if discard == _NO_CARD else discard, bool(action >> 62 & 1)
        )

    # -- text -------------------------------------------------------------------------
    def text(self, ascii: bool = False) -> str:
        """The move in notation (see :mod:`umtali.notation`); ``ascii`` writes ``Ks`` for ``K♠``.

        >>> Move.discard_card(37, face_down=True).text(), Move.meld([12, 11, 10]).text(ascii=True)
        ('discard Q♥ down', 'meld Kc Qc Jc')
        """
        name = card_ascii if ascii else card_name
        k = self.kind
        if k in (MoveKind.KEEP, MoveKind.GIVE, MoveKind.DRAW, MoveKind.FORFEIT):
            return k.name.lower()
        cards = " ".join(name(c) for c in self.cards)
        if k in (MoveKind.TAKE, MoveKind.TAKE_TWO):
            return f"take {cards}".rstrip()
        if k is MoveKind.MELD:
            return f"meld {cards}"
        if k is MoveKind.SOLO:
            return (
                f"play {cards}" if self.target is None else f"play {cards} off {name(self.target)}"
            )
        if k is MoveKind.DISCARD:
            return f"discard {cards}" + (" down" if self.face_down else "")
        text = f"pair {cards}"
        if self.discard is not None:
            text += f" discard {name(self.discard)}" + (" down" if self.face_down else "")
        return text

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        names = " ".join(card_name(c) for c in self.cards)
        k = self.kind
        if k is MoveKind.SOLO:
            off = "" if self.target is None else f", off={card_name(self.target)}"
            return f"Move.solo({names}{off})"
        if k is MoveKind.DISCARD:
            down = ", face_down=True" if self.face_down else ""
            return f"Move.discard_card({names}{down})"
        if k is MoveKind.PAIR:
            extra = "" if self.discard is None else f", discard={card_name(self.discard)}"
            down = ", face_down=True" if self.face_down else ""
            return f"Move.pair({names}{extra}{down})"
        if names:
            return f"Move.{k.name.lower()}({names})"
        return f"Move.{k.name.lower()}()"


_MOVES_BY_ACTION: dict[int, Move] = {}
_MOVE_CACHE_LIMIT: Final = 1 << 16
"""Distinct actions seen in play number a few thousand; the limit only guards memory."""
