"""What every game's research encoding does the same way, written once: the
:class:`~umtali.rl.encoding.Research` hook's factories (:class:`GameResearch`), the
checks of an episode's options and actions, its rewards, a batch's buffer of masks and a
flat observation's layout. A game's encoding (its folder's ``research`` package) calls
these with its own action space and names; :mod:`umtali.rl.spiel` is the same for the
games' OpenSpiel games.

>>> seat_rewards(1, -3.0)
(3.0, -3.0)
>>> margin_rewards((40, 25))
(15.0, -15.0)
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping
from types import ModuleType
from typing import Any, ClassVar, Final, Literal, Protocol, TypeVar, cast

import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from umtali.kernel.cards import quoted
from umtali.rl.encoding import (
    REWARDS,
    ArrayLayout,
    Batch,
    BatchObservation,
    Episode,
    IllegalActionError,
    Observer,
    Opponent,
    RewardKind,
    checked_actions,
)

__all__ = [
    "BATCH_ENCODING",
    "DEFAULT_ENCODING",
    "ENCODINGS",
    "WHO",
    "EncodingVersion",
    "GameResearch",
    "RowBatch",
    "Scale",
    "TurnEpisode",
    "TurnHand",
    "ViewOpponent",
    "array_layout",
    "checked_batch_size",
    "checked_encoding",
    "checked_index",
    "checked_reward",
    "checked_rows",
    "checked_rules",
    "flat_layout",
    "history_planes",
    "margin_rewards",
    "mask_buffer",
    "masked",
    "rules_of_preset",
    "seat_rewards",
    "versioned_name",
]

EncodingVersion = Literal["v0", "v1"]
ENCODINGS: Final = ("v0", "v1")
"""The versions of the observation arrays (docs/RESEARCH.md, "Observations"): ``v0``,
the first, with the discard pile as card codes, counts as they are and the history as
raw action indices; ``v1``, every entry 0 or 1 or a count scaled to [0, 1], for a
network to read as it is."""

DEFAULT_ENCODING: Final[EncodingVersion] = "v1"
"""The version an observer, environment or OpenSpiel game uses unless told."""

BATCH_ENCODING: Final[EncodingVersion] = DEFAULT_ENCODING
"""The arrays' version a batch gives unless asked for another: the default, as every
environment's (``encoding="v0"`` gives the first, as batches gave before, and is the
quicker to make: ``v1``'s one-hot rows are several times larger)."""

R = TypeVar("R")

WHO: Final = np.array([[0, 0], [1, 0], [0, 1]], np.uint8)
"""By a ``history`` row's first entry (0 no move, 1 the viewer's, 2 the other's), its
two ``v1`` columns: the viewer's move, the other's."""


def checked_reward(reward: str) -> RewardKind:
    """``reward`` if it is one of :data:`~umtali.rl.encoding.REWARDS`, else
    ``ValueError`` naming them."""
    if reward in REWARDS:
        return cast("RewardKind", reward)
    raise ValueError(f"reward is one of {', '.join(REWARDS)}, not {quoted(reward)}")


def rules_of_preset(
    rules: object, *, default: R, kind: type[R], presets: Mapping[str, R], named: str
) -> R:
    """``rules`` as a game's rules of type ``kind``: rules themselves, the name of one of
    ``presets``, or ``None`` for ``default``; else ``ValueError`` naming the presets
    (``named`` names the type in it).

    >>> rules_of_preset("b", default=1, kind=int, presets={"a": 1, "b": 2}, named="an int")
    2
    """
    if rules is None:
        return default
    if isinstance(rules, kind):
        return rules
    if isinstance(rules, str) and rules in presets:
        return presets[rules]
    raise ValueError(
        f"rules are {named} or a preset's name ({', '.join(presets)}), not {quoted(rules)}"
    )


def checked_rules(mine: Any, theirs: Any) -> None:
    """Nothing if an observer of the rules ``mine`` may encode a hand under ``theirs``
    (they are the same), else ``ValueError`` naming both."""
    if theirs != mine:
        raise ValueError(
            f"this observer encodes hands under the rules {mine.name!r}, not"
            f" {theirs.name!r}: make an Observer of the hand's rules"
        )


