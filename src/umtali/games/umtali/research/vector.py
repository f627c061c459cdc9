"""Many hands stepped together, for training loops: one call plays one move in each of N
hands and returns every observation and mask as stacked arrays.

Each row of a :class:`HandBatch` is a hand of its own, seen by its player to move
(``to_move``), as self-play wants: the arrays are :mod:`umtali.games.umtali.research.observation`'s, with a
leading axis of N. A hand that ends is dealt anew at once: its row's reward is paid and
``done`` set in the step that ended it, and the observation returned is already of the
next hand. Rewards are each hand's score margin, by seat (``rewards[i, seat]``).

The ``action_mask`` array a step returns is the batch's own, read-only, and the next
step writes the next masks into it (building a fresh 14,272-entry row per hand each step
would cost more than the step itself); a learner that keeps masks across steps copies
them, or makes the batch with ``copy=True``. The other arrays are new at every step, the
caller's to keep or change; ``cards`` is a view of an (N, 21, 64) array, each card mask's
64 bits unpacked in one call and the 12 past the 52 cards left out of the view (copying
it compact would cost a tenth of the observation; ``np.ascontiguousarray`` does it where
a library asks).

>>> import numpy as np
>>> batch = HandBatch(4, seed=1)
>>> obs = batch.reset()
>>> obs["cards"].shape, obs["action_mask"].shape
((4, 21, 52), (4, 14272))
>>> rng = np.random.default_rng(0)
>>> hands = 0
>>> for _ in range(300):
...     legal = obs["action_mask"].astype(bool)
...     actions = np.array([rng.choice(np.flatnonzero(row)) for row in legal])
...     obs, rewards, done = batch.step(actions)
...     hands += int(done.sum())
...     assert (rewards.sum(axis=1) == 0).all()  # a margin is won by one seat, lost by the other
>>> hands > 0
True

How a step is made fast, each row's arrays staying exactly what a lone
:class:`~umtali.games.umtali.research.observation.Observer` gives its player (a test compares them row by
row). Converting a Python int into numpy costs more than most of the engine's own steps,
so a step converts as few as it can: one pass over the hands plays each move, reads its
legal moves, and packs the few fields that change from move to move, and the hands'
sizes and who went out, into one buffer (``struct``, a C call a hand); what changes
seldom is read only in the rows where it can have changed. The table and the pile are
immutable tuples the engine replaces when they change, so their facts (and the points
and accepted cards, which follow from the table) are worked out again only for the rows
whose object is new, a discard adding its card and a take cutting the pile's row (and
adding what it lifted to its taker's cards ever taken); who holds the 11th card only
after a keep or a give. Everything else is numpy over the whole batch: the legal moves become
indices in one binary search (:func:`~umtali.games.umtali.research.actions.indices_of_actions`), the card
masks become the ``cards`` rows in one ``unpackbits``, and the masks' buffer keeps its
zeros, only the entries a step changes being cleared and set.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Sequence
from itertools import compress
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from umtali.games.umtali.research.actions import (
    ENGINE_ACTIONS,
    GIVE,
    KEEP,
    NUM_ACTIONS,
    indices_of_actions,
    move_of,
)
from umtali.games.umtali.research.observation import (
    CARD_PLANES,
    COUNTS,
    FACE_DOWN_ENTRY,
    FLAGS,
    Observer,
    added_column,
    count_bounds,
    laid_face_down,
    pile_facts,
    pile_planes,
    table_facts,
)
from umtali.games.umtali.rules import STANDARD, RuleSet
from umtali.games.umtali.state import HandState, RawSide
from umtali.games.umtali.terms import FACE_DOWN, PILE_CARD, Phase
from umtali.kernel.cards import ALL_CARDS, JACKS
from umtali.kernel.deck import shuffled_deck
from umtali.rl import shared
from umtali.rl.encoding import ArrayLayout, BatchObservation
from umtali.rl.encoding import checked_actions as any_checked_actions
from umtali.rl.shared import BATCH_ENCODING, EncodingVersion, checked_encoding

__all__ = ["BatchObservation", "HandBatch", "action_text", "batch_arrays", "checked_actions"]

_OVER: Final = int(Phase.OVER)
assert (KEEP, GIVE) == (0, 1)  # a step finds them as the indices below 2

# The fields a step packs for every hand, in this order (see HandBatch._advance): those
# of the state that change from move to move, then how many legal moves it has.
(
    _PLAYER,
    _PHASE,
    _TURN,
    _STOCK_POS,
    _LAST_TURN,
    _TOOK_TWO,
    _TAKEN,
    _TURN_OPEN,
    _HAND,  # seat 0's hand, then seat 1's
    _HAND_1,
    _SIZE,  # how many cards seat 0 holds, then seat 1
    _SIZE_1,
    _OUT,
    _LEGAL_COUNT,
    _FIELD_COUNT,
) = range(15)
_FIELDS: Final = struct.Struct(f"<{_FIELD_COUNT}q")

# The facts of a table, one row a hand (see HandBatch._see_tables): each side's cards by
# column kind, seat 0's side first, all its cards, each seat's points, and the cards it
# accepts as solo plays. The points and the accepted cards change only when a column is
# laid, so they are read with the table.
_KINDS: Final = 5
_TABLE_CARDS: Final = 2 * _KINDS
_POINTS: Final = _TABLE_CARDS + 1
_OPEN_MASK: Final = _POINTS + 2
_TABLE_WIDTH: Final = _OPEN_MASK + 1
_TABLE_FACTS: Final = struct.Struct(f"<{_TABLE_WIDTH}q")
_FIVE: Final = np.arange(_KINDS)

_ENTRY_OF_RAW: Final = np.array(
    [FACE_DOWN_ENTRY if raw & FACE_DOWN else (raw & PILE_CARD) + 1 for raw in range(128)],
    np.uint8,
)
"""By the engine's pile entry (a card, with :data:`FACE_DOWN` when it lies face down),
the observation's ``pile`` entry."""
_CARD_OF_ENTRY: Final = np.array([0, *(1 << card for card in range(52)), 0], np.int64)
"""By ``pile`` entry, its card as a mask where it lies face up (0 past the top, and face
down)."""
_PILE_START: Final = 2
"""The columns of a row of the batch's pile array before its first entry: two zeros, so
that the top and the second entry of a pile of ``k`` are at ``k + 1`` and ``k`` even for
a pile of none or one."""

