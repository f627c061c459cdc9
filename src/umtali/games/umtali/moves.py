"""Moves: typed :class:`Move` objects for the public API, packed ints inside the engine.

Inside, a move is one int, its *action*, so move lists are lists of ints and a move costs
no object; :class:`Move` is made on demand. The low four bits (``KIND_MASK``) hold the
:class:`MoveKind`, and the cards lie above them, in fields named by this module's
constants. A card field is six bits (read with ``& CARD_FIELD``); ``NO_CARD`` in it names
no card. By kind:

========================  ===================================================================
kind                      fields above the kind
========================  ===================================================================
keep, give, draw, forfeit none
take                      the top discard at ``CARD_SHIFT`` (``NO_CARD``: ``take`` as typed,
                          which the state completes)
take two                  the top discard at ``CARD_SHIFT``, the one below it at
                          ``SECOND_SHIFT``
meld                      the meld's 52-bit card mask at ``CARD_SHIFT`` (bits 4-55)
solo                      the card at ``CARD_SHIFT``, the card it is played off at
                          ``SECOND_SHIFT`` (``NO_CARD`` for a Jack, played off nothing:
                          ``JACK_SOLO``)
discard                   the card at ``CARD_SHIFT``; ``DISCARD_FACE_DOWN`` (bit 10) when it
                          is laid face down
pair                      the pair's (or, seed 003, the two-card run's) card mask at
                          ``CARD_SHIFT`` (bits 4-55); its discard at
                          ``PAIR_DISCARD_SHIFT`` (bits 56-61; ``NO_CARD``: none);
                          ``PAIR_FACE_DOWN`` (bit 62) when the discard is laid face down
========================  ===================================================================

>>> from umtali.kernel.cards import parse_card
>>> solo = Move.solo(parse_card("10d"), parse_card("Jd")).action
>>> MoveKind(solo & KIND_MASK), solo >> CARD_SHIFT & CARD_FIELD, solo >> SECOND_SHIFT & CARD_FIELD
(<MoveKind.SOLO: 6>, 22, 23)

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
umtali.games.umtali.moves.InvalidMoveError: a meld has 2 to 10 different cards (a marriage, a group or a sequence), not 1
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import IntEnum
from itertools import islice
from typing import Final, Protocol

from umtali.kernel.cards import (
    ALL_CARDS,
    card_ascii,
    card_name,
    cards_of,
    is_card,
    mask_of,
    quoted,
    rank_of,
    suit_of,
)
from umtali.kernel.players import player_name

__all__ = [
    "CARD_FIELD",
    "CARD_SHIFT",
    "DISCARD_FACE_DOWN",
    "JACK_SOLO",
    "KIND_MASK",
    "MAX_MELD_CARDS",
    "NO_CARD",
    "PAIR_DISCARD_SHIFT",
    "PAIR_FACE_DOWN",
    "PAIR_FACE_DOWN_SHIFT",
    "SECOND_SHIFT",
    "THIRD_PERSON",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "MoveKind",
    "Refusal",
    "Voice",
    "column_order",
]

# -- the action layout (the table in the module docstring) ------------------------------------
KIND_MASK: Final = 0xF
"""The kind of an action: ``MoveKind(action & KIND_MASK)``."""
CARD_SHIFT: Final = 4
"""Where an action's first card, or its card mask (a meld's, a pair's), begins."""
SECOND_SHIFT: Final = 10
"""Where an action's second card begins: a take-two's lower card, a solo's target."""
CARD_FIELD: Final = 63
"""The six bits of one card in an action: ``action >> CARD_SHIFT & CARD_FIELD``."""
NO_CARD: Final = 63
"""A card field that names no card: a Jack's target, a pair without a discard, ``take``
as typed. No card id is 63, so it cannot be mistaken for one."""
PAIR_DISCARD_SHIFT: Final = 56
"""Where a pair's discard begins, above the pair's 52-bit mask."""
PAIR_FACE_DOWN_SHIFT: Final = 62
"""The bit that lays a pair's discard face down."""
PAIR_FACE_DOWN: Final = 1 << PAIR_FACE_DOWN_SHIFT
"""A pair's discard lies face down."""
DISCARD_FACE_DOWN: Final = 1 << SECOND_SHIFT
"""A discard lies face down (it has no second card, so its flag takes that field)."""
JACK_SOLO: Final = NO_CARD << SECOND_SHIFT
"""The target field of a Jack's solo: played off nothing."""


