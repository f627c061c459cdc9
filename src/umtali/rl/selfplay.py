"""A game's packed batch of hands as a Gymnasium ``VectorEnv``, for self-play: every row
a hand of its own, seen by its player to move, as the batch (:class:`umtali.rl.encoding.Batch`,
Umtali's :class:`~umtali.rl.vector.HandBatch`) sees it, for every registered game with a
research encoding.

A self-play step is a move in every row, by whichever seat is to move there, so a
reward a row has to say whose it is. ``rewards[i]`` is the reward of the seat that has
just moved in row ``i`` (the hand's score margin for him in the step that ends it, 0
before), and ``infos["rewards"]`` holds every seat's, by row and seat, so that the
seat that did not make the last move learns his too. ``infos["to_move"]`` is the seat
each new observation is of, ``infos["mover"]`` the seat that made the step's move.

An ended hand is dealt anew in the step that ended it, as the batch does it
(``metadata["autoreset_mode"]`` is ``SAME_STEP``): the observation returned is already
of the next hand. A hand's end is nobody's turn, so no final observation comes with
it (there is no ``infos["final_obs"]``); the rewards by seat are its outcome.

>>> import numpy as np
>>> envs = SelfPlayVectorEnv(4, seed=1)
>>> obs, infos = envs.reset()
>>> obs["cards"].shape, envs.single_action_space
((4, 21, 52), Discrete(14272))
>>> rng = np.random.default_rng(0)
>>> ended = 0
>>> for _ in range(300):
...     obs, rewards, terminated, truncated, infos = envs.step(envs.batch.sample_actions(rng))
...     ended += int(terminated.sum())
...     assert (infos["rewards"].sum(axis=1) == 0).all()  # one seat's gain is the other's loss
>>> ended == envs.batch.hands_played > 0
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from umtali.games import DEFAULT_GAME
from umtali.rl.encoding import BatchObservation, research
from umtali.rl.shared import BATCH_ENCODING, checked_batch_size, checked_encoding

__all__ = ["SelfPlayVectorEnv"]


class SelfPlayVectorEnv(VectorEnv[BatchObservation, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` hands of ``game`` in the game's packed batch, as a Gymnasium 1.x
    ``VectorEnv`` (see the module).

    ``rules`` and ``encoding`` (the arrays' version) are the batch's, and ``seed`` seeds
    its generator at the first reset that names none. Observations are the batch's
    named arrays, the ``action_mask`` among them, in the lone observer's space
    (``single_observation_space``). With ``copy`` (the default, as Gymnasium's own
    vector environments copy) every step's ``action_mask`` is an array of the caller's;
    ``copy=False`` hands out the batch's own, which the next step overwrites, and saves
    a copy of ``num_envs`` times the action space a step.

    An illegal action in any row raises :class:`~umtali.rl.encoding.IllegalActionError`
    and moves no row: a self-play learner plays both seats, so no seat is there to be
    paid for another's mistake.

    Attributes:
        batch: the game's batch the environment steps (its ``legal``,
            ``sample_actions`` and ``hands_played`` serve a policy).
        game: the game's registered name.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - Gymnasium's name
        "autoreset_mode": AutoresetMode.SAME_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int,
        *,
        game: str = DEFAULT_GAME,
        rules: object = None,
        seed: int | None = None,
        copy: bool = True,
        encoding: str = BATCH_ENCODING,
    ) -> None:
        self.game = game
        found = research(game)
        version = checked_encoding(encoding)
        self.num_envs = checked_batch_size(num_envs)
        self.batch = found.batch(num_envs, seed=seed, rules=rules, copy=copy, encoding=version)
        self.seats = found.seats
        observer = found.observer(rules, flat=False, encoding=version)
        self.single_observation_space: gymnasium.spaces.Dict = observer.space
        self._num_actions = found.num_actions
        self.single_action_space = gymnasium.spaces.Discrete(found.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._seed = seed
        self._started = False
        self._truncations = np.zeros(num_envs, np.bool_)
        self._rows = np.arange(num_envs)

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[BatchObservation, dict[str, Any]]:
        """Deal every row anew: from ``seed`` (one int: the batch deals every row from
        one generator), else from the environment's ``seed`` at the first reset, else
        going on from the hands dealt before."""
        if seed is not None and not isinstance(seed, int):
            raise ValueError(
                "seed is one int for the whole batch (its rows are dealt from one"
                f" generator), not {type(seed).__name__}"
            )
        if options:
            raise ValueError(
                f"a self-play batch takes no reset options (it deals every row at once),"
                f" not {sorted(options)}"
            )
        if seed is None:
            seed, self._seed = self._seed, None
        obs = self.batch.reset(seed)
        self._started = True
        return obs, self._infos(None)

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        BatchObservation,
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """One move in every row, by its player to move; the new observations, the
        mover's rewards, which hands ended (dealt anew at once), no truncation, and the
        infos (see the module)."""
        if not self._started:
            raise RuntimeError("the environment has no hands yet: call reset() first")
        mover = self.batch.to_move.copy()
        obs, by_seat, done = self.batch.step(actions)
        rewards = by_seat[self._rows, mover].astype(np.float64)
        infos = self._infos(mover)
        infos["rewards"], infos["_rewards"] = by_seat, np.ones(self.num_envs, np.bool_)
        return obs, rewards, done, self._truncations.copy(), infos

    def _infos(self, mover: npt.NDArray[np.int8] | None) -> dict[str, Any]:
        """Gymnasium's vector infos, every row's: the seat to move, and the seat that
        moved (after a step)."""
        every = np.ones(self.num_envs, np.bool_)
        infos: dict[str, Any] = {"to_move": self.batch.to_move.copy(), "_to_move": every}
        if mover is not None:
            infos["mover"], infos["_mover"] = mover, every.copy()
        return infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """Every row's legal moves for its player to move, as booleans (maskable
        learners ask for them so)."""
        masks = np.zeros((self.num_envs, self._num_actions), np.bool_)
        legal = self.batch.legal_indices
        masks[np.repeat(self._rows, self.batch.legal_counts), legal] = True
        return masks
