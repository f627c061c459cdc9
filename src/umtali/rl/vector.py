"""Many hands stepped together, for training loops: one call plays one move in each of N
hands and returns every observation and mask as stacked arrays.

Each row of a :class:`HandBatch` is a hand of its own, seen by its player to move
(``to_move``), as self-play wants: the arrays are :mod:`umtali.rl.observation`'s, with a
leading axis of N. A hand that ends is dealt anew at once: its row's reward is paid and
``done`` set in the step that ended it, and the observation returned is already of the
next hand. Rewards are each hand's score margin, by seat (``rewards[i, seat]``).

The ``action_mask`` array a step returns is the batch's own, read-only, and the next
step writes the next masks into it (building a fresh 14,272-entry row per hand each step
would cost more than the step itself); a learner that keeps masks across steps copies
them, or makes the batch with ``copy=True``. The other arrays are new at every step.

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
"""

from __future__ import annotations

import random
from itertools import chain
from operator import attrgetter
from typing import Final

import numpy as np
import numpy.typing as npt

from umtali.cards import ALL_CARDS, JACKS, quoted
from umtali.deck import shuffled_deck
from umtali.rl.actions import ENGINE_ACTIONS, INDEX_OF_ACTION, NUM_ACTIONS, move_of
from umtali.rl.episode import IllegalActionError
from umtali.rl.observation import (
    CARD_PLANES,
    COUNTS,
    FACE_DOWN_ENTRY,
    FLAGS,
    laid_face_down,
    pile_facts,
    table_facts,
)
from umtali.rules import STANDARD, RuleSet
from umtali.state import HandState, RawSide
from umtali.terms import FACE_DOWN, Phase

__all__ = ["HandBatch"]

_OVER: Final = int(Phase.OVER)

BatchObservation = dict[str, npt.NDArray[np.generic]]

_STATE_FIELDS: Final = (
    "player",
    "phase",
    "turn",
    "dealer",
    "eleventh",
    "out",
    "last_turn",
    "took_two",
    "stock_pos",
    "taken",
    "open_mask",
    "turn_open",
)
_read_fields = attrgetter(*_STATE_FIELDS)
"""The state's plain fields a row of the batch reads, in one call."""

# The columns of a row of facts read each step (see HandBatch._observe): the fields
# above, then both hands, both ever-taken masks, both sides' points and the stock's
# length as dealt.
(
    _PLAYER,
    _PHASE,
    _TURN,
    _DEALER,
    _ELEVENTH,
    _OUT,
    _LAST_TURN,
    _TOOK_TWO,
    _STOCK_POS,
    _TAKEN,
    _OPEN_MASK,
    _TURN_OPEN,
) = range(len(_STATE_FIELDS))
_HANDS: Final = len(_STATE_FIELDS)
_EVER_TAKEN: Final = _HANDS + 2
_POINTS: Final = _EVER_TAKEN + 2
_STOCK_LEN: Final = _POINTS + 2
_ROW: Final = _STOCK_LEN + 1

_POPCOUNT: Final = np.array([bin(b).count("1") for b in range(256)], np.int32)
"""Set bits of each byte value: hand sizes for a whole batch in two numpy calls (numpy
1.26, which the project supports, has no ``bitwise_count``)."""


def _table_row(tables: tuple[RawSide, RawSide]) -> tuple[int, ...]:
    """The table as seat 0 sees it (his masks by column kind, then the other's) and all
    its cards."""
    by_seat, table = table_facts(tables)
    return (*by_seat[0], table)


def _next_table_row(
    tables: tuple[RawSide, RawSide],
    before: tuple[RawSide, RawSide] | None,
    row: tuple[int, ...],
) -> tuple[int, ...]:
    """The :func:`_table_row` of ``tables``, from ``row``, that of the table ``before``
    it in the same row of the batch: a move lays one column on one side, leaving the
    other side the same object, so the new row is the old one and that column (a new
    hand's table is worked out afresh)."""
    if before is not None:
        for side in (0, 1):
            laid, kept = tables[side], before[side]
            if tables[1 - side] is before[1 - side] and len(laid) == len(kept) + 1:
                kind, mask, _ = laid[-1]
                if laid[:-1] == kept:
                    changed = list(row)
                    changed[5 * side + kind] |= mask
                    changed[10] |= mask
                    return tuple(changed)
    return _table_row(tables)


