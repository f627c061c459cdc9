"""Hands stepped in a batch (:mod:`umtali.rl.vector`): every row is the hand a lone
observer would see, rewards are the hands' margins, and a refused step moves nothing."""

from __future__ import annotations

import random

import numpy as np
import pytest

from umtali.games.umtali.research.actions import DISCARD, INDEX_OF_ACTION, NUM_ACTIONS
from umtali.games.umtali.research.observation import Observer
from umtali.games.umtali.research.vector import HandBatch, batch_arrays
from umtali.games.umtali.rules import PRACTICAL, STANDARD, RuleSet
from umtali.games.umtali.state import HandState
from umtali.rl.encoding import IllegalActionError
from umtali.rl.shared import EncodingVersion


def random_actions(batch: HandBatch, rng: random.Random) -> list[int]:
    return [legal[rng.randrange(len(legal))] for legal in batch.legal]


@pytest.mark.parametrize("encoding", ["v0", "v1"])
@pytest.mark.parametrize(
    ("rules", "steps"), [(STANDARD, 150), (PRACTICAL, 150), (RuleSet(deep_take=True), 400)]
)
def test_every_row_is_what_an_observer_of_that_hand_sees(
    rules: RuleSet, steps: int, encoding: EncodingVersion
) -> None:
    # The batch reads each hand its own way (what changes seldom only where it can have
    # changed); a lone observer reads everything at every state. The practical rules
    # add the upcard, a deep take and discards laid face down.
    batch = HandBatch(6, seed=3, rules=rules, encoding=encoding)
    obs = batch.reset()
    observer = Observer(rules, encoding=encoding)
    assert {name: (a.shape[1:], a.dtype) for name, a in obs.items() if name != "action_mask"} == (
        batch_arrays(encoding)
    )
    rng = random.Random(0)
    for _ in range(steps):
        for i, hand in enumerate(batch.states):
            alone = observer.observe(hand, hand.player)
            assert batch.to_move[i] == hand.player
            for name, array in alone.items():
                assert obs[name][i].dtype == array.dtype, name
                assert (obs[name][i] == array).all(), name
            assert batch.legal[i] == [INDEX_OF_ACTION[a] for a in hand.legal_actions()]
        obs, _, _ = batch.step(random_actions(batch, rng))


@pytest.mark.parametrize("encoding", ["v0", "v1"])
@pytest.mark.parametrize("rules", [STANDARD, PRACTICAL])
def test_stepping_some_rows_moves_those_alone_and_keeps_every_row_true(
    rules: RuleSet, encoding: EncodingVersion
) -> None:
    # A batch against the computer moves the rows whose computer is to move: some rows
    # a step, in any order. Every row stays what a lone observer sees, and the rows left
    # out keep their hands as they were.
    batch = HandBatch(7, seed=4, rules=rules, encoding=encoding)
    obs = batch.reset()
    observer = Observer(rules, encoding=encoding)
    rng = random.Random(1)
    ended = 0
    for _ in range(250):
        rows = rng.sample(range(batch.n), rng.randrange(batch.n + 1))
        legal = batch.legal
        before = [(hand, len(hand.history)) for hand in batch.states]
        obs, _, done = batch.step(
            [legal[row][rng.randrange(len(legal[row]))] for row in rows], rows=rows
        )
        for i, hand in enumerate(batch.states):
            if i not in rows:
                assert (hand, len(hand.history)) == before[i]
                assert not done[i]
            alone = observer.observe(hand, hand.player)
            assert batch.to_move[i] == hand.player
            for name, array in alone.items():
                assert (obs[name][i] == array).all(), name
            assert batch.legal[i] == [INDEX_OF_ACTION[a] for a in hand.legal_actions()]
            assert int(obs["action_mask"][i].sum()) == len(batch.legal[i])
        ended += int(done.sum())
    assert ended > 0
    with pytest.raises(ValueError, match="distinct row numbers from 0 to 6"):
        batch.step([0], rows=[7])
    with pytest.raises(IllegalActionError, match="row 0"):
        batch.step([NUM_ACTIONS - 1], rows=[3])


