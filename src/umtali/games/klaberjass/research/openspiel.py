"""Klaberjass as an OpenSpiel game: one hand between two players, registered with
``pyspiel`` as ``"python_klaberjass"`` when this module is imported.

>>> import pyspiel
>>> import umtali.games.klaberjass.research.openspiel
>>> game = pyspiel.load_game("python_klaberjass")
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())  # the deal, a card at a time
(True, 32)

Chance is explicit, as the engine has it: the deck order is the hand's chance
(:mod:`umtali.games.klaberjass.state`), so 32 chance nodes lay the deck down a card at a
time before the first bid, each outcome a card's place in
:data:`~umtali.games.klaberjass.research.actions.CARDS` (0..31). A player's action is an
index of :mod:`~umtali.games.klaberjass.research.actions`. A list of actions therefore
replays a hand exactly (:func:`play_indices`). Knowing the whole order early tells the
players nothing: what each is shown comes from his
:class:`~umtali.games.klaberjass.view.KlaberjassView` alone.

* Returns: at the end of the hand, each player's hand score less the other's (the
  maker's rule, ruling K; a thrown-in hand pays 0), as the engine's
  :meth:`~umtali.games.klaberjass.state.KlaberjassHand.outcome` scores it.
* Observations: the tensors are the ``observation`` vector of
  :class:`~umtali.games.klaberjass.research.observation.Observer` (its ``cards``,
  ``counts`` and ``flags`` as named views), the information state's adding
  ``history``, every move of the hand. Strings: the observation is the hand as the player
  sees it now; the information state is every such sight of his since the deal, in
  order. During the deal both are empty of cards.
* :meth:`KlaberjassState.resample_from_infostate` deals the cards a player has not seen
  again, keeping only deals under which the moves made are legal and he would have seen
  exactly what he saw (his information state string is the same).

Game parameters: ``rules`` (a preset of :data:`~umtali.games.klaberjass.rules.KLABERJASS_PRESETS`,
``"book"`` by default) and ``dealer`` (the seat that deals, 0 or 1; 0).
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Sequence
from typing import Any, Final

import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

from umtali.games.klaberjass.match import KlaberjassMatch
from umtali.games.klaberjass.research.actions import (
    CARDS,
    ENGINE_ACTIONS,
    INDEX_OF_ACTION,
    NUM_ACTIONS,
    action_text,
)
from umtali.games.klaberjass.research.episode import first_dealt, table_text
from umtali.games.klaberjass.research.observation import MAX_MOVES, MAX_SCORE, Observer
from umtali.games.klaberjass.rules import KLABERJASS_PRESETS, KlaberjassRules
from umtali.games.klaberjass.state import KlaberjassHand
from umtali.games.klaberjass.terms import SUIT_NAMES
from umtali.games.klaberjass.view import KlaberjassView
from umtali.kernel.cards import CardSet, card_name
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
    "KlaberjassGame",
    "KlaberjassObserver",
    "KlaberjassState",
    "OpenSpielOptionError",
    "ResampleError",
    "game_info",
    "play_indices",
    "seen_text",
]

GAME_NAME: Final = "python_klaberjass"
"""The name ``pyspiel.load_game`` knows the game by."""

DECK_SIZE: Final = len(CARDS)
"""Chance nodes of the deal: one a card of the deck."""

RESAMPLE_TRIES: Final = 20_000
"""Deals :meth:`KlaberjassState.resample_from_infostate` tries before it gives up."""

_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)


GAME_TYPE: Final = game_type(
    GAME_NAME,
    "Klaberjass (one hand)",
    {"rules": "book", "dealer": 0, "encoding": DEFAULT_ENCODING},
)
"""The facts OpenSpiel registers the game with."""


def game_info() -> pyspiel.GameInfo:
    """The game's bounds. A margin is at most :data:`MAX_SCORE` (282) either way;
    ``max_game_length`` counts the players' decisions (:data:`MAX_MOVES`), the deal's
    chance nodes aside."""
    return hand_info(NUM_ACTIONS, DECK_SIZE, MAX_SCORE, MAX_MOVES)


class KlaberjassGame(HandGame):
    """One hand of Klaberjass (see the module). ``params`` are OpenSpiel's parameters;
    its observers are :class:`~umtali.rl.spiel.HandGame`'s."""

    title = "Klaberjass"
    deck_size = DECK_SIZE

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        self.rules, self.dealer = preset_and_dealer(given, KLABERJASS_PRESETS, "book")
        self.encoding = encoding_parameter(given)
        super().__init__(GAME_TYPE, game_info(), given)

    def new_initial_state(self) -> KlaberjassState:
        """The hand before the deal: a chance node."""
        return KlaberjassState(self)

    def new_observer(self, perfect_recall: bool) -> Observer:
        """A flat observer of this game's rules."""
        return Observer(
            self.rules, perfect_recall=perfect_recall, flat=True, encoding=self.encoding
        )

    def py_observer(self, observer: PartsObserver) -> KlaberjassObserver:
        """OpenSpiel's Python observer over ``observer``."""
        assert isinstance(observer, Observer)
        return KlaberjassObserver(observer)