def masked(
    arrays: dict[str, npt.NDArray[np.generic]], mask: npt.NDArray[np.int8], *, flat: bool
) -> dict[str, npt.NDArray[np.generic]]:
    """An observation from its ``arrays`` (besides the mask) and ``mask``: the arrays
    with ``action_mask`` last; or, ``flat``, PettingZoo's pair of the arrays raveled and
    joined in order as ``float32`` and the mask.

    >>> masked({"a": np.ones((2, 2), np.uint8)}, np.zeros(3, np.int8), flat=True)["observation"]
    array([1., 1., 1., 1.], dtype=float32)
    """
    if flat:
        vector = np.concatenate(list(arrays.values()), axis=None, dtype=np.float32)
        return {"observation": vector, "action_mask": mask}
    arrays["action_mask"] = mask
    return arrays


def checked_index(
    index: object,
    *,
    num_actions: int,
    is_legal: Callable[[int], bool],
    name_of: Callable[[int], str],
    player: int,
) -> int:
    """``index`` as an int if it is a legal action now (by ``is_legal``), else
    :class:`~umtali.rl.encoding.IllegalActionError` naming the move (as ``name_of``
    names it) and ``player``, the player to move. Numpy's ints are ints here (a space's
    ``sample()`` gives one).

    >>> checked_index(np.int64(2), num_actions=4, is_legal=lambda i: i == 2,
    ...               name_of=str, player=0)
    2
    """
    if isinstance(index, bool) or not isinstance(index, (int, np.integer)):
        raise IllegalActionError(f"an action is an int 0..{num_actions - 1}, not {quoted(index)}")
    value = int(index)
    if not 0 <= value < num_actions:
        raise IllegalActionError(
            f"{value} is not an action: an action is an int 0..{num_actions - 1}"
        )
    if not is_legal(value):
        raise IllegalActionError(
            f"action {value} ('{name_of(value)}') is not legal for player {player} now;"
            " the legal actions are the ones its observation's action_mask marks"
        )
    return value


def seat_rewards(seat: int, reward: float) -> tuple[float, float]:
    """The rewards of a game of two: ``reward`` for ``seat``, its negative for the
    other (a won game, or an illegal action's penalty)."""
    return (reward, -reward) if seat == 0 else (-reward, reward)


def margin_rewards(scores: tuple[int, int]) -> tuple[float, float]:
    """Each seat's hand score less the other's, from both scores."""
    margin = float(scores[0] - scores[1])
    return (margin, -margin)


def checked_encoding(encoding: object) -> EncodingVersion:
    """``encoding`` if it is one of :data:`ENCODINGS`, else ``ValueError`` naming them."""
    if encoding in ENCODINGS:
        return encoding  # the test narrows it to one of the literals
    raise ValueError(f"encoding is one of {', '.join(ENCODINGS)}, not {quoted(encoding)}")


def versioned_name(first: str, version: str) -> str:
    """A game's PettingZoo name (its first, ``aec_name``: ``"umtali_v0"``) with the
    version ``version`` of its arrays in place of ``v0``: a name keeps its observations
    for good, as a Gymnasium id does.

    >>> versioned_name("umtali_v0", "v1"), versioned_name("gin_rummy_v0", "v0")
    ('umtali_v1', 'gin_rummy_v0')
    """
    return f"{first.rsplit('_v', 1)[0]}_{version}"


class Scale:
    """Counts mapped linearly from their bounds ``low``..``high`` onto [0, 1], as
    ``float32``, anything beyond a bound reading as that bound (the ``v1`` counts);
    the bounds converted once, three numpy calls a use.

    >>> Scale([0, 0, 0, -10], [62, 31, 20, 10])([0, 31, 40, -5]).tolist()
    [0.0, 1.0, 1.0, 0.25]
    """

    def __init__(self, low: npt.ArrayLike, high: npt.ArrayLike) -> None:
        self.low = np.asarray(low, np.float32)
        self.span = np.asarray(high, np.float32) - self.low

    def __call__(self, values: npt.ArrayLike) -> npt.NDArray[np.float32]:
        found = np.subtract(values, self.low, dtype=np.float32)
        found /= self.span
        return found.clip(0.0, 1.0, out=found)  # the method: half np.clip's cost


