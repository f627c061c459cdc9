"""Observations: what one player may see of a hand (R11), as numpy arrays.

An observation holds exactly what :meth:`umtali.games.umtali.view.PlayerView.of` shows that player,
from that player's side ("own" is the viewer, "opponent" the other), as a dict of arrays
in a Gymnasium ``Dict`` space (:attr:`Observer.space`):

``cards``, ``uint8`` 0/1, shape ``(21, 52)``: one row per card set (:data:`CARD_PLANES`),
card ids as columns (``suit * 13 + rank - 1``, clubs first; see :mod:`umtali.kernel.cards`):

====  ========================  =============================================================
row   name                      the cards
====  ========================  =============================================================
0     ``hand``                  in the viewer's hand
1-5   ``own_<kind>``            on the viewer's side, by column kind: sequence, group,
                                marriage, pair, solo
6-10  ``opponent_<kind>``       on the opponent's side, by column kind
11    ``pile_seen``             on the discard pile as far as the viewer knows them: face up,
                                or laid face down by the viewer himself
12    ``top_discard``           the top discard, if face up (what ``take`` takes)
13    ``second_discard``        the card below it, if both lie face up (``take two``)
14    ``opponent_holds``        the opponent took from the pile and still holds
15    ``opponent_cannot_hold``  the opponent cannot hold: under compulsory play (R4) he ended
                                his turn with nothing playable (no Jack, nothing the table
                                accepted then); empty when that does not apply
16    ``unseen``                the viewer cannot place: the opponent's unknown cards, the
                                stock, face-down discards he did not lay
17    ``taken_by_me``           the viewer ever took from the pile
18    ``taken_by_opponent``     the opponent ever took from the pile
19    ``taken_this_turn``       the player to move took from the pile this turn
20    ``table_accepts``         the table accepts as solo cards now (Jacks aside)
====  ========================  =============================================================

``pile``, ``uint8``, shape ``(52,)``: the discard pile bottom to top, one entry a card: 0
past its top, ``card + 1`` for a face-up card, :data:`FACE_DOWN_ENTRY` (53) for a card
lying face down (that it lies face down is public; which card it is, only its owner
knows, and ``pile_seen`` tells him).

``counts``, ``int32``, shape ``(10,)``: :data:`COUNTS`, the stock size, both hand sizes,
the pile size, the turn number, both sides' points on the table, both game totals before
this hand and the hands still to come in the game.

``flags``, ``uint8`` 0/1, shape ``(13,)``: :data:`FLAGS`, the phase (choose, draw, play,
over: one of the four), whether the viewer is to move, is the dealer, holds the 11th
card, or the opponent does; the last turn (R7); who went out; whether this turn's take
was of two cards; whether the opponent's hand is known to hold no meld.

``action_mask``, ``int8`` 0/1, shape ``(NUM_ACTIONS,)``: the viewer's legal moves in
:mod:`umtali.games.umtali.research.actions` numbering, all 0 when he is not to move.

With ``perfect_recall``, ``history``, ``int16``, shape ``(max_moves(rules), 2)``: every
move so far as the viewer saw it, in order, one row a move: who made it (1 the viewer, 2
the opponent, 0 for the rows past the last move) and its token: the action index, but
for the opponent's face-down discards, whose card the viewer never saw, which read
:data:`HIDDEN_DISCARD` (a discard) or ``HIDDEN_PAIR_DISCARD + n`` (the column ``PAIR_COLUMNS[n]``
going out over a face-down discard).

That is version ``v0`` of the arrays (``encoding="v0"``). The default, ``v1``, says the
same for a network to read as it is, every entry 0 or 1 or a count in [0, 1]: ``cards``
and ``flags`` as above; ``pile``, ``uint8`` 0/1, shape ``(52, 53)``, one row a place from
the bottom, the card's column for a face-up card, the last for a face-down one, all 0
past the top; ``counts``, ``float32``, each divided by its bound (:func:`count_bounds`);
``history``, ``uint8`` 0/1, shape ``(max_moves(rules), 119)``, one row a move, its
columns :data:`HISTORY_COLUMNS` (who moved, the move's block, face down, hidden, the
cards it moves), each token's row :func:`history_features`.

>>> import numpy as np
>>> from umtali.games.umtali.lessons import LESSONS
>>> hand = LESSONS[0].replay(turn=2)  # after the opening turn: K♠ K♥ K♣, 3♥ 2♥ A♥, 5♥
>>> obs = Observer(encoding="v0").observe(hand, 0)
>>> int(obs["cards"][CARD_PLANES.index("hand")].sum()), int(obs["counts"][COUNTS.index("stock")])
(10, 31)
>>> from umtali.kernel.cards import parse_card
>>> int(obs["pile"][0]) == parse_card("5h") + 1, int(obs["cards"][12, parse_card("5h")])
(True, 1)
>>> Observer(encoding="v0").space.contains(obs)
True
>>> v1 = Observer().observe(hand, 0)
>>> v1["pile"].shape, float(v1["counts"][COUNTS.index("stock")]), Observer().space.contains(v1)
((52, 53), 1.0, True)
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from functools import cache
from typing import Final

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from umtali.games.umtali.melds import ColumnKind
from umtali.games.umtali.moves import PAIR_FACE_DOWN, MoveKind
from umtali.games.umtali.research.actions import (
    ACTION_BLOCKS,
    DISCARD,
    DISCARD_DOWN,
    INDEX_OF_ACTION,
    NUM_ACTIONS,
    PAIR,
    PAIR_COLUMNS,
    block_of,
    engine_action,
    legal_indices,
    move_of,
)
from umtali.games.umtali.rules import STANDARD, RuleSet
from umtali.games.umtali.state import HandState, RawSide
from umtali.games.umtali.terms import FACE_DOWN, PILE_CARD, Phase
from umtali.kernel.cards import ALL_CARDS, JACKS, cards_of
from umtali.rl.shared import (
    DEFAULT_ENCODING,
    EncodingVersion,
    checked_encoding,
    checked_rules,
    flat_layout,
    history_planes,
)

__all__ = [
    "CARD_PLANES",
    "COUNTS",
    "FACE_DOWN_ENTRY",
    "FLAGS",
    "HIDDEN_DISCARD",
    "HIDDEN_PAIR_DISCARD",
    "HISTORY_COLUMNS",
    "MAX_CARD_POINTS",
    "NUM_TOKENS",
    "Observer",
    "PileFacts",
    "TableFacts",
    "added_column",
    "count_bounds",
    "facts",
    "history_features",
    "laid_face_down",
    "max_moves",
    "next_pile_facts",
    "next_table_facts",
    "pile_facts",
    "table_facts",
    "unpack_cards",
]

_KINDS: Final = tuple(k.label for k in sorted(ColumnKind, key=int))
"""Column kinds in the engine's order: sequence, group, marriage, pair, solo."""

