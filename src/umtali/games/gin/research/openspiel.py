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

import copy
import random
from collections.abc import Callable, Sequence
from typing import Any, Final

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
    FlatObserver,
    HandGame,
    OpenSpielOptionError,
    PartsObserver,
    ResampleError,
    encoding_parameter,
    game_type,
    hand_info,
    hand_returns,
    preset_and_dealer,
    redealt,
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

_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)


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

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        self.rules, self.dealer = preset_and_dealer(given, GIN_PRESETS, "standard")
        self.encoding = encoding_parameter(given)
        super().__init__(GAME_TYPE, game_info(self.rules), given)

    def new_initial_state(self) -> GinState:
        """The hand before the deal: a chance node."""
        return GinState(self)

    def new_observer(self, perfect_recall: bool) -> Observer:
        """A flat observer of this game's rules."""
        return Observer(
            self.rules, perfect_recall=perfect_recall, flat=True, encoding=self.encoding
        )

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


class _Table:
    """The Python side of a :class:`GinState`, in one object for OpenSpiel's clone and
    serialisation.

    Attributes:
        rules: the rule options.
        dealer: the dealer's seat.
        deck: the cards laid down so far, in deck order (the chance outcomes).
        game: the engine's game of one hand, once the deck is complete.
        dealt: the ten cards each seat was dealt.
        seen: for each seat, every sight it had (:func:`seen_text`), in order.
    """

    def __init__(self, rules: GinRules, dealer: int) -> None:
        self.rules = rules
        self.dealer = dealer
        self.deck: list[int] = []
        self.game: GinGame | None = None
        self.dealt: tuple[int, int] = (0, 0)
        self.seen: tuple[list[str], list[str]] = ([], [])

    def __deepcopy__(self, memo: dict[int, object]) -> _Table:
        other = _Table(self.rules, self.dealer)
        other.deck = list(self.deck)
        other.game = copy.deepcopy(self.game, memo)
        other.dealt = self.dealt
        other.seen = (list(self.seen[0]), list(self.seen[1]))
        return other

    @property
    def hand(self) -> GinHand | None:
        return None if self.game is None else self.game.hands[-1]

    def lay(self, card: int) -> None:
        """The next card of the deck; the last one deals the hand."""
        self.deck.append(card)
        if len(self.deck) < DECK_SIZE:
            return
        game = GinGame(self.rules, first_dealer=self.dealer)
        hand = game.new_hand(self.deck)
        self.game = game
        self.dealt = hand.hands
        self._show()

    def play(self, index: int) -> None:
        hand = self.hand
        assert hand is not None
        hand.push(index)
        self._show()

    def _show(self) -> None:
        """Let each seat look at the table."""
        hand = self.hand
        assert hand is not None
        for seat in (0, 1):
            self.seen[seat].append(seen_text(GinView.of(hand, seat)))

    def unlaid(self) -> list[int]:
        """The cards not laid down yet: the chance outcomes now."""
        laid = set(self.deck)
        return [card for card in range(DECK_SIZE) if card not in laid]


class GinState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type stubs
    """A hand in play (see the module); made by :meth:`GinSpielGame.new_initial_state`."""

    def __init__(self, game: GinSpielGame) -> None:
        super().__init__(game)
        self.table = _Table(game.rules, game.dealer)

    def current_player(self) -> int:
        """The seat to move, or OpenSpiel's chance or terminal player."""
        hand = self.table.hand
        if hand is None:
            return _CHANCE
        if hand.is_over():
            return _TERMINAL
        return hand.player

    def _legal_actions(self, player: int) -> list[int]:
        hand = self.table.hand
        assert hand is not None
        assert player == hand.player
        return hand.legal_actions()  # increasing, as OpenSpiel wants

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each card not yet laid down, equally likely."""
        cards = self.table.unlaid()
        p = 1.0 / len(cards)
        return [(card, p) for card in cards]

    def _apply_action(self, action: int) -> None:
        table = self.table
        if table.game is None:
            table.lay(action)
        else:
            table.play(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return f"deal {card_ascii(action)}"
        return action_text(action)

    def is_terminal(self) -> bool:
        hand = self.table.hand
        return hand is not None and hand.is_over()

    def returns(self) -> list[float]:
        """Each player's hand score less the other's, once the hand is over."""
        hand = self.table.hand
        outcome = None if hand is None else hand.outcome
        return hand_returns(None if outcome is None else outcome.scores)

    def __str__(self) -> str:
        table = self.table
        hand = table.hand
        if hand is None:
            return f"dealing: {' '.join(card_ascii(c) for c in table.deck)}"
        return table_text(hand)

    # -- search --------------------------------------------------------------------------
    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> GinState:
        """A state ``player_id`` cannot tell from this one: the cards he has not seen
        (the other's unknown cards, the stock) dealt again at random, the same moves
        replayed. A deal is kept only if every move stays legal and his information
        state string comes out the same; :class:`ResampleError` if none of
        :data:`RESAMPLE_TRIES` does. ``probability_sampler`` gives a float in [0, 1)
        that seeds the deals."""
        table = self.table
        hand = table.hand
        if hand is None or hand.is_over():
            raise ResampleError("only a player's turn can be resampled, not the deal or the end")
        view = GinView.of(hand, player_id)
        seen = table.dealt[player_id] | seen_cards(view, hand.deck[UPCARD_INDEX])
        moves = [action for _, action in hand.history]
        wanted = table.seen[player_id]
        game = self.get_game()

        def world_of(deck: list[int]) -> GinState | None:
            world = play_indices(game, deck, moves, strict=False)
            return world if world is not None and world.table.seen[player_id] == wanted else None

        return redealt(
            table.deck,
            [at for at, card in enumerate(table.deck) if not seen >> card & 1],
            random.Random(int(probability_sampler() * 2**53)),
            world_of,
            tries=RESAMPLE_TRIES,
            player=player_id,
        )


class GinObserver(FlatObserver):
    """OpenSpiel's Python observer: ``tensor`` (float32) and its named views ``dict``
    (:class:`~umtali.rl.spiel.FlatObserver`), written by :meth:`set_from`;
    :meth:`string_from` for the strings. The tensor is the flat observation vector of
    :class:`~umtali.games.gin.research.observation.Observer`; during the deal it is all
    zero."""

    def __init__(self, observer: Observer) -> None:
        super().__init__(observer, observer.array_spaces())
        self.observer = observer

    def set_from(self, state: GinState, player: int) -> None:
        """Write what ``player`` sees of ``state`` into :attr:`tensor`."""
        table = state.table
        if table.game is None:
            self.tensor.fill(0.0)
            return
        obs = self.observer.observe(table.game, player)
        self.tensor[:] = obs["observation"]

    def string_from(self, state: GinState, player: int) -> str:
        """The information state (with perfect recall) or the observation, as text."""
        table = state.table
        if self.observer.perfect_recall:
            return "\n".join([f"player_{player}", *table.seen[player]])
        hand = table.hand
        if hand is None:
            return f"player_{player}: the cards are being dealt"
        return seen_text(GinView.of(hand, player))


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