class InvalidMoveError(ValueError):
    """Text or data that is not a move at all: no notation could write it."""


class IllegalMoveError(ValueError):
    """A move the rules do not allow now; the message names the rule.

    Attributes:
        refusal: the same as data (the rule, a code, the cards), when the engine refused
            the move; ``None`` for an error raised with a message alone.
    """

    def __init__(self, message: str, refusal: Refusal | None = None) -> None:
        super().__init__(message)
        self.refusal = refusal


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
    PAIR = 8  # go out with a pair (R6) or a two-card run (seed 003), with or without a discard
    FORFEIT = 9  # end the last turn without going out: the hand is forfeited (R7)


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

    >>> from umtali.kernel.cards import parse_card
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
        :meth:`umtali.games.umtali.state.HandState.resolve` (or ``push``) completes."""
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
            return k | (self.cards[0] if self.cards else NO_CARD) << CARD_SHIFT
        if k is MoveKind.TAKE_TWO:
            return k | self.cards[0] << CARD_SHIFT | self.cards[1] << SECOND_SHIFT
        if k is MoveKind.MELD:
            return k | mask_of(self.cards) << CARD_SHIFT
        if k is MoveKind.SOLO:
            off = NO_CARD if self.target is None else self.target
            return k | self.cards[0] << CARD_SHIFT | off << SECOND_SHIFT
        if k is MoveKind.DISCARD:
            down = DISCARD_FACE_DOWN if self.face_down else 0
            return k | self.cards[0] << CARD_SHIFT | down
        discard = NO_CARD if self.discard is None else self.discard
        down = PAIR_FACE_DOWN if self.face_down else 0
        return k | mask_of(self.cards) << CARD_SHIFT | discard << PAIR_DISCARD_SHIFT | down

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
        umtali.games.umtali.moves.InvalidMoveError: 899 is not a move action: a card id is an int 0..51, not 56
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
        kind = action & KIND_MASK
        if kind > MoveKind.FORFEIT:
            raise InvalidMoveError(f"its low four bits, {kind}, are no move kind")
        k = MoveKind(kind)
        if k in _CARDLESS:
            return cls(k)
        card = action >> CARD_SHIFT & CARD_FIELD
        second = action >> SECOND_SHIFT & CARD_FIELD
        if k is MoveKind.TAKE:
            return cls.take(None if card == NO_CARD else card)
        if k is MoveKind.TAKE_TWO:
            return cls.take_two(card, second)
        if k is MoveKind.SOLO:
            return cls.solo(card, None if second == NO_CARD else second)
        if k is MoveKind.DISCARD:
            return cls.discard_card(card, bool(action & DISCARD_FACE_DOWN))
        mask = action >> CARD_SHIFT & ALL_CARDS
        if k is MoveKind.MELD:
            # At most one card more than a meld holds, so a hostile mask is not listed whole.
            return cls.meld(islice(cards_of(mask), MAX_MELD_CARDS + 1))
        pair = cards_of(mask)
        if len(pair) != 2:
            raise InvalidMoveError(f"a pair is two different cards, not {len(pair)}")
        discard = action >> PAIR_DISCARD_SHIFT & CARD_FIELD
        return cls.pair(
            pair[0], pair[1], None if discard == NO_CARD else discard, bool(action & PAIR_FACE_DOWN)
        )

    # -- text -------------------------------------------------------------------------
    def text(self, ascii: bool = False) -> str:
        """The move in notation (see :mod:`umtali.games.umtali.notation`); ``ascii`` writes ``Ks`` for ``K♠``.

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
        # Seed 003 lets a player go out with two cards in a row of a suit: a run, not a pair.
        verb = "pair" if rank_of(self.cards[0]) == rank_of(self.cards[1]) else "run"
        text = f"{verb} {cards}"
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


# -- refusals ----------------------------------------------------------------------------------
class Voice(Protocol):
    """How a refusal speaks of the player to move. The core speaks of him in the third
    person (:data:`THIRD_PERSON`); a front end that addresses him as "you" brings its own
    voice (:func:`umtali.games.umtali.describe.explain_illegal`)."""

    def subject(self, name: str, verb: str) -> str:
        """``name`` with ``verb`` (written for "he"), inside a sentence."""
        ...

    def possessive(self, name: str) -> str:
        """``name``'s, inside a sentence."""
        ...


class _ThirdPerson:
    def subject(self, name: str, verb: str) -> str:
        return f"{name} {verb}"

    def possessive(self, name: str) -> str:
        return f"{name}'s"


