#!/usr/bin/env python3
"""How long the computer takes to decide, in the games the browser server plays.

For each game, the levels the server offers that matter for its threads (the game's
default level, and its strongest), the script plays seeded matches between two
computers of that level, through the same sessions the server makes (the registry's
``between_bots``, which builds its bots as ``stored`` does), and times every decision
(``BotMove.seconds``: the bot's ``choose`` alone). It prints, per game and level, how
many decisions it timed, how many of them had a choice (more than one legal move), the
median, 99th percentile and largest time of a decision, in milliseconds, and the median
of the decisions with a choice (a bot answers a forced move at once).

``--bot-seconds S`` gives every decision a thinking budget of ``S`` seconds, as
``umtali serve --bot-seconds`` does with a free pool (docs/WEB.md, "Limits"), so the
figures with and without a budget can be compared. The figures depend on the machine
and on what else runs on it; docs/BOTS.md ("Thinking time") has them with the
commands::

    python benchmarks/decisions.py                       # 300 decisions a game and level
    python benchmarks/decisions.py --bot-seconds 0.05    # each decision within 50 ms
    python benchmarks/decisions.py --game klaberjass --decisions 100

A benchmark prints figures; it is not a test and asserts nothing about time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence

from umtali import games

SEED = 0


def levels_of(game: str) -> list[str]:
    """The levels measured for ``game``: its default, and its strongest (the last)."""
    spec = games.get(game)
    return list(dict.fromkeys((spec.default_level, spec.levels[-1])))


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(fraction * len(ordered) + 0.5)))
    return ordered[rank - 1]


def time_decisions(
    game: str, level: str, decisions: int, seed: int, budget: float | None
) -> tuple[list[float], list[float]]:
    """The seconds of ``decisions`` decisions of ``level`` against itself, and those of
    the ones with a choice; matches are dealt from ``seed/0``, ``seed/1``, ..."""
    maker = games.get(game).maker()
    seconds: list[float] = []
    choices: list[float] = []
    match = 0
    while len(seconds) < decisions:
        session = maker.between_bots((level, level), f"{seed}/{match}")
        match += 1
        while not session.is_over() and len(seconds) < decisions:
            if session.needs_deal():
                session.deal()
                continue
            seat = session.computer_to_move()
            assert seat is not None
            legal = len(session.view(seat).legal)
            moved = session.bot_move() if budget is None else session.bot_move(budget=budget)
            seconds.append(moved.seconds)
            if legal > 1:
                choices.append(moved.seconds)
    return seconds, choices


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=games.names(), help="one game (all by default)")
    parser.add_argument(
        "--decisions", type=int, default=300, help="decisions timed per game and level"
    )
    parser.add_argument("--seed", type=int, default=SEED, help="seed of the matches")
    parser.add_argument(
        "--bot-seconds", type=float, default=None, help="each decision's budget (none: unlimited)"
    )
    args = parser.parse_args(argv)
    names = [args.game] if args.game else list(games.names())
    budget = "unlimited" if args.bot_seconds is None else f"{args.bot_seconds:g} s"
    print(f"decision times, ms ({args.decisions} a game and level, seed {args.seed}, {budget})")
    print(
        f"{'game':<12}{'level':<8}{'decisions':>10}{'median':>9}{'p99':>9}{'max':>9}"
        f"{'choices':>9}{'median':>9}{'wall s':>8}"
    )
    for game in names:
        for level in levels_of(game):
            start = time.perf_counter()
            seconds, choices = time_decisions(
                game, level, args.decisions, args.seed, args.bot_seconds
            )
            wall = time.perf_counter() - start
            ms = [s * 1000 for s in seconds]
            chosen = statistics.median(choices) * 1000 if choices else 0.0
            print(
                f"{game:<12}{level:<8}{len(ms):>10}{statistics.median(ms):>9.1f}"
                f"{percentile(ms, 0.99):>9.1f}{max(ms):>9.1f}{len(choices):>9}{chosen:>9.1f}"
                f"{wall:>8.1f}",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
