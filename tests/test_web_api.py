"""The browser server's API, on an SQLite file and on a real PostgreSQL: whole hands
played by link against the computer and between two people, refusals that change
nothing, forged links, the WebSocket, a restart that loses nothing, the fairness
commitment, and what each seat is sent: no card it may not see, in any message."""

from __future__ import annotations

import math
import random
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from tests.postgres import PostgresServer
from tests.servers import BOT_SECONDS
from tests.test_view import hidden_from
from umtali.cli.main import main
from umtali.games.umtali.match import Match
from umtali.games.umtali.moves import Move, MoveKind
from umtali.games.umtali.notation import parse_move
from umtali.games.umtali.record import loads
from umtali.games.umtali.state import HandState
from umtali.kernel.cards import card_ascii, card_name, cards_of, parse_card
from umtali.web.app import create_app
from umtali.web.capacity import Capacity
from umtali.web.server import RateLimit
from umtali.web.store import SECRET_BYTES, Store, deck_commitment

JSON = dict[str, Any]


UNLIMITED = RateLimit(rate=1e6, burst=1e6)
"""No limit on a seat's requests: the tests play far faster than a person."""


ROOMY: Final = Capacity(games_per_minute=10_000, bot_seconds=BOT_SECONDS)
"""New games without a limit to speak of: the tests make many from one address; and the
computer's moves and hints thought over for the tests' budget, not a second."""


def app_on(db_url: str, **options: Any) -> FastAPI:
    """The application over ``db_url``, with no limit on each seat's requests unless
    ``options`` set one."""
    options.setdefault("seat_requests", UNLIMITED)
    options.setdefault("socket_messages", UNLIMITED)
    options.setdefault("capacity", ROOMY)
    return create_app(db_url, **options)


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(app_on(db_url)) as opened:
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


def without_presence(data: Any) -> Any:
    """A state (or states by seat) without ``opponent``: whether the other player is
    here changes as he comes and goes, not with the game."""
    if isinstance(data, dict) and data.get("type") == "state":
        return {key: value for key, value in data.items() if key != "opponent"}
    if isinstance(data, dict):
        return {key: without_presence(value) for key, value in data.items()}
    return data


def stored(db_url: str, game_id: int) -> Match:
    """The stored game of Umtali ``game_id``, replayed."""
    with Store.open(db_url) as store:
        match = store.load_match(game_id)
    assert isinstance(match, Match)
    return match


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
        assert reason.lower() in reply.json()["reason"].lower()
        assert reply.json()["reason"]
    after = {seat: state_of(client, secret) for seat, secret in secrets.items()}
    assert without_presence(after) == without_presence(before)
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
        # The other player's coming (his requests mark him present) may be told first,
        # in a state of the same version: the move comes in the next.
        while pushed["version"] == first["version"]:
            pushed = ws.receive_json()
        assert pushed["version"] == played["version"] == first["version"] + 1
        assert pushed == state_of(client, secrets[1 - mover])
        assert pushed["recap"]
        assert pushed["recap"] != first["recap"]


def test_a_restarted_server_loses_nothing(db_url: str) -> None:
    with TestClient(app_on(db_url)) as client:
        secret = new_game(client, level="greedy")["seats"][0]["secret"]
        state = state_of(client, secret)
        for _ in range(12):
            state = play(client, secret, state["legal"][-1])
    with TestClient(app_on(db_url)) as client:
        assert state_of(client, secret) == state
        while not state["over"]:
            state = play(client, secret, state["legal"][0])
        assert len(state["scores"]["games"][0][1]) == 4
    with TestClient(app_on(db_url)) as client:
        assert state_of(client, secret) == state


# -- secrecy -------------------------------------------------------------------------------------


_CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[cdhs♣♦♥♠](?![0-9A-Za-z])")
"""A card's name in either notation (``Kc``, ``K♣``), standing on its own."""


_SECRET = re.compile(rf"(?<![\w-])[\w-]{{{math.ceil(SECRET_BYTES * 4 / 3)}}}(?![\w-])", re.ASCII)
"""A seat's secret: random URL-safe base64, which may end in ``-Ac`` or hold ``_9h_`` by
chance, though it says nothing of the cards."""


def cards_named(text: str) -> set[int]:
    """Every card ``text`` names, in ASCII or with suit symbols, outside the seats'
    secrets."""
    suits = str.maketrans("♣♦♥♠", "cdhs")
    text = _SECRET.sub("<secret>", text)
    return {parse_card(found.translate(suits)) for found in _CARD.findall(text)}


