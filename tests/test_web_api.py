"""The browser server's API, on an SQLite file and on a real PostgreSQL: whole hands
played by link against the computer and between two people, refusals that change
nothing, forged links, the WebSocket, a restart that loses nothing, the fairness
commitment, and what each seat is sent: no card it may not see, in any message."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.postgres import PostgresServer
from umtali.cards import card_ascii, cards_of, parse_card
from umtali.cli.main import main
from umtali.match import Match
from umtali.moves import Move, MoveKind
from umtali.record import loads
from umtali.state import HandState
from umtali.view import PlayerView
from umtali.web.app import create_app
from umtali.web.store import Store, deck_commitment

JSON = dict[str, Any]


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'umtali.db'}"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.create_database()


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(db_url)) as opened:
        yield opened


def new_game(client: TestClient, **request: Any) -> JSON:
    reply = client.post("/api/games", json=request)
    assert reply.status_code == 201, reply.text
    created: JSON = reply.json()
    return created


def state_of(client: TestClient, secret: str) -> JSON:
    reply = client.get(f"/api/seat/{secret}")
    assert reply.status_code == 200, reply.text
    state: JSON = reply.json()
    return state


def play(client: TestClient, secret: str, move: str) -> JSON:
    reply = client.post(f"/api/seat/{secret}/move", json={"move": move})
    assert reply.status_code == 200, reply.text
    assert reply.json()["accepted"] is True
    state: JSON = reply.json()["state"]
    return state


def stored(db_url: str, game_id: int) -> Match:
    with Store.open(db_url) as store:
        return store.load_match(game_id)


# -- whole hands -------------------------------------------------------------------------------


@pytest.mark.parametrize("level", ["random", "greedy"])
def test_a_whole_hand_against_the_computer(client: TestClient, db_url: str, level: str) -> None:
    created = new_game(client, level=level, kind="hand", seat=1)
    assert [seat["seat"] for seat in created["seats"]] == [1]
    secret = created["seats"][0]["secret"]
    assert len(secret) >= 43  # 256 bits in URL-safe base64
    state = state_of(client, secret)
    assert state["names"][1] == "You"
    moves = 0
    while not state["over"]:
        assert state["your_turn"], state  # the computer never keeps us waiting
        assert state["legal"]
        state = play(client, secret, state["legal"][0])
        moves += 1
    assert moves > 5
    assert state["result"]
    assert state["scores"]["games"][0][1]
    game_id = state["game_id"]
    match = stored(db_url, game_id)
    assert match.is_over()
    # The record is public now, and is the stored game; the deck is the one committed.
    record = client.get(f"/api/games/{game_id}/record")
    assert record.status_code == 200
    assert loads(record.text).hands[0].moves_played() == match.hands[0].moves_played()
    verify = client.get(f"/api/games/{game_id}/hands/0/verify").json()
    assert verify["over"]
    assert verify["commitment"] == state["commitment"]
    deck = [parse_card(name) for name in verify["deck"]]
    assert deck_commitment(bytes.fromhex(verify["salt"]), deck) == verify["commitment"]
    assert tuple(deck) == match.hands[0].deck


def test_two_people_play_a_whole_hand_by_their_links(client: TestClient, db_url: str) -> None:
    created = new_game(client, opponent="person", kind="hand")
    secrets = {seat["seat"]: seat["secret"] for seat in created["seats"]}
    assert sorted(secrets) == [0, 1]
    assert secrets[0] != secrets[1]
    states = {seat: state_of(client, secret) for seat, secret in secrets.items()}
    assert states[0]["names"] == ["You", "Player 2"]
    assert states[1]["names"] == ["Player 1", "You"]
    while not states[0]["over"]:
        mover = 0 if states[0]["your_turn"] else 1
        assert states[mover]["your_turn"]
        assert not states[1 - mover]["your_turn"]
        assert states[1 - mover]["legal"] == []
        played = play(client, secrets[mover], states[mover]["legal"][0])
        states = {seat: state_of(client, secret) for seat, secret in secrets.items()}
        assert played == states[mover]
        assert states[0]["version"] == states[1]["version"]
    assert states[1]["over"]
    assert states[0]["result"]
    assert states[1]["result"]
    assert stored(db_url, created["game_id"]).is_over()


# -- refusals ------------------------------------------------------------------------------------


def test_a_refused_move_changes_nothing(client: TestClient, db_url: str) -> None:
    created = new_game(client, opponent="person", kind="hand")
    secrets = {seat["seat"]: seat["secret"] for seat in created["seats"]}
    before = {seat: state_of(client, secret) for seat, secret in secrets.items()}
    mover = 0 if before[0]["your_turn"] else 1
    moves_before = stored(db_url, created["game_id"]).hands[0].moves_played()
    for seat, move, reason in [
        (1 - mover, before[mover]["legal"][0], "it is not your turn"),
        (mover, "discard Zz", "Zz"),
        (mover, "meld As Ks Qs Js", ""),
        (mover, "draw", ""),  # the dealer first keeps or gives the 11th card
    ]:
        reply = client.post(f"/api/seat/{secrets[seat]}/move", json={"move": move})
        assert reply.status_code == 409, reply.text
        assert reply.json()["accepted"] is False
        assert reason in reply.json()["reason"]
        assert reply.json()["reason"]
    after = {seat: state_of(client, secret) for seat, secret in secrets.items()}
    assert after == before
    assert stored(db_url, created["game_id"]).hands[0].moves_played() == moves_before
    hint = client.get(f"/api/seat/{secrets[1 - mover]}/hint")
    assert hint.status_code == 409
    assert "not your turn" in hint.json()["detail"]
    hint = client.get(f"/api/seat/{secrets[mover]}/hint")
    assert hint.status_code == 200
    assert hint.json()["move"] in before[mover]["legal"]


def test_forged_and_missing_secrets_are_refused(client: TestClient) -> None:
    created = new_game(client, level="random", kind="hand")
    real = created["seats"][0]["secret"]
    forged = real[:-1] + ("A" if real[-1] != "A" else "B")
    for secret in (forged, "x", "0" * 43, "a" * 5000):
        for method, path in [
            ("GET", f"/api/seat/{secret}"),
            ("POST", f"/api/seat/{secret}/move"),
            ("GET", f"/api/seat/{secret}/hint"),
            ("GET", f"/api/seat/{secret}/record"),
        ]:
            reply = client.request(method, path, json={"move": "draw"})
            assert reply.status_code in (404, 422), (path, reply.text)
            if len(secret) < 200:
                assert reply.status_code == 404
                assert "no seat has this link" in reply.json()["detail"]
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect(f"/ws/seat/{secret}") as ws,
        ):
            ws.receive_json()
    assert client.get("/api/games/999/record").status_code == 404
    assert client.get("/api/games/999/hands/0/verify").status_code == 404
    assert client.get("/api/seat/").status_code == 404


def test_malformed_and_oversized_bodies_are_refused(client: TestClient) -> None:
    secret = new_game(client, level="random", kind="hand")["seats"][0]["secret"]
    before = state_of(client, secret)
    path = f"/api/seat/{secret}/move"
    for body in [{"mov": "draw"}, {"move": ""}, {"move": 5}, {"move": "draw", "x": 1}, [1]]:
        reply = client.post(path, json=body)
        assert reply.status_code == 422, reply.text
        assert reply.json()["detail"]
    assert client.post(path, json={"move": "x" * 201}).status_code == 422
    reply = client.post(path, content=b"{", headers={"content-type": "application/json"})
    assert reply.status_code == 422
    huge = b'{"move": "' + b"x" * 20_000 + b'"}'
    reply = client.post(path, content=huge, headers={"content-type": "application/json"})
    assert reply.status_code == 413
    assert "too large" in reply.json()["detail"]

    def chunks() -> Iterator[bytes]:
        yield b'{"move": "'
        for _ in range(40):
            yield b"x" * 1000
        yield b'"}'

    reply = client.post(path, content=chunks(), headers={"content-type": "application/json"})
    assert reply.status_code == 413
    for request in [{"level": "godlike"}, {"opponent": "dog"}, {"kind": "match"}, {"seat": 2}]:
        assert client.post("/api/games", json=request).status_code == 422
    assert state_of(client, secret) == before


def test_a_game_in_play_keeps_its_record_from_strangers(client: TestClient) -> None:
    created = new_game(client, opponent="person")
    game_id, secret = created["game_id"], created["seats"][0]["secret"]
    reply = client.get(f"/api/games/{game_id}/record")
    assert reply.status_code == 403
    assert "still in play" in reply.json()["detail"]
    # A player gets the finished hands only: none yet, and no seed.
    record = client.get(f"/api/seat/{secret}/record").json()
    assert record["hands"] == []
    assert "seed" not in record["meta"]
    verify = client.get(f"/api/games/{game_id}/hands/0/verify").json()
    assert verify["salt"] is None
    assert verify["deck"] is None
    assert not verify["over"]
    assert verify["commitment"] == state_of(client, secret)["commitment"]


# -- the WebSocket and a restart --------------------------------------------------------------


def test_the_socket_sends_the_state_after_the_other_seat_moves(client: TestClient) -> None:
    created = new_game(client, opponent="person", kind="hand")
    secrets = {seat["seat"]: seat["secret"] for seat in created["seats"]}
    mover = 0 if state_of(client, secrets[0])["your_turn"] else 1
    with client.websocket_connect(f"/ws/seat/{secrets[1 - mover]}") as ws:
        first = ws.receive_json()
        assert first == state_of(client, secrets[1 - mover])
        played = play(client, secrets[mover], state_of(client, secrets[mover])["legal"][0])
        pushed = ws.receive_json()
        assert pushed["version"] == played["version"] == first["version"] + 1
        assert pushed == state_of(client, secrets[1 - mover])
        assert pushed["recap"]
        assert pushed["recap"] != first["recap"]


def test_a_restarted_server_loses_nothing(db_url: str) -> None:
    with TestClient(create_app(db_url)) as client:
        secret = new_game(client, level="greedy")["seats"][0]["secret"]
        state = state_of(client, secret)
        for _ in range(12):
            state = play(client, secret, state["legal"][-1])
    with TestClient(create_app(db_url)) as client:
        assert state_of(client, secret) == state
        while not state["over"]:
            state = play(client, secret, state["legal"][0])
        assert len(state["scores"]["games"][0][1]) == 4
    with TestClient(create_app(db_url)) as client:
        assert state_of(client, secret) == state


# -- secrecy -------------------------------------------------------------------------------------


_CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[cdhs♣♦♥♠](?![0-9A-Za-z])")
"""A card's name in either notation (``Kc``, ``K♣``), standing on its own."""