def seen_text(view: KlaberjassView) -> str:
    """What ``view``'s seat sees, as text: the observation string.

    >>> from umtali.kernel.deck import seeded_deck
    >>> from umtali.games.klaberjass.terms import DECK
    >>> match = KlaberjassMatch(first_dealer=1)
    >>> _ = match.new_hand(seeded_deck(3, DECK))
    >>> print(seen_text(KlaberjassView.of(match, 1)))  # doctest: +ELLIPSIS
    player_1 (dealer), move 0, bid1, player_0 to move
    hand: ...
    turned up ... on the table; trump not made
    player_0: 0 points, 0 tricks; player_1: 0 points, 0 tricks
    """
    seat = view.seat
    mover = "over" if view.to_move is None else f"player_{view.to_move} to move"
    role = "dealer" if view.dealer == seat else "elder"
    lines = [f"player_{seat} ({role}), move {len(view.history)}, {view.phase}, {mover}"]
    if view.history:
        mover_seat, move = view.history[-1]
        lines[0] += f"; last: player_{mover_seat} {move.text()}"
    lines.append(f"hand: {CardSet(view.hand)}")
    where = "on the table" if view.turned is not None else "taken up"
    trump = (
        f"trump {SUIT_NAMES[view.trump]}, made by player_{view.maker}"
        if view.trump >= 0
        else "trump not made"
    )
    lines.append(f"turned up {card_name(view.turned_up)} {where}; {trump}")
    if view.exchanged:
        lines.append(f"player_{view.exchanger} exchanged the 7 for it")
    if view.bottom is not None:
        lines.append(f"bottom card {card_name(view.bottom)}")
    if view.trick:
        lines.append(f"led by player_{view.leader}: {card_name(view.trick[0])}")
    if view.played:
        lines.append(f"played: {CardSet(view.played)}")
    if any(view.sequence_points):
        shown = f", cards {CardSet(view.sequence_cards)}" if view.sequence_cards else ""
        lines.append(f"sequences {view.sequence_points[0]}-{view.sequence_points[1]}{shown}")
    if any(view.bella):
        lines.append(f"bella {view.bella[0]}-{view.bella[1]}")
    lines.append(
        "; ".join(
            f"player_{p}: {view.points[p]} points, {view.tricks_won[p]} tricks" for p in (0, 1)
        )
    )
    if view.outcome is not None:
        scores = view.outcome.scores
        lines.append(f"{view.outcome.result}: scores {scores[0]} and {scores[1]}")
    return "\n".join(lines)


class _Table:
    """The Python side of a :class:`KlaberjassState`, in one object for OpenSpiel's
    clone and serialisation.

    Attributes:
        rules: the rule options.
        dealer: the dealer's seat.
        deck: the cards laid down so far, in deck order (the chance outcomes).
        match: the engine's match of one hand, once the deck is complete.
        dealt: the six cards each seat was dealt first (its view's hand at the deal).
        seen: for each seat, every sight it had (:func:`seen_text`), in order.
    """

    def __init__(self, rules: KlaberjassRules, dealer: int) -> None:
        self.rules = rules
        self.dealer = dealer
        self.deck: list[int] = []
        self.match: KlaberjassMatch | None = None
        self.dealt: tuple[int, int] = (0, 0)
        self.seen: tuple[list[str], list[str]] = ([], [])

    def __deepcopy__(self, memo: dict[int, object]) -> _Table:
        other = _Table(self.rules, self.dealer)
        other.deck = list(self.deck)
        other.match = copy.deepcopy(self.match, memo)
        other.dealt = self.dealt
        other.seen = (list(self.seen[0]), list(self.seen[1]))
        return other

    @property
    def hand(self) -> KlaberjassHand | None:
        return None if self.match is None else self.match.hands[-1]

    def lay(self, card: int) -> None:
        """The next card of the deck; the last one deals the hand."""
        self.deck.append(card)
        if len(self.deck) < DECK_SIZE:
            return
        match = KlaberjassMatch(self.rules, first_dealer=self.dealer)
        match.new_hand(self.deck)
        self.match = match
        self.dealt = first_dealt(match)
        self._show()

    def play(self, index: int) -> None:
        hand = self.hand
        assert hand is not None
        hand.push(ENGINE_ACTIONS[index])
        self._show()

    def _show(self) -> None:
        """Let each seat look at the table."""
        assert self.match is not None
        for seat in (0, 1):
            self.seen[seat].append(seen_text(KlaberjassView.of(self.match, seat)))

    def unlaid(self) -> list[int]:
        """The places of the cards not laid down yet: the chance outcomes now."""
        laid = set(self.deck)
        return [place for place, card in enumerate(CARDS) if card not in laid]


