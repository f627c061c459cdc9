"""Live play in one server process, on SQLite and PostgreSQL: moves over the WebSocket
and what bad messages get, rate limits, presence, the hand-over of an absent player's
seat to the computer and its reclaim, questions (why), rematches, and a stale copy in
memory that must never make a legal move fail."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.test_web_api import app_on, new_game, play, state_of, stored
from umtali.web.server import LocalBroadcaster, RateLimit
from umtali.web.store import Store

JSON = dict[str, Any]


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(app_on(db_url)) as opened:
        yield opened


def two_people(client: TestClient, **request: Any) -> tuple[int, dict[int, str], int]:
    """A new game between two people: its id, each seat's secret, the seat to move."""
    created = new_game(client, opponent="person", kind="hand", **request)
    secrets = {seat["seat"]: seat["secret"] for seat in created["seats"]}
    mover = 0 if state_of(client, secrets[0])["your_turn"] else 1
    return created["game_id"], secrets, mover


def read_until(ws: Any, kind: str) -> JSON:
    """The next message of ``kind`` on the socket, skipping states."""
    while True:
        message: JSON = ws.receive_json()
        if message["type"] == kind:
            return message
        assert message["type"] == "state", message


# -- moves over the socket ------------------------------------------------------------------------


def test_moves_over_the_socket_are_answered_by_their_id(client: TestClient, db_url: str) -> None:
    game_id, secrets, mover = two_people(client)
    with client.websocket_connect(f"/ws/seat/{secrets[mover]}") as ws:
        first = ws.receive_json()
        assert first["type"] == "state"
        assert first["your_turn"]
        ws.send_json({"type": "ping"})
        assert read_until(ws, "pong") == {"type": "pong"}
        ws.send_json({"type": "move", "move": "discard Zz", "id": 7})
        refused = read_until(ws, "refused")
        assert refused["id"] == 7
        assert "Zz" in refused["reason"]
        http = client.post(f"/api/seat/{secrets[mover]}/move", json={"move": "discard Zz"})
        assert refused["reason"] == http.json()["reason"]  # the engine's reason, unchanged
        move = first["legal"][0]
        ws.send_json({"type": "move", "move": move, "id": 8})
        accepted = read_until(ws, "accepted")
        assert accepted["id"] == 8
        assert accepted["move"] == move
        assert accepted["version"] == first["version"] + 1
        assert (accepted["hand_index"], accepted["move_index"]) == (0, 0)
        assert accepted["sentence"]
        pushed = read_until(ws, "state")
        assert pushed["version"] == accepted["version"]
    assert stored(db_url, game_id).hands[0].moves_played()[0].text() == move
    with client.websocket_connect(f"/ws/seat/{secrets[1 - mover]}") as ws:
        assert ws.receive_json()["version"] == accepted["version"]
        ws.send_json({"type": "move", "move": "draw"})
        assert read_until(ws, "refused") == {
            "type": "refused",
            "id": None,
            "reason": "It is not your turn.",
            "rule": None,
        }


def test_bad_socket_messages_get_an_error_and_the_socket_stays(client: TestClient) -> None:
    _game_id, secrets, mover = two_people(client)
    with client.websocket_connect(f"/ws/seat/{secrets[mover]}") as ws:
        state = ws.receive_json()
        for sent, expected in [
            ("{", "not JSON"),
            ("[1, 2]", '"type" is "move"'),
            ('{"type": "shout", "id": 3}', '"shout"'),
            ('{"type": "move", "id": 4}', "move: Field required"),
            ('{"type": "move", "move": "draw", "id": 5, "x": 1}', "x: Extra inputs"),
            ('{"type": "move", "move": "' + "x" * 5000 + '"}', "too long: at most 4,096 bytes"),
        ]:
            ws.send_text(sent)
            error = read_until(ws, "error")
            assert expected in error["detail"], (sent[:40], error)
            if '"id": 3' in sent:
                assert error["id"] == 3
        ws.send_bytes(b'{"type": "ping"}')
        assert "as JSON text" in read_until(ws, "error")["detail"]
        ws.send_json({"type": "move", "move": state["legal"][0], "id": 9})
        assert read_until(ws, "accepted")["id"] == 9