def history_planes(
    rows: npt.NDArray[np.int16], features: npt.NDArray[np.uint8]
) -> npt.NDArray[np.uint8]:
    """The ``v1`` history from ``v0`` rows (each who moved, 1 the viewer or 2 the other,
    0 past the last move, and the move's token): each row the mover's two columns
    (:data:`WHO`), then the token's row of ``features`` (the game's 0/1 description of
    every token); all 0 past the last move.

    >>> rows = np.array([[1, 2], [2, 0], [0, 0]], np.int16)
    >>> history_planes(rows, np.eye(3, dtype=np.uint8)).tolist()
    [[1, 0, 0, 0, 1], [0, 1, 1, 0, 0], [0, 0, 0, 0, 0]]
    """
    out = np.zeros((len(rows), 2 + features.shape[1]), np.uint8)
    played = int(np.count_nonzero(rows[:, 0]))  # the moves fill the rows from the top
    out[:played, :2] = WHO[rows[:played, 0]]
    out[:played, 2:] = features[rows[:played, 1]]
    return out


def checked_batch_size(n: object) -> int:
    """``n`` if it is an int of at least 1 (how many hands a batch holds), else
    ``ValueError``."""
    if type(n) is not int or n < 1:
        raise ValueError(f"a batch holds n >= 1 hands, not {quoted(n)}")
    return n


def checked_rows(rows: npt.ArrayLike, n: int) -> npt.NDArray[np.intp]:
    """``rows`` as an array of distinct row numbers of a batch of ``n`` (the rows a step
    moves), else ``ValueError`` saying what is wrong.

    >>> checked_rows([2, 0], 3).tolist()
    [2, 0]
    >>> checked_rows([1, 1], 3)
    Traceback (most recent call last):
    ...
    ValueError: rows are distinct row numbers from 0 to 2, not [1, 1]
    """
    at = np.asarray(rows)
    if at.ndim != 1 or (at.size and not np.issubdtype(at.dtype, np.integer)):
        raise ValueError(f"rows are a list of row numbers, not an array of shape {at.shape}")
    if at.size and (at.min() < 0 or at.max() >= n or len(np.unique(at)) != at.size):
        raise ValueError(f"rows are distinct row numbers from 0 to {n - 1}, not {at.tolist()[:20]}")
    return at.astype(np.intp)


def mask_buffer(
    n: int, num_actions: int, given: npt.NDArray[np.int8] | None = None
) -> npt.NDArray[np.int8]:
    """The memory a batch of ``n`` hands writes its masks into: ``given`` (another's,
    shared with a parent process), checked to be a flat int8 array of ``n *
    num_actions`` entries and cleared; else a new one.

    >>> mask_buffer(2, 3).tolist()
    [0, 0, 0, 0, 0, 0]
    """
    checked_batch_size(n)
    if given is None:
        return np.zeros(n * num_actions, np.int8)
    if given.shape != (n * num_actions,) or given.dtype != np.int8:
        raise ValueError(
            f"mask_buffer is a flat int8 array of n * {num_actions} entries, not"
            f" {given.dtype} of shape {given.shape}"
        )
    given[:] = 0
    return given


def flat_layout(
    arrays: dict[str, spaces.Box], *, flat: bool
) -> tuple[dict[str, slice], spaces.Dict]:
    """An observer's layout from the spaces of its arrays (``action_mask`` among them):
    where each array but the mask lies in the flat vector (the arrays raveled and
    joined in order), and the ``Dict`` space of an observation, flat (PettingZoo's pair
    ``{"observation": vector, "action_mask": mask}``, the vector ``float32``) or not.

    >>> parts, space = flat_layout(
    ...     {"a": spaces.Box(0, 1, (2, 3)), "action_mask": spaces.Box(0, 1, (5,))}, flat=True
    ... )
    >>> parts, space["observation"].shape
    ({'a': slice(0, 6, None)}, (6,))
    """
    boxes: dict[str, spaces.Box] = {
        name: box for name, box in arrays.items() if name != "action_mask"
    }
    mask = arrays["action_mask"]
    parts: dict[str, slice] = {}
    start = 0
    for name, box in boxes.items():
        size = int(np.prod(box.shape))
        parts[name] = slice(start, start + size)
        start += size
    if not flat:
        return parts, spaces.Dict({**boxes, "action_mask": mask})
    low = np.concatenate([b.low.ravel() for b in boxes.values()]).astype(np.float32)
    high = np.concatenate([b.high.ravel() for b in boxes.values()]).astype(np.float32)
    return parts, spaces.Dict(
        {"observation": spaces.Box(low, high, dtype=np.float32), "action_mask": mask}
    )


