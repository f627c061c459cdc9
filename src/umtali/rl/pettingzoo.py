"""Every registered game with a research encoding as a PettingZoo environment:
:func:`env` (AEC, the natural form of a game of turns) and :func:`parallel_env`, of the
default game (Umtali) unless ``game=`` names another (:mod:`umtali.rl.encoding`).

The AEC environment's agents are ``"player_0"``, ``"player_1"``, ... (Player 1, Player
2, ...); ``agent_selection`` is always the player to move, who may make several moves in
a row (Umtali's draw, meld, discard). Observations are the game's observer's dict,
``action_mask`` included; actions are indices of its action space, and the info of the
agent to move lists his legal ones as ``legal_moves`` (a tuple; the others' infos are
empty). Rewards come at the
end of the episode (the game's :class:`~umtali.rl.encoding.Episode`): Umtali's hand
score margin, or with ``reward="game"`` a whole game's result.

>>> from umtali.rl.pettingzoo import env
>>> game = env()
>>> game.reset(seed=7)
>>> for agent in game.agent_iter():
...     obs, reward, terminated, truncated, info = game.last()
...     action = None if terminated or truncated else info["legal_moves"][0]
...     game.step(action)
>>> sorted(game.infos), game.agents  # every agent has left the game
([], [])

The parallel form is a poor fit for a game of turns, and is given for tools that need
one: each step takes an action from every live agent, plays the one of the player to
move, and ignores the other's (his ``action_mask`` is all 0). ``max_cycles`` counts
moves in the AEC form and steps in the parallel one; either way the episode is then
truncated.
"""

from __future__ import annotations

import random
from typing import Any, Final

import gymnasium
import numpy as np
from pettingzoo import AECEnv, ParallelEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from umtali.games import DEFAULT_GAME
from umtali.kernel.cards import quoted
from umtali.rl.encoding import (
    ILLEGAL_CHOICES,
    Episode,
    IllegalActionError,
    Observation,
    RewardKind,
    research,
)
from umtali.rl.shared import DEFAULT_ENCODING, checked_encoding, checked_reward, versioned_name

__all__ = [
    "AGENTS",
    "CardGameAEC",
    "CardGameParallel",
    "IllegalActionError",
    "OrderEnforcing",
    "UmtaliAEC",
    "UmtaliParallel",
    "agents",
    "env",
    "parallel_env",
    "raw_env",
]


def agents(seats: int) -> tuple[str, ...]:
    """The agents of a game of ``seats`` players, by seat.

    >>> agents(3)
    ('player_0', 'player_1', 'player_2')
    """
    return tuple(f"player_{seat}" for seat in range(seats))


AGENTS: Final = agents(2)
"""The agents of a game of two, by seat."""


def _check_options(reward: str, on_illegal: str, max_cycles: int | None) -> None:
    checked_reward(reward)
    if on_illegal not in ILLEGAL_CHOICES:
        raise ValueError(
            f"on_illegal is one of {', '.join(ILLEGAL_CHOICES)}, not {quoted(on_illegal)}"
        )
    if max_cycles is not None and (type(max_cycles) is not int or max_cycles < 1):
        raise ValueError(f"max_cycles is None or an int >= 1, not {quoted(max_cycles)}")


def _moves_info(episode: Episode) -> dict[str, Any]:
    """The info of the agent to move: his legal moves, as a tuple (the episode's list is
    its own, and must not change)."""
    return {"legal_moves": tuple(episode.legal())}