CARD_PLANES: Final = (
    "hand",
    *(f"own_{k}" for k in _KINDS),
    *(f"opponent_{k}" for k in _KINDS),
    "pile_seen",
    "top_discard",
    "second_discard",
    "opponent_holds",
    "opponent_cannot_hold",
    "unseen",
    "taken_by_me",
    "taken_by_opponent",
    "taken_this_turn",
    "table_accepts",
)
"""The rows of ``cards``, in order."""

COUNTS: Final = (
    "stock",
    "hand_size",
    "opponent_hand_size",
    "pile_size",
    "turn",
    "points",
    "opponent_points",
    "game_score",
    "opponent_game_score",
    "hands_left",
)
"""The entries of ``counts``, in order."""

FLAGS: Final = (
    "choose",
    "draw",
    "play",
    "over",
    "to_move",
    "dealer",
    "eleventh",
    "opponent_eleventh",
    "last_turn",
    "went_out",
    "opponent_went_out",
    "took_two",
    "opponent_meld_free",
)
"""The entries of ``flags``, in order."""

_NUM_COUNTS: Final = len(COUNTS)
_pack_masks: Final = struct.Struct(f"<{len(CARD_PLANES)}Q").pack
_pack_numbers: Final = struct.Struct(f"<{len(COUNTS) + len(FLAGS)}f").pack

FACE_DOWN_ENTRY: Final = 53
"""A ``pile`` entry for a card lying face down."""

