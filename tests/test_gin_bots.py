"""Gin Rummy's computer players: legal moves only, and each level beats the one below
it over the same deals, played twice with the seats swapped."""

from __future__ import annotations

import random

import pytest

from umtali.games.gin.bots import GIN_BOTS, make_gin_bot
from umtali.games.gin.state import GinHand
from umtali.games.gin.view import GinView
from umtali.kernel.deck import shuffled_deck


def duel(first: str, second: str, deals: int) -> tuple[list[int], list[int]]:
    """Points and hands won by each level, every deal played from both seats."""
    rng = random.Random(0)
    points, won = [0, 0], [0, 0]
    for i in range(2 * deals):
        swapped = i % 2
        bots = [make_gin_bot(first), make_gin_bot(second)]
        if swapped:
            bots.reverse()
        hand = GinHand(shuffled_deck(random.Random(f"duel/{i // 2}")), dealer=i // 2 % 2)
        while not hand.is_over():
            player = hand.to_move()
            assert player is not None
            view = GinView.of(hand, player)
            move = bots[player].choose(view, rng)
            assert move in view.legal
            hand.push(move)
        outcome = hand.outcome
        assert outcome is not None
        if outcome.winner is not None:
            points[outcome.winner ^ swapped] += outcome.points
            won[outcome.winner ^ swapped] += 1
    return points, won


def test_greedy_crushes_random() -> None:
    points, won = duel("greedy", "random", 100)
    assert won[0] > 9 * won[1]
    assert points[0] > 20 * points[1]


def test_expert_scores_more_than_greedy() -> None:
    points, _ = duel("expert", "greedy", 400)
    assert points[0] > 1.05 * points[1]


def test_an_unknown_level_is_refused_with_the_levels() -> None:
    with pytest.raises(ValueError, match="choose from random, greedy, expert"):
        make_gin_bot("lineup")
    assert list(GIN_BOTS) == ["random", "greedy", "expert"]
