"""``umtali arena``: two bots over duplicate deals of any registered game, and the figures
that compare them (see docs/BOTS.md).

* **Through the registry.** A game is a session of the game named (``game``, its
  ``variant``), made by its spec's maker between computer levels
  (:meth:`~umtali.games.api.SessionMaker.between_bots`) and played out through the
  :class:`~umtali.games.api.Session` protocol alone (:func:`play_out`): deal when a deal
  is due, else let the computer to move choose. What the arena reads of every game is
  whose decision each was and how long it took, the hands dealt and their scores; what
  is a game's own (how its hands end, its bonuses, its partners, the book's figures) comes
  from its arena hook (:mod:`umtali.sim.hooks`).
* **One seed scheme.** Deal ``d`` (0, 1, ...) is the session seeded ``f"{seed}/{d}"``
  (:func:`game_seed`); the session's own scheme fixes the rest (each hand's deck, the
  first dealer, each decision's RNG), so the results do not depend on ``jobs`` or on the
  order in which the games are played, and each game gets fresh bots.
* **Duplicate.** Every deal is played once for each seat, bot A in that seat and bot B in
  every other: with two seats, A as Player 1 (seat 0), then as Player 2 (seat 1), the
  first dealer's seat unchanged, so that each bot holds, in one game, the cards the other
  held in the other. With three or four seats A plays each seat's cards once, against a
  field of B.
* **What a bot sees.** Only what its session shows its seat: the game's view.
* **Where the games run** (:data:`BACKENDS`): in this process or a pool of worker
  processes (``"processes"``), or as Ray tasks (``"ray"``) on a local Ray or a cluster.
  Each task plays a chunk of deals with the same loop, and the records are put in deal
  order, so the backend changes the timings and nothing else.

>>> result = run_arena("greedy", "random", 1, seed=7, jobs=1)
>>> [(r.deal, r.a_seat) for r in result.records]
[(0, 0), (0, 1)]
>>> summary = summarize(result.records)
>>> summary.games, summary.hands, summary.a_wins + summary.b_wins + summary.draws
(2, 8, 2)
>>> other = run_arena("greedy", "random", 1, seed=7, jobs=1, variant="practical")
>>> other.to_dict()["game"], other.to_dict()["rules"]
('umtali', 'practical')
"""

from __future__ import annotations

import json
import logging
import math
import os
import platform
import socket
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final

from umtali import games as registry
from umtali.games import DEFAULT_GAME, UnknownGameError
from umtali.games.api import BotError, DealDue, GameSpec, Session
from umtali.kernel.files import write_atomically
from umtali.sim.checkpoint import Checkpoint, CheckpointError, RunKey
from umtali.sim.hooks import ArenaHook, GameOutcome, HandPlayed, hook_of, levels_of
from umtali.sim.policies import OutsidePolicy, registered
from umtali.sim.processes import WorkerDiedError, play_in_processes
from umtali.sim.stats import quantile
from umtali.sim.summary import (
    ArenaError,
    GameRecord,
    HighHand,
    Label,
    PointStats,
    Summary,
    summarize,
)

__all__ = [
    "BACKENDS",
    "ArenaError",
    "ArenaResult",
    "GameRecord",
    "HighHand",
    "PlayedOut",
    "PointStats",
    "Summary",
    "game_seed",
    "play_game",
    "play_out",
    "report",
    "run_arena",
    "seatings",
    "summarize",
]

FORMAT: Final = "umtali-arena"
FORMAT_VERSION: Final = 1
MAX_CHUNK: Final = 8  # deals per task: small, so progress is smooth and Ctrl-C is quick

BACKENDS: Final = ("processes", "ray")
"""Where :func:`run_arena` plays: worker processes on this machine, or Ray tasks (the
``ray`` extra) on a local Ray or the cluster at an address."""

RAY_HINT: Final = "install it with pip install 'umtali[ray]'"


# -- one game ------------------------------------------------------------------------------
def game_seed(seed: int, deal: int) -> str:
    """The seed of deal ``deal``'s games: every seating plays the session of this seed."""
    return f"{seed}/{deal}"


