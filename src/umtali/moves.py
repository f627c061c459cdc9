"""Moves: typed :class:`Move` objects for the public API, packed ints inside the engine.

Inside, a move is one int: its kind in the low four bits and its cards above, so move
lists are lists of ints and a move costs no object. :class:`Move` is made on demand.

>>> from umtali.cards import parse_card
>>> m = Move.solo(parse_card("10d"), parse_card("Jd"))
>>> m, Move.from_action(m.action) == m
(Move.solo(10♦, off=J♦), True)
>>> Move.pair(parse_card("3s"), parse_card("3d"), discard=parse_card("2d"), face_down=True)
Move.pair(3♠ 3♦, discard=2♦, face_down=True)

A move is checked when it is made, so every :class:`Move` is one that notation can write:
card ids are ints 0..51, a meld has 2 to 10 different cards, and so on. Anything else
raises :class:`InvalidMoveError`, and :meth:`Move.from_action` refuses an int that packs
no such move.

>>> Move.meld([parse_card("7s")])
Traceback (most recent call last):
...
umtali.moves.InvalidMoveError: a meld has 2 to 10 different cards (a marriage, a group or a sequence), not 1
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum
from itertools import islice
from typing import Final

from umtali.cards import (
    card_ascii,
    card_name,
    cards_of,
    is_card,
    mask_of,
    quoted,
    rank_of,
    suit_of,
)

__all__ = [
    "MAX_MELD_CARDS",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "MoveKind",
    "column_order",
]


class InvalidMoveError(ValueError):
    """Text or data that is not a move at all: no notation could write it."""


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
_CARDS52: Final = (1 << 52) - 1
MAX_MELD_CARDS: Final = 10
"""The most cards one meld holds: a sequence A..10 (a group has at most 4)."""
_CARDLESS: Final = frozenset({MoveKind.KEEP, MoveKind.GIVE, MoveKind.DRAW, MoveKind.FORFEIT})


def _card_tuple(cards: object, most: int) -> tuple[int, ...]:
    """``cards`` as a tuple, reading at most ``most`` + 1 items (enough to say "too many"
    without walking a hostile iterable to its end)."""
    if type(cards) is tuple:
        return cards[: most + 1]
    if isinstance(cards, (str, bytes)):  # iterable, but its items are characters
        raise InvalidMoveError(
            f"a move's cards are card ids, not the text {quoted(cards)}:"
            " read notation with parse_move"
        )
    try:
        return tuple(islice(cards, most + 1))  # type: ignore[call-overload]
    except TypeError:
        raise InvalidMoveError(f"a move's cards are card ids, not {quoted(cards)}") from None


def _how_many(n: int) -> str:
    """A count of cards as read by :func:`_card_tuple`, which stops one past a meld."""
    return f"more than {MAX_MELD_CARDS}" if n > MAX_MELD_CARDS else str(n)


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
    """A move. Build one with the class methods; ``action`` is its packed int. A move
    is checked as it is made: one that notation could not write raises
    :class:`InvalidMoveError`.

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

    def __post_init__(self) -> None:
        # Every move is checked where it is made, so the engine, the notation and the
        # explanations never meet a card they cannot name. The engine's own moves are
        # made once per action (see from_action), so this costs play nothing.
        kind = self.kind
        if type(kind) is not MoveKind:
            raise InvalidMoveError(f"a move's kind is a MoveKind, not {quoted(kind)}")
        cards = _card_tuple(self.cards, MAX_MELD_CARDS)
        for c in cards:
            if not is_card(c):
                raise InvalidMoveError(f"a card id is an int 0..51, not {quoted(c)}")
        if type(self.face_down) is not bool:
            raise InvalidMoveError(f"face_down is True or False, not {quoted(self.face_down)}")
        verb = _VERBS[kind]
        if self.target is not None and kind is not MoveKind.SOLO:
            raise InvalidMoveError(f"only a solo is played off a card, not {verb}")
        if self.discard is not None and kind is not MoveKind.PAIR:
            raise InvalidMoveError(f"only a pair carries a discard, not {verb}")
        if self.face_down and kind not in (MoveKind.DISCARD, MoveKind.PAIR):
            raise InvalidMoveError(f"only a discard lies face down, not {verb}")
        n = len(cards)
        if kind in _CARDLESS:
            if n:
                raise InvalidMoveError(f"{verb} names no cards")
        elif kind is MoveKind.TAKE:
            if n > 1:
                raise InvalidMoveError(
                    "a take names one card, the top discard (or none: the state fills it in);"
                    " two are take_two"
                )
        elif kind is MoveKind.TAKE_TWO:
            if n != 2 or cards[0] == cards[1]:
                raise InvalidMoveError("take_two names two different cards, the top one first")
        elif kind is MoveKind.MELD:
            if not 2 <= n <= MAX_MELD_CARDS:
                raise InvalidMoveError(
                    f"a meld has 2 to {MAX_MELD_CARDS} different cards (a marriage, a group or a"
                    f" sequence), not {_how_many(n)}"
                )
            mask = mask_of(cards)
            if mask.bit_count() != n:
                raise InvalidMoveError("a card appears twice in the meld")
            cards = tuple(column_order(mask))
        elif kind is MoveKind.SOLO:
            if n != 1:
                raise InvalidMoveError(f"a solo plays one card, not {_how_many(n)}")
            target = self.target
            if target is not None and not is_card(target):
                raise InvalidMoveError(
                    f"a solo is played off a card id 0..51 or None, not {quoted(target)}"
                )
            if target == cards[0]:
                raise InvalidMoveError("a card cannot be played off itself")
        elif kind is MoveKind.DISCARD:
            if n != 1:
                raise InvalidMoveError(f"a discard is one card, not {_how_many(n)}")
        else:  # MoveKind.PAIR
            if n != 2 or cards[0] == cards[1]:
                raise InvalidMoveError("a pair is two different cards")
            discard = self.discard
            if discard is not None:
                if not is_card(discard):
                    raise InvalidMoveError(
                        f"a pair's discard is a card id 0..51 or None, not {quoted(discard)}"
                    )
                if discard in cards:
                    raise InvalidMoveError("the pair and its discard must be three different cards")
            elif self.face_down:
                # face_down is said of the discard: with none, nothing lies face down.
                object.__setattr__(self, "face_down", False)
            cards = tuple(column_order(1 << cards[0] | 1 << cards[1]))
        if cards is not self.cards:
            object.__setattr__(self, "cards", cards)

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
    def take(cls, card: int | None = None) -> Move:
        """Take ``card``, the top discard; with no card, ``take`` as typed, which
        :meth:`umtali.state.HandState.resolve` (or ``push``) completes."""
        return cls(MoveKind.TAKE, () if card is None else (card,))

    @classmethod
    def take_two(cls, top: int, second: int) -> Move:
        return cls(MoveKind.TAKE_TWO, (top, second))

    @classmethod
    def meld(cls, cards: Iterable[int]) -> Move:
        """Lay ``cards`` (2 to 10 different card ids, in any order) as one column."""
        return cls(MoveKind.MELD, _card_tuple(cards, MAX_MELD_CARDS))

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
        """Go out with the pair ``first`` ``second``, discarding ``discard`` first if
        given, face down if ``face_down`` (which says nothing without a discard)."""
        return cls(MoveKind.PAIR, (first, second), discard=discard, face_down=face_down)

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
        if k in _CARDLESS:
            return int(k)
        if k is MoveKind.TAKE:
            # 'take' as typed packs with no card, like a Jack's solo off nothing: an
            # action no state lists as legal, which resolve completes.
            return k | (self.cards[0] if self.cards else _NO_CARD) << 4
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
        """The move of a packed int; :class:`InvalidMoveError` if it packs none. Moves are
        immutable, so each action's move is made once and shared (views and bots turn
        every legal action into a move).

        >>> Move.from_action(Move.solo(35, off=23).action)
        Move.solo(10♥, off=J♦)
        >>> Move.from_action(899)
        Traceback (most recent call last):
        ...
        umtali.moves.InvalidMoveError: 899 is not a move action: a card id is an int 0..51, not 56
        """
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
        if type(action) is not int or action < 0:
            raise InvalidMoveError(f"{quoted(action)} is not a move action: actions are ints >= 0")
        try:
            move = cls._unpack(action)
        except InvalidMoveError as e:
            raise InvalidMoveError(f"{quoted(action)} is not a move action: {e}") from None
        if move.action != action:  # stray bits: no move packs to this int
            raise InvalidMoveError(f"{quoted(action)} is not a move action: it has stray bits")
        return move

    @classmethod
    def _unpack(cls, action: int) -> Move:
        kind = action & _KIND_MASK
        if kind > MoveKind.FORFEIT:
            raise InvalidMoveError(f"its low four bits, {kind}, are no move kind")
        k = MoveKind(kind)
        if k in _CARDLESS:
            return cls(k)
        if k is MoveKind.TAKE:
            card = action >> 4 & 63
            return cls.take(None if card == _NO_CARD else card)
        if k is MoveKind.TAKE_TWO:
            return cls.take_two(action >> 4 & 63, action >> 10 & 63)
        if k is MoveKind.MELD:
            # At most one card more than a meld holds, so a hostile mask is not listed whole.
            return cls.meld(islice(cards_of(action >> 4 & _CARDS52), MAX_MELD_CARDS + 1))
        if k is MoveKind.SOLO:
            off = action >> 10 & 63
            return cls.solo(action >> 4 & 63, None if off == _NO_CARD else off)
        if k is MoveKind.DISCARD:
            return cls.discard_card(action >> 4 & 63, bool(action >> 10 & 1))
        pair = cards_of(action >> 4 & _CARDS52)
        if len(pair) != 2:
            raise InvalidMoveError(f"a pair is two different cards, not {len(pair)}")
        discard = action >> 56 & 63
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
        if k in _CARDLESS:
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


_VERBS: Final = {
    MoveKind.KEEP: "'keep'",
    MoveKind.GIVE: "'give'",
    MoveKind.DRAW: "'draw'",
    MoveKind.TAKE: "'take'",
    MoveKind.TAKE_TWO: "a take of two",
    MoveKind.MELD: "a meld",
    MoveKind.SOLO: "a solo",
    MoveKind.DISCARD: "a discard",
    MoveKind.PAIR: "a pair",
    MoveKind.FORFEIT: "'forfeit'",
}
"""How a message names each kind of move."""

_MOVES_BY_ACTION: dict[int, Move] = {}
_MOVE_CACHE_LIMIT: Final = 1 << 16
"""Distinct actions seen in play number a few thousand; the limit only guards memory."""
