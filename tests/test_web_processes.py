"""Real ``umtali serve`` processes (tests/servers.py): two processes sharing one
PostgreSQL database, each player on his own; a process killed with ``kill -9`` in the
middle of a hand while moves are in flight, then started again, on SQLite and on
PostgreSQL; and, in one process, the PostgreSQL listener that loses its connection.

The players are Python clients, each in a thread of its own: a WebSocket (the
``websockets`` library that ``uvicorn[standard]`` brings) for the states and some of
the moves, HTTP (httpx) for the others. They reconnect by themselves when the server
goes away, and resynchronise from the state the socket sends first.
"""

from __future__ import annotations

import itertools
import json
import random
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

from tests.postgres import PostgresServer
from tests.servers import HTTP, ServerProcess, running_server
from tests.test_web_api import app_on, new_game, state_of
from umtali.cli.main import main
from umtali.games.umtali.match import Match
from umtali.web.server import GameServer, PostgresBroadcaster
from umtali.web.store import Store

JSON = dict[str, Any]

HANG_SECONDS = 600.0
"""Only a hang makes a player wait this long for what he waits for (a message, the
server, the other players): the tests wait for events, never for the clock."""


@pytest.fixture(params=["sqlite", "postgresql"])
def any_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'umtali.db'}"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.create_database()


@pytest.fixture
def pg_url(postgres_server: PostgresServer) -> str:
    return postgres_server.create_database()


class Tally:
    """What the players of one game share: how many moves the server has acknowledged
    to them so far, whether one of them has seen the game end (``over``), and whether
    they are to stop before it ends: at ``stop_at`` moves (once a test sets it), or
    when the test gives up (``abort``)."""

    def __init__(self) -> None:
        self.moves = 0
        self.stop_at: int | None = None
        self.over = False
        self.aborted = False
        self.changed = threading.Condition()

    @property
    def stopped(self) -> bool:
        reached = self.stop_at is not None and self.moves >= self.stop_at
        return self.aborted or reached

    def accepted(self) -> None:
        with self.changed:
            self.moves += 1
            self.changed.notify_all()

    def connected(self, player: Player) -> None:
        """``player`` has opened a socket (once, then again after each restart)."""
        with self.changed:
            player.connections += 1
            self.changed.notify_all()

    def wait_until(self, condition: Callable[[], bool], what: str) -> None:
        """Wait until ``condition`` holds (or the test gives up)."""
        with self.changed:
            if not self.changed.wait_for(lambda: condition() or self.aborted, HANG_SECONDS):
                raise AssertionError(f"waited {HANG_SECONDS} s for {what}")

    def ended(self) -> None:
        with self.changed:
            self.over = True
            self.changed.notify_all()

    def abort(self) -> None:
        with self.changed:
            self.aborted = True
            self.changed.notify_all()

    def stop_after(self, more: int) -> None:
        """The players stop once they have played ``more`` moves more."""
        with self.changed:
            self.stop_at = self.moves + more
            self.changed.notify_all()

    def wait_for(self, moves: int) -> bool:
        """Wait until the players have ``moves`` acknowledged moves, or the game ends or
        they stop first; whether they have them."""

        def come() -> bool:
            return self.moves >= moves or self.over or self.stopped

        with self.changed:
            if not self.changed.wait_for(come, HANG_SECONDS):
                raise AssertionError(f"waited {HANG_SECONDS} s for {moves} moves: {self.moves}")
            return self.moves >= moves


