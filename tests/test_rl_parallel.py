"""Hands stepped by worker processes (:mod:`umtali.rl.parallel`): every row is what a lone
batch of the same deal gives, an illegal action moves nothing in any worker, and a
worker that dies is reported, not waited for."""

from __future__ import annotations

import os
import random
import signal
from collections.abc import Iterator

import numpy as np
import pytest

from tests.research_checks import check_parallel_batch
from umtali.games.umtali.research.vector import HandBatch
from umtali.games.umtali.rules import PRACTICAL
from umtali.rl.encoding import IllegalActionError
from umtali.rl.parallel import ParallelHandBatch, WorkerError


@pytest.fixture(scope="module")
def batch() -> Iterator[ParallelHandBatch]:
    # Started once: a worker is a fresh interpreter, a second or so to start.
    with ParallelHandBatch(7, workers=2, seed=3, rules=PRACTICAL) as made:
        yield made


def test_every_row_is_what_a_lone_batch_of_its_deal_gives(batch: ParallelHandBatch) -> None:
    obs = batch.reset(seed=11)
    assert batch.slices == [(0, 3), (3, 7)]
    lone = [
        HandBatch(stop - start, seed=seed, rules=PRACTICAL)
        for (start, stop), seed in zip(batch.slices, batch.seeds, strict=True)
    ]
    alone = [b.reset() for b in lone]
    rng = random.Random(0)
    played = 0
    for _ in range(300):
        for (start, stop), b, lone_obs in zip(batch.slices, lone, alone, strict=True):
            for name, array in lone_obs.items():
                assert (obs[name][start:stop] == array).all(), name
            assert (batch.to_move[start:stop] == b.to_move).all()
            assert batch.legal[start:stop] == b.legal
        actions = np.array([legal[rng.randrange(len(legal))] for legal in batch.legal])
        obs, rewards, done = batch.step(actions)
        alone = []
        for (start, stop), b in zip(batch.slices, lone, strict=True):
            lone_obs, lone_rewards, lone_done = b.step(actions[start:stop])
            alone.append(lone_obs)
            assert (rewards[start:stop] == lone_rewards).all()
            assert (done[start:stop] == lone_done).all()
        played += int(done.sum())
    assert batch.hands_played == played == sum(b.hands_played for b in lone) > 0


def test_the_same_seed_deals_the_same_hands(batch: ParallelHandBatch) -> None:
    first = batch.reset(seed=5)["cards"]
    seeds = batch.seeds
    again = batch.reset(seed=5)["cards"]
    assert batch.seeds == seeds
    assert (first == again).all()
    assert not (batch.reset(seed=6)["cards"] == first).all()


def test_sampled_actions_are_legal(batch: ParallelHandBatch) -> None:
    batch.reset(seed=2)
    rng = np.random.default_rng(0)
    for _ in range(50):
        actions = batch.sample_actions(rng)
        legal = batch.legal
        assert all(int(a) in row for a, row in zip(actions, legal, strict=True))
        batch.step(actions)


def test_an_illegal_action_in_any_row_moves_nothing(batch: ParallelHandBatch) -> None:
    obs = batch.reset(seed=4)
    masks = obs["action_mask"].copy()
    legal = batch.legal
    actions = np.array([row[0] for row in legal])
    illegal = next(a for a in range(masks.shape[1]) if not masks[5, a])
    actions[5] = illegal
    with pytest.raises(IllegalActionError, match="not legal in row 5"):
        batch.step(actions)
    with pytest.raises(IllegalActionError, match="7 ints"):
        batch.step(actions[:3])
    assert (batch.step(np.array([row[0] for row in legal]))[0]["action_mask"] != masks).any()
    assert batch.legal != legal


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="whole number from 1 to n"):
        ParallelHandBatch(4, workers=0)
    with pytest.raises(ValueError, match="whole number from 1 to n"):
        ParallelHandBatch(2, workers=3)
    with pytest.raises(ValueError, match="n >= 1"):
        ParallelHandBatch(0, workers=1)


def test_a_closed_batch_and_a_dead_worker_are_reported_not_waited_for() -> None:
    batch = ParallelHandBatch(4, workers=2, seed=1)
    with pytest.raises(RuntimeError, match="reset"):
        batch.step(np.zeros(4, np.int64))
    batch.reset()
    os.kill(batch.pids[1], signal.SIGKILL)
    with pytest.raises(WorkerError, match="worker 1 went away"):
        batch.step(batch.sample_actions(np.random.default_rng(0)))
    assert not any(process.is_alive() for process in batch._processes)
    with pytest.raises(WorkerError, match="closed"):
        batch.reset()


def test_v0_rows_on_two_processes_are_those_of_lone_v0_batches() -> None:
    check_parallel_batch(
        "umtali", lambda n, seed: HandBatch(n, seed=seed, encoding="v0"), encoding="v0"
    )
