"""The server's limits on games and memory (issue 24, items 4 and 5): unknown game ids
leave nothing behind, new games are limited per client address and per server, idle
games leave memory and resume exactly from the database, and the computer's threads are
shared fairly between games. Each waits for events or order, never for the clock."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Coroutine, Hashable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from fastapi.testclient import TestClient

from umtali.kernel.record import dumps
from umtali.web.app import create_app
from umtali.web.capacity import Capacity, FairPool
from umtali.web.live import LiveGames
from umtali.web.server import GameServer
from umtali.web.store import StoreError

T = TypeVar("T")


def _client(tmp_path: Path, capacity: Capacity) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'u.db'}", capacity=capacity))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with _client(tmp_path, Capacity(games_per_minute=1_000)) as client:
        yield client


def _server(client: TestClient) -> GameServer:
    server: GameServer = client.app.state.server  # type: ignore[attr-defined]
    return server


def test_the_settings_are_checked() -> None:
    for wrong in ({"games_per_minute": 0}, {"games_in_play": 1.5}, {"idle_seconds": 0}):
        with pytest.raises(ValueError, match="must be"):
            Capacity(**wrong)
    assert Capacity() == Capacity(games_per_minute=20, games_in_play=2_000, idle_seconds=1800)


def test_unknown_game_ids_leave_nothing_behind(client: TestClient) -> None:
    server = _server(client)

    async def ask() -> int:
        missing = 0
        for game_id in range(1_000_000, 1_002_000):
            try:
                await server.record(game_id)
            except StoreError:
                missing += 1
            server.forget(game_id)  # as news from another process would
        return missing

    assert client.portal.call(ask) == 2_000  # type: ignore[union-attr]
    assert client.get("/api/games/123456/record").status_code == 404
    footprint = server.footprint()
    assert footprint["games"] == footprint["locks"] == footprint["thinking"] == 0


def run_alone(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own: a browser test that ran earlier in the same
    worker leaves Playwright's event loop running in this thread."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def test_a_lock_is_kept_while_held_only() -> None:
    games = LiveGames()

    async def hold() -> tuple[int, int]:
        async with games.locked(7):
            inside = games.locks
        return inside, games.locks

    assert run_alone(hold()) == (1, 0)


def test_new_games_are_limited_per_address(tmp_path: Path) -> None:
    with _client(tmp_path, Capacity(games_per_minute=3)) as client:
        made = [client.post("/api/games", json={"level": "random"}) for _ in range(3)]
        assert [reply.status_code for reply in made] == [201, 201, 201]
        refused = client.post("/api/games", json={"level": "random"})
        assert refused.status_code == 429
        assert 1 <= int(refused.headers["Retry-After"]) <= 20
        assert "too many new games from your address: at most 3 a minute" in refused.text
    with TestClient(client.app, client=("192.0.2.9", 50000)) as other:
        assert other.post("/api/games", json={"level": "random"}).status_code == 201


def test_new_games_are_refused_when_the_server_is_full(tmp_path: Path) -> None:
    with _client(tmp_path, Capacity(games_in_play=2)) as client:
        made = [client.post("/api/games", json={"level": "random"}) for _ in range(2)]
        assert [reply.status_code for reply in made] == [201, 201]
        refused = client.post("/api/games", json={"level": "random"})
        assert refused.status_code == 503
        assert refused.headers["Retry-After"] == "60"
        assert "the server is full: it plays 2 games at once" in refused.text
        # A game that leaves memory makes room; it still plays on from the database.
        assert _server(client).evict(made[0].json()["game_id"])
        assert client.post("/api/games", json={"level": "random"}).status_code == 201
        seat = made[0].json()["seats"][0]
        assert client.get(seat["state"]).json()["game_id"] == made[0].json()["game_id"]


def _play(client: TestClient, secret: str, move: str) -> dict[str, Any]:
    reply = client.post(f"/api/seat/{secret}/move", json={"move": move})
    assert reply.status_code == 200, reply.text
    state: dict[str, Any] = reply.json()["state"]
    return state


def test_a_game_evicted_mid_hand_resumes_exactly(client: TestClient) -> None:
    server = _server(client)
    game = client.post("/api/games", json={"level": "random"}).json()
    game_id, secret = game["game_id"], game["seats"][0]["secret"]
    state = client.get(f"/api/seat/{secret}").json()
    for _ in range(3):
        state = _play(client, secret, state["legal"][0])
    # Untouched for longer than the idle time: it leaves memory, unsaved nothing.
    assert server.evict_idle(now=time.monotonic() + 31 * 60) == [game_id]
    assert not server.in_memory(game_id)
    assert server.footprint()["games"] == 0
    after = client.get(f"/api/seat/{secret}").json()
    assert server.in_memory(game_id)
    assert after == state


def test_an_evicted_game_plays_on_as_its_copy_would(client: TestClient) -> None:
    server = _server(client)
    game = client.post("/api/games", json={"level": "random"}).json()
    game_id, secret = game["game_id"], game["seats"][0]["secret"]
    seat = game["seats"][0]["seat"]
    state = client.get(f"/api/seat/{secret}").json()
    state = _play(client, secret, state["legal"][0])
    old = server._games.get(game_id)
    assert old is not None
    assert server.evict(game_id)
    move = state["legal"][0]
    # The copy in memory before the eviction, played on by hand: the person's move and
    # the computer's replies, seeded as the server seeds them.
    assert not isinstance(old.session.submit(seat, move), Exception)
    while not old.session.deals_due() and old.session.computer_to_move() is not None:
        old.session.bot_move()
    _play(client, secret, move)  # read again from the database, played on
    again = server._games.get(game_id)
    assert again is not None
    assert again is not old
    assert dumps(again.session.match) == dumps(old.session.match)  # with its digest


def test_the_computer_s_pool_gives_every_game_its_turn() -> None:
    order: list[Hashable] = []
    release = threading.Event()

    async def run() -> None:
        pool = FairPool(1, started=order.append)
        blocker = asyncio.create_task(pool.run("blocker", release.wait))
        while pool.games < 1 or pool.waiting:
            await asyncio.sleep(0)
        busy = [
            asyncio.create_task(pool.run(game, lambda: None))
            for game in ("a", "b", "c")
            for _ in range(5)
        ]
        late = asyncio.create_task(pool.run("late", lambda: None))
        while pool.waiting < 16:
            await asyncio.sleep(0)
        release.set()
        await asyncio.gather(blocker, *busy, late)
        assert pool.games == pool.waiting == 0

    run_alone(run())
    # Round-robin: the game that asked last still thinks in the first round, not after
    # the fifteen decisions asked before it.
    assert order[:5] == ["blocker", "a", "b", "c", "late"]
    assert order[5:] == ["a", "b", "c"] * 4


def test_a_decision_cancelled_while_waiting_leaves_the_pool_clean() -> None:
    release = threading.Event()

    async def run() -> tuple[int, int]:
        pool = FairPool(1)
        blocker = asyncio.create_task(pool.run("blocker", release.wait))
        waiting = asyncio.create_task(pool.run("other", lambda: None))
        while pool.waiting < 1:
            await asyncio.sleep(0)
        waiting.cancel()
        release.set()
        await blocker
        with pytest.raises(asyncio.CancelledError):
            await waiting
        return pool.games, pool.waiting

    assert run_alone(run()) == (0, 0)
