"""What every game's OpenSpiel game does the same way, written once (needs OpenSpiel):
the facts a hand between two players is registered with, its parameters, the kind of
observation it offers, its returns and the Python observer over a flat observation
vector. A game's ``research.openspiel`` module builds its game from these;
:mod:`umtali.rl.openspiel` registers every game's.

>>> game_type("python_x", "X (one hand)", {"rules": "a"}).provides_observation_tensor
True
>>> hand_returns((30, 12))
[18.0, -18.0]
"""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Final, Generic, Protocol, TypeVar

import numpy as np
import numpy.typing as npt
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
from gymnasium import spaces

from umtali.kernel.cards import quoted
from umtali.rl.shared import DEFAULT_ENCODING, EncodingVersion, checked_encoding

__all__ = [
    "FlatObserver",
    "HandGame",
    "HandObserver",
    "HandState",
    "HandTable",
    "OpenSpielOptionError",
    "PartsObserver",
    "ResampleError",
    "encoding_parameter",
    "game_type",
    "hand_info",
    "hand_returns",
    "one_players_recall",
    "preset_and_dealer",
    "redealt",
    "replayed",
]

_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)

R = TypeVar("R")


class OpenSpielOptionError(ValueError):
    """A game parameter or an observation type the OpenSpiel game does not offer."""


class ResampleError(ValueError):
    """A state that cannot be dealt again from a player's information."""


def game_type(short_name: str, long_name: str, parameters: dict[str, Any]) -> pyspiel.GameType:
    """The facts OpenSpiel registers a game with: one hand between two players, moving
    in turn, the deal's chance explicit, each seeing only his own cards, zero-sum and
    paid at the end; with information state and observation, as strings and tensors;
    ``parameters`` its parameters and their defaults."""
    return pyspiel.GameType(
        short_name=short_name,
        long_name=long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=parameters,
    )


def preset_and_dealer(
    params: Mapping[str, Any], presets: Mapping[str, R], default: str
) -> tuple[R, int]:
    """The game parameters ``rules`` (the name of one of ``presets``, ``default`` when
    not given) and ``dealer`` (seat 0 or 1; 0): the preset's rules and the seat;
    :class:`OpenSpielOptionError` for any other value.

    >>> preset_and_dealer({"dealer": 1}, {"a": "rules a"}, "a")
    ('rules a', 1)
    """
    name = params.get("rules", default)
    if name not in presets:
        raise OpenSpielOptionError(
            f"the rules parameter names a preset of the rules, one of"
            f" {', '.join(sorted(presets))}; not {quoted(name)}"
        )
    dealer = params.get("dealer", 0)
    if type(dealer) is not int or dealer not in (0, 1):
        raise OpenSpielOptionError(f"the dealer parameter is seat 0 or 1, not {quoted(dealer)}")
    return presets[name], dealer


def encoding_parameter(params: Mapping[str, Any]) -> EncodingVersion:
    """The game parameter ``encoding``, the version of the tensors' arrays (``"v1"``
    when not given, or ``"v0"``; :data:`umtali.rl.shared.ENCODINGS`);
    :class:`OpenSpielOptionError` for anything else.

    >>> encoding_parameter({}), encoding_parameter({"encoding": "v0"})
    ('v1', 'v0')
    """
    try:
        return checked_encoding(params.get("encoding", DEFAULT_ENCODING))
    except ValueError as error:
        raise OpenSpielOptionError(f"the encoding parameter: {error}") from None


def one_players_recall(
    title: str,
    iig_obs_type: pyspiel.IIGObservationType | None,
    params: dict[str, Any] | None,
) -> bool:
    """Whether the observation ``iig_obs_type`` asks for has perfect recall (none asked:
    without): the one kind the games offer, what one player sees, public information
    and his own private information; :class:`OpenSpielOptionError` for another kind or
    for observer parameters (the game's ``title`` names it)."""
    if params:
        raise OpenSpielOptionError(
            f"the {title} observer takes no parameters, not {sorted(params)}"
        )
    kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
    if not kind.public_info or kind.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
        raise OpenSpielOptionError(
            f"{title} observations are one player's: public information and his own"
            " private information (private_info=SINGLE_PLAYER, public_info=True)"
        )
    return bool(kind.perfect_recall)


