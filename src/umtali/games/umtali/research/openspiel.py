"""Umtali as an OpenSpiel game: one hand between two players, registered with
``pyspiel`` as ``"python_umtali"`` when this module is imported.

>>> import pyspiel
>>> import umtali.games.umtali.research.openspiel
>>> game = pyspiel.load_game("python_umtali")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())  # the deal, a card at a time
(True, 52)

Chance is explicit, and the deck is revealed only as it is used: 21 chance nodes deal the
deck's first 21 cards (:mod:`umtali.kernel.deck`: ten to each player and the 11th card, or the
upcard), and each draw from the stock is a chance node of its own, whose outcomes are
the cards nobody has seen come out of the deck. A chance outcome is a card id (0..51,
:mod:`umtali.kernel.cards`); a player's action is an index of :mod:`umtali.games.umtali.research.actions`. Under
the standard rules the dealer then chooses ``keep`` or ``give`` (R1) before anyone looks
at a card, as the engine has it: the deal coming first changes nothing anybody knows.

A list of actions therefore replays a hand exactly (:func:`play_indices`), and
``pyspiel.serialize_game_and_state`` (the history with the state's Python side, pickled)
restores one.

* Returns: at the end of the hand, each player's hand score less the other's (R9).
* Observations (:class:`UmtaliObserver`): the ``observation`` vector of
  :class:`umtali.games.umtali.research.observation.Observer` (its ``cards``, ``pile``, ``counts`` and
  ``flags`` as named views); the information state adds ``history``,
  every move as the player saw it (perfect recall). Strings: the observation is the
  table as the player sees it now; the information state is everything he was shown,
  in order, his own draws with their cards.
* :meth:`UmtaliState.resample_from_infostate` deals the cards a player cannot see again
  at random (:func:`umtali.games.umtali.view.determinize`), which OpenSpiel's Python IS-MCTS calls.

Game parameters: ``rules`` (a preset of :data:`umtali.games.umtali.rules.PRESETS`: ``"standard"``,
the default, or ``"practical"``) and ``dealer`` (the seat that deals, 0 or 1; 0).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

from umtali.games.umtali.deal import FIRST_STOCK_INDEX, UPCARD_INDEX
from umtali.games.umtali.moves import Move, MoveKind
from umtali.games.umtali.research.actions import (
    DRAW,
    ENGINE_ACTIONS,
    INDEX_OF_ACTION,
    NUM_ACTIONS,
    move_of,
)
from umtali.games.umtali.research.observation import MAX_CARD_POINTS, Observer, max_moves
from umtali.games.umtali.rules import PRESETS, RuleSet
from umtali.games.umtali.state import HandState
from umtali.games.umtali.terms import Phase
from umtali.games.umtali.view import PlayerView, determinize
from umtali.kernel.cards import ALL_CARDS, CardSet, card_name, cards_of
from umtali.kernel.players import player_name
from umtali.rl.shared import DEFAULT_ENCODING
from umtali.rl.spiel import (
    FlatObserver,
    OpenSpielOptionError,
    encoding_parameter,
    game_type,
    hand_returns,
    one_players_recall,
    preset_and_dealer,
)

__all__ = [
    "GAME_NAME",
    "GAME_TYPE",
    "OpenSpielOptionError",
    "UmtaliGame",
    "UmtaliObserver",
    "UmtaliState",
    "game_info",
    "max_margin",
    "play_indices",
]

GAME_NAME: Final = "python_umtali"
"""The name ``pyspiel.load_game`` knows the game by."""

DEALT: Final = FIRST_STOCK_INDEX
"""Chance nodes of the deal: the deck's cards before the stock."""

STOCK_SIZE: Final = 52 - DEALT
"""Cards in the stock after the deal: at most this many draws, each a chance node."""

_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)


GAME_TYPE: Final = game_type(
    GAME_NAME, "Umtali (one hand)", {"rules": "standard", "dealer": 0, "encoding": DEFAULT_ENCODING}
)
"""The facts OpenSpiel registers the game with."""


def max_margin(rules: RuleSet) -> int:
    """The most one player can win a hand by: every card's points (R9), a marriage
    counting its multiplier, all of it to one side.

    >>> from umtali.games.umtali.rules import STANDARD
    >>> max_margin(STANDARD)
    156
    """
    return MAX_CARD_POINTS + 4 * 10 * (rules.marriage_multiplier - 1)


def game_info(rules: RuleSet) -> pyspiel.GameInfo:
    """The game's bounds under ``rules``. ``max_game_length`` counts the players'
    decisions (OpenSpiel's chance nodes are not moves): :func:`max_moves` bounds them,
    the turn cap (R8) ending every hand."""
    margin = float(max_margin(rules))
    return pyspiel.GameInfo(
        num_distinct_actions=NUM_ACTIONS,
        max_chance_outcomes=52,
        num_players=2,
        min_utility=-margin,
        max_utility=margin,
        utility_sum=0.0,
        max_game_length=max_moves(rules),
    )


class UmtaliGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type stubs
    """One hand of Umtali (see the module). ``params`` are OpenSpiel's game parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        self.rules, self.dealer = preset_and_dealer(given, PRESETS, "standard")
        self.encoding = encoding_parameter(given)
        super().__init__(GAME_TYPE, game_info(self.rules), given)
        self._observers: dict[bool, Observer] = {}

    def new_initial_state(self) -> UmtaliState:
        """The hand before the deal: a chance node."""
        return UmtaliState(self)

    def max_chance_nodes_in_history(self) -> int:
        """The deal and a draw of every stock card."""
        return DEALT + STOCK_SIZE

    def make_py_observer(
        self,
        iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: dict[str, Any] | None = None,
    ) -> UmtaliObserver:
        """The observer of ``iig_obs_type``: what one player sees (perfect recall or
        not). Observations of the whole table or of the public part alone are not
        offered."""
        recall = one_players_recall("Umtali", iig_obs_type, params)
        return UmtaliObserver(self.observer(recall))

    def observer(self, perfect_recall: bool) -> Observer:
        """The flat :class:`~umtali.games.umtali.research.observation.Observer` of this game's rules, one
        kept per kind."""
        found = self._observers.get(perfect_recall)
        if found is None:
            found = Observer(
                self.rules, perfect_recall=perfect_recall, flat=True, encoding=self.encoding
            )
            self._observers[perfect_recall] = found
        return found


# -- the state -------------------------------------------------------------------------
def _seen_text(action: int, actor: int, viewer: int) -> str:
    """Move ``action`` of ``actor`` as ``viewer`` saw it: a face-down discard of the
    other player's shows no card."""
    move = Move.from_action(action)
    who = player_name(actor)
    if actor != viewer and move.face_down:
        if move.kind is MoveKind.DISCARD:
            return f"{who}: discard, face down"
        closing = move.text().split(" discard ")[0]
        return f"{who}: {closing}, discard face down"
    return f"{who}: {move.text()}"


_Recalled = tuple[npt.NDArray[np.int16], int]
"""A player's ``history`` rows before his hand was dealt again, and how many moves."""


class _Hand:
    """The Python side of an :class:`UmtaliState`, in one object so that OpenSpiel's
    clone (a deep copy of the state's attributes) costs one :meth:`HandState.clone`.

    Attributes:
        rules: the rule options.
        dealer: the dealer's seat.
        dealt: the cards dealt so far, in deck order (the first 21 chance outcomes).
        state: the engine's hand once the deal is done (``None`` during it). Its stock
            holds the unseen cards in card order until each is drawn (see
            :meth:`reveal`).
        drawing: whether a draw from the stock waits for its card (a chance node).
        seen: for each seat, what it has been shown, in order (its information state).
        recalled: for each seat, ``None``; or, in a hand dealt again from that seat's
            information (:meth:`UmtaliState.resample_from_infostate`), the ``history``
            rows of the moves before (:meth:`umtali.games.umtali.research.observation.Observer.history`)
            and how many moves they are, which the engine's hand, new at that point,
            does not hold.
    """

    __slots__ = ("dealer", "dealt", "drawing", "recalled", "rules", "seen", "state")

    def __init__(self, rules: RuleSet, dealer: int) -> None:
        self.rules = rules
        self.dealer = dealer
        self.dealt: list[int] = []
        self.state: HandState | None = None
        self.drawing = False
        self.seen: tuple[list[str], list[str]] = ([], [])
        self.recalled: tuple[_Recalled | None, _Recalled | None] = (None, None)

    def __deepcopy__(self, memo: dict[int, object]) -> _Hand:
        other = _Hand.__new__(_Hand)
        other.rules = self.rules  # immutable, shared
        other.dealer = self.dealer
        other.dealt = list(self.dealt)
        other.state = None if self.state is None else self.state.clone()
        other.drawing = self.drawing
        other.seen = (list(self.seen[0]), list(self.seen[1]))
        other.recalled = self.recalled  # never changed once set: shared
        return other

    def __getstate__(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, fields: dict[str, object]) -> None:
        for name, value in fields.items():
            setattr(self, name, value)

    def deal(self, card: int) -> None:
        """The next card of the deal; the 21st starts the hand."""
        self.dealt.append(card)
        if len(self.dealt) < DEALT:
            return
        known = 0
        for c in self.dealt:
            known |= 1 << c
        # The stock's order is not chosen yet: each draw puts its card on top (reveal).
        state = HandState([*self.dealt, *cards_of(ALL_CARDS & ~known)], self.dealer, self.rules)
        self.state = state.forget_undo()  # OpenSpiel copies states; nobody pops
        self._after_deal()

    def _after_deal(self) -> None:
        """Show each seat its cards once the engine has dealt them (at once, or after
        the dealer's choice under R1)."""
        state = self.state
        assert state is not None
        if state.phase == Phase.CHOOSE:
            return
        for seat in (0, 1):
            self.seen[seat].append(f"dealt: {CardSet(state.hands[seat])}")
            if state.pile:
                self.seen[seat].append(f"upcard: {card_name(self.dealt[UPCARD_INDEX])}")

    def play(self, index: int) -> None:
        """A player's move; a draw from the stock waits for its card (:meth:`reveal`)."""
        state = self.state
        assert state is not None
        actor = state.player
        action = ENGINE_ACTIONS[index]
        for seat in (0, 1):
            self.seen[seat].append(_seen_text(action, actor, seat))
        if index == DRAW:
            self.drawing = True
            return
        choosing = state.phase == Phase.CHOOSE
        state.push(action)
        if choosing:
            self._after_deal()

    def reveal(self, card: int) -> None:
        """The card the waiting draw brings: put on top of the stock, then drawn.

        Until now the stock's order was no fact of the hand (no move reads the order of
        cards nobody has seen), so choosing the top card here changes nothing else."""
        state = self.state
        assert state is not None
        assert self.drawing
        state.place_next_draw(card)
        self.seen[state.player].append(f"drew {card_name(card)}")
        self.drawing = False
        state.push(ENGINE_ACTIONS[DRAW])

    def unseen_cards(self) -> list[int]:
        """The cards still to come out of the deck: the chance outcomes now."""
        state = self.state
        if state is None:
            out = 0
            for c in self.dealt:
                out |= 1 << c
            return cards_of(ALL_CARDS & ~out)
        return sorted(state.stock[state.stock_pos :])