def test_the_scan_reads_card_names_but_not_a_secret_that_ends_like_one() -> None:
    # A secret the server once sent, which failed the scan: its last three characters.
    secret = "F-ISsmNd__3Uh9r_s2ToYZ4HlWMltjMC9rtAAV_m-Ac"
    assert len(secret) == math.ceil(SECRET_BYTES * 4 / 3)
    text = f"/api/seat/{secret}\nYou laid Ac-2c-3c; 10♥ on the pile; {secret}"
    assert {card_ascii(c) for c in cards_named(text)} == {"Ac", "2c", "3c", "10h"}
    # Only a run of a secret's length is passed over: one character short, it is read.
    assert {card_ascii(c) for c in cards_named(secret[1:])} == {"Ac"}


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
        if isinstance(payload, dict) and (
            payload.get("accepted") is True or payload.get("type") == "accepted"
        ):
            where = (payload["hand_index"], payload["move_index"] + 1)
            if "state" not in payload:  # over the socket: the move's answer alone
                self.messages.append((game_id, seat, *where, payload))
                return
            self.messages.append((game_id, seat, *where, payload["sentence"]))
            payload = payload["state"]
        if isinstance(payload, dict) and payload.get("type") == "state":
            previous = payload["previous"]
            if previous is not None:
                self.messages.append((game_id, seat, previous["hand_index"], ENDED, previous))
            payload = {k: v for k, v in payload.items() if k != "previous"}
        moves = len(state["view"]["history"])
        self.messages.append((game_id, seat, state["hand_index"], moves, payload))


