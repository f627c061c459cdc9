"""The batch against the computer (umtali.rl.versus.VersusBatch) and its Gymnasium
VectorEnv, for every researched game: move for move what SyncVectorEnv plays over the
lone environment, through many autoresets, in both autoreset modes."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

import gymnasium
from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode, SyncVectorEnv
from gymnasium.wrappers.vector import RecordEpisodeStatistics

import umtali.rl
from umtali.rl.encoding import IllegalActionError, research, researched
from umtali.rl.gym import CardGameEnv
from umtali.rl.versus import CardGameVectorEnv, VersusBatch

GAMES = researched()


def _random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A legal action in every row that has one (0 where none: a row awaiting its reset)."""
    return np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in masks])


@pytest.mark.parametrize("mode", [AutoresetMode.NEXT_STEP, AutoresetMode.SAME_STEP])
@pytest.mark.parametrize("game", GAMES)
def test_vector_env_plays_what_sync_vector_env_plays(game: str, mode: AutoresetMode) -> None:
    n = 4
    ours = gymnasium.make_vec(
        umtali.rl.ENV_IDS[game], num_envs=n, opponent="greedy", autoreset_mode=mode
    )
    assert isinstance(ours, CardGameVectorEnv)
    assert ours.metadata["autoreset_mode"] == mode
    theirs = SyncVectorEnv(
        [lambda: CardGameEnv("greedy", game=game) for _ in range(n)], autoreset_mode=mode
    )
    assert ours.single_observation_space == theirs.single_observation_space
    assert ours.single_action_space == theirs.single_action_space
    assert ours.observation_space == theirs.observation_space
    assert ours.action_space == theirs.action_space
    assert data_equivalence(ours.reset(seed=5), theirs.reset(seed=5), exact=True)
    assert ours.action_space.sample().shape == (n,)
    rng = np.random.default_rng(0)
    ended = 0
    illegal = research(game).num_actions - 1  # never legal at once in any of the games
    for t in range(240):
        masks = ours.action_masks()
        assert masks.dtype == np.bool_
        actions = _random_actions(masks, rng)
        if t % 40 == 9:
            actions[1] = illegal  # ends the episode, costing illegal_reward
        mine, sync = ours.step(actions), theirs.step(actions)
        assert data_equivalence(mine, sync, exact=True), t
        assert ours.observation_space.contains(mine[0])
        assert mine[1].dtype == np.float64
        assert mine[2].dtype == mine[3].dtype == np.bool_
        ended += int(mine[2].sum())
    assert ended >= 20  # many autoresets
    # Only some rows anew, and seeds a row.
    mask = np.array([True, False, True, False])
    assert data_equivalence(
        ours.reset(seed=[1, None, 3, None], options={"reset_mask": mask}),
        theirs.reset(seed=[1, None, 3, None], options={"reset_mask": mask.copy()}),
        exact=True,
    )


def test_a_random_policy_through_many_autoresets_with_a_vector_wrapper() -> None:
    env = RecordEpisodeStatistics(
        gymnasium.make_vec("Umtali-v1", num_envs=8, opponent="random", seat=1)
    )
    obs, infos = env.reset(seed=0)
    rng = np.random.default_rng(1)
    episodes = 0
    for _ in range(600):
        actions = _random_actions(obs["action_mask"].astype(bool), rng)
        obs, rewards, _terminated, _truncated, infos = env.step(actions)
        assert obs["observation"].shape[0] == 8
        assert rewards.dtype == np.float64
        if "episode" in infos:
            episodes += int(infos["_episode"].sum())
            ended = infos["_scores"]
            assert (infos["seat"][ended] == 1).all()
    assert episodes >= 50


def test_make_vec_sync_still_gives_gymnasium_own() -> None:
    env = gymnasium.make_vec("Klaberjass-v1", num_envs=2, vectorization_mode="sync")
    assert isinstance(env, SyncVectorEnv)


