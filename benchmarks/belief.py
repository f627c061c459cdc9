#!/usr/bin/env python3
"""How well the search's belief reads the opponent's hidden cards (Umtali, issue 26).

The script plays games of four hands between two levels, dealt as the arena deals them
(hand ``h`` of game ``d`` from ``seeded_deck(f"{seed}/{d}/{h}")``, the first dealer from
the game's number), and at every decision of either player with an unknown card in the
other hand it scores the opponent's real unknown cards twice: the natural log of the
chance the belief (:class:`umtali.games.umtali.bots.belief.Belief`) gives them, and the
log of the chance uniform dealing over the same cards gives them (every hand of the
right size from the cards he may hold equally likely: what ``determinize`` does, meld
rule aside, which both would share). Where the opponent's last move was a face-up
discard it scores them a third time, as the search deals: the belief's hands kept with
the chance the expert's reading of that discard gives them
(:class:`umtali.games.umtali.bots.discard_model.DiscardModel`), whose total over the
belief is estimated from ``SAMPLES`` hands drawn from it. It prints the mean of each per decision, their
difference with a 95% interval (decisions of one hand are not independent, so the
interval is over games: the mean gain of each game), how often the belief beat uniform
dealing, and the same by the opponent's hand size::

    python benchmarks/belief.py --games 200                 # expert against expert
    python benchmarks/belief.py --games 50 --levels search expert

A positive gain in nats per decision means the belief puts more weight on the hands the
opponent really held than dealing at random does. A benchmark prints figures; it is not
a test.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from umtali.games.umtali.bots import make_bot
from umtali.games.umtali.bots.belief import Belief
from umtali.games.umtali.bots.discard_model import DiscardModel
from umtali.games.umtali.match import Match
from umtali.games.umtali.view import PlayerView
from umtali.kernel.deck import seeded_deck
from umtali.kernel.seeds import decision_rng


@dataclass
class Figures:
    """What :func:`measure` finds; log-likelihoods in nats per decision."""

    decisions: int
    belief: float
    uniform: float
    gain: float
    per_game: tuple[float, float, float]  # the mean of the games' gains, its 95% interval
    better: float  # the share of decisions where the belief beat uniform dealing
    by_size: dict[int, tuple[int, float]]  # unknown cards -> (decisions, mean gain)
    read: tuple[int, float, float, float]  # decisions with a discard read; the gain over
    # the belief there: mean, and the 95% interval over games


SAMPLES = 200
"""Hands drawn from the belief to estimate what share of it the discard model keeps."""


def reading_gain(view: PlayerView, real: int, rng: random.Random) -> float | None:
    """How much likelier (log, nats) the opponent's real hand ``real`` is once his last
    discard is read as the expert's than under the belief alone; ``None`` without a
    discard to read. The reading keeps a hand with chance ``c(hand)``, so a hand's
    chance becomes the belief's times ``c(hand)`` over the mean of ``c`` on the belief."""
    model = DiscardModel.of(view)
    if model is None:
        return None
    belief = Belief.of(view)
    known = view.opponent_known.mask
    total = statistics.fmean(model.chance(belief.pick(rng) | known) for _ in range(SAMPLES))
    return math.log(model.chance(real)) - math.log(total)


def measure(levels: Sequence[str], games: int, seed: int) -> Figures:
    """The log-likelihoods over ``games`` games (see the module docstring)."""
    per_game: list[float] = []
    gains: list[float] = []
    belief_ll: list[float] = []
    uniform_ll: list[float] = []
    by_size: dict[int, list[float]] = defaultdict(list)
    wins = 0
    read: list[float] = []
    read_per_game: list[float] = []
    for d in range(games):
        match = Match(kind="game", first_dealer=d % 2)
        first, second = levels[d % 2], levels[1 - d % 2]
        bots = [make_bot(first, reproducible=True), make_bot(second, reproducible=True)]
        game_gains: list[float] = []
        game_read: list[float] = []
        while not match.is_over():
            h = len(match.hands)
            hand = match.new_hand(seeded_deck(f"{seed}/{d}/{h}"))
            while not hand.is_over():
                p = hand.player
                view = match.view(p)
                hidden = hand.hands[1 - p] & ~view.opponent_known.mask
                if hidden and view.turn >= 2:
                    b = Belief.of(view).log_likelihood(hidden)
                    u = Belief.of(view, uniform=True).log_likelihood(hidden)
                    belief_ll.append(b)
                    uniform_ll.append(u)
                    gains.append(b - u)
                    game_gains.append(b - u)
                    by_size[hidden.bit_count()].append(b - u)
                    wins += b > u
                    more = reading_gain(view, hand.hands[1 - p], random.Random(len(read)))
                    if more is not None:
                        read.append(more)
                        game_read.append(more)
                rng = decision_rng(f"{seed}/{d}", h, len(hand.history))
                hand.push(bots[p].choose(view, rng))
        if game_gains:
            per_game.append(statistics.fmean(game_gains))
        if game_read:
            read_per_game.append(statistics.fmean(game_read))
    mean, half = _mean_and_half(per_game)
    read_mean, read_half = _mean_and_half(read_per_game)
    return Figures(
        decisions=len(gains),
        belief=statistics.fmean(belief_ll),
        uniform=statistics.fmean(uniform_ll),
        gain=statistics.fmean(gains),
        per_game=(mean, mean - half, mean + half),
        better=wins / len(gains),
        by_size={k: (len(v), statistics.fmean(v)) for k, v in sorted(by_size.items())},
        read=(
            len(read),
            statistics.fmean(read) if read else 0.0,
            read_mean - read_half,
            read_mean + read_half,
        ),
    )


def _mean_and_half(values: list[float]) -> tuple[float, float]:
    """The mean of ``values`` and the half-width of its 95% normal interval."""
    if not values:
        return 0.0, 0.0
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return mean, half


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games of four hands (100)")
    parser.add_argument("--levels", nargs=2, default=["expert", "expert"], metavar="LEVEL")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")
    try:
        for level in args.levels:
            make_bot(level)
    except ValueError as e:
        parser.error(str(e))
    r = measure(args.levels, args.games, args.seed)
    print(f"{args.games} games, {' against '.join(args.levels)}, seed {args.seed}")
    print(f"decisions scored: {r.decisions}")
    print("log-likelihood of the opponent's real unknown cards, nats per decision:")
    print(f"  belief  {r.belief:8.3f}")
    print(f"  uniform {r.uniform:8.3f}")
    mean, low, high = r.per_game
    print(f"  gain    {r.gain:8.3f}  (per game {mean:.3f}, 95% interval {low:.3f} to {high:.3f})")
    print(f"  the belief gave the real hand more weight in {100 * r.better:.1f}% of decisions")
    print("by the number of unknown cards: decisions, mean gain")
    for size, (n, gain) in r.by_size.items():
        print(f"  {size:2d}  {n:6d}  {gain:7.3f}")
    n, gain, low, high = r.read
    print(f"his last discard read as the expert's, where there was one ({n} decisions):")
    print(f"  gain over the belief {gain:.3f}  (per game 95% interval {low:.3f} to {high:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