class UmtaliState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type stubs
    """A hand in play (see the module); made by :meth:`UmtaliGame.new_initial_state`."""

    def __init__(self, game: UmtaliGame) -> None:
        super().__init__(game)
        self.hand = _Hand(game.rules, game.dealer)

    # -- OpenSpiel's API ---------------------------------------------------------------
    def current_player(self) -> int:
        """The seat to move, or OpenSpiel's chance or terminal player."""
        hand = self.hand
        state = hand.state
        if state is None or hand.drawing:
            return _CHANCE
        if state.is_over():
            return _TERMINAL
        return state.player

    def _legal_actions(self, player: int) -> list[int]:
        state = self.hand.state
        assert state is not None
        assert player == state.player
        index = INDEX_OF_ACTION
        return sorted(index[a] for a in state.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each card still to come out of the deck, equally likely."""
        cards = self.hand.unseen_cards()
        p = 1.0 / len(cards)
        return [(c, p) for c in cards]

    def _apply_action(self, action: int) -> None:
        hand = self.hand
        if hand.state is None:
            hand.deal(action)
        elif hand.drawing:
            hand.reveal(action)
        else:
            hand.play(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            what = "draw" if self.hand.state is not None else "deal"
            return f"{what} {card_name(action)}"
        return move_of(action).text()

    def is_terminal(self) -> bool:
        state = self.hand.state
        return state is not None and state.is_over()

    def returns(self) -> list[float]:
        """Each player's hand score less the other's, once the hand is over."""
        state = self.hand.state
        outcome = None if state is None else state.outcome()
        return hand_returns(None if outcome is None else outcome.scores)

    def __str__(self) -> str:
        hand = self.hand
        state = hand.state
        if state is None:
            return f"dealing: {' '.join(card_name(c) for c in hand.dealt)}"
        lines = [repr(state)]
        for seat in (0, 1):
            columns = ", ".join(str(c) for c in state.table(seat)) or "nothing"
            lines.append(f"{player_name(seat)} table: {columns}")
        pile = " ".join(
            f"{card_name(card)}{' (down)' if down else ''}" for card, down in state.discard_pile()
        )
        lines.append(f"pile: {pile or 'empty'}; stock {state.stock_size()}")
        if hand.drawing:
            lines.append("a card is being drawn")
        if hand.recalled != (None, None):
            lines.append("(dealt again from one player's information, for a search)")
        return "\n".join(lines)

    # -- search --------------------------------------------------------------------------
    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> UmtaliState:
        """A state ``player_id`` cannot tell from this one: the cards he has not seen
        dealt again at random by :func:`umtali.games.umtali.view.determinize` (which, under
        compulsory play, leaves the opponent no Jack, no meld and nothing the table
        accepted when his last turn ended), his information state, string and tensor,
        the same.

        OpenSpiel's Python IS-MCTS calls this at each simulation. The new state's
        ``history()`` starts here (the other player's past is not dealt again), so it is
        for search, not for replay; the other player's information state in it starts
        from his hand as dealt again. ``probability_sampler`` gives a float in [0, 1)
        that seeds the deal.
        """
        hand = self.hand
        state = hand.state
        seed = int(probability_sampler() * 2**53)
        if state is None or hand.drawing or state.is_over():
            raise OpenSpielOptionError(
                "only a player's turn can be resampled, not a chance or terminal node"
            )
        view = PlayerView.of(state, player_id, with_history=False)
        world = determinize(view, random.Random(seed), undo=False)
        other = 1 - player_id
        resampled = UmtaliState(self.get_game())
        copy = resampled.hand
        copy.dealt = list(hand.dealt)
        copy.state = world
        seen: list[list[str]] = [[], []]
        seen[player_id] = list(hand.seen[player_id])
        seen[other] = [f"resampled: {CardSet(world.hands[other])}"]
        copy.seen = (seen[0], seen[1])
        rows = self.get_game().observer(perfect_recall=True).history(state, player_id)
        recalled: list[_Recalled | None] = [None, None]
        recalled[player_id] = (rows, len(state.history))
        copy.recalled = (recalled[0], recalled[1])
        return resampled


# -- observations --------------------------------------------------------------------------
class UmtaliObserver(FlatObserver):
    """OpenSpiel's Python observer: ``tensor`` (float32) and its named views ``dict``
    (:class:`~umtali.rl.spiel.FlatObserver`), written by :meth:`set_from`;
    :meth:`string_from` for the strings.

    The tensor is :class:`~umtali.games.umtali.research.observation.Observer`'s flat vector (its parts are
    the views); during the deal, before anyone holds a card, it is all zero.
    """

    def __init__(self, observer: Observer) -> None:
        arrays = observer.array_spaces()
        super().__init__(observer, arrays)
        self.observer = observer

    def set_from(self, state: UmtaliState, player: int) -> None:
        """Write what ``player`` sees of ``state`` into :attr:`tensor`."""
        hand = state.hand.state
        if hand is None:
            self.tensor.fill(0.0)
            return
        observer = self.observer
        self.tensor[:] = observer.observe(hand, player)["observation"]
        recalled = state.hand.recalled[player]
        if recalled is not None and observer.perfect_recall:
            # A hand dealt again: the moves before it, then its own.
            rows, before = recalled
            joined = rows.copy()
            since = observer.history(hand, player)
            joined[before:] = since[: len(joined) - before]
            self.dict["history"][:] = observer.encode_history(joined)

    def string_from(self, state: UmtaliState, player: int) -> str:
        """The information state (with perfect recall) or the observation, as text."""
        if self.observer.perfect_recall:
            lines = [player_name(player), *state.hand.seen[player]]
            return "\n".join(lines)
        return _table_seen(state, player)


def _table_seen(state: UmtaliState, player: int) -> str:
    """What ``player`` sees now, as text: the observation string."""
    hand = state.hand.state
    if hand is None:
        return f"{player_name(player)}: the cards are being dealt"
    view = PlayerView.of(hand, player, with_history=False)
    pile = " ".join("▒" if c is None else card_name(c) for c in view.discard_pile)
    lines = [
        f"{player_name(player)}, turn {view.turn}, {view.phase.name.lower()},"
        f" {player_name(view.to_move)} to move{', last turn' if view.last_turn else ''}",
        f"hand: {view.hand}",
        f"opponent holds {view.opponent_hand_size}, known: {view.opponent_known}",
        f"stock {view.stock_size}; pile: {pile or 'empty'}",
    ]
    for seat in (0, 1):
        columns = ", ".join(str(c) for c in view.tables[seat]) or "nothing"
        lines.append(f"{player_name(seat)} table ({view.points[seat]}): {columns}")
    if view.taken_this_turn:
        lines.append(f"taken this turn: {view.taken_this_turn}")
    return "\n".join(lines)


def play_indices(game: UmtaliGame, actions: Sequence[int]) -> UmtaliState:
    """A new state of ``game`` after ``actions`` (chance outcomes and moves, as
    ``state.history()`` lists them).

    >>> import pyspiel
    >>> game = pyspiel.load_game(GAME_NAME)
    >>> state = play_indices(game, range(21))  # the deck's first 21 cards in card order
    >>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()]
    (0, ['keep', 'give'])
    """
    state = game.new_initial_state()
    for action in actions:
        state.apply_action(int(action))
    return state


pyspiel.register_game(GAME_TYPE, UmtaliGame)
