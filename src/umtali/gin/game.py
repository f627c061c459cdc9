"""A game of Gin Rummy: hands dealt until a player reaches the target, and the game's
bonuses (ruling G).

The deal alternates between the players. A dead hand scores nothing and the same
dealer deals again. When the game ends, its winner takes the game bonus, and each player
takes the line bonus for every hand he won. In a shutout (the loser won no hand) the
winner's points from the hands are doubled and the game bonus is doubled too; the line
bonuses are not doubled, as Oklahoma's doubling leaves bonuses alone.

>>> import random
>>> game = GinGame()
>>> rng = random.Random(3)
>>> while not game.is_over():
...     hand = game.new_hand(shuffled_deck(rng))
...     _ = hand.play_out(rng)
>>> result = game.result()
>>> max(game.totals()) >= 100, result.winner in (0, 1)
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from umtali.deck import shuffled_deck  # noqa: F401 - the doctest deals with it
from umtali.gin.rules import GIN, GinRules
from umtali.gin.state import GinHand

__all__ = ["GinGame", "GinGameResult"]


@dataclass(frozen=True)
class GinGameResult:
    """A finished game: ``points`` from the hands, ``line`` bonuses, the winner's
    ``game_bonus``, whether it was a ``shutout``, and the ``final`` scores."""

    winner: int
    points: tuple[int, int]
    line: tuple[int, int]
    game_bonus: int
    shutout: bool
    final: tuple[int, int]

    @property
    def margin(self) -> int:
        """By how much the winner won: the difference of the final scores."""
        return self.final[self.winner] - self.final[1 - self.winner]


@dataclass
class GinGame:
    """The hands of one game, in order; the last may still be in play."""

    rules: GinRules = GIN
    first_dealer: int = 0
    hands: list[GinHand] = field(default_factory=list)

    def next_dealer(self) -> int:
        """Who deals the next hand: the deal alternates, and a dead hand is dealt again
        by the same dealer."""
        if not self.hands:
            return self.first_dealer
        last = self.hands[-1]
        if last.outcome is not None and last.outcome.how == "dead":
            return last.dealer
        return 1 - last.dealer

    def new_hand(self, deck: Sequence[int]) -> GinHand:
        """Deal the next hand from ``deck``; the hand before must be over."""
        if self.hands and not self.hands[-1].is_over():
            raise ValueError("the hand in play must end before the next is dealt")
        if self.is_over():
            raise ValueError("the game is over: no more hands are dealt")
        hand = GinHand(deck, self.next_dealer(), self.rules)
        self.hands.append(hand)
        return hand

    def totals(self) -> tuple[int, int]:
        """Each player's points from the finished hands, bonuses aside."""
        first = second = 0
        for hand in self.hands:
            if hand.outcome is not None:
                a, b = hand.outcome.scores
                first, second = first + a, second + b
        return first, second

    def hands_won(self) -> tuple[int, int]:
        won = [0, 0]
        for hand in self.hands:
            if hand.outcome is not None and hand.outcome.winner is not None:
                won[hand.outcome.winner] += 1
        return won[0], won[1]

    def is_over(self) -> bool:
        return max(self.totals()) >= self.rules.game_target and (
            not self.hands or self.hands[-1].is_over()
        )

    def result(self) -> GinGameResult:
        """The game's end: bonuses added. Only once :meth:`is_over`."""
        if not self.is_over():
            raise ValueError("the game is not over yet")
        points = self.totals()
        winner = 0 if points[0] >= self.rules.game_target else 1
        won = self.hands_won()
        shutout = won[1 - winner] == 0
        line = (won[0] * self.rules.line_bonus, won[1] * self.rules.line_bonus)
        bonus = self.rules.game_bonus * (2 if shutout else 1)
        final = [points[0] + line[0], points[1] + line[1]]
        final[winner] += bonus + (points[winner] if shutout else 0)
        return GinGameResult(winner, points, line, bonus, shutout, (final[0], final[1]))
