#!/usr/bin/env python3
"""The browser server under load: many games at once, each seat played by a script.

The script starts ``umtali serve`` on a free loopback port (or uses a running server
given with ``--url``, on the loopback only), creates ``--games`` games, opens every
person's seat's WebSocket as a browser would, and then plays all the games at once. Each
seat's client waits until its socket (or its last move's answer) says it is to move,
picks a move at random from the ``legal`` list it was sent (from a ``random.Random``
seeded with ``--seed``, the game and the seat), pauses as a person would if ``--think``
asks it to, and sends it: by ``POST
/api/seat/{secret}/move`` (``--transport http``) or as a ``move`` message on the socket
(``--transport ws``, where the server answers moves there; otherwise the run falls back
to HTTP and says so). A move's round trip is the time from just before it is sent to
the moment its answer (accepted or refused) is read.

The report gives the round trip's percentiles, the moves played per second, the games
completed, every error, and the CPU time of the client, the server, the database (when
the script started it) and the whole machine over the play, since the client and the
server share the machine's cores. ``--json FILE`` writes the same report as JSON.

With no pause (the default) every game always has a move on its way, so the run
measures the server's capacity: by Little's law, the round trip is then about the number
of games divided by the moves per second. With ``--think 2`` the games move at a
person's pace and the round trip is what a player would wait.

Everything is bounded: at most :data:`MAX_GAMES` games, at most ``--max-moves`` moves a
seat, and ``--seconds`` for the whole play; what is not finished then is reported as
unfinished. The decks come from the server's secure shuffle, so two runs play different
hands even with the same seed. docs/PERFORMANCE.md has the figures and the commands::

    python benchmarks/loadtest.py                        # 200 games, SQLite in a temp dir
    python benchmarks/loadtest.py --think 2              # the same at a person's pace
    python benchmarks/loadtest.py --postgres             # 200 games, a throwaway PostgreSQL
    python benchmarks/loadtest.py --postgres --workers 2 --games 400  # two processes, one port
    python benchmarks/loadtest.py --games 50 --opponent computer --transport ws
    python benchmarks/loadtest.py --profile server.prof  # the server under cProfile
    python benchmarks/loadtest.py --postgres --workers 2 --games 400 --think 2 --py-spy server.raw

``--py-spy FILE`` samples the server's processes with py-spy over the play, every thread,
running or waiting (wall-clock time), and prints where that time goes
(:mod:`benchmarks.stacks`); unlike ``--profile`` it works with ``--workers`` and barely
slows the server, though the sampler takes CPU of its own.

``--postgres`` starts a PostgreSQL cluster in a temporary folder with the tests' helper
(``tests/postgres.py``), so it runs from a checkout of the repository, and turns
``fsync`` back on (the tests turn it off) so that PostgreSQL commits are as durable as
SQLite's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import ipaddress
import json
import math
import os
import platform
import pstats
import random
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Literal
from urllib.parse import urlsplit

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.protocol import State

from stacks import print_summary, read_stacks

REPOSITORY: Final = Path(__file__).resolve().parent.parent
"""The checkout this script lives in: ``--postgres`` borrows its tests' helper."""

CLIENT_GC_YOUNGEST: Final = 20_000
"""The client's garbage-collector threshold during the play (Python's default is 700):
its collections stop every seat's clock at once, which is no wait a player has."""

MAX_GAMES: Final = 2000
"""The most games one run creates: a bound, so that a typo cannot fill a database."""

REQUEST_SECONDS: Final = 30.0
"""How long one request (or one answer on a socket) may take before it is an error."""

STARTUP_SECONDS: Final = 30.0
"""How long a started server may take to answer its first ``/healthz``."""

KEEP_ALIVE_SECONDS: Final = 4.0
"""How long a client keeps an idle connection: less than uvicorn's 5 seconds."""

SEND_ATTEMPTS: Final = 5
"""How many times a move the server did not read (over a rate limit) is sent."""

PROBE_SECONDS: Final = 5.0
"""How long ``--transport ws`` waits for the server to answer a probe on a socket."""

PROFILED_CHILD: Final = "_profiled-serve"
"""The first argument with which this script runs ``umtali serve`` under cProfile (the
server process of ``--profile``; not for use by hand)."""

CLOCK_TICKS: Final = os.sysconf("SC_CLK_TCK")
"""The unit of the CPU times in ``/proc``: ticks a second."""

Opponent = Literal["person", "computer", "mixed"]
Transport = Literal["http", "ws"]


class LoadTestError(Exception):
    """A run that cannot start: what is wrong and what would be right."""


# -- the figures --------------------------------------------------------------------------------


