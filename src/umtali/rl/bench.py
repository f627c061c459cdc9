"""Our environments in ``umtali bench --peers`` (:mod:`umtali.sim.peers`), beside the
engines and the peers' environments: the arena's layer may not import this one, so the
command hands them over (``load_engines(seed, more=ENGINES)``). They are those of every
registered game with a research encoding (:mod:`umtali.rl.encoding`), named ``umtali
...`` for the default game and ``umtali GAME ...`` for another.

* ``umtali PettingZoo env``: the AEC loop docs/RESEARCH.md shows ("PettingZoo"),
  :func:`random_agents`, on :func:`umtali.rl.pettingzoo.env` (the order-enforcing
  wrapper included) with its default options: ``env.last()`` (the observation with its
  action mask, and the info with the legal moves), one of ``info["legal_moves"]`` drawn
  with ``random.Random``, then ``env.step(action)``. A test holds the documented loop and this one to the same
  text, so that the figures are those of the code a reader copies. Its timed call is
  ``env.last()``: what the player is handed to choose from.
* ``umtali HandBatch (256)`` and ``(1024)``: that many hands stepped together (the
  game's batch, :class:`umtali.rl.encoding.Batch`; Umtali's :mod:`umtali.rl.vector`), each step returning every observation and mask stacked; a
  move is one hand's step. The actions are drawn for all rows at once by
  :meth:`HandBatch.sample_actions`, as a training loop draws a batch's actions with
  numpy. Its timed call is one ``step``, shared out among the hands. A step has a cost
  of its own (its numpy calls) that more hands share more thinly, up to the point where
  the hands' objects and masks no longer stay in the caches together: on the machines
  we measured that point lies near 1,024 hands (docs/PERFORMANCE.md).
* ``umtali HandBatch (1024) × N processes``: N worker processes
  (:mod:`umtali.rl.parallel`, one a core, up to four) stepping 1,024 hands each, the
  one engine here that uses more than one core: what a training loop gets from the
  whole machine.
* The bare engine and the lone batches again, each with ``, compiled`` after its name,
  on the opt-in build of the rules core compiled with mypyc (:mod:`umtali.sim.compiled`,
  ``./dev build-fast``) when it is built from the sources as they stand (:data:`COMPILED`):
  each plays in a child process on that build, on the bench's core.

Like every module of :mod:`umtali.rl` it needs the ``rl`` extra: without it the import
raises ``ImportError``, and the command leaves these engines out.
"""

from __future__ import annotations

import contextlib
import os
import random
import time
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from umtali.games import DEFAULT_GAME
from umtali.rl.encoding import researched
from umtali.sim.hooks import hook_of
from umtali.sim.peers import Engine, OneHandEngine, OptionalEngine

if TYPE_CHECKING:
    from umtali.rl.encoding import Batch
    from umtali.rl.parallel import ParallelHandBatch

__all__ = [
    "BATCH_SIZES",
    "BATCH_STEPS",
    "COMPILED",
    "ENGINES",
    "PARALLEL_WORKERS",
    "BatchEngine",
    "ParallelBatchEngine",
    "PettingZooEngine",
    "engines_of",
    "random_agents",
]


def _ours(game: str) -> str:
    """How our engines of ``game`` are named: ``umtali`` for the default game."""
    return "umtali" if game == DEFAULT_GAME else f"umtali {game}"


def random_agents(game: Any, rng: random.Random) -> None:
    """Play ``game``'s episode (a PettingZoo AEC environment, reset) to its end, every
    agent's move drawn by ``rng`` from the legal ones its info lists (which its
    observation's mask marks too): the loop of docs/RESEARCH.md's PettingZoo example,
    line for line (a test compares them)."""
    for agent in game.agent_iter():  # noqa: B007  # the docs' names, kept
        obs, reward, terminated, truncated, info = game.last()  # noqa: RUF059
        action = None if terminated or truncated else rng.choice(info["legal_moves"])
        game.step(action)


class PettingZooEngine(OneHandEngine):
    """The documented AEC loop (:func:`random_agents`) on
    :func:`umtali.rl.pettingzoo.env` (see the module)."""

    def __init__(self, game: str = DEFAULT_GAME) -> None:
        from umtali import __version__
        from umtali.rl.pettingzoo import env

        self.name = f"{_ours(game)} PettingZoo env"
        self.version = __version__
        self.env = env(game=game)
        self.env.reset(seed=0)

    def play_hand(self, rng: random.Random) -> int:
        env = self.env
        env.reset()
        random_agents(env, rng)
        moves: int = env.unwrapped.moves
        return moves

    def timed_hand(self, rng: random.Random, times: list[int], overhead: int) -> None:
        clock = time.perf_counter_ns
        env = self.env
        env.reset()
        for _ in env.agent_iter():
            t0 = clock()
            _, _, terminated, truncated, info = env.last()
            times.append(clock() - t0 - overhead)
            if terminated or truncated:
                env.step(None)
            else:
                env.step(rng.choice(info["legal_moves"]))