class KlaberjassState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no type stubs
    """A hand in play (see the module); made by :meth:`KlaberjassGame.new_initial_state`."""

    def __init__(self, game: KlaberjassGame) -> None:
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
        index = INDEX_OF_ACTION
        return sorted(index[action] for action in hand.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each card not yet laid down, equally likely."""
        places = self.table.unlaid()
        p = 1.0 / len(places)
        return [(place, p) for place in places]

    def _apply_action(self, action: int) -> None:
        table = self.table
        if table.match is None:
            table.lay(CARDS[action])
        else:
            table.play(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return f"deal {card_name(CARDS[action])}"
        return action_text(action)

    def is_terminal(self) -> bool:
        hand = self.table.hand
        return hand is not None and hand.is_over()

    def returns(self) -> list[float]:
        """Each player's hand score less the other's, once the hand is over."""
        hand = self.table.hand
        outcome = None if hand is None else hand.outcome()
        return hand_returns(None if outcome is None else outcome.scores)

    def __str__(self) -> str:
        table = self.table
        hand = table.hand
        if hand is None:
            return f"dealing: {' '.join(card_name(c) for c in table.deck)}"
        return table_text(hand)

    # -- search --------------------------------------------------------------------------
    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> KlaberjassState:
        """A state ``player_id`` cannot tell from this one: the cards he has not seen
        (the other hand, the stock) dealt again at random, the same moves replayed.
        A deal is kept only if every move stays legal and his information state string
        comes out the same (the other player's voids, sequences and bella as the play
        showed them); :class:`ResampleError` if none of :data:`RESAMPLE_TRIES` does.
        ``probability_sampler`` gives a float in [0, 1) that seeds the deals."""
        table = self.table
        match = table.match
        if match is None or match.hands[-1].is_over():
            raise ResampleError("only a player's turn can be resampled, not the deal or the end")
        hand = match.hands[-1]
        known = _known_places(table, player_id)
        moves = [INDEX_OF_ACTION[action] for _, action in hand.history]
        wanted = table.seen[player_id]
        game = self.get_game()

        def world_of(deck: list[int]) -> KlaberjassState | None:
            world = play_indices(game, [CARDS.index(c) for c in deck], moves, strict=False)
            return world if world is not None and world.table.seen[player_id] == wanted else None

        return redealt(
            table.deck,
            [at for at in range(DECK_SIZE) if at not in known],
            random.Random(int(probability_sampler() * 2**53)),
            world_of,
            tries=RESAMPLE_TRIES,
            player=player_id,
        )


def _known_places(table: _Table, seat: int) -> set[int]:
    """The deck positions whose card ``seat`` knows, from his view and the six cards he
    was dealt first: every card he held, every card played, the turned-up card, the
    bottom once shown, the 7 given in an exchange, the scorer's sequence cards once
    shown. The other positions hold the cards he has never seen."""
    assert table.match is not None
    view = KlaberjassView.of(table.match, seat)
    seen = table.dealt[seat] | view.hand | view.played | 1 << view.turned_up
    seen |= view.sequence_cards
    if view.bottom is not None:
        seen |= 1 << view.bottom
    if view.given_seven is not None:
        seen |= 1 << view.given_seven
    return {at for at, card in enumerate(table.deck) if seen >> card & 1}


class KlaberjassObserver(FlatObserver):
    """OpenSpiel's Python observer: ``tensor`` (float32) and its named views ``dict``
    (:class:`~umtali.rl.spiel.FlatObserver`), written by :meth:`set_from`;
    :meth:`string_from` for the strings. The tensor is the flat observation vector of
    :class:`~umtali.games.klaberjass.research.observation.Observer`; during the deal it
    is all zero."""

    def __init__(self, observer: Observer) -> None:
        super().__init__(observer, observer.array_spaces())
        self.observer = observer

    def set_from(self, state: KlaberjassState, player: int) -> None:
        """Write what ``player`` sees of ``state`` into :attr:`tensor`."""
        table = state.table
        if table.match is None:
            self.tensor.fill(0.0)
            return
        obs = self.observer.observe(table.match, player, table.dealt[player])
        self.tensor[:] = obs["observation"]

    def string_from(self, state: KlaberjassState, player: int) -> str:
        """The information state (with perfect recall) or the observation, as text."""
        table = state.table
        if self.observer.perfect_recall:
            return "\n".join([f"player_{player}", *table.seen[player]])
        if table.match is None:
            return f"player_{player}: the cards are being dealt"
        return seen_text(KlaberjassView.of(table.match, player))


def play_indices(
    game: KlaberjassGame,
    deal: Sequence[int],
    moves: Sequence[int] = (),
    *,
    strict: bool = True,
) -> KlaberjassState | None:
    """A new state of ``game`` after the deal ``deal`` (32 card places, in deck order)
    and the action indices ``moves``. With ``strict=False``, ``None`` when a move is
    not legal in that deal (else :class:`~umtali.games.klaberjass.moves.KlaberjassMoveError`).

    >>> game = pyspiel.load_game(GAME_NAME)
    >>> state = play_indices(game, range(32))  # the deck in card order
    >>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()]
    (1, ['take', 'pass'])
    """
    state: KlaberjassState | None = replayed(game, deal, moves, strict=strict)
    return state


pyspiel.register_game(GAME_TYPE, KlaberjassGame)
