"""Train the learned baseline: a small numpy network reading the ``v1`` observation
tensor (:mod:`umtali.games.umtali.research.network`), first by imitating a computer
level's own moves, then by the policy gradient of the hand's margin against a level.

Both phases step a :class:`umtali.rl.versus.VersusBatch` (rows of the Gymnasium
environment against a computer level, the replies made inside the batch):

1. **Imitation** (DAgger-style): at each of the learner's turns in every row the
   teacher level (``expert`` by default) is asked what it would play, from the
   learner's own view; the network takes a step of Adam on the cross-entropy of the
   teacher's move over the legal moves. The move played is the teacher's, or with
   chance ``--mix`` the network's own draw, so it learns in the positions its own
   play leads to.
2. **Policy gradient** (REINFORCE with a running-mean baseline): the network plays
   (drawing from its policy) against ``--opponent``; each finished hand pays its
   margin, scaled, less the baseline, to every decision of that hand.

Forced moves (one legal move) teach nothing and are skipped. Everything is drawn from
``--seed``: the same command gives the same weights (on the same numpy). The weights
are saved as float16 in a compressed ``.npz``; the shipped ones are
``src/umtali/games/umtali/research/weights/network-v1.npz``, made by the default
command. Judge them with the arena::

    python examples/train_network.py --quick          # seconds: a smoke run
    python examples/train_network.py --out network-v1.npz
    umtali arena umtali.games.umtali.research.network:make_bot random,greedy --games 400
"""

from __future__ import annotations

import argparse
import os
import random
import time
from dataclasses import dataclass, field

# One BLAS thread: the matrices are small, the batch's stepping takes most of the time,
# and BLAS threads that spin on a shared machine made a step many times slower.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np
import numpy.typing as npt

from umtali.games.umtali.research.encoding import ENCODING
from umtali.games.umtali.research.network import Network, Sample, inputs_of
from umtali.rl.encoding import Episode
from umtali.rl.versus import VersusBatch

MARGIN_SCALE = 50.0
"""Margins are divided by this: a hand's margin is tens of points."""


class Adam:
    """Adam over a network's arrays, updated in place."""

    def __init__(self, params: list[npt.NDArray[np.float32]], lr: float) -> None:
        self.params, self.lr, self.t = params, lr, 0
        self.m = [np.zeros_like(p) for p in params]
        self.v = [np.zeros_like(p) for p in params]

    def step(self, grads: list[npt.NDArray[np.float32]]) -> None:
        self.t += 1
        b1, b2 = 0.9, 0.999
        for p, g, m, v in zip(self.params, grads, self.m, self.v, strict=True):
            m *= b1
            m += (1 - b1) * g
            v *= b2
            v += (1 - b2) * g * g
            mhat = m / (1 - b1**self.t)
            vhat = v / (1 - b2**self.t)
            p -= (self.lr * mhat / (np.sqrt(vhat) + 1e-8)).astype(np.float32)


@dataclass
class Log:
    """What a run gives besides the weights."""

    losses: list[float] = field(default_factory=list)
    agreement: list[float] = field(default_factory=list)
    margins: list[float] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)


def _episode(batch: VersusBatch, row: int) -> Episode:
    episode = batch.envs[row].episode
    assert episode is not None  # the batch was reset
    return episode


def _choices(
    batch: VersusBatch, obs: dict[str, npt.NDArray[np.generic]]
) -> tuple[list[int], list[int], npt.NDArray[np.float32], list[list[int]]]:
    """Each row's first legal move (what a forced row plays), the rows where the learner
    has a real choice, their inputs and their legal lists."""
    legal = batch.legal
    open_rows = [i for i, row in enumerate(legal) if len(row) > 1]
    x = inputs_of(obs["observation"][open_rows])
    return [row[0] for row in legal], open_rows, x, [legal[i] for i in open_rows]


def imitate(
    net: Network,
    steps: int,
    n: int,
    seed: int,
    teacher: str,
    opponent: str,
    mix: float,
    lr: float,
    log: Log,
) -> None:
    """Phase 1 (see the module)."""
    start = time.perf_counter()
    batch = VersusBatch(n, opponent=opponent, seed=seed, flat=True)
    asker = ENCODING.opponent(teacher)
    teacher_rng = random.Random(seed)
    rng = np.random.default_rng(seed)
    adam = Adam(net.params, lr)
    obs = batch.reset()
    for _ in range(steps):
        actions, rows, x, legal = _choices(batch, obs)
        if rows:
            wanted = [asker.choose(_episode(batch, i), teacher_rng) for i in rows]
            sample = Sample.of(
                x, legal, [row.index(a) for row, a in zip(legal, wanted, strict=True)]
            )
            own = net.choose_rows(sample, rng)
            loss, grads = net.gradients(sample)
            adam.step(grads)
            log.losses.append(loss)
            log.agreement.append(float(np.mean(own == sample.chosen)))
            play_own = rng.random(len(rows)) < mix
            for k, i in enumerate(rows):
                actions[i] = legal[k][int(own[k])] if play_own[k] else wanted[k]
        obs, _, _ = batch.step(np.array(actions))
    log.seconds["imitation"] = time.perf_counter() - start


