"""Many Gin Rummy hands stepped together, for training loops: one call plays one move in
each of N hands and returns every observation and mask as stacked arrays (Gin Rummy's
:class:`umtali.rl.encoding.Batch`).

Each row is a hand of its own, seen by its player to move (``to_move``), as self-play
wants: its arrays are exactly what a lone
:class:`~umtali.games.gin.research.observation.Observer` shows that player (the dict
form, without ``history``), with a leading axis of N. A hand that ends is dealt anew at
once: its row's reward (the hand's score margin, by seat; a dead hand's 0) is paid and
``done`` set in the step that ended it, and the observation returned is already of the
next hand. The batch is plain Python over the hands, one observation a row: correct
first.

The ``action_mask`` array a step returns is the batch's own, read-only, overwritten by
the next step, unless the batch is made with ``copy=True``. What every game's batch does
the same way (``legal``, ``legal_counts``, ``legal_indices``, ``sample_actions``) is
:class:`umtali.rl.shared.RowBatch`'s.

>>> import numpy as np
>>> batch = HandBatch(4, seed=1)
>>> obs = batch.reset()
>>> obs["cards"].shape, obs["action_mask"].shape
((4, 11, 52), (4, 107))
>>> rng = np.random.default_rng(0)
>>> for _ in range(300):
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

from umtali.games.gin.game import GinGame
from umtali.games.gin.research.actions import NUM_ACTIONS, action_text
from umtali.games.gin.research.observation import Observer
from umtali.games.gin.rules import GIN, GinRules
from umtali.games.gin.state import GinHand
from umtali.kernel.deck import shuffled_deck
from umtali.rl import shared
from umtali.rl.encoding import ArrayLayout, BatchObservation, checked_actions
from umtali.rl.shared import BATCH_ENCODING, EncodingVersion

__all__ = ["HandBatch", "batch_arrays"]

_ARRAYS = ("cards", "counts", "flags")


def batch_arrays(encoding: EncodingVersion = BATCH_ENCODING) -> ArrayLayout:
    """The arrays of a batch's observation besides its mask: each one's shape for one
    row, and its type (the same in both versions: Gin Rummy's arrays were in [0, 1]
    from the first).

    >>> {name: shape for name, (shape, _) in batch_arrays().items()}
    {'cards': (11, 52), 'counts': (11,), 'flags': (16,)}
    """
    return shared.array_layout(Observer(encoding=encoding).array_spaces(), _ARRAYS)


class HandBatch(shared.RowBatch):
    """``n`` hands under ``rules``, dealt from one RNG seeded with ``seed``.

    ``mask_buffer`` gives the memory the masks are written into (a flat int8 array of
    ``n * NUM_ACTIONS`` entries; shared memory, for :mod:`umtali.rl.parallel`);
    ``encoding`` the arrays' version (``"v0"`` unless asked, as a lone observer's).

    Attributes:
        n: how many hands.
        games: each row's game (one hand a game: the hand is ``hands[-1]``).
        to_move: for each row, the seat its observation is of (the player to move).
        hands_played: how many hands have ended since :meth:`reset`.
        copy: whether each step's ``action_mask`` is a new array (else the batch's own).
    """

    def __init__(
        self,
        n: int,
        *,
        seed: int | None = None,
        rules: GinRules = GIN,
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
        self.games: list[GinGame] = []
        self._legal: list[list[int]] = []
        self.to_move = np.zeros(n, np.int8)
        self.hands_played = 0
        self._mask_buffer = buffer
        self._mask = self._mask_buffer.reshape(n, NUM_ACTIONS).view()
        self._mask.flags.writeable = False

    def _deal(self, row: int) -> None:
        rng = self._rng
        game = GinGame(self.rules, first_dealer=rng.randrange(2))
        game.new_hand(shuffled_deck(rng))
        self.games[row] = game

    def hand(self, row: int) -> GinHand:
        """Row ``row``'s hand under way."""
        return self.games[row].hands[-1]

    def reset(self, seed: int | None = None) -> BatchObservation:
        """Deal every row anew (from ``seed`` if given) and return the observations."""
        if seed is not None:
            self._rng = random.Random(seed)
        self.games = [GinGame(self.rules)] * self.n  # each replaced by _deal
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
            hand.push(index)
            outcome = hand.outcome
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
        observer = self.observer
        rows = []
        self._legal = []
        self._mask_buffer[:] = 0
        for row, game in enumerate(self.games):
            hand = game.hands[-1]
            seat = hand.player
            self.to_move[row] = seat
            legal = hand.legal_actions()
            self._legal.append(legal)
            obs = observer.observe(game, seat, legal)
            self._mask_buffer[row * NUM_ACTIONS + np.array(legal, np.intp)] = 1
            rows.append(obs)
        return shared.stacked_rows(rows, _ARRAYS, self._mask, copy=self.copy)