def test_a_flooding_socket_is_told_then_closed(db_url: str) -> None:
    with TestClient(app_on(db_url, socket_messages=RateLimit(rate=10, burst=20))) as client:
        _game_id, secrets, mover = two_people(client)
        with client.websocket_connect(f"/ws/seat/{secrets[mover]}") as ws:
            ws.receive_json()
            for _ in range(100):
                ws.send_json({"type": "ping"})
            answers: list[JSON] = []

            def read_all() -> None:
                while True:
                    answers.append(ws.receive_json())

            with pytest.raises(WebSocketDisconnect) as closed:
                read_all()
        assert closed.value.code == 1008
        kinds = [answer["type"] for answer in answers if answer["type"] != "state"]
        assert 20 <= kinds.count("pong") < 30  # the burst, and what came back meanwhile
        assert 10 <= kinds.count("error") <= 25
        assert all(
            "too many messages" in answer["detail"]
            for answer in answers
            if answer["type"] == "error"
        )


def test_a_seat_over_its_http_limit_is_answered_429(db_url: str) -> None:
    # Twenty at once, and so slow a refill that none comes back during the test, however
    # slow the machine: the 21st request is over the limit.
    with TestClient(app_on(db_url, seat_requests=RateLimit(rate=0.01, burst=20))) as client:
        _game_id, secrets, mover = two_people(client)
        codes = [
            client.post(f"/api/seat/{secrets[mover]}/why", json={"move": "draw"}).status_code
            for _ in range(30)
        ]
        assert codes == [200] * 20 + [429] * 10
        refused = client.get(f"/api/seat/{secrets[mover]}/hint")
        assert refused.status_code == 429
        assert "too many requests for this seat" in refused.json()["detail"]
        assert int(refused.headers["retry-after"]) >= 1
        # Another seat has its own limit; reading a state is not limited.
        other = client.post(f"/api/seat/{secrets[1 - mover]}/why", json={"move": "draw"})
        assert other.status_code == 200
        assert state_of(client, secrets[mover])["your_turn"]


# -- why ------------------------------------------------------------------------------------------


def test_why_tells_the_engines_reason_and_plays_nothing(client: TestClient, db_url: str) -> None:
    game_id, secrets, mover = two_people(client)
    before = state_of(client, secrets[mover])
    for move in before["legal"]:
        reply = client.post(f"/api/seat/{secrets[mover]}/why", json={"move": move}).json()
        assert reply == {"legal": True, "reason": None, "rule": None}
    for move in ["discard Zz", "draw", "meld As Ks Qs Js"]:
        reply = client.post(f"/api/seat/{secrets[mover]}/why", json={"move": move}).json()
        refused = client.post(f"/api/seat/{secrets[mover]}/move", json={"move": move}).json()
        assert reply == {"legal": False, "reason": refused["reason"], "rule": refused["rule"]}
    other = client.post(f"/api/seat/{secrets[1 - mover]}/why", json={"move": "draw"}).json()
    assert other == {"legal": False, "reason": "It is not your turn.", "rule": None}
    after = state_of(client, secrets[mover])
    assert after["version"] == before["version"]
    assert after["view"] == before["view"]
    assert stored(db_url, game_id).hands[0].moves_played() == []
    assert client.post(f"/api/seat/{secrets[mover]}/why", json={"mov": "x"}).status_code == 422


# -- presence, hand-over, reclaim -----------------------------------------------------------------