def percentile(sorted_values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile: the smallest value with at least ``share`` of the
    values at or below it (``share`` from 0 to 1, the values sorted).

    >>> percentile([10.0, 20.0, 30.0, 40.0], 0.5), percentile([10.0, 20.0, 30.0, 40.0], 0.99)
    (20.0, 40.0)
    """
    if not sorted_values:
        return math.nan
    rank = max(1, math.ceil(share * len(sorted_values)))
    return sorted_values[rank - 1]


def spread(values_seconds: Sequence[float]) -> dict[str, float | int]:
    """The count, percentiles, mean and maximum of some durations, in milliseconds."""
    ordered = sorted(value * 1000 for value in values_seconds)
    mean = sum(ordered) / len(ordered) if ordered else math.nan
    figures: dict[str, float | int] = {"count": len(ordered)}
    for name, share in (("p50", 0.50), ("p90", 0.90), ("p99", 0.99)):
        figures[name] = round(percentile(ordered, share), 2)
    figures["mean"] = round(mean, 2)
    figures["max"] = round(ordered[-1], 2) if ordered else math.nan
    return figures


LAG_PERIOD: Final = 0.005
"""How often the client looks how late its own event loop is (seconds)."""


async def measure_lag(late: list[float], period: float = LAG_PERIOD) -> None:
    """Until cancelled, note how much later than asked the client's event loop wakes
    from a sleep of ``period``: a move's answer that arrives while the loop is busy
    with other seats waits as long, and that wait is the client's, not the server's."""
    while True:
        before = time.perf_counter()
        await asyncio.sleep(period)
        late.append(max(0.0, time.perf_counter() - before - period))


@dataclass
class Tally:
    """What every client records: round trips, moves and errors."""

    round_trips: list[float] = field(default_factory=list)
    creations: list[float] = field(default_factory=list)
    refused: int = 0
    resent: int = 0
    """Moves the server did not read (over its rate limit), sent again."""
    errors: list[str] = field(default_factory=list)

    def error(self, where: str, what: object) -> None:
        self.errors.append(f"{where}: {what}")


# -- CPU time, read from /proc ------------------------------------------------------------------


def process_cpu(pid: int) -> float:
    """The CPU seconds (user and system) a process has used, or 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    # After the command's closing parenthesis, utime and stime are the 12th and 13th.
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def tree_cpu(root: int) -> float:
    """The CPU seconds of a process and of its children now alive (a PostgreSQL
    postmaster and its backends, which the server's pool keeps open)."""
    total = process_cpu(root)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == root:
            total += (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    return total


def machine_busy() -> float:
    """The CPU seconds the whole machine has spent busy (all cores, not idle or waiting
    for the disk) since it started."""
    ticks = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = ticks[3] + (ticks[4] if len(ticks) > 4 else 0)
    # guest times are counted inside user time already
    return (sum(ticks[:8]) - idle) / CLOCK_TICKS


def client_cpu() -> float:
    """The CPU seconds this process (the clients) has used."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@dataclass
class CpuMeter:
    """CPU time over the play: of the client, the server and the database processes
    when their ids are known, and of the whole machine (which shows other work on it)."""

    server_pid: int | None
    database_pid: int | None
    started: dict[str, float] = field(default_factory=dict)

    def _read(self) -> dict[str, float]:
        reading = {"client": client_cpu(), "machine": machine_busy()}
        if self.server_pid is not None:
            reading["server"] = tree_cpu(self.server_pid)  # its workers too, if any
        if self.database_pid is not None:
            reading["database"] = tree_cpu(self.database_pid)
        return reading

    def start(self) -> None:
        self.started = self._read()

    def report(self, seconds: float) -> dict[str, Any]:
        """Each part's CPU seconds since :meth:`start`, and its share of one core over
        ``seconds`` of play; ``other``: the machine's busy time that is none of them."""
        ended = self._read()
        used = {name: ended[name] - self.started[name] for name in ended}
        known = sum(value for name, value in used.items() if name != "machine")
        used["other"] = max(0.0, used["machine"] - known)
        cores = os.cpu_count() or 1
        return {
            "seconds": {name: round(value, 2) for name, value in used.items()},
            "percent_of_one_core": {
                name: round(100 * value / seconds, 1) if seconds > 0 else math.nan
                for name, value in used.items()
            },
            "machine_capacity_percent": round(100 * used["machine"] / (seconds * cores), 1)
            if seconds > 0
            else math.nan,
        }


# -- the server ---------------------------------------------------------------------------------


def free_port() -> int:
    """A loopback TCP port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def loopback_url(url: str) -> str:
    """``url`` without a trailing slash, if it is an http URL whose host is a loopback
    address (or a name all of whose addresses are); a load test sent anywhere else
    would be an attack, so it is refused."""
    parts = urlsplit(url)
    if parts.scheme != "http" or not parts.hostname:
        raise LoadTestError(f"--url must be an http:// URL of a local server, not {url!r}")
    try:
        addresses = {ipaddress.ip_address(parts.hostname)}
    except ValueError:
        try:
            found = socket.getaddrinfo(parts.hostname, parts.port or 80, type=socket.SOCK_STREAM)
        except OSError as e:
            raise LoadTestError(f"--url: cannot resolve {parts.hostname!r}: {e}") from None
        addresses = {ipaddress.ip_address(str(entry[4][0]).split("%", 1)[0]) for entry in found}
    if not addresses or not all(address.is_loopback for address in addresses):
        raise LoadTestError(
            f"--url must point at this machine's loopback (127.0.0.1, ::1 or localhost),"
            f" not {parts.hostname!r}: the load test never leaves the machine"
        )
    return url.rstrip("/")


@dataclass
class StartedServer:
    """An ``umtali serve`` process this script started: its URL, its process id, and
    the file its output goes to."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]


@dataclass(frozen=True)
class Profiling:
    """``--profile``: where the server's stats go, and whether they time the wall clock
    (waits included: where a move's time goes) or each thread's CPU (the work alone)."""

    stats_file: Path
    clock: Literal["wall", "cpu"]


def serve_command(
    port: int, db_url: str, profiling: Profiling | None, workers: int = 1
) -> list[str]:
    """The command that runs the server: the ``umtali`` module of this Python, or this
    script as the cProfile wrapper of it when profiling; ``workers`` processes on the
    one port (``umtali serve --workers``)."""
    # Every game is made from this one address: the limit of new games is lifted.
    serve = ["serve", "--port", str(port), "--db", db_url, "--games-per-minute", "1000000"]
    if workers > 1:
        serve += ["--workers", str(workers)]
    if profiling is None:
        return [sys.executable, "-m", "umtali", *serve]
    script = str(Path(__file__).resolve())
    return [
        sys.executable,
        script,
        PROFILED_CHILD,
        str(profiling.stats_file),
        profiling.clock,
        *serve,
    ]


@contextlib.contextmanager
def started_server(
    db_url: str, folder: Path, profiling: Profiling | None, workers: int = 1
) -> Iterator[StartedServer]:
    """Run ``umtali serve`` over ``db_url`` on a free loopback port until the block ends
    (then stop it as Ctrl-C would, so that a profiled server writes its stats)."""
    port = free_port()
    log = folder / "serve.log"
    env = {name: value for name, value in os.environ.items() if name != "DATABASE_URL"}
    with log.open("wb") as output:
        process = subprocess.Popen(
            serve_command(port, db_url, profiling, workers),
            stdout=output,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
        )
    server = StartedServer(f"http://127.0.0.1:{port}", process, log)
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while True:
            if process.poll() is not None:
                raise LoadTestError(f"umtali serve exited at start:\n{server.output()}")
            try:
                if httpx.get(f"{server.url}/healthz", timeout=1.0, trust_env=False).is_success:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise LoadTestError(
                    f"umtali serve did not answer in {STARTUP_SECONDS:.0f} s:\n{server.output()}"
                )
            time.sleep(0.1)
        yield server
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@contextlib.contextmanager
def throwaway_postgres() -> Iterator[tuple[str, int]]:
    """A PostgreSQL cluster in a temporary folder (the tests' helper), with ``fsync``
    on, and a new database in it: its URL and the postmaster's process id."""
    sys.path.insert(0, str(REPOSITORY))  # the helper lives in the checkout's tests/
    try:
        from tests.postgres import PostgresMissingError, running_postgres
    except ImportError as e:
        raise LoadTestError(
            f"--postgres needs the repository's tests/postgres.py and psycopg ({e});"
            " or give a database with --db postgresql://..."
        ) from None
    import psycopg

    try:
        with running_postgres() as cluster:
            with psycopg.connect(
                host=str(cluster.root), user="umtali", dbname="postgres", autocommit=True
            ) as connection:
                # The tests' cluster runs without fsync; the figures must not.
                connection.execute("ALTER SYSTEM SET fsync = on")
                connection.execute("SELECT pg_reload_conf()")
            url = cluster.create_database()
            pid = int((cluster.data / "postmaster.pid").read_text().split("\n", 1)[0])
            yield url, pid
    except PostgresMissingError as e:
        raise LoadTestError(f"--postgres: {e}") from None


# -- the profiled server (the child process of --profile) --------------------------------------


def profiled_serve(stats_file: str, clock: str, umtali_args: Sequence[str]) -> int:
    """Run ``umtali serve`` with every thread under cProfile (the event loop's and the
    worker threads' that run the database calls and the computer's moves), and write
    the merged stats to ``stats_file`` when the server stops. ``clock``: ``wall``
    counts waits (for a lock, a connection, the disk), ``cpu`` each thread's CPU only."""
    from umtali.cli import main as umtali_main

    timer = time.thread_time if clock == "cpu" else time.perf_counter

    profiles: list[cProfile.Profile] = []
    lock = threading.Lock()

    def profile_this_thread(*_event: object) -> None:
        # Called once, at a new thread's first call: the thread's own profiler takes over.
        profile = cProfile.Profile(timer)
        with lock:
            profiles.append(profile)
        profile.enable()

    threading.setprofile(profile_this_thread)
    main_profile = cProfile.Profile(timer)
    main_profile.enable()
    try:
        status = umtali_main(umtali_args)
    finally:
        main_profile.disable()
        threading.setprofile(None)
        with lock:
            merged = pstats.Stats(main_profile)
            for profile in profiles:
                merged.add(profile)
        merged.dump_stats(stats_file)
    return status


def print_profile(profiling: Profiling, limit: int = 25) -> None:
    """The functions with the most time of their own, and with the most time in all."""
    stats = pstats.Stats(str(profiling.stats_file))
    clock = "wall time" if profiling.clock == "wall" else "each thread's CPU time"
    for order in ("tottime", "cumulative"):
        print(f"\nserver profile, top {limit} by {order} (all threads, {clock}):")
        stats.sort_stats(order).print_stats(limit)


# -- the players --------------------------------------------------------------------------------


@dataclass
class SeatPlan:
    """One person's seat to play: its game, its links, its random moves' seed."""

    game_id: int
    seat: int
    secret: str
    rng: random.Random


class SeatPlayer:
    """One seat's client: keeps the newest state it was sent (by the socket or by a
    move's answer) and moves whenever that state says it is to move."""

    socket: ClientConnection
    """The seat's WebSocket, once :meth:`connect` has opened it."""

    def __init__(
        self,
        plan: SeatPlan,
        base_url: str,
        transport: Transport,
        load: Load,
        tally: Tally,
    ) -> None:
        self.plan = plan
        self.base_url = base_url
        self.transport = transport
        self.load = load
        self.tally = tally
        self.where = f"game {plan.game_id} seat {plan.seat}"
        self.state: dict[str, Any] = {}
        self.news = asyncio.Event()
        self.replies: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.moves = 0
        self.finished = False

    def _take(self, state: dict[str, Any]) -> None:
        """Keep ``state`` if it is newer than the one held: the socket may deliver a
        state older than a move's answer already read."""
        if not self.state or state["version"] >= self.state["version"]:
            self.state = state
        self.news.set()

    async def _read(self, socket: ClientConnection) -> None:
        """Read the socket until it closes: states, and answers to moves sent on it."""
        async for raw in socket:
            message = json.loads(raw)
            if message.get("type") == "state":
                self._take(message)
            elif isinstance(message.get("id"), int) and message["id"] in self.replies:
                self.replies.pop(message["id"]).set_result(message)
            elif message.get("type") == "error" and self.replies:
                # A message dropped unread (over the rate limit) is answered without its
                # id; a client has one move on its way at most, so this is its answer.
                self.replies.pop(next(iter(self.replies))).set_result(message)
        self.news.set()

    async def connect(self, stack: contextlib.AsyncExitStack) -> None:
        """Open the seat's socket and read its first state."""
        socket_url = self.base_url.replace("http://", "ws://", 1) + f"/ws/seat/{self.plan.secret}"
        socket = await stack.enter_async_context(
            connect(socket_url, proxy=None, open_timeout=REQUEST_SECONDS, max_queue=None)
        )
        first = json.loads(await asyncio.wait_for(socket.recv(), REQUEST_SECONDS))
        self._take(first)
        self.socket = socket
        reader = asyncio.create_task(self._read(socket))
        stack.push_async_callback(_cancelled, reader)

    async def _send_http(self, http: httpx.AsyncClient, move: str) -> dict[str, Any]:
        response = await http.post(f"/api/seat/{self.plan.secret}/move", json={"move": move})
        if response.status_code == 429:  # over the seat's rate limit: nothing was done
            return {"type": "error", "detail": response.text, "retry_after": _retry_after(response)}
        if response.status_code not in (200, 409):
            raise RuntimeError(f"POST move answered {response.status_code}: {response.text}")
        answer: dict[str, Any] = response.json()
        return answer

    async def _send_ws(self, move: str) -> dict[str, Any]:
        ident = self.moves
        reply = asyncio.get_running_loop().create_future()
        self.replies[ident] = reply
        await self.socket.send(json.dumps({"type": "move", "move": move, "id": ident}))
        return await asyncio.wait_for(reply, REQUEST_SECONDS)

    async def _state_of_version(self, version: int) -> None:
        """Wait until the socket has sent a state at least as new as ``version``."""
        while self.state["version"] < version:
            if self.socket.state is State.CLOSED:
                raise RuntimeError("the socket closed before the game was over")
            self.news.clear()
            await asyncio.wait_for(self.news.wait(), REQUEST_SECONDS)

    async def _send(self, http: httpx.AsyncClient, move: str) -> dict[str, Any]:
        """Send ``move`` and time it until its answer; a move the server did not read
        (over its rate limit) is sent again after the pause it asks for, a few times
        at most, and only the round trip of the move it read is counted."""
        for _attempt in range(SEND_ATTEMPTS):
            began = time.perf_counter()
            if self.transport == "ws":
                answer = await self._send_ws(move)
            else:
                answer = await self._send_http(http, move)
            if answer.get("type") != "error":
                self.tally.round_trips.append(time.perf_counter() - began)
                self.moves += 1
                return answer
            self.tally.resent += 1
            await asyncio.sleep(answer.get("retry_after", 1.0))
        raise RuntimeError(f"the server did not read {move!r}: {answer.get('detail')}")

    async def play(self, http: httpx.AsyncClient, start: asyncio.Event) -> None:
        """Play until the game is over, the move bound is reached, or an error."""
        await start.wait()
        try:
            while not self.state["over"]:
                if not (self.state["your_turn"] and self.state["legal"]):
                    self.news.clear()
                    if self.socket.state is State.CLOSED:
                        raise RuntimeError("the socket closed before the game was over")
                    await asyncio.wait_for(self.news.wait(), REQUEST_SECONDS)
                    continue
                if self.moves >= self.load.max_moves:
                    raise RuntimeError(f"{self.load.max_moves} moves played and the game not over")
                move = self.plan.rng.choice(self.state["legal"])
                if self.load.think > 0:  # a person's pause, from half to one and a half times
                    await asyncio.sleep(self.load.think * self.plan.rng.uniform(0.5, 1.5))
                answer = await self._send(http, move)
                if answer.get("accepted") is False or answer.get("type") == "refused":
                    # A move from the legal list is never refused: count it and look again.
                    self.tally.refused += 1
                    self.tally.error(self.where, f"{move!r} refused: {answer.get('reason')}")
                    self._take((await http.get(f"/api/seat/{self.plan.secret}")).json())
                elif isinstance(answer.get("state"), dict):
                    self._take(answer["state"])
                else:  # the socket sends the state of the answer's version, or has sent it
                    await self._state_of_version(answer["version"])
            self.finished = True
        except (TimeoutError, httpx.HTTPError, WebSocketException, RuntimeError) as e:
            self.tally.error(self.where, f"{type(e).__name__}: {e}")


def _retry_after(response: httpx.Response) -> float:
    """The seconds a 429 answer asks the client to wait (its ``Retry-After``), else 1."""
    try:
        return max(0.0, float(response.headers.get("retry-after", "1")))
    except ValueError:
        return 1.0


async def _cancelled(task: asyncio.Task[None]) -> None:
    """Cancel a task and wait for it to end."""
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, ConnectionClosed):
        await task


# -- a run --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Load:
    """What to run: how many games of which kind, against whom, over what transport."""

    games: int
    opponent: Opponent
    level: str
    kind: str
    transport: Transport
    seconds: float
    max_moves: int
    seed: int
    think: float
    """A person's mean pause before each move, in seconds (0: moves at once)."""


def game_request(load: Load, index: int) -> dict[str, Any]:
    """The body of ``POST /api/games`` for game number ``index``: ``mixed`` alternates
    a game between two people and one against the computer."""
    versus = load.opponent
    if versus == "mixed":
        versus = "person" if index % 2 == 0 else "computer"
    body: dict[str, Any] = {"opponent": versus, "kind": load.kind}
    if versus == "computer":
        body["level"] = load.level
        # The person sits at each seat in turn (the mixed run's computer games are the odd ones).
        body["seat"] = (index // 2) % 2 if load.opponent == "mixed" else index % 2
    return body


@contextlib.asynccontextmanager
async def seat_client(base_url: str) -> AsyncIterator[httpx.AsyncClient]:
    """One player's HTTP client: its own connection, as each player's browser has. It
    drops a connection idle for :data:`KEEP_ALIVE_SECONDS` before the server would, so
    that a request is never sent on a connection the server is closing."""
    async with httpx.AsyncClient(
        base_url=base_url,
        timeout=REQUEST_SECONDS,
        trust_env=False,
        limits=httpx.Limits(keepalive_expiry=KEEP_ALIVE_SECONDS),
    ) as client:
        yield client


async def create_games(
    http: httpx.AsyncClient, load: Load, tally: Tally
) -> tuple[list[SeatPlan], int]:
    """Create the games, all at once; the seats to play, and how many games exist."""

    async def create(index: int) -> list[SeatPlan]:
        began = time.perf_counter()
        try:
            response = await http.post("/api/games", json=game_request(load, index))
        except httpx.HTTPError as e:
            tally.error(f"creating game {index}", f"{type(e).__name__}: {e}")
            return []
        tally.creations.append(time.perf_counter() - began)
        if response.status_code != 201:
            tally.error(f"creating game {index}", f"{response.status_code}: {response.text}")
            return []
        created = response.json()
        return [
            SeatPlan(
                created["game_id"],
                link["seat"],
                link["secret"],
                random.Random(f"{load.seed}-{index}-{link['seat']}"),
            )
            for link in created["seats"]
        ]

    made = await asyncio.gather(*(create(index) for index in range(load.games)))
    return [plan for plans in made for plan in plans], sum(1 for plans in made if plans)


async def websocket_moves_answered(base_url: str, secret: str) -> bool:
    """Whether the server answers a move sent on a seat's socket: a move no rule
    knows is sent (it is refused, and a refused move changes nothing)."""
    socket_url = base_url.replace("http://", "ws://", 1) + f"/ws/seat/{secret}"
    try:
        async with connect(socket_url, proxy=None, open_timeout=REQUEST_SECONDS) as socket:
            await socket.send(json.dumps({"type": "move", "move": "no such move", "id": -1}))
            async with asyncio.timeout(PROBE_SECONDS):
                async for raw in socket:
                    if json.loads(raw).get("id") == -1:
                        return True
    except (TimeoutError, WebSocketException, OSError):
        return False
    return False


@contextlib.contextmanager
def sampled(server_pid: int | None, stacks_file: Path | None) -> Iterator[None]:
    """Sample the server's processes with py-spy (``--py-spy``) while the block runs."""
    if stacks_file is None or server_pid is None:
        yield
        return
    command = [
        py_spy(),
        *("record", "--pid", str(server_pid), "--subprocesses", "--idle", "--nonblocking"),
        *("--rate", "100", "--format", "raw", "--output", str(stacks_file)),
    ]
    sampler = subprocess.Popen(
        command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        yield
    finally:
        sampler.send_signal(signal.SIGINT)  # py-spy writes what it sampled, then ends
        try:
            _out, errors = sampler.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            sampler.kill()
            _out, errors = sampler.communicate()
        if not stacks_file.exists():
            said = errors.decode(errors="replace").strip().splitlines()[-1:] or ["no output"]
            raise LoadTestError(f"--py-spy: py-spy wrote no stacks ({said[0]})")


def py_spy() -> str:
    """The py-spy command: beside this Python (``pip install -e '.[bench]'``), else on PATH."""
    beside = Path(sys.executable).with_name("py-spy")
    if beside.exists():
        return str(beside)
    found = shutil.which("py-spy")
    if found is None:
        raise LoadTestError("--py-spy needs py-spy: pip install -e '.[bench]' (or py-spy)")
    return found


async def run_load(
    base_url: str,
    load: Load,
    server_pid: int | None,
    database_pid: int | None,
    stacks_file: Path | None = None,
) -> dict[str, Any]:
    """Create the games, connect every seat, play them all at once; the report."""
    tally = Tally()
    notes: list[str] = []
    async with httpx.AsyncClient(
        base_url=base_url,
        timeout=REQUEST_SECONDS,
        trust_env=False,
        limits=httpx.Limits(max_connections=None, max_keepalive_connections=None),
    ) as http:
        began = time.perf_counter()
        plans, created = await create_games(http, load, tally)
        create_seconds = time.perf_counter() - began
        transport = load.transport
        if (
            transport == "ws"
            and plans
            and not await websocket_moves_answered(base_url, plans[0].secret)
        ):
            transport = "http"
            notes.append(
                "the server does not answer moves on the WebSocket (no answer to a probe in"
                f" {PROBE_SECONDS:.0f} s): moves were sent over HTTP"
            )
        async with contextlib.AsyncExitStack() as stack:
            players = [SeatPlayer(plan, base_url, transport, load, tally) for plan in plans]
            clients = [await stack.enter_async_context(seat_client(base_url)) for _ in players]
            began = time.perf_counter()
            connected = await asyncio.gather(
                *(player.connect(stack) for player in players), return_exceptions=True
            )
            connect_seconds = time.perf_counter() - began
            start = asyncio.Event()
            tasks = []
            for player, client, outcome in zip(players, clients, connected, strict=True):
                if isinstance(outcome, BaseException):
                    tally.error(player.where, f"connecting: {type(outcome).__name__}: {outcome}")
                else:
                    tasks.append(asyncio.create_task(player.play(client, start)))
            # The client holds every seat's state at once, as no browser does: its
            # garbage collector's pauses would be counted in the round trips. What is
            # alive now stays alive; collect rarely from here on.
            gc.collect()
            gc.freeze()
            thresholds = gc.get_threshold()
            gc.set_threshold(CLIENT_GC_YOUNGEST, *thresholds[1:])
            meter = CpuMeter(server_pid, database_pid)
            late: list[float] = []
            unfinished: set[asyncio.Task[None]] = set()
            with sampled(server_pid, stacks_file):
                meter.start()
                lag = asyncio.create_task(measure_lag(late))
                began = time.perf_counter()
                start.set()
                try:
                    if tasks:
                        _done, unfinished = await asyncio.wait(tasks, timeout=load.seconds)
                finally:
                    gc.set_threshold(*thresholds)
                    gc.unfreeze()
                    await _cancelled(lag)
                play_seconds = time.perf_counter() - began
                cpu = meter.report(play_seconds)
            for task in unfinished:
                task.cancel()
            if unfinished:
                notes.append(
                    f"{len(unfinished)} seat(s) still playing after --seconds {load.seconds:g}:"
                    " stopped"
                )
                await asyncio.wait(unfinished)
    finished_games = {player.plan.game_id for player in players if player.finished}
    unfinished_games = {player.plan.game_id for player in players if not player.finished}
    moves = len(tally.round_trips)
    return {
        "server": base_url,
        "load": {
            "games": load.games,
            "opponent": load.opponent,
            "level": load.level,
            "kind": load.kind,
            "transport": transport,
            "seed": load.seed,
            "think_seconds": load.think,
            "seats": len(plans),
        },
        "games": {
            "created": created,
            "completed": len(finished_games - unfinished_games),
            "unfinished": created - len(finished_games - unfinished_games),
        },
        "moves": {
            "played": moves,
            "refused": tally.refused,
            "resent": tally.resent,
            "per_second": round(moves / play_seconds, 1) if play_seconds > 0 else math.nan,
        },
        "round_trip_ms": spread(tally.round_trips),
        "client_loop_late_ms": spread(late),
        "create_ms": spread(tally.creations),
        "seconds": {
            "create": round(create_seconds, 2),
            "connect": round(connect_seconds, 2),
            "play": round(play_seconds, 2),
        },
        "cpu": cpu,
        "errors": len(tally.errors),
        "first_errors": tally.errors[:10],
        "notes": notes,
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "load_average_before": [round(value, 2) for value in os.getloadavg()],
        },
    }


def print_report(report: dict[str, Any]) -> None:
    """The report, a figure a line."""
    load, games, moves = report["load"], report["games"], report["moves"]
    trip, cpu = report["round_trip_ms"], report["cpu"]
    print(f"server {report['server']} ({report.get('database', 'database of the running server')})")
    print(
        f"load: {load['games']} games ({load['opponent']}, kind {load['kind']}), {load['seats']}"
        f" seats, moves over {load['transport']}, mean pause {load['think_seconds']} s,"
        f" seed {load['seed']}"
    )
    print(
        f"games: {games['created']} created, {games['completed']} completed,"
        f" {games['unfinished']} unfinished"
    )
    print(
        f"moves: {moves['played']} in {report['seconds']['play']} s = {moves['per_second']}"
        f" moves/s ({moves['refused']} refused, {moves['resent']} sent again after a 429"
        " or a dropped message)"
    )
    print(
        f"move round trip, ms: p50 {trip['p50']}  p90 {trip['p90']}  p99 {trip['p99']}"
        f"  max {trip['max']}  mean {trip['mean']}"
    )
    late = report["client_loop_late_ms"]
    print(
        f"the client's own event loop, late by ms: p50 {late['p50']}  p99 {late['p99']}"
        f"  max {late['max']} (a wait of the client's, inside the round trips)"
    )
    made = report["create_ms"]
    print(
        f"game creation, ms: p50 {made['p50']}  p99 {made['p99']}  max {made['max']}"
        f" (all at once, {report['seconds']['create']} s in all)"
    )
    shares = ", ".join(
        f"{name} {cpu['seconds'][name]} s ({cpu['percent_of_one_core'][name]}% of a core)"
        for name in cpu["seconds"]
    )
    print(f"CPU over the play: {shares}")
    print(
        f"machine: {report['machine']['cpus']} CPUs, {cpu['machine_capacity_percent']}% busy"
        f" during the play, load average before {report['machine']['load_average_before']},"
        f" Python {report['machine']['python']}"
    )
    print(f"errors: {report['errors']}")
    for line in report["first_errors"]:
        print(f"  {line}")
    for note in report["notes"]:
        print(f"note: {note}")


# -- the command --------------------------------------------------------------------------------


def _bounded_int(low: int, high: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"a whole number is wanted, not {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"from {low} to {high}, not {value}")
        return value

    return parse


def _seconds(*, zero: bool) -> Any:
    """A parser of a number of seconds up to an hour: from 0 when ``zero``, else above 0."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"a number of seconds is wanted, not {text!r}"
            ) from None
        if not (0 < value <= 3600 or (zero and value == 0)):
            lowest = "0" if zero else "more than 0"
            raise argparse.ArgumentTypeError(f"from {lowest} to 3600 seconds, not {value:g}")
        return value

    return parse


def parser() -> argparse.ArgumentParser:
    described = argparse.ArgumentParser(
        prog="loadtest.py",
        description="Play many games at once against a local umtali server and time the moves.",
    )
    where = described.add_mutually_exclusive_group()
    where.add_argument(
        "--db",
        metavar="URL",
        help="the database of the server started (default: SQLite in a temp dir)",
    )
    where.add_argument(
        "--postgres",
        action="store_true",
        help="start a throwaway PostgreSQL cluster (tests/postgres.py, fsync on) for the server",
    )
    where.add_argument(
        "--url",
        help="a running server on the loopback instead of starting one (http://127.0.0.1:PORT)",
    )
    described.add_argument(
        "--workers",
        type=_bounded_int(1, 64),
        default=1,
        help="server processes on the one port (umtali serve --workers); more than one"
        " needs PostgreSQL (default 1)",
    )
    described.add_argument(
        "--games",
        type=_bounded_int(1, MAX_GAMES),
        default=200,
        help=f"games played at once, 1 to {MAX_GAMES} (default 200)",
    )
    described.add_argument(
        "--opponent",
        choices=("person", "computer", "mixed"),
        default="person",
        help="games between two scripted people, against the computer, or half each"
        " (default person)",
    )
    described.add_argument(
        "--level", default="greedy", help="the computer's level in its games (default greedy)"
    )
    described.add_argument(
        "--kind",
        choices=("hand", "game"),
        default="hand",
        help="play one hand, or a game of four hands (default hand)",
    )
    described.add_argument(
        "--transport",
        choices=("http", "ws"),
        default="http",
        help="send moves by HTTP POST, or on the seat's WebSocket (default http)",
    )
    described.add_argument(
        "--seconds",
        type=_seconds(zero=False),
        default=300.0,
        help="stop the play after this long, finished or not (default 300)",
    )
    described.add_argument(
        "--max-moves",
        type=_bounded_int(1, 100_000),
        default=2000,
        help="a seat that has made this many moves stops with an error (default 2000)",
    )
    described.add_argument(
        "--think",
        type=_seconds(zero=True),
        default=0.0,
        help="a person's mean pause before each move, in seconds (default 0: every client"
        " moves as soon as it may, which measures the server's capacity; 2 is a person's"
        " pace)",
    )
    described.add_argument("--seed", type=int, default=0, help="seed of the random moves")
    described.add_argument("--json", metavar="FILE", help="write the report as JSON to FILE")
    described.add_argument(
        "--profile",
        metavar="FILE",
        help="run the server under cProfile (every thread) and write its stats to FILE;"
        " the timings are then the profiler's, not the server's",
    )
    described.add_argument(
        "--py-spy",
        metavar="FILE",
        help="sample the server's processes with py-spy over the play (wall clock, every"
        " thread), write the raw stacks to FILE and print where the time goes; works with"
        " --workers",
    )
    described.add_argument(
        "--profile-clock",
        choices=("wall", "cpu"),
        default="wall",
        help="what --profile times: the wall clock, waits included, or each thread's CPU"
        " (default wall)",
    )
    return described


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments[:1] == [PROFILED_CHILD]:
        return profiled_serve(arguments[1], arguments[2], arguments[3:])
    args = parser().parse_args(arguments)
    load = Load(
        games=args.games,
        opponent=args.opponent,
        level=args.level,
        kind=args.kind,
        transport=args.transport,
        seconds=args.seconds,
        max_moves=args.max_moves,
        seed=args.seed,
        think=args.think,
    )
    profiling = (
        Profiling(Path(args.profile).resolve(), args.profile_clock) if args.profile else None
    )
    if profiling is not None and args.url:
        print(
            "loadtest: --profile profiles a server this script starts: drop --url", file=sys.stderr
        )
        return 2
    if args.workers > 1 and (args.url or profiling is not None):
        print(
            "loadtest: --workers starts the server's workers itself: drop --url and --profile",
            file=sys.stderr,
        )
        return 2
    if args.py_spy and args.url:
        print("loadtest: --py-spy samples a server this script starts: drop --url", file=sys.stderr)
        return 2
    if args.workers > 1 and not (args.postgres or (args.db or "").startswith("postgres")):
        print(
            "loadtest: --workers needs PostgreSQL (--postgres, or --db postgresql://...)",
            file=sys.stderr,
        )
        return 2
    # Every seat holds two sockets here (its WebSocket, its HTTP connection), and the
    # server one of each: raise the open-file limit for both (the server inherits it).
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 4 * args.games + 256
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    try:
        report = run(args, load, profiling)
    except LoadTestError as e:
        print(f"loadtest: {e}", file=sys.stderr)
        return 2
    print_report(report)
    if profiling is not None:
        print_profile(profiling)
    if args.py_spy:
        print(f"\nwhere the server's wall-clock time goes (py-spy, {args.py_spy}):")
        with Path(args.py_spy).open(encoding="utf-8", errors="replace") as lines:
            print_summary(read_stacks(lines), top=20)
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0 if report["errors"] == 0 and report["games"]["unfinished"] == 0 else 1


def _runner() -> asyncio.Runner:
    """An event loop for the clients: uvloop's where it is installed (it costs the
    client less CPU, leaving more to the server), else asyncio's."""
    try:
        import uvloop
    except ImportError:
        return asyncio.Runner()
    return asyncio.Runner(loop_factory=uvloop.new_event_loop)


def run(args: argparse.Namespace, load: Load, profiling: Profiling | None) -> dict[str, Any]:
    """Find or start the server (and its database), run the load, add where it ran."""
    if args.url:
        base_url = loopback_url(args.url)
        with _runner() as runner:
            return runner.run(run_load(base_url, load, None, None))
    with contextlib.ExitStack() as stack:
        folder = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="umtali-load-")))
        database_pid = None
        if args.postgres:
            db_url, database_pid = stack.enter_context(throwaway_postgres())
            database = "PostgreSQL, a throwaway cluster, fsync on"
        elif args.db:
            db_url, database = args.db, f"--db {args.db}"
        else:
            db_url = f"sqlite:///{folder / 'load.db'}"
            database = "SQLite, a new file in a temp dir"
        server = stack.enter_context(started_server(db_url, folder, profiling, args.workers))
        with _runner() as runner:
            stacks = Path(args.py_spy).resolve() if args.py_spy else None
            report = runner.run(
                run_load(server.url, load, server.process.pid, database_pid, stacks)
            )
        report["database"] = database
        report["workers"] = args.workers
        return report


if __name__ == "__main__":
    sys.exit(main())
