#!/usr/bin/env python3
"""Tune the expert's weights against the expert itself (Umtali, issue 26).

A challenger is the expert with other :class:`~umtali.games.umtali.bots.evaluate.Weights`.
It plays duplicate single hands against the expert as it ships: every deal twice, each
player in each seat, as the second hand of a four-hand game with the totals level (so
both play a hand that does not end the game). The challenger's mean margin per hand
(its hand score minus the expert's) is its figure, with a 95% interval over deals.

``--search`` walks the weights one at a time (coordinate search): each weight is tried
a step up and a step down on the same deals, and a trial is kept only when it beats the
best so far by two standard errors of the paired difference. It prints every trial and
the weights it ends with::

    python benchmarks/tune_expert.py --deals 2000                  # the expert against itself
    python benchmarks/tune_expert.py --deals 5000 --search          # what docs/BOTS.md reports

A benchmark prints figures; it is not a test.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import math
import statistics
import sys
from collections.abc import Sequence
from typing import Any

from umtali.games.umtali.arena.duplicate import by_deal, duplicate_margins
from umtali.games.umtali.bots.evaluate import WEIGHTS, Weights
from umtali.games.umtali.bots.expert import ExpertBot


def deal_margins(weights: Weights, seed: int, deals: range) -> list[float]:
    """Per deal, the challenger's mean margin over its two seats."""
    challenger, expert = ExpertBot(weights), ExpertBot()
    return duplicate_margins(
        lambda _state, view, rng: challenger.choose(view, rng),
        lambda _state, view, rng: expert.choose(view, rng),
        f"tune/{seed}",
        deals,
        with_history=False,
    )


def margins(weights: Weights, seed: int, deals: int, jobs: int) -> list[float]:
    return by_deal(functools.partial(deal_margins, weights, seed), deals, jobs)


def summary(values: Sequence[float]) -> tuple[float, float]:
    """The mean and its standard error."""
    return statistics.fmean(values), statistics.stdev(values) / math.sqrt(len(values))


def stepped(weights: Weights, name: str, up: bool) -> Weights | None:
    """``weights`` with one weight a step up or down; ``None`` where no step is sensible."""
    value = getattr(weights, name)
    if name == "risk":
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    change: dict[str, Any]
    if isinstance(value, int):
        step = 1 if abs(value) < 10 else max(1, abs(value) // 4)
        change = {name: value + (step if up else -step)}
    elif value == 0:
        change = {name: 0.2 if up else -0.2}
    else:
        change = {name: round(value * 1.5 if up else value / 1.5, 4)}
    return dataclasses.replace(weights, **change)


TUNED = (
    "play_chance",
    "marriage_hope",
    "pair_share",
    "pair_bonus",
    "near_share",
    "near_bonus",
    "w_points",
    "w_outs",
    "w_danger",
    "w_risk",
    "marriage_outs",
    "pair_danger",
    "near_danger",
    "draw_margin",
)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals, each played twice")
    parser.add_argument("--seed", type=int, default=1, help="the deals' seed")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--search", action="store_true", help="walk the weights")
    parser.add_argument("--rounds", type=int, default=1, help="walks over the weights")
    parser.add_argument(
        "--only", nargs="+", default=list(TUNED), choices=TUNED, help="the weights to walk"
    )
    args = parser.parse_args(argv)
    if args.deals < 2 or args.jobs < 1 or args.rounds < 1:
        parser.error("--deals takes 2 or more, --jobs and --rounds 1 or more")
    best = WEIGHTS
    best_values = margins(best, args.seed, args.deals, args.jobs)
    mean, error = summary(best_values)
    print(f"start: {mean:+.3f} ± {1.96 * error:.3f} a hand over {args.deals} deals", flush=True)
    if not args.search:
        return 0
    for round_ in range(args.rounds):
        for name in args.only:
            for up in (True, False):
                trial = stepped(best, name, up)
                if trial is None:
                    continue
                values = margins(trial, args.seed, args.deals, args.jobs)
                diff = [a - b for a, b in zip(values, best_values, strict=True)]
                gain, gain_error = summary(diff)
                mean, _ = summary(values)
                kept = gain > 2 * gain_error
                print(
                    f"round {round_ + 1} {name}={getattr(trial, name)}: {mean:+.3f} a hand,"
                    f" {gain:+.3f} ± {1.96 * gain_error:.3f} on the best"
                    f"{'  KEPT' if kept else ''}",
                    flush=True,
                )
                if kept:
                    best, best_values = trial, values
                    break
    changed = {
        f.name: getattr(best, f.name)
        for f in dataclasses.fields(Weights)
        if getattr(best, f.name) != getattr(WEIGHTS, f.name)
    }
    mean, error = summary(best_values)
    print(f"end: {mean:+.3f} ± {1.96 * error:.3f} a hand; changed: {changed}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