def test_vector_env_refuses_what_it_cannot_use() -> None:
    with pytest.raises(ValueError, match="autoreset_mode is one of NextStep, SameStep"):
        CardGameVectorEnv(2, autoreset_mode="disabled")
    env = CardGameVectorEnv(2, opponent="random")
    env.reset(seed=0)
    with pytest.raises(ValueError, match="actions are 2, one a row"):
        env.step(np.zeros(3, np.int64))
    with pytest.raises(ValueError, match="reset_mask"):
        env.reset(options={"reset_mask": np.zeros(2, np.bool_)})


@pytest.mark.parametrize("game", GAMES)
def test_versus_batch_rows_are_the_lone_environment(game: str) -> None:
    n = 3
    batch = VersusBatch(n, game=game, opponent="greedy", seed=10)
    lone = [CardGameEnv("greedy", game=game, flat=False) for _ in range(n)]
    obs = batch.reset()
    seen = [env.reset(seed=10 + i)[0] for i, env in enumerate(lone)]
    rng = np.random.default_rng(2)
    hands = 0
    for _ in range(150):
        for i in range(n):
            for name, array in seen[i].items():
                np.testing.assert_array_equal(obs[name][i], array)
            assert batch.seats[i] == lone[i].seat
            assert obs["action_mask"][i].any()  # the learner is always to move
        actions = batch.sample_actions(rng)
        obs, rewards, done = batch.step(actions)
        for i, env in enumerate(lone):
            seen[i], reward, terminated, truncated, _ = env.step(int(actions[i]))
            assert rewards[i] == reward
            assert done[i] == (terminated or truncated)
            if done[i]:
                seen[i], _ = env.reset()
        hands += int(done.sum())
    assert batch.hands_played == hands > 0
    assert batch.steps_played == 150 * n < batch.moves_played


def test_versus_batch_refuses_an_illegal_action_by_default() -> None:
    batch = VersusBatch(2, seed=0)
    batch.reset()
    actions = batch.sample_actions(np.random.default_rng(0))
    actions[1] = research().num_actions - 1
    with pytest.raises(IllegalActionError, match="not legal"):
        batch.step(actions)
    with pytest.raises(ValueError, match="actions are 2 ints"):
        batch.step([0, 1, 2])
    with pytest.raises(RuntimeError, match="reset"):
        VersusBatch(1).step([0])


def test_versus_batch_moves_no_row_when_one_action_is_illegal() -> None:
    batch = VersusBatch(2, seed=0)
    obs = batch.reset()
    actions = batch.sample_actions(np.random.default_rng(0))
    actions[1] = research().num_actions - 1
    with pytest.raises(IllegalActionError):
        batch.step(actions)
    np.testing.assert_array_equal(batch.observations()["cards"], obs["cards"])
    assert batch.steps_played == 0


def test_a_second_reset_deals_other_hands_the_same_every_run() -> None:
    first, again = (
        VersusBatch(3, opponent="random", seed=4),
        VersusBatch(3, opponent="random", seed=4),
    )
    one, other = first.reset(), again.reset()
    np.testing.assert_array_equal(one["cards"], other["cards"])
    two, other = first.reset(), again.reset()
    np.testing.assert_array_equal(two["cards"], other["cards"])
    assert not np.array_equal(one["cards"], two["cards"])


@pytest.mark.parametrize("version", ["v0", "v1"])
@pytest.mark.filterwarnings("ignore:.*Umtali-v0 is out of date")
def test_each_gymnasium_id_gives_its_own_version_of_the_arrays(version: str) -> None:
    # make_vec hands the id's encoding to the batch, as make() hands it to the env.
    envs = gymnasium.make_vec(f"Umtali-{version}", num_envs=2, opponent="random")
    alone = CardGameEnv("random", game="umtali", encoding=version)
    assert envs.single_observation_space == alone.observation_space
    obs, _ = envs.reset(seed=3)
    first, _ = alone.reset(seed=3)
    assert data_equivalence(obs["observation"][0], first["observation"])
