"""The review in the server (umtali.web.routers.reviews): a seat's own finished hands by
its secret, a record sent from the replay page, the bounds on the work, the refusals,
and the page ``/review``; the seat's state and "My games" say a review is offered."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from umtali.games.umtali.lessons import LESSONS
from umtali.games.umtali.match import Match
from umtali.kernel.record import dumps
from umtali.web.app import create_app
from umtali.web.routers import reviews
from umtali.web.routers.reviews import REVIEW_PATH, REVIEW_PLAYOUTS


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


def book() -> dict[str, Any]:
    match = Match(kind="game", first_dealer=LESSONS[0].dealer)
    for lesson in LESSONS:
        lesson.replay(match.new_hand(lesson.deck()))
    data: dict[str, Any] = json.loads(dumps(match))
    return data


def finish_a_hand(client: TestClient) -> str:
    """A new game against the computer, its first hand played to its end by the person
    always making the first move offered; the seat's secret."""
    created = client.post("/api/games", json={"level": "random"}).json()
    secret: str = created["seats"][0]["secret"]
    for _ in range(300):
        state = client.get(f"/api/seat/{secret}").json()
        if state["previous"] is not None:
            return secret
        if state["your_turn"] and state["legal"]:
            client.post(f"/api/seat/{secret}/move", json={"move": state["legal"][0]})
    raise AssertionError("the hand did not end")


def test_a_seat_reviews_its_finished_hand_and_is_told_it_may(client: TestClient) -> None:
    created = client.post("/api/games", json={"level": "random"}).json()
    fresh = created["seats"][0]["secret"]
    early = client.post(f"/api/seat/{fresh}/review", json={})
    assert early.status_code == 422
    assert "no finished hand of yours" in early.json()["detail"]
    assert client.get(f"/api/seat/{fresh}").json()["review"] is True

    secret = finish_a_hand(client)
    reply = client.post(f"/api/seat/{secret}/review", json={"playouts": 40})
    assert reply.status_code == 200, reply.text
    data = reply.json()
    assert data["game"] == "umtali"
    assert data["hand_index"] == 0
    assert data["seat"] == 0
    assert data["hands"] == [0]
    assert data["playouts"] == 40
    assert 0 <= data["accuracy"] <= 100
    for decision in data["decisions"]:
        moves = [a["move"] for a in decision["alternatives"]]
        assert decision["played"] in moves
        assert len(set(moves)) == len(moves)
    status = client.post("/api/seats/status", json={"secrets": [secret, fresh]}).json()
    assert [s["review"] for s in status["seats"]] == [True, False]
    later = client.post(f"/api/seat/{secret}/review", json={"hand": 1})
    assert later.status_code == 422
    assert "hand 2 is not a finished hand of yours" in later.json()["detail"]


def test_a_record_from_the_replay_page_is_reviewed_for_the_player_chosen(
    client: TestClient,
) -> None:
    reply = client.post(
        REVIEW_PATH, json={"record": book(), "player": 1, "hand": 3, "playouts": 24}
    )
    assert reply.status_code == 200, reply.text
    data = reply.json()
    assert data["player"] == "Player 2"
    assert data["hands"] == [0, 1, 2, 3]
    assert [d["played"] for d in data["decisions"]][:2] == ["discard A♥", "take 3♦ from the pile"]
    # The last hand of the game: the chance to win it comes with each alternative.
    assert all(a["wins"] is not None for d in data["decisions"] for a in d["alternatives"])


@pytest.mark.parametrize(
    ("body", "words"),
    [
        (b"{not json", "it is not JSON"),
        (json.dumps({"player": 0}).encode(), "send the record and the player"),
        (json.dumps({"record": {"format": "x"}, "player": 0}).encode(), "cannot review this"),
        (json.dumps({"record": book(), "player": 5}).encode(), "the player is a number"),
        (json.dumps({"record": book(), "player": 2}).encode(), "no player 3"),
        (
            json.dumps({"record": book(), "player": 0, "playouts": REVIEW_PLAYOUTS + 1}).encode(),
            f"playouts from 8 to {REVIEW_PLAYOUTS}",
        ),
        (json.dumps({"record": book(), "player": 0, "hand": 7}).encode(), "hand 8 is not"),
    ],
)
def test_what_cannot_be_reviewed_is_refused_with_a_sentence(
    client: TestClient, body: bytes, words: str
) -> None:
    reply = client.post(REVIEW_PATH, content=body, headers={"Content-Type": "application/json"})
    assert reply.status_code == 422, reply.text
    assert words in reply.json()["detail"]


def test_one_review_at_a_time_for_each_address(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reviews, "_busy", {"testclient"})
    reply = client.post(REVIEW_PATH, json={"record": book(), "player": 0, "hand": 0})
    assert reply.status_code == 429
    assert "still being worked out" in reply.json()["detail"]


def test_the_review_page_is_served(client: TestClient) -> None:
    page = client.get("/review")
    assert page.status_code == 200
    assert "Review a hand" in page.text
