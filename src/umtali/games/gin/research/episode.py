"""One episode of Gin Rummy for the environments: a hand, or a game to the rules'
target, dealt from a seeded RNG and stepped by action index, with its rewards; and the
computer as an opponent. :class:`Episode` is Gin Rummy's
:class:`umtali.rl.encoding.Episode` (its masks and checks
:class:`umtali.rl.shared.TurnEpisode`'s).

* ``reward="margin"``: the episode is one hand; at its end each player receives his hand
  score less the other's, as :class:`~umtali.games.gin.state.GinOutcome` scores it (gin,
  knock or undercut, Oklahoma's doubling included), so the two rewards sum to zero. A
  dead hand pays 0.
* ``reward="game"``: the episode is a game (the deal alternating, a dead hand dealt
  again by the same dealer, until a player reaches the target: 100, or Oklahoma's 150);
  at its end the winner receives 1 and the loser -1, and nothing before.

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

from umtali.games.gin.bots import GIN_BOTS
from umtali.games.gin.game import GinGame
from umtali.games.gin.research.actions import NUM_ACTIONS, action_text, index_of
from umtali.games.gin.research.observation import Observer, max_score
from umtali.games.gin.rules import GIN, GIN_PRESETS, GinRules
from umtali.games.gin.state import GinHand
from umtali.games.gin.view import GinView
from umtali.kernel.cards import CardSet, card_ascii
from umtali.kernel.deck import shuffled_deck
from umtali.rl.encoding import Observation, RewardKind
from umtali.rl.shared import TurnEpisode, ViewOpponent

__all__ = ["BotOpponent", "Episode", "default_penalty", "table_text"]


def table_text(hand: GinHand) -> str:
    """``hand`` as an onlooker who sees every card would tell it.

    >>> print(table_text(GinHand.from_seed(7)))  # doctest: +ELLIPSIS
    player_0 deals; player_1 to move; knock limit 10; stock 31; pile top ...
    player_0 holds ... (deadwood ...)
    player_1 holds ... (deadwood ...)
    """
    mover = "over" if hand.is_over() else f"player_{hand.player} to move"
    top = hand.top_discard()
    doubled = "; doubled" if hand.multiplier == 2 else ""
    lines = [
        f"player_{hand.dealer} deals; {mover}; knock limit {hand.knock_limit}{doubled};"
        f" stock {hand.stock_size()}; pile top {'-' if top is None else card_ascii(top)}"
    ]
    for seat in (0, 1):
        lines.append(
            f"player_{seat} holds {CardSet(hand.hands[seat])} (deadwood {hand.deadwood(seat)})"
        )
    outcome = hand.outcome
    if outcome is not None:
        lines.append(f"{outcome.how}: scores {outcome.scores[0]} and {outcome.scores[1]}")
    return "\n".join(lines)


def default_penalty(reward: RewardKind) -> float:
    """What an illegal action costs by default: a lost game, or a hand lost by more than
    any hand of either preset can be lost by in play (:func:`max_score`: 125, Oklahoma's
    225).

    >>> default_penalty("game"), default_penalty("margin")
    (-1.0, -300.0)
    """
    assert all(max_score(rules) < 300 for rules in GIN_PRESETS.values())
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
        game: the hands so far (:class:`~umtali.games.gin.game.GinGame`).
        hand: the hand under way (or the last one, once the episode is over).
    """

    num_actions = NUM_ACTIONS
    name_of = staticmethod(action_text)
    penalty_of = staticmethod(default_penalty)
    hand_text = staticmethod(table_text)
    rules: GinRules
    observer: Observer
    hand: GinHand

    def __init__(
        self,
        rng: random.Random,
        rules: GinRules = GIN,
        reward: RewardKind = "margin",
        observer: Observer | None = None,
    ) -> None:
        self._start(rng, rules, reward, Observer(rules) if observer is None else observer)
        self.game = GinGame(rules, first_dealer=rng.randrange(2))
        self._next_hand()

    def _deal(self) -> GinHand:
        return self.game.new_hand(shuffled_deck(self._rng))

    def observe(self, seat: int, legal: list[int] | None = None) -> Observation:
        """What ``seat`` sees now, through :attr:`observer`."""
        return self.observer.observe(self.game, seat, legal)

    def scores(self) -> tuple[int, int] | None:
        """Both seats' scores in the hand under way, once it is over."""
        outcome = self.hand.outcome
        return None if outcome is None else outcome.scores

    def _legal_now(self) -> list[int]:
        return self.hand.legal_actions()

    def _game_over(self) -> bool:
        return self.game.is_over()

    def _winner(self) -> int | None:
        return self.game.result().winner if self.game.is_over() else None


class BotOpponent(ViewOpponent):
    """The computer player of a level of :data:`~umtali.games.gin.bots.GIN_BOTS` as an
    opponent in an environment: it chooses from its seat's
    :class:`~umtali.games.gin.view.GinView` only."""

    title = "Gin Rummy"
    bots = GIN_BOTS
    episode_type = Episode

    def bot_move(self, episode: Episode, rng: random.Random) -> int:
        return self.move_in(episode.hand, rng)

    def row_move(self, batch: Any, row: int, rng: random.Random) -> int:
        return self.move_in(batch.hand(row), rng)

    def move_in(self, hand: GinHand, rng: random.Random) -> int:
        """The bot's move in ``hand``, from the view of the seat to move."""
        return index_of(self.bot.choose(GinView.of(hand, hand.player), rng))
