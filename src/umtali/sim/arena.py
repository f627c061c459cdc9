"""``umtali arena``: two bots over duplicate deals, and the figures that compare them,
in either game: the rules passed in (Umtali's :class:`~umtali.games.umtali.rules.RuleSet` or Gin
Rummy's :class:`~umtali.games.gin.rules.GinRules`) say which is played (:data:`GAMES`).

Method (see docs/BOTS.md):

* **One loop, one seed scheme.** Each game is a :class:`umtali.games.umtali.session.PlaySession`
  (or, for Gin Rummy, a :class:`umtali.games.gin.session.GinPlaySession`) between the two
  levels, played out by the loop ``umtali play`` uses, with the seed
  ``f"{seed}/{d}"`` for deal ``d`` (0, 1, …) (:func:`game_seed`). The session's scheme
  fixes the rest: hand ``h`` is dealt from ``seeded_deck(f"{seed}/{d}/{h}")``, the first
  dealer is drawn from ``f"{seed}/{d}/first dealer"``.
* **Duplicate.** Every deal is played twice: bot A as Player 1 (seat 0), then as Player 2
  (seat 1), the seat of the first dealer unchanged. In the first hand each bot holds, in
  one game, the cards the other held in the other; later hands keep the same deck per
  hand index, though who deals follows who won.
* **Chance in decisions.** Every decision gets its own RNG seeded from
  ``f"{seed}/{d}/{h}/{move index}"`` (:func:`umtali.kernel.seeds.decision_rng`), the same in
  both games of a deal, and each game gets fresh bots, so the results do not depend on
  ``jobs`` or on the order in which the games are played.
* **What a bot sees.** Only :meth:`umtali.games.umtali.match.Match.view`: the
  :class:`~umtali.games.umtali.view.PlayerView` of its player, with the game's scores so far.
* **Where the games run** (:data:`BACKENDS`): in this process or a pool of worker
  processes (``"processes"``), or as Ray tasks (``"ray"``) on a local Ray or a cluster.
  Each task plays a chunk of deals with the same loop, and the records are put in deal
  order, so the backend changes the timings and nothing else.

>>> result = run_arena("greedy", "random", deals=1, seed=7, jobs=1)
>>> [(r.deal, r.a_seat) for r in result.records]
[(0, 0), (0, 1)]
>>> summary = summarize(result.records)
>>> summary.games, summary.hands, summary.a_wins + summary.b_wins + summary.draws
(2, 8, 2)
>>> from umtali.games.gin.rules import GIN
>>> gin = run_arena("expert", "random", deals=1, seed=7, jobs=1, rules=GIN)
>>> [record.winner for record in gin.records], gin.to_dict()["game"]
(['A', 'A'], 'gin')
"""

from __future__ import annotations

import json
import logging
import math
import multiprocessing
import os
import platform
import signal
import socket
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal

from umtali.games.gin.bots import GIN_BOTS
from umtali.games.gin.rules import GinRules
from umtali.games.gin.session import GinPlaySession
from umtali.games.umtali.bots import BOTS
from umtali.games.umtali.rules import STANDARD, RuleSet
from umtali.games.umtali.session import BotError, PlaySession
from umtali.kernel.files import write_atomically
from umtali.kernel.seeds import deck_for, first_dealer_for
from umtali.sim.stats import Z95, mean_interval, quantile, sample_sd, wilson_interval

__all__ = [
    "BACKENDS",
    "BOOK_HIGHEST_HAND",
    "BOOK_MEAN_POINTS",
    "GAMES",
    "ArenaError",
    "ArenaGame",
    "ArenaResult",
    "GameRecord",
    "Summary",
    "against_the_book",
    "deal_decks",
    "first_dealer",
    "game_of",
    "game_seed",
    "play_game",
    "run_arena",
    "summarize",
]

BOOK_MEAN_POINTS: Final = 27
"""The book's average score of a player in a hand."""
BOOK_HIGHEST_HAND: Final = 86
"""The highest hand score the book reports."""

FORMAT: Final = "umtali-arena"
FORMAT_VERSION: Final = 1
MAX_CHUNK: Final = 8  # deals per task: small, so progress is smooth and Ctrl-C is quick

Label = Literal["A", "B"]

BACKENDS: Final = ("processes", "ray")
"""Where :func:`run_arena` plays: worker processes on this machine, or Ray tasks (the
``ray`` extra) on a local Ray or the cluster at an address."""

RAY_HINT: Final = "install it with pip install 'umtali[ray]'"


class ArenaError(Exception):
    """An arena that cannot run, or a bot that failed (raised, or chose an illegal move)."""


