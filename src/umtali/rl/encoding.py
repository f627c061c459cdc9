"""What a game's research encoding offers (the registry's ``research`` hook), and how
:mod:`umtali.rl` finds it.

A game that researchers may train on names, in its spec's ``research`` hook, an object
that answers as :class:`Research` asks: its ids in the ecosystems (Gymnasium,
PettingZoo, OpenSpiel), its fixed action space, an :class:`Observer` of a seat's view
as arrays, an :class:`Episode` stepped by action index, computer opponents, hands
stepped in a :class:`Batch`, and its OpenSpiel game. Everything that is the same for
every game is :mod:`umtali.rl`'s, written once against these protocols: the PettingZoo
environments (:mod:`umtali.rl.pettingzoo`), the Gymnasium one
(:mod:`umtali.rl.gym`), batches on several cores (:mod:`umtali.rl.parallel`) and the
benchmark's engines (:mod:`umtali.rl.bench`). A game's encoding lives in its own folder
(Umtali's: ``umtali.games.umtali.research``), and :mod:`umtali.rl` names no game.

>>> research().env_id, research().num_actions
('Umtali-v0', 14272)
>>> researched()[:1]
('umtali',)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection
from types import ModuleType
from typing import Any, Final, Literal, Protocol

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from umtali import games
from umtali.games import DEFAULT_GAME

__all__ = [
    "ILLEGAL_CHOICES",
    "REWARDS",
    "ArrayLayout",
    "Batch",
    "BatchObservation",
    "Episode",
    "IllegalActionError",
    "Observation",
    "Observer",
    "Opponent",
    "Research",
    "RewardKind",
    "alias",
    "checked_actions",
    "encoding_module",
    "research",
    "researched",
]

RewardKind = Literal["margin", "game"]
REWARDS: Final = ("margin", "game")
"""What an episode is and pays: a hand and its score margin, or a game and its result."""

ILLEGAL_CHOICES: Final = ("raise", "lose", "ignore")
"""What an environment does with an illegal action: raise :class:`IllegalActionError`;
end the episode, the player who made it losing (``illegal_reward``, the others its
negative); or ignore it (nothing changes, the same player is asked again, and his info
says ``illegal_action``)."""

Observation = dict[str, npt.NDArray[Any]]
"""What a seat is shown: named arrays (or, flat, ``observation`` and ``action_mask``)."""

BatchObservation = dict[str, npt.NDArray[Any]]
"""A batch step's observations: the arrays of an observation, one row a hand."""


class IllegalActionError(ValueError):
    """An action index that is not a legal move now."""


class Observer(Protocol):
    """How a game shows a seat what it may see, as arrays."""

    @property
    def space(self) -> spaces.Dict:
        """The Gymnasium space of an observation."""


class Episode(Protocol):
    """One episode of a game (a hand, or a game of hands), stepped by action index, and
    shown to each seat through the observer it was made with."""

    @property
    def to_move(self) -> int:
        """The seat to move (once the episode is over, the last one that moved): read at
        every step, so an attribute the episode keeps up to date serves best."""

    def is_over(self) -> bool:
        """Whether the episode has ended."""

    def legal(self) -> list[int]:
        """The legal action indices now, in the engine's order; kept until the next
        move (do not change the list)."""

    def is_legal(self, index: int) -> bool:
        """Whether ``index`` is a legal action now (an int outside the space is not)."""

    def check(self, index: object) -> int:
        """``index`` as an int if it is a legal action now, else
        :class:`IllegalActionError` naming the move and the player to move."""

    def step(self, index: int) -> tuple[float, ...] | None:
        """Play the legal action ``index``: every seat's reward if it ended the
        episode, else ``None``."""

    def illegal_rewards(self, offender: int, penalty: float | None) -> tuple[float, ...]:
        """Every seat's reward when ``offender`` ends the episode with an illegal
        action: ``penalty`` (by default the game's) for him, and its negative shared
        by the others."""

    def observe(self, seat: int, legal: list[int] | None = None) -> Observation:
        """What ``seat`` sees now (``legal``: :meth:`legal`, when the caller has it)."""

    def mask(self, seat: int) -> npt.NDArray[np.bool_]:
        """``seat``'s legal actions as a boolean mask (all false when he is not to move)."""

    def scores(self) -> tuple[int, ...] | None:
        """Each seat's score in the hand that ended the episode (``None`` before)."""

    def table_text(self) -> str:
        """The table as an onlooker with every card face up would see it."""


