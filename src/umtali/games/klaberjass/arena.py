"""What Klaberjass adds to the arena and to ``umtali bench`` (its ``arena`` hook,
:class:`umtali.sim.hooks.ArenaHook`): how its hands end, its final totals with the pot
paid, and its engine's benchmark."""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from umtali.games.api import Session
from umtali.games.klaberjass.bots import BOTS
from umtali.games.klaberjass.match import KlaberjassMatch
from umtali.games.klaberjass.state import KlaberjassHand
from umtali.games.klaberjass.terms import DECK
from umtali.kernel.deck import shuffled_deck
from umtali.sim.hooks import ArenaHook, GameOutcome, HandPlayed

__all__ = ["ARENA", "KlaberjassBench"]


@dataclass(frozen=True)
class KlaberjassBench:
    """Uniform-random play of the engine on one core: hands and moves a second, and
    the time of one legal-moves call on fresh positions."""

    hands: int
    moves: int
    seconds: float
    legal_median_us: float
    legal_mean_us: float
    legal_calls: int

    def report(self) -> str:
        return "\n".join(
            (
                "game                : Klaberjass (book ranking)",
                f"random hands played : {self.hands:,} in {self.seconds:.1f} s",
                f"hands per second    : {self.hands / self.seconds:,.0f}",
                f"moves per second    : {self.moves / self.seconds:,.0f}",
                f"legal_actions call  : {self.legal_median_us:.2f} µs median,"
                f" {self.legal_mean_us:.2f} µs mean over {self.legal_calls:,} fresh positions",
            )
        )


def _random_play(seconds: float, seed: int) -> tuple[int, int, float]:
    """Hands and moves of uniform-random play for about ``seconds``, and the time."""
    rng = random.Random(seed)
    hands = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(50):
            hand = KlaberjassHand(shuffled_deck(rng, DECK), hands % 2)
            while not hand.is_over():
                legal = hand.legal_actions()
                hand.push(legal[rng.randrange(len(legal))])
                moves += 1
            hands += 1
    return hands, moves, time.perf_counter() - start


def _legal_times(seconds: float, seed: int) -> list[float]:
    """The time of one ``legal_actions`` call at each position of random hands, in µs
    (the clock's own cost taken off)."""
    rng = random.Random(seed + 1)
    clock = time.perf_counter_ns
    overhead = statistics.median(-(clock() - clock()) for _ in range(1001))
    samples: list[float] = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        hand = KlaberjassHand(shuffled_deck(rng, DECK), len(samples) % 2)
        while not hand.is_over():
            t0 = clock()
            legal = hand.legal_actions()
            samples.append(max(0.0, (clock() - t0 - overhead) / 1000))
            hand.push(legal[rng.randrange(len(legal))])
    return samples


class KlaberjassArena(ArenaHook):
    """Klaberjass's part of the arena and the benchmarks."""

    levels = BOTS
    """Its live registry of bots: a level a program adds (an outside policy) plays too."""

    def outcome(self, session: Session, hands: Sequence[HandPlayed]) -> GameOutcome:
        """How each hand went (made, failed, tied, thrown in) and the final totals, the
        pots paid included (a hand's own scores leave them out)."""
        match = getattr(session, "match", None)
        assert isinstance(match, KlaberjassMatch)
        ends = []
        for hand in match.hands:
            score = hand.outcome()
            if score is not None:
                ends.append(score.result)
        return GameOutcome(tuple(ends), match.totals())

    def bench(self, seconds: float, seed: int) -> KlaberjassBench:
        hands, moves, elapsed = _random_play(seconds * 0.7, seed)
        samples = _legal_times(seconds * 0.3, seed)
        return KlaberjassBench(
            hands,
            moves,
            elapsed,
            statistics.median(samples),
            statistics.fmean(samples),
            len(samples),
        )


ARENA: Final = KlaberjassArena()
"""Klaberjass in the arena and ``umtali bench --game klaberjass`` (its spec's hook)."""
