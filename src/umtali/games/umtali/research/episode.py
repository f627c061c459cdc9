"""One episode of Umtali for the environments: a hand, or a game of hands, dealt from a
seeded RNG, stepped by action index, with its rewards; and the computer as an opponent.
:class:`Episode` is Umtali's :class:`umtali.rl.encoding.Episode`.

The environments (:mod:`umtali.rl.pettingzoo`, :mod:`umtali.rl.gym`) differ in who
plays; what a move does, when the episode ends and what it pays are here, once.

* ``reward="margin"``: the episode is one hand; at its end each player receives his hand
  score less the opponent's (R9), so the two rewards sum to zero.
* ``reward="game"``: the episode is a game (R10: ``rules.hands_per_game`` hands, the
  dealer of each after the first being the winner of the last, R1); at its end the winner
  receives 1 and the loser -1 (0 each for a drawn game), and nothing before.

>>> import random
>>> episode = Episode(random.Random(4))
>>> while episode.step(episode.legal()[0]) is None:
...     pass
>>> episode.state.is_over(), sum(episode.final_rewards())
(True, 0.0)
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt

from umtali.games.umtali.bots import make_bot
from umtali.games.umtali.match import Match
from umtali.games.umtali.research.actions import (
    ENGINE_ACTIONS,
    INDEX_OF_ACTION,
    NUM_ACTIONS,
    index_of,
    legal_mask,
    move_of,
)
from umtali.games.umtali.research.observation import Observer
from umtali.games.umtali.rules import STANDARD, RuleSet
from umtali.games.umtali.state import HandState
from umtali.games.umtali.view import PlayerView
from umtali.kernel.cards import card_name
from umtali.kernel.deck import shuffled_deck
from umtali.rl.encoding import (
    ILLEGAL_CHOICES,
    REWARDS,
    IllegalActionError,
    Observation,
    RewardKind,
)
from umtali.rl.shared import (
    ViewOpponent,
    checked_index,
    checked_reward,
    margin_rewards,
    seat_rewards,
)

__all__ = [
    "ILLEGAL_CHOICES",
    "REWARDS",
    "BotOpponent",
    "Episode",
    "IllegalActionError",
    "RewardKind",
    "default_penalty",
]


class Episode:
    """A hand or a game (see the module) between seats 0 and 1, dealt from ``rng``,
    shown to each seat through ``observer`` (by default the dict of arrays of
    ``rules``).

    Attributes:
        rules: the rule options.
        reward: ``"margin"`` or ``"game"``.
        observer: what :meth:`observe` shows a seat through.
        to_move: the seat to move (the hand's player: once it is over, the last one
            that moved), kept up to date by :meth:`step`.
        match: the hands so far (:class:`umtali.games.umtali.match.Match`).
        state: the hand under way (or the last one, once the episode is over).
        game_scores: both players' game totals before this hand.
        hands_left: hands still to come in the game after this one.
    """

    def __init__(
        self,
        rng: random.Random,
        rules: RuleSet = STANDARD,
        reward: RewardKind = "margin",
        observer: Observer | None = None,
    ) -> None:
        self.rules = rules
        self.reward = checked_reward(reward)
        self.observer = Observer(rules) if observer is None else observer
        self._rng = rng
        self.match = Match(
            rules, kind="hand" if reward == "margin" else "game", first_dealer=rng.randrange(2)
        )
        self.game_scores: tuple[int, int] = (0, 0)
        self.hands_left = 0
        self._legal_of: list[int] | None = None  # the engine's list that _legal indexes
        self._legal: list[int] = []
        self.state = self._deal()
        self.to_move = self.state.player

    def _deal(self) -> HandState:
        match = self.match
        state = match.new_hand(shuffled_deck(self._rng)).forget_undo()  # nobody pops here
        if match.kind == "game":
            per = self.rules.hands_per_game
            in_game = (len(match.hands) - 1) % per
            self.game_scores = match.game_totals() if in_game else (0, 0)
            self.hands_left = per - in_game - 1
        return state

    def is_over(self) -> bool:
        """Whether the episode has ended (its last hand is over)."""
        return self.state.is_over()

    def observe(self, seat: int, legal: list[int] | None = None) -> Observation:
        """What ``seat`` sees now, through :attr:`observer`."""
        return self.observer.observe(self.state, seat, self.game_scores, self.hands_left, legal)

    def mask(self, seat: int) -> npt.NDArray[np.bool_]:
        """``seat``'s legal moves as a boolean mask (all false when he is not to move)."""
        if self.state.player != seat:
            return np.zeros(NUM_ACTIONS, np.bool_)
        return legal_mask(self.state)

    def scores(self) -> tuple[int, int] | None:
        """Both seats' scores in the hand under way, once it is over."""
        outcome = self.state.outcome()
        return None if outcome is None else outcome.scores

    def legal(self) -> list[int]:
        """The legal action indices now, in the engine's order. Kept until the next
        move (the observation's mask and a policy read the same list): do not change it."""
        actions = self.state.legal_actions()
        if actions is not self._legal_of:  # the engine makes a new list after each move
            self._legal_of = actions
            self._legal = list(map(INDEX_OF_ACTION.__getitem__, actions))
        return self._legal

    def is_legal(self, index: int) -> bool:
        """Whether action ``index`` is a legal move now (an int outside the space is not)."""
        return 0 <= index < NUM_ACTIONS and ENGINE_ACTIONS[index] in self.state.legal_actions()

    def check(self, index: object) -> int:
        """``index`` as an int if it is a legal move now, else :class:`IllegalActionError`
        naming the move and the player to move. Numpy's ints are ints here (a space's
        ``sample()`` gives one)."""
        return checked_index(
            index,
            num_actions=NUM_ACTIONS,
            is_legal=self.is_legal,
            name_of=lambda value: str(move_of(value)),
            player=self.state.player,
        )

    def step(self, index: int) -> tuple[float, float] | None:
        """Play the legal action ``index`` (checked by the caller). When it ends the
        episode, return both seats' rewards; else deal the next hand of a game if this
        one ended, and return ``None``."""
        state = self.state
        state.push(ENGINE_ACTIONS[index])
        self.to_move = state.player
        if not state.is_over():
            return None
        if self.match.is_over():
            return self.final_rewards()
        self.state = self._deal()
        self.to_move = self.state.player
        return None

    def final_rewards(self) -> tuple[float, float]:
        """Both seats' rewards of the finished episode (see the module)."""
        if self.reward == "game":
            winner = self.match.winner()
            return (0.0, 0.0) if winner is None else seat_rewards(winner, 1.0)
        outcome = self.state.outcome()
        if outcome is None:
            raise ValueError("the episode is not over: its rewards come at its end")
        return margin_rewards(outcome.scores)

    def table_text(self) -> str:
        """The hand under way as text, both hands shown: the table as an onlooker with
        every card face up would see it (what the environments render)."""
        state = self.state
        lines = [repr(state)]
        for seat in (0, 1):
            columns = ", ".join(str(c) for c in state.table(seat)) or "nothing"
            lines.append(f"player_{seat} has on the table: {columns}")
        pile = " ".join("▒" if down else card_name(card) for card, down in state.discard_pile())
        lines.append(f"discard pile, bottom to top: {pile or 'empty'}")
        return "\n".join(lines)

    def illegal_rewards(self, offender: int, penalty: float | None) -> tuple[float, float]:
        """Both seats' rewards when ``offender`` ends the episode with an illegal action:
        ``penalty`` for him (by default :func:`default_penalty`), its negative for the
        other."""
        return seat_rewards(offender, default_penalty(self.reward) if penalty is None else penalty)