class Opponent(Protocol):
    """A computer player of the game, in an environment against the agent."""

    def choose(self, episode: Episode, rng: random.Random) -> int:
        """The legal action index the computer plays for the seat to move of
        ``episode``, from what that seat may see only."""

    def row_move(self, batch: Any, row: int, rng: random.Random) -> int:
        """The action index the computer plays for the seat to move in row ``row`` of
        ``batch`` (the game's :class:`Batch`), from what that seat may see only."""


class Batch(Protocol):
    """Many hands stepped together: every row a hand, seen by its player to move."""

    hands_played: int
    """How many hands have ended since the last reset."""

    @property
    def to_move(self) -> npt.NDArray[np.int8]:
        """For each row, the seat its observation is of."""

    @property
    def legal(self) -> list[list[int]]:
        """For each row, its legal action indices."""

    @property
    def legal_counts(self) -> npt.NDArray[np.intp]:
        """How many legal actions each row has."""

    @property
    def legal_indices(self) -> npt.NDArray[np.intp]:
        """Every row's legal action indices, row after row."""

    def reset(self, seed: int | None = None) -> BatchObservation:
        """Deal every row anew and return the observations."""

    def step(
        self, actions: npt.ArrayLike, rows: npt.ArrayLike | None = None
    ) -> tuple[BatchObservation, npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Play one action in every row (or in the rows ``rows`` only, one action each):
        the observations, the rewards by row and seat, and which rows' hands ended
        (dealt anew at once)."""

    def play(
        self, actions: npt.ArrayLike, rows: npt.ArrayLike | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """:meth:`step` without the observations: the rewards and the ended hands."""

    def observe(self) -> BatchObservation:
        """Every row's observation now, by its player to move."""

    def sample_actions(self, rng: np.random.Generator) -> npt.NDArray[np.intp]:
        """A legal action for every row, drawn uniformly."""


ArrayLayout = dict[str, tuple[tuple[int, ...], np.dtype[Any]]]
"""The arrays of a batch's observation besides its mask: each one's shape for one row,
and its type, in the order a step returns them."""


class Research(Protocol):
    """A game's research encoding: what its spec's ``research`` hook names.

    ``rules`` arguments are the game's own: its rules object, a variant's name, or
    ``None`` for its first variant.
    """

    @property
    def game(self) -> str:
        """The game's registered name."""

    @property
    def env_id(self) -> str:
        """Its first Gymnasium id (``"Umtali-v0"``, the ``v0`` arrays); :mod:`umtali.rl`
        registers it and the same name with each later version (``"Umtali-v1"``)."""

    @property
    def aec_name(self) -> str:
        """The name of its PettingZoo environment (``metadata["name"]``)."""

    @property
    def openspiel_name(self) -> str | None:
        """Its OpenSpiel short name (``"python_umtali"``), where it has an OpenSpiel game."""

    @property
    def seats(self) -> int:
        """How many players an episode has."""

    @property
    def num_actions(self) -> int:
        """The size of its fixed action space."""

    @property
    def levels(self) -> Collection[str]:
        """Its computer levels, as opponents."""

    def action_text(self, index: int) -> str:
        """Action ``index`` in the game's notation."""

    def default_penalty(self, reward: RewardKind) -> float:
        """What an illegal action costs its player by default, for ``reward``."""

    def observer(
        self,
        rules: object = None,
        *,
        perfect_recall: bool = False,
        flat: bool = True,
        encoding: str = "v1",
    ) -> Observer:
        """An observer of ``rules``' game: with the move history or not, flat (one
        vector and the mask) or as named arrays, in the arrays' version ``encoding``
        (``"v0"`` or ``"v1"``, :data:`umtali.rl.shared.ENCODINGS`)."""

    def episode(
        self,
        rng: random.Random,
        observer: Observer,
        *,
        rules: object = None,
        reward: RewardKind = "margin",
    ) -> Episode:
        """A new episode dealt from ``rng``, shown through ``observer`` (one this
        encoding made), paying ``reward``."""

    def opponent(self, level: str) -> Opponent:
        """The computer player of ``level`` (one of :attr:`levels`)."""

    def batch(
        self,
        n: int,
        *,
        seed: int | None = None,
        rules: object = None,
        copy: bool = False,
        mask_buffer: npt.NDArray[np.int8] | None = None,
        encoding: str = "v1",
    ) -> Batch:
        """``n`` hands stepped together, dealt from ``seed``; masks written into
        ``mask_buffer`` where given (a flat array of ``n * num_actions`` entries); the
        arrays in version ``encoding`` (``"v1"`` unless asked, as every environment's:
        :data:`umtali.rl.shared.BATCH_ENCODING`)."""

    def batch_arrays(self, encoding: str = "v1") -> ArrayLayout:
        """The arrays of its batches' observations besides the mask (see
        :data:`ArrayLayout`), in version ``encoding``."""

    def register_openspiel(self) -> None:
        """Register its OpenSpiel game with ``pyspiel`` (needs OpenSpiel; nothing to do
        for a game without one)."""

    def module(self, name: str) -> ModuleType:
        """Its encoding's module ``name`` (``"actions"``, ``"observation"``, ...): what
        the default game's aliases at ``umtali.rl.<name>`` stand for."""


def research(game: str = DEFAULT_GAME) -> Research:
    """The research encoding of ``game`` (a registered name), through the registry;
    :class:`~umtali.games.api.HookError` for a game without one."""
    found: Research = games.get(game).hook("research")
    return found


def researched() -> tuple[str, ...]:
    """The registered games that have a research encoding, in the registry's order."""
    return tuple(spec.name for spec in games.games() if spec.has("research"))


def encoding_module(name: str, game: str = DEFAULT_GAME) -> ModuleType:
    """The module ``name`` of ``game``'s encoding: what ``umtali.rl.<name>`` aliases
    (see :mod:`umtali.rl`)."""
    return research(game).module(name)


def alias(name: str) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module-level ``__getattr__`` and ``__dir__`` of ``umtali.rl.<name>``, which
    stands for the default game's encoding module ``name`` (see :mod:`umtali.rl`): each
    name read there is that module's own object, the module found through the registry
    when a name is first read."""

    def attribute(attr: str) -> Any:
        return getattr(encoding_module(name), attr)

    def names() -> list[str]:
        return dir(encoding_module(name))

    return attribute, names


def checked_actions(
    actions: npt.ArrayLike,
    masks: npt.NDArray[np.int8],
    num_actions: int,
    name_of: Callable[[int], str],
) -> npt.NDArray[Any]:
    """``actions`` as an array, one action index a row, each legal by its row of
    ``masks`` (the flat buffer of a batch's masks, ``num_actions`` entries a row);
    :class:`IllegalActionError`, saying which row and why (the move ``name_of`` names),
    if any is not."""
    n = len(masks) // num_actions
    chosen = np.asarray(actions)
    if chosen.size == 0:  # no row moves (an empty list is of floats to numpy)
        chosen = chosen.astype(np.intp)
    if chosen.shape != (n,) or not np.issubdtype(chosen.dtype, np.integer):
        raise IllegalActionError(
            f"actions are {n} ints, one a row, not an array of shape {chosen.shape}"
            f" and type {chosen.dtype}"
        )
    inside = (chosen >= 0) & (chosen < num_actions)
    starts = np.arange(n, dtype=np.intp) * num_actions
    legal = inside & (masks.take(starts + np.clip(chosen, 0, num_actions - 1)) == 1)
    if not legal.all():
        bad = int(np.flatnonzero(~legal)[0])
        what = int(chosen[bad])
        named = f"('{name_of(what)}') " if 0 <= what < num_actions else ""
        raise IllegalActionError(
            f"action {what} {named}is not legal in row {bad}; the legal actions are"
            " the ones its action_mask row marks"
        )
    return chosen
