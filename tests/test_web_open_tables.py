"""Open tables (issue 25): a player opens a game of two to anyone, the list shows it
without a secret, whoever sits down first gets the seat (one of two racing, in any of
the server's processes), the opener's table hears of it at once, the limits per address
and in all hold, and a table nobody joins leaves the list and offers the computer
instead. Time is the server's clock, set by the test; nothing sleeps on the clock."""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.postgres import PostgresServer
from tests.test_web_api import ROOMY, app_on, state_of
from umtali.cli.parser import build_parser
from umtali.web.capacity import Capacity

JSON = dict[str, Any]

QUICK = Capacity(games_per_minute=ROOMY.games_per_minute, bot_seconds=0.02)
"""Many new games from one address, and a computer that thinks little."""


class Clock:
    """The server's time, moved on by the test."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def wait(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def client(db_url: str, clock: Clock) -> Iterator[TestClient]:
    with TestClient(app_on(db_url, clock=clock, capacity=QUICK)) as opened:
        yield opened


def open_table(client: TestClient, name: str = "Ann", **request: Any) -> JSON:
    reply = client.post("/api/open-tables", json={"name": name, **request})
    assert reply.status_code == 201, reply.text
    created: JSON = reply.json()
    return created


def listed(client: TestClient) -> list[JSON]:
    reply = client.get("/api/open-tables")
    assert reply.status_code == 200, reply.text
    tables: list[JSON] = reply.json()["tables"]
    return tables


def sit(client: TestClient, table: int, name: str = "Bob") -> JSON:
    reply = client.post(f"/api/open-tables/{table}/sit", json={"name": name})
    assert reply.status_code == 200, reply.text
    seated: JSON = reply.json()
    return seated


def test_a_table_is_listed_until_someone_sits_down(client: TestClient, clock: Clock) -> None:
    opened = open_table(client, "  Ann  ", game="gin", rules="oklahoma")
    assert [link["seat"] for link in opened["seats"]] == [0]
    table = opened["game_id"]
    [shown] = listed(client)
    assert shown == {
        "id": table,
        "game": "gin",
        "game_title": "Gin Rummy",
        "rules": "oklahoma",
        "rules_title": "Oklahoma",
        "kind": "game",
        "kind_title": "Game",
        "waiting": "Ann",
        "since": shown["since"],
        "until": shown["until"],
    }
    assert datetime.fromisoformat(shown["since"]) == clock.now
    assert datetime.fromisoformat(shown["until"]) == clock.now + timedelta(minutes=10)
    mine = opened["seats"][0]["secret"]
    before = state_of(client, mine)
    assert before["open_table"] == {"until": shown["until"], "over": False}
    assert before["names"] == ["You", "Player 2"]

    seated = sit(client, table, "Bob")
    assert seated["game_id"] == table
    [link] = seated["seats"]
    assert link["seat"] == 1
    assert listed(client) == []
    after = state_of(client, mine)
    assert after["names"] == ["You", "Bob"]
    assert after["open_table"] is None
    theirs = state_of(client, link["secret"])
    assert theirs["names"] == ["Ann", "You"]
    assert theirs["open_table"] is None
    # Both play: whoever is to move moves, and the other sees it.
    mover = link["secret"] if theirs["your_turn"] else mine
    move = state_of(client, mover)["legal"][0]
    played = client.post(f"/api/seat/{mover}/move", json={"move": move})
    assert played.status_code == 200, played.text
    # A second sitter finds the seat taken.
    again = client.post(f"/api/open-tables/{table}/sit", json={"name": "Cy"})
    assert again.status_code == 409
    assert "someone sat down at this table first" in again.json()["detail"]


def test_the_opener_hears_at_once_that_someone_sat_down(client: TestClient) -> None:
    opened = open_table(client, kind="hand")
    mine = opened["seats"][0]["secret"]
    with client.websocket_connect(f"/ws/seat/{mine}") as ws:
        first = ws.receive_json()
        assert first["open_table"] is not None
        sit(client, opened["game_id"], "Bob")
        while True:
            message = ws.receive_json()
            if message.get("type") == "state" and message["names"] == ["You", "Bob"]:
                break
        assert message["open_table"] is None


def test_two_sitters_racing_one_gets_the_seat(db_url: str, clock: Clock) -> None:
    """Two server processes over one database (two applications here), a sitter at
    each, let go at once: exactly one sits down, the other is told someone was first."""
    with (
        TestClient(app_on(db_url, clock=clock)) as first,
        TestClient(app_on(db_url, clock=clock)) as second,
    ):
        for _ in range(3):
            table = open_table(first)["game_id"]
            start = threading.Barrier(2)
            replies: dict[str, Any] = {}

            def sitter(
                client: TestClient,
                name: str,
                table: int = table,
                start: threading.Barrier = start,
                replies: dict[str, Any] = replies,
            ) -> None:
                start.wait()
                replies[name] = client.post(f"/api/open-tables/{table}/sit", json={"name": name})

            threads = [
                threading.Thread(target=sitter, args=(first, "Bob")),
                threading.Thread(target=sitter, args=(second, "Cy")),
            ]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            statuses = sorted(reply.status_code for reply in replies.values())
            assert statuses == [200, 409], {k: r.text for k, r in replies.items()}
            winner = next(name for name, reply in replies.items() if reply.status_code == 200)
            loser = next(reply for reply in replies.values() if reply.status_code == 409)
            assert "someone sat down at this table first" in loser.json()["detail"]
            secret = replies[winner].json()["seats"][0]["secret"]
            assert state_of(first, secret)["names"] == ["Ann", "You"]
            assert state_of(second, secret)["names"] == ["Ann", "You"]
        assert listed(first) == listed(second) == []


def test_a_table_survives_a_restart(db_url: str, clock: Clock) -> None:
    with TestClient(app_on(db_url, clock=clock)) as before:
        opened = open_table(before, "Ann", kind="hand")
    with TestClient(app_on(db_url, clock=clock)) as after:
        [shown] = listed(after)
        assert shown["waiting"] == "Ann"
        seat = sit(after, opened["game_id"])["seats"][0]["secret"]
        assert state_of(after, opened["seats"][0]["secret"])["names"] == ["You", "Bob"]
        assert state_of(after, seat)["names"] == ["Ann", "You"]


def _limited(tmp_path: Path, clock: Clock, **limits: Any) -> TestClient:
    capacity = Capacity(games_per_minute=ROOMY.games_per_minute, **limits)
    return TestClient(app_on(f"sqlite:///{tmp_path / 'u.db'}", clock=clock, capacity=capacity))


def test_tables_are_limited_per_address_and_in_all(tmp_path: Path, clock: Clock) -> None:
    with _limited(tmp_path, clock, open_per_address=2, open_tables=3) as client:
        tables = [open_table(client)["game_id"] for _ in range(2)]
        refused = client.post("/api/open-tables", json={"name": "Ann"})
        assert refused.status_code == 429
        assert "you have 2 tables waiting already" in refused.json()["detail"]
        assert int(refused.headers["Retry-After"]) >= 1
        with TestClient(client.app, client=("192.0.2.9", 50000)) as other:
            open_table(other, "Dee")
        with TestClient(client.app, client=("192.0.2.10", 50000)) as third:
            full = third.post("/api/open-tables", json={"name": "Eve"})
            assert full.status_code == 503
            assert "the server has 3 tables waiting" in full.json()["detail"]
            assert len(listed(third)) == 3
            # A table taken makes room, for its opener as for anyone.
            sit(third, tables[0])
            open_table(client)
            assert len(listed(client)) == 3


def test_an_opening_refused_by_a_table_limit_is_not_counted_as_a_new_game(
    tmp_path: Path, clock: Clock
) -> None:
    capacity = Capacity(games_per_minute=2, open_per_address=1, bot_seconds=0.02)
    app = app_on(f"sqlite:///{tmp_path / 'u.db'}", clock=clock, capacity=capacity)
    with TestClient(app) as client:
        open_table(client)  # the first of the address's two new games this minute
        for _ in range(3):
            refused = client.post("/api/open-tables", json={"name": "Ann"})
            assert refused.status_code == 429
            assert "you have 1 tables waiting already" in refused.json()["detail"]
        # The refused openings used up none of them: the second is still to be had.
        made = client.post("/api/games", json={"opponent": "person"})
        assert made.status_code == 201, made.text
        over = client.post("/api/games", json={"opponent": "person"})
        assert over.status_code == 429
        assert "too many new games" in over.json()["detail"]


def test_the_opener_is_not_sat_down_at_his_own_table(client: TestClient) -> None:
    opened = open_table(client)
    table, own = opened["game_id"], opened["seats"][0]["secret"]
    elsewhere = client.post("/api/games", json={"opponent": "person"}).json()
    other = elsewhere["seats"][0]["secret"]
    # A sit that comes with the opener's own seat among the browser's seats is refused.
    reply = client.post(
        f"/api/open-tables/{table}/sit", json={"name": "Ann", "seats": [other, "forged", own]}
    )
    assert reply.status_code == 409, reply.text
    assert "this is your own table" in reply.json()["detail"]
    assert [shown["id"] for shown in listed(client)] == [table]
    # The list of seats is bounded, each secret too.
    for seats in [["x"] * 21, ["x" * 201], "x", [1]]:
        reply = client.post(f"/api/open-tables/{table}/sit", json={"name": "Bob", "seats": seats})
        assert reply.status_code == 422, (seats, reply.text)
    # Seats at other games are no reason to refuse.
    seated = client.post(
        f"/api/open-tables/{table}/sit", json={"name": "Bob", "seats": [other, "forged"]}
    )
    assert seated.status_code == 200, seated.text
    assert listed(client) == []


def test_a_table_nobody_joins_leaves_the_list_and_offers_the_computer(
    client: TestClient, clock: Clock
) -> None:
    opened = open_table(client, kind="hand")
    table, mine = opened["game_id"], opened["seats"][0]["secret"]
    clock.wait(9 * 60)
    assert [shown["id"] for shown in listed(client)] == [table]
    clock.wait(60)  # ten minutes: the wait is over
    assert listed(client) == []
    late = client.post(f"/api/open-tables/{table}/sit", json={"name": "Bob"})
    assert late.status_code == 404
    assert "this table is no longer open" in late.json()["detail"]
    state = state_of(client, mine)
    assert state["open_table"]["over"] is True
    # "Nobody sat down: play the computer instead".
    reply = client.post(f"/api/seat/{mine}/hand-over")
    assert reply.status_code == 200, reply.text
    state = reply.json()
    assert state["open_table"] is None
    assert state["opponent"]["handed_over"] is True
    # The computer plays the seat: the opener is never kept waiting, and sees it move.
    for _ in range(40):
        if state["over"] or state["recap"]:
            break
        assert state["your_turn"], state
        played = client.post(f"/api/seat/{mine}/move", json={"move": state["legal"][0]})
        assert played.status_code == 200, played.text
        state = played.json()["state"]
    assert state["over"] or state["recap"]


def test_the_opener_may_play_the_computer_before_the_wait_is_over(client: TestClient) -> None:
    opened = open_table(client)
    table, mine = opened["game_id"], opened["seats"][0]["secret"]
    assert client.post(f"/api/seat/{mine}/hand-over").status_code == 200
    assert listed(client) == []
    late = client.post(f"/api/open-tables/{table}/sit", json={"name": "Bob"})
    assert late.status_code == 404
    assert client.post(f"/api/seat/{mine}/hand-over").status_code == 200  # again: no change


def test_no_secret_is_in_the_list(client: TestClient) -> None:
    opened = open_table(client)
    other = open_table(client, "Bob")
    secrets = [link["secret"] for made in (opened, other) for link in made["seats"]]
    payload = client.get("/api/open-tables").text
    hashes = [hashlib.sha256(secret.encode()).hexdigest() for secret in secrets]
    address = hashlib.sha256(b"testclient").hexdigest()
    for hidden in [*secrets, *hashes, address, "testclient", "/seat/", "secret"]:
        assert hidden not in payload
    for shown in json.loads(payload)["tables"]:
        assert set(shown) == {
            "id",
            "game",
            "game_title",
            "rules",
            "rules_title",
            "kind",
            "kind_title",
            "waiting",
            "since",
            "until",
        }


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"name": ""},
        {"name": "   "},
        {"name": "A" * 25},
        {"name": "A" * 5_000},
        {"name": "<b>Ann</b>"},
        {"name": "Ann & Bob"},
        {"name": "Ann\nBob"},
        {"name": "Bob\u202e"},
        {"name": 5},
        {"name": "Ann", "game": "chess"},
        {"name": "Ann", "game": "gin", "rules": "nonsense"},
        {"name": "Ann", "kind": "forever"},
        {"name": "Ann", "secret": "x"},
    ],
)
def test_hostile_openings_are_refused(client: TestClient, body: Any) -> None:
    reply = client.post("/api/open-tables", json=body)
    assert reply.status_code == 422, reply.text
    assert reply.json()["detail"]
    assert listed(client) == []


def test_hostile_sitters_are_refused(client: TestClient) -> None:
    table = open_table(client)["game_id"]
    for path in ["abc", "-1", "0", "99999", str(2**31), "9" * 40, "1.5", f"{table}%00"]:
        reply = client.post(f"/api/open-tables/{path}/sit", json={"name": "Bob"})
        assert reply.status_code in (404, 422), (path, reply.text)
        assert reply.json()["detail"]
    for body in [{}, {"name": "<script>"}, {"name": "B" * 25}, {"name": "Bob", "seat": 0}]:
        reply = client.post(f"/api/open-tables/{table}/sit", json=body)
        assert reply.status_code == 422, (body, reply.text)
    # A game that was not opened to anyone is no open table.
    made = client.post("/api/games", json={"opponent": "person"}).json()
    reply = client.post(f"/api/open-tables/{made['game_id']}/sit", json={"name": "Bob"})
    assert reply.status_code == 404
    assert [shown["id"] for shown in listed(client)] == [table]


def test_the_opener_hears_of_a_sitter_served_by_another_process(
    postgres_server: PostgresServer, clock: Clock
) -> None:
    """On PostgreSQL, with the opener's table in one process and the sitter served by
    another: the opener's socket is sent the sitter's name (the database's notice)."""
    url = postgres_server.create_database()
    with (
        TestClient(app_on(url, clock=clock, capacity=QUICK)) as here,
        TestClient(app_on(url, clock=clock, capacity=QUICK)) as there,
    ):
        opened = open_table(here, kind="hand")
        mine = opened["seats"][0]["secret"]
        state_of(here, mine)  # the game in this process's memory
        with here.websocket_connect(f"/ws/seat/{mine}") as ws:
            assert ws.receive_json()["open_table"] is not None
            [shown] = listed(there)
            seat = sit(there, shown["id"], "Bob")["seats"][0]["secret"]
            while True:
                message = ws.receive_json()
                if message.get("type") == "state" and message["names"] == ["You", "Bob"]:
                    break
            assert message["open_table"] is None
        assert state_of(here, seat)["names"] == ["Ann", "You"]


def test_the_limits_come_from_the_command_line_or_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("UMTALI_OPEN_TABLES", "50")
    monkeypatch.setenv("UMTALI_OPEN_WAIT_MINUTES", "3")
    args = build_parser().parse_args(["serve", "--open-per-address", "4"])
    assert (args.open_per_address, args.open_tables, args.open_wait_minutes) == (4, 50, 3.0)
    assert Capacity().open_per_address == 2
    assert Capacity().open_tables == 200
    assert Capacity().open_wait_seconds == 600
    for wrong in ({"open_per_address": 0}, {"open_tables": 1.5}, {"open_wait_seconds": 0}):
        with pytest.raises(ValueError, match="must be"):
            Capacity(**wrong)