BATCH_SIZES: Final = (256, 1024)
"""Hands in the benchmark's batches: a modest training loop's, and the size that stepped
fastest a hand on the machines we measured (docs/PERFORMANCE.md)."""

BATCH_STEPS = 8
"""Batch steps per :meth:`BatchEngine.play`."""


class BatchEngine:
    """A batch of ``hands`` hands of ``game`` (see the module)."""

    def __init__(self, hands: int, game: str = DEFAULT_GAME) -> None:
        from umtali import __version__

        self.version = __version__
        self.hands = hands
        """Hands stepped together."""
        self.game = game
        self.name = f"{_ours(game)} HandBatch ({hands})"
        self.batch = self._make()
        self.batch.reset()

    def _make(self) -> Batch | ParallelHandBatch:
        from umtali.rl.encoding import research

        return research(self.game).batch(self.hands, seed=0)

    @staticmethod
    def _sampler(rng: random.Random) -> np.random.Generator:
        # The batch's own sampler draws the actions, from a numpy generator seeded by
        # the block's RNG: a training loop draws a batch's actions with numpy too, not
        # row by row, and keeps its generator from step to step.
        return np.random.default_rng(rng.getrandbits(64))

    def play(self, rng: random.Random) -> tuple[int, int]:
        batch = self.batch
        sampler = self._sampler(rng)
        before = batch.hands_played
        for _ in range(BATCH_STEPS):
            batch.step(batch.sample_actions(sampler))
        return BATCH_STEPS * self.hands, batch.hands_played - before

    def timed_hand(self, rng: random.Random, times: list[int], overhead: int) -> None:
        clock = time.perf_counter_ns
        actions = self.batch.sample_actions(self._sampler(rng))
        t0 = clock()
        self.batch.step(actions)
        times.append((clock() - t0 - overhead) // self.hands)


PARALLEL_WORKERS: Final = min(os.cpu_count() or 1, 4)
"""Worker processes of the parallel batch: one a core, up to four."""


class ParallelBatchEngine(BatchEngine):
    """:data:`PARALLEL_WORKERS` worker processes (:mod:`umtali.rl.parallel`), each
    stepping ``per_worker`` hands as a lone batch does, and each free to run on any core
    (the bench pins its own process to one, and a child inherits that): a training
    loop's throughput on the whole machine, where every other engine here uses one core.
    A worker gets as many hands as the larger lone batch: besides its numpy calls, a
    step costs a round trip to every worker, which more hands share more thinly."""

    batch: ParallelHandBatch

    def __init__(self, per_worker: int, game: str = DEFAULT_GAME) -> None:
        super().__init__(per_worker * PARALLEL_WORKERS, game)
        self.name = f"{_ours(game)} HandBatch ({per_worker}) × {PARALLEL_WORKERS} processes"

    def _make(self) -> ParallelHandBatch:
        from umtali.rl.parallel import ParallelHandBatch

        batch = ParallelHandBatch(self.hands, workers=PARALLEL_WORKERS, seed=0, game=self.game)
        if hasattr(os, "sched_setaffinity"):
            for pid in batch.pids:
                with contextlib.suppress(OSError):
                    os.sched_setaffinity(pid, range(os.cpu_count() or 1))
        return batch


def engines_of(game: str) -> tuple[OptionalEngine, ...]:
    """The environments of ``game``'s research encoding, as the race makes them."""
    return (
        (partial(PettingZooEngine, game), "the rl extra", "rl"),
        *((partial(BatchEngine, hands, game), "the rl extra", "rl") for hands in BATCH_SIZES),
        (partial(ParallelBatchEngine, BATCH_SIZES[-1], game), "the rl extra", "rl"),
    )


ENGINES: Final[tuple[OptionalEngine, ...]] = tuple(
    engine for game in researched() for engine in engines_of(game)
)
"""The engines to hand to :func:`umtali.sim.peers.load_engines`: every game's that has
a research encoding."""

COMPILED: Final[tuple[Callable[[], Engine], ...]] = tuple(
    partial(BatchEngine, hands, game)
    for game in researched()
    if hook_of(game).compiled
    for hands in BATCH_SIZES
)
"""The batches to race on the opt-in compiled build as well, when it is built
(:func:`umtali.sim.compiled.compiled_engines`): those of every game whose core it
compiles."""