def hand_returns(scores: tuple[int, int] | None) -> list[float]:
    """Each player's hand score less the other's (both 0 while the hand is not over:
    ``scores`` ``None``)."""
    if scores is None:
        return [0.0, 0.0]
    margin = float(scores[0] - scores[1])
    return [margin, -margin]


class PartsObserver(Protocol):
    """A game's flat observer, as :class:`FlatObserver` reads it."""

    @property
    def parts(self) -> dict[str, slice]:
        """Where each array lies in the flat vector."""

    @property
    def perfect_recall(self) -> bool:
        """Whether observations carry ``history``."""


class FlatObserver:
    """The part of OpenSpiel's Python observer every game's is: ``tensor`` (float32),
    as long as ``observer``'s flat vector, and its named views ``dict``, one a part of
    the vector shaped as in ``arrays`` (the spaces of the observation as named arrays).
    A game's subclass writes the tensor (``set_from``) and the strings
    (``string_from``).

    >>> class Flat:
    ...     parts = {"a": slice(0, 6), "b": slice(6, 7)}
    ...     perfect_recall = False
    >>> shown = FlatObserver(Flat(), {"a": spaces.Box(0, 1, (2, 3)), "b": spaces.Box(0, 1, (1,))})
    >>> shown.tensor.shape, shown.dict["a"].shape
    ((7,), (2, 3))
    """

    def __init__(self, observer: PartsObserver, arrays: Mapping[str, spaces.Space[Any]]) -> None:
        size = max(part.stop for part in observer.parts.values())
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, np.float32)
        self.dict: dict[str, npt.NDArray[np.float32]] = {}
        for name, part in observer.parts.items():
            shape = arrays[name].shape
            assert shape is not None  # every part is a Box
            self.dict[name] = self.tensor[part].reshape(shape)


def hand_info(num_actions: int, deck_size: int, most: int, length: int) -> pyspiel.GameInfo:
    """The bounds of one hand between two players, dealt a card of a deck of
    ``deck_size`` at a time: ``num_actions`` actions, a margin of at most ``most``
    either way, at most ``length`` decisions (the deal's chance nodes aside).

    >>> hand_info(43, 32, 282, 23).max_utility
    282.0
    """
    return pyspiel.GameInfo(
        num_distinct_actions=num_actions,
        max_chance_outcomes=deck_size,
        num_players=2,
        min_utility=-float(most),
        max_utility=float(most),
        utility_sum=0.0,
        max_game_length=length,
    )


class HandGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no type stubs
    """What every game's OpenSpiel game of one hand, dealt by chance a card at a time,
    does the same way: its parameters (``rules``, a preset's name; ``dealer``;
    ``encoding``), its deal's length, and its observers, one flat observer of its rules
    kept per kind (with perfect recall or not). A game's subclass gives :attr:`title`,
    :attr:`deck_size`, :attr:`spiel_type`, :attr:`presets`, :attr:`observer_type` and
    :meth:`info`, and makes its states (``new_initial_state``) and Python observers
    (:meth:`py_observer`).

    Attributes:
        rules: the rules of the preset ``params`` names.
        dealer: the dealer's seat.
        encoding: the version of the tensors' arrays.
    """

    title: ClassVar[str]
    """The game's name in messages."""
    deck_size: ClassVar[int]
    """Chance nodes of the deal: one a card of the deck."""
    spiel_type: ClassVar[pyspiel.GameType]
    """The facts OpenSpiel registers the game with (:func:`game_type`), the default of
    each parameter among them."""
    presets: ClassVar[Mapping[str, Any]]
    """The rules the ``rules`` parameter names, by name."""
    observer_type: ClassVar[Callable[..., PartsObserver]]
    """The game's observer: made of the rules, ``perfect_recall``, ``flat`` and
    ``encoding``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = dict(params or {})
        default = self.spiel_type.parameter_specification["rules"]
        self.rules, self.dealer = preset_and_dealer(given, self.presets, default)
        self.encoding = encoding_parameter(given)
        super().__init__(self.spiel_type, self.info(), given)
        self._observers: dict[bool, PartsObserver] = {}

    def info(self) -> pyspiel.GameInfo:
        """The game's bounds under :attr:`rules` (:func:`hand_info`)."""
        raise NotImplementedError

    def max_chance_nodes_in_history(self) -> int:
        """The deal: every card of the deck."""
        return self.deck_size

    def make_py_observer(
        self,
        iig_obs_type: pyspiel.IIGObservationType | None = None,
        params: dict[str, Any] | None = None,
    ) -> FlatObserver:
        """The observer of ``iig_obs_type``: what one player sees, with perfect recall
        or not. Observations of the whole table, or of the public part alone, are not
        offered."""
        recall = one_players_recall(self.title, iig_obs_type, params)
        return self.py_observer(self.observer(recall))

    def observer(self, perfect_recall: bool) -> PartsObserver:
        """The flat observer of this game's rules, one kept per kind."""
        found = self._observers.get(perfect_recall)
        if found is None:
            found = self._observers[perfect_recall] = self.new_observer(perfect_recall)
        return found

    def new_observer(self, perfect_recall: bool) -> PartsObserver:
        """A new flat observer of this game's rules."""
        return self.observer_type(
            self.rules, perfect_recall=perfect_recall, flat=True, encoding=self.encoding
        )

    def py_observer(self, observer: PartsObserver) -> FlatObserver:
        """OpenSpiel's Python observer over ``observer``, one of :meth:`new_observer`'s."""
        raise NotImplementedError


S = TypeVar("S")


def replayed(game: Any, chance: Sequence[int], moves: Sequence[int], *, strict: bool = True) -> Any:
    """A new state of ``game`` after the chance outcomes ``chance`` and the players'
    actions ``moves``. With ``strict=False``, ``None`` when a move is not legal then
    (else the game's own error)."""
    state = game.new_initial_state()
    for outcome in chance:
        state.apply_action(int(outcome))
    for index in moves:
        if not strict and index not in state.legal_actions():
            return None
        state.apply_action(int(index))
    return state


def redealt(
    deck: Sequence[int],
    free: Sequence[int],
    rng: random.Random,
    world_of: Callable[[list[int]], S | None],
    *,
    tries: int,
    player: int,
) -> S:
    """The first world ``world_of`` makes (not ``None``) from ``deck`` with the cards
    at the places ``free`` (those ``player`` has not seen) shuffled among them with
    ``rng``; :class:`ResampleError` after ``tries`` deals none of which made one.

    >>> redealt([1, 2, 3], [0, 2], random.Random(1), lambda d: d if d[0] == 3 else None,
    ...         tries=50, player=0)
    [3, 2, 1]
    """
    for _ in range(tries):
        cards = [deck[at] for at in free]
        rng.shuffle(cards)
        new = list(deck)
        for at, card in zip(free, cards, strict=True):
            new[at] = card
        world = world_of(new)
        if world is not None:
            return world
    raise ResampleError(f"no deal of {tries} tried agrees with what player {player} saw")


class SpielHand(Protocol):
    """A game's hand, as :class:`HandTable` and :class:`HandState` play it."""

    @property
    def player(self) -> int:
        """The seat to move."""

    def is_over(self) -> bool:
        """Whether the hand has ended."""

    def push(self, action: int) -> None:
        """Play the engine's action int ``action``."""

    @property
    def history(self) -> Sequence[tuple[int, int]]:
        """Each move so far: its seat and the engine's action int."""


E = TypeVar("E")
H = TypeVar("H", bound=SpielHand)