class GameResearch:
    """What every game's :class:`~umtali.rl.encoding.Research` does the same way, from
    the modules of its encoding (``package``'s :attr:`modules`), each imported when first
    asked for: its action space's size and names (``actions``: ``NUM_ACTIONS``,
    ``action_text``), ``default_penalty`` and ``BotOpponent`` (``episode``), its
    ``Observer`` (``observation``), its ``Episode``, seen through one of its observers
    only, its ``HandBatch`` and ``batch_arrays`` (``vector``), its OpenSpiel game
    (``openspiel``, registered when imported).

    A game's subclass gives its facts (``game``, ``env_id``, ``aec_name``,
    ``openspiel_name``, ``seats``, ``levels``), :attr:`title`, :attr:`package`,
    :attr:`modules`, and :meth:`rules_of`; it overrides what its modules keep elsewhere.
    """

    title: ClassVar[str]
    """The game's name in messages (``"Umtali"``)."""
    package: ClassVar[str]
    """The package of its encoding's modules (``"umtali.games.umtali.research"``)."""
    modules: ClassVar[tuple[str, ...]]
    """The names of its encoding's modules."""

    @staticmethod
    def rules_of(rules: object) -> object:
        """``rules`` as the game's rules object (see :class:`~umtali.rl.encoding.Research`)."""
        raise NotImplementedError

    def module(self, name: str) -> ModuleType:
        """The encoding's module ``name`` (one of :attr:`modules`), imported when asked."""
        if name not in self.modules:
            raise ValueError(
                f"{self.title}'s encoding has no module {name!r}; it has {self.modules}"
            )
        return importlib.import_module(f"{self.package}.{name}")

    @property
    def num_actions(self) -> int:
        """The size of the action space (its ``actions`` module's ``NUM_ACTIONS``)."""
        found: int = self.module("actions").NUM_ACTIONS
        return found

    def action_text(self, index: int) -> str:
        """Action ``index`` in the game's notation."""
        text: str = self.module("actions").action_text(index)
        return text

    def default_penalty(self, reward: RewardKind) -> float:
        """What an illegal action costs its player by default, for ``reward``."""
        penalty: float = self.module("episode").default_penalty(reward)
        return penalty

    def observer(
        self,
        rules: object = None,
        *,
        perfect_recall: bool = False,
        flat: bool = True,
        encoding: str = DEFAULT_ENCODING,
    ) -> Observer:
        """An observer of ``rules``' game (see :class:`~umtali.rl.encoding.Research`)."""
        made: Observer = self.module("observation").Observer(
            self.rules_of(rules),
            perfect_recall=perfect_recall,
            flat=flat,
            encoding=checked_encoding(encoding),
        )
        return made

    def episode(
        self,
        rng: random.Random,
        observer: Observer,
        *,
        rules: object = None,
        reward: RewardKind = "margin",
    ) -> Episode:
        """A new episode dealt from ``rng``, seen through ``observer``, one of this
        game's observers (else ``TypeError``), paying ``reward``."""
        if not isinstance(observer, self.module("observation").Observer):
            one = f"{'an' if self.title[0] in 'AEIOU' else 'a'} {self.title}"
            raise TypeError(f"{one} episode is seen by {one} observer, not {observer!r}")
        made: Episode = self.module("episode").Episode(rng, self.rules_of(rules), reward, observer)
        return made

    def opponent(self, level: str) -> Opponent:
        """The computer player of ``level``, as an opponent."""
        made: Opponent = self.module("episode").BotOpponent(level)
        return made

    def batch(
        self,
        n: int,
        *,
        seed: int | None = None,
        rules: object = None,
        copy: bool = False,
        mask_buffer: npt.NDArray[np.int8] | None = None,
        encoding: str = BATCH_ENCODING,
    ) -> Batch:
        """``n`` hands stepped together (see :class:`~umtali.rl.encoding.Research`)."""
        made: Batch = self.module("vector").HandBatch(
            n,
            seed=seed,
            rules=self.rules_of(rules),
            copy=copy,
            mask_buffer=mask_buffer,
            encoding=checked_encoding(encoding),
        )
        return made

    def batch_arrays(self, encoding: str = BATCH_ENCODING) -> ArrayLayout:
        """The arrays of its batches' observations besides the mask, in version
        ``encoding`` of the arrays."""
        layout: ArrayLayout = self.module("vector").batch_arrays(checked_encoding(encoding))
        return layout

    def register_openspiel(self) -> None:
        """Importing the module registers the game with ``pyspiel``."""
        self.module("openspiel")


