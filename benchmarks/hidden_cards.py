#!/usr/bin/env python3
"""What knowing the hidden cards would be worth to Umtali's search (issue 26).

Issue 26 measured a search that sees the real deal at 14 points a hand over the expert,
against about 1 for the fair search, and read the gap as what knowing the opponent's
hand is worth. The real deal holds two secrets, though: his hand, and the order of the
stock (which tells the searcher what he and the other will draw). This command
separates them. Each variant is the ``search`` level with one change, the deals its
playouts are played on:

- ``fair``: the level as it ships, deals drawn from its view and its belief;
- ``his-hand``: every deal holds the opponent's real hand; the stock (and any face-down
  discard) is shuffled from the rest, as the fair search deals it;
- ``whole-deal``: every deal is the real state, the stock in its real order.

Each variant plays duplicate single hands against the expert: every deal twice, each
player in each seat, as the second hand of a four-hand game with the totals level (so a
playout is valued by its points). Its figure is its mean margin a hand (its score minus
the expert's), with a 95% interval over deals; the variants meet the same deals, so the
paired difference of each on ``fair`` is printed last::

    python benchmarks/hidden_cards.py --deals 100 --jobs 2

The knowing variants read the real state, which no level may: they exist only here, to
bound what reading the opponent could ever give. A benchmark prints figures; it is not a
test.
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import sys
from collections.abc import Callable, Sequence

from umtali.games.umtali.arena.duplicate import by_deal, duplicate_margins
from umtali.games.umtali.bots.expert import ExpertBot
from umtali.games.umtali.bots.search import SearchBot
from umtali.games.umtali.moves import Move
from umtali.games.umtali.state import HandState
from umtali.games.umtali.terms import Phase
from umtali.games.umtali.view import PlayerView, determinize
from umtali.sim.stats import mean_interval

VARIANTS = ("fair", "his-hand", "whole-deal")

PLAYOUTS = SearchBot().playouts
"""The level's budget of playouts a decision, each variant's unless told."""


class KnowingSearch(SearchBot):
    """The search with its playouts dealt from the real state (``truth``, set before
    each decision): the opponent's real hand (``whole=False``) or the whole real deal."""

    def __init__(self, whole: bool, playouts: int = PLAYOUTS) -> None:
        super().__init__(playouts, max_ms=math.inf)  # as the arena builds the level
        self.whole = whole
        self.truth: HandState | None = None

    def _deal(self, view: PlayerView) -> Callable[[random.Random], HandState]:
        truth = self.truth
        assert truth is not None, "set the real state before each decision"
        if view.phase is Phase.CHOOSE:
            return super()._deal(view)
        if self.whole:
            real = truth.clone().forget_undo()
            return lambda _rng: real.clone()
        hidden = truth.hands[1 - view.player] & ~view.opponent_known.mask

        def his_hand(_cards: tuple[int, ...], size: int, _rng: random.Random) -> int:
            assert size == hidden.bit_count()
            return hidden

        return lambda rng: determinize(view, rng, undo=False, pick=his_hand)


def challenger(variant: str, playouts: int = PLAYOUTS) -> SearchBot:
    """The search of ``variant`` (one of :data:`VARIANTS`)."""
    if variant == "fair":
        return SearchBot(playouts, max_ms=math.inf)
    return KnowingSearch(whole=variant == "whole-deal", playouts=playouts)


def deal_margins(variant: str, seed: int, playouts: int, deals: range) -> list[float]:
    """Per deal, the challenger's mean margin over its two seats."""
    search, expert = challenger(variant, playouts), ExpertBot()

    def searching(state: HandState, view: PlayerView, rng: random.Random) -> Move:
        if isinstance(search, KnowingSearch):
            search.truth = state
        return search.choose(view, rng)

    return duplicate_margins(
        searching,
        lambda _state, view, rng: expert.choose(view, rng),
        f"hidden-cards/{seed}",
        deals,
    )


def margins(
    variant: str, seed: int, deals: int, jobs: int, playouts: int = PLAYOUTS
) -> list[float]:
    """Per deal, ``variant``'s mean margin, the deals shared among ``jobs`` workers."""
    return by_deal(functools.partial(deal_margins, variant, seed, playouts), deals, jobs)


def interval(values: Sequence[float]) -> str:
    """The mean and its 95% interval, as printed."""
    mean, low, high = mean_interval(values)
    return f"{mean:+.2f} ({low:+.2f} to {high:+.2f})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100, help="deals, each played twice")
    parser.add_argument("--seed", type=int, default=1, help="the deals' seed")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument(
        "--playouts", type=int, default=PLAYOUTS, help="each search's most playouts a decision"
    )
    parser.add_argument(
        "--variants", nargs="+", default=list(VARIANTS), choices=VARIANTS, help="what to play"
    )
    args = parser.parse_args(argv)
    if args.deals < 2 or args.jobs < 1 or args.playouts < 1:
        parser.error("--deals takes 2 or more, --jobs and --playouts 1 or more")
    found: dict[str, list[float]] = {}
    for variant in args.variants:
        found[variant] = margins(variant, args.seed, args.deals, args.jobs, args.playouts)
        print(f"{variant}: {interval(found[variant])} a hand over {args.deals} deals", flush=True)
    for variant, values in found.items():
        if variant != "fair" and "fair" in found:
            paired = [a - b for a, b in zip(values, found["fair"], strict=True)]
            print(f"{variant} on fair, deal by deal: {interval(paired)} a hand", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