@dataclass
class Player:
    """One person playing a seat, at ``url`` (a callable, so a test can move him),
    through his socket and, for ``http_share`` of his moves, HTTP, until his socket
    tells him the game is over or the ``tally`` says to stop. Every move the server
    acknowledged is kept with where it was stored."""

    url: Callable[[], str]
    secret: str
    rng: random.Random
    tally: Tally
    http_share: float = 0.0
    accepted: list[tuple[int, int, str]] = field(default_factory=list)
    states: list[JSON] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    connections: int = 0
    error: BaseException | None = None
    choose: Callable[[JSON, random.Random], str] | None = None
    """How he picks his move from a state (by default, any legal move at random)."""
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def last(self) -> JSON:
        return self.states[-1]

    @property
    def done(self) -> bool:
        return self.tally.stopped or bool(self.states and self.last["over"])

    def run(self) -> None:
        try:
            self._play()
        except BaseException as e:  # reported by the test, not lost in the thread
            self.error = e
            self.tally.abort()

    def _play(self) -> None:
        while not self.done:
            socket_url = self.url().replace("http://", "ws://") + f"/ws/seat/{self.secret}"
            try:
                with connect(socket_url, open_timeout=5, close_timeout=1) as ws:
                    self.tally.connected(self)
                    self._listen(ws)
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError):
                time.sleep(0.1)  # the server is away: come back soon

    def _listen(self, ws: ClientConnection) -> None:
        waiting: set[int] = set()  # the moves sent on this socket and not yet answered
        needed = 0  # the version of the state after his last move: he moves on from it
        while waiting or not self.done:
            try:
                message = json.loads(ws.recv(timeout=1))
            except TimeoutError:
                message = {"type": "quiet"}  # a move refused over HTTP brings no message
            if message["type"] == "state":
                self.states.append(message)
                if message["over"]:
                    self.tally.ended()
                    return
            elif message["type"] == "accepted":
                self.accepted.append(
                    (message["hand_index"], message["move_index"], message["move"])
                )
                self.tally.accepted()
                waiting.discard(message["id"])
                needed = message["version"]
            elif message["type"] == "refused":
                self.refusals.append(message["reason"])
                waiting.discard(message["id"])  # the state says what to do next
            elif message["type"] == "error":  # over the rate limit: the move was dropped
                self.refusals.append(message["detail"])
                waiting.clear()
                continue  # decide again at the next message
            if waiting or self.done or not self.states or self.last["version"] < needed:
                continue
            state = self.last
            if state["your_turn"] and state["legal"]:
                if self.choose is None:
                    move = state["legal"][self.rng.randrange(len(state["legal"]))]
                else:
                    move = self.choose(state, self.rng)
                if self.rng.random() < self.http_share:
                    needed = self._post(move)
                else:
                    number = next(self._ids)
                    waiting.add(number)
                    ws.send(json.dumps({"type": "move", "move": move, "id": number}))

    def _post(self, move: str) -> int:
        """Play ``move`` over HTTP; the socket then brings the new state. The version of
        that state (0 if the move was not played)."""
        try:
            reply = HTTP.post(
                f"{self.url()}/api/seat/{self.secret}/move", json={"move": move}, timeout=10
            )
        except httpx.HTTPError:
            return 0  # the server went away: the move was not acknowledged
        if reply.status_code != 200:
            self.refusals.append(f"{reply.status_code} {reply.text}")
            return 0
        body = reply.json()
        self.accepted.append((body["hand_index"], body["move_index"], move))
        self.tally.accepted()
        version: int = body["state"]["version"]
        return version


def play_game(players: list[Player]) -> None:
    """Run the players, each in a thread of his own, until their tally says to stop."""
    threads = [threading.Thread(target=player.run, daemon=True) for player in players]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(HANG_SECONDS)
        assert not thread.is_alive(), f"a player hung: {[p.refusals[-5:] for p in players]}"
    for player in players:
        if player.error is not None:
            raise player.error


def check_stored(db_url: str, game_id: int, players: list[Player], *, over: bool) -> Match:
    """Every acknowledged move is stored where its answer said, and the stored game
    replays (nothing half-applied); ``over``: the game is over. The stored game."""
    with Store.open(db_url) as store:
        match = store.load_match(game_id)
    assert isinstance(match, Match)
    assert match.is_over() == over
    for player in players:
        assert player.accepted
        for hand_index, move_index, move in player.accepted:
            stored = match.hands[hand_index].moves_played()[move_index]
            assert stored.text() == move
    return match