class TurnHand(Protocol):
    """A game's hand, as :class:`TurnEpisode` plays it."""

    @property
    def player(self) -> int:
        """The seat to move."""

    def is_over(self) -> bool:
        """Whether the hand has ended."""

    def push(self, action: int) -> None:
        """Play the engine's action int ``action``."""


class TurnEpisode:
    """What every game's episode of two seats moving in turn does the same way: its
    steps, a hand at a time (:meth:`step`, :meth:`final_rewards`), and its legal
    actions: the mask, the checks and an illegal action's rewards. A game's ``Episode``
    extends it, giving :attr:`num_actions`, :meth:`name_of`, :meth:`penalty_of`, and
    how its hands are dealt (:meth:`_deal`), moved (:meth:`engine_action`, :meth:`_legal_now`), scored
    (:meth:`scores`, :meth:`_game_over`, :meth:`_winner`) and told (:meth:`hand_text`);
    or its own :meth:`legal`, :meth:`is_over` and :meth:`step`, keeping ``to_move`` and
    ``reward`` up to date. Its ``__init__`` starts with :meth:`_start` and deals the
    first hand with :meth:`_next_hand`."""

    num_actions: ClassVar[int]
    """The size of the game's action space."""
    to_move: int
    """The seat to move (once the episode is over, the last one that moved)."""
    reward: RewardKind
    """What the episode pays."""
    hand: TurnHand
    """The hand under way (or the last one, once the episode is over)."""
    _legal: list[int] | None
    """The legal action indices now, once asked for."""

    def _start(self, rng: random.Random, rules: Any, reward: str, observer: Any) -> None:
        """What every game's episode does first: keep ``rules``, ``reward`` (checked),
        ``observer`` and ``rng``, with no legal actions asked for yet."""
        self.rules = rules
        self.reward = checked_reward(reward)
        self.observer = observer
        self._rng = rng
        self._legal = None

    @staticmethod
    def engine_action(index: int) -> int:
        """The engine's action int of action index ``index``."""
        return index

    def _legal_now(self) -> list[int]:
        """The legal action indices now, in the engine's order."""
        raise NotImplementedError

    def _deal(self) -> TurnHand:
        """The next hand, dealt."""
        raise NotImplementedError

    def _next_hand(self) -> None:
        """Deal the next hand (:meth:`_deal`) and play it: its player to move."""
        self.hand = self._deal()
        self.to_move = self.hand.player
        self._legal = None

    def scores(self) -> tuple[int, int] | None:
        """Both seats' scores in the hand under way, once it is over."""
        raise NotImplementedError

    def _game_over(self) -> bool:
        """Whether the game (of ``reward="game"``) is over."""
        raise NotImplementedError

    def _winner(self) -> int | None:
        """The seat that won the game, once it is over."""
        raise NotImplementedError

    def legal(self) -> list[int]:
        """The legal action indices now, in the engine's order; kept until the next move
        (do not change the list)."""
        if self._legal is None:
            self._legal = self._legal_now()
        return self._legal

    def is_over(self) -> bool:
        """Whether the episode has ended."""
        return self.hand.is_over()

    def step(self, index: int) -> tuple[float, float] | None:
        """Play the legal action ``index`` (checked by the caller). When it ends the
        episode, return both seats' rewards; else deal the next hand of a game if this
        one ended, and return ``None``."""
        hand = self.hand
        mover = hand.player
        hand.push(self.engine_action(index))
        self._legal = None
        if not hand.is_over():
            self.to_move = hand.player
            return None
        self.to_move = mover
        if self.reward == "margin" or self._game_over():
            return self.final_rewards()
        self._next_hand()
        return None

    def final_rewards(self) -> tuple[float, float]:
        """Both seats' rewards of the finished episode: with ``reward="game"``, 1 to the
        game's winner and -1 to the loser; else the hand's score margins."""
        if self.reward == "game":
            winner = self._winner()
            if winner is None:
                raise ValueError("the game is not over: its rewards come at its end")
            return seat_rewards(winner, 1.0)
        scores = self.scores()
        if scores is None:
            raise ValueError("the episode is not over: its rewards come at its end")
        return margin_rewards(scores)

    @staticmethod
    def name_of(index: int) -> str:
        """Action ``index`` in the game's notation."""
        raise NotImplementedError

    @staticmethod
    def penalty_of(reward: RewardKind) -> float:
        """What an illegal action costs by default, for ``reward``."""
        raise NotImplementedError

    @staticmethod
    def hand_text(hand: Any) -> str:
        """``hand`` as an onlooker who sees every card would tell it."""
        raise NotImplementedError

    def table_text(self) -> str:
        """The hand under way as text, both hands shown: the table as an onlooker with
        every card face up would see it (what the environments render)."""
        return self.hand_text(self.hand)

    def mask(self, seat: int) -> npt.NDArray[np.bool_]:
        """``seat``'s legal moves as a boolean mask (all false when he is not to move)."""
        mask = np.zeros(self.num_actions, np.bool_)
        if self.to_move == seat and not self.is_over():
            mask[self.legal()] = True
        return mask

    def is_legal(self, index: int) -> bool:
        """Whether action ``index`` is a legal move now (an int outside the space is not)."""
        return 0 <= index < self.num_actions and index in self.legal()

    def check(self, index: object) -> int:
        """``index`` as an int if it is a legal move now, else
        :class:`~umtali.rl.encoding.IllegalActionError` naming the move and the player
        to move. Numpy's ints are ints here."""
        return checked_index(
            index,
            num_actions=self.num_actions,
            is_legal=self.is_legal,
            name_of=self.name_of,
            player=self.to_move,
        )

    def illegal_rewards(self, offender: int, penalty: float | None) -> tuple[float, float]:
        """Both seats' rewards when ``offender`` ends the episode with an illegal action:
        ``penalty`` for him (by default :meth:`penalty_of` the reward), its negative for
        the other."""
        return seat_rewards(offender, self.penalty_of(self.reward) if penalty is None else penalty)


