"""A game of Gin Rummy: hands dealt until a player reaches the target, and the game's
bonuses (ruling G).

The deal alternates between the players. A dead hand scores nothing and the same
dealer deals again. When the game ends, its winner takes the game bonus and the line
bonus for every hand he won (the loser takes his too under ``line_bonus_to_all``). In a
shutout (the loser won no hand) the winner's whole score, hand points and line bonuses,
is doubled, and then the game bonus, doubled too, is added (ruling G).

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

from umtali.games.gin.rules import GIN, GinRules
from umtali.games.gin.state import GinHand
from umtali.kernel.deck import shuffled_deck  # noqa: F401 - the doctest deals with it

__all__ = ["GameBonuses", "GinGame", "GinGameResult", "game_bonuses"]


@dataclass(frozen=True)
class GameBonuses:
    """What the end of a game adds, for any number of players or teams (indexed alike):
    each one's ``line`` bonuses, the ``game_bonus`` each winner takes, whether it was a
    ``shutout``, and the ``final`` scores."""

    line: tuple[int, ...]
    game_bonus: int
    shutout: bool
    final: tuple[int, ...]


def game_bonuses(
    points: Sequence[int], hands_won: Sequence[int], winners: Sequence[int], rules: GinRules
) -> GameBonuses:
    """The bonuses of a finished game: ``points`` from the hands and ``hands_won`` by
    each player (or team), the ``winners`` among them (more than one only when
    three-hand play ends in a tie).

    Each winner adds the line bonus for each hand he won (everyone does under
    ``line_bonus_to_all``) and the game bonus. In a shutout, where no loser won a hand,
    each winner's score so far, hand points and line bonuses, counts twice, and the game
    bonus is doubled.

    >>> game_bonuses((85, 170), (1, 2), (1,), GIN)
    GameBonuses(line=(0, 50), game_bonus=100, shutout=False, final=(85, 320))
    >>> game_bonuses((0, 170), (0, 2), (1,), GIN).final
    (0, 640)
    """
    shutout = all(won == 0 for who, won in enumerate(hands_won) if who not in winners)
    line = tuple(
        won * rules.line_bonus if who in winners or rules.line_bonus_to_all else 0
        for who, won in enumerate(hands_won)
    )
    bonus = rules.game_bonus * (2 if shutout else 1)
    final = [score + extra for score, extra in zip(points, line, strict=True)]
    for winner in winners:
        final[winner] = final[winner] * (2 if shutout else 1) + bonus
    return GameBonuses(line, bonus, shutout, tuple(final))


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

    @classmethod
    def of(
        cls, winner: int, points: tuple[int, int], hands_won: tuple[int, int], rules: GinRules
    ) -> GinGameResult:
        """The result of a game between two sides that ``winner`` won, with its bonuses
        (:func:`game_bonuses`)."""
        bonuses = game_bonuses(points, hands_won, (winner,), rules)
        line, final = bonuses.line, bonuses.final
        return cls(
            winner,
            points,
            (line[0], line[1]),
            bonuses.game_bonus,
            bonuses.shutout,
            (final[0], final[1]),
        )

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
    hand_limit: int | None = None
    """Ends the game after this many hands (the arena's single hands), its result then
    the hands' points alone, without bonuses; ``None``: played to the target only."""

    def _limited(self) -> bool:
        return self.hand_limit is not None and len(self.hands) >= self.hand_limit

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
        ended = not self.hands or self.hands[-1].is_over()
        return ended and (max(self.totals()) >= self.rules.game_target or self._limited())

    def result(self) -> GinGameResult:
        """The game's end: bonuses added. Only once :meth:`is_over`."""
        if not self.is_over():
            raise ValueError("the game is not over yet")
        points = self.totals()
        if max(points) < self.rules.game_target:  # ended by the hand limit
            winner = 0 if points[0] >= points[1] else 1
            return GinGameResult(winner, points, (0, 0), 0, False, points)
        winner = 0 if points[0] >= self.rules.game_target else 1
        return GinGameResult.of(winner, points, self.hands_won(), self.rules)
