"""A learned baseline: a small network in plain numpy that reads the ``v1`` observation
tensor (:mod:`umtali.games.umtali.research.observation`) and scores the legal actions
through their ``v1`` vocabulary, and the computer player that plays it from a
:class:`~umtali.games.umtali.view.PlayerView` (the shipped weights:
:data:`WEIGHTS_FILE`; ``examples/train_network.py`` trains them).

The network:

* its input is the flat ``v1`` observation without the pile's places and the history:
  ``cards`` (21 planes of 52 cards), ``counts`` (scaled onto [0, 1]) and ``flags``,
  1,115 entries read from the tensor as they are (:data:`INPUTS`);
* one hidden layer, ``h = relu(W1 x + b1)`` (:data:`HIDDEN` units);
* an action head over the action space's vocabulary: each action index has its ``v1``
  token row (:func:`~umtali.games.umtali.research.observation.history_features`: its block,
  one of eleven, whether it lays a card face down, the cards it takes or lays, the second
  card), and the network gives one vector of 117 weights a block, ``Q = W2 h + b2``
  reshaped (11, 117); an action ``a`` of block ``k`` scores ``F[a] · Q[k]``. A softmax over
  the legal actions is the policy. So 14,272 actions cost 1,287 outputs, and what a card
  is worth depends on what is done with it (discarded, laid, taken).

>>> net = Network.initial(np.random.default_rng(0))
>>> from umtali.games.umtali.state import HandState
>>> from umtali.games.umtali.view import PlayerView
>>> bot = NetworkBot(net)
>>> bot.choose(PlayerView.of(HandState.from_seed(1), 0), random.Random(0)).text() in {"keep", "give"}
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from umtali.games.umtali.moves import Move
from umtali.games.umtali.research.actions import ACTION_BLOCKS, INDEX_OF_ACTION, block_of
from umtali.games.umtali.research.actions import NUM_ACTIONS as _NUM_ACTIONS
from umtali.games.umtali.research.observation import Observer, history_features
from umtali.games.umtali.view import PlayerView, determinize

__all__ = [
    "HIDDEN",
    "INPUTS",
    "WEIGHTS_FILE",
    "Network",
    "NetworkBot",
    "NetworkError",
    "Sample",
    "inputs_of",
    "make_bot",
    "shipped",
]

Array = npt.NDArray[np.float32]

HIDDEN: Final = 64
"""Units of the hidden layer."""

_OBSERVER: Final = Observer(flat=True)
_PARTS: Final = _OBSERVER.parts
INPUT_PARTS: Final = ("cards", "counts", "flags")
"""The parts of the flat ``v1`` observation the network reads, in order."""

INPUTS: Final = sum(_PARTS[p].stop - _PARTS[p].start for p in INPUT_PARTS)
"""Entries of the network's input (1,115)."""

_BLOCKS: Final = len(ACTION_BLOCKS)
_TOKEN_COLUMNS: Final = history_features().shape[1]
_HEAD: Final = _BLOCKS * _TOKEN_COLUMNS


@cache
def _action_rows() -> tuple[Array, npt.NDArray[np.intp]]:
    """By action index, its ``v1`` token row (float32) and its block's number."""
    table = history_features()[:_NUM_ACTIONS].astype(np.float32)
    blocks = np.array(
        [ACTION_BLOCKS.index(block_of(i)) for i in range(_NUM_ACTIONS)], dtype=np.intp
    )
    return table, blocks


WEIGHTS_FILE: Final = "weights/network-v1.npz"
"""The shipped weights, beside this module (package data)."""

_NAMES: Final = ("w1", "b1", "w2", "b2")


class NetworkError(ValueError):
    """Weights of the wrong shapes, or a file that does not hold them."""


def inputs_of(flat: npt.NDArray[np.generic]) -> Array:
    """The network's input from flat ``v1`` observations (the last axis is the
    observation's 3,871 entries, or 34,216 with the history): its parts
    :data:`INPUT_PARTS`, joined."""
    return np.concatenate([flat[..., _PARTS[p]] for p in INPUT_PARTS], axis=-1).astype(
        np.float32, copy=False
    )


