"""The packed self-play batch as a Gymnasium VectorEnv (umtali.rl.selfplay), for every
researched game: move for move what the game's batch plays, each reward paid to the seat
that moved and every seat's in the infos, through many hands' ends."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import data_equivalence
from gymnasium.vector import AutoresetMode
from gymnasium.wrappers.vector import RecordEpisodeStatistics

from umtali.rl.encoding import IllegalActionError, research, researched
from umtali.rl.selfplay import SelfPlayVectorEnv

GAMES = researched()


@pytest.mark.parametrize("game", GAMES)
def test_the_vector_env_plays_what_its_batch_plays_paying_the_mover(game: str) -> None:
    n = 6
    env = SelfPlayVectorEnv(n, game=game, seed=3)
    batch = research(game).batch(n, seed=3, copy=True)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, infos = env.reset()
    assert data_equivalence(obs, batch.reset(), exact=True)
    assert env.observation_space.contains(obs)
    assert (infos["to_move"] == batch.to_move).all()
    rng = np.random.default_rng(0)
    rows = np.arange(n)
    ended = 0
    for t in range(400):
        masks = env.action_masks()
        assert (masks == obs["action_mask"].astype(bool)).all()
        actions = batch.sample_actions(rng)
        if t % 50 == 7:  # an illegal action in one row: refused, and no row moves
            wrong = actions.copy()
            wrong[2] = int(np.flatnonzero(~masks[2])[0])
            with pytest.raises(IllegalActionError, match="row 2"):
                env.step(wrong)
        to_move = batch.to_move.copy()
        obs, rewards, terminated, truncated, infos = env.step(actions)
        theirs, by_seat, done = batch.step(actions)
        assert data_equivalence(obs, theirs, exact=True), t
        assert env.observation_space.contains(obs)
        assert (terminated == done).all()
        assert not truncated.any()
        assert rewards.dtype == np.float64
        assert (infos["mover"] == to_move).all()
        assert (infos["to_move"] == batch.to_move).all()
        assert (infos["rewards"] == by_seat).all()
        assert (rewards == by_seat[rows, to_move]).all()
        assert (rewards[~done] == 0).all()
        # A hand ends on its mover's move, won by one seat and lost by the other.
        assert (by_seat.sum(axis=1) == 0).all()
        ended += int(done.sum())
    assert ended == env.batch.hands_played >= n


def test_a_vector_wrapper_counts_every_hand_played() -> None:
    inner = SelfPlayVectorEnv(8, game="klaberjass", seed=0)
    env = RecordEpisodeStatistics(inner)
    env.reset()
    rng = np.random.default_rng(1)
    episodes = 0
    for _ in range(200):
        *_, infos = env.step(inner.batch.sample_actions(rng))
        if "episode" in infos:
            episodes += int(infos["_episode"].sum())
            assert (infos["episode"]["l"][infos["_episode"]] > 0).all()
    assert episodes == env.episode_count == inner.batch.hands_played > 8


def test_the_same_seed_deals_the_same_hands_and_a_second_reset_others() -> None:
    # Gin Rummy's hands show at once (Umtali's wait for the dealer's choice of the 11th card).
    first, second = SelfPlayVectorEnv(4, game="gin", seed=11), SelfPlayVectorEnv(4, game="gin")
    dealt = first.reset()[0]
    assert data_equivalence(dealt, second.reset(seed=11)[0], exact=True)
    assert not data_equivalence(first.reset()[0], dealt, exact=True)


def test_each_step_hands_out_masks_of_the_callers_own_unless_told() -> None:
    env = SelfPlayVectorEnv(3, seed=2)
    obs, _ = env.reset()
    kept = obs["action_mask"]
    before = kept.copy()
    rng = np.random.default_rng(0)
    env.step(env.batch.sample_actions(rng))
    assert (kept == before).all()  # the step wrote its masks elsewhere
    shared = SelfPlayVectorEnv(3, seed=2, copy=False)
    obs, _ = shared.reset()
    assert not obs["action_mask"].flags.writeable  # the batch's own, read-only


def test_it_refuses_what_it_cannot_do() -> None:
    with pytest.raises(ValueError, match="n >= 1 hands, not 0"):
        SelfPlayVectorEnv(0)
    with pytest.raises(ValueError, match="v0"):
        SelfPlayVectorEnv(2, encoding="v9")
    env = SelfPlayVectorEnv(2)
    with pytest.raises(RuntimeError, match="call reset"):
        env.step(np.zeros(2, np.int64))
    with pytest.raises(ValueError, match="one int for the whole batch"):
        env.reset(seed=[1, 2])
    with pytest.raises(ValueError, match="no reset options"):
        env.reset(options={"reset_mask": np.ones(2, np.bool_)})
    env.reset(seed=0)
    with pytest.raises(IllegalActionError, match="2 ints, one a row"):
        env.step(np.zeros(3, np.int64))