class ViewOpponent:
    """What every game's computer opponent in an environment does the same way: the
    computer player of a level of the game's :attr:`bots` (made when the opponent is),
    playing the game's episodes only, each move checked. A game's ``BotOpponent``
    extends it: its :attr:`title`, :attr:`bots`, :attr:`episode_type` and
    :meth:`bot_move`, the bot's choice from the view of the seat to move only."""

    title: ClassVar[str]
    """The game's name in messages."""
    bots: ClassVar[Mapping[str, Callable[[], Any]]]
    """The game's computer players, a maker a level."""
    episode_type: ClassVar[type[Any]]
    """The game's episode, the one kind it plays."""

    def __init__(self, level: str) -> None:
        if level not in self.bots:
            raise ValueError(f"a level is one of {', '.join(self.bots)}, not {quoted(level)}")
        self.level = level
        self.bot = self.bots[level]()

    def bot_move(self, episode: Any, rng: random.Random) -> int:
        """The action index of the move :attr:`bot` chooses with ``rng`` from what the
        seat to move in ``episode`` sees."""
        raise NotImplementedError

    def row_move(self, batch: Any, row: int, rng: random.Random) -> int:
        """The action index of the move :attr:`bot` chooses with ``rng`` for the seat to
        move in row ``row`` of ``batch`` (the game's batch), from what that seat sees;
        the batch's step checks it."""
        raise NotImplementedError

    def choose(self, episode: Episode, rng: random.Random) -> int:
        """The index of the move the computer makes for the player to move;
        :class:`~umtali.rl.encoding.IllegalActionError` if it breaks the rules."""
        if not isinstance(episode, self.episode_type):
            one = f"{'an' if self.title[0] in 'AEIOU' else 'a'} {self.title}"
            raise TypeError(f"{one} computer plays {one} episode, not {episode!r}")
        chosen: int = episode.check(self.bot_move(episode, rng))
        return chosen


