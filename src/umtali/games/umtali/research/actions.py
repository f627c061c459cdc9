"""A fixed action space for Umtali: every move the rules could ever offer is one int in
``range(NUM_ACTIONS)``.

The engine's packed action ints (:mod:`umtali.games.umtali.moves`) are sparse (a meld packs its 52-bit
card mask), so learners get this dense numbering instead; the engine keeps its own. The
space holds every move any rule option can offer, so one numbering serves every variant
(the standard rules never offer the short melds and runs of seed 003's options). It is
laid out in named blocks, each a *base* (its first index) and a count:

==============  =====  =====  ===========================================================
block           base   count  what one index of it is
==============  =====  =====  ===========================================================
``KEEP``            0      1  the dealer keeps the 11th card (R1)
``GIVE``            1      1  the dealer gives the 11th card to the opponent (R1)
``DRAW``            2      1  draw the top card of the stock (R3)
``FORFEIT``         3      1  end the last turn without going out (R7)
``TAKE``            4     52  take a face-up discard (the top one, or with
                              ``deep_take`` a deeper one and all above it):
                              ``TAKE + card``
``TAKE_TWO``       56   2652  take the top two discards: the top card, then the one below
                              (every ordered pair of two different cards)
``MELD``         2708    316  lay a meld: 144 sequences, 60 groups, 4 marriages, then the
                              last turn's short melds (``last_turn_short_melds``): 72
                              pairs, 36 two-card runs
``SOLO``         3024    236  play one card: a Jack off nothing, or a card off a table card
                              that accepts it (its rank, or its suit neighbour)
``DISCARD``      3260     52  discard face up: ``DISCARD + card``
``DISCARD_DOWN`` 3312     52  discard face down, going out: ``DISCARD_DOWN + card``
``PAIR``         3364  10908  go out with a two-card column (:data:`PAIR_COLUMNS`: 72
                              pairs, 36 two-card runs), each with no discard, one of the
                              50 other cards face up, or one of them face down
==============  =====  =====  ===========================================================

``NUM_ACTIONS`` is 14,272. The meld block is exact, not a bound: the engine offers only
maximal melds of a hand (:func:`umtali.games.umtali.melds.hand_melds`), which are runs of 3 to 10
cards of one suit within A..10 (8 + 7 + ... + 1 = 36 per suit), a rank other than the
Jack held three times (4 ways) or four times (1), and a King with the Queen of its suit;
and on the last turns, with ``last_turn_short_melds``, two cards of a rank (6 pairs of
each of 12 ranks) or two in a row of a suit within A..10 (9 per suit,
:func:`umtali.games.umtali.melds.short_melds`). The block of going out dominates the count: the
closing column and its discard are one move (R6).

>>> from umtali.kernel.cards import parse_card
>>> from umtali.games.umtali.moves import Move
>>> index_of(Move.discard_card(parse_card("5h"), face_down=True)) - DISCARD_DOWN
30
>>> move_of(index_of(Move.solo(parse_card("10d"), parse_card("Jd"))))
Move.solo(10♦, off=J♦)
>>> [move_of(i).text() for i in (KEEP, DRAW, TAKE + parse_card("Ks"))]
['keep', 'draw', 'take K♠']

A move the rules could never offer has no index:

>>> index_of(Move.meld([parse_card("7s"), parse_card("2c")]))
Traceback (most recent call last):
...
umtali.games.umtali.research.actions.ActionSpaceError: 'meld 7♠ 2♣' is no move the rules could ever offer, so it has no index in the action space
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import numpy as np
import numpy.typing as npt

from umtali.games.umtali.melds import SOLO_ACCEPTS, is_pair
from umtali.games.umtali.moves import (
    CARD_SHIFT,
    DISCARD_FACE_DOWN,
    JACK_SOLO,
    NO_CARD,
    PAIR_DISCARD_SHIFT,
    PAIR_FACE_DOWN,
    SECOND_SHIFT,
    Move,
    MoveKind,
)
from umtali.kernel.cards import JACK, JACKS, RANK_MASKS, SUIT_MASKS, quoted, rank_of

if TYPE_CHECKING:
    from umtali.games.umtali.state import HandState
    from umtali.games.umtali.view import PlayerView

__all__ = [
    "ACTION_BLOCKS",
    "DISCARD",
    "DISCARD_DOWN",
    "DRAW",
    "ENGINE_ACTIONS",
    "FORFEIT",
    "GIVE",
    "INDEX_OF_ACTION",
    "KEEP",
    "MELD",
    "NUM_ACTIONS",
    "PAIR",
    "PAIR_COLUMNS",
    "SOLO",
    "TAKE",
    "TAKE_TWO",
    "ActionBlock",
    "ActionSpaceError",
    "block_of",
    "engine_action",
    "index_of",
    "indices_of_actions",
    "legal_indices",
    "legal_mask",
    "mask_of_view",
    "move_of",
    "table_markdown",
]


class ActionSpaceError(ValueError):
    """An index outside the action space, or a move that has no index in it."""


@dataclass(frozen=True)
class ActionBlock:
    """One named block of the action space.

    Attributes:
        name: the block's name, as its base constant is called (``"TAKE_TWO"``).
        base: its first index.
        count: how many indices it holds.
        what: what one index of it is, in a few words.
    """

    name: str
    base: int
    count: int
    what: str

    def __contains__(self, index: object) -> bool:
        return type(index) is int and self.base <= index < self.base + self.count


def _meld_masks() -> list[int]:
    """Every meld the engine can offer, in the block's order: sequences (by suit, lowest
    card, then length), groups (by rank: the three-card groups lacking clubs, diamonds,
    hearts, spades, then the four), marriages (by suit), then the short melds of the last
    turns: the pairs and two-card runs of :data:`PAIR_COLUMNS`."""
    melds = []
    for suit in range(4):
        for low in range(10):
            for length in range(3, 11 - low):
                melds.append(((1 << length) - 1) << (13 * suit + low))
    for rank in range(1, 14):
        if rank == JACK:
            continue
        four = RANK_MASKS[rank]
        melds.extend(four & ~SUIT_MASKS[suit] for suit in range(4))
        melds.append(four)
    for suit in range(4):
        king = 13 * suit + 12
        melds.append(1 << king | 1 << (king - 1))
    melds.extend(PAIR_COLUMNS)
    return melds


_PAIRS: Final = tuple(
    (1 << a) | (1 << b) for a in range(52) for b in range(a + 1, 52) if is_pair(1 << a | 1 << b)
)
_TWO_RUNS: Final = tuple(0b11 << (13 * suit + low) for suit in range(4) for low in range(9))

PAIR_COLUMNS: Final = _PAIRS + _TWO_RUNS
"""The 108 two-card columns one may go out with, as card masks: the 72 pairs (two cards
of a rank, no Jacks; R6) in increasing order of mask, then the 36 two-card runs of a suit
within A..10 (seed 003's ``last_turn_short_melds``), by suit and lowest card."""

_PAIR_SLOTS: Final = 101
"""Indices per closing column: no discard, then each of the 50 other cards up, then each
down."""


def _build() -> tuple[list[ActionBlock], list[int]]:
    """The blocks and, index by index, the engine's packed action of each."""
    blocks: list[ActionBlock] = []
    actions: list[int] = []

    def block(name: str, what: str, packed: list[int]) -> None:
        blocks.append(ActionBlock(name, len(actions), len(packed), what))
        actions.extend(packed)

    block("KEEP", "the dealer keeps the 11th card (R1)", [int(MoveKind.KEEP)])
    block("GIVE", "the dealer gives the 11th card away (R1)", [int(MoveKind.GIVE)])
    block("DRAW", "draw the top card of the stock (R3)", [int(MoveKind.DRAW)])
    block("FORFEIT", "end the last turn without going out (R7)", [int(MoveKind.FORFEIT)])
    block(
        "TAKE",
        "take a face-up discard and all above it: TAKE + card",
        [MoveKind.TAKE | c << CARD_SHIFT for c in range(52)],
    )
    block(
        "TAKE_TWO",
        "take the top two discards, top card first (every ordered pair)",
        [
            MoveKind.TAKE_TWO | top << CARD_SHIFT | second << SECOND_SHIFT
            for top in range(52)
            for second in range(52)
            if second != top
        ],
    )
    block(
        "MELD",
        "lay a meld: 144 sequences, 60 groups, 4 marriages; 72 pairs, 36 two-card runs",
        [MoveKind.MELD | m << CARD_SHIFT for m in _meld_masks()],
    )
    solos = [MoveKind.SOLO | c << CARD_SHIFT | JACK_SOLO for c in range(52) if JACKS >> c & 1]
    for c in range(52):
        if rank_of(c) != JACK:
            targets = SOLO_ACCEPTS[c] & ~(1 << c)
            solos.extend(
                MoveKind.SOLO | c << CARD_SHIFT | t << SECOND_SHIFT
                for t in range(52)
                if targets >> t & 1
            )
    block("SOLO", "play a Jack, or a card off a table card that accepts it", solos)
    block(
        "DISCARD",
        "discard face up: DISCARD + card",
        [MoveKind.DISCARD | c << CARD_SHIFT for c in range(52)],
    )
    block(
        "DISCARD_DOWN",
        "discard face down, going out: DISCARD_DOWN + card",
        [MoveKind.DISCARD | c << CARD_SHIFT | DISCARD_FACE_DOWN for c in range(52)],
    )
    pairs = []
    for pair in PAIR_COLUMNS:
        packed = MoveKind.PAIR | pair << CARD_SHIFT
        others = [c for c in range(52) if not pair >> c & 1]
        pairs.append(packed | NO_CARD << PAIR_DISCARD_SHIFT)
        pairs.extend(packed | c << PAIR_DISCARD_SHIFT for c in others)
        pairs.extend(packed | c << PAIR_DISCARD_SHIFT | PAIR_FACE_DOWN for c in others)
    block(
        "PAIR",
        "go out with a pair or two-card run: no discard, one card up, or one down",
        pairs,
    )
    return blocks, actions


_blocks, _actions = _build()
ACTION_BLOCKS: Final[tuple[ActionBlock, ...]] = tuple(_blocks)
"""The blocks of the action space, in index order."""
ENGINE_ACTIONS: Final[tuple[int, ...]] = tuple(_actions)
"""By index, the engine's packed action int (:func:`engine_action` with its check)."""
INDEX_OF_ACTION: Final[dict[int, int]] = {a: i for i, a in enumerate(ENGINE_ACTIONS)}
"""By the engine's packed action int, its index: the one lookup a legal mask makes per
move, kept as a plain dict for speed (read it, never change it)."""
del _blocks, _actions

NUM_ACTIONS: Final = len(ENGINE_ACTIONS)
"""How many actions there are: 14,272."""
(KEEP, GIVE, DRAW, FORFEIT, TAKE, TAKE_TWO, MELD, SOLO, DISCARD, DISCARD_DOWN, PAIR) = (
    b.base for b in ACTION_BLOCKS
)


def _check_index(index: object) -> int:
    if (
        not isinstance(index, (int, np.integer))
        or isinstance(index, bool)
        or not 0 <= index < NUM_ACTIONS
    ):
        raise ActionSpaceError(
            f"{quoted(index)} is not an action index: an index is an int 0..{NUM_ACTIONS - 1}"
        )
    return int(index)


def engine_action(index: int) -> int:
    """The engine's packed action int of ``index`` (what :meth:`HandState.push` takes).

    >>> engine_action(DRAW) == Move.draw().action
    True
    """
    return ENGINE_ACTIONS[_check_index(index)]


def move_of(index: int) -> Move:
    """The :class:`~umtali.games.umtali.moves.Move` of ``index``; :class:`ActionSpaceError` for an
    index outside ``range(NUM_ACTIONS)``."""
    return Move.from_action(ENGINE_ACTIONS[_check_index(index)])


def index_of(move: Move | int) -> int:
    """The index of ``move`` (a :class:`~umtali.games.umtali.moves.Move` or the engine's packed action
    int); :class:`ActionSpaceError` for a move the rules could never offer (a meld of
    cards that form none, ``take`` without its card, ...)."""
    action = move.action if isinstance(move, Move) else move
    index = INDEX_OF_ACTION.get(action) if type(action) is int else None
    if index is None:
        try:
            named = f"'{Move.from_action(action)}'" if type(action) is int else quoted(move)
        except ValueError:  # not even a packed move
            named = quoted(move)
        raise ActionSpaceError(
            f"{named} is no move the rules could ever offer, so it has no index in the action space"
        )
    return index


def block_of(index: int) -> ActionBlock:
    """The block ``index`` lies in.

    >>> block_of(TAKE_TWO + 51).name
    'TAKE_TWO'
    """
    i = _check_index(index)
    for block in reversed(ACTION_BLOCKS):
        if i >= block.base:
            return block
    raise AssertionError("the blocks cover every index")  # pragma: no cover


def legal_indices(state: HandState) -> list[int]:
    """The indices of the legal moves of ``state`` now, in the engine's order."""
    index = INDEX_OF_ACTION
    return [index[a] for a in state.legal_actions()]


_DIRECT: Final = 1 << 16
"""Packed actions below this are looked up directly in :data:`_INDEX_OF_DIRECT`: every
action but the melds and pairs of higher cards (a take of two, a solo off any card, a
discard face down all fit in 16 bits)."""
_INDEX_OF_DIRECT: Final = np.zeros(_DIRECT, np.intp)
_INDEX_OF_DIRECT[[a for a in ENGINE_ACTIONS if a < _DIRECT]] = [
    i for i, a in enumerate(ENGINE_ACTIONS) if a < _DIRECT
]
_SORTED_ACTIONS: Final = np.array(sorted(ENGINE_ACTIONS), np.int64)
"""The engine's packed actions in increasing order (each fits in 63 bits), for a binary
search of the others."""
_INDEX_OF_SORTED: Final = np.argsort(np.array(ENGINE_ACTIONS, np.int64)).astype(np.intp)
"""The index of each action of :data:`_SORTED_ACTIONS`."""


def indices_of_actions(actions: npt.NDArray[np.int64]) -> npt.NDArray[np.intp]:
    """The indices of an array of the engine's packed actions, each of which must be one
    the rules can offer (the legal actions of some state): :data:`INDEX_OF_ACTION` for a
    whole array in a few numpy calls, where a dict lookup a move costs more than the
    call's share. Most actions are found in a table, the melds and pairs of higher
    cards by a binary search. Nothing is checked, so a packed int outside the space
    gets some index; :func:`index_of` checks one move.

    >>> from umtali.games.umtali.state import HandState
    >>> hand = HandState.from_seed(1)
    >>> hand.push(hand.legal_actions()[0])  # keep
    >>> packed = np.array(hand.legal_actions(), np.int64)
    >>> indices_of_actions(packed).tolist() == legal_indices(hand)
    True
    """
    direct = actions < _DIRECT
    found: npt.NDArray[np.intp] = _INDEX_OF_DIRECT.take(np.where(direct, actions, 0))
    if not direct.all():
        searched = ~direct
        found[searched] = _INDEX_OF_SORTED[np.searchsorted(_SORTED_ACTIONS, actions[searched])]
    return found


def legal_mask(state: HandState) -> npt.NDArray[np.bool_]:
    """The legal moves of ``state`` now as a mask: ``mask[i]`` is true when index ``i`` is
    legal (all false once the hand is over). The environments hand it out as ``int8``,
    the type PettingZoo's and Gymnasium's masked sampling take.

    >>> from umtali.games.umtali.state import HandState
    >>> mask = legal_mask(HandState.from_seed(1))
    >>> [int(i) for i in np.flatnonzero(mask)] == [KEEP, GIVE]
    True
    """
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    index = INDEX_OF_ACTION
    mask[[index[a] for a in state.legal_actions()]] = True
    return mask


def mask_of_view(view: PlayerView) -> npt.NDArray[np.bool_]:
    """The mask of the moves ``view.legal`` lists (all false when the viewer is not to
    move): what :func:`legal_mask` gives on the viewer's turn, from a view alone."""
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    index = INDEX_OF_ACTION
    mask[[index[m.action] for m in view.legal]] = True
    return mask


def table_markdown() -> str:
    """The blocks as a Markdown table (docs/RESEARCH.md shows it; a test keeps the two
    the same)."""
    lines = ["| block | base | count | one index is |", "|---|---:|---:|---|"]
    lines.extend(f"| `{b.name}` | {b.base} | {b.count} | {b.what} |" for b in ACTION_BLOCKS)
    lines.append(f"| (all) | | {NUM_ACTIONS} | |")
    return "\n".join(lines)