def test_two_processes_share_one_game(pg_url: str, tmp_path: Path) -> None:
    """Player 1 on one process, Player 2 on another, against one PostgreSQL database:
    a whole hand, each moving on what his own socket tells him of the other's moves."""
    with (
        running_server(pg_url, tmp_path) as one,
        running_server(pg_url, tmp_path) as two,
    ):
        created = HTTP.post(
            f"{one.url}/api/games", json={"opponent": "person", "kind": "hand"}
        ).json()
        secrets = {seat["seat"]: seat["secret"] for seat in created["seats"]}
        rng = random.Random(5)
        tally = Tally()
        players = [
            Player(lambda: one.url, secrets[0], random.Random(rng.random()), tally, 0.3),
            Player(lambda: two.url, secrets[1], random.Random(rng.random()), tally, 0.3),
        ]
        play_game(players)
        match = check_stored(pg_url, created["game_id"], players, over=True)
        for player in players:
            # Each saw the end of the game on his own socket.
            assert player.last["over"]
            assert len(player.last["view"]["history"]) == len(match.hands[-1].history)
        for mine, theirs in [(players[0], players[1]), (players[1], players[0])]:
            # He moved on his socket's news only: it brought each of the other's turns.
            told = {line for state in mine.states for line in state["recap"]}
            assert told
            assert len(mine.states) > len(theirs.accepted) // 3
        # Both processes, and the database, show each seat the same final state.
        for secret in secrets.values():
            first = HTTP.get(f"{one.url}/api/seat/{secret}").json()
            second = HTTP.get(f"{two.url}/api/seat/{secret}").json()
            assert first["over"]
            for state in (first, second):
                state.pop("opponent")  # how long ago each was seen moves on
            assert first == second
        assert players[0].last["version"] == players[1].last["version"]


def test_workers_on_one_port_share_one_game(pg_url: str, tmp_path: Path) -> None:
    """``umtali serve --workers 2``: both players through the one port, each request and
    socket landing on whichever worker the system gives it; a whole hand, and the
    database and both players end with the same state. Both workers listen for the
    other's notices."""
    with running_server(pg_url, tmp_path, args=["--workers", "2"]) as server:
        created = HTTP.post(
            f"{server.url}/api/games", json={"opponent": "person", "kind": "hand"}
        ).json()
        secrets = {seat["seat"]: seat["secret"] for seat in created["seats"]}
        rng = random.Random(7)
        tally = Tally()
        players = [
            Player(lambda: server.url, secrets[seat], random.Random(rng.random()), tally, 0.3)
            for seat in (0, 1)
        ]
        play_game(players)
        match = check_stored(pg_url, created["game_id"], players, over=True)
        for player in players:
            assert player.last["over"]
            assert len(player.last["view"]["history"]) == len(match.hands[-1].history)
        with Store.open(pg_url) as store, store.engine.connect() as connection:
            listening = connection.exec_driver_sql(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND query ILIKE 'LISTEN%%'"
            ).scalar_one()
        assert listening == 2, server.output()
    log = server.log.read_text(errors="replace")
    assert "WebSocket" in log  # each worker logs the sockets it accepts...
    assert not any(secret in log for secret in secrets.values())  # ...with no secret


def test_workers_are_refused_on_sqlite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--workers", "2", "--db", f"sqlite:///{tmp_path / 'umtali.db'}"]) == 2
    assert "--workers 2 needs a PostgreSQL database" in capsys.readouterr().err


@pytest.mark.parametrize("kills", [2])
def test_a_killed_process_loses_no_acknowledged_move(
    any_db: str, tmp_path: Path, kills: int
) -> None:
    """``kill -9`` of the server in the middle of a hand, moves in flight, twice; it is
    started again on the same port, the players come back by themselves and play on,
    and every move they were told was accepted is stored."""
    with running_server(any_db, tmp_path) as server:
        created = HTTP.post(
            f"{server.url}/api/games", json={"opponent": "person", "kind": "hand"}
        ).json()
        players = play_through_kills(server, created, (0, 1), kills=kills)
        over = players[0].tally.over  # else they stopped in its middle
        match = check_stored(any_db, created["game_id"], players, over=over)
        # What the restarted server shows is what is stored.
        for player in players:
            state = HTTP.get(f"{server.url}/api/seat/{player.secret}").json()
            assert len(state["view"]["history"]) == len(match.hands[-1].history)
        log = server.log.read_text(errors="replace")
        assert "/ws/seat/…" in log  # uvicorn logs each socket's path, without the secret
        assert not any(player.secret in log for player in players)