_NO_PILE: Final = -2
"""The pile size the batch keeps for a hand just dealt: no pile of the last hand then
grows into the new one by a discard."""

_PHASES: Final = np.arange(4)


def _table_row(tables: tuple[RawSide, RawSide]) -> tuple[int, ...]:
    """The table as seat 0 sees it (his masks by column kind, then the other's) and all
    its cards."""
    by_seat, table = table_facts(tables)
    return (*by_seat[0], table)


def action_text(index: int) -> str:
    """Action ``index`` in Umtali's notation (what an illegal action is called)."""
    return str(move_of(index))


def checked_actions(actions: npt.ArrayLike, masks: npt.NDArray[np.int8]) -> npt.NDArray[Any]:
    """``actions`` as an array, one action index a row, each legal by its row of
    ``masks`` (the flat buffer of a batch's masks, ``NUM_ACTIONS`` entries a row);
    :class:`IllegalActionError`, saying which row and why, if any is not."""
    return any_checked_actions(actions, masks, NUM_ACTIONS, action_text)


def batch_arrays(encoding: EncodingVersion = BATCH_ENCODING) -> ArrayLayout:
    """The arrays of a batch's observation besides its mask, in version ``encoding``:
    each one's shape for one row, and its type (a lone observer's).

    >>> {name: shape for name, (shape, _) in batch_arrays().items()}
    {'cards': (21, 52), 'pile': (52, 53), 'counts': (10,), 'flags': (13,)}
    >>> batch_arrays("v0")["pile"]
    ((52,), dtype('uint8'))
    """
    names = ("cards", "pile", "counts", "flags")
    return shared.array_layout(Observer(encoding=encoding).array_spaces(), names)