HIDDEN_DISCARD: Final = NUM_ACTIONS
"""The history token of an opponent's face-down discard."""
HIDDEN_PAIR_DISCARD: Final = NUM_ACTIONS + 1
"""The first history token of an opponent's pair laid over a face-down discard; the pair
``PAIR_COLUMNS[n]`` is ``HIDDEN_PAIR_DISCARD + n``."""
NUM_TOKENS: Final = HIDDEN_PAIR_DISCARD + len(PAIR_COLUMNS)
"""How many history tokens there are."""


def _opponent_tokens() -> tuple[int, ...]:
    """By action index, the token the other player sees: the index itself, but for a
    face-down discard, whose card he does not see."""
    tokens = list(range(NUM_ACTIONS))
    for c in range(52):
        tokens[DISCARD_DOWN + c] = HIDDEN_DISCARD
    for n in range(len(PAIR_COLUMNS)):
        for slot in range(1, 101):
            index = PAIR + 101 * n + slot
            if engine_action(index) & PAIR_FACE_DOWN:
                tokens[index] = HIDDEN_PAIR_DISCARD + n
    return tuple(tokens)


_OPPONENT_TOKENS: Final = _opponent_tokens()
assert _OPPONENT_TOKENS[DISCARD + 5] == DISCARD + 5

MAX_CARD_POINTS: Final = 116
"""All 52 cards' points (R9): each scores 1, and the 16 tens and court cards 4 more."""

_KIND_COLUMNS: Final = tuple(block.name.lower() for block in ACTION_BLOCKS)
HISTORY_COLUMNS: Final = (
    "mine",
    "other",
    *_KIND_COLUMNS,
    "face_down",
    "hidden",
    *(f"card_{c}" for c in range(52)),
    *(f"second_{c}" for c in range(52)),
)
"""The columns of a ``v1`` ``history`` row (119): who moved (``mine``, ``other``); the
move's block in the action space, one of eleven (``keep`` .. ``pair``); whether it lays
a card face down, and whether that card is hidden from the viewer (the other's); then
two planes of 52 cards: ``card_<id>`` the cards it takes or lays (the one taken, the top
of two taken, the meld's, the solo card, the discard, the pair's two), ``second_<id>``
the second card where there is one (the card below the top of two taken, the table card
a solo goes off, a pair's discard)."""


@cache
def history_features() -> npt.NDArray[np.uint8]:
    """By ``v0`` history token (:data:`NUM_TOKENS` of them), its ``v1`` columns after
    the first two (:data:`HISTORY_COLUMNS`): one table, made when first asked for, that
    turns a row of tokens into planes in one numpy call."""
    kinds = len(_KIND_COLUMNS)
    face_down, hidden, card, second = kinds, kinds + 1, kinds + 2, kinds + 2 + 52
    table = np.zeros((NUM_TOKENS, len(HISTORY_COLUMNS) - 2), np.uint8)
    for index in range(NUM_ACTIONS):
        row = table[index]
        row[ACTION_BLOCKS.index(block_of(index))] = 1
        move = move_of(index)
        row[face_down] = move.face_down
        moved, other = move.cards, move.discard if move.target is None else move.target
        if move.kind is MoveKind.TAKE_TWO:
            moved, other = move.cards[:1], move.cards[1]
        for c in moved:
            row[card + c] = 1
        if other is not None:
            row[second + other] = 1
    table[HIDDEN_DISCARD, ACTION_BLOCKS.index(block_of(DISCARD_DOWN))] = 1
    table[HIDDEN_DISCARD, face_down] = table[HIDDEN_DISCARD, hidden] = 1
    for n, column in enumerate(PAIR_COLUMNS):
        row = table[HIDDEN_PAIR_DISCARD + n]
        row[ACTION_BLOCKS.index(block_of(PAIR))] = 1
        row[face_down] = row[hidden] = 1
        for c in cards_of(column):
            row[card + c] = 1
    table.flags.writeable = False
    return table


def count_bounds(rules: RuleSet) -> npt.NDArray[np.int32]:
    """The most each entry of ``counts`` can be under ``rules`` (each is at least 0):
    the bounds of its space, and what the ``v1`` counts are divided by.

    >>> count_bounds(STANDARD).tolist()
    [31, 52, 52, 52, 101, 156, 156, 1088, 1088, 4]
    """
    turns = rules.turn_cap + 1
    # A side's points: every card, with the marriages' extra (four of K+Q, 10 each).
    points = MAX_CARD_POINTS + 4 * 10 * (rules.marriage_multiplier - 1)
    # A game total adds the forfeits (at most every card) to each hand's points.
    game = rules.hands_per_game * (points + MAX_CARD_POINTS)
    high = np.array(
        [31, 52, 52, 52, turns, points, points, game, game, rules.hands_per_game],
        dtype=np.int32,
    )
    assert len(high) == len(COUNTS)
    return high