def test_an_absent_players_seat_is_handed_over_and_reclaimed(db_url: str) -> None:
    clock = Clock()
    with TestClient(app_on(db_url, clock=clock, grace=90)) as client:
        game_id, secrets, _mover = two_people(client, level="random")
        me, away = 0, 1
        # Seat 1 has not opened its link since the game was made.
        mine = state_of(client, secrets[me])
        assert mine["opponent"] == {
            "kind": "person",
            "present": False,
            "away_seconds": 0,
            "can_hand_over": False,
            "handed_over": False,
        }
        early = client.post(f"/api/seat/{secrets[me]}/hand-over")
        assert early.status_code == 409
        assert "once Player 2 has been away 90 seconds" in early.json()["detail"]
        state_of(client, secrets[away])  # he comes, and goes
        present = state_of(client, secrets[me])["opponent"]
        assert present["present"]
        assert present["away_seconds"] is None
        here = client.post(f"/api/seat/{secrets[me]}/hand-over")
        assert here.status_code == 409
        assert "Player 2 is here" in here.json()["detail"]
        clock.advance(60)
        assert state_of(client, secrets[me])["opponent"]["away_seconds"] == 60
        assert client.post(f"/api/seat/{secrets[me]}/hand-over").status_code == 409
        clock.advance(31)
        offered = state_of(client, secrets[me])["opponent"]
        assert offered["can_hand_over"]
        assert not offered["present"]
        handed = client.post(f"/api/seat/{secrets[me]}/hand-over")
        assert handed.status_code == 200, handed.text
        state = handed.json()
        assert state["opponent"]["handed_over"]
        assert not state["opponent"]["can_hand_over"]
        assert state["your_turn"] or state["over"]  # the computer moved at once
        # Asked again: nothing changes.
        assert client.post(f"/api/seat/{secrets[me]}/hand-over").json() == state
        moves = 0
        while not state["over"] and moves < 12:
            state = play(client, secrets[me], state["legal"][0])
            moves += 1
            assert state["your_turn"] or state["over"]
    # Stored: another process (here, a restart) knows the computer plays seat 1.
    with TestClient(app_on(db_url, clock=clock, grace=90)) as client:
        theirs = state_of(client, secrets[away])
        assert theirs["handed_over"]
        assert theirs["legal"] == []
        refused = client.post(f"/api/seat/{secrets[away]}/move", json={"move": "draw"})
        assert refused.status_code == 409
        assert "reclaim" in refused.json()["reason"]
        if state["over"]:
            return
        reclaimed = client.post(f"/api/seat/{secrets[away]}/reclaim")
        assert reclaimed.status_code == 200
        assert not reclaimed.json()["handed_over"]
        assert client.post(f"/api/seat/{secrets[away]}/reclaim").json() == reclaimed.json()
        mine = state_of(client, secrets[me])
        assert not mine["opponent"]["handed_over"]
        assert mine["opponent"]["present"]
        # The game goes on between the two people: the computer no longer moves for him.
        while not mine["your_turn"]:
            theirs = play(client, secrets[away], state_of(client, secrets[away])["legal"][0])
            mine = state_of(client, secrets[me])
        assert not state_of(client, secrets[away])["your_turn"]
        assert stored(db_url, game_id).hands[0].moves_played()


def test_a_game_against_the_computer_has_no_hand_over(client: TestClient) -> None:
    secret = new_game(client, level="random", kind="hand")["seats"][0]["secret"]
    state = state_of(client, secret)
    assert state["opponent"]["kind"] == "computer"
    assert not state["opponent"]["can_hand_over"]
    reply = client.post(f"/api/seat/{secret}/hand-over")
    assert reply.status_code == 409
    assert "against the computer" in reply.json()["detail"]


def test_the_socket_tells_when_the_other_player_comes(db_url: str) -> None:
    with TestClient(app_on(db_url, grace=3)) as client:
        _game_id, secrets, _mover = two_people(client)
        with client.websocket_connect(f"/ws/seat/{secrets[0]}") as ws:
            assert not ws.receive_json()["opponent"]["present"]
            with client.websocket_connect(f"/ws/seat/{secrets[1]}") as other:
                other.receive_json()
                while not (state := read_until(ws, "state"))["opponent"]["present"]:
                    pass
                assert state["opponent"]["away_seconds"] is None
            # Gone: once the presence window (two heartbeats of 1 s) has passed, he is
            # away, and once the grace has passed too, his seat may be handed over.
            while not (state := read_until(ws, "state"))["opponent"]["can_hand_over"]:
                assert state["opponent"]["away_seconds"] is None or not state["opponent"]["present"]
            assert not state["opponent"]["present"]
            assert state["opponent"]["away_seconds"] >= 3


# -- rematch --------------------------------------------------------------------------------------


def finish(client: TestClient, secrets: dict[int, str]) -> None:
    states = {seat: state_of(client, secret) for seat, secret in secrets.items()}
    while not states[0]["over"]:
        mover = 0 if states[0]["your_turn"] else 1
        play(client, secrets[mover], states[mover]["legal"][0])
        states = {seat: state_of(client, secret) for seat, secret in secrets.items()}