def cards_named(text: str) -> set[int]:
    """Every card ``text`` names, in ASCII or with suit symbols."""
    suits = str.maketrans("♣♦♥♠", "cdhs")
    return {parse_card(found.translate(suits)) for found in _CARD.findall(text)}


def hidden_from(hand: HandState, seat: int) -> set[int]:
    """The cards ``seat`` may not know in ``hand``, worked out from the true state: the
    other player's cards that he did not take from the discard pile, the stock, and
    the discards the other player laid face down (unless taken from the pile before)."""
    other = 1 - seat
    public = hand.ever_taken[other]
    hidden = set(cards_of(hand.hands[other] & ~public)) | set(hand.stock_cards())
    for actor, action in hand.history:
        move = Move.from_action(action)
        if actor == other and move.face_down:
            card = move.discard if move.kind is MoveKind.PAIR else move.cards[0]
            assert card is not None
            if not public >> card & 1:
                hidden.add(card)
    return hidden


def strings(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield key
            yield from strings(value)
    elif isinstance(data, list):
        for item in data:
            yield from strings(item)


@dataclass
class Sent:
    """Everything the server sent to seats, each with the state it was sent in."""

    messages: list[tuple[int, int, int, int, Any]] = field(default_factory=list)

    def add(self, game_id: int, seat: int, state: JSON, payload: Any) -> None:
        """Note ``payload``, sent to ``seat`` when its state was ``state``. The parts of
        a message that speak of another moment are checked against that moment: an
        accepted move's sentence against the hand it was played in, the last hand's end
        against that hand as it ended."""
        if isinstance(payload, dict) and payload.get("accepted") is True:
            where = (payload["hand_index"], payload["move_index"] + 1)
            self.messages.append((game_id, seat, *where, payload["sentence"]))
            payload = payload["state"]
        if isinstance(payload, dict) and payload.get("type") == "state":
            previous = payload["previous"]
            if previous is not None:
                self.messages.append((game_id, seat, previous["hand_index"], -1, previous))
            payload = {k: v for k, v in payload.items() if k != "previous"}
        moves = len(state["view"]["history"])
        self.messages.append((game_id, seat, state["hand_index"], moves, payload))


def play_randomly(client: TestClient, sent: Sent, rng: random.Random, request: JSON) -> int:
    """Play a game to its end with random legal moves (and some refused ones, hints and
    record requests), through the API and each seat's socket, noting every message."""
    created = new_game(client, **request)
    game_id: int = created["game_id"]
    secrets = {seat["seat"]: seat["secret"] for seat in created["seats"]}
    sockets = {
        seat: client.websocket_connect(f"/ws/seat/{secret}") for seat, secret in secrets.items()
    }
    for socket in sockets.values():
        socket.__enter__()
    try:
        states = {}
        for seat, secret in secrets.items():
            states[seat] = state_of(client, secret)
            sent.add(game_id, seat, states[seat], states[seat])

        def drain(version: int) -> None:
            for seat, socket in sockets.items():
                while True:
                    pushed = socket.receive_json()
                    sent.add(game_id, seat, pushed, pushed)
                    if pushed["version"] == version:
                        states[seat] = pushed
                        break

        drain(states[min(secrets)]["version"])
        while not states[min(secrets)]["over"]:
            mover = next(seat for seat in secrets if states[seat]["your_turn"])
            secret = secrets[mover]
            if rng.random() < 0.05:
                # Refused moves name only the seat's own cards: the reason is scanned.
                own = states[mover]["view"]["hand"]
                wrong = (
                    f"discard {own[0]}"
                    if own and states[mover]["view"]["phase"] == "draw"
                    else "draw"
                )
                refused = client.post(f"/api/seat/{secret}/move", json={"move": wrong}).json()
                sent.add(game_id, mover, states[mover], refused)
                for seat in secrets.keys() - {mover}:
                    refused = client.post(
                        f"/api/seat/{secrets[seat]}/move", json={"move": "draw"}
                    ).json()
                    assert refused == {"accepted": False, "reason": "it is not your turn"}
                hint = client.get(f"/api/seat/{secret}/hint").json()
                sent.add(game_id, mover, states[mover], hint)
                # The record a player may have in play holds finished hands only.
                record = client.get(f"/api/seat/{secret}/record").json()
                assert all("scores" in hand for hand in record["hands"])
                assert len(record["hands"]) == states[mover]["hand_index"]
            legal = states[mover]["legal"]
            reply = client.post(
                f"/api/seat/{secret}/move", json={"move": legal[rng.randrange(len(legal))]}
            ).json()
            sent.add(game_id, mover, reply["state"], reply)
            drain(reply["state"]["version"])
            for seat in secrets:
                fetched = state_of(client, secrets[seat])
                assert fetched == states[seat]
                sent.add(game_id, seat, fetched, fetched)
    finally:
        for socket in sockets.values():
            socket.__exit__(None, None, None)
    return game_id


def test_no_seat_is_ever_sent_a_card_it_may_not_see(db_url: str) -> None:
    """Over every message of many complete random games, against the computer and
    between two people, no card hidden from the seat appears anywhere in what it is
    sent: the messages are scanned for card names, in both notations. What is sent does
    not depend on the database, so PostgreSQL plays fewer games than SQLite's 52."""
    rng = random.Random(13)
    sent = Sent()
    singles = 50 if db_url.startswith("sqlite") else 10
    requests: list[JSON] = [
        {"opponent": "computer", "level": "random", "kind": "hand", "seat": i % 2}
        if i % 5 < 3
        else {"opponent": "person", "kind": "hand"}
        for i in range(singles)
    ]
    requests += [{"opponent": "computer", "level": "random"}, {"opponent": "person"}]
    with TestClient(create_app(db_url)) as client:
        games = [play_randomly(client, sent, rng, request) for request in requests]
    with Store.open(db_url) as store:
        matches = {game_id: store.load_match(game_id) for game_id in games}
    assert all(match.is_over() for match in matches.values())
    hidden_at: dict[tuple[int, int, int, int], set[int]] = {}
    named = 0
    for game_id, seat, hand_index, moves, payload in sent.messages:
        key = (game_id, seat, hand_index, moves)
        if key not in hidden_at:
            truth = matches[game_id].hands[hand_index]
            hand = HandState(truth.deck, truth.dealer, truth.rules)
            for move in truth.moves_played()[: None if moves < 0 else moves]:
                hand.push(move)
            hidden_at[key] = hidden_from(hand, seat)
        found = cards_named("\n".join(strings(payload)))
        leaked = found & hidden_at[key]
        assert not leaked, (
            f"game {game_id}, seat {seat}, hand {hand_index}, after {moves} moves:"
            f" {' '.join(card_ascii(c) for c in leaked)} hidden from the seat but sent: {payload!r}"
        )
        named += bool(found)
    assert len(sent.messages) > 100 * len(requests)
    assert named > len(sent.messages) // 2  # the scan sees cards: the seat's own, the table's


def test_a_face_down_discard_stays_hidden_under_a_later_one() -> None:
    """Found by the scan above: the player who goes out may lay his discard face down,
    and the other then plays his last turn and discards on top of it. The face-down
    card must stay hidden from him, whoever laid the pile's top card."""
    covered = 0
    for seed in range(1500):
        rng = random.Random(seed)
        hand = HandState.from_seed(seed, dealer=seed % 2)
        while not hand.is_over():
            legal = hand.legal_actions()
            hand.push(legal[rng.randrange(len(legal))])
        for seat in (0, 1):
            hidden = hidden_from(hand, seat)
            shown = PlayerView.of(hand, seat).discard_pile
            for (card, face_down), seen in zip(hand.discard_pile(), shown, strict=True):
                if face_down and card in hidden:
                    assert seen is None, f"seed {seed}: {card_ascii(card)} shown to seat {seat}"
                    covered += bool(hand.pile[-1] & 63 != card)
    assert covered > 10  # face-down cards under a later discard were met


def test_serve_refuses_a_database_it_cannot_use(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--db", "mysql://somewhere/umtali"]) == 2
    assert "SQLite or PostgreSQL" in capsys.readouterr().err


def test_the_computer_replies_after_a_restart_that_came_first(db_url: str) -> None:
    """A process that stored a person's move and stopped before the computer's reply:
    the next process to read the game plays the reply, then shows the person his turn."""
    with TestClient(create_app(db_url)) as client:
        created = new_game(client, level="greedy", kind="hand")
        secret, game_id = created["seats"][0]["secret"], created["game_id"]
        state = state_of(client, secret)
    with Store.open(db_url) as store:
        match = store.load_match(game_id)
        hand = match.hands[-1]
        assert hand.player == 0
        while hand.player == 0 and not hand.is_over():  # his turn, stored as a server would
            hand.push(hand.legal_actions()[0])
            outcome = hand.outcome()
            store.append_move(
                game_id,
                0,
                len(hand.history) - 1,
                hand.moves_played()[-1].text(),
                scores=None if outcome is None else outcome.scores,
            )
        stopped_at = len(hand.history)
    with TestClient(create_app(db_url)) as client:
        resumed = state_of(client, secret)
        assert resumed["your_turn"] or resumed["over"]
        assert len(resumed["view"]["history"]) > stopped_at > len(state["view"]["history"])
        assert resumed["recap"]