# -- one game ------------------------------------------------------------------------------
@dataclass(frozen=True)
class GameRecord:
    """One game of a duplicate pair, told from bot A's and bot B's side (not by seat).

    Attributes:
        deal: the deal number, 0-based.
        a_seat: bot A's seat: 0 (Player 1) or 1 (Player 2).
        first_dealer: the seat that dealt the first hand (the same in both games of a deal).
        hands: (A's score, B's score) of each hand.
        dealers: who dealt each hand, "A" or "B".
        ends: how each hand ended (:class:`umtali.games.umtali.state.Termination` values; for Gin
            Rummy ``gin``, ``knock``, ``undercut`` or ``dead``).
        moves: (A's decisions, B's decisions) in the game.
        bonuses: (A's, B's) points beside the hands': Gin Rummy's line and game
            bonuses, and the shutout's doubling (none in Umtali).
    """

    deal: int
    a_seat: int
    first_dealer: int
    hands: tuple[tuple[int, int], ...]
    dealers: tuple[str, ...]
    ends: tuple[str, ...]
    moves: tuple[int, int]
    bonuses: tuple[int, int] = (0, 0)

    @property
    def totals(self) -> tuple[int, int]:
        """The game's final scores, A's and B's: the hands' points and any bonuses."""
        return (
            sum(a for a, _ in self.hands) + self.bonuses[0],
            sum(b for _, b in self.hands) + self.bonuses[1],
        )

    @property
    def winner(self) -> Label | None:
        """The winner, "A" or "B", or ``None`` for a drawn game."""
        a, b = self.totals
        return None if a == b else ("A" if a > b else "B")

    @property
    def a_score(self) -> float:
        """A's game score: 1 for a win, ½ for a draw, 0 for a loss."""
        return {"A": 1.0, None: 0.5, "B": 0.0}[self.winner]

    def to_dict(self) -> dict[str, Any]:
        data = {
            "deal": self.deal,
            "a_seat": self.a_seat,
            "first_dealer": self.first_dealer,
            "hands": [list(h) for h in self.hands],
            "dealers": list(self.dealers),
            "ends": list(self.ends),
            "moves": list(self.moves),
            "totals": list(self.totals),
            "winner": self.winner,
        }
        if self.bonuses != (0, 0):  # Umtali's records stay as they were
            data["bonuses"] = list(self.bonuses)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameRecord:
        bonuses = data.get("bonuses", (0, 0))
        return cls(
            deal=int(data["deal"]),
            a_seat=int(data["a_seat"]),
            first_dealer=int(data["first_dealer"]),
            hands=tuple((int(a), int(b)) for a, b in data["hands"]),
            dealers=tuple(str(d) for d in data["dealers"]),
            ends=tuple(str(e) for e in data["ends"]),
            moves=(int(data["moves"][0]), int(data["moves"][1])),
            bonuses=(int(bonuses[0]), int(bonuses[1])),
        )


def game_seed(seed: int, deal: int) -> str:
    """The seed of deal ``deal``'s games: both seatings play the session of this seed."""
    return f"{seed}/{deal}"


def deal_decks(seed: int, deal: int, hands: int) -> list[tuple[int, ...]]:
    """The decks of a deal's hands, by hand index."""
    return [deck_for(game_seed(seed, deal), h) for h in range(hands)]


def first_dealer(seed: int, deal: int) -> int:
    """The seat that deals a deal's first hand."""
    return first_dealer_for(game_seed(seed, deal))


AnyRules = RuleSet | GinRules
"""The rules of either game; their type says which game the arena plays."""


@dataclass(frozen=True)
class _Hand:
    """One finished hand as the arena counts it, by seat: scores, dealer, how it ended."""

    scores: tuple[int, int]
    dealer: int
    end: str


@dataclass(frozen=True)
class _Played:
    """A game between two computer seats, played out: each decision's seat and seconds,
    the hands, and the points beside the hands' by seat."""

    decisions: list[tuple[int, float]]
    first_dealer: int
    hands: list[_Hand]
    bonuses: tuple[int, int]


def _play_umtali(
    levels: tuple[str, str], seed: str, players: tuple[str, str], rules: AnyRules
) -> _Played:
    assert isinstance(rules, RuleSet)
    session = PlaySession.between_bots(levels, seed, players=players, rules=rules)
    decisions = [(step.seat, step.seconds) for step in session.play_out()]
    hands = []
    for hand in session.match.hands:
        outcome = hand.outcome()
        assert outcome is not None
        hands.append(_Hand(outcome.scores, hand.dealer, outcome.termination.value))
    return _Played(decisions, session.match.first_dealer, hands, (0, 0))


