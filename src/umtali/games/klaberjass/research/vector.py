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
from umtali.rl.encoding import ArrayLayout
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
    ``encoding`` the arrays' version (``"v1"`` unless asked, as a lone observer's).

    Attributes:
        n: how many hands.
        matches: each row's match (one hand a match: the hand is ``hands[-1]``).
        dealt: each row's six cards dealt first to each seat, as its views showed them.
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
        rules: KlaberjassRules = BOOK,
        copy: bool = False,
        mask_buffer: npt.NDArray[np.int8] | None = None,
        encoding: EncodingVersion = BATCH_ENCODING,
    ) -> None:
        observer = Observer(rules, encoding=encoding)
        self._start(n, rules, observer, seed=seed, copy=copy, buffer=mask_buffer)
        self.rules: KlaberjassRules = rules
        self.observer: Observer = observer
        self.matches: list[KlaberjassMatch] = []
        self.dealt: list[tuple[int, int]] = []

    def _blank(self) -> None:
        self.matches = [KlaberjassMatch(self.rules)] * self.n  # each replaced by _deal
        self.dealt = [(0, 0)] * self.n

    def _deal(self, row: int) -> None:
        rng = self._rng
        match = KlaberjassMatch(self.rules, first_dealer=rng.randrange(2))
        match.new_hand(shuffled_deck(rng, DECK))
        self.matches[row] = match
        self.dealt[row] = first_dealt(match)

    def hand(self, row: int) -> KlaberjassHand:
        """Row ``row``'s hand under way."""
        return self.matches[row].hands[-1]

    def _play(self, row: int, index: int) -> tuple[int, int] | None:
        hand = self.matches[row].hands[-1]
        hand.push(ENGINE_ACTIONS[index])
        outcome = hand.outcome()
        return None if outcome is None else outcome.scores

    def _turn(self, row: int) -> tuple[int, list[int]]:
        hand = self.matches[row].hands[-1]
        index = INDEX_OF_ACTION
        return hand.player, [index[action] for action in hand.legal_actions()]

    def _seen(self, row: int, seat: int, legal: list[int]) -> dict[str, npt.NDArray[np.generic]]:
        match = self.matches[row]
        return self.observer.observe(match, seat, self.dealt[row][seat], legal)
