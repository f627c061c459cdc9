"""What a game adds to the arena and to the engine's benchmarks: the registry's ``arena``
hook, and how the arena finds it.

The arena (:mod:`umtali.sim.arena`) plays every registered game through the
:class:`~umtali.games.api.Session` protocol, and reads from it what every game has: whose
decision each was and how long it took, the hands dealt (:meth:`Session.deals_due`) and
each hand's scores (:meth:`Session.last_played`): the :class:`HandPlayed` of a game. A
game's ``arena`` hook names an :class:`ArenaHook` that adds what is the game's own: how
its hands end in its words, its final scores with their bonuses, its partnerships, the
published figures a run is set against (:class:`Book`), lines of its own in the report,
its plot's title, and its engine's benchmarks (``umtali bench``). Every part has a
default, so a game overrides only what it has; a game without a hook is played with the
defaults.

>>> hook = hook_of("umtali")
>>> hook.book, hook.against_the_book("standard"), hook.against_the_book("practical")
(Book(mean_points=27, highest_hand=86), True, False)
>>> GameOutcome(("out",), (125, 0, 125, 0), teams=((0, 2), (1, 3))).team_of(2)
(0, 2)
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from umtali import games
from umtali.games.api import GameSpec, Session

if TYPE_CHECKING:
    from umtali.sim.arena import ArenaResult
    from umtali.sim.peers import Engine, OptionalEngine

__all__ = [
    "ArenaHook",
    "BenchReport",
    "Book",
    "GameOutcome",
    "HandPlayed",
    "hook_of",
    "levels_of",
]


@dataclass(frozen=True)
class HandPlayed:
    """A finished hand, as the arena reads it from any game's session.

    Attributes:
        seats: the game's seats that played it, in the order of the hand's own seats
            (every seat, in a game whose hands are played by all).
        scores: each one's score in the hand, in the same order.
        dealer: the game's seat that dealt it.
    """

    seats: tuple[int, ...]
    scores: tuple[int, ...]
    dealer: int


@dataclass(frozen=True)
class GameOutcome:
    """A finished game in its own words and figures.

    Attributes:
        ends: how each hand ended, in the game's words (Umtali's ``"out"``), by hand.
        totals: each seat's final score: its hands' points and any bonuses.
        teams: seats that score as one (partners); every other seat plays for
            itself.
    """

    ends: tuple[str, ...]
    totals: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...] = ()

    def team_of(self, seat: int) -> tuple[int, ...]:
        """The seats that score with ``seat``, itself among them."""
        return next((team for team in self.teams if seat in team), (seat,))


@dataclass(frozen=True)
class Book:
    """Figures a game's literature reports, that a run of its bots is set against: a
    player's average points in a hand, and the highest hand seen."""

    mean_points: int
    highest_hand: int


class BenchReport(Protocol):
    """What a game's engine benchmark gives: figures to print."""

    def report(self) -> str:
        """The figures, as ``umtali bench`` prints them."""


class ArenaHook:
    """What the arena and the benchmarks add for a game (see the module). A game's hook
    is an instance of a subclass that overrides what the game has; this class itself is
    the hook of a game without one."""

    levels: Collection[str] | None = None
    """The levels the arena may play, when they are more than the spec's: a game's live
    registry of bots, so that a level a program adds (a trained policy) plays too."""

    book: Book | None = None
    """The figures the game's literature reports, kept with every run's figures."""

    compiled: tuple[str, ...] = ()
    """The game's modules (names inside its folder: ``state``) that the opt-in compiled
    build compiles with mypyc (:mod:`umtali.sim.compiled`): pure, typed modules of its
    rules core. The first of :meth:`engines` is raced on that build too."""

    def outcome(self, session: Session, hands: Sequence[HandPlayed]) -> GameOutcome:
        """The outcome of the game played out in ``session``, whose ``hands`` the arena
        read: by default every hand "over", each seat's total the sum of its hands'
        scores, and no partners."""
        totals = [0] * session.size
        for hand in hands:
            for seat, score in zip(hand.seats, hand.scores, strict=True):
                totals[seat] += score
        return GameOutcome(("over",) * len(hands), tuple(totals))

    def unavailable(self, level: str) -> str | None:
        """Why ``level`` cannot play on this machine (a package it needs is not
        installed), in a sentence; ``None`` when it can. By default every level can."""
        return None

    def against_the_book(self, variant: str) -> bool:
        """Whether the report and the plot of a run of ``variant`` set it against the
        book: by default whenever the game has one."""
        return self.book is not None

    def notes(self, result: ArenaResult) -> list[str]:
        """Lines of the game's own that close the report of ``result``."""
        return []

    def plot_title(self, result: ArenaResult) -> str:
        """The title of the plot of ``result``."""
        summary = result.summary()
        return (
            f"{games.get(result.game).title} arena ({result.variant}): A {result.bot_a} vs"
            f" B {result.bot_b}, {summary.games} games ({summary.hands} hands),"
            f" seed {result.seed}"
        )

    def bench(self, seconds: float, seed: int) -> BenchReport | None:
        """``umtali bench``: the game's engine played at random for about ``seconds``
        on one core, and timed; ``None`` for a game that has no benchmark."""
        return None

    def engines(self) -> list[Engine]:
        """The game's own engines in ``umtali bench --peers``: random play through its
        public interfaces."""
        return []

    def peers(self, seed: int) -> list[OptionalEngine]:
        """Other programs' engines of the same game, raced beside ours by ``umtali bench
        --peers`` when they are installed."""
        return []


def hook_of(game: str | GameSpec) -> ArenaHook:
    """The arena hook of ``game`` (a name or a spec): the one its spec names, or the
    defaults of :class:`ArenaHook` for a game without one."""
    spec = game if isinstance(game, GameSpec) else games.get(game)
    if not spec.has("arena"):
        return ArenaHook()
    hook = spec.hook("arena")
    if not isinstance(hook, ArenaHook):
        raise TypeError(f"{spec.title}'s arena hook is not an ArenaHook: {hook!r}")
    return hook


def levels_of(game: str | GameSpec) -> Collection[str]:
    """The levels the arena may play in ``game``: its hook's live registry of bots where
    it has one (so that a level a program adds is known), else its spec's.

    >>> list(levels_of("umtali"))
    ['random', 'greedy', 'expert', 'search']
    """
    spec = game if isinstance(game, GameSpec) else games.get(game)
    known = hook_of(spec).levels
    return spec.levels if known is None else known