def seatings(seats: int) -> tuple[tuple[Label, ...], ...]:
    """Who sits where in each game of a deal: in game ``k`` bot A holds seat ``k`` and
    bot B every other.

    >>> seatings(2)
    (('A', 'B'), ('B', 'A'))
    >>> seatings(3)[1]
    ('B', 'A', 'B')
    """
    return tuple(tuple("A" if seat == k else "B" for seat in range(seats)) for k in range(seats))


@dataclass(frozen=True)
class PlayedOut:
    """A session played to its end between computers, as the arena reads any game.

    Attributes:
        decisions: the seat and the seconds of each computer decision, in order.
        hands: every hand, in the order dealt: its seats, scores and dealer.
        first_dealer: the seat that dealt the first hand.
    """

    decisions: list[tuple[int, float]]
    hands: list[HandPlayed]
    first_dealer: int


def play_out(session: Session) -> PlayedOut:
    """Play ``session`` (every seat a computer's) to its end through the
    :class:`~umtali.games.api.Session` protocol: deal when a deal is due, else let the
    computer to move choose. :class:`~umtali.games.api.BotError` (its ``seat`` the
    game's) if a computer fails or breaks the rules."""
    decisions: list[tuple[int, float]] = []
    dealt: list[DealDue] = []
    ended: dict[int, tuple[int, ...]] = {}  # each hand's scores, by its index
    while not session.is_over():
        if session.needs_deal():
            due = session.deals_due()
            session.deal()
            dealt += due
            continue
        seat = session.computer_to_move()
        if seat is None:
            raise ArenaError("the session waits for a person: the arena plays computers only")
        try:
            moved = session.bot_move()
        except BotError as e:  # a game of three or four tells the seat at its table
            raise BotError(seat, e.hand_index, e.move_index, e.what) from e
        decisions.append((seat, moved.seconds))
        played = session.last_played()
        if played.scores is not None:
            ended[played.hand_index] = played.scores
    if sorted(ended) != list(range(len(dealt))):
        raise ArenaError(f"{len(dealt)} hands were dealt, but {len(ended)} ended with scores")
    everyone = tuple(range(session.size))
    hands = [
        HandPlayed(due.players or everyone, ended[index], due.dealer)
        for index, due in enumerate(dealt)
    ]
    return PlayedOut(decisions, hands, dealt[0].dealer if dealt else 0)


def _record(
    deal: int,
    a_seat: int,
    labels: tuple[Label, ...],
    played: PlayedOut,
    outcome: GameOutcome,
) -> GameRecord:
    """The game told from A's and B's side: A's hands, each against the best of the
    players he met there who are not his partners; the final scores, A's against the
    best of the others'."""
    partners = outcome.team_of(a_seat)
    hands: list[tuple[int, int]] = []
    dealers: list[str] = []
    ends: list[str] = []
    for hand, end in zip(played.hands, outcome.ends, strict=True):
        if a_seat not in hand.seats:
            continue  # A sat it out
        scores = dict(zip(hand.seats, hand.scores, strict=True))
        met = [score for seat, score in scores.items() if seat not in partners]
        if met:
            hands.append((scores[a_seat], max(met)))
            dealers.append(labels[hand.dealer])
            ends.append(end)
    a_total = outcome.totals[a_seat]
    b_total = max(total for seat, total in enumerate(outcome.totals) if seat not in partners)
    moves = Counter(labels[seat] for seat, _ in played.decisions)
    return GameRecord(
        deal=deal,
        a_seat=a_seat,
        first_dealer=played.first_dealer,
        hands=tuple(hands),
        dealers=tuple(dealers),
        ends=tuple(ends),
        moves=(moves["A"], moves["B"]),
        bonuses=(a_total - sum(a for a, _ in hands), b_total - sum(b for _, b in hands)),
        seats=len(labels),
    )