_PILE_PLANES: Final = np.eye(FACE_DOWN_ENTRY + 1, dtype=np.uint8)[:, 1:]
"""By ``pile`` entry (0 past the top, ``card + 1``, :data:`FACE_DOWN_ENTRY`), its ``v1``
row of 53: the card's column, or the last for a face-down card, or none."""


def max_moves(rules: RuleSet = STANDARD) -> int:
    """The most moves a hand can last, the length of the ``history`` rows: the dealer's
    choice, then per turn at most a draw and one move that ends it (the turn cap's turns
    and a last turn after them, R7, R8), and at most one move per card laid from hand.

    >>> max_moves()
    255
    """
    return 1 + 2 * (rules.turn_cap + 1) + 52


def laid_face_down(state: HandState, seat: int) -> int:
    """The cards ``seat`` laid face down on the pile (going out, R5/R6), as a mask: the
    view shows them to him, and only to him."""
    return state.laid_down[seat]


_CHOOSE: Final = int(Phase.CHOOSE)
_DRAW: Final = int(Phase.DRAW)
_PLAY: Final = int(Phase.PLAY)
_OVER: Final = int(Phase.OVER)
_TURN_PHASES: Final = (_DRAW, _PLAY)


TableFacts = tuple[tuple[tuple[int, ...], tuple[int, ...]], int]
"""What :func:`table_facts` tells of a table."""
PileFacts = tuple[int, bool, int, int, bytes]
"""What :func:`pile_facts` tells of a discard pile."""


def table_facts(tables: tuple[RawSide, RawSide]) -> TableFacts:
    """The table's ``own_<kind>`` and ``opponent_<kind>`` masks as each seat sees them
    (seat 0's, then seat 1's), and all its cards.

    >>> from umtali.games.umtali.melds import ColumnKind
    >>> (seat_0, seat_1), cards = table_facts((((int(ColumnKind.GROUP), 0b111, -1),), ()))
    >>> seat_0[ColumnKind.GROUP], seat_1[5 + ColumnKind.GROUP], cards
    (7, 7, 7)
    """
    sides = ([0] * 5, [0] * 5)
    cards = 0
    for side, kinds in zip(tables, sides, strict=True):
        for kind, mask, _ in side:
            kinds[kind] |= mask
            cards |= mask
    first, second = sides
    return (tuple(first + second), tuple(second + first)), cards


def added_column(
    tables: tuple[RawSide, RawSide], before: tuple[RawSide, RawSide] | None
) -> tuple[int, int, int] | None:
    """The one column ``tables`` has more than the table ``before`` it, as its side, kind
    and mask, when that is the whole change; else ``None``. A move lays one column on one
    side and leaves the other side the same object (columns once laid stay as laid), so
    most changes are this one.

    >>> from umtali.games.umtali.melds import ColumnKind
    >>> group = (int(ColumnKind.GROUP), 0b111, -1)
    >>> added_column(((group,), ()), ((), ())), added_column(((group,), ()), None)
    ((0, 1, 7), None)
    """
    if before is not None:
        for side in (0, 1):
            laid, kept = tables[side], before[side]
            if (
                tables[1 - side] is before[1 - side]
                and len(laid) == len(kept) + 1
                and laid[:-1] == kept
            ):
                kind, mask, _ = laid[-1]
                return side, kind, mask
    return None


def next_table_facts(
    tables: tuple[RawSide, RawSide], before: tuple[RawSide, RawSide] | None, known: TableFacts
) -> TableFacts:
    """:func:`table_facts` of ``tables``, from ``known``, those of the table ``before``
    it: one column added (:func:`added_column`) is added to what was known; anything
    else is worked out afresh."""
    added = added_column(tables, before)
    if added is None:
        return table_facts(tables)
    side, kind, mask = added
    (first, second), cards = known
    mine, theirs = list(first), list(second)
    mine[5 * side + kind] |= mask  # seat 0 sees side 0 first
    theirs[5 * (1 - side) + kind] |= mask
    return (tuple(mine), tuple(theirs)), cards | mask


