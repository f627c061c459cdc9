"""Players' names at the browser server: the name a person gives himself when he makes a
game (``NewGameRequest.name``) or at his seat (``POST /api/seat/{secret}/name``), checked
with a clear message, kept in the game's record and shown to every seat; a person who
gives none is "Player N" in the record."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.postgres import PostgresServer
from tests.test_web_api import app_on, new_game, state_of
from tests.test_web_catch_up import server_of, wait_for

JSON = dict[str, Any]

OLD_RECORDS = Path(__file__).parent / "data" / "old_records"


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


# -- the name given at a seat ---------------------------------------------------------------------


def rename(client: TestClient, secret: str, name: object) -> Any:
    return client.post(f"/api/seat/{secret}/name", json={"name": name})


def test_a_friend_names_himself_and_the_other_seat_is_shown_it(client: TestClient) -> None:
    created = new_game(client, opponent="person", name="Ann")
    first, second = (seat["secret"] for seat in created["seats"])
    before = state_of(client, second)
    assert (before["your_name"], before["name_given"]) == ("Player 2", False)
    reply = rename(client, second, " Bob ")
    assert reply.status_code == 200, reply.text
    assert (reply.json()["your_name"], reply.json()["name_given"]) == ("Bob", True)
    assert "Bob" in state_of(client, first)["names"]
    assert state_of(client, first)["your_name"] == "Ann"
    assert record_players(client, first) == ["Ann", "Bob"]


def test_a_seat_renamed_in_a_party_reaches_the_record(client: TestClient) -> None:
    created = new_game(client, game="gin", players=3, invite=[2])
    maker, friend = (seat["secret"] for seat in created["seats"])
    assert rename(client, friend, "Cy").status_code == 200
    assert state_of(client, maker)["party"]["players"][2] == "Cy"
    assert record_players(client, maker)[2] == "Cy"


def test_a_name_changes_a_few_times_only(client: TestClient) -> None:
    secret = new_game(client, level="random")["seats"][0]["secret"]
    for number in range(5):
        assert rename(client, secret, f"Ann {number}").status_code == 200
    assert rename(client, secret, "Ann 4").status_code == 200  # the same: no change
    refused = rename(client, secret, "Ann again")
    assert refused.status_code == 409
    assert "5 times a game" in problem(refused)
    assert record_players(client, secret)[0] == "Ann 4"


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("", "at least one visible character"),
        ("A" * 25, "at most 24 characters"),
        ("\u200bBob", "U+200B"),
        ("<script>alert(1)</script>", "'<', '>' or '&'"),
        (None, "string"),
        (["Bob"], "string"),
    ],
)
def test_a_bad_seat_name_is_refused_with_why(client: TestClient, name: object, says: str) -> None:
    secret = new_game(client, level="random")["seats"][0]["secret"]
    reply = rename(client, secret, name)
    assert reply.status_code == 422, reply.text
    assert says in problem(reply)
    assert record_players(client, secret)[0] == "Player 1"


def test_a_forged_link_names_nobody(client: TestClient) -> None:
    assert rename(client, "x" * 43, "Bob").status_code == 404


def test_a_name_given_in_one_process_reaches_another(postgres_server: PostgresServer) -> None:
    """Two server processes on one PostgreSQL database hold the same game: a name given
    through one is shown by the other, once its notice comes."""
    url = postgres_server.create_database()
    with TestClient(app_on(url)) as first, TestClient(app_on(url)) as second:
        created = new_game(first, opponent="person")
        maker, friend = (seat["secret"] for seat in created["seats"])
        assert "Player 2" in state_of(second, maker)["names"]
        assert rename(first, friend, "Bob").status_code == 200
        wait_for(lambda: server_of(second).behind(created["game_id"]), "the notice")
        assert "Bob" in state_of(second, maker)["names"]
        assert state_of(second, friend)["your_name"] == "Bob"


# -- the record and the replay --------------------------------------------------------------------


def test_the_name_reaches_the_record_and_the_replay(client: TestClient) -> None:
    rng = random.Random(3)
    created = new_game(client, level="random", kind="hand", name="Ann")
    secret = created["seats"][0]["secret"]
    state = state_of(client, secret)
    while not state["over"]:
        reply = client.post(f"/api/seat/{secret}/move", json={"move": rng.choice(state["legal"])})
        assert reply.status_code == 200, reply.text
        state = reply.json()["state"]
    record = client.get(f"/api/games/{created['game_id']}/record")
    assert json.loads(record.text)["players"] == ["Ann", "Computer (Beginner)"]
    replay = client.post("/api/replay", content=record.content).json()
    assert replay["names"] == ["Ann", "Computer (Beginner)"]
    assert "Ann" in replay["heading"]
    assert all(hand["names"] == ["Ann", "Computer (Beginner)"] for hand in replay["hands"])


@pytest.mark.parametrize("name", ["umtali_game.json", "gin_game.json", "gin_3_hand.json"])
def test_an_older_record_s_you_is_replayed_as_player_n(client: TestClient, name: str) -> None:
    content = (OLD_RECORDS / name).read_bytes()
    seat = json.loads(content)["players"].index("You")
    replay = client.post("/api/replay", content=content).json()
    assert replay["names"][seat] == f"Player {seat + 1}"
    told = json.dumps([replay["heading"], replay["seating"], replay["end"], replay["hands"]])
    assert not re.search(r"\bYou\b", told), "the replay mixes 'You' with 'Player N'"


def test_a_rematch_keeps_the_people_s_names(client: TestClient) -> None:
    rng = random.Random(5)
    created = new_game(client, opponent="person", kind="hand", name="Ann")
    secrets = [seat["secret"] for seat in created["seats"]]
    assert rename(client, secrets[1], "Bob").status_code == 200
    states = [state_of(client, secret) for secret in secrets]
    while not states[0]["over"]:
        mover = 0 if states[0]["your_turn"] else 1
        legal = states[mover]["legal"]
        reply = client.post(f"/api/seat/{secrets[mover]}/move", json={"move": rng.choice(legal)})
        assert reply.status_code == 200, reply.text
        states = [state_of(client, secret) for secret in secrets]
    again = client.post(f"/api/seat/{secrets[0]}/rematch")
    assert again.status_code == 200, again.text
    assert record_players(client, again.json()["seats"][0]["secret"]) == ["Ann", "Bob"]
