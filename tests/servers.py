"""Real ``umtali serve`` processes for the tests that need a server over a socket: the
browser tests, the tests of several processes, and the kill -9 tests.

:func:`running_server` starts the installed console script on a free loopback port,
waits until ``/healthz`` answers, and stops it (or finds it already killed) on exit.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import httpx

HTTP = httpx.Client(limits=httpx.Limits(max_keepalive_connections=0))
"""The tests' one client for requests to a server process. A new httpx client (which
``httpx.get`` makes each time) loads the certificate store: 30 to 90 ms a request, which
added up to minutes in tests that poll. No connection is kept: servers get killed."""

BOT_SECONDS = 0.05
"""The computer's thinking budget a move in the tests' servers (``UMTALI_BOT_SECONDS``)
and apps (``tests/test_web_api.py``'s ``ROOMY``; a test may set another): the default level's second a move, and a hint's, made the
browser tests that play whole games several times longer while checking nothing more."""

STARTUP_SECONDS = 120.0
"""How long a server may take to answer its first ``/healthz``: only a hang takes this
long, even on a loaded machine."""


def free_port() -> int:
    """A loopback TCP port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def umtali_command() -> list[str]:
    """The installed ``umtali`` console script beside this Python (else on the PATH)."""
    beside = Path(sys.executable).with_name("umtali")
    found = str(beside) if beside.exists() else shutil.which("umtali")
    if found is None:
        raise RuntimeError("the umtali console script is not installed (pip install -e .)")
    return [found]


class ServerProcess:
    """One ``umtali serve`` process: its base URL (``http://127.0.0.1:PORT``) and its
    output, kept in ``log`` for a failing test to show; ``environment``: variables set
    for it besides this process's."""

    def __init__(
        self,
        db_url: str,
        port: int,
        log: Path,
        args: Sequence[str],
        environment: Mapping[str, str] | None = None,
    ) -> None:
        self.db_url = db_url
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.log = log
        self.args = list(args)
        self.environment = dict(environment or {})
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start the process and wait until it answers."""
        command = [
            *umtali_command(),
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.db_url,
            *self.args,
        ]
        env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
        env = env | {"UMTALI_BOT_SECONDS": str(BOT_SECONDS)} | self.environment
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
            )
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"umtali serve exited at start:\n{self.output()}")
            try:
                if HTTP.get(f"{self.url}/healthz", timeout=1.0).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"umtali serve did not answer in {STARTUP_SECONDS} s:\n{self.output()}")

    def kill(self) -> None:
        """``kill -9``: no chance to finish anything."""
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def stop(self) -> None:
        """Stop it as Ctrl-C would; kill it if it does not go."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()

    def output(self) -> str:
        """What the process printed (its last 4,000 characters)."""
        try:
            return self.log.read_text(errors="replace")[-4000:]
        except OSError:
            return ""


@contextmanager
def running_server(
    db_url: str,
    folder: Path,
    *,
    port: int | None = None,
    args: Sequence[str] = (),
    environment: Mapping[str, str] | None = None,
) -> Iterator[ServerProcess]:
    """An ``umtali serve`` process over ``db_url``, its log in ``folder``."""
    chosen = port or free_port()
    server = ServerProcess(db_url, chosen, folder / f"serve-{chosen}.log", args, environment)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def send_move(server: ServerProcess, secret: str, move: str) -> None:
    """Play ``move`` for the seat of ``secret`` over HTTP, waiting out its rate limit."""
    for _ in range(20):
        reply = HTTP.post(f"{server.url}/api/seat/{secret}/move", json={"move": move}, timeout=10)
        if reply.status_code != 429:  # the seat's rate limit: wait and send it again
            reply.raise_for_status()
            return
        time.sleep(float(reply.headers.get("Retry-After", "0.2")))
    raise AssertionError(f"{move} was never accepted")