class CardGameAEC(AECEnv):  # type: ignore[misc]  # PettingZoo ships no type information
    """A game between its agents, one move at a time (see the module).

    Args:
        game: the registered game (the default game's when not given).
        rules: the game's rules: its own rules object, a variant's name, or ``None`` for
            its first variant.
        reward: ``"margin"`` (an episode is a hand) or ``"game"`` (a game of hands).
        perfect_recall: whether observations carry the move history.
        flat: observations as PettingZoo's ``{"observation": vector, "action_mask":
            mask}`` (the default), or as the dict of arrays with ``flat=False`` (see
            :class:`umtali.rl.observation.Observer`).
        encoding: the version of the arrays: ``"v1"`` (the default), every entry in
            [0, 1], or ``"v0"``, the first (docs/RESEARCH.md, "Observations").
        on_illegal: ``"raise"`` (:class:`IllegalActionError`), ``"lose"`` (the episode
            ends; the offender gets ``illegal_reward``, the other its negative) or
            ``"ignore"`` (nothing happens; the offender's info says ``illegal_action``).
        illegal_reward: the offender's reward under ``"lose"`` (by default -100 for a
            hand, -1 for a game).
        max_cycles: truncate the episode after this many moves (``None``: never; an
            Umtali hand ends anyway, R8).
        render_mode: ``"ansi"`` to have :meth:`render` return the hand as text.
    """

    metadata: dict[str, Any]
    """PettingZoo's facts of the environment: its name is the game's with the version of
    its arrays (``umtali_v1``; ``umtali_v0`` with ``encoding="v0"``)."""

    def __init__(
        self,
        *,
        game: str = DEFAULT_GAME,
        rules: object = None,
        reward: RewardKind = "margin",
        perfect_recall: bool = False,
        flat: bool = True,
        encoding: str = DEFAULT_ENCODING,
        on_illegal: str = "raise",
        illegal_reward: float | None = None,
        max_cycles: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        _check_options(reward, on_illegal, max_cycles)
        self.research = research(game)
        self.metadata = {
            "name": versioned_name(self.research.aec_name, checked_encoding(encoding)),
            "render_modes": ["ansi"],
            "is_parallelizable": False,
        }
        self.rules = rules
        self.reward_kind: RewardKind = reward
        self.on_illegal = on_illegal
        self.illegal_reward = illegal_reward
        self.max_cycles = max_cycles
        self.render_mode = render_mode
        self.observer = self.research.observer(
            rules, perfect_recall=perfect_recall, flat=flat, encoding=encoding
        )
        self._agents = agents(self.research.seats)
        self._seats = {agent: seat for seat, agent in enumerate(self._agents)}
        self.possible_agents = list(self._agents)
        self._num_actions = self.research.num_actions
        self._actions = {
            agent: gymnasium.spaces.Discrete(self._num_actions) for agent in self.possible_agents
        }
        self._rng: random.Random | None = None
        self._rewarded = False
        self.episode: Episode | None = None
        self.moves = 0

    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        return self.observer.space

    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        return self._actions[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new episode; ``seed`` seeds every deal from now on (without one, the
        deals go on from the last seed, or from fresh randomness)."""
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        self.episode = self.research.episode(
            self._rng, self.observer, rules=self.rules, reward=self.reward_kind
        )
        self.moves = 0
        self.agents = list(self._agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._rewarded = False  # whether any reward is not 0
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = mover = self._agents[self.episode.to_move]
        self.infos[mover] = _moves_info(self.episode)

    def observe(self, agent: str) -> Observation:
        episode = self._episode()
        seat = self._seats[agent]
        return episode.observe(seat, episode.legal() if seat == episode.to_move else None)

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        episode = self._episode()
        seat = episode.to_move
        # A plain int among the legal moves is the common case: checked here at once.
        if type(action) is int and 0 <= action < self._num_actions and action in episode.legal():
            index: int | None = action
        else:
            index = self._legal_index(episode, action)
            if index is None and self.on_illegal == "raise":
                episode.check(action)  # raises, before anything has changed
        if self._rewarded:  # the rewards of the last step are paid: they are 0 again
            self._clear_rewards()
            self._rewarded = False
        self._cumulative_rewards[agent] = 0.0
        if index is None:
            if self.on_illegal == "ignore":
                self.infos[agent] = {"illegal_action": True, **_moves_info(episode)}
                return
            self._end(episode.illegal_rewards(seat, self.illegal_reward))
            return
        self.infos[agent] = {}
        rewards = episode.step(index)
        self.moves += 1
        if rewards is not None:
            self._end(rewards)
            return
        self.agent_selection = mover = self._agents[episode.to_move]
        self.infos[mover] = _moves_info(episode)
        if self.max_cycles is not None and self.moves >= self.max_cycles:
            self.truncations = dict.fromkeys(self.agents, True)

    @staticmethod
    def _legal_index(episode: Episode, action: object) -> int | None:
        """``action`` as the int of a legal move (numpy's ints are ints here), or None."""
        if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
            index = int(action)
            if episode.is_legal(index):
                return index
        return None

    def _end(self, rewards: tuple[float, ...]) -> None:
        self.infos = {agent: {} for agent in self.agents}  # nobody has a move to make
        self.rewards = dict(zip(self._agents, rewards, strict=True))
        self._rewarded = True
        self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

    def _episode(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("the environment has no episode yet: call reset() first")
        return self.episode

    def render(self) -> str | None:
        """The hand as text (both hands shown: this is the table, not a player's view)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode ('ansi')")
            return None
        return self._episode().table_text()

    def close(self) -> None:
        """Nothing to release: the environment holds no files, windows or processes."""


class CardGameParallel(ParallelEnv):  # type: ignore[misc]  # as above
    """The parallel form (see the module): the same options as :class:`CardGameAEC`,
    ``max_cycles`` counting steps."""

    metadata: dict[str, Any]
    """PettingZoo's facts of the environment: its name is the game's, ``_parallel``, and
    the version of its arrays (``umtali_parallel_v1``)."""

    def __init__(self, **options: Any) -> None:
        self._aec = CardGameAEC(**options)
        name = versioned_name(f"{self._aec.research.aec_name}", "parallel")
        version = self._aec.metadata["name"].rsplit("_", 1)[1]
        self.metadata = {"name": f"{name}_{version}", "render_modes": ["ansi"]}
        self.possible_agents = list(self._aec.possible_agents)
        self.agents: list[str] = []
        self.render_mode = self._aec.render_mode
        self.steps = 0

    def observation_space(self, agent: str) -> gymnasium.spaces.Dict:
        return self._aec.observation_space(agent)

    def action_space(self, agent: str) -> gymnasium.spaces.Discrete:
        return self._aec.action_space(agent)

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Observation], dict[str, dict[str, Any]]]:
        aec = self._aec
        aec.reset(seed, options)
        self.agents = list(aec.possible_agents)
        self.steps = 0
        return {a: aec.observe(a) for a in self.agents}, {
            a: dict(aec.infos[a]) for a in self.agents
        }

    def step(
        self, actions: dict[str, int]
    ) -> tuple[
        dict[str, Observation],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        aec = self._aec
        mover = aec.agent_selection
        aec.step(actions.get(mover))  # a missing action is None: an illegal one
        self.steps += 1
        over = aec.terminations[mover]
        truncated = not over and (
            aec.truncations[mover] or (aec.max_cycles is not None and self.steps >= aec.max_cycles)
        )
        agents = self.agents
        observations = {a: aec.observe(a) for a in agents}
        rewards = {a: float(aec.rewards[a]) for a in agents}
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, truncated)
        infos = {a: dict(aec.infos[a]) for a in agents}
        if over or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        return self._aec.render()

    def close(self) -> None:
        self._aec.close()


UmtaliAEC = CardGameAEC
"""The AEC environment's name before there were other games."""
UmtaliParallel = CardGameParallel
"""The parallel environment's name before there were other games."""


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]  # as above
    """PettingZoo's order-enforcing wrapper, which refuses calls out of order (a step or
    ``last()`` before ``reset()``), with the three calls a loop makes at every move
    passed straight to the environment once it has been reset: ``last()``, ``step()``
    and the ``agent_iter()`` iterator's ``next``. PettingZoo's own reads every attribute
    they touch through its ``__getattr__`` and cost the loop some 6 µs a move, half
    again an Umtali move's own cost (docs/RESEARCH.md, "Speed"); what is checked and
    raised is the same."""

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)  # type: ignore[no-any-return]

    def step(self, action: int | None) -> None:
        inner = self.env
        if self._has_reset and inner.agents:
            self._has_updated = True
            inner.step(action)
        else:
            super().step(action)  # the wrapper's error or warning

    def agent_iter(self, max_iter: int = 2**63) -> _OrderedAgents:
        if not self._has_reset:
            super().agent_iter(max_iter)  # the wrapper's error
        return _OrderedAgents(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)


class _OrderedAgents:
    """``agent_iter()`` of :class:`OrderEnforcing`: the agent to move until the episode
    is over (or ``max_iter`` agents), asserting that each was stepped, as PettingZoo's
    order-enforcing iterator does, reading the environment's attributes directly."""

    def __init__(self, wrapper: OrderEnforcing, max_iter: int) -> None:
        self.wrapper = wrapper
        self.env: CardGameAEC = wrapper.env
        self.left = max_iter

    def __iter__(self) -> _OrderedAgents:
        return self

    def __next__(self) -> str:
        inner = self.env
        if not inner.agents or self.left <= 0:
            raise StopIteration
        self.left -= 1
        wrapper = self.wrapper
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return inner.agent_selection


def raw_env(**options: Any) -> CardGameAEC:
    """The AEC environment without the order-enforcing wrapper; ``game=`` a registered
    game's name, and the options of :class:`CardGameAEC`."""
    return CardGameAEC(**options)


def env(**options: Any) -> Any:
    """The AEC environment inside an order-enforcing wrapper (:class:`OrderEnforcing`,
    PettingZoo's, made cheaper), which refuses calls out of order (a step before
    reset): the form to use."""
    return OrderEnforcing(CardGameAEC(**options))


def parallel_env(**options: Any) -> CardGameParallel:
    """The parallel environment (see the module); the AEC environment's options."""
    return CardGameParallel(**options)
