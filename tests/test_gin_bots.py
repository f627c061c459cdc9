"""Gin Rummy's computer players: legal moves only, and each level beats the one below
it over the same deals, played twice with the seats swapped."""

from __future__ import annotations

import random
from functools import cache

import pytest

from umtali.games.gin.bots import (
    GIN_BOTS,
    GinCautiousBot,
    GinExpertBot,
    draw_value,
    make_gin_bot,
)
from umtali.games.gin.melds import min_deadwood
from umtali.games.gin.state import GinHand, GinMove
from umtali.games.gin.view import GinView
from umtali.kernel.cards import bit
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
    # 150 deals from both seats: about twice greedy's points (4,052 to 1,996), though it
    # wins fewer hands (139 to 161): it scores big and loses small.
    points, _ = duel("expert", "greedy", 150)
    assert points[0] > 1.5 * points[1]


def test_an_unknown_level_is_refused_with_the_levels() -> None:
    with pytest.raises(ValueError, match="choose from random, greedy, expert"):
        make_gin_bot("lineup")
    assert list(GIN_BOTS) == ["random", "greedy", "expert"]


@cache
def decisions(hands: int) -> list[GinView]:
    """The views of the player to move at a discard or a knock, over ``hands`` hands
    played by the cautious player (so that they run late into the stock)."""
    rng = random.Random(3)
    bot = GinCautiousBot()
    out = []
    for number in range(hands):
        hand = GinHand.from_seed(f"decisions/{number}", dealer=number % 2)
        while not hand.is_over():
            view = GinView.of(hand, hand.player)
            if any(move.kind == "discard" for move in view.legal):
                out.append(view)
            hand.push(bot.choose(view, rng))
    return out


def _left(view: GinView, move: GinMove) -> int:
    return min_deadwood(view.hand & ~bit(move.card or 0))


def _worth(view: GinView, move: GinMove) -> float:
    """The deadwood ``move`` leaves less what the next draw is expected to meld away."""
    pile = 0
    for card in view.pile:
        pile |= bit(card)
    unseen = ((1 << 52) - 1) & ~view.hand & ~pile & ~view.opponent_known
    left = view.hand & ~bit(move.card or 0)
    return min_deadwood(left) - draw_value(left, unseen)


def test_the_expert_knocks_early_with_gin_or_late_with_almost_nothing() -> None:
    # Early (more than 26 cards in the stock) it knocks whenever it may; later only with
    # gin, 2 or less when the other has taken nothing from the pile, or at the stock's end.
    expert, seen = GinExpertBot(), set()
    for view in decisions(80):
        knocks = [move for move in view.legal if move.kind == "knock"]
        if not knocks:
            continue
        knocked = expert.choose(view, random.Random(0)).kind == "knock"
        best = min(_left(view, move) for move in knocks)
        if best == 0 or view.stock_size > 26:
            seen.add("early or gin")
            assert knocked
        elif view.stock_size > 4 and best > 2:
            seen.add("waits")
            assert not knocked
        elif view.stock_size > 4 and best > 0 and view.opponent_known:
            seen.add("waits for less")
            assert not knocked
    assert seen == {"early or gin", "waits", "waits for less"}


def test_the_expert_throws_for_its_chances_as_well_as_its_count() -> None:
    # When it keeps a card the least-deadwood throw would have kept, the hand it keeps
    # is worth more, its count less what the next draw is expected to meld away.
    expert, cautious, differed = GinExpertBot(), GinCautiousBot(), 0
    for view in decisions(80)[::3]:
        if any(move.kind == "knock" for move in view.legal):
            continue
        discards = [move for move in view.legal if move.kind == "discard"]
        mine = expert.discard(view, discards, random.Random(0))
        plain = cautious.discard(view, discards, random.Random(0))
        if _left(view, mine) == _left(view, plain):
            continue
        differed += 1
        assert _left(view, mine) > _left(view, plain)
        assert _worth(view, mine) < _worth(view, plain)
    assert differed >= 3