class HandTable(Generic[E, H]):
    """The Python side of a game's OpenSpiel state, in one object for OpenSpiel's clone
    and serialisation: the deal a card at a time, the moves, and every sight each seat
    had. A game's subclass gives :attr:`cards` and :attr:`card_text`, deals the engine
    (:meth:`deal`) and tells what a seat sees (:meth:`seen_text`, :meth:`seen_mask`,
    :meth:`observe`), how an action index is the engine's (:meth:`engine_action`,
    :meth:`index_of`), the scores and the hand as text (:meth:`hand_text`).

    Attributes:
        rules: the rule options.
        dealer: the dealer's seat.
        deck: the cards laid down so far, in deck order (the chance outcomes' cards).
        engine: the engine's game or match of one hand (its ``hands``), once the deck is
            complete.
        dealt: the cards each seat was dealt first.
        seen: for each seat, every sight it had (:meth:`seen_text`), in order.
    """

    cards: ClassVar[Sequence[int]]
    """The deck's card ids, one a chance outcome (the outcome is the place here)."""

    def __init__(self, rules: Any, dealer: int) -> None:
        self.rules = rules
        self.dealer = dealer
        self.deck: list[int] = []
        self.engine: E | None = None
        self.dealt: tuple[int, int] = (0, 0)
        self.seen: tuple[list[str], list[str]] = ([], [])

    def __deepcopy__(self, memo: dict[int, object]) -> HandTable[E, H]:
        other = type(self)(self.rules, self.dealer)
        other.deck = list(self.deck)
        other.engine = copy.deepcopy(self.engine, memo)
        other.dealt = self.dealt
        other.seen = (list(self.seen[0]), list(self.seen[1]))
        return other

    @property
    def hand(self) -> H | None:
        """The hand in play, once dealt: the last of the engine's ``hands``."""
        engine: Any = self.engine
        if engine is None:
            return None
        hand: H = engine.hands[-1]
        return hand

    def lay(self, card: int) -> None:
        """The next card of the deck; the last one deals the hand."""
        self.deck.append(card)
        if len(self.deck) < len(self.cards):
            return
        self.engine, self.dealt = self.deal()
        self._show()

    def play(self, index: int) -> None:
        hand = self.hand
        assert hand is not None
        hand.push(self.engine_action(index))
        self._show()

    def _show(self) -> None:
        """Let each seat look at the table."""
        for seat in (0, 1):
            self.seen[seat].append(self.seen_text(seat))

    def unlaid(self) -> list[int]:
        """The places of the cards not laid down yet: the chance outcomes now."""
        laid = set(self.deck)
        return [place for place, card in enumerate(self.cards) if card not in laid]

    def places(self, deck: Sequence[int]) -> list[int]:
        """``deck``'s cards as chance outcomes."""
        place = _places(tuple(self.cards))
        return [place[card] for card in deck]

    # -- the game's part -----------------------------------------------------------------
    @staticmethod
    def card_text(card: int) -> str:
        """A card as the states' strings name it."""
        raise NotImplementedError

    def deal(self) -> tuple[E, tuple[int, int]]:
        """The engine dealt from :attr:`deck`, and the cards each seat was dealt first."""
        raise NotImplementedError

    def seen_text(self, seat: int) -> str:
        """What ``seat`` sees now, as text (the observation string)."""
        raise NotImplementedError

    def seen_mask(self, seat: int) -> int:
        """Every card ``seat`` has seen, as a mask (the others may be dealt again)."""
        raise NotImplementedError

    def observe(self, observer: Any, seat: int) -> npt.NDArray[Any]:
        """``observer``'s flat observation of ``seat``."""
        raise NotImplementedError

    def engine_action(self, index: int) -> int:
        """The engine's action int of action index ``index``."""
        return index

    def index_of(self, action: int) -> int:
        """The action index of the engine's action int ``action``."""
        return action

    def legal_indices(self) -> list[int]:
        """The legal action indices, increasing (as OpenSpiel wants)."""
        raise NotImplementedError

    def scores(self) -> tuple[int, int] | None:
        """The hand's scores, once it is over."""
        raise NotImplementedError

    @staticmethod
    def hand_text(hand: Any) -> str:
        """``hand`` as an onlooker who sees every card would tell it."""
        raise NotImplementedError

    def text(self) -> str:
        """The whole table as text, once dealt."""
        assert self.hand is not None
        return self.hand_text(self.hand)