class HandBatch:
    """``n`` hands under ``rules``, dealt from one RNG seeded with ``seed``.

    With ``copy=True`` every step returns an ``action_mask`` array of the caller's own;
    by default it is the batch's, overwritten by the next step (see the module).
    ``mask_buffer`` gives the memory the masks are written into (a flat int8 array of
    ``n * NUM_ACTIONS`` entries; shared memory, for :mod:`umtali.rl.parallel`).
    ``encoding`` is the arrays' version: ``"v1"`` unless asked, the batch's own arrays
    encoded again as a lone ``v1`` observer's, or ``"v0"``, those arrays as they are
    (the first version, and the quicker).

    Attributes:
        n: how many hands.
        states: the hands, row by row (read them; only :meth:`step` moves them).
        to_move: for each row, the seat its observation is of (the player to move).
        hands_played: how many hands have ended since :meth:`reset`.
        copy: whether each step's ``action_mask`` is a new array (else the batch's own).
    """

    def __init__(
        self,
        n: int,
        *,
        seed: int | None = None,
        rules: RuleSet = STANDARD,
        copy: bool = False,
        mask_buffer: npt.NDArray[np.int8] | None = None,
        encoding: EncodingVersion = BATCH_ENCODING,
    ) -> None:
        buffer = shared.mask_buffer(n, NUM_ACTIONS, mask_buffer)
        self.n = n
        self.rules = rules
        self.copy = copy
        self.encoding = checked_encoding(encoding)
        # v1's counts over their bounds (v0's arrays are worked out, then encoded again).
        self._count_bounds = count_bounds(rules).astype(np.float32)
        self._rng = random.Random(seed)
        self.states: list[HandState] = []
        self.to_move = np.zeros(n, np.int8)
        self.hands_played = 0
        self._rows = np.arange(n, dtype=np.intp)
        self._stock_size = 0
        # The masks' buffer (another's memory, shared with a parent process, starts
        # clear), the entries the last step set in it (flat, row by row) and how many a
        # row, and the read-only view of it handed out.
        self._mask_buffer = buffer
        self._row_starts = self._rows * NUM_ACTIONS
        # Where each row's fields start in the packed buffer, and its first seat in a
        # flattened (n, 2) array: a seat's entries are then read in one ``take``.
        self._field_starts = self._rows * _FIELD_COUNT
        self._seat_starts = self._rows * 2
        self._marked = np.zeros(0, np.intp)
        self._legal_counts = np.zeros(n, np.intp)
        self._mask = self._mask_buffer.reshape(n, NUM_ACTIONS).view()
        self._mask.flags.writeable = False
        # Every hand's fields as the last pass packed them (see _FIELDS).
        self._fields = bytearray(_FIELDS.size * n)
        # The same memory as numpy sees it, a row a hand (the buffer never changes size).
        self._packed = np.frombuffer(self._fields, np.int64).reshape(n, _FIELD_COUNT)
        # What changes seldom, kept from step to step and brought up to date in the
        # rows where it changed: the table's facts (see _TABLE_FACTS), the pile as its
        # ``pile`` row and its facts, the dealer, who holds the 11th card.
        self._tables: list[tuple[RawSide, RawSide] | None] = [None] * n
        self._table_rows: list[tuple[int, ...]] = [()] * n
        self._table_facts = np.zeros((n, _TABLE_WIDTH), np.int64)
        self._piles: list[tuple[int, ...] | None] = [None] * n
        self._pile_rows = np.zeros((n, _PILE_START + 52), np.uint8)
        self._pile_sizes = np.zeros(n, np.intp)
        self._on_pile = np.zeros(n, np.int64)  # the cards lying face up
        self._top_two = np.zeros((n, 2), np.int64)  # the top and second discard if face up
        self._laid_down = np.zeros((n, 2), np.int64)  # the cards each seat laid face down
        self._ever_taken = np.zeros((n, 2), np.int64)  # by seat
        self._dealer = np.zeros(n, np.int64)
        self._eleventh = np.zeros(n, np.int64)

    @property
    def legal(self) -> list[list[int]]:
        """For each row, its legal action indices in the engine's order (those its mask
        row marks), for a policy that draws from them without reading the whole mask.
        Made from the batch's arrays when read (:meth:`sample_actions` draws without
        making them)."""
        indices = self.legal_indices
        return [row.tolist() for row in np.split(indices, np.cumsum(self._legal_counts)[:-1])]

    @property
    def legal_counts(self) -> npt.NDArray[np.intp]:
        """How many legal moves each row has (read it; the next step replaces it)."""
        return self._legal_counts

    @property
    def legal_indices(self) -> npt.NDArray[np.intp]:
        """Every row's legal action indices, row after row, in one array
        (:attr:`legal_counts` tells how many are a row's)."""
        return self._marked - np.repeat(self._row_starts, self._legal_counts)

    def _deal(self) -> HandState:
        rng = self._rng
        return HandState(shuffled_deck(rng), rng.randrange(2), self.rules).forget_undo()

    def reset(self, seed: int | None = None) -> BatchObservation:
        """Deal every row anew (from ``seed`` if given) and return the observations."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.states = [self._deal() for _ in range(self.n)]
        self._stock_size = len(self.states[0].stock)  # the same in every hand dealt
        self.hands_played = 0
        self._tables = [None] * self.n
        self._piles = [None] * self.n
        self._pile_sizes[:] = _NO_PILE
        self._advance(None, self._rows.tolist())
        return self._observe()

    def step(
        self, actions: npt.ArrayLike, rows: npt.ArrayLike | None = None
    ) -> tuple[BatchObservation, npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Play ``actions[i]`` (an action index) in row ``i``, for every row; return the
        new observations, the rewards by row and seat, and which rows' hands ended.
        :class:`IllegalActionError` (nothing moved) if any action is not legal in its row.

        With ``rows`` (distinct row numbers) only those rows move, ``actions[j]`` in row
        ``rows[j]``; the others stay as they are, their observations the same (a batch
        against the computer moves the rows whose computer is to move).
        """
        rewards, done = self.play(actions, rows)
        return self._observe(), rewards, done

    def play(
        self, actions: npt.ArrayLike, rows: npt.ArrayLike | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """:meth:`step` without the observations (:meth:`observe` gives them): the
        rewards and the ended hands, the legal moves and ``to_move`` brought up to date.
        A batch against the computer plays its moves so, observing once."""
        if not self.states:
            raise RuntimeError("the batch has no hands yet: call reset() first")
        if rows is None:
            moving = None
            chosen = checked_actions(actions, self._mask_buffer)
        else:
            moving = shared.checked_rows(rows, self.n)
            chosen = checked_actions(actions, self._mask[moving].reshape(-1))
        # A keep or a give deals the 11th card (R1): only then does its holder change.
        # They are the first two indices.
        dealt = np.flatnonzero(chosen <= GIVE)
        ended = self._advance(
            [ENGINE_ACTIONS[i] for i in chosen.tolist()],
            (dealt if moving is None else moving[dealt]).tolist(),
            moving,
        )
        rewards = np.zeros((self.n, 2), np.float32)
        done = np.zeros(self.n, np.bool_)
        for i, hand in ended:
            outcome = hand.outcome()
            assert outcome is not None
            margin = outcome.scores[0] - outcome.scores[1]
            rewards[i] = (margin, -margin)
            done[i] = True
        self.hands_played += len(ended)
        self.to_move = self._packed[:, _PLAYER].astype(np.int8)
        return rewards, done

    def observe(self) -> BatchObservation:
        """Every row's observation by its player to move, as the last step returned it
        (new arrays, the caller's; the masks are the batch's own unless it copies them)."""
        if not self.states:
            raise RuntimeError("the batch has no hands yet: call reset() first")
        return self._observe()

    def _advance(
        self,
        actions: Sequence[int] | None,
        dealt: list[int],
        moving: npt.NDArray[np.intp] | None = None,
    ) -> list[tuple[int, HandState]]:
        """Play ``actions`` (the engine's, one a row of ``moving``, or of every row when
        it is ``None``; ``actions=None``: only read the hands), deal anew the hands that
        end, and read the moved hands' fields; ``dealt`` lists the rows whose 11th card
        may have been dealt. Return each ended hand with its row. This loop is the one
        Python pass over the hands a step makes: it does nothing the observation can get
        otherwise."""
        states = self.states
        rows = range(self.n) if moving is None else moving.tolist()
        ended: list[tuple[int, HandState]] = []
        legal_moves: list[int] = []
        new_tables: list[int] = []
        new_piles: list[int] = []
        piles: list[tuple[int, ...]] = []  # the new piles, row by row
        tables_seen, piles_seen = self._tables, self._piles
        fields, pack, width = self._fields, _FIELDS.pack_into, _FIELDS.size
        for at, i in enumerate(rows):
            state = states[i]
            if actions is not None:
                state.push_legal(actions[at])  # checked against the masks
                if state.phase == _OVER:
                    ended.append((i, state))
                    state = states[i] = self._deal()
                    # A new hand shares nothing with the last: read it all again (an
                    # empty pile or table may well be the same object as before).
                    tables_seen[i] = piles_seen[i] = None
                    self._pile_sizes[i] = _NO_PILE
                    dealt.append(i)
            legal = state.legal_actions()
            legal_moves += legal
            hands = state.hands
            pack(
                fields,
                i * width,
                state.player,
                state.phase,
                state.turn,
                state.stock_pos,
                state.last_turn,
                state.took_two,
                state.taken,
                state.turn_open,
                hands[0],
                hands[1],
                hands[0].bit_count(),
                hands[1].bit_count(),
                state.out,
                len(legal),
            )
            if state.tables is not tables_seen[i]:
                new_tables.append(i)
            pile = state.pile
            if pile is not piles_seen[i]:
                piles_seen[i] = pile
                new_piles.append(i)
                piles.append(pile)
        self._mark_legal(legal_moves, moving)
        if new_tables:
            self._see_tables(new_tables)
        if new_piles:
            self._see_piles(new_piles, piles)
        if dealt:
            self._dealer[dealt] = [states[i].dealer for i in dealt]
            self._eleventh[dealt] = [states[i].eleventh for i in dealt]
        return ended

    def _mark_legal(self, legal_moves: list[int], moving: npt.NDArray[np.intp] | None) -> None:
        """Write the legal moves of the rows ``moving`` (every row if ``None``; the
        engine's moves, row after row) into the masks' buffer: clear the entries the
        last step set in those rows, then set this step's (a few a row, not 14,272)."""
        packed = np.fromiter(legal_moves, np.int64, len(legal_moves))
        buffer = self._mask_buffer
        if moving is None:
            counts = self._packed[:, _LEGAL_COUNT].astype(np.intp)
            marked = indices_of_actions(packed) + np.repeat(self._row_starts, counts)
            buffer[self._marked] = 0
            buffer[marked] = 1
            self._marked = marked
            self._legal_counts = counts
            return
        counts = self._legal_counts.copy()
        counts[moving] = self._packed[moving, _LEGAL_COUNT]
        marked = indices_of_actions(packed) + np.repeat(self._row_starts[moving], counts[moving])
        moved = np.zeros(self.n, np.bool_)
        moved[moving] = True
        cleared = np.repeat(moved, self._legal_counts)  # the entries of the rows moved
        buffer[self._marked[cleared]] = 0
        buffer[marked] = 1
        # Every row's entries, row after row, each row's in the engine's order: a row's
        # entries all come from one of the two arrays, which a stable sort keeps in order.
        merged = np.concatenate([self._marked[~cleared], marked])
        self._marked = merged[np.argsort(merged // NUM_ACTIONS, kind="stable")]
        self._legal_counts = counts

    def _see_tables(self, rows: list[int]) -> None:
        """Bring the table's facts (see :data:`_TABLE_FACTS`) up to date in the rows
        whose table is new: most add one mask to one kind of one side
        (:func:`~umtali.games.umtali.research.observation.added_column`); the others, a new hand's table
        among them, are worked out afresh."""
        states, seen = self.states, self._tables
        added_rows: list[int] = []
        added_at: list[int] = []  # the column of the kind the mask joins
        added_masks: list[int] = []
        afresh: list[int] = []
        read: list[int] = []  # each row's points and the cards its table accepts
        for i in rows:
            state = states[i]
            tables = state.tables
            before = seen[i]
            seen[i] = tables
            points = state.points
            read += (points[0], points[1], state.open_mask)
            added = added_column(tables, before)
            if added is None:
                afresh.append(i)
            else:
                side, kind, mask = added
                added_rows.append(i)
                added_at.append(_KINDS * side + kind)
                added_masks.append(mask)
        facts = self._table_facts
        if afresh:
            facts[afresh, :_POINTS] = [_table_row(states[i].tables) for i in afresh]
        if added_rows:
            at = np.array(added_rows, np.intp)
            masks = np.fromiter(added_masks, np.int64, len(added_masks))
            flat = facts.reshape(-1)
            where = at * _TABLE_WIDTH + np.fromiter(added_at, np.intp, len(added_at))
            flat[where] |= masks
            facts[at, _TABLE_CARDS] |= masks
        facts[rows, _POINTS:] = np.fromiter(read, np.int64, len(read)).reshape(len(rows), 3)

    def _see_piles(self, rows: list[int], piles: list[tuple[int, ...]]) -> None:
        """Bring the ``pile`` rows and the pile's facts up to date in the rows whose
        pile is new (``piles``, row by row). A discard lays one card on top of the pile
        and changes nothing below it, so a pile one card longer than before is the old
        one and its top; a take lifts cards off the top and changes nothing below them,
        so a shorter pile is the old one cut; a new hand's is worked out afresh."""
        at = np.array(rows, np.intp)
        sizes = np.fromiter(map(len, piles), np.intp, len(rows))
        before = self._pile_sizes[at]
        laid = sizes == before + 1
        self._pile_sizes[at] = sizes
        if laid.all():
            laid_rows, laid_sizes, laid_piles = at, sizes, piles
        else:
            laid_rows, laid_sizes = at[laid], sizes[laid]
            laid_piles = list(compress(piles, laid.tolist()))
            cut = sizes < before  # a pile of a new hand was _NO_PILE long before
            if cut.any():
                self._see_cut(at[cut], sizes[cut], before[cut])
            afresh = ~(laid | cut)
            if afresh.any():
                self._see_afresh(at[afresh].tolist())
        if len(laid_rows):
            # The byte of each top entry, as the engine keeps it; then as ``pile`` shows it.
            raw = np.frombuffer(bytes([p[-1] for p in laid_piles]), np.uint8)
            top = _ENTRY_OF_RAW.take(raw)
            self._pile_rows[laid_rows, laid_sizes + _PILE_START - 1] = top
            card = _CARD_OF_ENTRY.take(top)
            self._on_pile[laid_rows] |= card
            top_two = self._top_two
            # The old top is now second, taken with the new one only if both lie face up.
            face_up = top != FACE_DOWN_ENTRY
            top_two[laid_rows, 1] = top_two[laid_rows, 0] * face_up
            top_two[laid_rows, 0] = card
            if not face_up.all():
                # Going out face down (R5/R6): the card laid is its layer's to see, and
                # he made the row's last move.
                states, laid_down = self.states, self._laid_down
                down = ~face_up
                for i, entry in zip(laid_rows[down].tolist(), raw[down].tolist(), strict=True):
                    laid_down[i, states[i].history[-1][0]] |= 1 << (entry & PILE_CARD)

    def _see_cut(
        self, at: npt.NDArray[np.intp], sizes: npt.NDArray[np.intp], before: npt.NDArray[np.intp]
    ) -> None:
        """The pile's facts of the rows ``at`` whose pile a take cut from ``before``
        entries to ``sizes``: the entries lifted leave the row and the face-up cards and
        join the cards their taker ever took (the player to move: a take leaves him to
        play), and the top two are read from what is left. A take lifts only face-up
        cards, so what lies face down stays as it was."""
        block = self._pile_rows[at, _PILE_START:]
        columns = np.arange(52)
        lifted = (columns >= sizes[:, None]) & (columns < before[:, None])
        gone = np.bitwise_or.reduce(np.where(lifted, _CARD_OF_ENTRY.take(block), 0), axis=1)
        self._on_pile[at] &= ~gone
        taker = self._packed[at, _PLAYER]
        self._ever_taken[at, taker] |= gone
        block[lifted] = 0
        self._pile_rows[at, _PILE_START:] = block
        # The top and the second entry of a pile of k are at k + 1 and k of a row (see
        # _PILE_START); a card lies under a face-down one only as the second's zero.
        top = self._pile_rows[at, sizes + _PILE_START - 1]
        second = self._pile_rows[at, sizes + _PILE_START - 2]
        self._top_two[at, 0] = _CARD_OF_ENTRY.take(top)
        self._top_two[at, 1] = _CARD_OF_ENTRY.take(second) * (top != FACE_DOWN_ENTRY)

    def _see_afresh(self, rows: list[int]) -> None:
        """Work out afresh the pile's facts of ``rows`` (its size is known), and read
        the cards each player ever took and laid face down."""
        states = self.states
        found = [pile_facts(states[i].pile) for i in rows]
        at = np.array(rows, np.intp)
        self._pile_rows[at, _PILE_START:] = np.frombuffer(
            b"".join([facts[4] for facts in found]), np.uint8
        ).reshape(len(rows), 52)
        self._on_pile[at] = [facts[0] for facts in found]
        self._top_two[at] = [facts[2:4] for facts in found]
        self._ever_taken[at] = [states[i].ever_taken for i in rows]
        self._laid_down[at] = [
            (laid_face_down(states[i], 0), laid_face_down(states[i], 1)) if facts[1] else (0, 0)
            for i, facts in zip(rows, found, strict=True)
        ]

    def _observe(self) -> BatchObservation:
        """Every row's observation by its player to move, stacked, worked out for all
        rows at once from what :meth:`_advance` read: what :meth:`Observer.observe` gives
        each row's player (a test compares them row by row)."""
        n = self.n
        fields = self._packed
        flat = fields.reshape(-1)
        seat = fields[:, _PLAYER]
        other = 1 - seat
        self.to_move = seat.astype(np.int8)
        phase = fields[:, _PHASE]
        turn = fields[:, _TURN]
        # By seat, as indices into the flat fields and into a flattened (n, 2) array.
        field_mine = self._field_starts + seat
        field_theirs = self._field_starts + other
        mine = self._seat_starts + seat
        theirs = self._seat_starts + other
        hand, their_hand = flat.take(field_mine + _HAND), flat.take(field_theirs + _HAND)
        ever = self._ever_taken.reshape(-1)
        ever_mine, ever_theirs = ever.take(mine), ever.take(theirs)
        table = self._table_facts
        starts = (self._rows * _TABLE_WIDTH)[:, None]
        own_kinds = table.take(starts + _KINDS * seat[:, None] + _FIVE)
        their_kinds = table.take(starts + _KINDS * other[:, None] + _FIVE)
        # The viewer is the player to move: the opponent's hand is closed (R4) from the
        # second turn on, in the draw and the play, when the rules make play compulsory.
        closed = (turn >= 2) & ((phase == int(Phase.DRAW)) | (phase == int(Phase.PLAY)))
        closed &= self.rules.compulsory_play

        # The player to move sees his own face-down discards.
        on_pile = self._on_pile | self._laid_down.reshape(-1).take(mine)
        holds = ever_theirs & their_hand
        masks = np.empty((n, len(CARD_PLANES)), np.int64)
        masks[:, 0] = hand
        masks[:, 1:6] = own_kinds
        masks[:, 6:11] = their_kinds
        masks[:, 11] = on_pile
        masks[:, 12:14] = self._top_two
        masks[:, 14] = holds
        masks[:, 15] = (JACKS | fields[:, _TURN_OPEN]) * closed
        masks[:, 16] = ALL_CARDS & ~(hand | table[:, _TABLE_CARDS] | on_pile | holds)
        masks[:, 17] = ever_mine
        masks[:, 18] = ever_theirs
        masks[:, 19] = fields[:, _TAKEN]
        masks[:, 20] = table[:, _OPEN_MASK]
        # Every mask's 64 bits in one call; the 12 past the 52 cards are left out by a
        # view, which saves copying the array.
        cards = np.unpackbits(masks.view(np.uint8), bitorder="little")
        cards = cards.reshape(n, len(CARD_PLANES), 64)[:, :, :52]

        counts = np.zeros((n, len(COUNTS)), np.int32)  # the game's totals stay 0
        counts[:, 0] = self._stock_size - fields[:, _STOCK_POS]
        counts[:, 1] = flat.take(field_mine + _SIZE)
        counts[:, 2] = flat.take(field_theirs + _SIZE)
        counts[:, 3] = self._pile_sizes
        counts[:, 4] = turn
        points = starts[:, 0] + _POINTS
        counts[:, 5] = table.take(points + seat)
        counts[:, 6] = table.take(points + other)
        flags = np.empty((n, len(FLAGS)), np.bool_)
        flags[:, 0:4] = phase[:, None] == _PHASES  # choose, draw, play, over
        flags[:, 4] = phase != _OVER  # to move: the viewer is the player to move
        flags[:, 5] = self._dealer == seat
        eleventh = self._eleventh
        flags[:, 6] = eleventh == seat
        flags[:, 7] = eleventh == other
        last_turn = fields[:, _LAST_TURN].astype(np.bool_)
        flags[:, 8] = last_turn
        out = fields[:, _OUT]
        flags[:, 9] = out == seat
        flags[:, 10] = out == other
        flags[:, 11] = fields[:, _TOOK_TWO]
        flags[:, 12] = closed
        pile = self._pile_rows[:, _PILE_START:]
        v1 = self.encoding == "v1"
        return {
            "cards": cards,
            "pile": pile_planes(pile) if v1 else pile.copy(),
            "counts": counts.astype(np.float32) / self._count_bounds if v1 else counts,
            "flags": flags.view(np.uint8),
            "action_mask": self._mask.copy() if self.copy else self._mask,
        }

    def sample_actions(self, rng: np.random.Generator) -> npt.NDArray[np.intp]:
        """A legal action for every row, each drawn uniformly from its row's legal
        moves with ``rng``: a random policy (an opponent, or exploration) for the whole
        batch in a few numpy calls.

        >>> batch = HandBatch(3, seed=2)
        >>> obs = batch.reset()
        >>> actions = batch.sample_actions(np.random.default_rng(0))
        >>> [bool(obs["action_mask"][i, a]) for i, a in enumerate(actions)]
        [True, True, True]
        """
        if not self.states:
            raise RuntimeError("the batch has no hands yet: call reset() first")
        counts = self._legal_counts
        firsts = np.cumsum(counts) - counts
        picks = firsts + (rng.random(self.n) * counts).astype(np.intp)
        actions: npt.NDArray[np.intp] = self._marked[picks] - self._row_starts
        return actions