def play_game(
    bot_a: str,
    bot_b: str,
    seed: int,
    deal: int,
    a_seat: int,
    *,
    game: str = DEFAULT_GAME,
    variant: str | None = None,
    seats: int = 2,
    length: str | None = None,
) -> tuple[GameRecord, list[float], list[float]]:
    """Play one game of deal ``deal`` with bot A in seat ``a_seat`` and bot B in every
    other: a session of ``game`` (to ``variant``'s rules, for ``seats``) between the
    levels, played out; ``length`` ``"hand"`` plays a single hand where the game's
    session offers one to the arena (Umtali; Gin Rummy between two), else a game.

    Returns the record and the seconds each of A's and B's decisions took.
    """
    spec = registry.get(game)
    labels = seatings(seats)[a_seat]
    levels = {"A": bot_a, "B": bot_b}
    # Two players are named after their bots; more are named by their game.
    names = [f"{label} {levels[label]}" for label in labels] if seats == 2 else None
    session = spec.maker().between_bots(
        [levels[label] for label in labels],
        game_seed(seed, deal),
        variant=variant,
        players=names,
        length=length,
    )
    try:
        played = play_out(session)
    except BotError as e:
        label = labels[e.seat]
        where = (
            f"deal {deal}, {label} ({levels[label]}) as Player {e.seat + 1},"
            f" hand {e.hand_index + 1}, decision {e.move_index + 1}"
        )
        raise ArenaError(f"{where}: {e.what}") from e
    times: dict[Label, list[float]] = {"A": [], "B": []}
    for seat, seconds in played.decisions:
        times[labels[seat]].append(seconds)
    outcome = hook_of(spec).outcome(session, played.hands)
    return _record(deal, a_seat, labels, played, outcome), times["A"], times["B"]


@dataclass
class _Chunk:
    records: list[GameRecord] = field(default_factory=list)
    times_a: list[float] = field(default_factory=list)
    times_b: list[float] = field(default_factory=list)

    def add(self, other: _Chunk) -> None:
        self.records += other.records
        self.times_a += other.times_a
        self.times_b += other.times_b


@dataclass(frozen=True)
class _Task:
    """A chunk of deals to play, as a worker process or a Ray task is handed it."""

    bot_a: str
    bot_b: str
    seed: int
    deals: tuple[int, ...]
    game: str
    variant: str
    seats: int
    policies: tuple[OutsidePolicy, ...] = ()
    length: str | None = None

    def play(self) -> _Chunk:
        """Every game of each deal in ``deals`` (the outside policies among the levels,
        where a worker process does not have them yet)."""
        with registered(self.game, self.policies):
            return self._play()

    def _play(self) -> _Chunk:
        chunk = _Chunk()
        for deal in self.deals:
            for a_seat in range(self.seats):
                record, ta, tb = play_game(
                    self.bot_a,
                    self.bot_b,
                    self.seed,
                    deal,
                    a_seat,
                    game=self.game,
                    variant=self.variant,
                    seats=self.seats,
                    length=self.length,
                )
                chunk.add(_Chunk([record], ta, tb))
        return chunk


def _play_task(task: _Task) -> _Chunk:
    return task.play()


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


def _play_on_ray(tasks: list[_Task], finished: Callable[[_Chunk], None]) -> None:
    """Every task as a Ray task, on the Ray :func:`_ray_cpus` started; ``finished`` called
    with each chunk as it comes. An error (or Ctrl-C) cancels the tasks still running."""
    import ray  # type: ignore[import-not-found, unused-ignore]

    play = ray.remote(_play_task)
    pending = [play.remote(task) for task in tasks]
    try:
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                finished(ray.get(ref))
    except ray.exceptions.RayTaskError as e:
        raise ArenaError(str(e.cause) if e.cause is not None else str(e)) from e
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)


