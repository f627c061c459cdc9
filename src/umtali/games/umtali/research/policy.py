"""A small learnable policy: a linear softmax over the legal actions, each described by a
few features, trained by REINFORCE (policy gradient) in plain numpy, and played as a bot.

Each legal action index (:mod:`umtali.games.umtali.research.actions`) is scored as ``weights @ features``,
the features (:data:`FEATURES`) being what the move does with the cards: its kind (its
block of the action space), how many cards and points it lays on the table, what its
discard gives away (points, a card next to others in hand or to cards the opponent took
from the pile) and what a take brings in. They read only the player's hand, the cards the
opponent is known to hold, the stock's size and what the table accepts, so the same
numbers come from an observation
(:meth:`Position.of_observation`, for training on the environments) and from a
:class:`~umtali.games.umtali.view.PlayerView` (:meth:`Position.of_view`, for :class:`PolicyBot`
in the arena).

>>> from umtali.games.umtali.research.actions import GIVE, KEEP
>>> from umtali.games.umtali.state import HandState
>>> from umtali.games.umtali.view import PlayerView
>>> policy = LinearPolicy()  # all weights 0: every legal move equally likely
>>> view = PlayerView.of(HandState.from_seed(1), 0)
>>> policy.probabilities(Position.of_view(view), [KEEP, GIVE]).tolist()
[0.5, 0.5]
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from umtali.games.umtali.moves import Move, MoveKind
from umtali.games.umtali.research.actions import (
    ACTION_BLOCKS,
    ENGINE_ACTIONS,
    INDEX_OF_ACTION,
    NUM_ACTIONS,
    block_of,
)
from umtali.games.umtali.research.observation import CARD_PLANES, COUNTS, count_bounds
from umtali.games.umtali.rules import STANDARD
from umtali.games.umtali.view import PlayerView
from umtali.kernel.cards import (
    JACKS,
    RANK_MASKS,
    SUIT_MASKS,
    card_points,
    cards_of,
    quoted,
    rank_of,
)

__all__ = [
    "FEATURES",
    "LinearPolicy",
    "PolicyBot",
    "PolicyError",
    "Position",
    "action_features",
]

FEATURES: Final = (
    *(f"is_{block.name.lower()}" for block in ACTION_BLOCKS),
    "cards_laid",
    "points_laid",
    "discard_points",
    "discard_near_opponent",
    "discard_neighbours",
    "take_points",
    "take_neighbours",
    "take_playable",
    "draw_stock_left",
    "cards_left",
)
"""What each weight of a :class:`LinearPolicy` multiplies, in order: a 0/1 for the
move's block, then numbers scaled to about 0..1."""

_BLOCKS: Final = len(ACTION_BLOCKS)
_DRAW_BLOCK: Final = [block.name for block in ACTION_BLOCKS].index("DRAW")
_HAND: Final = CARD_PLANES.index("hand")
_OPPONENT_HOLDS: Final = CARD_PLANES.index("opponent_holds")
_ACCEPTS: Final = CARD_PLANES.index("table_accepts")
_STOCK: Final = COUNTS.index("stock")
_STOCK_BOUND: Final = int(count_bounds(STANDARD)[_STOCK])  # the same under every rules


class PolicyError(ValueError):
    """Weights of the wrong shape, or a policy file that holds none."""


@dataclass(frozen=True)
class _Effect:
    """What one action does with cards, as masks: laid on the table from hand, discarded,
    taken from the pile."""

    block: int
    laid: int
    discard: int
    taken: int


def _effect(index: int) -> _Effect:
    move = Move.from_action(ENGINE_ACTIONS[index])
    block = ACTION_BLOCKS.index(block_of(index))
    mask = 0
    for c in move.cards:
        mask |= 1 << c
    kind = move.kind
    if kind in (MoveKind.MELD, MoveKind.SOLO):
        return _Effect(block, mask if kind is MoveKind.MELD else 1 << move.cards[0], 0, 0)
    if kind is MoveKind.PAIR:
        return _Effect(block, mask, 0 if move.discard is None else 1 << move.discard, 0)
    if kind is MoveKind.DISCARD:
        return _Effect(block, 0, mask, 0)
    if kind in (MoveKind.TAKE, MoveKind.TAKE_TWO):
        return _Effect(block, 0, 0, mask)
    return _Effect(block, 0, 0, 0)