def _play_gin(
    levels: tuple[str, str], seed: str, players: tuple[str, str], rules: AnyRules
) -> _Played:
    assert isinstance(rules, GinRules)
    session = GinPlaySession.between_bots(levels, seed, players=players, rules=rules)
    decisions = [(step.seat, step.seconds) for step in session.play_out()]
    hands = []
    for hand in session.match.hands:
        assert hand.outcome is not None
        hands.append(_Hand(hand.outcome.scores, hand.dealer, hand.outcome.how))
    result = session.match.result()
    assert result is not None
    points = session.match.game.totals()
    bonuses = (result.final[0] - points[0], result.final[1] - points[1])
    return _Played(decisions, session.match.first_dealer, hands, bonuses)


@dataclass(frozen=True)
class ArenaGame:
    """What the arena needs of a game: its name, its bot levels, and how a game between
    two of them is played out (the one loop each game's session has)."""

    name: str
    title: str
    levels: Mapping[str, object]
    """The game's bot levels by name: the registry itself, so that a level added to it
    (as a test adds one) is known here too."""
    play: Callable[[tuple[str, str], str, tuple[str, str], AnyRules], _Played]


GAMES: Final = {
    "umtali": ArenaGame("umtali", "Umtali", BOTS, _play_umtali),
    "gin": ArenaGame("gin", "Gin Rummy", GIN_BOTS, _play_gin),
}
"""The games the arena plays, by the name ``umtali arena --game`` takes."""


def game_of(rules: AnyRules) -> ArenaGame:
    """The game the rules are of.

    >>> game_of(STANDARD).title
    'Umtali'
    """
    return GAMES["gin" if isinstance(rules, GinRules) else "umtali"]


def against_the_book(rules: AnyRules) -> bool:
    """Whether a run is set against the book's figures: they are of the book's own
    game, so only of the standard rules.

    >>> from umtali.games.umtali.rules import PRESETS
    >>> against_the_book(STANDARD), against_the_book(PRESETS["practical"])
    (True, False)
    """
    return rules == STANDARD


def play_game(
    bot_a: str,
    bot_b: str,
    seed: int,
    deal: int,
    a_seat: int,
    rules: AnyRules = STANDARD,
) -> tuple[GameRecord, list[float], list[float]]:
    """Play one game of deal ``deal`` with bot A in seat ``a_seat``: a session of the
    rules' game between the two levels, played out.

    Returns the record and the seconds each of A's and B's decisions took.
    """
    label: tuple[Label, Label] = ("A", "B") if a_seat == 0 else ("B", "A")
    levels = {"A": bot_a, "B": bot_b}
    try:
        played = game_of(rules).play(
            (levels[label[0]], levels[label[1]]),
            game_seed(seed, deal),
            (f"{label[0]} {levels[label[0]]}", f"{label[1]} {levels[label[1]]}"),
            rules,
        )
    except BotError as e:
        where = (
            f"deal {deal}, {label[e.seat]} ({levels[label[e.seat]]}) as Player {e.seat + 1},"
            f" hand {e.hand_index + 1}, decision {e.move_index + 1}"
        )
        raise ArenaError(f"{where}: {e.what}") from e
    times: dict[Label, list[float]] = {"A": [], "B": []}
    for seat, seconds in played.decisions:
        times[label[seat]].append(seconds)

    def by_label(pair: tuple[int, int]) -> tuple[int, int]:
        return pair if a_seat == 0 else (pair[1], pair[0])

    record = GameRecord(
        deal=deal,
        a_seat=a_seat,
        first_dealer=played.first_dealer,
        hands=tuple(by_label(hand.scores) for hand in played.hands),
        dealers=tuple(label[hand.dealer] for hand in played.hands),
        ends=tuple(hand.end for hand in played.hands),
        moves=(len(times["A"]), len(times["B"])),
        bonuses=by_label(played.bonuses),
    )
    return record, times["A"], times["B"]


@dataclass
class _Chunk:
    records: list[GameRecord] = field(default_factory=list)
    times_a: list[float] = field(default_factory=list)
    times_b: list[float] = field(default_factory=list)

    def add(self, other: _Chunk) -> None:
        self.records += other.records
        self.times_a += other.times_a
        self.times_b += other.times_b


def _play_deals(bot_a: str, bot_b: str, seed: int, deals: range, rules: AnyRules) -> _Chunk:
    """Both games of each deal in ``deals``."""
    chunk = _Chunk()
    for deal in deals:
        for a_seat in (0, 1):
            record, ta, tb = play_game(bot_a, bot_b, seed, deal, a_seat, rules)
            chunk.add(_Chunk([record], ta, tb))
    return chunk


def _play_task(task: tuple[str, str, int, range, AnyRules]) -> _Chunk:
    return _play_deals(*task)