_ROW_OF_ENTRY: Final = bytes(
    FACE_DOWN_ENTRY if raw & FACE_DOWN else (raw & PILE_CARD) + 1 for raw in range(256)
)
"""By the engine's pile entry (a card, with :data:`FACE_DOWN` when it lies face down),
the ``pile`` row's byte: a table for ``bytes.translate``."""


def _pile_ends(pile: tuple[int, ...]) -> tuple[int, int]:
    """The top and the second card of ``pile`` as masks where face up, else 0 (nothing
    under a face-down card counts)."""
    if not pile or pile[-1] & FACE_DOWN:
        return 0, 0
    if len(pile) < 2 or pile[-2] & FACE_DOWN:
        return 1 << pile[-1], 0
    return 1 << pile[-1], 1 << pile[-2]


def pile_facts(pile: tuple[int, ...]) -> PileFacts:
    """Of the discard pile: its face-up cards, whether any lies face down, the top and the
    second card as masks where face up (else 0), and its ``pile`` row as 52 bytes (a
    buffer numpy reads without converting each entry).

    >>> from umtali.kernel.cards import parse_card
    >>> up, down, top, second, row = pile_facts((parse_card("2c"), parse_card("3c")))
    >>> up == top | second, down, row[:3]
    (True, False, b'\\x02\\x03\\x00')
    """
    up = 0
    down = False
    for entry in pile:
        if entry & FACE_DOWN:
            down = True
        else:
            up |= 1 << entry
    top, second = _pile_ends(pile)
    return up, down, top, second, bytes(pile).translate(_ROW_OF_ENTRY) + bytes(52 - len(pile))


def next_pile_facts(
    pile: tuple[int, ...],
    before: tuple[int, ...] | None,
    known: PileFacts,
    unchanged: int | None = None,
) -> PileFacts:
    """:func:`pile_facts` of ``pile``, from ``known``, those of the pile ``before`` it
    (``unchanged``: their :func:`unchanged_places`, when the caller has it). The
    commonest changes are worked out from ``known``: a discard lays one card on top, a
    take lifts cards off a pile with none face down; anything else afresh."""
    if before is None:
        return pile_facts(pile)
    if unchanged is None:
        unchanged = unchanged_places(pile, before)
    at = len(pile) - 1
    up, down, top, _, row = known
    if at == unchanged == len(before):
        entry = pile[at]
        if entry & FACE_DOWN:
            return up, True, 0, 0, row[:at] + _FACE_DOWN_BYTE + row[at + 1 :]
        # The card below is the second card if it lies face up: it was the top card then.
        return (
            up | 1 << entry,
            down,
            1 << entry,
            top,
            row[:at] + bytes((entry + 1,)) + row[at + 1 :],
        )
    if unchanged == at + 1 and not down:  # cards lifted off the top, none face down
        for entry in before[unchanged:]:
            up &= ~(1 << entry)
        top, second = _pile_ends(pile)
        return up, down, top, second, row[:unchanged] + bytes(52 - unchanged)
    return pile_facts(pile)


_FACE_DOWN_BYTE: Final = bytes((FACE_DOWN_ENTRY,))


