"""Perft: golden counts of legal move sequences from fixed deals.

The counts were taken from this engine when the rules tests passed; a change in move
generation changes them. Change a number only with a rules reason in the commit.
"""

from __future__ import annotations

import pytest

from umtali.games.umtali.lessons import LESSONS
from umtali.games.umtali.state import HandState
from umtali.sim.perft import perft


@pytest.mark.parametrize(
    ("seed", "depth", "count"),
    [(1, 13, 60700), (2, 11, 134068), (3, 12, 54760), (4, 8, 865)],
)
def test_perft_from_seeded_deals(seed: int, depth: int, count: int) -> None:
    assert perft(HandState.from_seed(seed), depth) == count


@pytest.mark.parametrize(
    ("lesson", "depth", "count"), [(0, 13, 14472), (1, 13, 25408), (2, 11, 28932), (3, 10, 53343)]
)
def test_perft_from_lesson_deals(lesson: int, depth: int, count: int) -> None:
    assert perft(HandState(LESSONS[lesson].deck(), LESSONS[lesson].dealer), depth) == count


def test_perft_from_a_take_two_position() -> None:
    # Hand 1 after two turns: Player 2 may take 6♥ 5♥ to his 7♥.
    hand = LESSONS[0].replay(turn=3)
    assert "take 6♥ 5♥" in [str(m) for m in hand.legal_moves]
    assert perft(hand, 11) == 3166


def test_perft_leaves_the_state_unchanged() -> None:
    hand = HandState.from_seed(5)
    before = (hand.hands, hand.pile, hand.tables, hand.turn, len(hand.history))
    perft(hand, 9)
    assert (hand.hands, hand.pile, hand.tables, hand.turn, len(hand.history)) == before
