"""A soak of every limit at once against a real ``umtali serve`` on loopback, given small
limits: unknown games asked for, new games past the quota, oversize and slow request
heads, a seat's sockets past its cap, games left idle to leave memory. Afterwards the
server still answers and its memory (its RSS) is where it was after a warm-up round of
the same traffic: nothing of the abuse is kept."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.servers import HTTP, ServerProcess, running_server
from tests.test_web_transport_limits import _head, _open, _reply, _rss_kib, _send

HEADER_BYTES = 4096


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("soak")
    args = [
        "--max-header-bytes",
        str(HEADER_BYTES),
        "--header-timeout",
        "0.5",
        "--keep-alive",
        "0.5",
        "--sockets-per-seat",
        "2",
        "--games-per-minute",
        "5",
        "--idle-minutes",
        "0.01",
    ]
    with running_server(f"sqlite:///{folder / 'umtali.db'}", folder, args=args) as process:
        yield process


def abuse(server: ServerProcess, round_number: int) -> dict[str, int]:
    """One round of every kind of abuse; how each was answered, counted."""
    answers: dict[str, int] = {}

    def count(what: str) -> None:
        answers[what] = answers.get(what, 0) + 1

    # A new connection a request: the server closes a connection idle for 0.5 s, and a
    # loaded machine can leave that long between two requests, when a request sent on
    # a connection the server is closing meets a disconnect, not an answer.
    no_keep_alive = httpx.Limits(max_keepalive_connections=0)
    with httpx.Client(base_url=server.url, timeout=10, limits=no_keep_alive) as client:
        for game_id in range(300):
            status = client.get(f"/api/games/{10_000_000 + game_id}/record").status_code
            count(f"unknown game {status}")
        secrets = []
        for number in range(8):
            created = client.post(
                "/api/games",
                json={"level": "random"},
                headers={"X-Forwarded-For": f"198.51.100.{round_number}"},
            )
            count(f"new game {created.status_code}")
            if created.status_code == 201 and number == 0:
                secrets.append(created.json()["seats"][0]["secret"])
    for _ in range(20):
        with _open(server) as raw:
            _send(raw, _head(b"x-big: " + b"a" * (64 * HEADER_BYTES) + b"\r\n"))
            count("oversize head " + _reply(raw)[:12].decode())
    slow = [_open(server) for _ in range(20)]
    for raw in slow:
        _send(raw, b"GET /healthz HTTP/1.1\r\n")
    for raw in slow:
        raw.settimeout(10)
        count(f"slow head closed {_reply(raw) == b''}")
        raw.close()
    for secret in secrets:
        url = f"ws://127.0.0.1:{server.port}/ws/seat/{secret}"
        with contextlib.ExitStack() as sockets:
            for _ in range(6):
                sock = sockets.enter_context(connect(url, open_timeout=10))
                try:
                    sock.recv(timeout=10)
                    count("socket served")
                except ConnectionClosed as closed:
                    count(f"socket closed {closed.rcvd.code if closed.rcvd else None}")
    return answers


def test_every_limit_holds_and_memory_stays_flat(server: ServerProcess) -> None:
    warm_up = abuse(server, 1)
    before = _rss_kib(server)
    for round_number in range(2, 5):
        answers = abuse(server, round_number)
        assert answers == warm_up, (round_number, answers)
    grown = _rss_kib(server) - before
    assert warm_up == {
        "unknown game 404": 300,
        "new game 201": 5,
        "new game 429": 3,
        "oversize head HTTP/1.1 431": 20,
        "slow head closed True": 20,
        "socket served": 2,
        "socket closed 4429": 4,
    }
    assert grown < 8 * 1024, f"the server grew by {grown} KiB over three rounds and stayed so"
    with socket.create_connection(("127.0.0.1", server.port), timeout=10):
        pass
    assert HTTP.get(f"{server.url}/healthz", timeout=10).status_code == 200