@dataclass
class RandomPlayer:
    """Plays games to their end with random legal moves, through every door a seat
    has: moves by HTTP and over the WebSocket, refused moves, hints, questions (why),
    records, and a rematch at the end; every message each seat is sent is noted."""

    client: TestClient
    sent: Sent
    rng: random.Random
    game_id: int = 0
    secrets: dict[int, str] = field(default_factory=dict)
    sockets: dict[int, Any] = field(default_factory=dict)
    states: dict[int, JSON] = field(default_factory=dict)

    def note(self, seat: int, payload: Any, state: JSON | None = None) -> None:
        self.sent.add(self.game_id, seat, state or self.states[seat], payload)

    def drain(self, version: int, waiting: dict[int, int] | None = None) -> dict[int, JSON]:
        """Read each socket until it has sent the state of ``version`` or later, the
        seats in ``waiting`` first and until the answer to their move of that id (an
        accepted move names the version it leads to): the answers."""
        waiting = waiting or {}
        answers: dict[int, JSON] = {}
        for seat in sorted(self.sockets, key=lambda seat: seat not in waiting):
            last = self.states[seat]["version"]
            while (seat in waiting and seat not in answers) or last < version:
                pushed = self.sockets[seat].receive_json()
                if pushed["type"] == "state":
                    self.note(seat, pushed, pushed)
                    self.states[seat] = pushed
                    last = pushed["version"]
                    continue
                assert pushed["type"] in ("accepted", "refused"), pushed
                assert pushed["id"] == waiting.get(seat), pushed
                self.note(seat, pushed)
                answers[seat] = pushed
                version = pushed["version"] if pushed["type"] == "accepted" else last
        return answers

    def play(self, request: JSON) -> int:
        created = new_game(self.client, **request)
        self.game_id = created["game_id"]
        self.secrets = {seat["seat"]: seat["secret"] for seat in created["seats"]}
        self.sockets = {
            seat: self.client.websocket_connect(f"/ws/seat/{secret}")
            for seat, secret in self.secrets.items()
        }
        for socket in self.sockets.values():
            socket.__enter__()
        try:
            for seat, secret in self.secrets.items():
                fetched = state_of(self.client, secret)
                self.note(seat, fetched, fetched)
                self.states[seat] = fetched
            self.drain(self.states[min(self.secrets)]["version"])
            while not self.states[min(self.secrets)]["over"]:
                self.turn()
            self.finish()
        finally:
            for socket in self.sockets.values():
                socket.__exit__(None, None, None)
        return self.game_id

    def turn(self) -> None:
        """One move of the seat to move, with now and then the other doors."""
        client, rng = self.client, self.rng
        mover = next(seat for seat in self.secrets if self.states[seat]["your_turn"])
        secret = self.secrets[mover]
        state = self.states[mover]
        if rng.random() < 0.05:
            # Refused moves and questions name only the seat's own cards: scanned.
            own = state["view"]["hand"]
            wrong = f"discard {own[0]}" if own and state["view"]["phase"] == "draw" else "draw"
            refused = client.post(f"/api/seat/{secret}/move", json={"move": wrong}).json()
            self.note(mover, refused)
            card = rng.randrange(52)
            for asked in (wrong, rng.choice(state["legal"]), f"discard {card_ascii(card)}"):
                why = client.post(f"/api/seat/{secret}/why", json={"move": asked})
                assert why.status_code == 200, why.text
                if asked == wrong or asked in state["legal"]:
                    assert why.json()["legal"] == (asked in state["legal"]), (asked, why.text)
                # The player named the card he asks about: only the rest of the answer
                # must name no hidden card.
                text = why.text.replace(card_ascii(card), "?").replace(card_name(card), "?")
                self.note(mover, text)
            for seat in self.secrets.keys() - {mover}:
                refused = client.post(
                    f"/api/seat/{self.secrets[seat]}/move", json={"move": "draw"}
                ).json()
                assert refused == {
                    "accepted": False,
                    "reason": "It is not your turn.",
                    "rule": None,
                }
            hint = client.get(f"/api/seat/{secret}/hint").json()
            self.note(mover, hint)
            # The record a player may have in play holds finished hands only.
            record = client.get(f"/api/seat/{secret}/record").json()
            assert all("scores" in hand for hand in record["hands"])
            assert len(record["hands"]) == state["hand_index"]
        move = self.choose(state["legal"])
        if rng.random() < 0.5:
            number = rng.randrange(1_000_000)
            self.sockets[mover].send_json({"type": "move", "move": move, "id": number})
            answer = self.drain(state["version"] + 1, {mover: number})[mover]
            assert answer["type"] == "accepted", answer
        else:
            reply = client.post(f"/api/seat/{secret}/move", json={"move": move}).json()
            self.note(mover, reply, reply["state"])
            self.drain(reply["state"]["version"])
        if rng.random() < 0.2:
            for seat in self.secrets:
                fetched = state_of(client, self.secrets[seat])
                assert without_presence(fetched) == without_presence(self.states[seat])
                self.note(seat, fetched, fetched)

    def choose(self, legal: list[str]) -> str:
        """A legal move at random: a kind of move first, then one of that kind. The
        kinds a hand seldom offers (taking two cards, going out with a pair, giving the
        11th card) are then played about as often as any when they are offered, so that
        a few dozen games play every kind."""
        by_kind: dict[MoveKind, list[str]] = {}
        for text in legal:
            by_kind.setdefault(parse_move(text).kind, []).append(text)
        of_kind = by_kind[self.rng.choice(sorted(by_kind))]
        return of_kind[self.rng.randrange(len(of_kind))]

    def finish(self) -> None:
        """At the end, in one game in four: a rematch for each seat, and the state
        that offers it."""
        if self.rng.random() >= 0.25:
            return
        for seat, secret in self.secrets.items():
            again = self.client.post(f"/api/seat/{secret}/rematch")
            assert again.status_code == 200, again.text
            self.note(seat, again.json())
            final = state_of(self.client, secret)
            assert final["rematch"] == again.json()
            self.note(seat, final, final)


@pytest.fixture
def scan_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The database of the secrecy scan: PostgreSQL, or an SQLite file in memory
    (``/dev/shm``, where there is one), since what is sent does not depend on whether a
    commit reaches the disk, and a sync at each of thousands of moves would be most of
    the scan's time."""
    if request.param == "postgresql":
        server: PostgresServer = request.getfixturevalue("postgres_server")
        yield server.create_database()
        return
    memory = Path("/dev/shm")
    with tempfile.TemporaryDirectory(dir=memory if memory.is_dir() else tmp_path) as folder:
        yield f"sqlite:///{Path(folder) / 'umtali.db'}"


ENDED = -1
"""In :class:`Sent`, the moment a hand's end is told, once it is over: the cards left
in each hand are shown then (forfeited and counted, or scoring for nobody, as the
terminal shows them too); the stock and the cards discarded face down stay hidden."""