def test_a_hand_that_ends_pays_its_margin_and_is_dealt_anew() -> None:
    batch = HandBatch(8, seed=5)
    batch.reset()
    rng = random.Random(2)
    ended = 0
    while ended < 30:
        before = list(batch.states)
        _, rewards, done = batch.step(random_actions(batch, rng))
        for i in range(batch.n):
            if done[i]:
                outcome = before[i].outcome()
                assert outcome is not None
                margin = outcome.scores[0] - outcome.scores[1]
                assert rewards[i].tolist() == [margin, -margin]
                assert batch.states[i] is not before[i]
                assert not batch.states[i].is_over()
                ended += 1
            else:
                assert rewards[i].tolist() == [0.0, 0.0]
                assert batch.states[i] is before[i]
    assert batch.hands_played == ended


def test_the_same_seed_deals_the_same_batch() -> None:
    def run(seed: int) -> list[int]:
        batch = HandBatch(4, seed=seed)
        batch.reset()
        rng = random.Random(9)
        for _ in range(60):
            batch.step(random_actions(batch, rng))
        return [len(hand.history) for hand in batch.states]

    assert run(1) == run(1)
    assert run(1) != run(2)


def test_an_illegal_action_in_any_row_refuses_the_whole_step() -> None:
    batch = HandBatch(3, seed=1)
    obs = batch.reset()
    actions = [batch.legal[0][0], DISCARD, batch.legal[2][0]]
    with pytest.raises(
        IllegalActionError, match=r"action 3260 \('discard A♣'\) is not legal in row 1"
    ):
        batch.step(actions)
    assert all(len(hand.history) == 0 for hand in batch.states)  # nothing moved
    with pytest.raises(IllegalActionError, match="is not legal in row 0"):
        batch.step([NUM_ACTIONS, 0, 0])
    with pytest.raises(IllegalActionError, match="actions are 3 ints, one a row"):
        batch.step([0, 1])
    assert not obs["action_mask"].flags.writeable  # the mask a step is checked against


def test_a_batch_needs_a_reset_and_at_least_one_hand() -> None:
    with pytest.raises(ValueError, match="a batch holds n >= 1 hands, not 0"):
        HandBatch(0)
    with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
        HandBatch(2).step(np.zeros(2, np.int64))


def test_the_mask_is_the_batchs_own_unless_copies_are_asked_for() -> None:
    # The mask a step returns is rewritten by the next step (a row's old legal moves
    # cleared, its new ones set); with copy=True each step's mask is a new array.
    shared, copied = HandBatch(4, seed=8), HandBatch(4, seed=8, copy=True)
    first, first_copy = shared.reset()["action_mask"], copied.reset()["action_mask"]
    assert (first == first_copy).all()
    before = first_copy.copy()
    rng = random.Random(1)
    actions = random_actions(shared, rng)
    second, second_copy = (
        shared.step(actions)[0]["action_mask"],
        copied.step(actions)[0]["action_mask"],
    )
    assert second is first  # the same buffer, now holding the new masks
    assert (first == second_copy).all()
    assert (first_copy == before).all()
    assert second_copy is not first_copy
    for i, hand in enumerate(shared.states):
        marked = np.flatnonzero(second[i]).tolist()
        assert marked == sorted(INDEX_OF_ACTION[a] for a in hand.legal_actions())


def test_sampled_actions_are_legal_and_cover_every_legal_move() -> None:
    batch = HandBatch(2, seed=4)
    obs = batch.reset()
    rng = np.random.default_rng(3)
    drawn: list[set[int]] = [set(), set()]
    for _ in range(400):
        actions = batch.sample_actions(rng)
        for i, action in enumerate(actions.tolist()):
            assert obs["action_mask"][i, action] == 1
            drawn[i].add(action)
    assert drawn == [set(legal) for legal in batch.legal]  # nothing moved: every move met
    with pytest.raises(RuntimeError, match=r"call reset\(\) first"):
        HandBatch(2).sample_actions(rng)


def test_push_legal_plays_a_legal_action_as_push_does() -> None:
    # The batch plays its checked actions unchecked: the hands come out the same.
    rng = random.Random(6)
    for seed in range(20):
        checked, unchecked = HandState.from_seed(seed), HandState.from_seed(seed)
        while not checked.is_over():
            legal = checked.legal_actions()
            assert unchecked.legal_actions() == legal
            action = legal[rng.randrange(len(legal))]
            checked.push(action)
            unchecked.push_legal(action)
        assert unchecked.history == checked.history
        assert unchecked.outcome() == checked.outcome()