_EFFECTS: Final = tuple(_effect(i) for i in range(NUM_ACTIONS))
"""By action index, what it does with cards (worked out once: 10,528 moves)."""


def _neighbourhood(card: int) -> int:
    """The cards that make a meld likelier beside ``card``: its rank, and the two cards
    either side of it in its suit (Jacks join no meld)."""
    if JACKS >> card & 1:
        return 0
    suit = SUIT_MASKS[card // 13]
    near = 0
    for step in (-2, -1, 1, 2):
        other = card + step
        if 0 <= other < 52 and suit >> other & 1:
            near |= 1 << other
    return (near | RANK_MASKS[rank_of(card)]) & ~JACKS & ~(1 << card)


_NEAR: Final = tuple(_neighbourhood(c) for c in range(52))


def _points(mask: int) -> int:
    return sum(card_points(c) for c in cards_of(mask))


@dataclass(frozen=True)
class Position:
    """What the features read of a moment of play: the mover's hand, the cards the
    opponent took from the pile and still holds, the cards left in the stock, and what
    the table accepts as solo cards."""

    hand: int
    opponent_known: int
    stock: int
    accepts: int

    @classmethod
    def of_observation(cls, observation: Mapping[str, npt.NDArray[np.generic]]) -> Position:
        """From an observation of :class:`umtali.games.umtali.research.observation.Observer` (the dict of
        arrays, ``flat=False``), in either version (``v1``'s counts are scaled)."""
        cards = observation["cards"]
        counts = observation["counts"]
        stock = counts[_STOCK]
        if counts.dtype.kind == "f":  # v1: the count over its bound
            stock = round(float(stock) * _STOCK_BOUND)
        return cls(
            _mask_of_row(cards[_HAND]),
            _mask_of_row(cards[_OPPONENT_HOLDS]),
            int(stock),
            _mask_of_row(cards[_ACCEPTS]),
        )

    @classmethod
    def of_view(cls, view: PlayerView) -> Position:
        """From a player's view (what a bot is given)."""
        return cls(view.hand.mask, view.opponent_known.mask, view.stock_size, view.open_mask())


def _mask_of_row(row: npt.NDArray[np.generic]) -> int:
    """A row of 52 0/1 entries as a card mask."""
    return int.from_bytes(np.packbits(row.astype(np.uint8), bitorder="little").tobytes(), "little")


def action_features(position: Position, indices: Sequence[int]) -> npt.NDArray[np.float64]:
    """The features (:data:`FEATURES`) of each action of ``indices`` at ``position``,
    one row an action.

    >>> from umtali.kernel.cards import parse_card, mask_of
    >>> from umtali.games.umtali.research.actions import DISCARD
    >>> hand = mask_of(parse_card(c) for c in ("Ks", "Qs", "4h"))
    >>> rows = action_features(Position(hand, 0, 20, 0), [DISCARD + parse_card("Ks"),
    ...                                               DISCARD + parse_card("4h")])
    >>> [(row[FEATURES.index("discard_points")], row[FEATURES.index("discard_neighbours")])
    ...  for row in rows.tolist()]
    [(1.0, 0.5), (0.2, 0.0)]
    """
    rows = np.zeros((len(indices), len(FEATURES)), np.float64)
    hand, known, accepts = position.hand, position.opponent_known, position.accepts
    held = hand.bit_count()
    base = _BLOCKS
    for row, index in enumerate(indices):
        effect = _EFFECTS[index]
        out = rows[row]
        out[effect.block] = 1.0
        if effect.laid:
            out[base] = effect.laid.bit_count() / 4
            out[base + 1] = _points(effect.laid) / 10
        if effect.discard:
            card = effect.discard.bit_length() - 1
            out[base + 2] = card_points(card) / 5
            out[base + 3] = (_NEAR[card] & known).bit_count() / 2
            out[base + 4] = (_NEAR[card] & hand).bit_count() / 2
        if effect.taken:
            near = 0
            for card in cards_of(effect.taken):
                near |= _NEAR[card]
            out[base + 5] = _points(effect.taken) / 5
            out[base + 6] = (near & hand & ~effect.taken).bit_count() / 2
            out[base + 7] = (effect.taken & (accepts | JACKS)).bit_count() / 2
        if effect.block == _DRAW_BLOCK:  # how much stock is left to draw from
            out[base + 8] = position.stock / 31
        left = held - effect.laid.bit_count() - effect.discard.bit_count()
        out[base + 9] = left / 11
    return rows


class LinearPolicy:
    """``softmax(features @ weights)`` over the legal actions (see the module).

    Attributes:
        weights: one a feature (:data:`FEATURES`); zeros by default (uniform play).
    """

    def __init__(self, weights: npt.ArrayLike | None = None) -> None:
        if weights is None:
            self.weights = np.zeros(len(FEATURES), np.float64)
        else:
            given = np.asarray(weights, np.float64)
            if given.shape != (len(FEATURES),):
                raise PolicyError(
                    f"a linear policy has {len(FEATURES)} weights, one a feature,"
                    f" not an array of shape {given.shape}"
                )
            self.weights = given.copy()

    def probabilities(self, position: Position, legal: Sequence[int]) -> npt.NDArray[np.float64]:
        """The chance of each action of ``legal`` (a softmax of their scores)."""
        return _softmax(action_features(position, legal) @ self.weights)

    def choose(
        self, position: Position, legal: Sequence[int], rng: np.random.Generator | None = None
    ) -> tuple[int, npt.NDArray[np.float64]]:
        """An action of ``legal`` and the gradient of its log-probability: drawn from the
        policy with ``rng``, else the likeliest (the first of equals). The gradient is
        the action's features less their expectation under the policy."""
        features = action_features(position, legal)
        chances = _softmax(features @ self.weights)
        at = int(rng.choice(len(legal), p=chances)) if rng is not None else int(chances.argmax())
        return legal[at], features[at] - chances @ features

    def to_json(self) -> str:
        """The weights by feature name, as JSON text (what :meth:`from_json` reads)."""
        return json.dumps(
            dict(zip(FEATURES, self.weights.round(6).tolist(), strict=True)), indent=1
        )

    @classmethod
    def from_json(cls, text: str) -> LinearPolicy:
        """A policy from :meth:`to_json`'s text; :class:`PolicyError` unless it names
        every feature's weight."""
        data = json.loads(text)
        if not isinstance(data, dict) or sorted(data) != sorted(FEATURES):
            raise PolicyError(
                f"a policy file holds one weight for each of the features"
                f" {', '.join(FEATURES)}; this one holds {quoted(data)}"
            )
        return cls([float(data[name]) for name in FEATURES])


def _softmax(scores: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    shifted = np.exp(scores - scores.max())
    result: npt.NDArray[np.float64] = shifted / shifted.sum()
    return result


class PolicyBot:
    """A :class:`LinearPolicy` as a computer player (the bot protocol of
    :mod:`umtali.games.umtali.bots`): it plays its likeliest move, or with ``sample`` draws one from
    the policy with the RNG it is given.

    >>> import random
    >>> from umtali.games.umtali.state import HandState
    >>> hand = HandState.from_seed(3)
    >>> PolicyBot(LinearPolicy()).choose(PlayerView.of(hand, 0), random.Random(0)).text()
    'keep'
    """

    def __init__(self, policy: LinearPolicy, *, sample: bool = False, name: str = "policy") -> None:
        self.policy = policy
        self.sample = sample
        self.name = name

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        if not view.legal:
            raise ValueError(f"the {self.name} bot was asked to move when it has no legal move")
        legal = [INDEX_OF_ACTION[move.action] for move in view.legal]
        draw = np.random.default_rng(rng.getrandbits(64)) if self.sample else None
        index, _ = self.policy.choose(Position.of_view(view), legal, draw)
        return view.legal[legal.index(index)]
