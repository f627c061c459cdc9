"""Hands in a batch against the computer: the learner plays one seat of every row, a
computer level the other(s), inside the batch; and the same as a Gymnasium
``VectorEnv`` (:class:`CardGameVectorEnv`), for every registered game with a research
encoding (:mod:`umtali.rl.encoding`).

A game's own batch (:class:`umtali.rl.encoding.Batch`, Umtali's
:class:`~umtali.rl.vector.HandBatch`) is self-play: each row is seen by its player to
move, whoever that is. A :class:`VersusBatch` is the learner's alone: every row is an
episode of :class:`umtali.rl.gym.CardGameEnv` (one seat against a computer level), so
:meth:`VersusBatch.step` takes one action a row, for the learner's seat, and the
computer's replies are made inside it, each row's computer choosing from its own seat's
view only, until the learner is to move again or the episode ends. Every observation is
therefore the learner's, at his turn (or at the end).

>>> import numpy as np
>>> batch = VersusBatch(4, opponent="greedy", seed=1)
>>> obs = batch.reset()
>>> rng = np.random.default_rng(0)
>>> for _ in range(100):
...     obs, rewards, done = batch.step(batch.sample_actions(rng))
>>> obs["cards"].shape, rewards.shape, batch.hands_played > 0
((4, 21, 52), (4,), True)
>>> batch.moves_played > batch.steps_played  # the computer's moves are counted too
True

Row ``i`` is dealt from the seed ``seed + i`` exactly as a lone
``CardGameEnv.reset(seed=seed + i)``, and an episode that ends is dealt anew at once from
its row's generator, as the lone environment's next ``reset()`` would: so the batch
plays, row for row, what :class:`gymnasium.vector.SyncVectorEnv` plays over the lone
environment with the same seed (a test compares them).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import Enum
from typing import Any, Final

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from umtali.games import DEFAULT_GAME
from umtali.kernel.cards import quoted
from umtali.rl.encoding import BatchObservation, Episode, Opponent, RewardKind, research
from umtali.rl.gym import CardGameEnv, Observation
from umtali.rl.shared import DEFAULT_ENCODING, checked_batch_size, checked_encoding

__all__ = [
    "AUTORESET_MODES",
    "CardGameVectorEnv",
    "PackedVersusBatch",
    "VersusBatch",
    "make_vector_env",
]


class _Counted:
    """A computer opponent that counts its moves (the batch's ``moves_played``)."""

    def __init__(self, opponent: Opponent) -> None:
        self.opponent = opponent
        self.moves = 0

    def choose(self, episode: Episode, rng: Any) -> int:
        self.moves += 1
        return self.opponent.choose(episode, rng)

    def row_move(self, batch: Any, row: int, rng: Any) -> int:
        self.moves += 1
        return self.opponent.row_move(batch, row, rng)


def _episode(env: CardGameEnv) -> Episode:
    if env.episode is None:
        raise RuntimeError("the batch has no hands yet: call reset() first")
    return env.episode


class VersusBatch:
    """``n`` episodes of ``game``, the learner in ``seat`` of each (``None``: drawn each
    episode), ``opponent`` (a computer level of the game) in the others.

    ``rules``, ``reward``, ``perfect_recall``, ``on_illegal``, ``illegal_reward`` and
    ``encoding`` (the arrays' version) are :class:`~umtali.rl.gym.CardGameEnv`'s. ``flat`` is ``False`` by default, as a
    game's :class:`~umtali.rl.encoding.Batch` gives the named arrays; ``True`` gives
    ``{"observation", "action_mask"}`` a row.

    Attributes:
        n: how many rows.
        envs: each row's episode, as the lone environment (unwrapped) plays it.
        seats: for each row, the learner's seat in its episode under way.
        hands_played: how many episodes have ended since :meth:`reset`.
        steps_played: the learner's moves since :meth:`reset`.
        moves_played: every move since :meth:`reset`, the computer's too.
    """

    def __init__(
        self,
        n: int,
        *,
        game: str = DEFAULT_GAME,
        opponent: str = "expert",
        seat: int | None = None,
        seed: int | None = None,
        rules: object = None,
        reward: RewardKind = "margin",
        perfect_recall: bool = False,
        flat: bool = False,
        on_illegal: str = "raise",
        illegal_reward: float | None = None,
        encoding: str = DEFAULT_ENCODING,
    ) -> None:
        self.n = checked_batch_size(n)
        self.game = game
        self.on_illegal = on_illegal
        self.envs = [
            CardGameEnv(
                opponent,
                seat,
                game=game,
                rules=rules,
                reward=reward,
                perfect_recall=perfect_recall,
                flat=flat,
                on_illegal=on_illegal,
                illegal_reward=illegal_reward,
                encoding=encoding,
            )
            for _ in range(n)
        ]
        self._counters = [_Counted(env.bot) for env in self.envs]
        for env, counter in zip(self.envs, self._counters, strict=True):
            env.bot = counter
        self.single_observation_space: gymnasium.spaces.Dict = self.envs[0].observer.space
        self.num_actions = self.envs[0].research.num_actions
        self._seed = seed
        self.seats = np.zeros(n, np.int8)
        self.hands_played = 0
        self.steps_played = 0
        self._moves_at_reset = 0
        self._started = False
        self._buffers: dict[str, npt.NDArray[Any]] = {
            name: np.zeros((n, *(box.shape or ())), box.dtype)
            for name, box in self.single_observation_space.items()
        }

    @property
    def moves_played(self) -> int:
        """Every move since :meth:`reset`: the learner's and the computer's."""
        return self.steps_played + sum(c.moves for c in self._counters) - self._moves_at_reset

    # -- a row -----------------------------------------------------------------------------
    def reset_row(self, row: int, seed: int | None = None) -> tuple[Observation, dict[str, Any]]:
        """Deal row ``row`` anew (from ``seed``, else from its generator) and play the
        computer's moves until the learner is to move: his observation and info."""
        obs, info = self.envs[row].reset(seed=seed)
        self.seats[row] = self.envs[row].seat
        self._write(row, obs)
        return obs, info

    def step_row(
        self, row: int, action: int
    ) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """Play the learner's ``action`` in row ``row`` and the computer's replies: the
        lone environment's ``step``."""
        result = self.envs[row].step(action)
        self.steps_played += 1
        self._write(row, result[0])
        return result

    def _write(self, row: int, obs: Observation) -> None:
        for name, buffer in self._buffers.items():
            buffer[row] = obs[name]

    def observations(self) -> BatchObservation:
        """Every row's last observation, stacked (new arrays, the caller's)."""
        return {name: buffer.copy() for name, buffer in self._buffers.items()}

    # -- the batch -------------------------------------------------------------------------
    def reset(self, seed: int | None = None) -> BatchObservation:
        """Deal every row anew and return the learner's observations: row ``i`` from
        ``seed + i`` (``seed``: the one given here, else the batch's at its first reset),
        else from its own generator where it has one, going on from the hands it dealt
        before (so a second ``reset()`` deals other hands, the same ones every run), else
        from the system's randomness."""
        if seed is None:
            seed, self._seed = self._seed, None
        for row in range(self.n):
            self.reset_row(row, None if seed is None else seed + row)
        self.hands_played = self.steps_played = 0
        self._moves_at_reset = sum(c.moves for c in self._counters)
        self._started = True
        return self.observations()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[BatchObservation, npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Play ``actions[i]`` for the learner in row ``i`` and the computer's replies;
        return the learner's observations, his rewards (one a row) and which episodes
        ended (each dealt anew at once: its row's observation is of the next one). With
        ``on_illegal="raise"`` (the default) an illegal action in any row raises
        :class:`~umtali.rl.encoding.IllegalActionError` before any row moves."""
        if not self._started:
            raise RuntimeError("the batch has no hands yet: call reset() first")
        chosen = np.asarray(actions)
        if chosen.shape != (self.n,) or not np.issubdtype(chosen.dtype, np.integer):
            raise ValueError(
                f"actions are {self.n} ints, one a row, not an array of shape {chosen.shape}"
                f" and type {chosen.dtype}"
            )
        if self.on_illegal == "raise":  # every row checked before any moves
            for env, action in zip(self.envs, chosen.tolist(), strict=True):
                _episode(env).check(action)
        rewards = np.zeros(self.n, np.float32)
        done = np.zeros(self.n, np.bool_)
        for row, action in enumerate(chosen.tolist()):
            _, reward, terminated, truncated, _ = self.step_row(row, action)
            rewards[row] = reward
            if terminated or truncated:
                done[row] = True
                self.hands_played += 1
                self.reset_row(row)
        return self.observations(), rewards, done

    @property
    def legal(self) -> list[list[int]]:
        """For each row, the learner's legal action indices now."""
        return [_episode(env).legal() for env in self.envs]

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal moves in every row, as booleans (n, actions)."""
        return np.stack([env.action_masks() for env in self.envs])

    def sample_actions(self, rng: np.random.Generator) -> npt.NDArray[np.intp]:
        """A legal action for every row, each drawn uniformly with ``rng``."""
        legal = self.legal
        counts = np.array([len(row) for row in legal])
        picks = (rng.random(self.n) * counts).astype(np.intp).tolist()
        return np.array([row[pick] for row, pick in zip(legal, picks, strict=True)], np.intp)


class PackedVersusBatch:
    """``n`` hands of ``game`` in the game's own batch (Umtali's packed
    :class:`~umtali.rl.vector.HandBatch`), the learner in ``seat`` of each (``None``:
    drawn for each hand), the computer of level ``opponent`` in the other, its moves
    made inside the batch: after the learner's moves, the rows whose computer is to
    move are stepped alone (the batch's ``step(actions, rows)``), each computer
    choosing from its own seat's view only, until the learner is to move in every row.

    The same interface as :class:`VersusBatch` (``reset``, ``step``, ``legal``,
    ``action_masks``, ``sample_actions``, ``seats``, ``hands_played``,
    ``steps_played``, ``moves_played``), quicker: every row's observation is the
    batch's, not a lone observer's. Its options are the batch's (``rules``, ``copy``,
    ``encoding``); an episode is a hand, its reward the learner's margin, and an
    illegal action raises :class:`~umtali.rl.encoding.IllegalActionError`, moving no
    row. A hand the computer ends before the learner's first move in it is dealt again
    and pays nothing, as in :class:`~umtali.rl.gym.CardGameEnv` (``redealt`` counts them).
    The hands are dealt from one generator seeded with ``seed``, and the seats
    and the computer's choices from another, so a seed replays the same; they are not
    the hands :class:`VersusBatch` deals from the same seed.

    >>> import numpy as np
    >>> batch = PackedVersusBatch(4, opponent="greedy", seed=1)
    >>> obs = batch.reset()
    >>> rng = np.random.default_rng(0)
    >>> for _ in range(100):
    ...     obs, rewards, done = batch.step(batch.sample_actions(rng))
    >>> bool((batch.batch.to_move == batch.seats).all())  # the learner is to move everywhere
    True
    >>> batch.moves_played > batch.steps_played > 0 < batch.hands_played
    True
    """

    def __init__(
        self,
        n: int,
        *,
        game: str = DEFAULT_GAME,
        opponent: str = "expert",
        seat: int | None = None,
        seed: int | None = None,
        rules: object = None,
        copy: bool = False,
        encoding: str = DEFAULT_ENCODING,
    ) -> None:
        self.n = checked_batch_size(n)
        self.game = game
        found = research(game)
        if opponent not in found.levels:
            raise ValueError(
                f"opponent is one of {', '.join(found.levels)}, not {quoted(opponent)}"
            )
        if seat is not None and seat not in range(found.seats):
            raise ValueError(
                f"seat is 0 to {found.seats - 1}, or None to draw it, not {quoted(seat)}"
            )
        self.batch = found.batch(
            n, seed=seed, rules=rules, copy=copy, encoding=checked_encoding(encoding)
        )
        self.opponent = found.opponent(opponent)
        self.num_actions = found.num_actions
        self.single_observation_space: gymnasium.spaces.Dict = found.observer(
            rules, flat=False, encoding=encoding
        ).space
        self._seat = seat
        self._seats_count = found.seats
        self._seed = seed
        self._rng = random.Random(seed)
        self.seats = np.zeros(n, np.int8)
        self.hands_played = 0
        self.steps_played = 0
        self.moves_played = 0
        self._rows = np.arange(n)
        self._started = False
        self._moved = np.zeros(n, np.bool_)  # whether the learner has moved in each row's hand
        self.redealt = 0

    def _draw_seats(self, rows: npt.NDArray[np.intp]) -> None:
        """The learner's seat in each of ``rows``, for the hands just dealt there."""
        if self._seat is not None:
            self.seats[rows] = self._seat
        else:
            count = self._seats_count
            self.seats[rows] = [self._rng.randrange(count) for _ in range(len(rows))]

    def _reply(
        self, rewards: npt.NDArray[np.float32], done: npt.NDArray[np.bool_]
    ) -> BatchObservation:
        """Play the computer's moves until the learner is to move in every row, adding
        what the hands that end pay the learner to ``rewards`` and marking them in
        ``done``: the observations then."""
        batch = self.batch
        rng, choose = self._rng, self.opponent.row_move
        while len(waiting := np.flatnonzero(batch.to_move != self.seats)):
            actions = np.array([choose(batch, row, rng) for row in waiting.tolist()], np.intp)
            by_seat, ended = batch.play(actions, rows=waiting)
            self.moves_played += len(waiting)
            self._settle(by_seat, ended, rewards, done)
        return batch.observe()

    def _settle(
        self,
        by_seat: npt.NDArray[np.float32],
        ended: npt.NDArray[np.bool_],
        rewards: npt.NDArray[np.float32],
        done: npt.NDArray[np.bool_],
    ) -> None:
        """Pay the learner his seat's share of the hands that ``ended`` and draw his
        seats in the hands dealt in their place."""
        if ended.any():
            over = np.flatnonzero(ended)
            # A hand the computer ended before the learner's first move in it (a knock
            # on Gin Rummy's first upcard) is dealt again and pays nothing, as in
            # CardGameEnv: nothing in it was his.
            his = over[self._moved[over]]
            rewards[his] += by_seat[his, self.seats[his]]
            done[his] = True
            self.hands_played += len(his)
            self.redealt += len(over) - len(his)
            self._draw_seats(his)
            self._moved[over] = False

    def reset(self, seed: int | None = None) -> BatchObservation:
        """Deal every row anew (from ``seed`` if given, else from the batch's at its first
        reset, else going on from the hands dealt before) and play the computer's moves
        until the learner is to move: his observations."""
        if seed is None:
            seed, self._seed = self._seed, None
        else:
            self._rng = random.Random(seed)
        self.batch.reset(seed)
        self._moved[:] = False
        self._draw_seats(self._rows)
        self.hands_played = self.steps_played = 0
        obs = self._reply(np.zeros(self.n, np.float32), np.zeros(self.n, np.bool_))
        # The computer's moves to the learner's first turn count for nothing, as in
        # VersusBatch (hands it ended alone are dealt again, counted in redealt).
        self.moves_played = 0
        self._started = True
        return obs

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[BatchObservation, npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Play ``actions[i]`` for the learner in row ``i`` and the computer's replies;
        return the learner's observations, his rewards (one a row) and which episodes
        ended (each dealt anew at once: its row's observation is of the next one).
        :class:`~umtali.rl.encoding.IllegalActionError` (nothing moved) if any action
        is not legal in its row."""
        if not self._started:
            raise RuntimeError("the batch has no hands yet: call reset() first")
        rewards = np.zeros(self.n, np.float32)
        done = np.zeros(self.n, np.bool_)
        by_seat, ended = self.batch.play(actions)
        self._moved[:] = True
        self.steps_played += self.n
        self.moves_played += self.n
        self._settle(by_seat, ended, rewards, done)
        return self._reply(rewards, done), rewards, done

    @property
    def legal(self) -> list[list[int]]:
        """For each row, the learner's legal action indices now."""
        return self.batch.legal

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal moves in every row, as booleans (n, actions)."""
        masks = np.zeros((self.n, self.num_actions), np.bool_)
        masks[np.repeat(self._rows, self.batch.legal_counts), self.batch.legal_indices] = True
        return masks

    def sample_actions(self, rng: np.random.Generator) -> npt.NDArray[np.intp]:
        """A legal action for every row, each drawn uniformly with ``rng``."""
        return self.batch.sample_actions(rng)


AUTORESET_MODES: Final = (AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP)
"""The autoreset modes :class:`CardGameVectorEnv` offers (Gymnasium's
``AutoresetMode``; its value, ``"NextStep"``, or ``"next_step"`` does too)."""


def _mode(mode: AutoresetMode | str) -> AutoresetMode:
    for known in AUTORESET_MODES:
        if mode in (known, known.value, known.name.lower()):
            return known
    names = ", ".join(m.value for m in AUTORESET_MODES)
    shown = mode.value if isinstance(mode, Enum) else mode
    raise ValueError(f"autoreset_mode is one of {names}, not {quoted(shown)}")


class CardGameVectorEnv(VectorEnv[Observation, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` episodes of ``game`` against the computer as a Gymnasium 1.x
    ``VectorEnv``: a :class:`VersusBatch` (see the module) stepped as one.

    ``reset`` and ``step`` return the observations stacked (a dict of arrays, the
    learner's ``action_mask`` among them), and one reward, termination and truncation a
    row; ``infos`` are Gymnasium's vector infos (``seat``, and ``scores`` where an
    episode ended, each with its ``_`` mask). ``metadata["autoreset_mode"]`` says how an
    ended episode starts again: ``NEXT_STEP`` (the default, as ``SyncVectorEnv``: the
    next ``step`` deals it anew and ignores that row's action, paying 0) or
    ``SAME_STEP`` (dealt anew in the step that ended it; its last observation and info
    in ``infos["final_obs"]`` and ``infos["final_info"]``). The other options are
    :class:`VersusBatch`'s (``game``, ``opponent``, ``seat``, ``rules``, ``reward``,
    ``perfect_recall``, ``illegal_reward``, ``encoding``); ``flat`` and ``on_illegal`` default to
    ``True`` and ``"lose"``, as in :class:`~umtali.rl.gym.CardGameEnv`.
    """

    metadata: dict[str, Any] = {  # noqa: RUF012 - Gymnasium's name
        "autoreset_mode": AutoresetMode.NEXT_STEP,
        "render_modes": [],
    }

    def __init__(
        self,
        num_envs: int,
        *,
        flat: bool = True,
        on_illegal: str = "lose",
        autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
        **options: Any,
    ) -> None:
        self.batch = VersusBatch(num_envs, flat=flat, on_illegal=on_illegal, **options)
        self.autoreset_mode = _mode(autoreset_mode)
        self.metadata = {**type(self).metadata, "autoreset_mode": self.autoreset_mode}
        self.num_envs = num_envs
        self.single_observation_space = self.batch.single_observation_space
        self.single_action_space = gymnasium.spaces.Discrete(self.batch.num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rewards = np.zeros(num_envs, np.float64)
        self._terminations = np.zeros(num_envs, np.bool_)
        self._truncations = np.zeros(num_envs, np.bool_)
        self._autoreset = np.zeros(num_envs, np.bool_)

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[Observation, dict[str, Any]]:
        """Deal every row anew (row ``i`` from ``seed + i``, or from ``seed[i]``), or
        only those of ``options["reset_mask"]`` (a bool array a row), as Gymnasium's
        vector environments do."""
        n = self.num_envs
        seeds: Sequence[int | None]
        if seed is None:
            seeds = [None] * n
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(n)]
        else:
            seeds = list(seed)
            if len(seeds) != n:
                raise ValueError(f"seed is one a row ({n}) when a list, not {len(seeds)}")
        rows = np.ones(n, np.bool_)
        if options is not None and "reset_mask" in options:
            rows = np.asarray(options["reset_mask"])
            if rows.shape != (n,) or rows.dtype != np.bool_ or not rows.any():
                raise ValueError(
                    f"options['reset_mask'] is a bool array of shape ({n},) with a True"
                )
        infos: dict[str, Any] = {}
        for row in np.flatnonzero(rows).tolist():
            _, info = self.batch.reset_row(row, seeds[row])
            infos = self._add_info(infos, info, row)
        self._terminations[rows] = self._truncations[rows] = self._autoreset[rows] = False
        return self.batch.observations(), infos

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[
        Observation,
        npt.NDArray[np.float64],
        npt.NDArray[np.bool_],
        npt.NDArray[np.bool_],
        dict[str, Any],
    ]:
        """One action a row (the learner's), the computer's replies, autoreset as
        :attr:`metadata` says (see the class)."""
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,):
            raise ValueError(
                f"actions are {self.num_envs}, one a row, not an array of shape {chosen.shape}"
            )
        batch = self.batch
        infos: dict[str, Any] = {}
        same_step = self.autoreset_mode == AutoresetMode.SAME_STEP
        for row, action in enumerate(chosen.tolist()):
            if self._autoreset[row]:
                _, info = batch.reset_row(row)
                self._rewards[row] = 0.0
                self._terminations[row] = self._truncations[row] = False
            else:
                obs, reward, terminated, truncated, info = batch.step_row(row, action)
                self._rewards[row] = reward
                self._terminations[row] = terminated
                self._truncations[row] = truncated
                if same_step and (terminated or truncated):
                    infos = self._add_info(infos, {"final_obs": obs, "final_info": info}, row)
                    batch.hands_played += 1
                    _, info = batch.reset_row(row)
            infos = self._add_info(infos, info, row)
        ended = self._terminations | self._truncations
        if not same_step:
            batch.hands_played += int((ended & ~self._autoreset).sum())
            self._autoreset = ended.copy()
        return (
            batch.observations(),
            self._rewards.copy(),
            self._terminations.copy(),
            self._truncations.copy(),
            infos,
        )

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The learner's legal moves in every row, as booleans (maskable learners ask
        for them so)."""
        return self.batch.action_masks()


def make_vector_env(num_envs: int, **options: Any) -> CardGameVectorEnv:
    """:class:`CardGameVectorEnv` of ``num_envs`` rows: what
    ``gymnasium.make_vec(env_id, num_envs, vectorization_mode="vector_entry_point")``
    calls, the game's ``game=`` among ``options`` (:mod:`umtali.rl` registers each
    game's id with it)."""
    options.pop("render_mode", None)  # make_vec hands it on; the batch renders nothing
    return CardGameVectorEnv(num_envs, **options)
