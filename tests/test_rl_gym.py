"""The Gymnasium environment (:mod:`umtali.rl.gym`): Gymnasium's own checker, the
registration, and an episode against each computer level."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from umtali.games.umtali.bots import BOTS
from umtali.games.umtali.research.actions import DISCARD, NUM_ACTIONS
from umtali.rl import ENV_ID
from umtali.rl.encoding import IllegalActionError
from umtali.rl.gym import CardGameEnv, UmtaliEnv

# An 'ansi' text has no frame rate to declare.
pytestmark = pytest.mark.filterwarnings("ignore:.*No render fps was declared")


@pytest.mark.parametrize(
    "options",
    [
        {"opponent": "expert"},
        {"opponent": "random", "seat": 1, "flat": False, "perfect_recall": True},
        {"opponent": "greedy", "reward": "game"},
        {"opponent": "random", "encoding": "v0", "perfect_recall": True},
    ],
    ids=["expert", "dict-recall", "game", "v0"],
)
def test_the_env_passes_gymnasiums_checker(options: dict[str, Any]) -> None:
    # Made through the registry, so the checker also tries the 'ansi' render mode.
    check_env(gymnasium.make("Umtali-v1", **options).unwrapped)


def test_it_is_registered_as_umtali_v1() -> None:
    assert ENV_ID == "Umtali-v1"
    env = gymnasium.make("Umtali-v1", opponent="greedy")
    assert isinstance(env.unwrapped, UmtaliEnv)
    assert env.action_space == gymnasium.spaces.Discrete(NUM_ACTIONS)


def play(env: UmtaliEnv, seed: int) -> tuple[list[int], float, dict[str, object]]:
    """One episode, always the first legal move; the moves, the reward, the last info."""
    obs, info = env.reset(seed=seed)
    moves: list[int] = []
    total = 0.0
    while True:
        assert (obs["action_mask"].astype(bool) == env.action_masks()).all()
        action = int(np.argmax(obs["action_mask"]))
        moves.append(action)
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        if terminated or truncated:
            return moves, total, info


@pytest.mark.parametrize("level", sorted(set(BOTS) - {"search"}))
def test_an_episode_against_each_level_pays_the_agents_margin(level: str) -> None:
    env = UmtaliEnv(opponent=level)
    for seed in range(3):
        _, reward, info = play(env, seed)
        scores = info["scores"]
        assert isinstance(scores, tuple)
        assert reward == scores[0] - scores[1]  # the agent's score first


def test_an_episode_the_computer_ends_before_the_agents_first_move_is_dealt_again() -> None:
    # Gin Rummy, seed 207: the computer, to move first, takes the upcard and knocks at
    # once. The agent had nothing to decide in that hand, and Gymnasium's reset cannot
    # end an episode: the next hand is dealt, and it is the agent's turn.
    env = CardGameEnv("greedy", 0, game="gin")
    env.reset(seed=207)
    assert env.redealt == 1
    assert env.episode is not None
    assert env.episode.to_move == 0
    assert not env.episode.is_over()
    assert env.action_masks().any()


def test_the_same_seed_plays_the_same_episode() -> None:
    first, second = UmtaliEnv(opponent="expert"), UmtaliEnv(opponent="expert")
    assert play(first, 11) == play(second, 11)
    seats = {play(first, seed)[2]["seat"] for seed in range(12)}
    assert seats == {0, 1}  # the seat is drawn each episode unless fixed


def test_an_illegal_action_ends_the_episode_with_its_penalty() -> None:
    env = UmtaliEnv(opponent="random", seat=0, illegal_reward=-5.0)
    obs, _ = env.reset(seed=1)
    assert not obs["action_mask"][DISCARD]
    _, reward, terminated, truncated, info = env.step(DISCARD)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-5.0, True, False, True)
    strict = UmtaliEnv(opponent="random", seat=0, on_illegal="raise")
    strict.reset(seed=1)
    with pytest.raises(IllegalActionError, match="is not legal for player 0 now"):
        strict.step(DISCARD)


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="opponent is a computer level, one of random"):
        UmtaliEnv(opponent="grandmaster")
    with pytest.raises(ValueError, match="seat is 0, 1 or None"):
        UmtaliEnv(seat=2)
    with pytest.raises(ValueError, match="on_illegal is one of lose, raise"):
        UmtaliEnv(on_illegal="ignore")
