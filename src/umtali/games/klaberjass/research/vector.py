"""Many Klaberjass hands stepped together, for training loops: one call plays one move in
each of N hands and returns every observation and mask as stacked arrays
(Klaberjass's :class:`umtali.rl.encoding.Batch`).

Each row is a hand of its own, seen by its player to move (``to_move``), as self-play
wants: its arrays are exactly what a lone
:class:`~umtali.games.klaberjass.research.observation.Observer` shows that player (the
dict form, without ``history``), with a leading axis of N. A hand that ends is dealt
anew at once: its row's reward (the hand's score margin, by seat) is paid and ``done``
set in the step that ended it, and the observation returned is already of the next
hand. The batch is plain Python over the hands, one observation a row: correct first;
a hand of Klaberjass lasts some 20 moves, so its rows are cheap anyway.

The ``action_mask`` array a step returns is the batch's own, read-only, overwritten by
the next step, unless the batch is made with ``copy=True``. What every game's batch does
the same way (``legal``, ``legal_counts``, ``legal_indices``, ``sample_actions``) is
:class:`umtali.rl.shared.RowBatch`'s.

>>> import numpy as np
>>> batch = HandBatch(4, seed=1)
>>> obs = batch.reset()
>>> obs["cards"].shape, obs["action_mask"].shape
((4, 12, 32), (4, 43))
>>> rng = np.random.default_rng(0)
>>> for _ in range(60):
...     obs, rewards, done = batch.step(batch.sample_actions(rng))
...     assert (rewards.sum(axis=1) == 0).all()
>>> batch.hands_played > 0
True
>>> actions = batch.sample_actions(rng)
>>> [bool(obs["action_mask"][i, a]) for i, a in enumerate(actions)]
[True, True, True, True]
"""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt

from umtali.games.klaberjass.match import KlaberjassMatch
from umtali.games.klaberjass.research.actions import (
    ENGINE_ACTIONS,
    INDEX_OF_ACTION,
    NUM_ACTIONS,
    action_text,
)
from umtali.games.klaberjass.research.episode import first_dealt
from umtali.games.klaberjass.research.observation import Observer
from umtali.games.klaberjass.rules import BOOK, KlaberjassRules
from umtali.games.klaberjass.state import KlaberjassHand
from umtali.games.klaberjass.terms import DECK
from umtali.kernel.deck import shuffled_deck
from umtali.rl import shared
from umtali.rl.encoding import ArrayLayout, BatchObservation, checked_actions
from umtali.rl.shared import BATCH_ENCODING, EncodingVersion

__all__ = ["HandBatch", "batch_arrays"]

_ARRAYS = ("cards", "counts", "flags")


def batch_arrays(encoding: EncodingVersion = BATCH_ENCODING) -> ArrayLayout:
    """The arrays of a batch's observation besides its mask, in version ``encoding``:
    each one's shape for one row, and its type.

    >>> {name: shape for name, (shape, _) in batch_arrays().items()}
    {'cards': (12, 32), 'counts': (15,), 'flags': (23,)}
    >>> batch_arrays("v1")["counts"]
    ((15,), dtype('float32'))
    """
    return shared.array_layout(Observer(encoding=encoding).array_spaces(), _ARRAYS)


class HandBatch(shared.RowBatch):
    """``n`` hands under ``rules``, dealt from one RNG seeded with ``seed``.

    ``mask_buffer`` gives the memory the masks are written into (a flat int8 array of
    ``n * NUM_ACTIONS`` entries; shared memory, for :mod:`umtali.rl.parallel`);
    ``encoding`` the arrays' version (``"v0"`` unless asked, as a lone observer's).

    Attributes:
        n: how many hands.
        matches: each row's match (one hand a match: the hand is ``hands[-1]``).
        dealt: each row's six cards dealt first to each seat, as its views showed them.
        to_move: for each row, the seat its observation is of (the player to move).
        hands_played: how many hands have ended since :meth:`reset`.
        copy: whether each step's ``action_mask`` is a new array (else the batch's own).
    """

    def __init__(
        self,
        n: int,
        *,
        seed: int | None = None,
        rules: KlaberjassRules = BOOK,
        copy: bool = False,
        mask_buffer: npt.NDArray[np.int8] | None = None,
        encoding: EncodingVersion = BATCH_ENCODING,
    ) -> None:
        buffer = shared.mask_buffer(n, NUM_ACTIONS, mask_buffer)
        self.n = n
        self.rules = rules
        self.copy = copy
        self.observer = Observer(rules, encoding=encoding)
        self._rng = random.Random(seed)
        self.matches: list[KlaberjassMatch] = []
        self.dealt: list[tuple[int, int]] = []
        self._legal: list[list[int]] = []
        self.to_move = np.zeros(n, np.int8)
        self.hands_played = 0
        self._mask_buffer = buffer
        self._mask = self._mask_buffer.reshape(n, NUM_ACTIONS).view()
        self._mask.flags.writeable = False

    def _deal(self, row: int) -> None:
        rng = self._rng
        match = KlaberjassMatch(self.rules, first_dealer=rng.randrange(2))
        match.new_hand(shuffled_deck(rng, DECK))
        self.matches[row] = match
        self.dealt[row] = first_dealt(match)

    def hand(self, row: int) -> KlaberjassHand:
        """Row ``row``'s hand under way."""
        return self.matches[row].hands[-1]

    def reset(self, seed: int | None = None) -> BatchObservation:
        """Deal every row anew (from ``seed`` if given) and return the observations."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.matches = [KlaberjassMatch(self.rules)] * self.n  # each replaced by _deal
        self.dealt = [(0, 0)] * self.n
        for row in range(self.n):
            self._deal(row)
        self.hands_played = 0
        return self._observe()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[BatchObservation, npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Play ``actions[i]`` (an action index) in row ``i``, for every row; return the
        new observations, the rewards by row and seat, and which rows' hands ended.
        :class:`~umtali.rl.encoding.IllegalActionError` (nothing moved) if any action is
        not legal in its row."""
        self.require_hands()
        chosen = checked_actions(actions, self._mask_buffer, NUM_ACTIONS, action_text)
        rewards = np.zeros((self.n, 2), np.float32)
        done = np.zeros(self.n, np.bool_)
        for row, index in enumerate(chosen.tolist()):
            hand = self.hand(row)
            hand.push(ENGINE_ACTIONS[index])
            outcome = hand.outcome()
            if outcome is not None:
                margin = outcome.scores[0] - outcome.scores[1]
                rewards[row] = (margin, -margin)
                done[row] = True
                self.hands_played += 1
                self._deal(row)
        return self._observe(), rewards, done

    def _observe(self) -> BatchObservation:
        """Every row's observation by its player to move, stacked; the masks written
        into the batch's buffer."""
        index = INDEX_OF_ACTION
        observer = self.observer
        rows = []
        self._legal = []
        self._mask_buffer[:] = 0
        for row, match in enumerate(self.matches):
            hand = match.hands[-1]
            seat = hand.player
            self.to_move[row] = seat
            legal = [index[action] for action in hand.legal_actions()]
            self._legal.append(legal)
            obs = observer.observe(match, seat, self.dealt[row][seat], legal)
            self._mask_buffer[row * NUM_ACTIONS + np.array(legal, np.intp)] = 1
            rows.append(obs)
        return shared.stacked_rows(rows, _ARRAYS, self._mask, copy=self.copy)
