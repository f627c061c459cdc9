"""``umtali bench --peers``: our engines beside other programs' engines of the same games.

Every engine plays uniform-random hands through its own public Python interface, in one
process pinned to one core. The engines take turns in short blocks, many rounds over, so a
slow spell of the machine falls on all of them alike. Each block has two parts: a plain
play loop (player moves per second, hands per second) and a loop that times every
legal-move call on its own (the timer's own cost is measured first and taken off).

The engines come from the registry: each game's arena hook (:mod:`umtali.sim.hooks`)
names its own engines (Umtali's action ints and Move objects, each game's engine through
its legal actions and push) and its peers, other programs' engines of the same game
(OpenSpiel's and RLCard's, for a game they have), named by their own ids. Engines from
outer layers are handed to :func:`load_engines` (``more``): the environments of
:mod:`umtali.rl` (:data:`umtali.rl.bench.ENGINES`), which this layer may not import.

The peers are optional (``pip install -e '.[bench]'``), and so are our environments
(``pip install -e '.[rl]'``); a missing one is reported and left out. Our games and the
peers' are different games, or the same game under slightly different rules
(docs/RULES.md): a hand of each is a different amount of play, so the per-move figures
are the fair comparison, and hands/s is context.
"""

from __future__ import annotations

import gc
import platform
import random
import statistics
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from umtali import games
from umtali.sim.bench import clock_overhead
from umtali.sim.hooks import hook_of

__all__ = [
    "Engine",
    "HandEngine",
    "OneHandEngine",
    "OptionalEngine",
    "PeerTally",
    "PlayableHand",
    "compare_engines",
    "load_engines",
    "peer_report",
]


class Engine(Protocol):
    """One engine's random-play loops."""

    name: str
    version: str

    def play(self, rng: random.Random) -> tuple[int, int]:
        """Play at random for a while (a hand, or a batch's few steps); return the
        player moves made and the hands finished."""
        ...

    def timed_hand(self, rng: random.Random, times: list[int], overhead: int) -> None:
        """Play one hand at random, appending each legal-move call's nanoseconds."""
        ...


@dataclass
class PeerTally:
    """What one engine did over all its blocks."""

    name: str
    version: str
    seconds: float = 0.0
    hands: int = 0
    moves: int = 0
    legal_ns: list[int] = field(default_factory=list)

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0

    @property
    def legal_median_us(self) -> float:
        return statistics.median(self.legal_ns) / 1000 if self.legal_ns else float("nan")

    @property
    def legal_mean_us(self) -> float:
        return statistics.fmean(self.legal_ns) / 1000 if self.legal_ns else float("nan")


# -- the engines -------------------------------------------------------------------------
class OneHandEngine(ABC):
    """An engine that plays one hand per :meth:`play` (the base of most engines)."""

    @abstractmethod
    def play_hand(self, rng: random.Random) -> int:
        """Play one hand at random; return the number of player moves."""

    def play(self, rng: random.Random) -> tuple[int, int]:
        return self.play_hand(rng), 1


class PlayableHand(Protocol):
    """A hand of one of our engines, as the random-play loop drives it."""

    def is_over(self) -> bool: ...

    def push(self, action: Any, /) -> None: ...


class HandEngine(OneHandEngine):
    """Random play of one of our engines a hand at a time: :meth:`deal` makes a hand,
    :attr:`read_legal` reads its legal moves, and each chosen move is pushed back as it
    came (an action int, or a move)."""

    name: str
    read_legal: Callable[[Any], Sequence[Any]]
    """How the legal moves are read: a plain function of the hand (a class's
    ``staticmethod``), called without a bound method's cost."""

    def __init__(self) -> None:
        from umtali import __version__

        self.version = __version__

    @abstractmethod
    def deal(self, rng: random.Random) -> PlayableHand:
        """A new hand, dealt from ``rng``."""

    def play_hand(self, rng: random.Random) -> int:
        read = self.read_legal
        state = self.deal(rng)
        moves = 0
        while not state.is_over():
            legal = read(state)
            state.push(legal[rng.randrange(len(legal))])
            moves += 1
        return moves

    def timed_hand(self, rng: random.Random, times: list[int], overhead: int) -> None:
        read = self.read_legal
        clock = time.perf_counter_ns
        state = self.deal(rng)
        while not state.is_over():
            t0 = clock()
            legal = read(state)
            times.append(clock() - t0 - overhead)
            state.push(legal[rng.randrange(len(legal))])


