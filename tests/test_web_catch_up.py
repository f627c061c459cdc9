"""Two server processes on one PostgreSQL database, each holding a copy of the same
game: a change stored by one reaches the other as a notice, and the other brings its
copy up to date from what was stored since (the hands dealt and the moves played after
it) instead of reading the whole game again. Where the news does not follow on from
its copy (a seat handed to the computer), it reads the game whole. Either way each seat
is shown exactly what a process that reads the game afresh shows it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.postgres import PostgresServer
from tests.test_web_api import app_on, new_game, play, state_of, without_presence
from tests.test_web_gin import gin_move
from umtali.web.server import GameServer
from umtali.web.store import SeatRef, Store

JSON = dict[str, Any]

HANG_SECONDS = 60.0
"""Only a lost notice makes a test wait this long: notices come in milliseconds."""


@pytest.fixture
def pg_url(postgres_server: PostgresServer) -> str:
    return postgres_server.create_database()


def server_of(client: TestClient) -> GameServer:
    server: GameServer = client.app.state.server  # type: ignore[attr-defined]
    return server


def wait_for(condition: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + HANG_SECONDS
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {HANG_SECONDS} s for {what}")
        time.sleep(0.005)


def hand_between_people(client: TestClient) -> tuple[int, dict[int, str]]:
    """A new hand between two people: its game id and each seat's secret."""
    created = new_game(client, opponent="person", kind="hand")
    return created["game_id"], {seat["seat"]: seat["secret"] for seat in created["seats"]}


def move_for(state: JSON, rng: random.Random) -> str:
    """A move that ends games soon enough: Gin Rummy's test player, else any legal move."""
    if state["game"] == "gin":
        return gin_move(state, rng)
    legal: list[str] = state["legal"]
    return rng.choice(legal)


def test_a_notice_brings_the_other_copy_up_to_date_without_a_whole_read(pg_url: str) -> None:
    with TestClient(app_on(pg_url)) as first, TestClient(app_on(pg_url)) as second:
        game_id, secrets = hand_between_people(first)
        states = {seat: state_of(second, secret) for seat, secret in secrets.items()}
        other = server_of(second)
        reads = other.reads
        mover = 0 if states[0]["your_turn"] else 1
        played = play(first, secrets[mover], states[mover]["legal"][0])
        wait_for(lambda: other.behind(game_id), "the notice")
        assert without_presence(state_of(second, secrets[mover])) == without_presence(played)
        assert (other.reads, other.catch_ups) == (reads, 1)
        # Its own changes outdate nothing: the first process's copy is current.
        assert server_of(first).in_memory(game_id)
        assert not server_of(first).behind(game_id)


@pytest.mark.parametrize(
    "request_body",
    [
        {"game": "umtali", "opponent": "person", "kind": "game"},
        {"game": "gin", "opponent": "person", "rules": "oklahoma"},
        {"game": "klaberjass", "opponent": "person"},
        {"game": "gin", "players": 4, "invite": [1, 2, 3]},
    ],
    ids=["umtali", "gin", "klaberjass", "gin-four-hand"],
)
def test_moves_sent_to_either_process_keep_both_copies_exact(
    pg_url: str, request_body: JSON
) -> None:
    """Every move goes to one of the two processes at random, and every seat then reads
    its state from the other: over several hands (new deals among the news), both
    processes show each seat what a third process reading the game afresh shows it, and
    nearly every notice is caught up with rather than read whole."""
    rng = random.Random(24)
    with TestClient(app_on(pg_url)) as first, TestClient(app_on(pg_url)) as second:
        processes = (first, second)
        created = new_game(first, **request_body)
        secrets = {seat["seat"]: seat["secret"] for seat in created["seats"]}
        game_id = created["game_id"]
        states = {seat: state_of(second, secret) for seat, secret in secrets.items()}
        moves = 0
        while not all(state["over"] for state in states.values()) and moves < 400:
            hands = max(state["hand_index"] for state in states.values())
            if hands >= 3:
                break
            movers = [seat for seat, state in states.items() if state["your_turn"]]
            assert movers, states
            mover = rng.choice(movers)
            here = rng.randrange(2)
            states[mover] = play(processes[here], secrets[mover], move_for(states[mover], rng))
            moves += 1
            there = processes[1 - here]
            wait_for(partial(server_of(there).behind, game_id), "the notice")
            states = {seat: state_of(there, secret) for seat, secret in secrets.items()}
        assert moves >= 20
        with TestClient(app_on(pg_url)) as third:
            fresh = {seat: state_of(third, secret) for seat, secret in secrets.items()}
            for process in processes:
                shown = {seat: state_of(process, secret) for seat, secret in secrets.items()}
                assert without_presence(shown) == without_presence(fresh)
        catch_ups = sum(server_of(process).catch_ups for process in processes)
        reads = sum(server_of(process).reads for process in processes)
        # A whole read each at the start; one more now and then, where both processes
        # dealt the next hand at once and one lost the race.
        assert catch_ups >= moves * 0.4
        assert reads <= 2 + hands + 1


def test_a_seat_handed_over_elsewhere_is_read_whole(pg_url: str) -> None:
    with TestClient(app_on(pg_url)) as client:
        game_id, secrets = hand_between_people(client)
        server = server_of(client)
        before = state_of(client, secrets[0])
        assert not before["opponent"]["handed_over"]
        reads = server.reads
        with Store.open(pg_url) as other:
            other.hand_over(SeatRef(game_id, 1), True)
        wait_for(lambda: server.behind(game_id), "the notice")
        after = state_of(client, secrets[1])
        assert after["handed_over"]
        assert after["legal"] == []
        assert server.reads == reads + 1
        assert server.catch_ups == 0


def test_news_that_does_not_follow_on_is_read_whole(pg_url: str) -> None:
    """A move stored by another process that the copy's own engine refuses (here, one
    written straight into the database that no engine would play) is never half
    applied: the copy is dropped and the game is read whole, which then refuses to
    replay it, as a stored game that breaks the rules must: the seat is told there is
    no such game, and nothing of it stays in memory."""
    with TestClient(app_on(pg_url)) as client:
        game_id, secrets = hand_between_people(client)
        server = server_of(client)
        state = state_of(client, secrets[0])
        with Store.open(pg_url) as other:
            other.append_move(game_id, state["hand_index"], 0, "meld AS KS QS")
        wait_for(lambda: server.behind(game_id), "the notice")
        reply = client.get(f"/api/seat/{secrets[0]}")
        assert reply.status_code == 404
        assert "does not replay" in reply.json()["detail"]
        assert server.catch_ups == 0
        assert not server.in_memory(game_id)