@dataclass
class Sample:
    """Decisions to learn from: each row's input, its legal actions (flattened, with
    the row each belongs to) and the action chosen as a position in its row's list."""

    x: Array
    rows: npt.NDArray[np.intp]
    actions: npt.NDArray[np.intp]
    starts: npt.NDArray[np.intp]
    chosen: npt.NDArray[np.intp]

    @classmethod
    def of(cls, x: Array, legal: list[list[int]], chosen: list[int]) -> Sample:
        """From inputs, each row's legal indices and the position chosen in each."""
        counts = np.array([len(row) for row in legal], np.intp)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.intp)
        flat = np.fromiter((a for row in legal for a in row), np.intp, int(counts.sum()))
        rows = np.repeat(np.arange(len(legal), dtype=np.intp), counts)
        return cls(x, rows, flat, starts, np.asarray(chosen, np.intp))


class Network:
    """The network of the module: its weights and the policy they give."""

    def __init__(
        self, w1: npt.ArrayLike, b1: npt.ArrayLike, w2: npt.ArrayLike, b2: npt.ArrayLike
    ) -> None:
        shapes = {
            "w1": (INPUTS, HIDDEN),
            "b1": (HIDDEN,),
            "w2": (HIDDEN, _HEAD),
            "b2": (_HEAD,),
        }
        given = dict(zip(_NAMES, (w1, b1, w2, b2), strict=True))
        for name, shape in shapes.items():
            if np.shape(given[name]) != shape:
                raise NetworkError(
                    f"the weights {name} have shape {shape}, not {np.shape(given[name])}"
                )
        self.w1, self.b1, self.w2, self.b2 = (
            np.asarray(given[n], np.float32).copy() for n in _NAMES
        )

    @classmethod
    def initial(cls, rng: np.random.Generator) -> Network:
        """Small random weights (He's scale for the hidden layer, a small head)."""
        w1 = rng.normal(0.0, np.sqrt(2.0 / INPUTS), (INPUTS, HIDDEN))
        w2 = rng.normal(0.0, 0.01, (HIDDEN, _HEAD))
        return cls(w1, np.zeros(HIDDEN), w2, np.zeros(_HEAD))

    @property
    def params(self) -> list[Array]:
        """The weight arrays, in :data:`_NAMES` order (updated in place by training)."""
        return [self.w1, self.b1, self.w2, self.b2]

    # -- the policy -------------------------------------------------------------------
    def _forward(self, sample: Sample) -> tuple[Array, Array, Array, Array]:
        table, blocks = _action_rows()
        hidden = np.maximum(sample.x @ self.w1 + self.b1, 0.0)
        head = (hidden @ self.w2 + self.b2).reshape(-1, _BLOCKS, _TOKEN_COLUMNS)
        features = table[sample.actions]
        q = head[sample.rows, blocks[sample.actions]]
        logits = np.einsum("kj,kj->k", features, q)
        # A softmax over each row's legal actions.
        top = np.maximum.reduceat(logits, sample.starts)
        exp = np.exp(logits - top[sample.rows])
        chances = exp / np.add.reduceat(exp, sample.starts)[sample.rows]
        return hidden, features, logits, chances.astype(np.float32)

    def chances(self, sample: Sample) -> Array:
        """The chance of each legal action of ``sample`` (flattened as its actions)."""
        return self._forward(sample)[3]

    def gradients(
        self, sample: Sample, weights: npt.NDArray[np.floating] | None = None
    ) -> tuple[float, list[Array]]:
        """The mean of ``-weights * log p(chosen)`` over the rows (``weights`` 1 when
        none: the cross-entropy of imitation; an advantage: the policy gradient), and
        its gradient by each array of :attr:`params`."""
        _, blocks = _action_rows()
        hidden, features, _, chances = self._forward(sample)
        n = len(sample.chosen)
        scale = np.ones(n, np.float32) if weights is None else np.asarray(weights, np.float32)
        picked = sample.starts + sample.chosen
        loss = float(-(scale * np.log(chances[picked] + 1e-12)).mean())
        # d loss / d logit = scale * (p - onehot) / n
        dlogits = chances.copy()
        dlogits[picked] -= 1.0
        dlogits *= scale[sample.rows] / n
        dq = features * dlogits[:, None]
        dhead = np.zeros((n, _BLOCKS, _TOKEN_COLUMNS), np.float32)
        np.add.at(dhead, (sample.rows, blocks[sample.actions]), dq)
        dhead_flat = dhead.reshape(n, _HEAD)
        dw2 = hidden.T @ dhead_flat
        db2 = dhead_flat.sum(axis=0)
        dhidden = (dhead_flat @ self.w2.T) * (hidden > 0)
        dw1 = sample.x.T @ dhidden
        db1 = dhidden.sum(axis=0)
        return loss, [dw1, db1, dw2, db2]

    def choose_rows(
        self, sample: Sample, rng: np.random.Generator | None = None
    ) -> npt.NDArray[np.intp]:
        """For each row, the position of its chosen action in its legal list: drawn from
        the policy with ``rng``, else the likeliest (the first of equals)."""
        chances = self.chances(sample)
        ends = np.append(sample.starts[1:], len(chances))
        picks = []
        for start, end in zip(sample.starts.tolist(), ends.tolist(), strict=True):
            row = chances[start:end].astype(np.float64)
            if rng is None:
                picks.append(int(row.argmax()))
            else:
                picks.append(int(rng.choice(len(row), p=row / row.sum())))
        return np.array(picks, np.intp)

    # -- files ------------------------------------------------------------------------
    def save(self, path: str | Path) -> None:
        """The weights to ``path`` as a compressed ``.npz``, stored as float16 (the
        network plays the rounded weights: :meth:`rounded` gives them)."""
        arrays: dict[str, Any] = {
            n: p.astype(np.float16) for n, p in zip(_NAMES, self.params, strict=True)
        }
        np.savez_compressed(path, **arrays)

    def rounded(self) -> Network:
        """The network with its weights rounded to float16, as :meth:`save` keeps them."""
        return Network(*(p.astype(np.float16) for p in self.params))

    @classmethod
    def load(cls, path: str | Path) -> Network:
        """Weights from :meth:`save`'s file; :class:`NetworkError` if it holds none."""
        try:
            with np.load(path) as data:
                arrays = [data[name] for name in _NAMES]
        except (OSError, ValueError, KeyError) as error:
            raise NetworkError(
                f"{path} holds no weights of this network ({', '.join(_NAMES)}): {error}"
            ) from None
        return cls(*arrays)