# -- a whole run -----------------------------------------------------------------------
@dataclass(frozen=True)
class ArenaResult:
    """Everything a run produced: its settings, the games in order, and timings."""

    bot_a: str
    bot_b: str
    seed: int
    deals: int
    game: str
    variant: str
    records: tuple[GameRecord, ...]
    times_a: tuple[float, ...]
    times_b: tuple[float, ...]
    jobs: int
    seconds: float
    backend: str = "processes"
    seats: int = 2
    policies: tuple[OutsidePolicy, ...] = ()
    """The outside policies among the bots (:mod:`umtali.sim.policies`)."""
    length: str | None = None
    """``"hand"`` when every game was a single hand."""

    @property
    def hook(self) -> ArenaHook:
        """What the game adds to the arena (:mod:`umtali.sim.hooks`)."""
        return hook_of(self.game)

    def summary(self) -> Summary:
        """The run's figures, with the game's book where it has one."""
        return summarize(self.records, self.hook.book)

    def to_dict(self) -> dict[str, Any]:
        """JSON data. Everything but ``run`` (jobs, machine, timings) is reproducible: the
        same bots, deals, seed, game and variant give the same data."""
        if self.seats == 2:
            duplicate = (
                "each deal is played twice, bot A as Player 1 then as Player 2;"
                " same decks per hand index, same first dealer seat"
            )
        else:
            duplicate = (
                f"each deal is played {self.seats} times, bot A as Player 1, then 2, ..."
                " and bot B in every other seat; same decks, same first dealer seat"
            )
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "game": self.game,
            "bots": {"A": self.bot_a, "B": self.bot_b},
            "seed": self.seed,
            "deals": self.deals,
            "rules": self.variant,
        }
        bots = {"A": self.bot_a, "B": self.bot_b}
        outside = {p.name: p.to_dict() for p in self.policies}
        if outside:
            data["policies"] = {
                label: outside[bot] for label, bot in bots.items() if bot in outside
            }
        if self.seats != 2:
            data["seats"] = self.seats
        if self.length is not None:
            data["length"] = self.length
        data["method"] = {
            "duplicate": duplicate,
            "game_ci": "Wilson score interval (95%) on A's game score rate, a drawn game"
            " counting half a win, games treated as independent",
            "deal_ci": f"normal approximation (95%) on A's mean score per deal (the mean of"
            f" its {'two' if self.seats == 2 else self.seats} games), deals being independent",
            "hand_ci": "Wilson score interval (95%) on A's hand score rate, a drawn hand"
            " counting half (hands of a game are not independent: a rough guide)",
        }
        data["summary"] = self.summary().to_dict()
        data["run"] = {
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
        }
        data["records"] = [r.to_dict() for r in self.records]
        return data

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


def _chunks(deals: Sequence[int], jobs: int) -> list[tuple[int, ...]]:
    """``deals`` in tasks of a few deals each, about eight tasks a job."""
    size = max(1, min(MAX_CHUNK, math.ceil(len(deals) / (jobs * 8))))
    return [tuple(deals[s : s + size]) for s in range(0, len(deals), size)]


def _checked(game: str, variant: str | None, seats: int | None) -> tuple[GameSpec, str, int]:
    """The game's spec, its variant and seat count (the game's first when not given),
    or :class:`ArenaError` saying what the game offers."""
    try:
        spec = registry.get(game)
    except UnknownGameError as e:
        raise ArenaError(str(e)) from None
    try:
        variant = spec.check_variant(spec.variants[0] if variant is None else variant)
    except ValueError as e:
        raise ArenaError(str(e)) from None
    seats = spec.seat_counts[0] if seats is None else seats
    if seats not in spec.seat_counts:
        counts = " or ".join(map(str, spec.seat_counts))
        raise ArenaError(f"{spec.title} is played by {counts}, not {seats}")
    return spec, variant, seats


