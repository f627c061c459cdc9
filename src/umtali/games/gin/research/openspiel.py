"""Gin Rummy as an OpenSpiel game: one two-hand hand between two players, registered with
``pyspiel`` as ``"python_gin_rummy"`` when this module is imported (OpenSpiel's own C++
``gin_rummy`` is another implementation, with its own rules and numbering).

>>> import pyspiel
>>> import umtali.games.gin.research.openspiel
>>> game = pyspiel.load_game("python_gin_rummy")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())  # the deal, a card at a time
(True, 52)

Chance is explicit, as the engine has it: the deck order is the hand's chance
(:mod:`umtali.games.gin.state`), so 52 chance nodes lay the deck down a card at a time
before the first move, each outcome a card id (0..51). A player's action is an index of
:mod:`~umtali.games.gin.research.actions` (the engine's own action int). A list of
actions therefore replays a hand exactly (:func:`play_indices`). Knowing the whole
order early tells the players nothing: what each is shown comes from his
:class:`~umtali.games.gin.view.GinView` alone.

* Returns: at the end of the hand, each player's hand score less the other's (a dead
  hand pays 0), as the engine's :class:`~umtali.games.gin.state.GinOutcome` scores it.
* Observations: the tensors are the ``observation`` vector of
  :class:`~umtali.games.gin.research.observation.Observer` (its ``cards``, ``counts``
  and ``flags`` as named views), the information state's adding ``history``, every
  move of the hand as the player saw it. Strings: the observation is the hand as the
  player sees it now; the information state is every such sight of his since the deal,
  in order. During the deal both are empty of cards.
* :meth:`GinState.resample_from_infostate` deals the cards a player has not seen again
  (the other's unknown cards, the stock), keeping only deals under which the moves made
  are legal and he would have seen exactly what he saw.

Game parameters: ``rules`` (a preset of :data:`~umtali.games.gin.rules.GIN_PRESETS`,
``"standard"`` by default, or ``"oklahoma"``) and ``dealer`` (the seat that deals, 0 or
1; 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy.typing as npt
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

from umtali.games.gin.game import GinGame
from umtali.games.gin.research.actions import NUM_ACTIONS, action_text
from umtali.games.gin.research.episode import table_text
from umtali.games.gin.research.observation import Observer, max_moves, max_score, seen_cards
from umtali.games.gin.rules import GIN_PRESETS, GinRules
from umtali.games.gin.state import UPCARD_INDEX, GinHand
from umtali.games.gin.view import GinView
from umtali.kernel.cards import CardSet, card_ascii
from umtali.rl.shared import DEFAULT_ENCODING
from umtali.rl.spiel import (
    HandGame,
    HandObserver,
    HandState,
    HandTable,
    OpenSpielOptionError,
    PartsObserver,
    ResampleError,
    game_type,
    hand_info,
    replayed,
)

__all__ = [
    "GAME_NAME",
    "GAME_TYPE",
    "GinObserver",
    "GinSpielGame",
    "GinState",
    "OpenSpielOptionError",
    "ResampleError",
    "game_info",
    "play_indices",
    "seen_text",
]

GAME_NAME: Final = "python_gin_rummy"
"""The name ``pyspiel.load_game`` knows the game by."""

DECK_SIZE: Final = 52
"""Chance nodes of the deal: one a card of the deck."""

RESAMPLE_TRIES: Final = 1_000
"""Deals :meth:`GinState.resample_from_infostate` tries before it gives up (the first
nearly always does: no move of the other's before the end depends on his hidden cards)."""


GAME_TYPE: Final = game_type(
    GAME_NAME,
    "Gin Rummy (one two-hand hand)",
    {"rules": "standard", "dealer": 0, "encoding": DEFAULT_ENCODING},
)
"""The facts OpenSpiel registers the game with."""


def game_info(rules: GinRules) -> pyspiel.GameInfo:
    """The game's bounds under ``rules``: a margin is at most
    :func:`~umtali.games.gin.research.observation.max_score` either way;
    ``max_game_length`` counts the players' decisions
    (:func:`~umtali.games.gin.research.observation.max_moves`), the deal's chance nodes
    aside."""
    return hand_info(NUM_ACTIONS, DECK_SIZE, max_score(rules), max_moves(rules))


class GinSpielGame(HandGame):
    """One hand of Gin Rummy (see the module). ``params`` are OpenSpiel's parameters;
    its observers are :class:`~umtali.rl.spiel.HandGame`'s."""

    title = "Gin Rummy"
    deck_size = DECK_SIZE
    spiel_type = GAME_TYPE
    presets = GIN_PRESETS
    observer_type = Observer

    def info(self) -> pyspiel.GameInfo:
        return game_info(self.rules)

    def new_initial_state(self) -> GinState:
        """The hand before the deal: a chance node."""
        return GinState(self)

    def py_observer(self, observer: PartsObserver) -> GinObserver:
        """OpenSpiel's Python observer over ``observer``."""
        assert isinstance(observer, Observer)
        return GinObserver(observer)


def seen_text(view: GinView) -> str:
    """What ``view``'s seat sees, as text: the observation string.

    >>> print(seen_text(GinView.of(GinHand.from_seed(7), 1)))  # doctest: +ELLIPSIS
    player_1 (non-dealer), move 0, player_1 to move
    hand: ...
    pile: ...; stock 31; knock limit 10
    player_0 holds 10 cards
    """
    seat = view.seat
    other = 1 - seat
    mover = "over" if view.to_move is None else f"player_{view.to_move} to move"
    role = "dealer" if view.dealer == seat else "non-dealer"
    lines = [f"player_{seat} ({role}), move {len(view.history)}, {mover}"]
    if view.history:
        mover_seat, move = view.history[-1]
        lines[0] += f"; last: player_{mover_seat} {move.text()}"
    lines.append(f"hand: {CardSet(view.hand)}")
    pile = " ".join(card_ascii(card) for card in view.pile) or "-"
    doubled = ", doubled" if view.multiplier == 2 else ""
    lines.append(f"pile: {pile}; stock {view.stock_size}; knock limit {view.knock_limit}{doubled}")
    known = f", known {CardSet(view.opponent_known)}" if view.opponent_known else ""
    lines.append(f"player_{other} holds {view.opponent_cards} cards{known}")
    if view.revealed is not None:
        lines.append(f"player_{other} shows {CardSet(view.revealed)}")
    if view.outcome is not None:
        scores = view.outcome.scores
        lines.append(f"{view.outcome.how}: scores {scores[0]} and {scores[1]}")
    return "\n".join(lines)


class _Table(HandTable[GinGame, GinHand]):
    """The Python side of a :class:`GinState` (:class:`~umtali.rl.spiel.HandTable`): its
    engine is a :class:`~umtali.games.gin.game.GinGame` of one hand, ``dealt`` the ten
    cards each seat was dealt."""

    cards = tuple(range(DECK_SIZE))
    hand_text = staticmethod(table_text)
    card_text = staticmethod(card_ascii)

    def deal(self) -> tuple[GinGame, tuple[int, int]]:
        game = GinGame(self.rules, first_dealer=self.dealer)
        return game, game.new_hand(self.deck).hands

    def seen_text(self, seat: int) -> str:
        assert self.hand is not None
        return seen_text(GinView.of(self.hand, seat))

    def seen_mask(self, seat: int) -> int:
        hand = self.hand
        assert hand is not None
        return self.dealt[seat] | seen_cards(GinView.of(hand, seat), hand.deck[UPCARD_INDEX])

    def observe(self, observer: Any, seat: int) -> npt.NDArray[Any]:
        assert self.engine is not None
        observed: npt.NDArray[Any] = observer.observe(self.engine, seat)["observation"]
        return observed

    def legal_indices(self) -> list[int]:
        assert self.hand is not None
        return self.hand.legal_actions()  # the engine's action ints, increasing

    def scores(self) -> tuple[int, int] | None:
        outcome = None if self.hand is None else self.hand.outcome
        return None if outcome is None else outcome.scores


class GinState(HandState[GinGame, GinHand]):
    """A hand in play (see the module; :class:`~umtali.rl.spiel.HandState`); made by
    :meth:`GinSpielGame.new_initial_state`. :meth:`resample_from_infostate` deals the
    other's unknown cards and the stock again."""

    table_type = _Table
    resample_tries = RESAMPLE_TRIES
    action_text = staticmethod(action_text)


class GinObserver(HandObserver):
    """OpenSpiel's Python observer (:class:`~umtali.rl.spiel.HandObserver`): the tensor
    is the flat observation vector of
    :class:`~umtali.games.gin.research.observation.Observer`."""


def play_indices(
    game: GinSpielGame,
    deal: Sequence[int],
    moves: Sequence[int] = (),
    *,
    strict: bool = True,
) -> GinState | None:
    """A new state of ``game`` after the deal ``deal`` (52 card ids, in deck order) and
    the action indices ``moves``. With ``strict=False``, ``None`` when a move is not
    legal in that deal (else :class:`~umtali.games.gin.state.GinMoveError`).

    >>> game = pyspiel.load_game(GAME_NAME)
    >>> state = play_indices(game, range(52))  # the deck in card order
    >>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()]
    (1, ['take', 'pass'])
    """
    state: GinState | None = replayed(game, deal, moves, strict=strict)
    return state


pyspiel.register_game(GAME_TYPE, GinSpielGame)
