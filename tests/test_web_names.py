"""Players' names at the browser server: the name a person gives himself when he makes a
game (``NewGameRequest.name``) or at his seat (``POST /api/seat/{secret}/name``), checked
with a clear message, kept in the game's record and shown to every seat; a person who
gives none is "Player N" in the record."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.test_web_api import app_on, new_game

JSON = dict[str, Any]


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(app_on(db_url)) as opened:
        yield opened


def record_players(client: TestClient, secret: str) -> list[str]:
    reply = client.get(f"/api/seat/{secret}/record")
    assert reply.status_code == 200, reply.text
    players: list[str] = json.loads(reply.text)["players"]
    return players


def problem(reply: Any) -> str:
    """The text of a refusal, whatever its shape."""
    return json.dumps(reply.json())


# -- the name given with a new game ---------------------------------------------------------------


def test_the_makers_name_is_kept_at_his_seat(client: TestClient) -> None:
    created = new_game(client, level="random", seat=1, name="  Ann  ")
    secret = created["seats"][0]["secret"]
    players = record_players(client, secret)
    assert players[1] == "Ann"
    assert players[0].startswith("Computer")


def test_an_unnamed_person_is_player_n_never_you(client: TestClient) -> None:
    created = new_game(client, level="random", seat=1)
    assert record_players(client, created["seats"][0]["secret"])[1] == "Player 2"


def test_between_people_the_maker_is_seat_0(client: TestClient) -> None:
    created = new_game(client, opponent="person", name="Ann")
    first, second = (seat["secret"] for seat in created["seats"])
    assert record_players(client, first) == ["Ann", "Player 2"]
    assert record_players(client, second) == ["Ann", "Player 2"]


def test_a_party_keeps_the_makers_name(client: TestClient) -> None:
    created = new_game(client, game="gin", players=3, seat=1, invite=[2], name="Ann")
    players = record_players(client, created["seats"][0]["secret"])
    assert players[1] == "Ann"
    assert players[2] == "Player 3"
    assert players[0].startswith("Computer")


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("   ", "at least one visible character"),
        ("A" * 25, "at most 24 characters"),
        ("Bob\u202e", "U+202E"),
        ("Bob\nBob", "U+000A"),
        ("<script>", "'<', '>' or '&'"),
        ("Tom & Jerry", "'<', '>' or '&'"),
        (42, "string"),
    ],
)
def test_a_bad_name_is_refused_with_why(client: TestClient, name: object, says: str) -> None:
    reply = client.post("/api/games", json={"level": "random", "name": name})
    assert reply.status_code == 422, reply.text
    assert says in problem(reply)
    assert "Traceback" not in reply.text