def _popcount(masks: npt.NDArray[np.int64]) -> npt.NDArray[np.int32]:
    """How many cards each mask holds."""
    as_bytes = masks.astype("<i8").view(np.uint8).reshape(len(masks), 8)
    counted: npt.NDArray[np.int32] = _POPCOUNT[as_bytes].sum(axis=1, dtype=np.int32)
    return counted


class HandBatch:
    """``n`` hands under ``rules``, dealt from one RNG seeded with ``seed``.

    With ``copy=True`` every step returns an ``action_mask`` array of the caller's own;
    by default it is the batch's, overwritten by the next step (see the module).

    Attributes:
        n: how many hands.
        states: the hands, row by row (read them; only :meth:`step` moves them).
        to_move: for each row, the seat its observation is of (the player to move).
        legal: for each row, the legal action indices (those its mask row marks), for
            a policy that draws from them without reading the whole mask.
        hands_played: how many hands have ended since :meth:`reset`.
        copy: whether each step's ``action_mask`` is a new array (else the batch's own).
    """

    def __init__(
        self, n: int, *, seed: int | None = None, rules: RuleSet = STANDARD, copy: bool = False
    ) -> None:
        if type(n) is not int or n < 1:
            raise ValueError(f"a batch holds n >= 1 hands, not {quoted(n)}")
        self.n = n
        self.rules = rules
        self.copy = copy
        self._seed = seed
        self._rng = random.Random(seed)
        self.states: list[HandState] = []
        self.to_move = np.zeros(n, np.int8)
        self.legal: list[list[int]] = []
        self.hands_played = 0
        # The masks' buffer, the entries the last step set in it, and the read-only
        # view of it handed out.
        self._mask_buffer = np.zeros(n * NUM_ACTIONS, np.int8)
        self._marked = np.zeros(0, np.intp)
        self._mask = self._mask_buffer.reshape(n, NUM_ACTIONS).view()
        self._mask.flags.writeable = False
        self._row_starts = np.arange(n, dtype=np.intp) * NUM_ACTIONS
        self._legal_counts = np.zeros(n, np.intp)
        # Per row, the table and the pile last seen, and their facts as arrays: a table
        # or a pile is an immutable tuple the engine replaces when it changes, so the
        # same object means the same facts, and only the rows whose table or pile a
        # step changed are worked out again (most moves change one of them, or neither).
        self._tables: list[tuple[RawSide, RawSide] | None] = [None] * n
        self._table_rows: list[tuple[int, ...]] = [()] * n
        self._piles: list[tuple[int, ...] | None] = [None] * n
        self._table_facts = np.zeros((n, 11), np.int64)  # as _table_row
        self._pile_facts: list[tuple[int, bool, int, int]] = [(0, False, 0, 0)] * n
        self._pile_masks = np.zeros((n, 3), np.int64)  # seen face up, top, second
        self._pile_down = np.zeros(n, np.bool_)  # whether any card lies face down
        self._pile_rows = np.zeros((n, 52), np.uint8)

    def _deal(self) -> HandState:
        rng = self._rng
        return HandState(shuffled_deck(rng), rng.randrange(2), self.rules).forget_undo()

    def reset(self, seed: int | None = None) -> BatchObservation:
        """Deal every row anew (from ``seed`` if given) and return the observations."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.states = [self._deal() for _ in range(self.n)]
        self.hands_played = 0
        return self._observe()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[BatchObservation, npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Play ``actions[i]`` (an action index) in row ``i``, for every row; return the
        new observations, the rewards by row and seat, and which rows' hands ended.
        :class:`IllegalActionError` (nothing moved) if any action is not legal in its row.
        """
        if not self.states:
            raise RuntimeError("the batch has no hands yet: call reset() first")
        chosen = np.asarray(actions)
        if chosen.shape != (self.n,) or not np.issubdtype(chosen.dtype, np.integer):
            raise IllegalActionError(
                f"actions are {self.n} ints, one a row, not an array of shape {chosen.shape}"
                f" and type {chosen.dtype}"
            )
        inside = (chosen >= 0) & (chosen < NUM_ACTIONS)
        legal = inside.copy()
        legal[inside] = self._mask_buffer[self._row_starts[inside] + chosen[inside]] == 1
        if not legal.all():
            bad = int(np.flatnonzero(~legal)[0])
            what = int(chosen[bad])
            named = f"('{move_of(what)}') " if 0 <= what < NUM_ACTIONS else ""
            raise IllegalActionError(
                f"action {what} {named}is not legal in row {bad}; the legal actions are"
                " the ones its action_mask row marks"
            )
        rewards = np.zeros((self.n, 2), np.float32)
        done = np.zeros(self.n, np.bool_)
        states = self.states
        engine = ENGINE_ACTIONS
        for i, index in enumerate(chosen.tolist()):
            state = states[i]
            state.push(engine[index])
            if state.phase == _OVER:
                outcome = state.outcome()
                assert outcome is not None
                margin = outcome.scores[0] - outcome.scores[1]
                rewards[i] = (margin, -margin)
                done[i] = True
                states[i] = self._deal()
        self.hands_played += int(done.sum())
        return self._observe(), rewards, done

    def _observe(self) -> BatchObservation:
        """Every row's observation by its player to move, stacked: each row's facts are
        read as plain ints in one pass, then every array is worked out column by column
        for the whole batch. Each is what :meth:`Observer.observe` gives the row's player
        (a test compares them row by row)."""
        n = self.n
        rows: list[tuple[int, ...]] = []
        legal_rows: list[list[int]] = []
        index = INDEX_OF_ACTION.__getitem__
        tables_seen, table_rows, piles_seen = self._tables, self._table_rows, self._piles
        pile_rows = self._pile_facts
        laid: list[tuple[int, int, int]] = []  # (row, place, entry) of each discard
        rebuilt: list[tuple[int, bytes]] = []  # (row, pile row) of any other change
        new_tables: list[int] = []
        new_piles: list[int] = []
        for i, state in enumerate(self.states):
            legal_rows.append(list(map(index, state.legal_actions())))
            tables = state.tables
            if tables is not tables_seen[i]:
                table_rows[i] = _next_table_row(tables, tables_seen[i], table_rows[i])
                tables_seen[i] = tables
                new_tables.append(i)
            pile = state.pile
            if pile is not piles_seen[i]:
                before = piles_seen[i]
                piles_seen[i] = pile
                new_piles.append(i)
                at = len(pile) - 1
                if before is not None and at == len(before) and pile[:at] == before:
                    # A discard: the card on top is the one change (see pile_facts).
                    entry = pile[at]
                    seen, down, top, _ = pile_rows[i]
                    if entry & FACE_DOWN:
                        pile_rows[i] = (seen, True, 0, 0)
                        laid.append((i, at, FACE_DOWN_ENTRY))
                    else:
                        pile_rows[i] = (seen | 1 << entry, down, 1 << entry, top)
                        laid.append((i, at, entry + 1))
                else:
                    seen, down, top, second, row = pile_facts(pile)
                    pile_rows[i] = (seen, down, top, second)
                    rebuilt.append((i, row))
            rows.append(
                (
                    *_read_fields(state),
                    *state.hands,
                    *state.ever_taken,
                    *state.points,
                    len(state.stock),
                )
            )
        self.legal = legal_rows
        if new_tables:
            self._table_facts[new_tables] = [table_rows[i] for i in new_tables]
        if new_piles:
            self._pile_masks[new_piles] = [pile_rows[i][::2] + pile_rows[i][3:] for i in new_piles]
            self._pile_down[new_piles] = [pile_rows[i][1] for i in new_piles]
            if laid:
                laid_rows, places, entries = zip(*laid, strict=True)
                self._pile_rows[laid_rows, places] = entries
            if rebuilt:
                rebuilt_rows, pile_bytes = zip(*rebuilt, strict=True)
                self._pile_rows[list(rebuilt_rows)] = np.frombuffer(
                    b"".join(pile_bytes), np.uint8
                ).reshape(len(rebuilt_rows), 52)
        raw = np.fromiter(chain.from_iterable(rows), np.int64, n * _ROW).reshape(n, _ROW).T
        seat = raw[_PLAYER]
        self.to_move = seat.astype(np.int8)
        first = seat == 0  # the viewer sits at seat 0: his own columns come first
        hand = np.where(first, raw[_HANDS], raw[_HANDS + 1])
        opponent_hand = np.where(first, raw[_HANDS + 1], raw[_HANDS])
        ever_mine = np.where(first, raw[_EVER_TAKEN], raw[_EVER_TAKEN + 1])
        ever_theirs = np.where(first, raw[_EVER_TAKEN + 1], raw[_EVER_TAKEN])
        sides = self._table_facts
        own = np.where(first[:, None], sides[:, :5], sides[:, 5:10])
        theirs = np.where(first[:, None], sides[:, 5:10], sides[:, :5])
        phase = raw[_PHASE]
        # The viewer is the player to move: the opponent's hand is closed (R4) from the
        # second turn on, in the draw and the play, when the rules make play compulsory.
        closed = (raw[_TURN] >= 2) & ((phase == int(Phase.DRAW)) | (phase == int(Phase.PLAY)))
        if not self.rules.compulsory_play:
            closed[:] = False
        holds = ever_theirs & opponent_hand
        on_pile = self._pile_masks[:, 0].copy()
        if self._pile_down.any():  # the player to move sees his own face-down discards
            states = self.states
            for i in np.flatnonzero(self._pile_down).tolist():
                on_pile[i] |= laid_face_down(states[i], states[i].player)
        masks = np.empty((n, len(CARD_PLANES)), "<i8")
        masks[:, 0] = hand
        masks[:, 1:6] = own
        masks[:, 6:11] = theirs
        masks[:, 11] = on_pile
        masks[:, 12:14] = self._pile_masks[:, 1:]
        masks[:, 14] = holds
        masks[:, 15] = np.where(closed, JACKS | raw[_TURN_OPEN], 0)
        masks[:, 16] = ALL_CARDS & ~(hand | sides[:, 10] | on_pile | holds)
        masks[:, 17] = ever_mine
        masks[:, 18] = ever_theirs
        masks[:, 19] = raw[_TAKEN]
        masks[:, 20] = raw[_OPEN_MASK]
        cards = np.unpackbits(
            masks.view(np.uint8).reshape(n, len(CARD_PLANES), 8),
            axis=2,
            count=52,
            bitorder="little",
        )
        piles = self._pile_rows.copy()
        counts = np.zeros((n, len(COUNTS)), np.int32)  # the game's totals stay 0
        counts[:, 0] = raw[_STOCK_LEN] - raw[_STOCK_POS]
        counts[:, 1] = _popcount(hand)
        counts[:, 2] = _popcount(opponent_hand)
        counts[:, 3] = np.count_nonzero(piles, axis=1)  # an entry is 0 past the top only
        counts[:, 4] = raw[_TURN]
        counts[:, 5] = np.where(first, raw[_POINTS], raw[_POINTS + 1])
        counts[:, 6] = np.where(first, raw[_POINTS + 1], raw[_POINTS])
        eleventh = raw[_ELEVENTH]
        out = raw[_OUT]
        flags = np.empty((n, len(FLAGS)), np.uint8)
        flags[:, 0] = phase == int(Phase.CHOOSE)
        flags[:, 1] = phase == int(Phase.DRAW)
        flags[:, 2] = phase == int(Phase.PLAY)
        flags[:, 3] = phase == _OVER
        flags[:, 4] = phase != _OVER  # to move: the viewer is the player to move
        flags[:, 5] = raw[_DEALER] == seat
        flags[:, 6] = eleventh == seat
        flags[:, 7] = eleventh == 1 - seat
        flags[:, 8] = raw[_LAST_TURN]
        flags[:, 9] = out == seat
        flags[:, 10] = out == 1 - seat
        flags[:, 11] = raw[_TOOK_TWO]
        flags[:, 12] = closed
        self._mark_legal(legal_rows)
        return {
            "cards": cards,
            "pile": piles,
            "counts": counts,
            "flags": flags,
            "action_mask": self._mask.copy() if self.copy else self._mask,
        }

    def _mark_legal(self, legal_rows: list[list[int]]) -> None:
        """Write the rows' legal moves into the masks' buffer: clear the entries the
        last step set, then set this step's (a few dozen a row, not 14,272)."""
        lengths = np.fromiter(map(len, legal_rows), np.intp, self.n)
        marked = np.fromiter(chain.from_iterable(legal_rows), np.intp, int(lengths.sum()))
        marked += np.repeat(self._row_starts, lengths)
        buffer = self._mask_buffer
        buffer[self._marked] = 0
        buffer[marked] = 1
        self._marked = marked
        self._legal_counts = lengths

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
