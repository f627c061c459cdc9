"""A batch of hands stepped by several worker processes: a game's batch (Umtali's
:class:`~umtali.rl.vector.HandBatch`, or another game's through ``game=``,
:mod:`umtali.rl.encoding`) on more than one core, for training loops on a machine with
cores to spare.

Each worker process holds a batch of the game of its share of the rows (the rows are cut into ``workers`` consecutive slices, as even as they go) and
writes its observations, masks, rewards and legal moves into one block of shared
memory; a step writes the actions there, wakes every worker through its pipe, and
waits for all of them. The arrays a step returns are the same as a lone batch's, row by
row, for the slice a worker holds: worker ``w``'s batch is dealt from a seed drawn from
``seed``, so the same ``seed`` and the same number of workers deal the same hands.

>>> import numpy as np
>>> with ParallelHandBatch(8, workers=2, seed=1) as batch:
...     obs = batch.reset()
...     rng = np.random.default_rng(0)
...     for _ in range(100):
...         obs, rewards, done = batch.step(batch.sample_actions(rng))
...     print(obs["cards"].shape, obs["action_mask"].shape, rewards.shape)
(8, 21, 52) (8, 14272) (8, 2)

The workers are started with ``spawn`` (a fresh interpreter each: a fork of a process
running threads, as Ray and many learners do, can deadlock), which takes a second or
two; :meth:`ParallelHandBatch.close`, or leaving the ``with`` block, stops them. As
with any ``spawn``, a script that makes a batch keeps its top level under
``if __name__ == "__main__":`` (each worker imports the script's module).
"""

from __future__ import annotations

import contextlib
import ctypes
import itertools
import multiprocessing
import random
import traceback
import weakref
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, Final, NoReturn

import numpy as np
import numpy.typing as npt

from umtali.games import DEFAULT_GAME
from umtali.kernel.cards import quoted
from umtali.rl.encoding import Batch, BatchObservation, checked_actions, research
from umtali.rl.shared import BATCH_ENCODING, checked_batch_size, checked_encoding

__all__ = ["ParallelHandBatch", "WorkerError"]


class WorkerError(RuntimeError):
    """A worker process failed or went away; the batch cannot step any more."""


def _layout(n: int, game: str, encoding: str) -> dict[str, tuple[tuple[int, ...], np.dtype[Any]]]:
    """The arrays in the shared block, for ``n`` rows of ``game``: their shapes and
    types, in order (the observation's arrays as the game's batches lay them out in
    version ``encoding``)."""
    found = research(game)
    actions = found.num_actions
    observed = {
        name: ((n, *row), dtype) for name, (row, dtype) in found.batch_arrays(encoding).items()
    }
    return {
        "actions": ((n,), np.dtype(np.int64)),
        **observed,
        "action_mask": ((n * actions,), np.dtype(np.int8)),
        "rewards": ((n, found.seats), np.dtype(np.float32)),
        "done": ((n,), np.dtype(np.bool_)),
        "to_move": ((n,), np.dtype(np.int8)),
        "legal_counts": ((n,), np.dtype(np.intp)),
        # Each row's legal action indices, row after row from the start of its
        # worker's region (a row has at most num_actions: they are distinct).
        "legal": ((n * actions,), np.dtype(np.int32)),
    }


_ALIGN: Final = 64
"""Each array of the shared block starts at a multiple of this many bytes."""


