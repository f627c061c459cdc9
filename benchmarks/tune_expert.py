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
import math
import random
import statistics
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from umtali.games.umtali.bots.evaluate import WEIGHTS, Weights
from umtali.games.umtali.bots.expert import ExpertBot
from umtali.games.umtali.moves import Move
from umtali.games.umtali.state import HandState
from umtali.games.umtali.view import PlayerView
from umtali.kernel.deck import seeded_deck
from umtali.learn.review import play_to_end

HANDS_LEFT = 2
"""The hands still to come after the one played: a hand in the middle of a game."""


def deal_margins(weights: Weights, seed: int, deals: range) -> list[float]:
    """Per deal, the challenger's mean margin over its two seats."""
    bots = (ExpertBot(weights), ExpertBot())
    rng = random.Random(0)
    out = []
    for d in deals:
        deck = seeded_deck(f"tune/{seed}/{d}")
        total = 0.0
        for challenger in (0, 1):
            hand = HandState(deck, dealer=d % 2)

            def choose(state: HandState, challenger: int = challenger) -> Move:
                bot = bots[0] if state.player == challenger else bots[1]
                view = PlayerView.of(state, state.player, (0, 0), HANDS_LEFT, with_history=False)
                return bot.choose(view, rng)

            play_to_end(hand, choose)
            outcome = hand.outcome()
            assert outcome is not None
            total += outcome.scores[challenger] - outcome.scores[1 - challenger]
        out.append(total / 2)
    return out


def margins(weights: Weights, seed: int, deals: int, jobs: int) -> list[float]:
    if jobs == 1:
        return deal_margins(weights, seed, range(deals))
    chunks = [range(i, deals, jobs) for i in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(deal_margins, [weights] * jobs, [seed] * jobs, chunks))
    out = [0.0] * deals
    for chunk, part in zip(chunks, parts, strict=True):
        for d, m in zip(chunk, part, strict=True):
            out[d] = m
    return out


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
