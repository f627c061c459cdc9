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

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar, Protocol, TypeVar

import numpy as np
import numpy.typing as npt
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
from gymnasium import spaces

from umtali.kernel.cards import quoted
from umtali.rl.shared import DEFAULT_ENCODING, EncodingVersion, checked_encoding

__all__ = [
    "FlatObserver",
    "HandGame",
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
    does the same way: its deal's length, and its observers, one flat observer of its
    rules kept per kind (with perfect recall or not). A game's subclass gives
    :attr:`title` and :attr:`deck_size`, and makes its observers
    (:meth:`new_observer`, :meth:`py_observer`)."""

    title: ClassVar[str]
    """The game's name in messages."""
    deck_size: ClassVar[int]
    """Chance nodes of the deal: one a card of the deck."""

    def __init__(
        self, kind: pyspiel.GameType, info: pyspiel.GameInfo, params: dict[str, Any]
    ) -> None:
        super().__init__(kind, info, params)
        self._observers: dict[bool, PartsObserver] = {}

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
        raise NotImplementedError

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
