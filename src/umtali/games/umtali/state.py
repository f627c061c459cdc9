"""One hand of Umtali as a state machine: legal moves, push, pop, scoring.

A hand is built from a deck order (explicit chance, see :mod:`umtali.kernel.deck`) and a dealer.
Moves are pushed one at a time; every move can be popped, restoring the state exactly.

>>> from umtali.games.umtali.deal import stacked_deck
>>> deck = stacked_deck("Ks 9s Kh 7h 5h 3h 2h Ah Kc 9c 10d",
...                     "Js 7s 6s 5s 10h 6h 10c 5c Qd Jd", "4c 4h")
>>> hand = HandState(deck, dealer=1)
>>> [str(m) for m in hand.legal_moves]
['keep', 'give']
>>> for text in ["keep", "meld K♠ K♥ K♣", "meld 3♥ 2♥ A♥", "discard 5♥"]:
...     _ = hand.push_text(text)
>>> hand.hand(1), hand.top_discard()
(CardSet('9♣ 10♦ 7♥ 9♠'), 30)
>>> hand.push_text("discard 9s")
Traceback (most recent call last):
...
umtali.games.umtali.moves.IllegalMoveError: 'discard 9♠' is not allowed now: Player 1 is to move, and must first draw: from the stock, or the top discard
>>> hand.pop()
Move.discard_card(5♥)
"""

from __future__ import annotations

import operator
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import TYPE_CHECKING, Final, NamedTuple

from umtali.games.umtali.deal import FIRST_STOCK_INDEX, UPCARD_INDEX, deal_hands
from umtali.games.umtali.melds import (
    SOLO_ACCEPTS,
    SUIT_NEIGHBOURS,
    ColumnKind,
    closes_with_run,
    column_kind,
    column_points,
    hand_melds,
    is_pair,
    meld_accepts,
    plays_reach,
    short_melds,
)
from umtali.games.umtali.moves import (
    CARD_FIELD,
    CARD_SHIFT,
    DISCARD_FACE_DOWN,
    JACK_SOLO,
    KIND_MASK,
    NO_CARD,
    PAIR_DISCARD_SHIFT,
    PAIR_FACE_DOWN,
    SECOND_SHIFT,
    InvalidMoveError,
    Move,
    MoveKind,
    column_order,
)
from umtali.games.umtali.reasons import no_face_up_discard, refusal
from umtali.games.umtali.rules import STANDARD, InvalidRulesError, RuleSet
from umtali.games.umtali.terms import FACE_DOWN, PILE_CARD, Phase
from umtali.kernel.cards import (
    ALL_CARDS,
    JACKS,
    RANK_MASKS,
    CardSet,
    card_name,
    card_points,
    cards_of,
    quoted,
    rank_of,
)
from umtali.kernel.deck import InvalidDeckError, check_deck
from umtali.kernel.players import player_name

if TYPE_CHECKING:
    import random

__all__ = [
    "Column",
    "HandOutcome",
    "HandState",
    "NotInStockError",
    "Phase",
    "RawSide",
    "TableIndex",
    "Termination",
    "column_of",
    "player_name",
    "raw_side",
]

_KEEP: Final = int(MoveKind.KEEP)
_GIVE: Final = int(MoveKind.GIVE)
_DRAW: Final = int(MoveKind.DRAW)
_TAKE: Final = int(MoveKind.TAKE)
_TAKE_TWO: Final = int(MoveKind.TAKE_TWO)
_MELD: Final = int(MoveKind.MELD)
_SOLO: Final = int(MoveKind.SOLO)
_DISCARD: Final = int(MoveKind.DISCARD)
_PAIR: Final = int(MoveKind.PAIR)
_FORFEIT: Final = int(MoveKind.FORFEIT)


def _discard_table(first: int) -> tuple[tuple[int, ...], ...]:
    """For each 13-bit rank mask of one suit, the discard actions of its cards."""
    table: list[tuple[int, ...]] = [()]
    for m in range(1, 1 << 13):
        high = m.bit_length() - 1
        table.append(table[m ^ 1 << high] + (_DISCARD | (first + high) << CARD_SHIFT,))
    return tuple(table)


_CLUB_DISCARDS, _DIAMOND_DISCARDS, _HEART_DISCARDS, _SPADE_DISCARDS = (
    _discard_table(13 * s) for s in range(4)
)


def _discards_of(cards: int) -> list[int]:
    """The discard actions of ``cards``, lowest card first, a suit at a time."""
    return [
        *_CLUB_DISCARDS[cards & 0x1FFF],
        *_DIAMOND_DISCARDS[cards >> 13 & 0x1FFF],
        *_HEART_DISCARDS[cards >> 26 & 0x1FFF],
        *_SPADE_DISCARDS[cards >> 39 & 0x1FFF],
    ]


_SOLO_COLUMN: Final = ColumnKind.SOLO
_GROUP_COLUMN: Final = ColumnKind.GROUP
_PAIR_COLUMN: Final = ColumnKind.PAIR
_SEQUENCE_COLUMN: Final = ColumnKind.SEQUENCE


RawSide = tuple[tuple[int, int, int], ...]
"""One side of the table as the engine keeps it: (kind, mask, played-off card or -1)."""


class TableIndex(NamedTuple):
    """The table with every index derived from it, as one immutable value (the fields are
    the :class:`HandState` attributes of the same names): what
    :meth:`HandState.table_index` gives and :meth:`HandState.from_raw` takes to rebuild a
    state on this table without laying the columns anew."""

    tables: tuple[RawSide, RawSide]
    points: tuple[int, int]
    open_mask: int
    solo_mask: int
    rank_anchor: tuple[int, ...]
    seqs: tuple[tuple[int, int], ...]
    seq_open: int


_TABLE_FIELDS: Final = TableIndex._fields
"""The table and the indexes derived from it: a move that lays nothing leaves them be."""

_table_fields: Final = operator.attrgetter(*_TABLE_FIELDS)

_FIXED_FIELDS: Final = ("rules", "dealer", "deck", "stock")
"""Fields set when the hand is made, which no move changes (the stock is read through
``stock_pos``)."""

_HISTORY_FIELDS: Final = ("history", "_undo")
"""The moves pushed and what :meth:`HandState.pop` needs to undo them: push and pop keep
these themselves."""

_CACHE_FIELDS: Final = ("_legal",)
"""Values worked out from the other fields and kept to be read again: not part of what a
state is (two equal states may differ here), though pop restores them too."""

_UNDO_FIELDS: Final = (
    "phase",
    "player",
    "eleventh",
    "hands",
    "stock_pos",
    "pile",
    *_TABLE_FIELDS,
    "turn",
    "taken",
    "took_two",
    "must_meld",
    "taken_top",
    "ever_taken",
    "out",
    "laid_down",
    "last_turn",
    "termination",
    "turn_open",
    "_legal",
)
"""Every field a move may change: every slot but the fixed ones and the history
(tests/test_undo.py checks that, and that pop restores each). The values are immutable, so
a tuple of them is a complete snapshot; the legal-move cache comes back too, so a pop
costs no regeneration."""