@functools.cache
def _places(cards: tuple[int, ...]) -> dict[int, int]:
    return {card: place for place, card in enumerate(cards)}


class HandState(pyspiel.State, Generic[E, H]):  # type: ignore[misc]  # pyspiel has no type stubs
    """What every game's OpenSpiel state of one hand does the same way, over its
    :class:`HandTable` (of the game's :attr:`table_type`): chance deals the deck a card
    at a time, then the players move; a player's information state may be resampled
    (:meth:`resample_from_infostate`). A game's subclass gives :attr:`table_type`,
    :attr:`resample_tries` and :meth:`action_text`."""

    table_type: ClassVar[type[HandTable[Any, Any]]]
    resample_tries: ClassVar[int]
    """Deals :meth:`resample_from_infostate` tries before it gives up."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.table: HandTable[E, H] = self.table_type(game.rules, game.dealer)

    @staticmethod
    def action_text(index: int) -> str:
        """A player's action index as text."""
        raise NotImplementedError

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
        return self.table.legal_indices()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each card not yet laid down, equally likely."""
        places = self.table.unlaid()
        p = 1.0 / len(places)
        return [(place, p) for place in places]

    def _apply_action(self, action: int) -> None:
        table = self.table
        if table.engine is None:
            table.lay(table.cards[action])
        else:
            table.play(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return f"deal {self.table.card_text(self.table.cards[action])}"
        return self.action_text(action)

    def is_terminal(self) -> bool:
        hand = self.table.hand
        return hand is not None and hand.is_over()

    def returns(self) -> list[float]:
        """Each player's hand score less the other's, once the hand is over."""
        return hand_returns(None if self.table.hand is None else self.table.scores())

    def __str__(self) -> str:
        table = self.table
        if table.hand is None:
            return f"dealing: {' '.join(table.card_text(c) for c in table.deck)}"
        return table.text()

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> HandState[E, H]:
        """A state ``player_id`` cannot tell from this one: the cards he has not seen
        dealt again at random, the same moves replayed. A deal is kept only if every
        move stays legal and his information state string comes out the same;
        :class:`ResampleError` if none of :attr:`resample_tries` does.
        ``probability_sampler`` gives a float in [0, 1) that seeds the deals."""
        table = self.table
        hand = table.hand
        if hand is None or hand.is_over():
            raise ResampleError("only a player's turn can be resampled, not the deal or the end")
        seen = table.seen_mask(player_id)
        moves = [table.index_of(action) for _, action in hand.history]
        wanted = table.seen[player_id]
        game = self.get_game()

        def world_of(deck: list[int]) -> HandState[E, H] | None:
            world: HandState[E, H] | None = replayed(game, table.places(deck), moves, strict=False)
            return world if world is not None and world.table.seen[player_id] == wanted else None

        return redealt(
            table.deck,
            [at for at, card in enumerate(table.deck) if not seen >> card & 1],
            random.Random(int(probability_sampler() * 2**53)),
            world_of,
            tries=self.resample_tries,
            player=player_id,
        )


class HandObserver(FlatObserver):
    """OpenSpiel's Python observer of a :class:`HandState`: ``tensor`` (float32) and its
    named views ``dict`` (:class:`FlatObserver`), written by :meth:`set_from` (all zero
    during the deal); :meth:`string_from` for the strings."""

    def __init__(self, observer: Any) -> None:
        super().__init__(observer, observer.array_spaces())
        self.observer = observer

    def set_from(self, state: HandState[Any, Any], player: int) -> None:
        """Write what ``player`` sees of ``state`` into :attr:`tensor`."""
        table = state.table
        if table.engine is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = table.observe(self.observer, player)

    def string_from(self, state: HandState[Any, Any], player: int) -> str:
        """The information state (with perfect recall) or the observation, as text."""
        table = state.table
        if self.observer.perfect_recall:
            return "\n".join([f"player_{player}", *table.seen[player]])
        if table.engine is None:
            return f"player_{player}: the cards are being dealt"
        return table.seen_text(player)
