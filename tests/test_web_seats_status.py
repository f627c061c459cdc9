"""``POST /api/seats/status``: how the seats a browser holds stand (the home page's "My
games"), each told only what its own player may see; a secret that names no seat is
answered as unknown, never as an error, and the request is bounded."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.test_web_api import app_on, new_game, state_of

JSON = dict[str, Any]
UNKNOWN: JSON = {
    "known": False,
    "game": None,
    "game_title": None,
    "where": None,
    "opponents": [],
    "your_turn": False,
    "over": False,
    "result": None,
    "review": False,
}


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(app_on(db_url)) as opened:
        yield opened


def status(client: TestClient, secrets: list[Any]) -> list[JSON]:
    reply = client.post("/api/seats/status", json={"secrets": secrets})
    assert reply.status_code == 200, reply.text
    seats: list[JSON] = reply.json()["seats"]
    return seats


def test_each_seat_is_told_its_game_its_opponents_and_its_turn(client: TestClient) -> None:
    mine = new_game(client, level="random", name="Ann")["seats"][0]["secret"]
    first, second = (s["secret"] for s in new_game(client, opponent="person")["seats"])
    answers = status(client, [mine, first, second])
    for secret, answer in zip([mine, first, second], answers, strict=True):
        state = state_of(client, secret)
        assert answer["known"] is True
        assert answer["game"] == "umtali"
        assert answer["game_title"] == "Umtali"
        assert answer["where"] == state["title"]
        assert answer["your_turn"] == state["your_turn"]
        assert answer["over"] is False
        assert answer["result"] is None
    assert answers[0]["opponents"] == ["Computer (Beginner)"]
    assert answers[1]["opponents"] == ["Player 2"]
    assert answers[2]["opponents"] == ["Player 1"]
    assert answers[1]["your_turn"] != answers[2]["your_turn"]  # one of the two is to move


def test_a_party_seat_is_told_its_game(client: TestClient) -> None:
    created = new_game(client, game="gin", players=3, level="greedy")
    [answer] = status(client, [created["seats"][0]["secret"]])
    assert answer["known"] is True
    assert answer["game_title"] == "Gin Rummy"
    assert answer["opponents"]
    assert "You" not in answer["opponents"]


def test_unknown_secrets_are_unknown_in_their_place(client: TestClient) -> None:
    mine = new_game(client, level="random")["seats"][0]["secret"]
    forged = "A" * 43
    answers = status(client, [forged, mine, mine[:-1], "x", mine])
    assert answers[0] == UNKNOWN
    assert answers[1]["known"] is True
    assert answers[2] == UNKNOWN
    assert answers[3] == UNKNOWN
    assert answers[4] == answers[1]
    assert status(client, []) == []


def test_the_answer_holds_no_hidden_card_nor_secret(client: TestClient) -> None:
    created = new_game(client, opponent="person")
    first, second = (s["secret"] for s in created["seats"])
    reply = client.post("/api/seats/status", json={"secrets": [first]})
    assert second not in reply.text
    assert first not in reply.text
    assert set(reply.json()["seats"][0]) == set(UNKNOWN)  # no view, no hand, no legal moves


def test_asking_does_not_show_the_player_at_the_table(client: TestClient) -> None:
    first, second = (s["secret"] for s in new_game(client, opponent="person")["seats"])
    state_of(client, first)  # the first player is at his table
    status(client, [second])
    assert state_of(client, first)["opponent"]["present"] is False


@pytest.mark.parametrize(
    "body",
    [
        {"secrets": ["a"] * 21},
        {"secrets": ["a" * 201]},
        {"secrets": [""]},
        {"secrets": [7]},
        {"secrets": [None]},
        {"secrets": "abc"},
        {"secrets": [["nested"]]},
        {},
        {"secrets": [], "more": 1},
        ["a"],
        None,
    ],
)
def test_hostile_requests_are_refused_without_echo(client: TestClient, body: Any) -> None:
    reply = client.post("/api/seats/status", json=body)
    assert reply.status_code == 422, reply.text
    assert "a" * 201 not in reply.text
    assert "nested" not in reply.text
    assert reply.json()["detail"]


def test_a_body_that_is_not_json_is_refused(client: TestClient) -> None:
    reply = client.post(
        "/api/seats/status", content=b"\xff\xfe{", headers={"content-type": "application/json"}
    )
    assert reply.status_code in (400, 422)
    assert "Traceback" not in reply.text
    assert client.get("/api/seats/status").status_code == 405
