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

from collections.abc import Sequence
from typing import Any, Final

import numpy.typing as npt
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
from umtali.games.klaberjass.rules import KLABERJASS_PRESETS
from umtali.games.klaberjass.state import KlaberjassHand
from umtali.games.klaberjass.terms import SUIT_NAMES
from umtali.games.klaberjass.view import KlaberjassView
from umtali.kernel.cards import CardSet, card_name
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
    spiel_type = GAME_TYPE
    presets = KLABERJASS_PRESETS
    observer_type = Observer

    def info(self) -> pyspiel.GameInfo:
        return game_info()

    def new_initial_state(self) -> KlaberjassState:
        """The hand before the deal: a chance node."""
        return KlaberjassState(self)

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


class _Table(HandTable[KlaberjassMatch, KlaberjassHand]):
    """The Python side of a :class:`KlaberjassState` (:class:`~umtali.rl.spiel.HandTable`):
    its engine is a :class:`~umtali.games.klaberjass.match.KlaberjassMatch` of one hand,
    ``dealt`` the six cards each seat was dealt first (its view's hand at the deal); a
    chance outcome is a card's place in :data:`~umtali.games.klaberjass.research.actions.CARDS`."""

    cards = CARDS
    hand_text = staticmethod(table_text)
    card_text = staticmethod(card_name)

    def deal(self) -> tuple[KlaberjassMatch, tuple[int, int]]:
        match = KlaberjassMatch(self.rules, first_dealer=self.dealer)
        match.new_hand(self.deck)
        return match, first_dealt(match)

    def seen_text(self, seat: int) -> str:
        assert self.engine is not None
        return seen_text(KlaberjassView.of(self.engine, seat))

    def seen_mask(self, seat: int) -> int:
        """Every card ``seat`` knows, from his view and the six cards he was dealt
        first: every card he held, every card played, the turned-up card, the bottom
        once shown, the 7 given in an exchange, the scorer's sequence cards once shown.
        The others are the cards he has never seen (the other player's voids, sequences
        and bella as the play showed them are kept by the replay's sights)."""
        assert self.engine is not None
        view = KlaberjassView.of(self.engine, seat)
        seen = self.dealt[seat] | view.hand | view.played | 1 << view.turned_up
        seen |= view.sequence_cards
        if view.bottom is not None:
            seen |= 1 << view.bottom
        if view.given_seven is not None:
            seen |= 1 << view.given_seven
        return seen

    def observe(self, observer: Any, seat: int) -> npt.NDArray[Any]:
        assert self.engine is not None
        observed: npt.NDArray[Any] = observer.observe(self.engine, seat, self.dealt[seat])[
            "observation"
        ]
        return observed

    def engine_action(self, index: int) -> int:
        return ENGINE_ACTIONS[index]

    def index_of(self, action: int) -> int:
        return INDEX_OF_ACTION[action]

    def legal_indices(self) -> list[int]:
        assert self.hand is not None
        index = INDEX_OF_ACTION
        return sorted(index[action] for action in self.hand.legal_actions())

    def scores(self) -> tuple[int, int] | None:
        outcome = None if self.hand is None else self.hand.outcome()
        return None if outcome is None else outcome.scores


class KlaberjassState(HandState[KlaberjassMatch, KlaberjassHand]):
    """A hand in play (see the module; :class:`~umtali.rl.spiel.HandState`); made by
    :meth:`KlaberjassGame.new_initial_state`. :meth:`resample_from_infostate` deals the
    other hand and the stock again."""

    table_type = _Table
    resample_tries = RESAMPLE_TRIES
    action_text = staticmethod(action_text)


class KlaberjassObserver(HandObserver):
    """OpenSpiel's Python observer (:class:`~umtali.rl.spiel.HandObserver`): the tensor
    is the flat observation vector of
    :class:`~umtali.games.klaberjass.research.observation.Observer`."""


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
