"""The learnable policy (umtali.rl.policy) and the training example
(examples/train_policy.py), run small enough to take seconds."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.helpers import load_example
from umtali.games.umtali.bots import BOTS
from umtali.games.umtali.lessons import LESSONS
from umtali.games.umtali.research.actions import DISCARD, DRAW, TAKE, index_of, legal_indices
from umtali.games.umtali.research.observation import Observer
from umtali.games.umtali.research.policy import (
    FEATURES,
    LinearPolicy,
    PolicyBot,
    PolicyError,
    Position,
    action_features,
)
from umtali.games.umtali.state import HandState
from umtali.games.umtali.view import PlayerView
from umtali.kernel.cards import mask_of, parse_card


def _feature(rows: np.ndarray, name: str) -> list[float]:
    return [float(x) for x in rows[:, FEATURES.index(name)]]


def test_features_tell_what_a_move_does_with_the_cards() -> None:
    # Hand 1 after the opening turn, Player 1 to draw (Player 2 laid K♠ K♥ K♣, 3♥ 2♥ A♥
    # and discarded 5♥):
    #   Player 1 holds  J♠ 7♠ 6♠ 5♠ 10♥ 6♥ Q♦ J♦ 10♣ 5♣
    hand = LESSONS[0].state_at(turn=2)
    position = Position.of_view(PlayerView.of(hand, 0))
    rows = action_features(position, [DRAW, TAKE + parse_card("5h")])
    assert _feature(rows, "is_draw") == [1.0, 0.0]
    assert _feature(rows, "is_take") == [0.0, 1.0]
    assert _feature(rows, "draw_stock_left") == [1.0, 0.0]  # all 31 cards left
    # 5♥ sits beside 6♥ and 5♠ 5♣ in his hand, and 5♥ counts 1 point of 5.
    assert _feature(rows, "take_neighbours") == [0.0, 1.5]
    assert _feature(rows, "take_points") == [0.0, 0.2]


def test_a_discard_to_the_opponent_is_marked() -> None:
    # The opponent took 9♦ from the pile and holds it: discarding 8♦ or 9♣ helps him.
    position = Position(
        hand=mask_of(parse_card(c) for c in ("8d", "9c", "2s")),
        opponent_known=1 << parse_card("9d"),
        stock=10,
        accepts=0,
    )
    cards = ("8d", "9c", "2s")
    rows = action_features(position, [DISCARD + parse_card(c) for c in cards])
    assert _feature(rows, "discard_near_opponent") == [0.5, 0.5, 0.0]
    assert _feature(rows, "cards_left") == [2 / 11] * 3


def test_observation_and_view_give_the_same_features() -> None:
    # Training reads observations, the bot reads views: over a random hand, both give
    # the same numbers at every decision of either player.
    observer = Observer()
    rng = random.Random(11)
    hand = HandState.from_seed(11, dealer=1)
    checked = 0
    while not hand.is_over():
        seat = hand.player
        legal = legal_indices(hand)
        from_obs = action_features(Position.of_observation(observer.observe(hand, seat)), legal)
        from_view = action_features(Position.of_view(PlayerView.of(hand, seat)), legal)
        assert np.array_equal(from_obs, from_view)
        checked += 1
        hand.push(hand.legal_actions()[rng.randrange(len(hand.legal_actions()))])
    assert checked > 20


def test_the_gradient_raises_the_chance_of_the_move_made() -> None:
    hand = LESSONS[0].state_at(turn=2)
    position = Position.of_view(PlayerView.of(hand, 0))
    legal = legal_indices(hand)
    policy = LinearPolicy(np.linspace(-1, 1, len(FEATURES)))
    action, gradient = policy.choose(position, legal, np.random.default_rng(3))
    before = policy.probabilities(position, legal)[legal.index(action)]
    policy.weights += 0.1 * gradient  # a step up the log-probability of that move
    after = policy.probabilities(position, legal)[legal.index(action)]
    assert after > before
    # Without an RNG the policy plays its likeliest move.
    best, _ = policy.choose(position, legal)
    assert best == legal[int(policy.probabilities(position, legal).argmax())]


def test_weights_round_trip_as_json_and_bad_ones_are_refused() -> None:
    policy = LinearPolicy(np.arange(len(FEATURES)) / 10)
    assert np.array_equal(LinearPolicy.from_json(policy.to_json()).weights, policy.weights)
    with pytest.raises(PolicyError, match=f"has {len(FEATURES)} weights, one a feature"):
        LinearPolicy([1.0, 2.0])
    with pytest.raises(PolicyError, match="one weight for each of the features"):
        LinearPolicy.from_json('{"is_keep": 1}')


def test_the_bot_plays_a_legal_move_from_its_view() -> None:
    hand = LESSONS[0].state_at(turn=2)
    view = PlayerView.of(hand, 0)
    for sample in (False, True):
        move = PolicyBot(LinearPolicy(), sample=sample).choose(view, random.Random(1))
        assert index_of(move) in legal_indices(hand)


def test_training_example_runs_small(capsys: pytest.CaptureFixture[str]) -> None:
    example = load_example("train_policy")
    training = example.train(hands=20, seed=2)
    assert len(training.margins) == 20
    assert np.isfinite(training.policy.weights).all()
    assert training.policy.weights.any()  # the hands taught it something
    # The same seed trains the same policy.
    assert np.array_equal(example.train(hands=20, seed=2).policy.weights, training.policy.weights)
    example.main(["--hands", "20", "--deals", "2"])
    printed = capsys.readouterr().out
    assert "trained on 20 hands against random" in printed
    assert "arena, 2 deals × 2 seatings = 4 games against random" in printed
    assert "trained" not in BOTS  # the arena's level was only lent
