"""Umtali in the arena (layer 6): what the arena and ``umtali bench`` add for it, the
registry's ``arena`` hook (:data:`ARENA`, an :class:`~umtali.sim.hooks.ArenaHook`).

* The book's figures: a player's average of 27 points a hand and a highest hand of 86,
  which a run of the standard rules is set against (they are of the book's own rules).
* How each hand ended (:class:`~umtali.games.umtali.state.Termination`: ``out``,
  ``dead: empty stock``, ``dead: turn cap``), and its levels
  (:data:`~umtali.games.umtali.bots.BOTS` itself, so that a level a program adds plays).
* Its engine's benchmark (:mod:`umtali.games.umtali.arena.bench`) and its engines in the
  peer race (:mod:`umtali.games.umtali.arena.engines`).
* Duplicate single hands between two players who may be handed the state, for the
  benchmarks that measure a player's change (:mod:`umtali.games.umtali.arena.duplicate`).

>>> ARENA.book, ARENA.against_the_book("practical")
(Book(mean_points=27, highest_hand=86), False)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from umtali.games.api import Session
from umtali.games.umtali.bots import BOTS
from umtali.games.umtali.match import Match
from umtali.games.umtali.rules import STANDARD
from umtali.sim.hooks import ArenaHook, BenchReport, Book, GameOutcome, HandPlayed

if TYPE_CHECKING:
    from umtali.sim.arena import ArenaResult
    from umtali.sim.peers import Engine

__all__ = ["ARENA", "BOOK", "BOOK_HIGHEST_HAND", "BOOK_MEAN_POINTS", "UmtaliArena"]

BOOK_MEAN_POINTS: Final = 27
"""The book's average score of a player in a hand."""
BOOK_HIGHEST_HAND: Final = 86
"""The highest hand score the book reports."""
BOOK: Final = Book(BOOK_MEAN_POINTS, BOOK_HIGHEST_HAND)


class UmtaliArena(ArenaHook):
    """Umtali's arena hook (see the module)."""

    levels = BOTS
    book = BOOK
    compiled = (
        *("terms", "deal", "melds", "moves", "reasons", "rules", "state"),
        *("research.actions", "research.observation", "research.vector"),  # the batch
    )

    def outcome(self, session: Session, hands: Sequence[HandPlayed]) -> GameOutcome:
        """Each hand's termination; the totals are the hands' points (Umtali has no
        bonus)."""
        match: Match = session.match
        ends = []
        for hand in match.hands:
            outcome = hand.outcome()
            assert outcome is not None, "the arena reads a finished match"
            ends.append(outcome.termination.value)
        return GameOutcome(tuple(ends), super().outcome(session, hands).totals)

    def against_the_book(self, variant: str) -> bool:
        """The book's figures are of its own rules: a run of the standard rules only is
        set against them."""
        return variant == STANDARD.name

    def plot_title(self, result: ArenaResult) -> str:
        summary = result.summary()
        return (
            f"Umtali arena: A {result.bot_a} vs B {result.bot_b}, {summary.games} games"
            f" ({summary.hands} hands each), seed {result.seed}"
        )

    def bench(self, seconds: float, seed: int) -> BenchReport:
        from umtali.games.umtali.arena.bench import run_bench

        return run_bench(seconds, seed)

    def engines(self) -> list[Engine]:
        from umtali.games.umtali.arena.engines import UmtaliActions, UmtaliMoves

        return [UmtaliActions(), UmtaliMoves()]


ARENA: Final = UmtaliArena()
"""Umtali's arena hook, as its spec names it."""