def run_arena(
    bot_a: str,
    bot_b: str,
    games: int,
    *,
    seed: int = 0,
    jobs: int | None = None,
    game: str = DEFAULT_GAME,
    variant: str | None = None,
    seats: int | None = None,
    progress: Callable[[int], None] | None = None,
    backend: str = "processes",
    address: str | None = None,
    policies: Sequence[OutsidePolicy] = (),
    length: str | None = None,
    checkpoint: Path | None = None,
) -> ArenaResult:
    """Play ``games`` duplicate deals (what ``umtali arena --games`` counts: each deal is
    played once a seat, so two games a deal for two) between two bot levels.

    The deals are of ``game`` (a registered name) to its ``variant``'s rules (its first,
    its standard, when ``None``), for ``seats`` players (the game's usual number when
    ``None``). ``jobs`` processes play them (default: every core; 1 plays in this
    process). With ``backend="ray"`` they are Ray tasks instead: on the Ray already
    started in this process, else on a new local Ray of ``jobs`` CPUs, or on the cluster
    at ``address`` (``"auto"``, or ``"ray://host:10001"``; its nodes need umtali
    installed); the records are the same as with processes. ``progress`` is called with
    the number of games each time some finish (and with 0 once the worker processes have
    started). An unknown game, variant, seat count or level, ``games`` or ``jobs`` < 1
    raise :class:`ArenaError`, as does a bot that fails or chooses an illegal move.
    ``policies`` are outside policies (:func:`umtali.sim.policies.load_policy`), each
    playing under its name as ``bot_a`` or ``bot_b``: among the game's levels for the
    run, and named in its results. ``length`` ``"hand"`` makes every game a single hand
    (where the game's session offers it), so that the figures compare hands without
    games' bonuses; a length the game has not, or a level that cannot play here (one
    that needs a package not installed), is refused with :class:`ArenaError` before any
    game is played.

    With a ``checkpoint`` file (:mod:`umtali.sim.checkpoint`), the deals an earlier
    sitting of the same run kept there are not played again, and each batch of deals is
    kept there as it finishes, so that a run that stops goes on where it stopped: the
    records are those of a run never stopped, the timings and seconds add up the
    sittings'. The caller deletes the file once the results are safe. A file that is
    not this run's checkpoint, or holds deals beyond ``games``, is refused
    (:class:`~umtali.sim.checkpoint.CheckpointError`, :class:`ArenaError`) before any
    game is played.
    """
    spec, variant, seats = _checked(game, variant, seats)
    with registered(spec, policies):
        known = levels_of(spec)
        for level in (bot_a, bot_b):
            if level not in known:
                raise ArenaError(
                    f"unknown bot level {level!r}; the {spec.title} levels are: {', '.join(known)}"
                )
        hook = hook_of(spec)
        for level in (bot_a, bot_b):
            missing = hook.unavailable(level)
            if missing is not None:
                raise ArenaError(missing)
        if length is not None:
            try:  # the session's maker refuses a length it has not
                spec.maker().between_bots(
                    [bot_a] * seats, game_seed(seed, 0), variant=variant, length=length
                )
            except ValueError as e:
                raise ArenaError(str(e)) from None
        deals = games
        if deals < 1:
            raise ArenaError(f"the arena needs at least one deal, not {deals}")
        if backend not in BACKENDS:
            raise ArenaError(
                f"the arena's backend is one of {', '.join(BACKENDS)}, not {backend!r}"
            )
        if address is not None and backend != "ray":
            raise ArenaError(
                f"an address is of a Ray cluster: it needs the ray backend, not {backend}"
            )
        jobs = (os.cpu_count() or 1) if jobs is None else jobs
        if jobs < 1:
            raise ArenaError(f"the arena needs at least one job, not {jobs}")
        if backend == "ray":
            jobs = _ray_cpus(address, jobs)
        kept = None
        if checkpoint is not None:
            outside = tuple((p.name, p.entry_point, p.version) for p in policies)
            key = RunKey(spec.name, variant, bot_a, bot_b, seed, seats, length, outside)
            kept = Checkpoint.open(checkpoint, key)
        plan = _Task(bot_a, bot_b, seed, (), spec.name, variant, seats, tuple(policies), length)
        try:
            return _play_run(plan, deals, jobs, backend, progress, kept)
        finally:
            if kept is not None:
                kept.close()