def hidden_after_each_move(truth: HandState, seat: int) -> list[set[int]]:
    """The cards ``seat`` may not know in the hand ``truth`` after each number of its
    moves (index 0: as dealt; the number of moves of the hand: as it ended), replayed
    once; and last (ENDED), in the account of its end."""
    hand = HandState(truth.deck, truth.dealer, truth.rules)
    hidden = [hidden_from(hand, seat)]
    for move in truth.moves_played():
        hand.push(move)
        hidden.append(hidden_from(hand, seat))
    left = set(cards_of(hand.hands[1 - seat])) if hand.is_over() else set()
    return [*hidden, hidden[-1] - left]


@pytest.mark.parametrize("scan_url", ["sqlite", "postgresql"], indirect=True)
def test_no_seat_is_ever_sent_a_card_it_may_not_see(scan_url: str) -> None:
    """Over every message of many complete random games, against the computer and
    between two people, no card hidden from the seat appears anywhere in what it is
    sent: the messages are scanned for card names, in both notations. What is sent does
    not depend on the database, so PostgreSQL plays 8 games and SQLite 38. The random
    player picks a kind of move before a move (:meth:`RandomPlayer.choose`), and the
    games are checked to have played every kind, face-down discards among them. The
    hints come from the greedy level, whose reasons are told as the default level's
    are, and which thinks far faster."""
    rng = random.Random(13)
    sent = Sent()
    singles = 36 if scan_url.startswith("sqlite") else 6
    requests: list[JSON] = [
        {"opponent": "computer", "level": "random", "kind": "hand", "seat": i % 2}
        if i % 5 < 3
        else {"opponent": "person", "kind": "hand"}
        for i in range(singles)
    ]
    requests += [{"opponent": "computer", "level": "random"}, {"opponent": "person"}]
    with TestClient(app_on(scan_url, hint_level="greedy")) as client:
        player = RandomPlayer(client, sent, rng)
        games = [player.play(request) for request in requests]
    with Store.open(scan_url) as store:
        matches = {game_id: store.load_match(game_id) for game_id in games}
    assert all(isinstance(match, Match) and match.is_over() for match in matches.values())
    played = {
        Move.from_action(action)
        for match in matches.values()
        for hand in match.hands
        for _player, action in hand.history
    }
    assert {move.kind for move in played} == set(MoveKind), "a kind of move was never played"
    assert any(move.face_down for move in played), "no discard was laid face down"
    hidden_at: dict[tuple[int, int, int], list[set[int]]] = {}
    named = 0
    for game_id, seat, hand_index, moves, payload in sent.messages:
        key = (game_id, seat, hand_index)
        if key not in hidden_at:
            truth = matches[game_id].hands[hand_index]
            assert isinstance(truth, HandState)
            hidden_at[key] = hidden_after_each_move(truth, seat)
        hidden = hidden_at[key][moves]  # ENDED: the account of the hand's end
        found = cards_named("\n".join(strings(payload)))
        leaked = found & hidden
        assert not leaked, (
            f"game {game_id}, seat {seat}, hand {hand_index}, after {moves} moves:"
            f" {' '.join(card_ascii(c) for c in leaked)} hidden from the seat but sent: {payload!r}"
        )
        named += bool(found)
    assert len(sent.messages) > 100 * len(requests)
    assert named > len(sent.messages) // 2  # the scan sees cards: the seat's own, the table's
    kinds = {payload.get("type") for *_, payload in sent.messages if isinstance(payload, dict)}
    assert {"state", "accepted"} <= kinds  # socket messages were scanned
    assert sum(isinstance(p, str) and '"legal"' in p for *_, p in sent.messages)  # why


def test_serve_refuses_a_database_it_cannot_use(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--db", "mysql://somewhere/umtali"]) == 2
    assert "SQLite or PostgreSQL" in capsys.readouterr().err


def test_the_computer_replies_after_a_restart_that_came_first(db_url: str) -> None:
    """A process that stored a person's move and stopped before the computer's reply:
    the next process to read the game plays the reply, then shows the person his turn."""
    with TestClient(app_on(db_url)) as client:
        created = new_game(client, level="greedy", kind="hand")
        secret, game_id = created["seats"][0]["secret"], created["game_id"]
        state = state_of(client, secret)
    with Store.open(db_url) as store:
        match = store.load_match(game_id)
        assert isinstance(match, Match)
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
    with TestClient(app_on(db_url)) as client:
        resumed = state_of(client, secret)
        assert resumed["your_turn"] or resumed["over"]
        assert len(resumed["view"]["history"]) > stopped_at > len(state["view"]["history"])
        assert resumed["recap"]
