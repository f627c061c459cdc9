"""Cards as small ints and sets of cards as 52-bit masks.

A card id is ``suit * 13 + rank - 1`` with ranks A=1 … 10, J=11, Q=12, K=13 and suits
in the order clubs, diamonds, hearts, spades. Each suit therefore owns 13 consecutive
bits of a card-set mask, ace lowest, so a run of one suit is a run of set bits and
"the next card of the suit" is a one-bit shift.

>>> card = parse_card("10h")
>>> card, card_name(card), card_ascii(card)
(35, '10♥', '10h')
>>> CardSet.parse("Ks Qs 3c")
CardSet('3♣ Q♠ K♠')
>>> rank_of(parse_card("K♠")), suit_of(parse_card("K♠"))
(13, 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

__all__ = [
    "ACE",
    "ALL_CARDS",
    "CLUBS",
    "DIAMONDS",
    "HEARTS",
    "JACK",
    "JACKS",
    "KING",
    "KINGS",
    "QUEEN",
    "QUEENS",
    "RANK_MASKS",
    "SPADES",
    "SUIT_MASKS",
    "CardSet",
    "InvalidCardError",
    "bit",
    "card_ascii",
    "card_name",
    "card_points",
    "cards_of",
    "display_key",
    "is_card",
    "make_card",
    "mask_of",
    "parse_card",
    "parse_cards",
    "quoted",
    "rank_of",
    "suit_of",
]

Card = int
"""A card id, 0..51."""

CLUBS: Final = 0
DIAMONDS: Final = 1
HEARTS: Final = 2
SPADES: Final = 3

ACE: Final = 1
JACK: Final = 11
QUEEN: Final = 12
KING: Final = 13

SUIT_SYMBOLS: Final = "♣♦♥♠"
SUIT_LETTERS: Final = "cdhs"
RANK_NAMES: Final = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")

ALL_CARDS: Final = (1 << 52) - 1
SUIT_MASKS: Final = tuple(0x1FFF << (13 * s) for s in range(4))
"""SUIT_MASKS[s]: every card of suit s."""
RANK_MASKS: Final = (0, *tuple(sum(1 << 13 * s + r - 1 for s in range(4)) for r in range(1, 14)))
"""RANK_MASKS[r]: the four cards of rank r (index 0 is unused)."""
JACKS: Final = RANK_MASKS[JACK]
QUEENS: Final = RANK_MASKS[QUEEN]
KINGS: Final = RANK_MASKS[KING]


class InvalidCardError(ValueError):
    """Text or a value that names no card."""


QUOTE_LIMIT: Final = 40
"""How many characters of an input an error message quotes at most."""


def quoted(value: object, limit: int = QUOTE_LIMIT, *, bare: bool = False) -> str:
    """``value`` as an error message quotes it: its repr, cut after ``limit`` characters
    of the input with an ellipsis, so that input of megabytes still gets a one-line
    message. An int too long to print is described by its size instead. ``bare``: text
    cut the same way but shown as it is, without the repr's quotes and escapes (for a
    front end that escapes it for its own screen).

    >>> quoted("meld 7s"), quoted(None), quoted(-3)
    ("'meld 7s'", 'None', '-3')
    >>> quoted("take " + "Ks " * 100_000)
    "'take Ks Ks Ks Ks Ks Ks Ks Ks Ks Ks Ks Ks…'"
    >>> quoted(10**5000)
    'a whole number of 16610 bits'
    >>> quoted("x" * 6000, 10, bare=True), quoted("x", bare=True)
    ('xxxxxxxxxx…', 'x')
    """
    if isinstance(value, str):
        # Cut before repr: a repr of the whole input would cost its full length again.
        cut = value if len(value) <= limit else value[:limit] + "…"
        return cut if bare else repr(cut)
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        # Python refuses to print ints of more than 4300 digits; no one needs to read them.
        return f"a whole number of {value.bit_length()} bits"
    try:
        text = repr(value)
    except Exception:  # a hostile __repr__, or a huge int inside a container
        return f"a {type(value).__name__}"
    return text if len(text) <= limit else text[:limit] + "…"


def is_card(value: object) -> bool:
    """Whether ``value`` is a card id: a plain int 0..51 (``True`` and ``1.0`` are not).

    >>> is_card(51), is_card(52), is_card(True)
    (True, False, False)
    """
    return type(value) is int and 0 <= value < 52


def make_card(rank: int, suit: int) -> Card:
    """The id of the card of ``rank`` (1..13) and ``suit`` (0..3).

    >>> card_name(make_card(QUEEN, HEARTS))
    'Q♥'
    >>> make_card(14, 0)
    Traceback (most recent call last):
    ...
    umtali.kernel.cards.InvalidCardError: no card has rank 14 and suit 0: a rank is 1..13 and a suit 0..3
    """
    if not (type(rank) is int and 1 <= rank <= 13 and type(suit) is int and 0 <= suit <= 3):
        raise InvalidCardError(
            f"no card has rank {quoted(rank)} and suit {quoted(suit)}:"
            " a rank is 1..13 and a suit 0..3"
        )
    return suit * 13 + rank - 1


def rank_of(card: Card) -> int:
    """Rank 1..13 (A..K)."""
    return card % 13 + 1


def suit_of(card: Card) -> int:
    """Suit 0..3 (clubs, diamonds, hearts, spades)."""
    return card // 13


def bit(card: Card) -> int:
    """The one-card mask of ``card``."""
    return 1 << card


_POINTS: Final = tuple(5 if rank_of(c) >= 10 else 1 for c in range(52))


def card_points(card: Card) -> int:
    """Face value for scoring: K, Q, J and 10 score 5, the rest 1.

    >>> card_points(parse_card("Js")), card_points(parse_card("9s"))
    (5, 1)
    """
    return _POINTS[card]


_NAMES: Final = tuple(RANK_NAMES[rank_of(c)] + SUIT_SYMBOLS[suit_of(c)] for c in range(52))
_ASCII: Final = tuple(RANK_NAMES[rank_of(c)] + SUIT_LETTERS[suit_of(c)] for c in range(52))


def card_name(card: Card) -> str:
    """The card with a Unicode suit, as printed everywhere: ``'10♥'``."""
    return _NAMES[card]


def card_ascii(card: Card) -> str:
    """The card in plain ASCII, as typed: ``'10h'``."""
    return _ASCII[card]


_RANK_TEXT: Final = {name.lower(): r for r, name in enumerate(RANK_NAMES) if name} | {"t": 10}
_SUIT_TEXT: Final = (
    {letter: s for s, letter in enumerate(SUIT_LETTERS)}
    | {sym: s for s, sym in enumerate(SUIT_SYMBOLS)}
    | {sym: s for s, sym in enumerate("♧♢♡♤")}
)


def parse_card(text: str) -> Card:
    """Read one card: ``Ks``, ``10h``, ``Th``, ``K♠``, in any case, and the book's ``K-♠``
    (one hyphen between the rank and the suit).

    >>> [card_name(parse_card(t)) for t in ("Ks", "10h", "Th", "k♠", "a♧", "J-♠", "10-h")]
    ['K♠', '10♥', '10♥', 'K♠', 'A♣', 'J♠', '10♥']
    >>> parse_card("11s")
    Traceback (most recent call last):
    ...
    umtali.kernel.cards.InvalidCardError: '11s' is not a card: the rank must be A, 2-10 (or T), J, Q or K
    >>> parse_card("J♠-")
    Traceback (most recent call last):
    ...
    umtali.kernel.cards.InvalidCardError: 'J♠-' is not a card: a hyphen goes only between the rank and the suit, like J-♠
    """
    if not isinstance(text, str):
        raise InvalidCardError(f"{quoted(text)} is not a card: write a rank then a suit, like Ks")
    t = text.strip().lower()
    if "-" in t:
        # The book writes cards as J-♠; a hyphen anywhere else is a typing slip, and a
        # message about the rank or the suit would not point at it.
        rank_text, _, suit_text = t.partition("-")
        if not rank_text or len(suit_text) != 1 or "-" in suit_text:
            raise InvalidCardError(
                f"{quoted(text)} is not a card: a hyphen goes only between the rank and the"
                " suit, like J-♠"
            )
        t = rank_text + suit_text
    if len(t) < 2:
        raise InvalidCardError(
            f"{quoted(text)} is not a card: write a rank then a suit, like Ks, 10h or Q♦"
        )
    rank = _RANK_TEXT.get(t[:-1])
    suit = _SUIT_TEXT.get(t[-1])
    if suit is None:
        raise InvalidCardError(
            f"{quoted(text)} is not a card: the suit must be one of c d h s or ♣ ♦ ♥ ♠"
        )
    if rank is None:
        raise InvalidCardError(
            f"{quoted(text)} is not a card: the rank must be A, 2-10 (or T), J, Q or K"
        )
    return suit * 13 + rank - 1


def parse_cards(text: str) -> list[Card]:
    """Read cards separated by spaces or commas.

    >>> [card_name(c) for c in parse_cards("Ks, 10h Th")]
    ['K♠', '10♥', '10♥']
    """
    if not isinstance(text, str):
        raise InvalidCardError(f"{quoted(text)} is not text naming cards, like 'Ks 10h Q♦'")
    return [parse_card(t) for t in text.replace(",", " ").split()]


_SUIT_BITS: Final = 0x1FFF


def _suit_table(first: Card) -> tuple[tuple[Card, ...], ...]:
    """For each 13-bit rank mask of one suit, its cards in order (built in ~3 ms)."""
    table: list[tuple[Card, ...]] = [()]
    for m in range(1, 1 << 13):
        high = m.bit_length() - 1
        table.append(table[m ^ 1 << high] + (first + high,))
    return tuple(table)


# A mask is read a suit at a time instead of a bit at a time.
_CARDS_IN_SUIT: Final = tuple(_suit_table(13 * s) for s in range(4))
_CLUB_CARDS, _DIAMOND_CARDS, _HEART_CARDS, _SPADE_CARDS = _CARDS_IN_SUIT


def cards_of(mask: int) -> list[Card]:
    """The cards of a mask, lowest id first.

    >>> cards_of(0b101 | 1 << 51)
    [0, 2, 51]
    """
    return [
        *_CLUB_CARDS[mask & _SUIT_BITS],
        *_DIAMOND_CARDS[mask >> 13 & _SUIT_BITS],
        *_HEART_CARDS[mask >> 26 & _SUIT_BITS],
        *_SPADE_CARDS[mask >> 39 & _SUIT_BITS],
    ]


def mask_of(cards: Iterable[Card]) -> int:
    """The mask holding ``cards``. The engine's fast path: it trusts them to be card ids
    (:class:`CardSet` checks what it is given)."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _checked_mask(cards: object) -> int:
    """The mask of card ids given from outside, each checked: :class:`InvalidCardError`
    for anything that is not an iterable of card ids."""
    try:
        items = iter(cards)  # type: ignore[call-overload]
    except TypeError:
        raise InvalidCardError(
            f"{quoted(cards)} is not cards: give a mask, text like 'Ks 10h' or card ids"
        ) from None
    m = 0
    for c in items:
        if not is_card(c):
            raise InvalidCardError(f"{quoted(c)} is not a card id: card ids are 0..51")
        m |= 1 << c
    return m