def _play_run(
    plan: _Task,
    deals: int,
    jobs: int,
    backend: str,
    progress: Callable[[int], None] | None,
    kept: Checkpoint | None,
) -> ArenaResult:
    """:func:`run_arena`'s games, its arguments checked: ``plan`` (a task of no deals yet)
    for each of the first ``deals`` deals not ``kept``."""
    kept_deals: set[int] = set()
    total = _Chunk()
    earlier = 0.0
    if kept is not None:
        kept_deals = kept.finished_deals()
        if kept_deals and max(kept_deals) >= deals:
            raise CheckpointError(
                f"{kept.path} holds deals up to {max(kept_deals)}: it goes on in a run of"
                f" {max(kept_deals) + 1} deals or more, not {deals}; delete it to start over"
            )
        total.add(
            _Chunk(
                [r for r in kept.records if r.deal in kept_deals],
                list(kept.times_a),
                list(kept.times_b),
            )
        )
        earlier = kept.seconds
    chunks = _chunks([d for d in range(deals) if d not in kept_deals], jobs)
    workers = max(1, min(jobs, len(chunks)))
    tasks = [replace(plan, deals=chunk) for chunk in chunks]
    start = time.perf_counter()

    def finished(chunk: _Chunk) -> None:
        total.add(chunk)
        if kept is not None:
            seconds = earlier + time.perf_counter() - start
            kept.add(chunk.records, chunk.times_a, chunk.times_b, seconds=seconds)
        if progress is not None:
            progress(len(chunk.records))

    # Once the worker processes have started (the games kept from an earlier sitting).
    if progress is not None:
        progress(len(total.records))
    if not tasks:
        pass  # every deal was played in an earlier sitting
    elif backend == "ray":
        _play_on_ray(tasks, finished)
    elif workers == 1:
        for task in tasks:
            for deal in task.deals:
                finished(replace(task, deals=(deal,), policies=()).play())
    else:
        # An error or Ctrl-C stops every worker at once (umtali.sim.processes).
        try:
            play_in_processes(_play_task, tasks, workers, finished)
        except WorkerDiedError as e:
            raise ArenaError(f"the run stopped: {e}") from None
    seconds = earlier + time.perf_counter() - start
    # Put the games in order, whatever order the workers finished in.
    records = sorted(total.records, key=lambda r: (r.deal, r.a_seat))
    return ArenaResult(
        bot_a=plan.bot_a,
        bot_b=plan.bot_b,
        seed=plan.seed,
        deals=deals,
        game=plan.game,
        variant=plan.variant,
        records=tuple(records),
        times_a=tuple(total.times_a),
        times_b=tuple(total.times_b),
        jobs=workers,
        seconds=seconds,
        backend=backend,
        seats=plan.seats,
        policies=plan.policies,
        length=plan.length,
    )


# -- the printed report --------------------------------------------------------------------
def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _num(x: float) -> str:
    """A figure to one decimal, without a trailing .0."""
    return f"{x:.1f}".removesuffix(".0")


def report(result: ArenaResult) -> str:
    """The summary table printed by ``umtali arena``, closed by the book's figures where
    the game and variant have a book, and by the game's own lines."""
    s = result.summary()
    title = registry.get(result.game).title
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
    two = result.seats == 2
    single = " single-hand" if result.length == "hand" else ""
    lines = [
        f"umtali arena · {title} ({result.variant} rules) · {head_a} vs {head_b} · {s.deals}"
        f" deals × {result.seats} seatings = {s.games}{single} games · seed {result.seed} · {jobs}"
        f" · {result.seconds:.1f} s",
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
            "  won as Player 1 / 2" if two else f"  by A's seat, 1 to {result.seats}",
            " / ".join(map(str, s.a_wins_by_seat)),
            " / ".join(map(str, s.b_wins_by_seat)),
        ),
        row(
            f"deals won in {'both seats' if two else 'every seat'}",
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
    if s.book is not None and result.hook.against_the_book(result.variant):
        lines += [
            f"book: {s.book.mean_points} points per hand on average; here {both.mean:.1f}"
            f" ({s.book_mean_gap:+.1f}; A {pa.mean:.1f}, B {pb.mean:.1f})",
            f"book: highest hand {s.book.highest_hand}; here {s.highest.points}"
            f" ({s.book_highest_gap:+d}; {s.highest.where(levels)})",
        ]
    lines += result.hook.notes(result)
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