def pile_planes(rows: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """``v0`` ``pile`` rows (card + 1 face up, 53 face down, 0 past the top) as ``v1``'s
    planes, one row a place (a batch's rows too: the planes are the last two axes).

    >>> pile_planes(np.array([3, 53, 0], np.uint8)).nonzero()
    (array([0, 1]), array([ 2, 52]))
    """
    # take, not rows as an index: the same rows, several times quicker on a batch's.
    planes: npt.NDArray[np.uint8] = _PILE_PLANES.take(rows, axis=0)
    return planes


def unchanged_places(pile: tuple[int, ...], before: tuple[int, ...]) -> int:
    """How many places from the bottom ``pile`` shares with the pile ``before`` it, as
    far as a discard or a take tells (a card laid on top keeps all the places below it,
    a take keeps those under the cards taken); 0 otherwise.

    >>> unchanged_places((1, 2, 3), (1, 2)), unchanged_places((1,), (1, 2, 3)), unchanged_places((4,), (1,))
    (2, 1, 0)
    """
    shared = min(len(pile), len(before))
    return shared if pile[:shared] == before[:shared] else 0


def facts(
    state: HandState,
    seat: int,
    game_scores: tuple[int, int] = (0, 0),
    hands_left: int = 0,
    table_known: TableFacts | None = None,
    pile_known: PileFacts | None = None,
) -> tuple[list[int], list[int], bytes]:
    """What ``seat`` may see of ``state``, as plain ints: the rows of ``cards`` as 52-bit
    card masks (:data:`CARD_PLANES` order), the ``counts`` then the ``flags``
    (:data:`COUNTS`, :data:`FLAGS`), and the ``pile`` row as 52 bytes. The
    observation unpacks these. Each reads only what :meth:`PlayerView.of` shows
    ``seat`` (a test checks them against it). ``table_known`` and ``pile_known`` are
    the state's :func:`table_facts` and :func:`pile_facts` when the caller has them."""
    opponent = 1 - seat
    hands = state.hands
    hand = hands[seat]
    by_seat, table = table_facts(state.tables) if table_known is None else table_known
    pile = state.pile
    seen, down, top, second, pile_row = pile_facts(pile) if pile_known is None else pile_known
    if down:
        seen |= laid_face_down(state, seat)
    taken = state.ever_taken
    holds = taken[opponent] & hands[opponent]
    phase = state.phase
    player = state.player
    # The opponent's hand is as compulsory play (R4) left it at the end of his turn.
    closed = (
        player == seat and state.turn >= 2 and state.rules.compulsory_play and phase in _TURN_PHASES
    )
    masks = [
        hand,
        *by_seat[seat],
        seen,
        top,
        second,
        holds,
        JACKS | state.turn_open if closed else 0,
        ALL_CARDS & ~(hand | table | seen | holds),
        taken[seat],
        taken[opponent],
        state.taken,
        state.open_mask,
    ]
    eleventh = state.eleventh
    out = state.out
    numbers = [
        len(state.stock) - state.stock_pos,
        hand.bit_count(),
        hands[opponent].bit_count(),
        len(pile),
        state.turn,
        state.points[seat],
        state.points[opponent],
        game_scores[seat],
        game_scores[opponent],
        hands_left,
        phase == _CHOOSE,
        phase == _DRAW,
        phase == _PLAY,
        phase == _OVER,
        player == seat and phase != _OVER,
        state.dealer == seat,
        eleventh == seat,
        eleventh == opponent,
        state.last_turn,
        out == seat,
        out == opponent,
        state.took_two,
        closed,
    ]
    return masks, numbers, pile_row


def unpack_cards(masks: Sequence[int]) -> npt.NDArray[np.uint8]:
    """52-bit masks as rows of 0/1 (one numpy call for all of them).

    >>> unpack_cards([0b101])[0, :4].tolist()
    [1, 0, 1, 0]
    """
    raw = np.array(masks, dtype="<u8").view(np.uint8).reshape(len(masks), 8)
    return np.unpackbits(raw, axis=1, count=52, bitorder="little")


class Observer:
    """Builds observations of hands played under ``rules``: the dict of arrays the module
    describes, with ``history`` when ``perfect_recall``; or with ``flat``, PettingZoo's
    usual pair ``{"observation": vector, "action_mask": mask}``, the vector being the
    other arrays, raveled and joined in order as ``float32`` (:attr:`parts` tells where
    each lies).

    >>> from umtali.games.umtali.state import HandState, RawSide
    >>> observer = Observer(flat=True)
    >>> obs = observer.observe(HandState.from_seed(1), 0)
    >>> obs["observation"].shape, observer.parts["counts"]
    ((3871,), slice(3848, 3858, None))

    Attributes:
        rules: the rule options (they bound the counts and the history's length).
        perfect_recall: whether observations carry ``history``.
        flat: whether they are flattened (see above).
        encoding: the version of the arrays, ``"v1"`` or ``"v0"`` (see the module).
        space: the ``Dict`` space every observation lies in.
        parts: for a flat observation, where each array lies in its vector.
    """

    def __init__(
        self,
        rules: RuleSet = STANDARD,
        *,
        perfect_recall: bool = False,
        flat: bool = False,
        encoding: EncodingVersion = DEFAULT_ENCODING,
    ) -> None:
        self.rules = rules
        self.perfect_recall = perfect_recall
        self.flat = flat
        self.encoding = checked_encoding(encoding)
        self.parts, self.space = flat_layout(self.array_spaces(), flat=flat)
        # Staging arrays, written through memoryviews (struct packs the ints in one C
        # call, where numpy would convert a list of them one by one): the card masks,
        # whose bytes numpy unpacks; the counts and flags; the pile row.
        masks = np.zeros(len(CARD_PLANES), "<u8")
        self._mask_bytes = masks.view(np.uint8).reshape(len(CARD_PLANES), 8)
        self._masks_in = masks.data.cast("B")
        self._numbers = np.zeros(len(COUNTS) + len(FLAGS), np.float32)
        self._numbers_in = self._numbers.data.cast("B")
        # v1 divides the counts by their bounds, and the flags by 1.
        self._divisors = np.ones(len(COUNTS) + len(FLAGS), np.float32)
        self._divisors[:_NUM_COUNTS] = count_bounds(rules)
        # The table and the pile last observed, with their facts: both are immutable
        # tuples the engine replaces when they change, so the same object means the
        # same facts, and most moves change one of them or neither.
        self._table: tuple[RawSide, RawSide] | None = None
        self._table_facts: TableFacts = table_facts(((), ()))
        self._pile: tuple[int, ...] | None = None
        self._pile_facts: PileFacts = pile_facts(())
        self._pile_row = np.zeros(52, np.uint8)
        self._pile_in = self._pile_row.data
        # A flat observation is this vector, copied: its parts are written in place, and
        # the pile's only where the pile changed (most moves change a place or two of
        # v1's 52 rows, and a copy costs less than joining the parts afresh).
        parts = self.parts
        size = max((part.stop for part in parts.values()), default=0)
        self._vector = np.zeros(size, np.float32)
        self._cards_out = self._vector[parts["cards"]].reshape(len(CARD_PLANES), 52)
        self._numbers_out = self._vector[parts["counts"].start : parts["flags"].stop]
        # v1's pile, worked out where it changes: float32 inside the flat vector.
        if flat and self.encoding != "v0":
            self._pile_planes = self._vector[parts["pile"]].reshape(52, FACE_DOWN_ENTRY)
        else:
            self._pile_planes = np.zeros((52, FACE_DOWN_ENTRY), np.uint8)
        # The same entries one by one (a place's 1 moves where its entry changed: one
        # item set in Python costs a tenth of a numpy call).
        self._pile_cells = self._pile_planes.reshape(-1).data

    def array_spaces(self) -> dict[str, spaces.Box]:
        """The spaces of the arrays of an observation as a dict (the mask last), in
        this observer's version."""
        rules = self.rules
        high = count_bounds(rules)
        rows = max_moves(rules)
        found: dict[str, spaces.Box] = {
            "cards": spaces.Box(0, 1, (len(CARD_PLANES), 52), np.uint8),
        }
        if self.encoding == "v0":
            found["pile"] = spaces.Box(0, FACE_DOWN_ENTRY, (52,), np.uint8)
            found["counts"] = spaces.Box(np.zeros_like(high), high, dtype=np.int32)
        else:
            found["pile"] = spaces.Box(0, 1, (52, FACE_DOWN_ENTRY), np.uint8)
            found["counts"] = spaces.Box(0.0, 1.0, (len(COUNTS),), np.float32)
        found["flags"] = spaces.Box(0, 1, (len(FLAGS),), np.uint8)
        if self.perfect_recall and self.encoding == "v0":
            low = np.zeros((rows, 2), np.int16)
            top = np.empty_like(low)
            top[:, 0] = 2
            top[:, 1] = NUM_TOKENS - 1
            found["history"] = spaces.Box(low, top, dtype=np.int16)
        elif self.perfect_recall:
            found["history"] = spaces.Box(0, 1, (rows, len(HISTORY_COLUMNS)), np.uint8)
        found["action_mask"] = spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)
        return found

    def observe(
        self,
        state: HandState,
        seat: int,
        game_scores: tuple[int, int] = (0, 0),
        hands_left: int = 0,
        legal: Sequence[int] | None = None,
    ) -> dict[str, npt.NDArray[np.generic]]:
        """What ``seat`` may see of ``state`` (with the game's totals before this hand and
        the hands to come, as :meth:`umtali.games.umtali.match.Match.view` adds them). ``legal``: the
        legal action indices of ``state`` now, when the caller has them (an episode
        keeps them), else they are worked out. Every array returned is new."""
        if state.rules is not self.rules:
            checked_rules(self.rules, state.rules)
        tables = state.tables
        if tables is not self._table:
            self._table_facts = next_table_facts(tables, self._table, self._table_facts)
            self._table = tables
        pile = state.pile
        if pile is not self._pile:
            before = self._pile
            was = self._pile_facts[4]
            start = 0 if before is None else unchanged_places(pile, before)
            self._pile_facts = next_pile_facts(pile, before, self._pile_facts, start)
            self._pile = pile
            row = self._pile_facts[4]
            self._pile_in[:] = row
            if self.encoding != "v0":
                # The planes hold ``was``'s rows: move each changed place's 1, from the
                # first place that changed (a discard changes one).
                stop = 52 if before is None else max(len(pile), len(before))
                cells = self._pile_cells
                for place in range(start, stop):
                    old, new = was[place], row[place]
                    if old != new:
                        at = place * FACE_DOWN_ENTRY - 1
                        if old:
                            cells[at + old] = 0
                        if new:
                            cells[at + new] = 1
        masks, numbers, _ = facts(
            state, seat, game_scores, hands_left, self._table_facts, self._pile_facts
        )
        # The mask is set in a bytearray, which numpy then wraps as it is: a numpy call
        # costs more than a few dozen bytes set in Python.
        marked = bytearray(NUM_ACTIONS)
        if state.player == seat:
            for index in legal_indices(state) if legal is None else legal:
                marked[index] = 1
        mask = np.frombuffer(marked, np.int8)
        self._masks_in[:] = _pack_masks(*masks)
        cards = np.unpackbits(self._mask_bytes, axis=1, count=52, bitorder="little")
        v0 = self.encoding == "v0"
        if self.flat:
            self._numbers_in[:] = _pack_numbers(*numbers)  # counts, then flags
            vector = self._vector
            self._cards_out[:] = cards
            if v0:
                vector[self.parts["pile"]] = self._pile_row
                self._numbers_out[:] = self._numbers
            else:
                np.divide(self._numbers, self._divisors, out=self._numbers_out)
            if self.perfect_recall:
                vector[self.parts["history"]] = self.encode_history(
                    self.history(state, seat)
                ).ravel()
            return {"observation": vector.copy(), "action_mask": mask}
        obs: dict[str, npt.NDArray[np.generic]] = {"cards": cards}
        if v0:
            obs["pile"] = self._pile_row.copy()  # a writable array of its own, as the others are
            obs["counts"] = np.array(numbers[:_NUM_COUNTS], np.int32)
        else:
            obs["pile"] = self._pile_planes.copy()
            obs["counts"] = (
                np.array(numbers[:_NUM_COUNTS], np.float32) / self._divisors[:_NUM_COUNTS]
            )
        obs["flags"] = np.array(numbers[_NUM_COUNTS:], np.uint8)
        if self.perfect_recall:
            obs["history"] = self.encode_history(self.history(state, seat))
        obs["action_mask"] = mask
        return obs

    def encode_history(self, rows: npt.NDArray[np.int16]) -> npt.NDArray[np.generic]:
        """``v0`` ``history`` rows (:meth:`history`) in this observer's version: as
        they are, or ``v1``'s planes (:data:`HISTORY_COLUMNS`)."""
        if self.encoding == "v0":
            return rows
        return history_planes(rows, history_features())

    def history(self, state: HandState, seat: int) -> npt.NDArray[np.int16]:
        """The ``history`` rows of ``seat``: the moves as that player saw them."""
        rows = np.zeros((max_moves(self.rules), 2), np.int16)
        index = INDEX_OF_ACTION
        hide = _OPPONENT_TOKENS
        for i, (actor, action) in enumerate(state.history):
            token = index[action]
            if actor == seat:
                rows[i] = (1, token)
            else:
                rows[i] = (2, hide[token])
        return rows