def reinforce(
    net: Network,
    steps: int,
    n: int,
    seed: int,
    opponent: str,
    lr: float,
    log: Log,
    update_every: int = 8,
) -> None:
    """Phase 2 (see the module)."""
    start = time.perf_counter()
    batch = VersusBatch(n, opponent=opponent, seed=seed, flat=True)
    rng = np.random.default_rng(seed)
    adam = Adam(net.params, lr)
    baseline = 0.0
    episode: list[list[tuple[npt.NDArray[np.float32], list[int], int]]] = [[] for _ in range(n)]
    ready: list[tuple[npt.NDArray[np.float32], list[int], int, float]] = []
    obs = batch.reset()
    for step in range(steps):
        actions, rows, x, legal = _choices(batch, obs)
        if rows:
            picks = net.choose_rows(Sample.of(x, legal, [0] * len(rows)), rng)
            for k, i in enumerate(rows):
                actions[i] = legal[k][int(picks[k])]
                episode[i].append((x[k], legal[k], int(picks[k])))
        obs, rewards, done = batch.step(np.array(actions))
        for i in np.flatnonzero(done).tolist():
            margin = float(rewards[i])
            log.margins.append(margin)
            scaled = margin / MARGIN_SCALE
            advantage = scaled - baseline
            baseline += 0.02 * (scaled - baseline)
            ready.extend((xi, li, ci, advantage) for xi, li, ci in episode[i])
            episode[i] = []
        if (step + 1) % update_every == 0 and ready:
            sample = Sample.of(
                np.stack([r[0] for r in ready]), [r[1] for r in ready], [r[2] for r in ready]
            )
            _, grads = net.gradients(sample, np.array([r[3] for r in ready]))
            adam.step(grads)
            ready = []
    log.seconds["reinforce"] = time.perf_counter() - start


def train(
    seed: int = 0,
    imitation_steps: int = 12000,
    rl_steps: int = 12000,
    n: int = 64,
    teacher: str = "expert",
    opponent: str = "greedy",
    mix: float = 0.5,
    imitated: str | None = None,
    lr: float = 1e-3,
    rl_lr: float = 1e-4,
) -> tuple[Network, Log]:
    """A network trained as the module says, and the run's log; with ``imitated``, the
    weights after the first phase are saved there too."""
    net = Network.initial(np.random.default_rng(seed))
    log = Log()
    imitate(net, imitation_steps, n, seed, teacher, opponent, mix, lr, log)
    if imitated:
        net.save(imitated)
    if rl_steps:
        reinforce(net, rl_steps, n, seed + 1, opponent, rl_lr, log)
    return net, log


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--imitation-steps", type=int, default=12000, help="batch steps, phase 1")
    parser.add_argument("--rl-steps", type=int, default=12000, help="batch steps, phase 2")
    parser.add_argument("--rows", type=int, default=64, help="rows of the batch")
    parser.add_argument("--teacher", default="expert", help="the level imitated")
    parser.add_argument("--opponent", default="greedy", help="the level played against")
    parser.add_argument("--mix", type=float, default=0.5, help="chance to play its own move")
    parser.add_argument("--lr", type=float, default=1e-3, help="Adam's step, phase 1")
    parser.add_argument("--rl-lr", type=float, default=1e-4, help="Adam's step, phase 2")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="network-v1.npz", help="where to save the weights")
    parser.add_argument("--save-imitation", help="save the weights after phase 1 here too")
    parser.add_argument("--quick", action="store_true", help="a few steps of each phase")
    args = parser.parse_args(argv)
    if args.quick:
        args.imitation_steps, args.rl_steps, args.rows = 20, 20, 8
    start = time.perf_counter()
    net, log = train(
        args.seed,
        args.imitation_steps,
        args.rl_steps,
        args.rows,
        args.teacher,
        args.opponent,
        args.mix,
        args.save_imitation,
        args.lr,
        args.rl_lr,
    )
    fifth = max(1, len(log.losses) // 5)
    print(
        f"imitation of {args.teacher} against {args.opponent}: {args.imitation_steps} steps"
        f" of {args.rows} rows in {log.seconds['imitation']:.0f} s; loss"
        f" {np.mean(log.losses[:fifth]):.3f} in the first fifth,"
        f" {np.mean(log.losses[-fifth:]):.3f} in the last; the network's own draw agreed"
        f" with the teacher {np.mean(log.agreement[-fifth:]):.1%} of the time at the end"
    )
    if args.rl_steps:
        hands = len(log.margins)
        part = max(1, hands // 5)
        print(
            f"policy gradient against {args.opponent}: {args.rl_steps} steps,"
            f" {hands} hands in {log.seconds['reinforce']:.0f} s; mean margin"
            f" {np.mean(log.margins[:part]):+.1f} in the first fifth,"
            f" {np.mean(log.margins[-part:]):+.1f} in the last"
        )
    net.save(args.out)
    print(f"saved {args.out}; {time.perf_counter() - start:.0f} s in all")


if __name__ == "__main__":
    main()
