"""Every registered game with a research encoding as a single-agent Gymnasium
environment: the agent plays one seat, computer players of a chosen level the others.

Importing :mod:`umtali.rl` (so any module of it) registers each game's environment
under one id a version of its arrays (:func:`umtali.rl.versioned_ids`): Umtali's are
``Umtali-v1`` and, with the first arrays, ``Umtali-v0``. Observations and actions are those of :mod:`umtali.rl.pettingzoo`
(``{"observation", "action_mask"}`` by default); :meth:`CardGameEnv.action_masks` gives
the mask too, as maskable learners ask for it. The computer's moves are made inside
:meth:`~CardGameEnv.step`, from its own seat's view only, so every observation is the
agent's turn (or the end); an episode the computer would end before the agent's first
move (a knock on Gin Rummy's first upcard) is dealt again (``redealt`` counts them),
since nothing in it was the agent's. An illegal action ends the episode, costing
``illegal_reward`` (the environment checkers step with unmasked random actions), unless
``on_illegal="raise"``.

>>> import gymnasium
>>> import umtali.rl
>>> env = gymnasium.make("Umtali-v1", opponent="greedy")
>>> obs, info = env.reset(seed=3)
>>> done = False
>>> while not done:
...     action = int(obs["action_mask"].argmax())  # the first legal move
...     obs, reward, terminated, truncated, info = env.step(action)
...     done = terminated or truncated
>>> info["scores"][0] - info["scores"][1] == reward
True
"""

from __future__ import annotations

import random
from typing import Any, Final

import gymnasium
import numpy as np
import numpy.typing as npt

from umtali.games import DEFAULT_GAME
from umtali.kernel.cards import quoted
from umtali.rl.encoding import Episode, RewardKind, research
from umtali.rl.shared import DEFAULT_ENCODING

__all__ = ["GYM_ILLEGAL_CHOICES", "CardGameEnv", "UmtaliEnv"]

Observation = dict[str, Any]
"""An observation: the game's observer's dict of arrays."""

GYM_ILLEGAL_CHOICES: Final = ("lose", "raise")
"""What :class:`CardGameEnv` does with an illegal action (see
:data:`umtali.rl.encoding.ILLEGAL_CHOICES`)."""


class CardGameEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a game against the computer (see the module).

    Args:
        opponent: the computer's level, one of the game's levels (Umtali's
            :data:`~umtali.games.umtali.bots.BOTS`).
        seat: the agent's seat, 0, 1, ...; ``None`` (the default) draws it each episode.
        game: the registered game (the default game's when not given).
        rules: the game's rules: its own rules object, a variant's name, or ``None`` for
            its first variant.
        reward: ``"margin"`` (an episode is a hand, paying the agent's score margin) or
            ``"game"`` (a game of hands, paying 1, 0 or -1).
        perfect_recall: whether observations carry the move history.
        flat: ``{"observation": vector, "action_mask": mask}`` (the default) or the
            dict of arrays (``False``); see :class:`umtali.rl.observation.Observer`.
        encoding: the version of the arrays: ``"v1"`` (the default), every entry in
            [0, 1], or ``"v0"``, the first (docs/RESEARCH.md, "Observations").
        on_illegal: ``"lose"`` (the episode ends with ``illegal_reward``) or ``"raise"``.
        illegal_reward: by default the game's (Umtali's: -100 for a hand, -1 for a game).
        render_mode: ``"ansi"`` to have :meth:`render` return the hand as text.
    """

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}  # noqa: RUF012 - Gymnasium's name

    def __init__(
        self,
        opponent: str = "expert",
        seat: int | None = None,
        *,
        game: str = DEFAULT_GAME,
        rules: object = None,
        reward: RewardKind = "margin",
        perfect_recall: bool = False,
        flat: bool = True,
        encoding: str = DEFAULT_ENCODING,
        on_illegal: str = "lose",
        illegal_reward: float | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.research = found = research(game)
        if opponent not in found.levels:
            raise ValueError(
                f"opponent is a computer level, one of {', '.join(found.levels)};"
                f" not {quoted(opponent)}"
            )
        seats = range(found.seats)
        if seat is not None and (type(seat) is not int or seat not in seats):
            named = ", ".join(map(str, seats))
            raise ValueError(f"seat is {named} or None (drawn each episode), not {quoted(seat)}")
        if on_illegal not in GYM_ILLEGAL_CHOICES:
            raise ValueError(
                f"on_illegal is one of {', '.join(GYM_ILLEGAL_CHOICES)}, not {quoted(on_illegal)}"
            )
        self.opponent = opponent
        self.bot = found.opponent(opponent)
        self.fixed_seat = seat
        self.rules = rules
        self.reward_kind: RewardKind = reward
        self.on_illegal = on_illegal
        self.illegal_reward = (
            found.default_penalty(reward) if illegal_reward is None else illegal_reward
        )
        self.render_mode = render_mode
        self.observer = found.observer(
            rules, perfect_recall=perfect_recall, flat=flat, encoding=encoding
        )
        self.observation_space = self.observer.space
        self.action_space = gymnasium.spaces.Discrete(found.num_actions)
        self.seat = 0
        self.episode: Episode | None = None
        self.redealt = 0
        """How many episodes the computer ended before the agent's first move, each
        dealt again at once (see :meth:`reset`)."""
        self._rng = random.Random()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        # The deals, the seat and the computer's choices all come from one RNG, seeded
        # from Gymnasium's: the same seed plays the same episode.
        self._rng = random.Random(int(self.np_random.integers(2**63)))
        seats = self.research.seats
        self.seat = self._rng.randrange(seats) if self.fixed_seat is None else self.fixed_seat
        while True:
            self.episode = self.research.episode(
                self._rng, self.observer, rules=self.rules, reward=self.reward_kind
            )
            if self._computer_moves() is None:
                return self._observe(), self._info(None)
            # The computer ended the episode before the agent's first move (a Gin Rummy
            # knock on the first upcard): nothing in it was the agent's to decide, and
            # an episode cannot end at its reset, so it is dealt again.
            self.redealt += 1

    def step(self, action: np.int64 | int) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        episode = self._episode()
        if episode.is_over():
            raise RuntimeError("the episode is over: call reset() to start another")
        if not _is_int(action) or not episode.is_legal(int(action)):
            if self.on_illegal == "raise":
                episode.check(action)
            info = self._info(None)
            info["illegal_action"] = True
            return self._observe(), self.illegal_reward, True, False, info
        rewards = episode.step(int(action))
        if rewards is None:
            rewards = self._computer_moves()
        reward = 0.0 if rewards is None else rewards[self.seat]
        return self._observe(), reward, rewards is not None, False, self._info(rewards)

    def _computer_moves(self) -> tuple[float, ...] | None:
        """Let the computer move until it is the agent's turn or the episode ends; the
        rewards if it ended."""
        episode = self._episode()
        while episode.to_move != self.seat and not episode.is_over():
            rewards = episode.step(self.bot.choose(episode, self._rng))
            if rewards is not None:
                return rewards
        return None

    def _observe(self) -> Observation:
        return self._episode().observe(self.seat)

    def _info(self, rewards: tuple[float, ...] | None) -> dict[str, Any]:
        """The agent's seat; at the end also the hand's scores, the agent's first."""
        episode = self._episode()
        info: dict[str, Any] = {"seat": self.seat}
        scores = episode.scores()
        if rewards is not None and scores is not None:
            mine = self.seat
            info["scores"] = (scores[mine], *scores[mine + 1 :], *scores[:mine])
        return info

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The agent's legal moves now, as a boolean mask (all false at the end)."""
        return self._episode().mask(self.seat)

    def _episode(self) -> Episode:
        if self.episode is None:
            raise RuntimeError("the environment has no episode yet: call reset() first")
        return self.episode

    def render(self) -> str | None:
        """The hand as text (both hands shown)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode ('ansi')")
            return None
        return self._episode().table_text()


def _is_int(action: object) -> bool:
    return isinstance(action, (int, np.integer)) and not isinstance(action, bool)


UmtaliEnv = CardGameEnv
"""The environment's name before there were other games."""
