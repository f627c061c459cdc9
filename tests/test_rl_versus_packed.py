"""The batch against the computer inside the game's own batch
(umtali.rl.versus.PackedVersusBatch), for every researched game: the learner is to move
in every row after each step, the computer moves only at its own turns and from its own
view, the rows a step leaves out stay as they were, and each ended hand pays the learner
its margin for his seat."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import data_equivalence

from umtali.rl.encoding import IllegalActionError, research, researched
from umtali.rl.versus import PackedVersusBatch

GAMES = researched()


class _Recorded:
    """The computer of a batch, each of its moves checked to be its own seat's and kept
    by row."""

    def __init__(self, versus: PackedVersusBatch) -> None:
        self.versus = versus
        self.inner = versus.opponent
        self.moves: dict[int, list[int]] = {}

    def row_move(self, batch: Any, row: int, rng: random.Random) -> int:
        assert batch.to_move[row] != self.versus.seats[row]  # never the learner's turn
        move: int = self.inner.row_move(batch, row, rng)
        self.moves.setdefault(row, []).append(move)
        return move


@pytest.mark.parametrize("game", GAMES)
def test_the_learner_is_to_move_in_every_row_after_each_step(game: str) -> None:
    versus = PackedVersusBatch(6, game=game, opponent="greedy", seed=2)
    recorded = _Recorded(versus)
    versus.opponent = recorded  # type: ignore[assignment]
    obs = versus.reset()
    assert recorded.moves  # the computer's moves up to the learner's first turn
    recorded.moves.clear()  # which moves_played leaves out, as VersusBatch does
    assert versus.single_observation_space.contains(
        {name: np.ascontiguousarray(array[0]) for name, array in obs.items()}
    )
    rng = np.random.default_rng(0)
    seats_seen = set()
    for _ in range(120):
        assert (versus.batch.to_move == versus.seats).all()
        # Every hand the batch ended is the learner's episode, or dealt again.
        assert versus.hands_played + versus.redealt == versus.batch.hands_played
        assert (versus.action_masks() == obs["action_mask"].astype(bool)).all()
        obs, rewards, done = versus.step(versus.sample_actions(rng))
        assert rewards.shape == done.shape == (6,)
        assert (rewards[~done] == 0).all()
        seats_seen |= set(versus.seats.tolist())
    assert versus.hands_played > 0
    assert recorded.moves  # the computer played
    assert versus.moves_played == versus.steps_played + sum(map(len, recorded.moves.values()))
    assert seats_seen == {0, 1}  # drawn for each hand


def test_each_ended_hand_pays_the_learner_his_seats_margin() -> None:
    # Umtali's batch keeps its hands as states: the one a row held before a step is the
    # one that ended in it (a hand ends at most once a step: the learner must move in
    # the next).
    versus = PackedVersusBatch(8, opponent="expert", seed=5)
    batch: Any = versus.batch  # Umtali's HandBatch
    versus.reset()
    rng = np.random.default_rng(1)
    ended = 0
    while ended < 25:
        before = list(batch.states)
        seats = versus.seats.copy()
        _, rewards, done = versus.step(versus.sample_actions(rng))
        for i in np.flatnonzero(done).tolist():
            outcome = before[i].outcome()
            assert outcome is not None
            mine = outcome.scores[seats[i]] - outcome.scores[1 - seats[i]]
            assert rewards[i] == mine
            ended += 1
        for i in np.flatnonzero(~done).tolist():
            assert batch.states[i] is before[i]
    assert versus.hands_played == ended


def test_a_hand_the_computer_ends_before_the_learners_first_move_is_dealt_again() -> None:
    # Gin Rummy, seed 48: in one of the eight rows the computer takes the first upcard
    # and knocks at once. Nothing in that hand was the learner's: no episode, no reward.
    versus = PackedVersusBatch(8, game="gin", opponent="greedy", seed=48)
    versus.reset()
    assert versus.redealt == 1
    assert versus.hands_played == 0
    assert versus.batch.hands_played == 1
    assert (versus.batch.to_move == versus.seats).all()


def test_a_seed_replays_the_same_and_a_fixed_seat_stays() -> None:
    def run() -> list[Any]:
        versus = PackedVersusBatch(4, game="klaberjass", opponent="greedy", seat=1, seed=9)
        out: list[Any] = [versus.reset()]
        rng = np.random.default_rng(3)
        for _ in range(40):
            out.append(versus.step(versus.sample_actions(rng)))
            assert (versus.seats == 1).all()
        return out

    assert data_equivalence(run(), run(), exact=True)


def test_an_illegal_action_moves_no_row() -> None:
    versus = PackedVersusBatch(3, game="gin", opponent="random", seed=1)
    twin = PackedVersusBatch(3, game="gin", opponent="random", seed=1)
    versus.reset()
    twin.reset()
    actions = versus.sample_actions(np.random.default_rng(0))
    wrong = actions.copy()
    wrong[1] = int(np.flatnonzero(~versus.action_masks()[1])[0])
    with pytest.raises(IllegalActionError, match="row 1"):
        versus.step(wrong)
    assert versus.steps_played == versus.moves_played == 0
    assert data_equivalence(versus.step(actions), twin.step(actions), exact=True)


def test_it_refuses_what_it_cannot_play() -> None:
    with pytest.raises(ValueError, match="opponent is one of random, greedy"):
        PackedVersusBatch(2, opponent="grandmaster")
    with pytest.raises(ValueError, match="seat is 0 to 1"):
        PackedVersusBatch(2, seat=2)
    with pytest.raises(ValueError, match="n >= 1"):
        PackedVersusBatch(0)
    with pytest.raises(RuntimeError, match="call reset"):
        PackedVersusBatch(2).step(np.zeros(2, np.int64))


@pytest.mark.parametrize("game", [game for game in GAMES if game != "umtali"])
def test_stepping_some_rows_of_a_row_batch_keeps_the_others(game: str) -> None:
    # Gin Rummy's and Klaberjass's batches observe each row alone: after steps of some
    # rows, what they hand out is what observing every row afresh gives.
    batch: Any = research(game).batch(5, seed=7, copy=True)
    batch.reset()
    rng = random.Random(2)
    for _ in range(150):
        rows = rng.sample(range(5), rng.randrange(6))
        legal = batch.legal
        obs, _, done = batch.step([rng.choice(legal[row]) for row in rows], rows=rows)
        assert not done[[row for row in range(5) if row not in rows]].any()
        legal_now = batch.legal
        afresh = batch._observe()  # every row looked at anew (the reset's way)
        assert data_equivalence(obs, afresh, exact=True)
        assert batch.legal == legal_now