_DRAW_CHANGES: Final = ("phase", "hands", "stock_pos", "_legal")
"""What a draw from the stock changes."""
_TAKE_CHANGES: Final = (
    "phase",
    "hands",
    "pile",
    "taken",
    "took_two",
    "must_meld",
    "taken_top",
    "ever_taken",
    "_legal",
)
"""What a take from the discard pile (of one card or more) changes."""
_TAKE_ONLY: Final = ("must_meld", "taken_top")
"""What only a take changes: the cards its turn binds. A later turn leaves them be
rather than clear them, as they then bind nothing (see ``HandState.must_meld``), so no
other move need save them."""


def _undo_by_kind(fields: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """The fields each kind of move may change, by action kind, as far as ``fields`` lists
    them: a push saves only those (a draw touches four). Every kind's list is cut from the
    one list, so a field left out of it is left out everywhere, which the undo tests notice.
    """
    every = tuple(fields)
    take = tuple(f for f in every if f in _TAKE_CHANGES)
    every = tuple(f for f in every if f not in _TAKE_ONLY)
    turn = tuple(f for f in every if f not in _TABLE_FIELDS)  # a move that lays nothing
    draw = tuple(f for f in every if f in _DRAW_CHANGES)
    by_kind = {
        MoveKind.KEEP: turn,
        MoveKind.GIVE: turn,
        MoveKind.DRAW: draw,
        MoveKind.TAKE: take,
        MoveKind.TAKE_TWO: take,
        MoveKind.MELD: every,
        MoveKind.SOLO: every,
        MoveKind.DISCARD: turn,
        MoveKind.PAIR: every,
        MoveKind.FORFEIT: turn,
    }
    return tuple(by_kind[kind] for kind in sorted(MoveKind))


_UNDO_BY_KIND: Final = _undo_by_kind(_UNDO_FIELDS)
"""The fields each kind of move may change, indexed by ``action & KIND_MASK``."""
_SNAPSHOT_BY_KIND: Final = tuple(operator.attrgetter(*fields) for fields in _UNDO_BY_KIND)
"""For each kind, the getter of the tuple of its fields, which :meth:`HandState.pop` puts
back."""


def _is_player(value: object) -> bool:
    """Whether ``value`` names a player: the int 0 or 1 (not a bool, not a float)."""
    return type(value) is int and (value == 0 or value == 1)


_CHOOSE_PHASE: Final = Phase.CHOOSE
_DRAW_PHASE: Final = Phase.DRAW
_PLAY_PHASE: Final = Phase.PLAY
_OVER_PHASE: Final = Phase.OVER


class Termination(Enum):
    """How a hand ended."""

    OUT = "out"  # a player went out and the other had his last turn (R7)
    DEAD_STOCK = "dead: empty stock"  # a player had to draw from an empty stock (R8)
    TURN_CAP = "dead: turn cap"  # the turn cap was reached (R8)


@dataclass(frozen=True)
class Column:
    """One column on a player's side of the table.

    Attributes:
        kind: sequence, group, marriage, pair or solo.
        cards: its cards.
        played_off: for a solo, the table card it was played off (``None`` for a Jack
            and for overlapped columns).
    """

    kind: ColumnKind
    cards: CardSet
    played_off: int | None = None

    def top_down(self) -> list[int]:
        """The cards as laid, top card first."""
        return column_order(self.cards.mask)

    def __str__(self) -> str:
        text = f"{self.kind.label} {' '.join(card_name(c) for c in self.top_down())}"
        if self.played_off is not None:
            text += f" (off {card_name(self.played_off)})"
        return text


_COLUMNS: dict[tuple[int, int, int], Column] = {}


def column_of(raw: tuple[int, int, int]) -> Column:
    """The :class:`Column` of the engine's (kind, mask, played-off or -1) triple. Columns
    are immutable, so each is made once and shared by every state and view that shows it."""
    column = _COLUMNS.get(raw)
    if column is None:
        kind, mask, off = raw
        column = Column(_COLUMN_KINDS[kind], CardSet(mask), None if off < 0 else off)
        if len(_COLUMNS) >= 1 << 16:  # distinct columns in play are far fewer; bound memory
            _COLUMNS.clear()
        _COLUMNS[raw] = column
    return column


_COLUMN_KINDS: Final = tuple(sorted(ColumnKind, key=int))


@dataclass(frozen=True)
class HandOutcome:
    """The result of a finished hand.

    Attributes:
        termination: how it ended.
        went_out: the players who went out, in order (empty for a dead hand).
        played: points each player played on the table.
        forfeited: cards forfeited by the player who did not go out (R7).
        scores: the hand scores: played points plus forfeits to the player who went out.
        winner: the player with the higher score, or ``None`` for a drawn hand.
    """

    termination: Termination
    went_out: tuple[int, ...]
    played: tuple[int, int]
    forfeited: CardSet
    scores: tuple[int, int]

    @property
    def winner(self) -> int | None:
        a, b = self.scores
        return None if a == b else (0 if a > b else 1)


class NotInStockError(ValueError):
    """A card asked to come next from the stock that is not in it (still to be drawn)."""


_STATE_FIELDS: Final = (
    "_legal",
    "_undo",
    "dealer",
    "deck",
    "eleventh",
    "ever_taken",
    "hands",
    "history",
    "laid_down",
    "last_turn",
    "must_meld",
    "open_mask",
    "out",
    "phase",
    "pile",
    "player",
    "points",
    "rank_anchor",
    "rules",
    "seq_open",
    "seqs",
    "solo_mask",
    "stock",
    "stock_pos",
    "tables",
    "taken",
    "taken_top",
    "termination",
    "took_two",
    "turn",
    "turn_open",
)
"""The fields of a :class:`HandState`, its ``__slots__`` (named here, where compiled
code can read them too: :meth:`HandState.clone` copies them)."""


class HandState:
    """A hand of Umtali between player 0 and player 1 (the book's Player 1 and Player 2).

    Build it from a 52-card deck order and the dealer; see :mod:`umtali.kernel.deck` for how the
    deck is dealt. Moves go through :meth:`push` (a :class:`Move` or its action int) or
    :meth:`push_text`; :meth:`pop` undoes the last one exactly.
    """

    __slots__ = _STATE_FIELDS

    # The fields are public to read (views, refusals and bots read them) and private to
    # write: only push and pop change them. Every value is immutable (ints and tuples), so
    # a snapshot of the fields is a snapshot of the state. Card sets are 52-bit masks, bit
    # ``c`` for card id ``c`` (see :mod:`umtali.kernel.cards`).

    rules: RuleSet
    """The rule options of this hand."""
    dealer: int
    """The dealer, 0 or 1."""
    deck: tuple[int, ...]
    """The deck order the hand was dealt from (empty for a state built from parts)."""
    phase: int
    """Where the hand stands: a :class:`~umtali.games.umtali.terms.Phase` value, kept as a plain int."""
    player: int
    """The player to move, 0 or 1."""
    eleventh: int
    """Who was dealt the 11th card; -1 while the dealer has yet to choose, and in a deal
    where the 11th card is the upcard (``RuleSet.eleventh_card == "upcard"``)."""
    hands: tuple[int, int]
    """Each player's hand as a card mask."""
    stock: tuple[int, ...]
    """The stock as dealt, top card first; it never changes (see ``stock_pos``)."""
    stock_pos: int
    """How many cards have been drawn from the stock: its top card is ``stock[stock_pos]``."""
    pile: tuple[int, ...]
    """The discard pile bottom to top, one entry a card: its id, with the
    :data:`~umtali.games.umtali.terms.FACE_DOWN` flag when it lies face down."""
    tables: tuple[RawSide, RawSide]
    """Each side of the table, columns in the order laid, as (kind, mask, played-off card
    or -1) triples (:func:`column_of` makes the :class:`Column`)."""
    points: tuple[int, int]
    """Each player's points on the table, kept as columns are laid."""
    open_mask: int
    """The card mask the table accepts as solo plays now (Jacks aside): the union of what
    each column accepts. What the meld phase offers is the hand masked with it."""
    solo_mask: int
    """The card mask of every solo card on the table (Jacks included): the cards a card
    may be played off by rank or suit neighbour."""
    rank_anchor: tuple[int, ...]
    """By rank (index 1..13), the top card of the group or pair of that rank on the table,
    which a card of the rank is played off; -1 for none."""
    seqs: tuple[tuple[int, int], ...]
    """Each sequence on the table as its (lowest, highest) card, side by side, player 0's
    first (see :meth:`table_index`)."""
    seq_open: int
    """The card mask that extends some sequence at either end."""
    turn: int
    """The turn number: 0 while the dealer chooses, 1 for the opening turn."""
    turn_open: int
    """The cards the table accepted when this turn began. Under compulsory play the
    player who ended the last turn holds none of them (he would have had to play them)."""
    taken: int
    """The card mask taken from the discard pile this turn."""
    took_two: bool
    """Whether this turn's take was of two cards (both must be played, R3)."""
    must_meld: int
    """The card mask taken by the last take from the pile that must be played in that
    take's turn: both cards of a take-two (R3), the deepest card of a deep take (seed
    003); 0 for a plain take. It is not cleared when the turn ends, since it then binds
    nothing: its cards were played that turn, and a card on the table never returns to a
    hand. (Keeping it spares every other move saving it for :meth:`pop`.) Read it as
    ``must_meld & hand``, or ``taken & must_meld``: a new turn clears ``taken``."""
    taken_top: int
    """The card mask of the card that lay on top of the pile at the last take: it may
    not be discarded in that take's turn except to go out (R3). Like ``must_meld`` it is
    not cleared when the turn ends; the card may well stay in the taker's hand, so it is
    read as ``taken & taken_top``, which a new turn clears with ``taken``."""
    ever_taken: tuple[int, int]
    """For each player, the card mask he has ever taken from the discard pile (public)."""
    out: int
    """The player who went out first; -1 for nobody yet."""
    laid_down: tuple[int, int]
    """For each player, the card mask he laid face down on the pile (going out, R5/R6).
    Kept here rather than read from ``history`` so that a state dealt again from one
    player's view, which has no history, still knows whose each face-down card is."""
    last_turn: bool
    """Whether this is the last turn, after the other player went out (R7)."""
    termination: Termination | None
    """How the hand ended; ``None`` while it goes on."""
    history: list[tuple[int, int]]
    """Every move pushed, as (player, action)."""
    _legal: list[int] | None
    """The legal actions now, once worked out (``None`` until then)."""
    _undo: list[tuple[object, ...]] | None
    """For each move pushed, the fields it changed as they were; ``None``: no undo kept
    (:meth:`forget_undo`)."""

    def __new__(cls, *args: object, **kwargs: object) -> HandState:
        # A blank state, its fields unset: __init__ deals it, or from_raw and clone fill it
        # in. Written out for mypyc: a compiled class without one has a __new__ that runs
        # __init__ as well.
        return super().__new__(cls)

    def __init__(self, deck: Sequence[int], dealer: int = 0, rules: RuleSet = STANDARD) -> None:
        if not _is_player(dealer):
            raise ValueError(f"the dealer is player 0 or 1, not {quoted(dealer)}")
        if not isinstance(rules, RuleSet):
            raise InvalidRulesError(f"rules are a RuleSet (such as STANDARD), not {quoted(rules)}")
        try:
            checked = check_deck(deck)
        except TypeError:  # no len(), or items that cannot be compared as cards
            raise InvalidDeckError(
                f"a deck is a sequence of 52 card ids, not {quoted(deck)}"
            ) from None
        self.rules = rules
        self.dealer = dealer
        self.deck = checked
        self.stock = self.deck[FIRST_STOCK_INDEX:]
        self.stock_pos = 0
        self.phase = Phase.CHOOSE
        self.player = dealer
        self.eleventh = -1
        self.hands = (0, 0)
        self.pile = ()
        self.tables = ((), ())
        self.points = (0, 0)
        self.open_mask = 0
        self.solo_mask = 0
        self.rank_anchor = (-1,) * 14
        self.seqs = ()
        self.seq_open = 0
        self.turn = 0
        self.turn_open = 0
        self.taken = 0
        self.took_two = False
        self.must_meld = 0
        self.taken_top = 0
        self.ever_taken = (0, 0)
        self.out = -1
        self.laid_down = (0, 0)
        self.last_turn = False
        self.termination = None
        self.history = []
        self._legal = None
        self._undo = []
        if rules.eleventh_card == "upcard":
            self._deal_with_upcard()
        elif rules.eleventh_card != "dealer_choice":
            self._deal(dealer if rules.eleventh_card == "dealer" else 1 - dealer)

    @classmethod
    def from_seed(cls, seed: int | str, dealer: int = 0, rules: RuleSet = STANDARD) -> HandState:
        """A hand dealt from the deck order of ``seed`` (see :func:`umtali.kernel.deck.seeded_deck`)."""
        from umtali.kernel.deck import seeded_deck

        return cls(seeded_deck(seed), dealer, rules)

    # -- reading the state -------------------------------------------------------------
    def hand(self, player: int) -> CardSet:
        """The cards in ``player``'s hand (``ValueError`` unless ``player`` is 0 or 1)."""
        if not _is_player(player):
            raise ValueError(f"a hand belongs to player 0 or 1, not {quoted(player)}")
        return CardSet(self.hands[player])

    def table(self, player: int) -> list[Column]:
        """``player``'s side of the table, columns in the order they were laid."""
        if not _is_player(player):
            raise ValueError(f"a side of the table belongs to player 0 or 1, not {quoted(player)}")
        return [column_of(raw) for raw in self.tables[player]]

    def top_discard(self) -> int | None:
        """The top card of the discard pile if it lies face up, else ``None``."""
        if not self.pile or self.pile[-1] & FACE_DOWN:
            return None
        return self.pile[-1]

    def discard_pile(self) -> list[tuple[int, bool]]:
        """The discard pile bottom to top, as (card, face_down) pairs."""
        return [(e & PILE_CARD, bool(e & FACE_DOWN)) for e in self.pile]

    def stock_size(self) -> int:
        return len(self.stock) - self.stock_pos

    def stock_cards(self) -> list[int]:
        """The stock, top card first (hidden information: for engines and replays)."""
        return list(self.stock[self.stock_pos :])

    def place_next_draw(self, card: int) -> None:
        """Make ``card`` the next card a draw from the stock brings: it swaps places with
        the stock's top card. For chance-node sampling (:mod:`umtali.rl.openspiel`): the
        order of the cards still in the stock is no fact of the hand, since no rule and
        no view reads it, so choosing the next one when it is drawn changes nothing else.
        A state dealt from a deck keeps ``deck[21:] == stock``. :class:`NotInStockError`
        if ``card`` is not among the cards still to be drawn (nothing changes then).

        >>> hand = HandState.from_seed(1)
        >>> top, last = hand.stock[0], hand.stock[-1]
        >>> hand.place_next_draw(last)
        >>> hand.stock[0] == last, hand.stock[-1] == top, hand.deck[21:] == hand.stock
        (True, True, True)
        >>> hand.place_next_draw(hand.deck[0])  # a card dealt to a hand
        Traceback (most recent call last):
        ...
        umtali.games.umtali.state.NotInStockError: J♠ is not in the stock: the next draw can bring only a card still to be drawn (31 left)
        """
        at = self.stock_pos
        stock = self.stock
        where = stock.index(card, at) if type(card) is int and card in stock[at:] else -1
        if where < 0:
            named = card_name(card) if type(card) is int and 0 <= card < 52 else quoted(card)
            raise NotInStockError(
                f"{named} is not in the stock: the next draw can bring only a card"
                f" still to be drawn ({len(stock) - at} left)"
            )
        if where != at:
            changed = list(stock)
            changed[at], changed[where] = card, stock[at]
            self.stock = tuple(changed)
            if self.deck:
                self.deck = self.deck[:FIRST_STOCK_INDEX] + self.stock

    def table_accepts(self) -> int:
        """The mask of cards the table accepts as solo cards now (proper additions; Jacks
        are always playable besides). Pass it to :func:`umtali.games.umtali.melds.meld_plans`."""
        return self.open_mask

    def is_over(self) -> bool:
        return self.phase == _OVER_PHASE

    def taken_this_turn(self) -> CardSet:
        """The cards taken from the discard pile this turn."""
        return CardSet(self.taken)

    def played_points(self) -> tuple[int, int]:
        """Points each player has on the table so far."""
        return self.points

    def outcome(self) -> HandOutcome | None:
        """The result, once the hand is over."""
        if self.termination is None:
            return None
        went_out: tuple[int, ...] = ()
        forfeited = 0
        scores = list(self.points)
        if self.termination is Termination.OUT:
            other = 1 - self.out
            if self.hands[other]:
                went_out = (self.out,)
                forfeited = self.hands[other]
                scores[self.out] += sum(card_points(c) for c in cards_of(forfeited))
            else:
                went_out = (self.out, other)
        return HandOutcome(
            self.termination, went_out, self.points, CardSet(forfeited), (scores[0], scores[1])
        )

    def moves_played(self) -> list[Move]:
        """Every move pushed so far, in order."""
        return [Move.from_action(a) for _, a in self.history]

    # -- legal moves -----------------------------------------------------------------------
    @property
    def legal_moves(self) -> LegalMoves:
        """The legal moves now, as a lazy collection of :class:`Move` (``in``, ``len``, iter)."""
        return LegalMoves(self)

    def legal_actions(self) -> list[int]:
        """The legal moves now as action ints. Built once per decision and cached; do not
        mutate the list."""
        legal = self._legal
        if legal is None:
            phase = self.phase
            if phase == _PLAY_PHASE:
                legal = self._play_actions()
            elif phase == _DRAW_PHASE:
                legal = self._draw_actions()
            else:
                legal = self._generate()
            self._legal = legal
        return legal

    def _generate(self) -> list[int]:
        phase = self.phase
        if phase == _PLAY_PHASE:
            return self._play_actions()
        if phase == _DRAW_PHASE:
            return self._draw_actions()
        if phase == _CHOOSE_PHASE:
            return [_KEEP, _GIVE]
        return []

    def _draw_actions(self) -> list[int]:
        acts = []
        if self.stock_pos < len(self.stock):
            acts.append(_DRAW)
        pile = self.pile
        if pile and not pile[-1] & FACE_DOWN:
            top = pile[-1]
            acts.append(_TAKE | top << CARD_SHIFT)
            if len(pile) < 2:
                return acts
            rules = self.rules
            if rules.deep_take:
                acts.extend(self._deep_takes())
            if rules.take_two and not pile[-2] & FACE_DOWN:
                second = pile[-2]
                both = 1 << top | 1 << second
                hand = self.hands[self.player] | both
                open_mask = self.open_mask
                # Most take-twos fail here, where a card has nothing to join (the same
                # test opens plays_reach; done inline, the common refusal costs less).
                loose = both & ~(open_mask | JACKS)
                if (
                    not (loose >> top & 1 and not SOLO_ACCEPTS[top] & hand & ~(1 << top))
                    and not (
                        loose >> second & 1 and not SOLO_ACCEPTS[second] & hand & ~(1 << second)
                    )
                    and self._reach(hand, open_mask, both, 1 << top)
                ):
                    acts.append(_TAKE_TWO | top << CARD_SHIFT | second << SECOND_SHIFT)
        return acts

    def _deep_takes(self) -> list[int]:
        """The deep takes (seed 003): each face-up discard below the top, with every card
        above it, when some way of playing the turn plays it (the deepest card must be
        played, R3's test for a take-two). Shallowest first; ``take`` names the deepest."""
        pile = self.pile
        hand = self.hands[self.player]
        got = 1 << pile[-1]
        acts = []
        for i in range(len(pile) - 2, -1, -1):
            card = pile[i]
            if card & FACE_DOWN:  # nothing lies under a face-down card in play, but be sure
                break
            got |= 1 << card
            if self._reach(hand | got, self.open_mask, 1 << card, 1 << pile[-1]):
                acts.append(_TAKE | card << CARD_SHIFT)
        return acts

    def _reach(self, hand: int, open_mask: int, must: int, top: int) -> bool:
        """Whether the turn can go on from ``hand`` and ``open_mask`` to play every card
        of ``must`` and end, under these rules and at this point of the hand, ``top``
        being the card taken from the top of the pile
        (:func:`umtali.games.umtali.melds.plays_reach`)."""
        rules = self.rules
        short_now = self.last_turn and rules.last_turn_short_melds
        return plays_reach(
            hand,
            open_mask,
            must,
            pair_to_go_out=self._closing_pairs(),
            stop_anywhere=not rules.compulsory_play,
            closing_runs=rules.last_turn_short_melds,
            odd_discard=not self.last_turn or rules.last_turn_discard,
            short=short_now,
            kept=0 if rules.discard_taken_to_go_out or self.last_turn else top,
        )

    def _kept(self, top: int) -> int:
        """Of ``top`` (the card taken from the top of the pile this turn), what may not be
        discarded even to go out: all of it under seed 003 before the R7 last turn (on
        it the player forfeits what he holds, and the rule binds nothing), else nothing."""
        if self.rules.discard_taken_to_go_out or self.last_turn:
            return 0
        return top

    def _closing_pairs(self) -> bool:
        """Whether the ``pair`` move (going out with a two-card column) exists now: by R6,
        or as seed 003's two-card meld of the player going out. On the R7 last turn under
        seed 003 a two-card meld is an ordinary meld, so the move would only repeat it."""
        rules = self.rules
        if rules.last_turn_short_melds:
            return not self.last_turn
        return rules.pair_to_go_out

    def solo_targets(self, card: int) -> list[int]:
        """The table cards that ``card`` (not a Jack) may be played off as a proper
        addition, whether or not the player holds it: solo cards of its rank or next to it
        in its suit, the top card of the group or pair of its rank, and the end of each
        sequence it extends. A card id is trusted, as in :mod:`umtali.games.umtali.melds`.

        >>> from umtali.games.umtali.lessons import LESSONS
        >>> hand = LESSONS[0].state_at(2, done=5)     # Player 1 laid J♠, J♦, Q♦ and 7♠ 6♠ 5♠
        >>> from umtali.kernel.cards import parse_card
        >>> [card_name(c) for c in hand.solo_targets(parse_card("10d"))]
        ['J♦']
        """
        rank = rank_of(card)
        targets = cards_of(self.solo_mask & (RANK_MASKS[rank] | SUIT_NEIGHBOURS[card]))
        anchor = self.rank_anchor[rank]
        if anchor >= 0:
            targets.append(anchor)
        if self.seq_open >> card & 1:
            ends = [
                low if card == low - 1 else high
                for low, high in self.seqs
                if (card == low - 1 and rank_of(low) > 1)
                or (card == high + 1 and rank_of(high) < 13)
            ]
            # Between two runs the card joins, the order may not depend on which run was
            # laid first: a state rebuilt from a view lists its runs side by side.
            targets.extend(sorted(ends))
        return targets

    def _play_actions(self) -> list[int]:
        hand = self.hands[self.player]
        melds = hand_melds(hand)
        if self.last_turn and self.rules.last_turn_short_melds:
            melds += short_melds(hand)  # seed 003: two-card melds on the last turn
        if melds:
            blocked = 0
            for meld in melds:
                blocked |= meld
            acts = [_MELD | meld << CARD_SHIFT for meld in melds]
            solos = hand & (self.open_mask | JACKS) & ~blocked
        else:
            acts = []
            solos = hand & (self.open_mask | JACKS)
        while solos:
            low = solos & -solos
            solos ^= low
            c = low.bit_length() - 1
            if low & JACKS:
                acts.append(_SOLO | c << CARD_SHIFT | JACK_SOLO)
            else:
                for t in self.solo_targets(c):
                    acts.append(_SOLO | c << CARD_SHIFT | t << SECOND_SHIFT)
        must_place = self.must_meld & hand
        if must_place and acts:
            acts = [a for a in acts if self._keeps_taken_playable(a)]
        # Seed 003: no play may strand the top card taken (most turns took nothing).
        if self.taken and acts and not self.rules.discard_taken_to_go_out:
            kept = self._kept(self.taken & self.taken_top) & hand
            if kept:
                acts = [a for a in acts if not self._strands(a, kept)]
        if acts:
            if self.rules.compulsory_play:
                return acts
        elif not must_place and not self.last_turn and hand.bit_count() > 3:
            # The common end of a turn: too many cards to go out, so only discards (R5).
            return _discards_of(hand & ~(self.taken & self.taken_top))
        acts.extend(self._end_actions(hand, must_place))
        return acts

    def _strands(self, action: int, kept: int) -> bool:
        """Whether play ``action`` leaves the hand holding ``kept`` alone (a card that may
        not be discarded this turn, seed 003) with no way to play it: a turn that could
        not end. Melding is optional there, so the player keeps another card instead."""
        hand = self.hands[self.player]
        if action & KIND_MASK == _MELD:
            played = action >> CARD_SHIFT
            open_mask = self.open_mask | meld_accepts(played)
        else:
            c = action >> CARD_SHIFT & CARD_FIELD
            played = 1 << c
            open_mask = self.open_mask | SOLO_ACCEPTS[c]
        return hand & ~played == kept and not kept & (open_mask | JACKS)

    def _keeps_taken_playable(self, action: int) -> bool:
        hand = self.hands[self.player]
        if action & KIND_MASK == _MELD:
            meld = action >> CARD_SHIFT
            hand &= ~meld
            open_mask = self.open_mask | meld_accepts(meld)
        else:
            c = action >> CARD_SHIFT & CARD_FIELD
            hand &= ~(1 << c)
            open_mask = self.open_mask | SOLO_ACCEPTS[c]
        return self._reach(hand, open_mask, self.must_meld, self.taken & self.taken_top)

    def _end_actions(self, hand: int, must_place: int) -> list[int]:
        """Ways to end the turn once melding is done: discard, go out, or forfeit (R5-R7)."""
        rules = self.rules
        acts = []
        n = hand.bit_count()
        # _closing_pairs, inline: this runs at the end of most turns.
        closing = not self.last_turn if rules.last_turn_short_melds else rules.pair_to_go_out
        if must_place:
            # Only the closing pair can still take the cards the take binds (R3); the
            # search behind the take guarantees one exists.
            if not closing:
                return []
            return [
                a
                for a in self._pair_actions(hand, self.must_meld)
                if (a >> CARD_SHIFT) & must_place == must_place
            ]
        if n == 1:
            c = hand.bit_length() - 1
            if (not self.last_turn or rules.last_turn_discard) and (
                rules.discard_taken_to_go_out
                or not self._kept(self.taken & self.taken_top) >> c & 1
            ):
                if not rules.final_discard_face_down_only:
                    acts.append(_DISCARD | c << CARD_SHIFT)
                if rules.face_down_final_discard:
                    acts.append(_DISCARD | c << CARD_SHIFT | DISCARD_FACE_DOWN)
        elif not self.last_turn:
            acts = _discards_of(hand & ~(self.taken & self.taken_top))
        if closing and n in (2, 3):
            acts.extend(self._pair_actions(hand, 0))
        if self.last_turn:
            acts.append(_FORFEIT)
        return acts

    def _pair_actions(self, hand: int, not_discardable: int) -> list[int]:
        """Going out with a two-card column (R6; seed 003 adds the two-card run), with the
        odd card of a three-card hand discarded first where a discard is allowed."""
        rules = self.rules
        closes = closes_with_run if rules.last_turn_short_melds else is_pair
        n = hand.bit_count()
        acts = []
        if n == 2:
            if closes(hand):
                acts.append(_PAIR | hand << CARD_SHIFT | NO_CARD << PAIR_DISCARD_SHIFT)
        elif n == 3 and (not self.last_turn or rules.last_turn_discard):
            if not rules.discard_taken_to_go_out:
                not_discardable |= self._kept(self.taken & self.taken_top)
            for x in cards_of(hand & ~not_discardable):
                pair = hand & ~(1 << x)
                if closes(pair):
                    action = _PAIR | pair << CARD_SHIFT | x << PAIR_DISCARD_SHIFT
                    if not rules.final_discard_face_down_only:
                        acts.append(action)
                    if rules.face_down_final_discard:
                        acts.append(action | PAIR_FACE_DOWN)
        return acts

    # -- making moves ---------------------------------------------------------------------
    def push(self, move: Move | int) -> None:
        """Play ``move``: a :class:`Move`, or its action int. A move the state must
        complete is completed as :meth:`resolve` does (``take`` with no card takes the top
        discard). Anything that is no move raises :class:`InvalidMoveError`, an illegal
        move :class:`IllegalMoveError` naming the rule; either way nothing changes.

        >>> from umtali.kernel.deck import seeded_deck
        >>> hand = HandState(seeded_deck(1), dealer=0)
        >>> hand.push("keep")
        Traceback (most recent call last):
        ...
        umtali.games.umtali.moves.InvalidMoveError: 'keep' is not a move: push takes a Move or its action int (push_text reads notation)
        """
        action = move if type(move) is int else move.action if isinstance(move, Move) else -1
        legal = self._legal
        if legal is None:
            legal = self.legal_actions()
        if action not in legal:
            action = self._resolve_pushed(move)
        self.push_legal(action)

    def _resolve_pushed(self, move: object) -> int:
        """The legal action ``move`` stands for, when it is not one as given; else the
        error saying why (the slow path of :meth:`push`, kept out of its way)."""
        if isinstance(move, Move):
            return self.resolve(move).action
        if isinstance(move, bool) or not isinstance(move, int):
            raise InvalidMoveError(
                f"{quoted(move)} is not a move: push takes a Move or its action int"
                " (push_text reads notation)"
            )
        return self.resolve(Move.from_action(int(move))).action

    def push_text(self, text: str) -> Move:
        """Parse ``text`` as notation, check it against this state, play it, return it."""
        move = self.parse_move(text)
        self.push_legal(move.action)
        return move

    def parse_move(self, text: str) -> Move:
        """Read ``text`` as a move legal now. ``take`` alone names the top discard; a solo
        may name any card of the group or pair it is played off. Raises
        :class:`InvalidMoveError` for text that is no move, :class:`IllegalMoveError` for a
        move the rules forbid now."""
        from umtali.games.umtali.notation import parse_move

        return self.resolve(parse_move(text))

    def resolve(self, move: Move) -> Move:
        """``move`` completed against this state (see :meth:`parse_move`), checked legal:
        :class:`IllegalMoveError` if it is not, :class:`InvalidMoveError` if ``move`` is
        no :class:`Move`."""
        if not isinstance(move, Move):
            raise InvalidMoveError(f"{quoted(move)} is not a Move: resolve takes a Move")
        move = self.complete(move)
        if move.action not in self.legal_actions():
            raise refusal(self, move).error()
        return move

    def complete(self, move: Move) -> Move:
        """``move`` as typed, made whole against this state, legal or not: ``take`` with
        no card takes the top discard, and a solo off any card of a group or pair is played
        off the column's top card (the card the engine records). Any other move is
        returned as it is. :class:`IllegalMoveError` for ``take`` when no face-up card lies
        on the pile.

        >>> from umtali.games.umtali.lessons import LESSONS
        >>> from umtali.games.umtali.notation import parse_move
        >>> hand = LESSONS[3].state_at(6, done=1)  # 3♥ drawn; 3♠ 3♦ 3♣ and 6♦ laid
        >>> hand.complete(parse_move("play 3h off 3c")), hand.complete(parse_move("take"))
        (Move.solo(3♥, off=3♠), Move.take(6♦))
        """
        if move.kind is MoveKind.TAKE and not move.cards:
            top = self.top_discard()
            if top is None:
                raise no_face_up_discard(self.player).error()
            return Move.take(top)
        if move.kind is MoveKind.SOLO and move.target is not None:
            t = move.target
            for side in self.tables:
                for kind, mask, _ in side:
                    if mask >> t & 1 and kind in (ColumnKind.GROUP, ColumnKind.PAIR):
                        top = mask.bit_length() - 1
                        # A card of the column itself is on the table, not in hand: the
                        # move stays as typed, and is refused for that.
                        if top != move.cards[0]:
                            return Move.solo(move.cards[0], top)
        return move

    def pop(self) -> Move:
        """Undo the last move and return it; ``IndexError`` (as ``list.pop`` raises) when
        there is none to undo, or the hand keeps no undo (:meth:`forget_undo`)."""
        if self._undo is None:
            raise IndexError("pop from a hand that keeps no undo (see forget_undo)")
        if not self._undo:
            raise IndexError("pop from a hand with no moves")
        fields = _UNDO_BY_KIND[self.history[-1][1] & KIND_MASK]
        for name, value in zip(fields, self._undo.pop(), strict=True):
            setattr(self, name, value)
        return Move.from_action(self.history.pop()[1])

    def push_legal(self, action: int) -> None:
        """Play ``action``, an int of :meth:`legal_actions` as the state stands now, without
        checking it: for a loop that has checked its actions already (a batch checks them
        against its masks), where :meth:`push`'s check would be done twice. An action that
        is not legal now leaves the hand in no state the rules allow; use :meth:`push`.

        :meth:`push` and the others call it after their checks. The commonest kinds come
        first: this is the engine's innermost loop. (A method of its own, not an alias of
        a private one: mypyc compiles no alias in a class body, docs/PERFORMANCE.md.)"""
        kind = action & KIND_MASK
        undo = self._undo
        if undo is not None:
            undo.append(_SNAPSHOT_BY_KIND[kind](self))
        p = self.player
        self.history.append((p, action))
        self._legal = None
        hands = self.hands
        if kind == _DRAW:
            got = 1 << self.stock[self.stock_pos]
            self.stock_pos += 1
            self.hands = (hands[0] | got, hands[1]) if p == 0 else (hands[0], hands[1] | got)
            self.phase = _PLAY_PHASE
        elif kind == _DISCARD:
            c = action >> CARD_SHIFT & CARD_FIELD
            left = hands[p] & ~(1 << c)
            self.hands = (left, hands[1]) if p == 0 else (hands[0], left)
            if action & DISCARD_FACE_DOWN:
                self.pile = (*self.pile, c | FACE_DOWN)
                self._lay_down(p, 1 << c)
            else:
                self.pile = (*self.pile, c)
            if not left:
                self._went_out(p)
            elif self.turn >= self.rules.turn_cap:
                self._finish(Termination.TURN_CAP)
            elif self.stock_pos < len(self.stock):
                # _start_turn for the common case, inline: the next player draws.
                self.turn += 1
                self.turn_open = self.open_mask
                self.player = 1 - p
                if self.taken:
                    self.taken = 0
                    self.took_two = False
                self.last_turn = False
                self.phase = _DRAW_PHASE
            else:
                self._start_turn(1 - p, last=False)
        elif kind == _SOLO:
            c = action >> CARD_SHIFT & CARD_FIELD
            off = action >> SECOND_SHIFT & CARD_FIELD
            left = hands[p] & ~(1 << c)
            self.hands = (left, hands[1]) if p == 0 else (hands[0], left)
            self._add_column(p, _SOLO_COLUMN, 1 << c, -1 if off == NO_CARD else off)
            if not left:
                self._went_out(p)
        elif kind == _MELD:
            meld = action >> CARD_SHIFT
            left = hands[p] & ~meld
            self.hands = (left, hands[1]) if p == 0 else (hands[0], left)
            self._add_column(p, column_kind(meld), meld, -1)
            if not left:
                self._went_out(p)
        elif kind in (_TAKE, _TAKE_TWO):
            pile = self.pile
            top = 1 << pile[-1]
            if kind == _TAKE:
                card = action >> CARD_SHIFT & CARD_FIELD
                if pile[-1] == card:
                    got = top
                    self.pile = pile[:-1]
                    self.must_meld = 0
                else:  # a deep take (seed 003): the named card and every card above it
                    deep = pile.index(card)
                    got = 0
                    for e in pile[deep:]:
                        got |= 1 << e
                    self.pile = pile[:deep]
                    self.must_meld = 1 << card
                self.took_two = False
            else:
                got = top | 1 << pile[-2]
                self.pile = pile[:-2]
                self.must_meld = got
                self.took_two = True
            self.hands = (hands[0] | got, hands[1]) if p == 0 else (hands[0], hands[1] | got)
            self.taken = got
            self.taken_top = top
            et = self.ever_taken
            self.ever_taken = (et[0] | got, et[1]) if p == 0 else (et[0], et[1] | got)
            self.phase = _PLAY_PHASE
        elif kind == _PAIR:
            pair = action >> CARD_SHIFT & ALL_CARDS
            discard = action >> PAIR_DISCARD_SHIFT & CARD_FIELD
            gone = pair
            if discard != NO_CARD:
                gone |= 1 << discard
                if action & PAIR_FACE_DOWN:
                    self.pile = (*self.pile, discard | FACE_DOWN)
                    self._lay_down(p, 1 << discard)
                else:
                    self.pile = (*self.pile, discard)
            self._set_hand(p, hands[p] & ~gone)
            # A pair (R6), or the two-card run a player may go out with under seed 003.
            self._add_column(p, _PAIR_COLUMN if is_pair(pair) else _SEQUENCE_COLUMN, pair, -1)
            self._went_out(p)
        elif kind == _FORFEIT:
            self._finish(Termination.OUT)
        elif kind in (_KEEP, _GIVE):
            self._deal(self.dealer if kind == _KEEP else 1 - self.dealer)
        else:  # pragma: no cover - legal_actions never holds another kind
            raise InvalidMoveError(f"unknown action {action}")

    def _set_hand(self, p: int, mask: int) -> None:
        self.hands = (mask, self.hands[1]) if p == 0 else (self.hands[0], mask)

    def _add_column(self, p: int, kind: ColumnKind, mask: int, off: int) -> None:
        column = (int(kind), mask, off)
        t = self.tables
        self.tables = ((*t[0], column), t[1]) if p == 0 else (t[0], (*t[1], column))
        pts = column_points(kind, mask, self.rules.marriage_multiplier)
        self.points = (
            (self.points[0] + pts, self.points[1])
            if p == 0
            else (self.points[0], self.points[1] + pts)
        )
        if kind == _SOLO_COLUMN:
            c = mask.bit_length() - 1
            self.solo_mask |= mask
            self.open_mask |= SOLO_ACCEPTS[c]
        elif kind in (_GROUP_COLUMN, _PAIR_COLUMN):
            top = mask.bit_length() - 1
            anchors = list(self.rank_anchor)
            anchors[rank_of(top)] = top
            self.rank_anchor = tuple(anchors)
            self.open_mask |= RANK_MASKS[rank_of(top)]
        elif kind == _SEQUENCE_COLUMN:
            low = (mask & -mask).bit_length() - 1
            high = mask.bit_length() - 1
            self.seqs = (*self.seqs, (low, high))
            ends = meld_accepts(mask)
            self.seq_open |= ends
            self.open_mask |= ends

    def _deal(self, eleventh: int) -> None:
        self.eleventh = eleventh
        self.hands = deal_hands(self.deck, self.dealer, eleventh)
        self._open(eleventh)

    def _deal_with_upcard(self) -> None:
        """Seed 003's deal: 10 cards each, the next card turned up to start the discard
        pile, and the non-dealer plays first."""
        self.hands = deal_hands(self.deck, self.dealer, -1)
        self.pile = (self.deck[UPCARD_INDEX],)
        self._open(1 - self.dealer)

    def _open(self, player: int) -> None:
        """Start the opening turn: ``player`` draws first when the rules say so, else he
        plays at once (R2: the 11-card player does not draw)."""
        self.player = player
        self.turn = 1
        self.phase = _DRAW_PHASE if self.rules.opening_draw else _PLAY_PHASE

    def _lay_down(self, p: int, card: int) -> None:
        """Note that player ``p`` laid the card of mask ``card`` face down."""
        down = self.laid_down
        self.laid_down = (down[0] | card, down[1]) if p == 0 else (down[0], down[1] | card)

    def _went_out(self, p: int) -> None:
        if self.last_turn:
            self._finish(Termination.OUT)
        else:
            self.out = p
            self._start_turn(1 - p, last=True)

    def _start_turn(self, p: int, last: bool) -> None:
        self.turn += 1
        self.turn_open = self.open_mask
        self.player = p
        self.taken = 0
        self.took_two = False
        self.last_turn = last
        if self.stock_pos < len(self.stock):
            self.phase = _DRAW_PHASE
        elif not last:
            self._finish(Termination.DEAD_STOCK)
        elif self.pile and not self.pile[-1] & FACE_DOWN:
            self.phase = _DRAW_PHASE  # the stock is empty: only the discard can be drawn
        else:
            self.phase = _PLAY_PHASE  # R8: nothing to draw on the last turn, skip the draw

    def _finish(self, how: Termination) -> None:
        self.phase = _OVER_PHASE
        self.termination = how

    # -- rebuilding --------------------------------------------------------------------------
    @classmethod
    def from_parts(
        cls,
        *,
        rules: RuleSet,
        dealer: int,
        eleventh: int,
        phase: Phase,
        player: int,
        hands: tuple[int, int],
        stock: Sequence[int],
        pile: Sequence[tuple[int, bool]],
        tables: Sequence[Sequence[Column]],
        turn: int,
        taken: int = 0,
        took_two: bool = False,
        ever_taken: tuple[int, int] = (0, 0),
        out: int | None = None,
        last_turn: bool = False,
        turn_open: int | None = None,
        must_meld: int | None = None,
        taken_top: int | None = None,
        laid_down: tuple[int, int] = (0, 0),
    ) -> HandState:
        """A state in the middle of a hand, from its parts. It has no deck and no
        history to pop. The parts must account for all 52 cards exactly once; if they
        do not, ``ValueError``. (:meth:`from_raw` takes the engine's own encodings.)"""
        if len(tables) != 2:
            raise ValueError("a hand's table has two sides")
        return cls.from_raw(
            rules=rules,
            dealer=dealer,
            eleventh=eleventh,
            phase=phase,
            player=player,
            hands=hands,
            stock=tuple(stock),
            pile=tuple(c | (FACE_DOWN if down else 0) for c, down in pile),
            tables=(raw_side(tables[0]), raw_side(tables[1])),
            turn=turn,
            taken=taken,
            took_two=took_two,
            ever_taken=ever_taken,
            out=-1 if out is None else out,
            last_turn=last_turn,
            turn_open=turn_open,
            must_meld=must_meld,
            taken_top=taken_top,
            laid_down=laid_down,
        )

    @classmethod
    def from_raw(
        cls,
        *,
        rules: RuleSet,
        dealer: int,
        eleventh: int,
        phase: Phase,
        player: int,
        hands: tuple[int, int],
        stock: tuple[int, ...],
        pile: tuple[int, ...],
        tables: tuple[RawSide, RawSide],
        turn: int,
        taken: int,
        took_two: bool,
        ever_taken: tuple[int, int],
        out: int,
        last_turn: bool,
        check: bool = True,
        table_index: TableIndex | None = None,
        turn_open: int | None = None,
        must_meld: int | None = None,
        taken_top: int | None = None,
        laid_down: tuple[int, int] = (0, 0),
    ) -> HandState:
        """:meth:`from_parts` in the engine's encodings: the pile as card ids with the
        ``FACE_DOWN`` flag, the table as (kind, mask, played-off or -1) triples, ``out``
        as -1 for nobody. This is the fast path of :func:`umtali.games.umtali.view.determinize`;
        ``check=False`` skips the 52-card check for callers that dealt the parts
        themselves; ``table_index`` (from :meth:`table_index` of a state with the same
        table and rules) spares laying the columns anew. ``turn_open`` is what the table
        accepted when the turn began (by default what it accepts now: nothing laid yet
        this turn). ``must_meld`` and ``taken_top`` are what this turn's take binds (by
        default those of a take of the top card, or of R3's take-two when
        ``took_two``). ``laid_down``: the cards each player laid face down on the pile
        (by default none is known to be anyone's: every player's view hides them)."""
        state = cls.__new__(cls)
        state.rules = rules
        state.dealer = dealer
        state.deck = ()
        state.eleventh = eleventh
        state.phase = phase
        state.player = player
        state.hands = hands
        state.stock = stock
        state.stock_pos = 0
        state.pile = pile
        state.turn = turn
        state.taken = taken
        state.took_two = took_two
        state.must_meld = (taken if took_two else 0) if must_meld is None else must_meld
        state.taken_top = taken if taken_top is None else taken_top
        state.ever_taken = ever_taken
        state.out = out
        state.laid_down = laid_down
        state.last_turn = last_turn
        state.termination = None
        state.history = []
        state._legal = None
        state._undo = []
        if table_index is None or table_index.tables != tables:
            state._rebuild_table(tables)
        else:
            for name, value in zip(_TABLE_FIELDS, table_index, strict=True):
                setattr(state, name, value)
        state.turn_open = state.open_mask if turn_open is None else turn_open
        if check:
            seen = hands[0] | hands[1]
            count = hands[0].bit_count() + hands[1].bit_count()
            for c in (*stock, *(e & PILE_CARD for e in pile)):
                seen |= 1 << c
                count += 1
            for side in tables:
                for _, mask, _ in side:
                    seen |= mask
                    count += mask.bit_count()
            if seen != ALL_CARDS or count != 52:
                raise ValueError("the parts of a hand must hold each of the 52 cards exactly once")
        return state

    def _rebuild_table(self, tables: tuple[RawSide, RawSide]) -> None:
        """Set the table and every index derived from it, by laying the columns anew."""
        self.tables = ((), ())
        self.points = (0, 0)
        self.open_mask = 0
        self.solo_mask = 0
        self.rank_anchor = (-1,) * 14
        self.seqs = ()
        self.seq_open = 0
        for p, side in enumerate(tables):
            for kind, mask, off in side:
                self._add_column(p, _COLUMN_KINDS[kind], mask, off)

    def table_index(self) -> TableIndex:
        """The table with every index derived from it, as one immutable value: pass it
        to :meth:`from_raw` to rebuild a state on this table without laying the columns
        anew (a view keeps it for :func:`umtali.games.umtali.view.determinize`).

        It is exactly what laying the columns anew gives: sequences are listed side by
        side (player 0's first), as a rebuild lays them, not in the order they were
        played, so a state rebuilt either way makes the same moves in the same order."""
        tables, points, open_mask, solo_mask, rank_anchor, _, seq_open = _table_fields(self)
        seqs = tuple(
            ((mask & -mask).bit_length() - 1, mask.bit_length() - 1)
            for side in tables
            for kind, mask, _ in side
            if kind == _SEQUENCE_COLUMN
        )
        return TableIndex(tables, points, open_mask, solo_mask, rank_anchor, seqs, seq_open)

    def recount(self) -> tuple[int, int]:
        """Each side's points recounted from its columns (a check on the running score)."""
        return (
            sum(
                column_points(ColumnKind(k), m, self.rules.marriage_multiplier)
                for k, m, _ in self.tables[0]
            ),
            sum(
                column_points(ColumnKind(k), m, self.rules.marriage_multiplier)
                for k, m, _ in self.tables[1]
            ),
        )

    # -- copies ---------------------------------------------------------------------------
    def clone(self) -> HandState:
        """An independent copy, history included."""
        other = HandState.__new__(HandState)
        for name in _STATE_FIELDS:
            setattr(other, name, getattr(self, name))
        other.history = list(self.history)
        other._undo = None if self._undo is None else list(self._undo)
        return other

    def forget_undo(self) -> HandState:
        """Stop keeping what :meth:`pop` needs, and return the state. Each push then costs
        less (no snapshot of the state is taken), which is what a playout that never
        looks back wants; :meth:`pop` raises ``IndexError`` from then on. Clones made
        afterwards keep no undo either.

        >>> from umtali.kernel.deck import seeded_deck
        >>> hand = HandState(seeded_deck(1), dealer=0).forget_undo()
        >>> hand.push(hand.legal_actions()[0])
        >>> hand.pop()
        Traceback (most recent call last):
        ...
        IndexError: pop from a hand that keeps no undo (see forget_undo)
        """
        self._undo = None
        return self

    def play_out(self, rng: random.Random) -> HandOutcome:
        """Play uniformly random legal moves to the end of the hand and return its
        outcome: the random rollout of a Monte Carlo search. Each pick is
        ``legal[int(rng.random() * len(legal))]`` (uniform up to a bias below 1e-15),
        one C call where ``randrange`` is a Python function; the moves skip
        :meth:`push`'s legality check, since they come from the legal list itself.

        >>> import random
        >>> from umtali.kernel.deck import seeded_deck
        >>> hand = HandState(seeded_deck(1), dealer=0).forget_undo()
        >>> hand.play_out(random.Random(2)) == hand.outcome() and hand.is_over()
        True
        """
        uniform = rng.random
        apply = self.push_legal
        legal_actions = self.legal_actions
        while self.phase != _OVER_PHASE:
            legal = legal_actions()
            apply(legal[int(uniform() * len(legal))])
        outcome = self.outcome()
        assert outcome is not None
        return outcome

    def __repr__(self) -> str:
        return (
            f"<HandState turn {self.turn} {Phase(self.phase).name} {player_name(self.player)}"
            f" to move, hands {self.hand(0)!s} | {self.hand(1)!s}>"
        )


def raw_side(side: Sequence[Column]) -> RawSide:
    """One side of the table in the engine's encoding (see :meth:`HandState.from_raw`)."""
    return tuple(
        (int(c.kind), c.cards.mask, -1 if c.played_off is None else c.played_off) for c in side
    )


class LegalMoves:
    """The legal moves of a state, generated once and read lazily as :class:`Move` objects."""

    __slots__ = ("_state",)

    def __init__(self, state: HandState) -> None:
        self._state = state

    def __iter__(self) -> Iterator[Move]:
        return map(Move.from_action, self._state.legal_actions())

    def __len__(self) -> int:
        return len(self._state.legal_actions())

    def count(self) -> int:
        return len(self)

    def __bool__(self) -> bool:
        return bool(self._state.legal_actions())

    def __contains__(self, move: object) -> bool:
        if isinstance(move, Move):
            action = move.action
        elif isinstance(move, int) and not isinstance(move, bool):
            action = move
        else:
            return False
        return action in self._state.legal_actions()

    def __repr__(self) -> str:
        return f"<LegalMoves {', '.join(str(m) for m in self)}>"
