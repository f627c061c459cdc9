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

import numpy as np
import numpy.typing as npt

from umtali.games.gin.game import GinGame
from umtali.games.gin.research.actions import NUM_ACTIONS, action_text
from umtali.games.gin.research.observation import Observer
from umtali.games.gin.rules import GIN, GinRules
from umtali.games.gin.state import GinHand
from umtali.kernel.deck import shuffled_deck
from umtali.rl import shared
from umtali.rl.encoding import ArrayLayout
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
    ``encoding`` the arrays' version (``"v1"`` unless asked, as a lone observer's).

    Attributes:
        n: how many hands.
        games: each row's game (one hand a game: the hand is ``hands[-1]``).
        to_move: for each row, the seat its observation is of (the player to move).
        hands_played: how many hands have ended since :meth:`reset`.
        copy: whether each step's ``action_mask`` is a new array (else the batch's own).
    """

    num_actions = NUM_ACTIONS
    arrays = _ARRAYS
    action_text = staticmethod(action_text)

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
        observer = Observer(rules, encoding=encoding)
        self._start(n, rules, observer, seed=seed, copy=copy, buffer=mask_buffer)
        self.rules: GinRules = rules
        self.observer: Observer = observer
        self.games: list[GinGame] = []

    def _blank(self) -> None:
        self.games = [GinGame(self.rules)] * self.n  # each replaced by _deal

    def _deal(self, row: int) -> None:
        rng = self._rng
        game = GinGame(self.rules, first_dealer=rng.randrange(2))
        game.new_hand(shuffled_deck(rng))
        self.games[row] = game

    def hand(self, row: int) -> GinHand:
        """Row ``row``'s hand under way."""
        return self.games[row].hands[-1]

    def _play(self, row: int, index: int) -> tuple[int, int] | None:
        hand = self.games[row].hands[-1]
        hand.push(index)
        outcome = hand.outcome
        return None if outcome is None else outcome.scores

    def _turn(self, row: int) -> tuple[int, list[int]]:
        hand = self.games[row].hands[-1]
        return hand.player, hand.legal_actions()

    def _seen(self, row: int, seat: int, legal: list[int]) -> dict[str, npt.NDArray[np.generic]]:
        return self.observer.observe(self.games[row], seat, legal)
