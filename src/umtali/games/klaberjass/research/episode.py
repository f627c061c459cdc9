"""One episode of Klaberjass for the environments: a hand, or a game to the rules'
target, dealt from a seeded RNG and stepped by action index, with its rewards; and the
computer as an opponent. :class:`Episode` is Klaberjass's
:class:`umtali.rl.encoding.Episode` (its masks and checks
:class:`umtali.rl.shared.TurnEpisode`'s).

* ``reward="margin"``: the episode is one hand; at its end each player receives his hand
  score less the other's (the maker's rule of ruling K, before any pot), so the two
  rewards sum to zero. A hand both players pass twice is thrown in and pays 0.
* ``reward="game"``: the episode is a game (hands dealt alternately, the pot of tied
  hands carried, until a player reaches the target, 500 unless the rules say
  otherwise); at its end the winner receives 1 and the loser -1, and nothing before.

>>> import random
>>> episode = Episode(random.Random(4))
>>> while episode.step(episode.legal()[0]) is None:
...     pass
>>> episode.hand.is_over(), sum(episode.final_rewards())
(True, 0.0)
"""

from __future__ import annotations

import random
from typing import Any

from umtali.games.klaberjass.bots import BOTS
from umtali.games.klaberjass.match import KlaberjassMatch
from umtali.games.klaberjass.research.actions import (
    ENGINE_ACTIONS,
    INDEX_OF_ACTION,
    NUM_ACTIONS,
    action_text,
    index_of,
)
from umtali.games.klaberjass.research.observation import MAX_SCORE, Observer
from umtali.games.klaberjass.rules import BOOK, KlaberjassRules
from umtali.games.klaberjass.state import KlaberjassHand
from umtali.games.klaberjass.terms import DECK, SUIT_NAMES
from umtali.games.klaberjass.view import KlaberjassView
from umtali.kernel.cards import CardSet, card_name
from umtali.kernel.deck import shuffled_deck
from umtali.rl.encoding import Observation, RewardKind
from umtali.rl.shared import TurnEpisode, ViewOpponent

__all__ = ["BotOpponent", "Episode", "default_penalty", "first_dealt", "table_text"]


def first_dealt(match: KlaberjassMatch) -> tuple[int, int]:
    """The six cards each seat holds when ``match``'s last hand is dealt, as its view
    shows them (an observation keeps them: once trump is made, the view no longer tells
    them from the three dealt after)."""
    return (KlaberjassView.of(match, 0).hand, KlaberjassView.of(match, 1).hand)


def table_text(hand: KlaberjassHand) -> str:
    """``hand`` as an onlooker who sees every card would tell it.

    >>> from umtali.kernel.deck import seeded_deck
    >>> print(table_text(KlaberjassHand(seeded_deck(3, DECK), dealer=1)))  # doctest: +ELLIPSIS
    player_1 deals; bid1, player_0 to move; turned up ...; trump not made
    player_0 holds ... (0 points, 0 tricks)
    player_1 holds ... (0 points, 0 tricks)
    """
    mover = "over" if hand.is_over() else f"player_{hand.player} to move"
    trump = (
        f"trump {SUIT_NAMES[hand.trump]}, made by player_{hand.maker}"
        if hand.trump >= 0
        else "trump not made"
    )
    lines = [
        f"player_{hand.dealer} deals; {hand.phase}, {mover};"
        f" turned up {card_name(hand.turned)}; {trump}"
    ]
    for seat in (0, 1):
        lines.append(
            f"player_{seat} holds {CardSet(hand.hands[seat])}"
            f" ({hand.points[seat]} points, {hand.tricks_won[seat]} tricks)"
        )
    if hand.trick:
        lines.append(f"led: {card_name(hand.trick[0])}")
    outcome = hand.outcome()
    if outcome is not None:
        lines.append(f"{outcome.result}: scores {outcome.scores[0]} and {outcome.scores[1]}")
    return "\n".join(lines)


def default_penalty(reward: RewardKind) -> float:
    """What an illegal action costs by default: a lost game, or a hand lost by more than
    any hand can be lost by in play (:data:`MAX_SCORE`, 282, is the most a hand can
    score one player).

    >>> default_penalty("game"), default_penalty("margin")
    (-1.0, -300.0)
    """
    assert MAX_SCORE < 300
    return -1.0 if reward == "game" else -300.0


class Episode(TurnEpisode):
    """A hand or a game (see the module) between seats 0 and 1, dealt from ``rng``,
    shown to each seat through ``observer`` (by default the dict of arrays of
    ``rules``).

    Attributes:
        rules: the rule options.
        reward: ``"margin"`` or ``"game"``.
        observer: what :meth:`observe` shows a seat through.
        to_move: the seat to move (once the episode is over, the last one that moved),
            kept up to date by :meth:`step`.
        match: the hands so far (:class:`~umtali.games.klaberjass.match.KlaberjassMatch`).
        hand: the hand under way (or the last one, once the episode is over).
        dealt: the six cards each seat was dealt first in this hand.
    """

    num_actions = NUM_ACTIONS
    name_of = staticmethod(action_text)
    penalty_of = staticmethod(default_penalty)
    hand_text = staticmethod(table_text)
    rules: KlaberjassRules
    observer: Observer
    hand: KlaberjassHand

    def __init__(
        self,
        rng: random.Random,
        rules: KlaberjassRules = BOOK,
        reward: RewardKind = "margin",
        observer: Observer | None = None,
    ) -> None:
        self._start(rng, rules, reward, Observer(rules) if observer is None else observer)
        self.match = KlaberjassMatch(rules, first_dealer=rng.randrange(2))
        self._next_hand()

    def _deal(self) -> KlaberjassHand:
        hand = self.match.new_hand(shuffled_deck(self._rng, DECK))
        self.dealt = first_dealt(self.match)
        return hand

    def observe(self, seat: int, legal: list[int] | None = None) -> Observation:
        """What ``seat`` sees now, through :attr:`observer`."""
        return self.observer.observe(self.match, seat, self.dealt[seat], legal)

    def scores(self) -> tuple[int, int] | None:
        """Both seats' scores in the hand under way, once it is over."""
        outcome = self.hand.outcome()
        return None if outcome is None else outcome.scores

    @staticmethod
    def engine_action(index: int) -> int:
        return ENGINE_ACTIONS[index]

    def _legal_now(self) -> list[int]:
        index = INDEX_OF_ACTION
        return [index[action] for action in self.hand.legal_actions()]

    def _game_over(self) -> bool:
        return self.match.is_over()

    def _winner(self) -> int | None:
        return self.match.winner()


class BotOpponent(ViewOpponent):
    """The computer player of a level of :data:`~umtali.games.klaberjass.bots.BOTS` as an
    opponent in an environment: it chooses from its seat's
    :class:`~umtali.games.klaberjass.view.KlaberjassView` only."""

    title = "Klaberjass"
    bots = BOTS
    episode_type = Episode

    def bot_move(self, episode: Episode, rng: random.Random) -> int:
        return self.move_in(episode.match, rng)

    def row_move(self, batch: Any, row: int, rng: random.Random) -> int:
        return self.move_in(batch.matches[row], rng)

    def move_in(self, match: KlaberjassMatch, rng: random.Random) -> int:
        """The bot's move in the hand under way of ``match``, from the view of the seat
        to move."""
        view = KlaberjassView.of(match, match.hands[-1].player)
        return index_of(self.bot.choose(view, rng))