def default_penalty(reward: RewardKind) -> float:
    """What an illegal action costs by default: a lost game, or a hand lost by 100
    points, more than any hand is lost by in play (of 3,000 hands of random play, the
    median margin was 12 points, one in a hundred reached 50 and the largest was 69).

    >>> default_penalty("game"), default_penalty("margin")
    (-1.0, -100.0)
    """
    return -1.0 if reward == "game" else -100.0


class BotOpponent(ViewOpponent):
    """The computer player of a level of :data:`~umtali.games.umtali.bots.BOTS` as an
    opponent in an environment: it chooses from its seat's
    :class:`~umtali.games.umtali.view.PlayerView` only, the same way for the same RNG."""

    title = "Umtali"
    episode_type = Episode

    def __init__(self, level: str) -> None:
        self.level = level
        self.bot = make_bot(level, reproducible=True)

    def bot_move(self, episode: Episode, rng: random.Random) -> int:
        return self.move_in(episode.state, rng, episode.game_scores, episode.hands_left)

    def row_move(self, batch: Any, row: int, rng: random.Random) -> int:
        return self.move_in(batch.states[row], rng)

    def move_in(
        self,
        state: HandState,
        rng: random.Random,
        game_scores: tuple[int, int] = (0, 0),
        hands_left: int = 0,
    ) -> int:
        """The bot's move in ``state`` (a hand of a game at ``game_scores`` with
        ``hands_left`` to come, or a lone hand), from the view of the seat to move."""
        view = PlayerView.of(state, state.player, game_scores, hands_left, with_history=False)
        return index_of(self.bot.choose(view, rng))