OptionalEngine = tuple[Callable[[], Engine], str, str]
"""An engine that may be missing: how to make it (``ImportError`` when it cannot be), what
is missing then, and the extra that installs it."""


def load_engines(seed: int, more: Sequence[OptionalEngine] = ()) -> tuple[list[Engine], list[str]]:
    """Every registered game's own engines, then ``more`` (engines of outer layers, such
    as :data:`umtali.rl.bench.ENGINES`), then the games' peers that are installed; and a
    note for each one that is not."""
    hooks = [hook_of(spec) for spec in games.games()]
    engines: list[Engine] = [engine for hook in hooks for engine in hook.engines()]
    missing = []
    optional = [*more, *(peer for hook in hooks for peer in hook.peers(seed))]
    for make, package, extra in optional:
        try:
            engines.append(make())
        except ImportError as e:
            missing.append(f"{package} is not installed ({e}); pip install -e '.[{extra}]'")
    return engines, missing


# -- the run -------------------------------------------------------------------------------
def compare_engines(
    engines: list[Engine],
    seconds: float = 10.0,
    block: float = 0.5,
    seed: int = 0,
    progress: Callable[[str], None] | None = None,
) -> list[PeerTally]:
    """Run every engine for about ``seconds`` of play plus half that of legal-move
    timing, in interleaved blocks of ``block`` seconds (the first engine of each round
    rotates)."""
    if seconds <= 0 or block <= 0:
        raise ValueError("the benchmark needs a positive number of seconds and block length")
    tallies = [PeerTally(e.name, e.version) for e in engines]
    overhead = clock_overhead()
    rounds = max(1, round(seconds / block))
    rngs = [random.Random(f"{seed}/{e.name}") for e in engines]
    for r in range(rounds):
        for k in range(len(engines)):
            i = (r + k) % len(engines)
            engine, tally, rng = engines[i], tallies[i], rngs[i]
            gc.collect()
            start = now = time.perf_counter()
            deadline = start + block
            while now < deadline:
                moves, hands = engine.play(rng)
                tally.moves += moves
                tally.hands += hands
                now = time.perf_counter()
            tally.seconds += now - start
            deadline = now + block / 2
            while time.perf_counter() < deadline:
                engine.timed_hand(rng, tally.legal_ns, overhead)
        if progress is not None:
            progress(f"round {r + 1} of {rounds}")
    return tallies


def peer_report(tallies: list[PeerTally], missing: list[str], pinned: str) -> str:
    """The table of figures, and the ratios of Umtali's interfaces to each peer."""
    width = max([24, *(len(t.name) + 2 for t in tallies)])  # the names' column
    lines = [
        f"uniform-random play, one process (where an engine's name gives no other"
        f" number), {pinned}; Python {platform.python_version()}",
        "",
        f"{'engine':<{width}}{'version':>10}{'player moves/s':>16}{'hands/s':>10}"
        f"{'legal-moves call, µs':>24}",
        f"{'':<{width}}{'':>10}{'':>16}{'':>10}{'median':>12}{'mean':>12}",
    ]
    for t in tallies:
        lines.append(
            f"{t.name:<{width}}{t.version:>10}{t.moves_per_second:>16,.0f}"
            f"{t.hands_per_second:>10,.0f}{t.legal_median_us:>12.2f}{t.legal_mean_us:>12.2f}"
        )
    for t in tallies:
        lines.append(
            f"  {t.name}: {t.hands:,} hands, {t.moves:,} moves in {t.seconds:.1f} s;"
            f" {len(t.legal_ns):,} legal-move calls timed"
        )
    # The peers' ratios are given to the engines of their own game (the same game: the
    # fairest comparison) and to the default game's (one rummy engine's move against
    # another's), not to a third game's.
    compared = {spec.name for spec in games.games() if hook_of(spec).peers(0)}
    others = tuple(f"umtali {spec.name} " for spec in games.games() if spec.name not in compared)
    ours = [t for t in tallies if t.name.startswith("umtali") and not t.name.startswith(others)]
    peers = [t for t in tallies if not t.name.startswith("umtali")]
    if peers:
        lines.append("")
        lines.append("ours ÷ peer, player moves per second (same run):")
        for u in ours:
            ratios = ", ".join(
                f"{u.moves_per_second / p.moves_per_second:.1f}× {p.name}"
                for p in peers
                if p.moves_per_second
            )
            lines.append(f"  {u.name:<{width}}{ratios}")
    for note in missing:
        lines.append(f"left out: {note}")
    return "\n".join(lines)
