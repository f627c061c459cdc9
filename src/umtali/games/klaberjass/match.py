"""A game of Klaberjass (ruling K): hands dealt alternately until a player reaches the
target (500), with the pot of tied hands.

A tied hand's maker total waits in the pot; the next hand that is neither thrown in nor
tied pays it to its winner (the maker if he made, the other if he failed). A pot unpaid
when the game ends is lost.

>>> import random
>>> from umtali.kernel.deck import shuffled_deck
>>> from umtali.games.klaberjass.terms import DECK
>>> game = KlaberjassMatch(first_dealer=0)
>>> rng = random.Random(5)
>>> while not game.is_over():
...     hand = game.new_hand(shuffled_deck(rng, DECK))
...     while not hand.is_over():
...         hand.push(rng.choice(hand.legal_actions()))
>>> max(game.totals()) >= 500, game.winner() in (0, 1)
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from umtali.games.klaberjass.rules import BOOK, KlaberjassRules
from umtali.games.klaberjass.state import HandScore, KlaberjassHand
from umtali.kernel.players import MatchError, check_name

__all__ = ["KlaberjassMatch", "Standing"]


@dataclass(frozen=True)
class Standing:
    """The game after its finished hands: each player's ``totals``, the ``pot`` waiting,
    and each hand's ``scores`` as added (a pot paid included)."""

    totals: tuple[int, int]
    pot: int
    hands: tuple[tuple[int, int], ...]


class KlaberjassMatch:
    """Hands of Klaberjass in a row, to the rules' target, between two named
    ``players``; ``meta`` is what a front end keeps with the record (seats, seed)."""

    def __init__(
        self,
        rules: KlaberjassRules = BOOK,
        *,
        first_dealer: int = 0,
        players: Sequence[str] = ("Player 1", "Player 2"),
        meta: dict[str, Any] | None = None,
    ) -> None:
        if first_dealer not in (0, 1):
            raise MatchError(f"the first dealer is player 0 or 1, not {first_dealer!r}")
        if isinstance(players, str) or len(players) != 2:
            raise MatchError("a game of Klaberjass has two players")
        for seat, name in enumerate(players):
            check_name(seat, name)
        self.rules = rules
        self.first_dealer = first_dealer
        self.players = (players[0], players[1])
        self.meta: dict[str, Any] = dict(meta or {})
        self.hands: list[KlaberjassHand] = []

    @property
    def current(self) -> KlaberjassHand | None:
        """The hand under way, if one is."""
        if self.hands and not self.hands[-1].is_over():
            return self.hands[-1]
        return None

    def next_dealer(self) -> int:
        """The deal alternates every hand, a thrown-in hand included."""
        return self.first_dealer if not self.hands else 1 - self.hands[-1].dealer

    def new_hand(self, deck: Sequence[int]) -> KlaberjassHand:
        if self.is_over():
            raise MatchError("the game is over: no hand is dealt after it")
        if self.current is not None:
            raise MatchError("a hand is under way: play it to its end first")
        hand = KlaberjassHand(deck, self.next_dealer(), self.rules)
        self.hands.append(hand)
        return hand

    def standing(self) -> Standing:
        totals = [0, 0]
        pot = 0
        added = []
        for hand in self.hands:
            score = hand.outcome()
            if score is None:
                break
            gained = list(score.scores)
            winner = _winner(score)
            if score.result == "tied":
                pot += score.to_pot
            elif winner is not None:
                gained[winner] += pot
                pot = 0
            totals[0] += gained[0]
            totals[1] += gained[1]
            added.append((gained[0], gained[1]))
        return Standing((totals[0], totals[1]), pot, tuple(added))

    def totals(self) -> tuple[int, int]:
        return self.standing().totals

    def is_over(self) -> bool:
        """Whoever has the target wins; both, the higher total; equal, another hand."""
        if self.current is not None:
            return False
        a, b = self.totals()
        target = self.rules.game_target
        return (a >= target or b >= target) and a != b

    def winner(self) -> int | None:
        if not self.is_over():
            return None
        a, b = self.totals()
        return 0 if a > b else 1


def _winner(score: HandScore) -> int | None:
    """Who wins a hand that pays the pot: the maker if he made, the other if he failed."""
    if score.maker is None or score.result == "tied":
        return None
    return score.maker if score.result == "made" else 1 - score.maker
