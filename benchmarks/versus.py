#!/usr/bin/env python3
"""How fast hands are played against the computer in a batch (umtali.rl.versus).

For each researched game and each level given, the script steps a
:class:`~umtali.rl.versus.VersusBatch` and a :class:`~umtali.rl.versus.PackedVersusBatch`
(the computer's moves inside the game's own batch) of ``--rows`` rows with uniformly random legal
actions for the learner (drawn by ``sample_actions``) for about ``--seconds``, and
prints the learner's steps a second (one a row and step), every move a second (the
computer's replies made inside the batch too), and hands a second. Beside it, for the
same game and level, Gymnasium's ``SyncVectorEnv`` over the lone environment
(``gymnasium.make_vec(..., vectorization_mode="sync")``, its wrappers included), whose
moves are the same ones (tests/test_rl_versus.py), and the game's own self-play batch
(no computer: every move is a learner's), bare and as a Gymnasium ``VectorEnv``
(:class:`~umtali.rl.selfplay.SelfPlayVectorEnv`). docs/RESEARCH.md ("Against the computer in a
batch") has the figures with the command::

    python benchmarks/versus.py                           # random and greedy, 3 s each
    python benchmarks/versus.py --levels expert --rows 64 --game klaberjass

A benchmark prints figures; it is not a test and asserts nothing about time.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np

import umtali.rl
from umtali.rl.encoding import Batch, research, researched
from umtali.rl.selfplay import SelfPlayVectorEnv
from umtali.rl.versus import PackedVersusBatch, VersusBatch


def _timed(step: Callable[[], int], seconds: float) -> tuple[int, float]:
    """Call ``step`` (which returns how many moves it made) for about ``seconds``."""
    moves = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        moves += step()
    return moves, elapsed


def _stepped(batch: VersusBatch | PackedVersusBatch | Batch, seconds: float) -> tuple[int, float]:
    """Step ``batch`` with random legal actions for about ``seconds``: how many steps,
    and the seconds."""
    batch.reset()
    rng = np.random.default_rng(0)

    def step() -> int:
        batch.step(batch.sample_actions(rng))
        return 1

    return _timed(step, seconds)


def against(
    kind: type[VersusBatch] | type[PackedVersusBatch],
    game: str,
    level: str,
    rows: int,
    seconds: float,
) -> str:
    """A batch of ``kind`` against ``level``: the learner's steps, every move and the
    hands a second."""
    batch = kind(rows, game=game, opponent=level, seed=0)
    _, elapsed = _stepped(batch, seconds)
    steps, moves = batch.steps_played / elapsed, batch.moves_played / elapsed
    hands = batch.hands_played / elapsed
    return f"{kind.__name__:<18}{steps:>12,.0f}{moves:>12,.0f}{hands:>10,.0f}"


def sync(game: str, level: str, rows: int, seconds: float) -> str:
    env = gymnasium.make_vec(
        umtali.rl.ENV_IDS[game], num_envs=rows, vectorization_mode="sync", opponent=level
    )
    env.reset(seed=0)
    rng = np.random.default_rng(0)
    hands = 0

    sync_env = env.unwrapped
    assert isinstance(sync_env, gymnasium.vector.SyncVectorEnv)
    # Each lone environment's episode, to draw from its legal moves.
    lone: list[Any] = [sub.unwrapped for sub in sync_env.envs]

    def step() -> int:
        nonlocal hands
        # Drawn from the episodes' legal indices, as the batch's sample_actions draws
        # (0 in a row whose episode ended: its reset ignores it).
        legal = [sub.episode.legal() for sub in lone]
        picks = (rng.random(rows) * [len(row) for row in legal]).astype(np.intp).tolist()
        actions = [row[pick] if row else 0 for row, pick in zip(legal, picks, strict=True)]
        _, _, terminated, truncated, _ = env.step(np.array(actions))
        hands += int((terminated | truncated).sum())
        return rows

    steps, elapsed = _timed(step, seconds)
    return f"{'SyncVectorEnv':<18}{steps / elapsed:>12,.0f}{'':>12}{hands / elapsed:>10,.0f}"


def self_play(game: str, rows: int, seconds: float) -> str:
    batch = research(game).batch(rows, seed=0)
    steps, elapsed = _stepped(batch, seconds)
    moves = rows * steps / elapsed  # every step moves every row
    hands = batch.hands_played / elapsed
    return f"{'HandBatch':<18}{moves:>12,.0f}{moves:>12,.0f}{hands:>10,.0f}"


def self_play_vector(game: str, rows: int, seconds: float) -> str:
    """The same batch through :class:`~umtali.rl.selfplay.SelfPlayVectorEnv` (its masks
    copied at every step, its default)."""
    env = SelfPlayVectorEnv(rows, game=game, seed=0)
    env.reset()
    rng = np.random.default_rng(0)

    def step() -> int:
        env.step(env.batch.sample_actions(rng))
        return rows

    moves, elapsed = _timed(step, seconds)
    hands = env.batch.hands_played / elapsed
    return f"{'SelfPlayVectorEnv':<18}{moves / elapsed:>12,.0f}{moves / elapsed:>12,.0f}{hands:>10,.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", choices=researched(), action="append")
    parser.add_argument("--levels", default="random,greedy", help="comma-separated levels")
    parser.add_argument("--rows", type=int, default=256)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    for game in args.game or researched():
        print(f"\n{game}, {args.rows} rows, about {args.seconds:g} s each")
        print(f"{'':<18}{'steps/s':>12}{'moves/s':>12}{'hands/s':>10}")
        print(f"{self_play(game, args.rows, args.seconds)}   self-play")
        print(f"{self_play_vector(game, args.rows, args.seconds)}   self-play")
        for level in args.levels.split(","):
            for kind in (VersusBatch, PackedVersusBatch):
                print(f"{against(kind, game, level, args.rows, args.seconds)}   against {level}")
            print(f"{sync(game, level, args.rows, args.seconds)}   against {level}")


if __name__ == "__main__":
    main()