@cache
def shipped() -> Network:
    """The network of the shipped weights (:data:`WEIGHTS_FILE`)."""
    source = resources.files(__package__ or "umtali.games.umtali.research") / WEIGHTS_FILE
    with resources.as_file(source) as path:
        return Network.load(path)


class NetworkBot:
    """A :class:`Network` as a computer player: it turns its :class:`PlayerView` into
    the ``v1`` observation (the view dealt out as a full hand by
    :func:`~umtali.games.umtali.view.determinize`; the observation reads only what the
    view shows, so any deal of the unseen cards gives the same one) and plays the
    network's likeliest legal move; with ``sample`` it draws one from the policy with
    the RNG it is given."""

    def __init__(
        self, network: Network | None = None, *, sample: bool = False, name: str = "network"
    ) -> None:
        self.network = shipped() if network is None else network
        self.sample = sample
        self.name = name
        self.version = "v1"

    def choose(self, view: PlayerView, rng: random.Random) -> Move:
        if not view.legal:
            raise ValueError(f"the {self.name} bot was asked to move when it has no legal move")
        if len(view.legal) == 1:
            return view.legal[0]
        legal = [INDEX_OF_ACTION[move.action] for move in view.legal]
        state = determinize(view, random.Random(0), undo=False)
        observer = _observer(view.rules)
        flat = observer.observe(state, view.player, view.game_scores, view.hands_left, legal)
        sample = Sample.of(inputs_of(flat["observation"])[None], [legal], [0])
        draw = np.random.default_rng(rng.getrandbits(64)) if self.sample else None
        return view.legal[int(self.network.choose_rows(sample, draw)[0])]


_OBSERVERS: dict[object, Observer] = {}


def _observer(rules: object) -> Observer:
    from umtali.games.umtali.rules import RuleSet

    assert isinstance(rules, RuleSet)
    found = _OBSERVERS.get(rules.name)
    if found is None or found.rules != rules:
        found = _OBSERVERS[rules.name] = Observer(rules, flat=True)
    return found


def make_bot() -> NetworkBot:
    """The shipped network as a computer player: the arena's entry point
    (``umtali arena umtali.games.umtali.research.network:make_bot random,greedy``)."""
    return NetworkBot()