def test_a_rematch_gives_each_player_his_own_new_link(client: TestClient, db_url: str) -> None:
    game_id, secrets, _mover = two_people(client, level="random")
    early = client.post(f"/api/seat/{secrets[0]}/rematch")
    assert early.status_code == 409
    assert "still being played" in early.json()["detail"]
    assert state_of(client, secrets[1])["rematch"] is None
    finish(client, secrets)
    assert state_of(client, secrets[1])["rematch"] is None  # nobody asked yet
    first = client.post(f"/api/seat/{secrets[0]}/rematch")
    assert first.status_code == 200, first.text
    mine = first.json()
    assert [link["seat"] for link in mine["seats"]] == [0]
    assert mine["game_id"] != game_id
    # The other player is offered his own link, in his state only.
    theirs = state_of(client, secrets[1])["rematch"]
    assert theirs["game_id"] == mine["game_id"]
    assert [link["seat"] for link in theirs["seats"]] == [1]
    new_secrets = {0: mine["seats"][0]["secret"], 1: theirs["seats"][0]["secret"]}
    assert len(set(new_secrets.values()) | set(secrets.values())) == 4
    assert state_of(client, secrets[0])["rematch"] == mine
    # Whoever asks again, or second, lands in the same game with the same link.
    assert client.post(f"/api/seat/{secrets[0]}/rematch").json() == mine
    assert client.post(f"/api/seat/{secrets[1]}/rematch").json() == theirs
    new = {seat: state_of(client, secret) for seat, secret in new_secrets.items()}
    assert new[0]["game_id"] == new[1]["game_id"] == mine["game_id"]
    assert (new[0]["seat"], new[1]["seat"]) == (0, 1)
    assert new[0]["kind"] == "hand"
    assert not new[0]["over"]
    assert new[0]["your_turn"] != new[1]["your_turn"]
    # The new links are kept as hashes only, like every link.
    with Store.open(db_url) as store, store.engine.connect() as connection:
        rows = connection.exec_driver_sql(
            f"SELECT seat, secret_hash FROM seats WHERE game_id = {mine['game_id']}"
        ).all()
    assert sorted(rows) == [
        (seat, hashlib.sha256(secret.encode()).hexdigest()) for seat, secret in new_secrets.items()
    ]


def test_a_rematch_against_the_computer(client: TestClient) -> None:
    created = new_game(client, level="random", kind="hand", seat=1)
    secret = created["seats"][0]["secret"]
    state = state_of(client, secret)
    while not state["over"]:
        state = play(client, secret, state["legal"][0])
    again = client.post(f"/api/seat/{secret}/rematch").json()
    new = state_of(client, again["seats"][0]["secret"])
    assert new["seat"] == 1
    assert new["names"] == state["names"]
    assert new["opponent"]["kind"] == "computer"
    assert new["your_turn"]


# -- a stale copy in memory -----------------------------------------------------------------------


def test_a_stale_copy_never_makes_a_legal_move_fail(db_url: str) -> None:
    """Two servers on one database that do not hear of each other's changes (a lost
    notice): each move played through the other is refused by the stale copy or loses
    the race to its index, and is then tried again against the game read afresh."""
    first = TestClient(app_on(db_url, broadcaster=LocalBroadcaster()))
    second = TestClient(app_on(db_url, broadcaster=LocalBroadcaster()))
    with first, second:
        game_id, secrets, _mover = two_people(first)
        for secret in secrets.values():
            assert state_of(second, secret) == state_of(first, secret)  # both hold it now
        servers = [first, second]
        played = 0
        state = state_of(first, secrets[0])
        while not state["over"]:
            through = servers[played % 2]
            # The seat to move as the database has it: read fresh in the server that
            # played last, which is up to date.
            fresh = {seat: state_of(servers[(played + 1) % 2], s) for seat, s in secrets.items()}
            mover = 0 if fresh[0]["your_turn"] else 1
            reply = through.post(
                f"/api/seat/{secrets[mover]}/move", json={"move": fresh[mover]["legal"][-1]}
            )
            assert reply.status_code == 200, reply.text
            state = reply.json()["state"]
            played += 1
        assert played > 5
        assert stored(db_url, game_id).is_over()
