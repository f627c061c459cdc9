"""``umtali bench --peers``: Umtali beside the Gin Rummy engines of OpenSpiel and RLCard.

Every engine plays uniform-random hands through its own public Python interface, in one
process pinned to one core. The engines take turns in short blocks, many rounds over, so a
slow spell of the machine falls on all of them alike. Each block has two parts: a plain
play loop (player moves per second, hands per second) and a loop that times every
legal-move call on its own (the timer's own cost is measured first and taken off).

* ``umtali`` (action ints): :meth:`HandState.legal_actions` and :meth:`HandState.push`
  on packed ints, the interface meant for search and learning.
* ``umtali`` (Move objects): :attr:`HandState.legal_moves` read as typed moves, one
  chosen and pushed; the interface of a program that shows moves to people.
* ``umtali gin_rummy`` (action ints): our own Gin Rummy (:mod:`umtali.games.gin`),
  :meth:`GinHand.legal_actions` and :meth:`GinHand.push`, the same game as the peers
  below, so its ratio to them compares like with like.
* ``open_spiel gin_rummy`` through ``pyspiel``: ``legal_actions``, a random choice,
  ``apply_action``; chance nodes (the deal and every stock draw) sampled from
  ``chance_outcomes``. Only player actions count as moves.
* ``rlcard gin-rummy``: the environment's step loop, ``env.reset()`` then
  ``env.step(action)`` with the action drawn from the state's ``legal_actions``. Its
  legal-move call is ``env._get_legal_actions()``, the one ``step`` itself makes.
* Engines from outer layers, given to :func:`load_engines` (``more``): the environments
  of :mod:`umtali.rl` (:data:`umtali.rl.bench.ENGINES`), which this layer may not import.

The peers are optional (``pip install -e '.[bench]'``), and so are our environments
(``pip install -e '.[rl]'``); a missing one is reported and left out. Gin Rummy and Umtali are different games: a hand of each is a different amount
of play, so the per-move figures are the fair comparison, and hands/s is context. The
rules of our Gin Rummy and OpenSpiel's differ in a few details (docs/RULES.md, Part 7).
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

from umtali.games.gin.state import GinHand
from umtali.games.umtali.moves import Move
from umtali.games.umtali.state import HandState
from umtali.kernel.deck import shuffled_deck
from umtali.sim.bench import clock_overhead

__all__ = [
    "Engine",
    "OneHandEngine",
    "OptionalEngine",
    "PeerTally",
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
def _move_list(state: HandState) -> list[Move]:
    return list(state.legal_moves)


class OneHandEngine(ABC):
    """An engine that plays one hand per :meth:`play` (the base of most engines)."""

    @abstractmethod
    def play_hand(self, rng: random.Random) -> int:
        """Play one hand at random; return the number of player moves."""

    def play(self, rng: random.Random) -> tuple[int, int]:
        return self.play_hand(rng), 1


class UmtaliActions(OneHandEngine):
    name = "umtali (action ints)"
    # How the legal moves are read; pushed back as they come (an int or a Move).
    read_legal: Callable[[HandState], Sequence[int | Move]] = staticmethod(HandState.legal_actions)

    def __init__(self) -> None:
        from umtali import __version__

        self.version = __version__

    def play_hand(self, rng: random.Random) -> int:
        read = self.read_legal
        state = HandState(shuffled_deck(rng), rng.randrange(2))
        moves = 0
        while not state.is_over():
            legal = read(state)
            state.push(legal[rng.randrange(len(legal))])
            moves += 1
        return moves

    def timed_hand(self, rng: random.Random, times: list[int], overhead: int) -> None:
        read = self.read_legal
        clock = time.perf_counter_ns
        state = HandState(shuffled_deck(rng), rng.randrange(2))
        while not state.is_over():
            t0 = clock()
            legal = read(state)
            times.append(clock() - t0 - overhead)
            state.push(legal[rng.randrange(len(legal))])


class UmtaliMoves(UmtaliActions):
    name = "umtali (Move objects)"
    read_legal = staticmethod(_move_list)


class UmtaliGin(OneHandEngine):
    name = "umtali gin_rummy"

    def __init__(self) -> None:
        from umtali import __version__

        self.version = __version__

    def play_hand(self, rng: random.Random) -> int:
        hand = GinHand(shuffled_deck(rng), rng.randrange(2))
        moves = 0
        while not hand.is_over():
            legal = hand.legal_actions()
            hand.push(legal[rng.randrange(len(legal))])
            moves += 1
        return moves

    def timed_hand(self, rng: random.Random, times: list[int], overhead: int) -> None:
        clock = time.perf_counter_ns
        hand = GinHand(shuffled_deck(rng), rng.randrange(2))
        while not hand.is_over():
            t0 = clock()
            legal = hand.legal_actions()
            times.append(clock() - t0 - overhead)
            hand.push(legal[rng.randrange(len(legal))])


def _pick_outcome(outcomes: list[tuple[int, float]], rng: random.Random) -> int:
    """A chance outcome drawn with its probability (OpenSpiel's deals are uniform, so
    the common case is one ``randrange``)."""
    first = outcomes[0][1]
    if all(p == first for _, p in outcomes):
        return outcomes[rng.randrange(len(outcomes))][0]
    actions = [a for a, _ in outcomes]
    return rng.choices(actions, weights=[p for _, p in outcomes])[0]


class OpenSpielGin(OneHandEngine):
    name = "open_spiel gin_rummy"

    def __init__(self) -> None:
        from importlib.metadata import version

        import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

        self.version = version("open_spiel")
        self.game = pyspiel.load_game("gin_rummy")

    def play_hand(self, rng: random.Random) -> int:
        state = self.game.new_initial_state()
        moves = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_pick_outcome(state.chance_outcomes(), rng))
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                moves += 1
        return moves

    def timed_hand(self, rng: random.Random, times: list[int], overhead: int) -> None:
        clock = time.perf_counter_ns
        state = self.game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(_pick_outcome(state.chance_outcomes(), rng))
            else:
                t0 = clock()
                legal = state.legal_actions()
                times.append(clock() - t0 - overhead)
                state.apply_action(legal[rng.randrange(len(legal))])


class RLCardGin(OneHandEngine):
    name = "rlcard gin-rummy"

    def __init__(self, seed: int) -> None:
        from importlib.metadata import version

        import rlcard  # type: ignore[import-not-found, import-untyped, unused-ignore]

        self.version = version("rlcard")
        self.env: Any = rlcard.make("gin-rummy", config={"seed": seed})

    def play_hand(self, rng: random.Random) -> int:
        env = self.env
        state, _ = env.reset()
        moves = 0
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[rng.randrange(len(legal))])
            moves += 1
        return moves

    def timed_hand(self, rng: random.Random, times: list[int], overhead: int) -> None:
        clock = time.perf_counter_ns
        env = self.env
        env.reset()
        while not env.is_over():
            t0 = clock()
            legal = list(env._get_legal_actions())
            times.append(clock() - t0 - overhead)
            env.step(legal[rng.randrange(len(legal))])


OptionalEngine = tuple[Callable[[], Engine], str, str]
"""An engine that may be missing: how to make it (``ImportError`` when it cannot be), what
is missing then, and the extra that installs it."""


def load_engines(seed: int, more: Sequence[OptionalEngine] = ()) -> tuple[list[Engine], list[str]]:
    """Umtali's interfaces, then ``more`` (engines of outer layers, such as
    :data:`umtali.rl.bench.ENGINES`), then whichever peers are installed; and a note for
    each one that is not."""
    engines: list[Engine] = [UmtaliActions(), UmtaliMoves(), UmtaliGin()]
    missing = []
    optional: tuple[OptionalEngine, ...] = (
        *more,
        (OpenSpielGin, "open-spiel", "bench"),
        (lambda: RLCardGin(seed), "rlcard", "bench"),
    )
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
    ours = [t for t in tallies if t.name.startswith("umtali")]
    peers = [t for t in tallies if not t.name.startswith("umtali")]
    if peers:
        lines.append("")
        lines.append("Umtali ÷ peer, player moves per second (same run):")
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
