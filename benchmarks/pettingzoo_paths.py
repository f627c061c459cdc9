#!/usr/bin/env python3
"""What a PettingZoo move costs on each path a researcher may take, side by side.

The loop of docs/RESEARCH.md ("PettingZoo", :func:`umtali.rl.bench.random_agents`) and
the variants it was chosen against, each playing whole random hands of the default game
(Umtali) or ``--game``, in interleaved blocks in one process, timed in CPU time (the
process's, so that other work on a shared machine weighs less). Per path, the median over
the blocks of the CPU time a move takes, in µs, and its ratio to the documented loop:

* ``docs loop, env(), v1``: what ``umtali bench --peers`` races (the default encoding);
* ``docs loop, env(), v0``: the same on the first version of the arrays;
* ``the mask read as bool, env(), v1``: the docs' loop before, the legal moves read from
  the observation's mask (``mask.view(bool).nonzero()[0]``) rather than the info;
* ``docs loop, raw_env(), v1``: without the order-enforcing wrapper;
* ``docs loop, PettingZoo's own wrapper, v1``: ``OrderEnforcingWrapper`` as PettingZoo
  ships it, which ``env()`` wrapped the environment in before;
* ``np.flatnonzero(mask) + numpy choice, PettingZoo's wrapper, v0``: the path measured in
  issue 27 (the idiom a reader might write, on what ``env()`` was);
* ``legal() from the episode, raw_env(), v0``: the loop the benchmark raced before, the
  legal indices read from the environment, not from the mask, on the arrays it had.

docs/RESEARCH.md ("Speed") has figures with the command::

    python benchmarks/pettingzoo_paths.py --blocks 30

A benchmark prints figures; it is not a test and asserts nothing about time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from umtali.games import DEFAULT_GAME
from umtali.rl.bench import random_agents
from umtali.rl.pettingzoo import CardGameAEC, env, raw_env

Loop = Callable[[Any, Any], None]


def flatnonzero_loop(game: Any, rng: np.random.Generator) -> None:
    """The loop of issue 27's measurement: ``np.flatnonzero`` on the ``int8`` mask and
    numpy's ``Generator.choice``."""
    for _ in game.agent_iter():
        obs, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
        else:
            game.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def mask_loop(game: Any, rng: random.Random) -> None:
    """The docs' loop before the info's ``legal_moves``: the legal moves read from the
    observation's mask, as ``bool``."""
    for _ in game.agent_iter():
        obs, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
        else:
            game.step(int(rng.choice(obs["action_mask"].view(bool).nonzero()[0])))


def legal_loop(game: Any, rng: random.Random) -> None:
    """The benchmark's loop before: the legal indices from the episode."""
    for _ in game.agent_iter():
        _, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
        else:
            legal = game.unwrapped.episode.legal()
            game.step(legal[rng.randrange(len(legal))])


def paths(game: str) -> list[tuple[str, Any, Loop, Callable[[int], Any]]]:
    """Each path: its name, its environment, its loop and how its random source is made."""
    python = random.Random
    numpy = np.random.default_rng
    return [
        ("docs loop, env(), v1", env(game=game), random_agents, python),
        ("docs loop, env(), v0", env(game=game, encoding="v0"), random_agents, python),
        ("the mask read as bool, env(), v1", env(game=game), mask_loop, python),
        ("docs loop, raw_env(), v1", raw_env(game=game), random_agents, python),
        (
            "docs loop, PettingZoo's own wrapper, v1",
            wrappers.OrderEnforcingWrapper(CardGameAEC(game=game)),
            random_agents,
            python,
        ),
        (
            "np.flatnonzero(mask) + numpy choice, PettingZoo's wrapper, v0",
            wrappers.OrderEnforcingWrapper(CardGameAEC(game=game, encoding="v0")),
            flatnonzero_loop,
            numpy,
        ),
        (
            "legal() from the episode, raw_env(), v0",
            raw_env(game=game, encoding="v0"),
            legal_loop,
            python,
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--game", default=DEFAULT_GAME, help=f"the researched game (default {DEFAULT_GAME})"
    )
    parser.add_argument("--blocks", type=int, default=10, help="blocks per path (default 10)")
    parser.add_argument("--hands", type=int, default=20, help="hands per block (default 20)")
    args = parser.parse_args()
    chosen = paths(args.game)
    per_move: dict[str, list[float]] = {name: [] for name, *_ in chosen}
    for _, game, _, _ in chosen:
        game.reset(seed=0)
    for block in range(args.blocks):
        for name, game, loop, source in chosen:
            rng = source(block)
            moves = 0
            start = time.process_time()
            for _ in range(args.hands):
                game.reset()
                loop(game, rng)
                moves += game.unwrapped.moves
            per_move[name].append((time.process_time() - start) / moves * 1e6)
    base = statistics.median(per_move[chosen[0][0]])
    print(f"{args.game}: CPU µs a move, median of {args.blocks} blocks of {args.hands} hands")
    for name, times in per_move.items():
        median = statistics.median(times)
        print(f"  {name:62s} {median:6.2f} µs  {median / base:5.2f}×")


if __name__ == "__main__":
    main()