def array_layout(arrays: dict[str, spaces.Box], names: tuple[str, ...]) -> ArrayLayout:
    """The layout of a batch's observation (:data:`~umtali.rl.encoding.ArrayLayout`):
    of the spaces ``arrays`` of an observer's arrays, those ``names``, each one's shape
    and type.

    >>> array_layout({"a": spaces.Box(0, 1, (2, 3), np.uint8)}, ("a",))
    {'a': ((2, 3), dtype('uint8'))}
    """
    layout: ArrayLayout = {}
    for name in names:
        box = arrays[name]
        assert box.shape is not None
        layout[name] = (box.shape, box.dtype)
    return layout


class RowBatch:
    """What every game's batch of hands, one a row, does the same way: its start
    (:meth:`_start`), :meth:`reset`, :meth:`step` and the stacked observations, and its
    rows' legal actions, kept in ``_legal`` (empty before the first reset). A game's
    ``HandBatch`` extends it: its :attr:`num_actions`, :attr:`arrays` and
    :meth:`action_text`, and how a row is dealt (:meth:`_blank`, :meth:`_deal`), played
    (:meth:`_play`) and looked at (:meth:`_turn`: whose turn, which moves; :meth:`_seen`:
    the observation, made only when asked for)."""

    n: int
    """How many hands."""
    _legal: list[list[int]]
    num_actions: ClassVar[int]
    """The game's action space's size."""
    arrays: ClassVar[tuple[str, ...]]
    """The arrays of a batch's observation besides its mask."""

    def _start(
        self,
        n: int,
        rules: object,
        observer: Observer,
        *,
        seed: int | None,
        copy: bool,
        buffer: npt.NDArray[np.int8] | None,
    ) -> None:
        """What every batch's ``__init__`` does: ``n`` rows under ``rules``, seen by
        ``observer``, their masks in ``buffer`` (a new one if ``None``)."""
        masks = mask_buffer(n, self.num_actions, buffer)
        self.n = n
        self.rules = rules
        self.copy = copy
        self.observer = observer
        self._rng = random.Random(seed)
        self._legal = []
        self._arrays: dict[str, npt.NDArray[Any]] = {}  # every row's last observation, stacked
        self._unseen: set[int] = set()  # the rows moved since their last observation
        self.to_move = np.zeros(n, np.int8)
        self.hands_played = 0
        self._mask_buffer = masks
        self._mask = masks.reshape(n, self.num_actions).view()
        self._mask.flags.writeable = False

    @staticmethod
    def action_text(index: int) -> str:
        """An action index as text (in messages)."""
        raise NotImplementedError

    def _blank(self) -> None:
        """Make room for every row's hand (each then dealt by :meth:`_deal`)."""
        raise NotImplementedError

    def _deal(self, row: int) -> None:
        """Deal row ``row`` a new hand from the batch's RNG."""
        raise NotImplementedError

    def _play(self, row: int, index: int) -> tuple[int, int] | None:
        """Play action index ``index`` in row ``row``: the hand's scores if it ended."""
        raise NotImplementedError

    def _turn(self, row: int) -> tuple[int, list[int]]:
        """Row ``row``'s player to move and his legal action indices."""
        raise NotImplementedError

    def _seen(self, row: int, seat: int, legal: list[int]) -> dict[str, npt.NDArray[np.generic]]:
        """Row ``row``'s observation by ``seat``, the player to move, whose legal action
        indices are ``legal``."""
        raise NotImplementedError

    def reset(self, seed: int | None = None) -> BatchObservation:
        """Deal every row anew (from ``seed`` if given) and return the observations."""
        if seed is not None:
            self._rng = random.Random(seed)
        self._blank()
        for row in range(self.n):
            self._deal(row)
        self.hands_played = 0
        return self._observe()

    def step(
        self, actions: npt.ArrayLike, rows: npt.ArrayLike | None = None
    ) -> tuple[BatchObservation, npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Play ``actions[i]`` (an action index) in row ``i``, for every row; return the
        new observations, the rewards by row and seat (the hand's score margin), and
        which rows' hands ended (each dealt anew at once).
        :class:`~umtali.rl.encoding.IllegalActionError` (nothing moved) if any action is
        not legal in its row. With ``rows`` (distinct row numbers) only those rows move,
        ``actions[j]`` in row ``rows[j]``; the others stay as they are."""
        rewards, done = self.play(actions, rows)
        return self.observe(), rewards, done

    def play(
        self, actions: npt.ArrayLike, rows: npt.ArrayLike | None = None
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """:meth:`step` without the stacked observations (:meth:`observe` gives them):
        the rewards and the ended hands, the legal moves and ``to_move`` brought up to
        date. A batch against the computer plays its moves so, observing once."""
        self.require_hands()
        size = self.num_actions
        if rows is None:
            moving = list(range(self.n))
            chosen = checked_actions(actions, self._mask_buffer, size, self.action_text)
        else:
            at = checked_rows(rows, self.n)
            moving = at.tolist()
            chosen = checked_actions(actions, self._mask[at].reshape(-1), size, self.action_text)
        rewards = np.zeros((self.n, 2), np.float32)
        done = np.zeros(self.n, np.bool_)
        for row, index in zip(moving, chosen.tolist(), strict=True):
            scores = self._play(row, index)
            if scores is not None:
                margin = scores[0] - scores[1]
                rewards[row] = (margin, -margin)
                done[row] = True
                self.hands_played += 1
                self._deal(row)
        self._look_at(moving)
        return rewards, done

    def _look_at(self, rows: list[int]) -> None:
        """Look afresh at ``rows``: each one's player to move and legal moves (into the
        masks' buffer); their observations are made when next asked for (a batch against
        the computer moves some rows several times between two)."""
        size = self.num_actions
        for row in rows:
            seat, legal = self._turn(row)
            self.to_move[row] = seat
            self._mask_buffer[row * size + np.array(self._legal[row], np.intp)] = 0
            self._mask_buffer[row * size + np.array(legal, np.intp)] = 1
            self._legal[row] = legal
        self._unseen.update(rows)

    def _observe(self) -> BatchObservation:
        """Look at every row afresh (a reset's way) and return the observations."""
        self._mask_buffer[:] = 0
        self._legal = [[] for _ in range(self.n)]
        self._look_at(list(range(self.n)))
        return self.observe()

    def observe(self) -> BatchObservation:
        """Every row's observation by its player to move, stacked (new arrays, the
        caller's; the masks are the batch's own unless it copies them)."""
        self.require_hands()
        for row in sorted(self._unseen):
            obs = self._seen(row, int(self.to_move[row]), self._legal[row])
            if not self._arrays:  # the first observation gives the arrays' shapes
                self._arrays = {
                    name: np.empty((self.n, *obs[name].shape), obs[name].dtype)
                    for name in self.arrays
                }
            for name, array in self._arrays.items():
                array[row] = obs[name]
        self._unseen.clear()
        stacked: BatchObservation = {name: array.copy() for name, array in self._arrays.items()}
        stacked["action_mask"] = self._mask.copy() if self.copy else self._mask
        return stacked

    @property
    def legal(self) -> list[list[int]]:
        """For each row, its legal action indices in the engine's order."""
        return [list(row) for row in self._legal]

    @property
    def legal_counts(self) -> npt.NDArray[np.intp]:
        """How many legal moves each row has."""
        return np.array([len(row) for row in self._legal], np.intp)

    @property
    def legal_indices(self) -> npt.NDArray[np.intp]:
        """Every row's legal action indices, row after row, in one array."""
        return np.array([i for row in self._legal for i in row], np.intp)

    def require_hands(self) -> None:
        """Nothing, once the batch has hands; else ``RuntimeError``."""
        if not self._legal:
            raise RuntimeError("the batch has no hands yet: call reset() first")

    def sample_actions(self, rng: np.random.Generator) -> npt.NDArray[np.intp]:
        """A legal action for every row, each drawn uniformly from its row's legal moves
        with ``rng``."""
        self.require_hands()
        counts = self.legal_counts
        picks = (rng.random(self.n) * counts).astype(np.intp)
        return np.array(
            [row[pick] for row, pick in zip(self._legal, picks.tolist(), strict=True)], np.intp
        )