THIRD_PERSON: Final[Voice] = _ThirdPerson()
"""The core's voice: "Player 2 is", "Player 2's"."""


@dataclass(frozen=True)
class Refusal:
    """Why the rules refuse a move now, as data: :func:`umtali.games.umtali.reasons.refusal` works it
    out, and an :class:`IllegalMoveError` from the engine carries it.

    >>> from umtali.kernel.cards import parse_card
    >>> why = Refusal(Move.draw(), 1, "no_opening_draw", ("R2",),
    ...               template="the opening turn has no draw {rules}")
    >>> why.text()
    "'draw' is not allowed now: the opening turn has no draw (R2)"
    >>> Refusal(Move.discard_card(parse_card("Qh")), 0, "not_in_hand",
    ...         cards=(parse_card("Qh"),), template="Q♥ is not in {mover's} hand").text()
    "'discard Q♥' is not allowed now: Q♥ is not in Player 1's hand"

    Attributes:
        move: the move refused, as the state completed it (``take`` with no card stays as
            typed when there is no face-up discard to complete it with).
        player: the player to move (who would have made it).
        code: a short stable name for the reason, such as ``"not_in_hand"``: what a front
            end tests, where the wording may change.
        rules: the rulings the move breaks, such as ``("R4",)``; empty when it breaks a
            plain fact (the hand is over) or an option of these rules.
        cards: the cards the reason names (those not in hand, those that extend a meld, ...).
        template: the reason in words, with slots for what depends on the reader: the
            player to move as a subject (``{mover is}``, any verb written for "he") or an
            owner (``{mover's}``), and ``{rules}`` for the rulings in brackets.
        head: how the sentence names what is refused, when it is the card rather than the
            move ("9♦ cannot be played off Q♠"); ``None``: the move, as notation.
    """

    move: Move
    player: int
    code: str
    rules: tuple[str, ...] = ()
    cards: tuple[int, ...] = ()
    template: str = ""
    head: str | None = None

    def text(
        self,
        names: tuple[str, str] | None = None,
        move_name: str | None = None,
        voice: Voice = THIRD_PERSON,
    ) -> str:
        """The refusal in one sentence. ``names`` are what the two players are called (by
        default "Player 1" and "Player 2"), ``move_name`` what the move is called (by
        default its notation in quotes), ``voice`` how the player to move is spoken of.
        """
        reason = self.reason(names, voice)
        if self.head is not None:
            return f"{self.head}: {reason}"
        named = f"'{self.move}'" if move_name is None else move_name
        return f"{named} is not allowed now: {reason}"

    def reason(
        self,
        names: tuple[str, str] | None = None,
        voice: Voice = THIRD_PERSON,
        *,
        cite: bool = True,
    ) -> str:
        """The reason alone, after the colon of :meth:`text`; ``cite`` false: without the
        rulings in brackets (a front end links to them instead).

        >>> why = Refusal(Move.draw(), 1, "no_opening_draw", ("R2",),
        ...               template="the opening turn has no draw {rules}; draw next turn")
        >>> why.reason(), why.reason(cite=False)
        ('the opening turn has no draw (R2); draw next turn', 'the opening turn has no draw; draw next turn')
        """
        name = names[self.player] if names is not None else player_name(self.player)
        reason = self.template.format_map(_Slots(name, voice, self.rules if cite else ()))
        return _UNCITED.sub("", reason).strip() if not cite else reason

    def error(self) -> IllegalMoveError:
        """The error that refuses the move, with this refusal's text and itself."""
        return IllegalMoveError(self.text(), self)

    def __str__(self) -> str:
        return self.text()


_UNCITED: Final = re.compile(r"\s+(?=[;:,.]|$)|(?<=\s)\s+")
"""The spaces a left-out ``{rules}`` slot leaves: before punctuation, at the end, doubled."""


class _Slots(dict[str, str]):
    """The values of a refusal's template slots, made as the template asks for them."""

    def __init__(self, name: str, voice: Voice, rules: tuple[str, ...]) -> None:
        super().__init__()
        self.name = name
        self.voice = voice
        self.rules = rules

    def __missing__(self, slot: str) -> str:
        if slot == "rules":
            return f"({', '.join(self.rules)})" if self.rules else ""
        if slot == "mover's":
            return self.voice.possessive(self.name)
        verb = slot.removeprefix("mover ")
        if verb == slot:
            raise KeyError(slot)
        return self.voice.subject(self.name, verb)