def _ignore_sigint() -> None:
    """Workers leave Ctrl-C to the parent (which cancels the run), so they print nothing."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


RAY_CONNECT_SECONDS: Final = 5.0
"""How long a cluster's address may take to answer before the run is refused: Ray itself
retries an address that does not answer for minutes."""


def _check_answers(address: str) -> None:
    """:class:`ArenaError` unless something answers at the ``HOST:PORT`` of ``address``
    (``ray://`` or not) within :data:`RAY_CONNECT_SECONDS`; ``auto`` is left to Ray,
    which finds a cluster on this machine or says there is none."""
    if address == "auto":
        return
    where = address.removeprefix("ray://")
    host, _, port = where.rpartition(":")
    if not host or not port.isdigit():
        raise ArenaError(
            f"a Ray cluster's address is auto, HOST:PORT or ray://HOST:PORT, not {address!r}"
        )
    try:
        socket.create_connection((host.strip("[]"), int(port)), RAY_CONNECT_SECONDS).close()
    except OSError as e:
        raise ArenaError(f"no Ray cluster answers at {address!r}: {e}") from None


def _ray_cpus(address: str | None, jobs: int) -> int:
    """Start Ray unless it runs already (a local Ray of ``jobs`` CPUs, or a connection to
    the cluster at ``address``), and return the CPUs it offers."""
    try:
        import ray  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        raise ArenaError(f"the ray backend needs Ray, which is not installed: {RAY_HINT}") from None
    if not ray.is_initialized():
        if address is not None:
            _check_answers(address)
        try:
            ray.init(
                address=address,
                num_cpus=None if address else jobs,
                include_dashboard=False,
                log_to_driver=False,
                logging_level=logging.ERROR,
            )
        except (ConnectionError, ValueError, RuntimeError) as e:
            what = f"connect to the Ray cluster at {address!r}" if address else "start a local Ray"
            raise ArenaError(f"could not {what}: {e}") from None
    cpus = ray.cluster_resources().get("CPU", 1)  # type: ignore[no-untyped-call, unused-ignore]
    return max(1, int(cpus))


def _play_on_ray(
    tasks: list[tuple[str, str, int, range, AnyRules]],
    progress: Callable[[int], None] | None,
) -> _Chunk:
    """Every task as a Ray task, on the Ray :func:`_ray_cpus` started; their chunks
    added up as they finish. An error (or Ctrl-C) cancels the tasks still running."""
    import ray  # type: ignore[import-not-found, unused-ignore]

    play = ray.remote(_play_task)
    pending = [play.remote(task) for task in tasks]
    total = _Chunk()
    if progress is not None:
        progress(0)
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                chunk = ray.get(ref)
                total.add(chunk)
                if progress is not None:
                    progress(len(chunk.records))
    except ray.exceptions.RayTaskError as e:
        raise ArenaError(str(e.cause) if e.cause is not None else str(e)) from e
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
    return total


# -- a whole run -----------------------------------------------------------------------
@dataclass(frozen=True)
class ArenaResult:
    """Everything a run produced: its settings, the games in order, and timings."""

    bot_a: str
    bot_b: str
    seed: int
    deals: int
    rules: AnyRules
    records: tuple[GameRecord, ...]
    times_a: tuple[float, ...]
    times_b: tuple[float, ...]
    jobs: int
    seconds: float
    backend: str = "processes"

    def summary(self) -> Summary:
        return summarize(self.records)

    def to_dict(self) -> dict[str, Any]:
        """JSON data. Everything but ``run`` (jobs, machine, timings) is reproducible: the
        same bots, deals, seed and rules give the same data."""
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "game": game_of(self.rules).name,
            "bots": {"A": self.bot_a, "B": self.bot_b},
            "seed": self.seed,
            "deals": self.deals,
            "rules": self.rules.name,
            "method": {
                "duplicate": "each deal is played twice, bot A as Player 1 then as Player 2;"
                " same decks per hand index, same first dealer seat",
                "game_ci": "Wilson score interval (95%) on A's game score rate, a drawn game"
                " counting half a win, games treated as independent",
                "deal_ci": "normal approximation (95%) on A's mean score per deal (the mean of"
                " its two games), deals being independent",
                "hand_ci": "Wilson score interval (95%) on A's hand score rate, a drawn hand"
                " counting half (hands of a game are not independent: a rough guide)",
            },
            "summary": self.summary().to_dict(),
            "run": {
                "backend": self.backend,
                "jobs": self.jobs,
                "seconds": round(self.seconds, 3),
                "games_per_second": round(len(self.records) / self.seconds, 2)
                if self.seconds > 0
                else None,
                "decision_ms": {
                    "A": _timing(self.times_a),
                    "B": _timing(self.times_b),
                },
                "python": platform.python_version(),
                "machine": platform.machine(),
            },
            "records": [r.to_dict() for r in self.records],
        }

    def to_json(self) -> str:
        """The JSON text: figures indented, then one line per game record."""
        data = self.to_dict()
        records = data.pop("records")
        head = json.dumps(data, indent=1, ensure_ascii=False)
        lines = ",\n".join(f"  {json.dumps(r, ensure_ascii=False)}" for r in records)
        return f'{head[:-2]},\n "records": [\n{lines}\n ]\n}}\n'

    def write_json(self, path: Path) -> None:
        """Write :meth:`to_json` to ``path`` atomically: an interrupted run leaves the
        results of the last one whole. A new file is an ordinary one (mode 0o666 less
        the umask): results hold nothing private."""
        write_atomically(path, self.to_json(), new_file_mode=0o666)


def _timing(times: Sequence[float]) -> dict[str, float | int]:
    if not times:
        return {"decisions": 0, "mean": 0.0, "median": 0.0, "max": 0.0}
    return {
        "decisions": len(times),
        "mean": round(1000 * math.fsum(times) / len(times), 4),
        "median": round(1000 * quantile(times, 0.5), 4),
        "max": round(1000 * max(times), 3),
    }


def _chunks(deals: int, jobs: int) -> list[range]:
    size = max(1, min(MAX_CHUNK, math.ceil(deals / (jobs * 8))))
    return [range(s, min(s + size, deals)) for s in range(0, deals, size)]


def run_arena(
    bot_a: str,
    bot_b: str,
    deals: int,
    seed: int = 0,
    jobs: int | None = None,
    rules: AnyRules = STANDARD,
    progress: Callable[[int], None] | None = None,
    backend: str = "processes",
    address: str | None = None,
) -> ArenaResult:
    """Play ``deals`` duplicate deals (``2 × deals`` games) between two bot levels.

    ``jobs`` processes play them (default: every core; 1 plays in this process). With
    ``backend="ray"`` they are Ray tasks instead: on the Ray already started in this
    process, else on a new local Ray of ``jobs`` CPUs, or on the cluster at ``address``
    (``"auto"``, or ``"ray://host:10001"``; its nodes need umtali installed); the
    records are the same as with processes.
    ``progress`` is called with the number of games each time some finish (and with 0
    once the worker processes have started). Unknown levels, ``deals`` < 1 or ``jobs``
    < 1 raise :class:`ArenaError`, as does a bot that fails or chooses an illegal move.
    The ``rules`` say which game is played (:func:`game_of`), and so which levels exist.
    """
    game = game_of(rules)
    for level in (bot_a, bot_b):
        if level not in game.levels:
            raise ArenaError(
                f"unknown bot level {level!r}; the {game.title} levels are:"
                f" {', '.join(game.levels)}"
            )
    if deals < 1:
        raise ArenaError(f"the arena needs at least one deal, not {deals}")
    if backend not in BACKENDS:
        raise ArenaError(f"the arena's backend is one of {', '.join(BACKENDS)}, not {backend!r}")
    if address is not None and backend != "ray":
        raise ArenaError(f"an address is of a Ray cluster: it needs the ray backend, not {backend}")
    jobs = (os.cpu_count() or 1) if jobs is None else jobs
    if jobs < 1:
        raise ArenaError(f"the arena needs at least one job, not {jobs}")
    if backend == "ray":
        jobs = _ray_cpus(address, jobs)
    chunks = _chunks(deals, jobs)
    workers = min(jobs, len(chunks))
    total = _Chunk()
    start = time.perf_counter()
    if backend == "ray":
        total = _play_on_ray([(bot_a, bot_b, seed, c, rules) for c in chunks], progress)
    elif workers == 1:
        for deal in range(deals):
            total.add(_play_deals(bot_a, bot_b, seed, range(deal, deal + 1), rules))
            if progress is not None:
                progress(2)
    else:
        tasks = [(bot_a, bot_b, seed, c, rules) for c in chunks]
        # Pool's exit terminates the workers, so an error or Ctrl-C stops the run at once.
        with multiprocessing.Pool(workers, initializer=_ignore_sigint) as pool:
            if progress is not None:
                progress(0)
            for chunk in pool.imap_unordered(_play_task, tasks):
                total.add(chunk)
                if progress is not None:
                    progress(len(chunk.records))
    seconds = time.perf_counter() - start
    # Put the games in order, whatever order the workers finished in.
    records = sorted(total.records, key=lambda r: (r.deal, r.a_seat))
    return ArenaResult(
        bot_a=bot_a,
        bot_b=bot_b,
        seed=seed,
        deals=deals,
        rules=rules,
        records=tuple(records),
        times_a=tuple(total.times_a),
        times_b=tuple(total.times_b),
        jobs=workers,
        seconds=seconds,
        backend=backend,
    )


# -- the figures -----------------------------------------------------------------------
@dataclass(frozen=True)
class PointStats:
    """One bot's points per hand."""

    hands: int
    mean: float
    sd: float
    minimum: int
    maximum: int
    quantiles: dict[str, float]
    histogram: dict[int, int]

    @classmethod
    def of(cls, points: Sequence[int]) -> PointStats:
        return cls(
            hands=len(points),
            mean=math.fsum(points) / len(points),
            sd=sample_sd(points),
            minimum=min(points),
            maximum=max(points),
            quantiles={
                f"p{round(100 * q)}": quantile(points, q) for q in (0.1, 0.25, 0.5, 0.75, 0.9)
            },
            histogram=dict(sorted(Counter(points).items())),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "mean": round(self.mean, 4),
            "sd": round(self.sd, 4),
            "min": self.minimum,
            "max": self.maximum,
            "quantiles": {k: round(v, 4) for k, v in self.quantiles.items()},
            "histogram": {str(k): v for k, v in self.histogram.items()},
        }


@dataclass(frozen=True)
class HighHand:
    """The highest hand score seen, and where."""

    points: int
    bot: Label
    deal: int
    a_seat: int
    hand: int  # the hand's number in its game, from 1

    def where(self, levels: dict[str, str]) -> str:
        seat = self.a_seat if self.bot == "A" else 1 - self.a_seat
        return (
            f"{self.bot} {levels[self.bot]} as Player {seat + 1}, hand {self.hand} of deal"
            f" {self.deal}"
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "points": self.points,
            "bot": self.bot,
            "deal": self.deal,
            "a_seat": self.a_seat,
            "hand_number": self.hand,
        }


@dataclass(frozen=True)
class Summary:
    """The figures of a run, from its game records alone (so they are reproducible).

    Game and hand rates are bot A's: wins plus half the draws, over the games (hands).
    """

    deals: int
    games: int
    a_wins: int
    b_wins: int
    draws: int
    game_rate: float
    game_ci: tuple[float, float]
    a_wins_by_seat: tuple[int, int]  # A's wins as Player 1, as Player 2
    b_wins_by_seat: tuple[int, int]  # B's wins as Player 1, as Player 2
    deal_outcomes: dict[str, int]  # A won both / split / B won both
    deal_rate: float
    deal_ci: tuple[float, float]
    margin: float  # A's points minus B's, per game, averaged over deals
    margin_ci: tuple[float, float]
    hands: int
    a_hand_wins: int
    b_hand_wins: int
    hand_draws: int
    hand_rate: float
    hand_ci: tuple[float, float]
    ends: dict[str, int]
    points_a: PointStats
    points_b: PointStats
    points_both: PointStats
    highest: HighHand

    @property
    def book_mean_gap(self) -> float:
        """Mean points per hand of both bots, minus the book's 27."""
        return self.points_both.mean - BOOK_MEAN_POINTS

    @property
    def book_highest_gap(self) -> int:
        """The highest hand seen, minus the book's 86."""
        return self.highest.points - BOOK_HIGHEST_HAND

    def to_dict(self) -> dict[str, Any]:
        def r(x: float) -> float:
            return round(x, 6)

        return {
            "games": {
                "deals": self.deals,
                "games": self.games,
                "A_wins": self.a_wins,
                "B_wins": self.b_wins,
                "draws": self.draws,
                "A_rate": r(self.game_rate),
                "A_rate_ci95": [r(x) for x in self.game_ci],
                "A_wins_as_player": list(self.a_wins_by_seat),
                "B_wins_as_player": list(self.b_wins_by_seat),
            },
            "deals": {
                "A_won_both": self.deal_outcomes["A"],
                "split": self.deal_outcomes["split"],
                "B_won_both": self.deal_outcomes["B"],
                "A_rate": r(self.deal_rate),
                "A_rate_ci95": [r(x) for x in self.deal_ci],
                "A_margin_per_game": r(self.margin),
                "A_margin_ci95": [r(x) for x in self.margin_ci],
            },
            "hands": {
                "hands": self.hands,
                "A_wins": self.a_hand_wins,
                "B_wins": self.b_hand_wins,
                "draws": self.hand_draws,
                "A_rate": r(self.hand_rate),
                "A_rate_ci95": [r(x) for x in self.hand_ci],
                "ends": self.ends,
            },
            "points_per_hand": {
                "A": self.points_a.to_dict(),
                "B": self.points_b.to_dict(),
                "both": self.points_both.to_dict(),
            },
            "highest_hand": self.highest.to_dict(),
            "book": {
                "mean_points_per_hand": BOOK_MEAN_POINTS,
                "highest_hand": BOOK_HIGHEST_HAND,
                "mean_gap": r(self.book_mean_gap),
                "highest_gap": self.book_highest_gap,
            },
        }


def summarize(records: Sequence[GameRecord]) -> Summary:
    """The figures of a set of game records (both games of each deal, in any order)."""
    if not records:
        raise ArenaError("no games to summarise")
    games = len(records)
    winners = Counter(r.winner for r in records)
    a_wins, b_wins, draws = winners["A"], winners["B"], winners[None]
    game_score = a_wins + draws / 2

    by_deal: dict[int, list[GameRecord]] = {}
    for record in records:
        by_deal.setdefault(record.deal, []).append(record)
    deal_scores = [sum(r.a_score for r in rs) / len(rs) for rs in by_deal.values()]
    deal_outcomes = {"A": 0, "split": 0, "B": 0}
    for rs in by_deal.values():
        ws = {r.winner for r in rs}
        deal_outcomes["A" if ws == {"A"} else "B" if ws == {"B"} else "split"] += 1
    margins = [sum(r.totals[0] - r.totals[1] for r in rs) / len(rs) for rs in by_deal.values()]
    deal_rate, deal_lo, deal_hi = mean_interval(deal_scores, Z95)
    margin, margin_lo, margin_hi = mean_interval(margins, Z95)

    hand_scores = [h for r in records for h in r.hands]
    a_hand = sum(1 for a, b in hand_scores if a > b)
    b_hand = sum(1 for a, b in hand_scores if b > a)
    hand_draws = len(hand_scores) - a_hand - b_hand
    hand_score = a_hand + hand_draws / 2

    highest: HighHand | None = None
    for record in records:
        for index, (a, b) in enumerate(record.hands, start=1):
            pair: tuple[tuple[Label, int], ...] = (("A", a), ("B", b))
            for bot, points in pair:
                if highest is None or points > highest.points:
                    highest = HighHand(points, bot, record.deal, record.a_seat, index)
    assert highest is not None

    return Summary(
        deals=len(by_deal),
        games=games,
        a_wins=a_wins,
        b_wins=b_wins,
        draws=draws,
        game_rate=game_score / games,
        game_ci=wilson_interval(game_score, games),
        a_wins_by_seat=(
            sum(1 for r in records if r.a_seat == 0 and r.winner == "A"),
            sum(1 for r in records if r.a_seat == 1 and r.winner == "A"),
        ),
        b_wins_by_seat=(
            sum(1 for r in records if r.a_seat == 1 and r.winner == "B"),
            sum(1 for r in records if r.a_seat == 0 and r.winner == "B"),
        ),
        deal_outcomes=deal_outcomes,
        deal_rate=deal_rate,
        deal_ci=(max(0.0, deal_lo), min(1.0, deal_hi)),
        margin=margin,
        margin_ci=(margin_lo, margin_hi),
        hands=len(hand_scores),
        a_hand_wins=a_hand,
        b_hand_wins=b_hand,
        hand_draws=hand_draws,
        hand_rate=hand_score / len(hand_scores),
        hand_ci=wilson_interval(hand_score, len(hand_scores)),
        ends=dict(sorted(Counter(e for r in records for e in r.ends).items())),
        points_a=PointStats.of([a for a, _ in hand_scores]),
        points_b=PointStats.of([b for _, b in hand_scores]),
        points_both=PointStats.of([p for h in hand_scores for p in h]),
        highest=highest,
    )


# -- the printed report --------------------------------------------------------------------
def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _num(x: float) -> str:
    """A figure to one decimal, without a trailing .0."""
    return f"{x:.1f}".removesuffix(".0")


def report(result: ArenaResult) -> str:
    """The summary table printed by ``umtali arena``: the book's figures are of its
    standard rules, so they close the table of such a run only."""
    s = result.summary()
    game = game_of(result.rules)
    levels = {"A": result.bot_a, "B": result.bot_b}
    timing = {"A": _timing(result.times_a), "B": _timing(result.times_b)}
    head_a, head_b = f"A {result.bot_a}", f"B {result.bot_b}"
    w = max(12, len(head_a), len(head_b))

    def row(name: str, x: object, y: object, note: str = "") -> str:
        line = f"{name:<25}{x!s:>{w}}  {y!s:>{w}}"
        return f"{line}   {note}" if note else line

    pa, pb, both = s.points_a, s.points_b, s.points_both
    jobs = f"{result.jobs} job{'s' if result.jobs > 1 else ''}"
    if result.backend == "ray":
        jobs = f"Ray tasks on {result.jobs} CPU{'s' if result.jobs > 1 else ''}"
    lines = [
        f"umtali arena · {game.title} ({result.rules.name} rules) · {head_a} vs {head_b} · {s.deals} deals × 2 seatings = {s.games}"
        f" games · seed {result.seed} · {jobs} · {result.seconds:.1f} s",
        "",
        row("", head_a, head_b),
        row("games won", s.a_wins, s.b_wins, f"{s.draws} drawn"),
        row(
            "game win rate",
            _pct(s.game_rate),
            _pct(1 - s.game_rate),
            f"A {_pct(s.game_ci[0])}–{_pct(s.game_ci[1])} (95% Wilson; a draw counts ½)",
        ),
        row(
            "  won as Player 1 / 2",
            f"{s.a_wins_by_seat[0]} / {s.a_wins_by_seat[1]}",
            f"{s.b_wins_by_seat[0]} / {s.b_wins_by_seat[1]}",
        ),
        row(
            "deals won in both seats",
            s.deal_outcomes["A"],
            s.deal_outcomes["B"],
            f"{s.deal_outcomes['split']} split; A {s.deal_rate:.3f} a deal"
            f" ({s.deal_ci[0]:.3f}–{s.deal_ci[1]:.3f}, 95% normal)",
        ),
        row(
            "game margin, points",
            f"{s.margin:+.1f}",
            f"{0.0 - s.margin:+.1f}",
            f"A {s.margin_ci[0]:+.1f} to {s.margin_ci[1]:+.1f} (95% normal, per game)",
        ),
        row("hands won", s.a_hand_wins, s.b_hand_wins, f"{s.hand_draws} drawn of {s.hands}"),
        row(
            "hand win rate",
            _pct(s.a_hand_wins / s.hands),
            _pct(s.b_hand_wins / s.hands),
            f"A with draws as ½ {_pct(s.hand_rate)}"
            f" ({_pct(s.hand_ci[0])}–{_pct(s.hand_ci[1])}, 95% Wilson)",
        ),
        row("points per hand: mean", f"{pa.mean:.1f}", f"{pb.mean:.1f}", f"both {both.mean:.1f}"),
        row("  sd", f"{pa.sd:.1f}", f"{pb.sd:.1f}"),
        row("  median", _num(pa.quantiles["p50"]), _num(pb.quantiles["p50"])),
        row(
            "  10% – 90%",
            f"{_num(pa.quantiles['p10'])} – {_num(pa.quantiles['p90'])}",
            f"{_num(pb.quantiles['p10'])} – {_num(pb.quantiles['p90'])}",
        ),
        row("  lowest", pa.minimum, pb.minimum),
        row("  highest", pa.maximum, pb.maximum),
        row("decision, mean ms", f"{timing['A']['mean']:.3f}", f"{timing['B']['mean']:.3f}"),
        row(
            "decision, median ms",
            f"{timing['A']['median']:.3f}",
            f"{timing['B']['median']:.3f}",
            f"over {timing['A']['decisions']:,} and {timing['B']['decisions']:,} decisions",
        ),
        row("decision, slowest ms", f"{timing['A']['max']:.1f}", f"{timing['B']['max']:.1f}"),
        "",
        "points per hand",
        *_histogram_rows(pa, pb, head_a, head_b),
        "hands ended: " + ", ".join(f"{e} {n}" for e, n in s.ends.items()),
        "",
    ]
    if against_the_book(result.rules):
        lines += [
            f"book: {BOOK_MEAN_POINTS} points per hand on average; here {both.mean:.1f}"
            f" ({s.book_mean_gap:+.1f}; A {pa.mean:.1f}, B {pb.mean:.1f})",
            f"book: highest hand {BOOK_HIGHEST_HAND}; here {s.highest.points}"
            f" ({s.book_highest_gap:+d}; {s.highest.where(levels)})",
        ]
    elif game.name == "gin":
        bonuses = [sum(r.bonuses[i] for r in result.records) / s.games for i in (0, 1)]
        lines += [
            f"bonuses (line, game, shutout) per game: A {bonuses[0]:.1f}, B {bonuses[1]:.1f};"
            " the game margin counts them, the points per hand do not",
            f"highest hand: {s.highest.points} ({s.highest.where(levels)})",
        ]
    return "\n".join(lines)


def _histogram_rows(
    pa: PointStats, pb: PointStats, head_a: str, head_b: str, width: int = 10, bar: int = 16
) -> list[str]:
    """Points per hand in bins of ``width``: count, share and a bar for each bot (the
    fullest bin of either bot fills ``bar`` blocks)."""
    bins = range(0, max(pa.maximum, pb.maximum) + 1, width)
    counts = [
        [sum(c for p, c in st.histogram.items() if low <= p < low + width) for low in bins]
        for st in (pa, pb)
    ]
    fullest = max(max(counts[0]) / pa.hands, max(counts[1]) / pb.hands)
    cell = 14 + bar
    rows = [f"{'':<10}{head_a:<{cell}}  {head_b}"]
    for i, low in enumerate(bins):
        cells = []
        for st, cs in zip((pa, pb), counts, strict=True):
            share = cs[i] / st.hands
            blocks = "█" * round(bar * share / fullest)
            cells.append(f"{cs[i]:>6} {_pct(share):>6} {blocks:<{bar}}")
        rows.append(f"  {low:>2}–{low + width - 1:<3}  {'  '.join(cells)}".rstrip())
    return rows