class Killer(threading.Thread):
    """Kill the server once the players have made ``first`` moves, and again each time
    they have made ``every`` more since it came back, while they go on sending theirs;
    start it again on the same port each time. After the last kill the players play
    ``every`` moves more and stop. ``kills`` counts the kills made: a game that ends
    early ends the killing early, so a test asserts on ``kills``, not on the plan."""

    def __init__(
        self,
        server: ServerProcess,
        tally: Tally,
        planned: int,
        first: int = 6,
        every: int = 10,
        players: Sequence[Player] = (),
    ) -> None:
        super().__init__(daemon=True)
        self.server = server
        self.tally = tally
        self.players = players
        self.planned = planned
        self.first = first
        self.every = every
        self.kills = 0
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            target = self.first
            for _ in range(self.planned):
                if not self.tally.wait_for(target):
                    return  # the game ended: a kill after the end would test nothing
                self.server.kill()
                self.kills += 1
                time.sleep(0.3)  # the players find the server gone
                self.server.start()
                # The moves after a restart count once every player is back: one who
                # sits out a hand would otherwise find the others done before he is.
                self.tally.wait_until(
                    lambda: all(p.connections > self.kills or p.done for p in self.players),
                    "every player to come back",
                )
                target = self.tally.moves + self.every
            self.tally.stop_after(self.every)
        except BaseException as e:  # reported by the test, not lost in the thread
            self.error = e
            self.tally.abort()

    def finish(self) -> int:
        """Wait for the last restart; the number of kills made (at least one)."""
        self.join(HANG_SECONDS)
        assert not self.is_alive(), "the server did not come back"
        if self.error is not None:
            raise self.error
        assert self.kills >= 1, "the game ended before the server could be killed"
        return self.kills


def play_through_kills(
    server: ServerProcess,
    created: JSON,
    seats: Sequence[int],
    *,
    kills: int = 2,
    choose: Callable[[JSON, random.Random], str] | None = None,
    first: int = 6,
    every: int = 10,
) -> list[Player]:
    """The people at ``seats`` of the game ``created`` play it, a fifth of their moves
    over HTTP, while a :class:`Killer` kills the server up to ``kills`` times; each
    comes back by himself after every kill. They stop ``every`` moves after the last
    restart, or at the game's end if it comes first: a kill test needs the moves around
    the kills, not a whole game, which may run to twenty hands. Returns the players."""
    secrets = {seat["seat"]: seat["secret"] for seat in created["seats"]}
    tally = Tally()
    players = [
        Player(lambda: server.url, secrets[seat], random.Random(seat), tally, 0.2, choose=choose)
        for seat in seats
    ]
    killer = Killer(server, tally, kills, first=first, every=every, players=players)
    killer.start()
    play_game(players)
    killed = killer.finish()
    assert all(player.connections > killed for player in players)
    return players


# -- the listener, in one process -----------------------------------------------------------------


def wait_for(condition: Callable[[], bool], what: str, seconds: float = 15) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {seconds} s for {what}")
        time.sleep(0.02)


def test_the_listener_comes_back_and_forgets_what_it_may_have_missed(pg_url: str) -> None:
    with TestClient(app_on(pg_url)) as client:
        server: GameServer = client.app.state.server  # type: ignore[attr-defined]
        broadcaster = server.broadcaster
        assert isinstance(broadcaster, PostgresBroadcaster)
        created = new_game(client, opponent="person", kind="hand")
        secrets = {seat["seat"]: seat["secret"] for seat in created["seats"]}
        game_id = created["game_id"]
        before = state_of(client, secrets[0])
        pid = broadcaster.listener_pid
        assert pid is not None
        with psycopg.connect(
            **broadcaster._connect_args(),
            autocommit=True,
        ) as admin:
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        # Meanwhile another process plays a move: its notice may be lost.
        mover = 0 if before["your_turn"] else 1
        legal = state_of(client, secrets[mover])["legal"]
        with Store.open(pg_url) as other:
            other.append_move(game_id, 0, 0, legal[0])
        wait_for(lambda: broadcaster.reconnections >= 1, "the listener to connect again")
        assert broadcaster.listener_pid not in (None, pid)
        after = state_of(client, secrets[0])
        assert after["version"] == before["version"] + 1


def test_serve_checks_its_grace(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["serve", "--grace", "0.5"])
    assert exited.value.code == 2
    assert "give from 1 to 86400 seconds" in capsys.readouterr().err