def display_key(card: Card) -> tuple[int, int]:
    """The sort key of the order the book lists a hand in, and every screen shows cards
    in: spades, hearts, diamonds, clubs; highest rank first within a suit.

    >>> [card_name(c) for c in sorted(parse_cards("2c Kh 9s Qh"), key=display_key)]
    ['9♠', 'K♥', 'Q♥', '2♣']
    """
    return (-suit_of(card), -rank_of(card))


class CardSet:
    """An immutable set of cards backed by a 52-bit int mask.

    Build it from a mask, from text naming cards, or from card ids; anything else (a card
    id outside 0..51, a bool, a float) raises :class:`InvalidCardError`. Iteration is by
    card id (clubs A..K first); :meth:`sorted_for_display` gives the order a player reads a
    hand in. The repr can be pasted back.

    >>> s = CardSet.parse("3c 2c Ac")
    >>> len(s), parse_card("2c") in s, s.points()
    (3, True, 3)
    >>> s | CardSet.parse("Kh")
    CardSet('A♣ 2♣ 3♣ K♥')
    >>> CardSet.parse("Kh Qh 9s").sorted_for_display()
    ['9♠', 'K♥', 'Q♥']
    """

    __slots__ = ("mask",)

    mask: int

    def __init__(self, cards: Iterable[Card] | str | int = 0) -> None:
        if type(cards) is int and 0 <= cards <= ALL_CARDS:  # the engine's own masks
            m = cards
        elif isinstance(cards, str):
            m = mask_of(parse_cards(cards))
        elif isinstance(cards, int) and not isinstance(cards, bool):
            if not 0 <= cards <= ALL_CARDS:
                raise InvalidCardError(f"a card mask lies in 0..2**52-1, not {quoted(cards)}")
            m = int(cards)
        else:
            m = _checked_mask(cards)
        object.__setattr__(self, "mask", m)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """Read cards separated by spaces or commas."""
        return cls(mask_of(parse_cards(text)))

    def __iter__(self) -> Iterator[Card]:
        return iter(cards_of(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 52 and bool(self.mask >> card & 1)

    def __bool__(self) -> bool:
        return self.mask != 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    # Another operand is Python's business: NotImplemented makes it a TypeError.
    def __or__(self, other: CardSet) -> CardSet:
        if not isinstance(other, CardSet):
            return NotImplemented
        return CardSet(self.mask | other.mask)

    def __and__(self, other: CardSet) -> CardSet:
        if not isinstance(other, CardSet):
            return NotImplemented
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: CardSet) -> CardSet:
        if not isinstance(other, CardSet):
            return NotImplemented
        return CardSet(self.mask & ~other.mask)

    def points(self) -> int:
        """Face value of the cards (no marriage doubling)."""
        return sum(_POINTS[c] for c in cards_of(self.mask))

    def names(self) -> list[str]:
        """Card names by id order."""
        return [_NAMES[c] for c in cards_of(self.mask)]

    def sorted_for_display(self) -> list[str]:
        """Card names spades, hearts, diamonds, clubs; high to low within a suit."""
        return [_NAMES[c] for c in sorted(cards_of(self.mask), key=display_key)]

    def __str__(self) -> str:
        return " ".join(self.names())

    def __repr__(self) -> str:
        return f"CardSet({str(self)!r})"
