#!/usr/bin/env python3
"""Variants of Umtali's ``search`` level: arena players, and a quick paired screen.

Each variant is the search as the arena builds its own level (no time limit, so a seeded
run replays the same anywhere) with some options changed (:data:`VARIANTS`). A variant
is measured in whole games by the arena's own command, against the same deals as the
level; run it from the repository's folder (the arena imports this module from there)::

    umtali arena benchmarks.search_variants:game_chances expert --games 40 --jobs 2 --seed 1011

Run as a command, it screens variants on duplicate single hands against the expert,
much quicker than games: every deal twice, each player in each seat, as the second hand
of a four-hand game with the totals level (so a playout is valued by its points). It
prints each variant's mean margin a hand over the expert with its 95% interval, then
each variant's difference on the first one named, deal by deal (the variants meet the
same deals, so the pairing cancels most of the deals' luck)::

    python benchmarks/search_variants.py level racing --deals 150 --seed 1 --jobs 2

With ``--last-hand`` each deal is played as a game's last hand instead, the variant
ahead or behind by a lead drawn for the deal (:func:`lead_of`), and a deal's figure is
the variant's games won (100), drawn (50) or lost (0) over its two seats: what a change
to the last hand's play is worth in games, without the three hands before it, which
play the same for every variant that differs only there::

    python benchmarks/search_variants.py level stake-1000 --last-hand --deals 300 --seed 1 --jobs 2

A screen of a few hundred deals tells a point a hand, not less: a smaller difference
needs games by the thousand (docs/BOTS.md). A benchmark prints figures; it is not a test.
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import sys
from collections.abc import Sequence
from typing import Any

from umtali.games.umtali.arena.duplicate import by_deal, duplicate_last_hands, duplicate_margins
from umtali.games.umtali.bots import ExpertBot, SearchBot
from umtali.games.umtali.bots.search import HAND_SPREAD
from umtali.sim.stats import mean_interval

VARIANTS: dict[str, dict[str, Any]] = {
    "level": {},
    "game-chances": {"game_chances": True},
    "racing": {"racing": True},
    "racing-wide": {"racing": True, "playouts": 1200, "candidates": 8},
    "stake-1000": {"last_hand_stake": 1000.0},
    "combined": {
        "game_chances": True,
        "last_hand_stake": 1000.0,
        "racing": True,
        "playouts": 1200,
        "candidates": 8,
    },
}
"""Each variant's options on ``SearchBot`` (``level`` is the search as it ships):

- ``game-chances``: before a game's last hand, a playout is valued mostly by the chance of
  winning the game it leaves, instead of by its points;
- ``racing``: a runner-up clearly worse than the expert's choice is played no more, so the
  budget goes to the runners-up still in doubt;
- ``racing-wide``: racing, with eight candidates and up to 1,200 playouts (the move
  budget, which bounds the slowest decision, is the level's);
- ``stake-1000``: in a game's last hand, turning the game's result is worth 1,000 points
  on top of the hand's margin, not the level's 30: the margin only breaks ties, the
  game's result is all that counts.
- ``combined``: the three levers whose estimates came out above the level, none by more
  than its interval, together: ``game-chances`` before the last hand, ``stake-1000`` in
  it, and ``racing-wide``'s search throughout (docs/BOTS.md, "Three levers together").
"""

LEAD_SPREAD = HAND_SPREAD * math.sqrt(3)
"""With ``--last-hand``, the spread of the challenger's lead before a game's last hand:
three hands' margins of :data:`~umtali.games.umtali.bots.search.HAND_SPREAD` each."""


def build(variant: str, playouts: int | None = None) -> SearchBot:
    """The search of ``variant``, named after it; ``playouts`` replaces its budget of
    playouts a decision."""
    options = VARIANTS[variant] if playouts is None else VARIANTS[variant] | {"playouts": playouts}
    bot = SearchBot(max_ms=math.inf, **options)
    if variant != "level":
        bot.name = f"search-{variant}"
    return bot


def game_chances() -> SearchBot:
    """The arena's player of the ``game-chances`` variant."""
    return build("game-chances")


def racing() -> SearchBot:
    """The arena's player of the ``racing`` variant."""
    return build("racing")


def racing_wide() -> SearchBot:
    """The arena's player of the ``racing-wide`` variant."""
    return build("racing-wide")


def combined() -> SearchBot:
    """The arena's player of the ``combined`` variant."""
    return build("combined")


def deal_margins(variant: str, seed: int, playouts: int | None, deals: range) -> list[float]:
    """Per deal, ``variant``'s mean margin over the expert in its two seats."""
    search, expert = build(variant, playouts), ExpertBot()
    return duplicate_margins(
        lambda _state, view, rng: search.choose(view, rng),
        lambda _state, view, rng: expert.choose(view, rng),
        f"screen/{seed}",
        deals,
    )


def last_hand_results(variant: str, seed: int, playouts: int | None, deals: range) -> list[float]:
    """Per deal, ``variant``'s mean game result against the expert in its two seats, the
    deal played as a game's last hand with the variant leading by :func:`lead_of` it."""
    search, expert = build(variant, playouts), ExpertBot()
    label = f"last/{seed}"
    return duplicate_last_hands(
        lambda _state, view, rng: search.choose(view, rng),
        lambda _state, view, rng: expert.choose(view, rng),
        label,
        deals,
        functools.partial(lead_of, label),
    )


def lead_of(label: str, deal: int) -> int:
    """The challenger's lead before the last hand of deal ``deal``: normal, mean 0 and
    spread :data:`LEAD_SPREAD`, rounded, the same on every run.

    >>> lead_of("last/1", 0) == lead_of("last/1", 0)
    True
    """
    return round(random.Random(f"{label}/{deal}/lead").gauss(0.0, LEAD_SPREAD))


def interval(values: Sequence[float]) -> str:
    """The mean and its 95% interval, as printed."""
    mean, low, high = mean_interval(values)
    return f"{mean:+.2f} ({low:+.2f} to {high:+.2f})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variants", nargs="+", choices=VARIANTS, help="the variants to screen")
    parser.add_argument("--deals", type=int, default=150, help="deals, each played twice")
    parser.add_argument("--seed", type=int, default=1, help="the deals' seed")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument(
        "--playouts", type=int, help="every variant's most playouts a decision (default: its own)"
    )
    parser.add_argument(
        "--last-hand",
        action="store_true",
        help="play each deal as a game's last hand, the variant ahead or behind by a"
        " random lead, and count games won (1), drawn (1/2) and lost (0)",
    )
    args = parser.parse_args(argv)
    if args.deals < 2 or args.jobs < 1 or (args.playouts is not None and args.playouts < 1):
        parser.error("--deals takes 2 or more, --jobs and --playouts 1 or more")
    measure = last_hand_results if args.last_hand else deal_margins
    # Last hands count games won, printed in points of win rate (a game won is 100).
    scale, unit = (100, "points of games won") if args.last_hand else (1, "a hand")
    found: dict[str, list[float]] = {}
    for variant in args.variants:
        work = functools.partial(measure, variant, args.seed, args.playouts)
        found[variant] = [scale * x for x in by_deal(work, args.deals, args.jobs)]
        print(f"{variant}: {interval(found[variant])} {unit} over {args.deals} deals", flush=True)
    first, *others = found
    for variant in others:
        paired = [a - b for a, b in zip(found[variant], found[first], strict=True)]
        print(f"{variant} on {first}, deal by deal: {interval(paired)} {unit}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