def _padded(size: int) -> int:
    return -(-size // _ALIGN) * _ALIGN


def _sizes(n: int, game: str, encoding: str) -> list[int]:
    layout = _layout(n, game, encoding)
    return [int(np.prod(shape)) * dtype.itemsize for shape, dtype in layout.values()]


def _views(memory: Any, n: int, game: str, encoding: str) -> dict[str, npt.NDArray[Any]]:
    """The shared block's arrays, as numpy views of ``memory`` (a ``RawArray`` of
    ``sum(map(_padded, _sizes(n, game, encoding)))`` bytes)."""
    raw = np.frombuffer(memory, np.uint8)
    views: dict[str, npt.NDArray[Any]] = {}
    at = 0
    layout = _layout(n, game, encoding)
    sizes = _sizes(n, game, encoding)
    for (name, (shape, dtype)), size in zip(layout.items(), sizes, strict=True):
        views[name] = raw[at : at + size].view(dtype).reshape(shape)
        at += _padded(size)
    return views


def _work(
    conn: Connection,
    memory: Any,
    n: int,
    start: int,
    stop: int,
    game: str,
    rules: object,
    encoding: str,
) -> None:
    """A worker's life: step rows ``start:stop`` of the shared block on command."""
    found = research(game)
    actions = found.num_actions
    observed = list(found.batch_arrays(encoding))
    views = _views(memory, n, game, encoding)
    rows = slice(start, stop)
    masks = views["action_mask"][start * actions : stop * actions]
    legal = views["legal"][start * actions : stop * actions]
    batch: Batch | None = None
    while True:
        try:
            command, seed = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if command == "close":
            return
        try:
            played = 0
            if command == "reset" or batch is None:
                batch = found.batch(
                    stop - start, seed=seed, rules=rules, mask_buffer=masks, encoding=encoding
                )
                obs = batch.reset()
                views["rewards"][rows] = 0
                views["done"][rows] = False
            else:
                before = batch.hands_played
                obs, rewards, done = batch.step(views["actions"][rows])
                views["rewards"][rows] = rewards
                views["done"][rows] = done
                played = batch.hands_played - before
            for name in observed:
                views[name][rows] = obs[name]
            views["to_move"][rows] = batch.to_move
            counts = batch.legal_counts
            views["legal_counts"][rows] = counts
            legal[: int(counts.sum())] = batch.legal_indices
            conn.send(("ok", played))
        except BaseException:  # told to the parent, which raises it there
            conn.send(("error", traceback.format_exc()))
            return


def _stop(conns: list[Connection], processes: list[BaseProcess]) -> None:
    for conn in conns:
        with contextlib.suppress(OSError, ValueError):  # that worker is gone already
            conn.send(("close", None))
        conn.close()
    for process in processes:
        process.join(5)
        if process.is_alive():
            process.terminate()
            process.join(5)


class ParallelHandBatch:
    """``n`` hands of ``game`` (the default game's when not given) under ``rules`` (the
    game's own rules, a variant's name, or ``None``), stepped by ``workers`` processes
    (see the module).

    The interface is the game's batch's (:class:`~umtali.rl.encoding.Batch`, Umtali's
    :class:`~umtali.rl.vector.HandBatch`): :meth:`reset`, :meth:`step`,
    :meth:`sample_actions`, :attr:`legal`, :attr:`to_move`, :attr:`hands_played`, and the
    same contract for the arrays (new at every step, but ``action_mask``, the batch's own
    and overwritten by the next step unless ``copy=True``). The hands themselves live in
    the workers: there is no ``states``.
    """

    def __init__(
        self,
        n: int,
        *,
        workers: int,
        seed: int | None = None,
        game: str = DEFAULT_GAME,
        rules: object = None,
        copy: bool = False,
        encoding: str = BATCH_ENCODING,
    ) -> None:
        checked_batch_size(n)
        checked_encoding(encoding)
        if type(workers) is not int or not 1 <= workers <= n:
            raise ValueError(f"workers is a whole number from 1 to n ({n}), not {quoted(workers)}")
        self.n = n
        self.workers = workers
        self.game = game
        self.rules = rules
        self._research = found = research(game)
        self._num_actions = found.num_actions
        self.encoding = encoding
        self._observed = list(found.batch_arrays(encoding))
        self.copy = copy
        self.hands_played = 0
        self.to_move = np.zeros(n, np.int8)
        self._seed = seed
        self.seeds: list[int | None] = []
        """The seed each worker's batch was dealt from at the last :meth:`reset`, by
        worker (``None``: from the system's randomness)."""
        self._started = False
        bounds = [n * w // workers for w in range(workers + 1)]
        self.slices = list(itertools.pairwise(bounds))
        """The rows each worker steps, ``(start, stop)``, by worker."""
        context = multiprocessing.get_context("spawn")
        size = sum(map(_padded, _sizes(n, game, encoding)))
        self._memory = context.RawArray(ctypes.c_uint8, size)
        self._views = _views(self._memory, n, game, encoding)
        self._mask = self._views["action_mask"].reshape(n, self._num_actions).view()
        self._mask.flags.writeable = False
        self._conns: list[Connection] = []
        self._processes: list[BaseProcess] = []
        for start, stop in self.slices:
            parent, child = context.Pipe()
            process = context.Process(
                target=_work,
                args=(child, self._memory, n, start, stop, game, rules, encoding),
                daemon=True,
                name=f"umtali-batch-{start}-{stop}",
            )
            process.start()
            child.close()
            self._conns.append(parent)
            self._processes.append(process)
        self._finalizer = weakref.finalize(self, _stop, self._conns, self._processes)

    # -- lifetime -------------------------------------------------------------------------

    @property
    def pids(self) -> list[int]:
        """The workers' process ids, by worker."""
        return [process.pid or 0 for process in self._processes]

    def close(self) -> None:
        """Stop the workers (the batch cannot step after this)."""
        self._finalizer()

    def __enter__(self) -> ParallelHandBatch:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # -- stepping -------------------------------------------------------------------------

    def _command(self, commands: list[tuple[str, int | None]]) -> list[int]:
        """Send each worker its command and wait for every answer; a worker that is gone
        or failed closes the batch and raises :class:`WorkerError`."""
        if not self._finalizer.alive:
            raise WorkerError("the batch is closed")
        answers = []
        for w, (conn, command) in enumerate(zip(self._conns, commands, strict=True)):
            try:
                conn.send(command)
            except OSError:
                self._lost(w)
        for w, conn in enumerate(self._conns):
            try:
                status, value = conn.recv()
            except (EOFError, OSError):
                self._lost(w)
            if status != "ok":
                self.close()
                raise WorkerError(f"worker {w} failed:\n{value}")
            answers.append(value)
        return answers

    def _lost(self, worker: int) -> NoReturn:
        self.close()
        raise WorkerError(f"worker {worker} went away: the batch is closed") from None

    def reset(self, seed: int | None = None) -> BatchObservation:
        """Deal every row anew (from ``seed`` if given) and return the observations."""
        if seed is not None:
            self._seed = seed
        if self._seed is None:
            self.seeds = [None] * self.workers  # each worker seeds itself from the system
        else:
            seeds = random.Random(self._seed)
            self._seed = seeds.getrandbits(64)  # the next reset deals other hands
            self.seeds = [seeds.getrandbits(64) for _ in self.slices]
        self._command([("reset", seed) for seed in self.seeds])
        self.hands_played = 0
        self._started = True
        return self._observe()

    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[BatchObservation, npt.NDArray[np.float32], npt.NDArray[np.bool_]]:
        """Play ``actions[i]`` in row ``i``, for every row, as
        :meth:`HandBatch.step <umtali.rl.vector.HandBatch.step>` does (an illegal action
        in any row refuses the whole step: nothing moves)."""
        if not self._started:
            raise RuntimeError("the batch has no hands yet: call reset() first")
        found = self._research
        chosen = checked_actions(
            actions, self._views["action_mask"], self._num_actions, found.action_text
        )
        self._views["actions"][:] = chosen
        self.hands_played += sum(self._command([("step", None) for _ in self.slices]))
        return (
            self._observe(),
            self._views["rewards"].copy(),
            self._views["done"].copy(),
        )

    def _observe(self) -> BatchObservation:
        views = self._views
        self.to_move = views["to_move"].copy()
        observed = {name: views[name].copy() for name in self._observed}
        observed["action_mask"] = self._mask.copy() if self.copy else self._mask
        return observed

    # -- legal moves ----------------------------------------------------------------------

    def _firsts(self) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
        """Each row's legal moves' count, and where its first lies in ``legal``."""
        counts = self._views["legal_counts"]
        firsts = np.empty(self.n, np.intp)
        for start, stop in self.slices:
            within = counts[start:stop]
            firsts[start:stop] = start * self._num_actions + np.cumsum(within) - within
        return counts, firsts

    @property
    def legal(self) -> list[list[int]]:
        """For each row, its legal action indices in the engine's order."""
        counts, firsts = self._firsts()
        legal = self._views["legal"]
        return [
            legal[first : first + count].tolist()
            for first, count in zip(firsts.tolist(), counts.tolist(), strict=True)
        ]

    def sample_actions(self, rng: np.random.Generator) -> npt.NDArray[np.intp]:
        """A legal action for every row, each drawn uniformly from its row's legal
        moves with ``rng`` (as :meth:`HandBatch.sample_actions
        <umtali.rl.vector.HandBatch.sample_actions>`)."""
        if not self._started:
            raise RuntimeError("the batch has no hands yet: call reset() first")
        counts, firsts = self._firsts()
        picks = firsts + (rng.random(self.n) * counts).astype(np.intp)
        return self._views["legal"][picks].astype(np.intp)
