"""Gin Rummy in the browser's server, on an SQLite file and on a real PostgreSQL: the
games offered, a whole game against the computer and between two people by their
links, its record read back by ``umtali replay``, refusals that change nothing, a
restart that loses nothing, the deck's commitment, and what each seat is sent: never a
card of the other hand, of the stock, or the other player's face-down knock discard.
A real ``umtali serve`` killed with ``kill -9`` in the middle of a hand of Gin Rummy
comes back where it stood."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.servers import HTTP, running_server
from tests.test_web_api import (
    app_on,
    cards_named,
    new_game,
    play,
    state_of,
    strings,
    without_presence,
)
from tests.test_web_api import scan_url as scan_db  # noqa: F401 - a fixture
from tests.test_web_processes import play_through_kills
from umtali.cli.main import main
from umtali.games.gin.match import GinMatch
from umtali.games.gin.melds import min_deadwood
from umtali.games.gin.session import GinPlaySession
from umtali.games.gin.state import GinHand, GinMove
from umtali.games.gin.table.seat import sent_view as sent_gin_view
from umtali.games.gin.view import GinView
from umtali.games.umtali.deal import FIRST_STOCK_INDEX
from umtali.kernel.cards import card_ascii, mask_of, parse_card, parse_cards
from umtali.kernel.record import loads_any
from umtali.web.store import Store, deck_commitment

JSON = dict[str, Any]


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(app_on(db_url, hint_level="greedy")) as opened:
        yield opened


def stored_gin(db_url: str, game_id: int) -> GinMatch:
    with Store.open(db_url) as store:
        match = store.load_match(game_id)
    assert isinstance(match, GinMatch)
    return match


def play_to_the_end(client: TestClient, secret: str, rng: random.Random) -> JSON:
    state = state_of(client, secret)
    while not state["over"]:
        assert state["your_turn"], state  # the computer never keeps us waiting
        state = play(client, secret, gin_move(state, rng))
    return state


def gin_move(state: JSON, rng: random.Random) -> str:
    """A move for a test's player, fast and good enough to end a game: a knock as soon
    as one is allowed; otherwise, nine times in ten, the discard that leaves the least
    deadwood, and any legal move the tenth. (Random play alone seldom knocks, so its
    games of Gin Rummy would go on through dead hand after dead hand.)"""
    legal: list[str] = state["legal"]
    knocks = [move for move in legal if move.startswith("knock")]
    if knocks:
        return knocks[0]
    discards = [move for move in legal if move.startswith("discard")]
    if not discards or rng.random() < 0.1:
        return rng.choice(legal)
    hand = mask_of(parse_cards(" ".join(state["view"]["hand"])))
    return min(discards, key=lambda move: min_deadwood(hand & ~(1 << parse_card(move.split()[1]))))


# -- the games offered -----------------------------------------------------------------------


def test_the_new_game_form_is_told_every_game_level_and_preset(client: TestClient) -> None:
    offered = {game["game"]: game for game in client.get("/api/games-offered").json()["games"]}
    assert offered["gin"] == {
        "game": "gin",
        "title": "Gin Rummy",
        "levels": ["random", "greedy", "expert"],
        "level_names": {"random": "Beginner", "greedy": "Casual", "expert": "Expert"},
        "default_level": "expert",
        "rules": ["standard", "oklahoma"],
        "default_rules": "standard",
        "kinds": ["game"],
        "seat_counts": [2, 3, 4],
    }
    # Umtali's presets are read from umtali.games.umtali.rules.PRESETS: the practical one is offered.
    assert {"standard", "practical"} <= set(offered["umtali"]["rules"])
    practical = new_game(client, rules="practical", level="random", kind="hand")
    state = state_of(client, practical["seats"][0]["secret"])
    # Gin Rummy's own keys are its own: a state of Umtali has none of them.
    assert (state["game"], state["rules"], "gin" in state) == ("umtali", "practical", False)


@pytest.mark.parametrize(
    ("request_body", "complaint"),
    [
        (
            {"game": "gin", "level": "openspiel"},
            "level at Gin Rummy is one of random, greedy, expert",
        ),
        ({"game": "gin", "rules": "practical"}, "rules of Gin Rummy are one of standard, oklahoma"),
        ({"game": "gin", "kind": "hand"}, "Gin Rummy is played as a game"),
        ({"rules": "oklahoma"}, "rules of Umtali are one of standard"),
        ({"game": "canasta"}, "'umtali' or 'gin'"),
    ],
)
def test_a_game_the_server_does_not_offer_is_refused(
    client: TestClient, request_body: JSON, complaint: str
) -> None:
    reply = client.post("/api/games", json=request_body)
    assert reply.status_code == 422
    assert complaint in reply.text


# -- whole games -------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["standard", "oklahoma"])
def test_a_whole_game_against_the_computer(
    client: TestClient, db_url: str, variant: str, tmp_path: Path
) -> None:
    created = new_game(client, game="gin", rules=variant, level="greedy", seat=1)
    secret = created["seats"][0]["secret"]
    first = state_of(client, secret)
    assert (first["game"], first["rules"], first["kind"]) == ("gin", variant, "game")
    assert first["names"] == ["Computer (Casual)", "You"]
    table = first["gin"]
    # The hand laid out in melds: every card in one meld or in the deadwood, once.
    laid = [card for meld in table["melds"] for card in meld] + table["deadwood"]
    assert sorted(laid) == sorted(first["view"]["hand"])
    assert table["knock_limit"] == first["view"]["knock_limit"]
    state = play_to_the_end(client, secret, random.Random(variant))
    sheet = state["gin"]["sheet"]
    result = sheet["result"]
    assert max(sheet["totals"]) >= sheet["target"] == (150 if variant == "oklahoma" else 100)
    won = sum(1 for scores, _how in sheet["hands"] if scores[result["winner"]] > 0)
    assert result["line"][result["winner"]] == 25 * won  # 25 a hand won
    assert state["result"].startswith(("You win", "Computer (Casual) wins"))
    match = stored_gin(db_url, state["game_id"])
    assert match.is_over()
    assert match.rules.name == variant
    assert [scores for scores, _how in sheet["hands"]] == [
        list(hand.outcome.scores) for hand in match.hands if hand.outcome is not None
    ]
    # The record, public now, is the stored game, and `umtali replay` reads it.
    record = client.get(f"/api/games/{state['game_id']}/record")
    assert record.status_code == 200
    again = loads_any(record.text)
    assert isinstance(again, GinMatch)
    assert [hand.history for hand in again.hands] == [hand.history for hand in match.hands]
    path = tmp_path / "gin.json"
    path.write_text(record.text)
    assert main(["replay", str(path)]) == 0
    # Each hand's deck is the one committed to at its deal.
    verify = client.get(f"/api/games/{state['game_id']}/hands/0/verify").json()
    deck = [parse_cards(name)[0] for name in verify["deck"]]
    assert deck_commitment(bytes.fromhex(verify["salt"]), deck) == verify["commitment"]
    assert tuple(deck) == match.hands[0].deck


def test_two_people_play_a_game_by_their_links_and_its_rematch(client: TestClient) -> None:
    created = new_game(client, game="gin", opponent="person", rules="oklahoma")
    secrets = {seat["seat"]: seat["secret"] for seat in created["seats"]}
    states = {seat: state_of(client, secret) for seat, secret in secrets.items()}
    assert states[0]["names"] == ["You", "Player 2"]
    assert states[0]["opponent"]["kind"] == "person"
    rng = random.Random(4)
    while not states[0]["over"]:
        mover = 0 if states[0]["your_turn"] else 1
        assert states[1 - mover]["legal"] == []
        refused = client.post(f"/api/seat/{secrets[1 - mover]}/move", json={"move": "draw"})
        assert refused.status_code == 409
        assert refused.json() == {"accepted": False, "reason": "It is not your turn.", "rule": None}
        states[mover] = play(client, secrets[mover], gin_move(states[mover], rng))
        states[1 - mover] = state_of(client, secrets[1 - mover])
        assert states[0]["version"] == states[1]["version"]
    assert states[1]["over"]
    assert states[0]["result"] != states[1]["result"]
    rematch = client.post(f"/api/seat/{secrets[1]}/rematch")
    assert rematch.status_code == 200
    new = state_of(client, rematch.json()["seats"][0]["secret"])
    assert (new["game"], new["rules"], new["over"]) == ("gin", "oklahoma", False)
    assert state_of(client, secrets[0])["rematch"]["game_id"] == new["game_id"]


def test_a_refused_move_changes_nothing_and_why_and_hint_answer(client: TestClient) -> None:
    secret = new_game(client, game="gin", level="random")["seats"][0]["secret"]
    state = state_of(client, secret)
    while "pass" in state["legal"]:  # past the first upcard: draw, take, or discard
        state = play(client, secret, "pass")
    if "draw" in state["legal"]:
        state = play(client, secret, "draw")
    # Eleven cards now: a card not held, and a knock with too much deadwood, are refused.
    held = set(state["view"]["hand"])
    absent = next(card_ascii(c) for c in range(52) if card_ascii(c) not in held)
    for move, reason in [
        (f"discard {absent}", "you do not hold"),
        ("draw", "you have drawn this turn"),
    ]:
        reply = client.post(f"/api/seat/{secret}/move", json={"move": move})
        assert reply.status_code == 409, reply.text
        assert reason.lower() in reply.json()["reason"].lower()
        assert state_of(client, secret) == state
        why = client.post(f"/api/seat/{secret}/why", json={"move": move}).json()
        assert why == {"legal": False, "reason": reply.json()["reason"], "rule": None}
    assert client.post(f"/api/seat/{secret}/why", json={"move": state["legal"][0]}).json() == {
        "legal": True,
        "reason": None,
        "rule": None,
    }
    hint = client.get(f"/api/seat/{secret}/hint").json()
    assert hint["move"] in state["legal"]
    assert hint["level"] == "greedy"
    assert hint["why"]
    assert state_of(client, secret) == state


def test_a_restarted_server_loses_nothing(db_url: str) -> None:
    rng = random.Random(9)
    with TestClient(app_on(db_url)) as client:
        secret = new_game(client, game="gin", level="greedy")["seats"][0]["secret"]
        state = state_of(client, secret)
        for _ in range(9):
            state = play(client, secret, gin_move(state, rng))
            if state["over"]:
                break
    with TestClient(app_on(db_url)) as client:
        assert state_of(client, secret) == state
        state = play_to_the_end(client, secret, rng)
    with TestClient(app_on(db_url)) as client:
        assert state_of(client, secret) == state


# -- secrecy -------------------------------------------------------------------------------------


def hidden_from(hand: GinHand, seat: int) -> set[int]:
    """The cards ``seat`` may not know, worked out from the hand (not from its view):
    the stock; the other hand but the cards he took from the pile, until the hand is
    over; and the card the other player laid face down when he knocked, unless he took
    it from the pile."""
    pile = [hand.deck[FIRST_STOCK_INDEX - 1]]
    taken_by_other: set[int] = set()
    draws = 0
    knocked_down: set[int] = set()
    for player, action in hand.history:
        move = GinMove.of_action(action)
        if move.kind == "take":
            card = pile.pop()
            if player != seat:
                taken_by_other.add(card)
        elif move.kind == "draw":
            draws += 1
        elif move.card is not None:
            pile.append(move.card)
            if move.kind == "knock" and player != seat:
                knocked_down.add(move.card)
    stock = set(hand.deck[FIRST_STOCK_INDEX + draws :])
    other = set() if hand.is_over() else set(_cards(hand.hand(1 - seat))) - taken_by_other
    # A knock discard he was seen to take from the pile is a card the seat knows: its
    # name is in the moves he saw.
    return stock | other | (knocked_down - taken_by_other)


def _cards(mask: int) -> Iterator[int]:
    return (card for card in range(52) if mask >> card & 1)


@dataclass
class GinSent:
    """Every message sent to a seat, each with the moment (hand, moves played) it
    speaks of: a state's account of the last hand's end is checked against that hand
    as it ended, an accepted move's sentence against the hand it was played in."""

    messages: list[tuple[int, int, int, int, Any]] = field(default_factory=list)

    def add(self, game_id: int, seat: int, state: JSON, payload: Any) -> None:
        if isinstance(payload, dict) and payload.get("accepted") is True:
            where = (payload["hand_index"], payload["move_index"] + 1)
            self.messages.append((game_id, seat, *where, payload["sentence"]))
            payload = payload["state"]
        if isinstance(payload, dict) and payload.get("type") == "accepted":
            where = (payload["hand_index"], payload["move_index"] + 1)
            self.messages.append((game_id, seat, *where, payload))
            return
        if isinstance(payload, dict) and payload.get("type") == "state":
            gin = dict(payload["gin"])
            ended = gin.pop("hand_end")
            if ended is not None:
                told = {"previous": payload["previous"], "hand_end": ended}
                self.messages.append((game_id, seat, ended["hand_index"], -1, told))
            payload = {k: v for k, v in payload.items() if k not in ("previous", "gin")}
            payload["gin"] = gin
        moves = len(state["view"]["history"])
        self.messages.append((game_id, seat, state["hand_index"], moves, payload))


@dataclass
class GinRandomPlayer:
    """Plays games of Gin Rummy to their end with random legal moves, by HTTP and over
    the WebSocket, with now and then a refused move, a question (why), a hint, the
    record and the rematch; every message each seat is sent is noted."""

    client: TestClient
    sent: GinSent
    rng: random.Random
    game_id: int = 0
    secrets: dict[int, str] = field(default_factory=dict)
    sockets: dict[int, Any] = field(default_factory=dict)
    states: dict[int, JSON] = field(default_factory=dict)

    def note(self, seat: int, payload: Any, state: JSON | None = None) -> None:
        self.sent.add(self.game_id, seat, state or self.states[seat], payload)

    def drain(self, version: int, waiting: dict[int, int] | None = None) -> None:
        """Read each socket up to the state of ``version`` (and the answer to the
        move ``waiting`` for its seat), noting all it sent."""
        waiting = dict(waiting or {})
        for seat in sorted(self.sockets, key=lambda seat: seat not in waiting):
            while seat in waiting or self.states[seat]["version"] < version:
                pushed = self.sockets[seat].receive_json()
                if pushed["type"] == "state":
                    self.note(seat, pushed, pushed)
                    self.states[seat] = pushed
                    continue
                assert pushed["type"] == "accepted", pushed
                assert pushed["id"] == waiting[seat]
                self.note(seat, pushed)
                version = max(version, pushed["version"])
                del waiting[seat]

    def play(self, request: JSON) -> int:
        created = new_game(self.client, game="gin", **request)
        self.game_id = created["game_id"]
        self.secrets = {seat["seat"]: seat["secret"] for seat in created["seats"]}
        self.states = {}  # the last game's states are not this one's
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
            self.drain(max(state["version"] for state in self.states.values()))
            while not self.states[min(self.secrets)]["over"]:
                self.turn()
            if self.rng.random() < 0.25:
                for seat, secret in self.secrets.items():
                    self.note(seat, self.client.post(f"/api/seat/{secret}/rematch").json())
        finally:
            for socket in self.sockets.values():
                socket.__exit__(None, None, None)
        return self.game_id

    def turn(self) -> None:
        client, rng = self.client, self.rng
        mover = next(seat for seat in self.secrets if self.states[seat]["your_turn"])
        secret = self.secrets[mover]
        state = self.states[mover]
        if rng.random() < 0.05:
            card = rng.randrange(52)
            for asked in ("draw", f"knock {card_ascii(card)}", f"discard {card_ascii(card)}"):
                # Only a move the rules refuse is sent (a refusal changes nothing); any is
                # asked about. The player named the card: only the rest must be clean.
                answers = [client.post(f"/api/seat/{secret}/why", json={"move": asked})]
                if asked not in state["legal"]:
                    answers.append(client.post(f"/api/seat/{secret}/move", json={"move": asked}))
                    assert answers[-1].status_code == 409, answers[-1].text
                for answer in answers:
                    text = answer.text.replace(card_ascii(card), "?").replace(_symbol(card), "?")
                    self.note(mover, text)
            self.note(mover, client.get(f"/api/seat/{secret}/hint").json())
            record = client.get(f"/api/seat/{secret}/record").json()
            assert len(record["hands"]) == sum(1 for _ in state["gin"]["sheet"]["hands"])
        move = gin_move(state, rng)
        if rng.random() < 0.5:
            number = rng.randrange(1_000_000)
            self.sockets[mover].send_json({"type": "move", "move": move, "id": number})
            self.drain(state["version"] + 1, {mover: number})
        else:
            reply = client.post(f"/api/seat/{secret}/move", json={"move": move}).json()
            self.note(mover, reply, reply["state"])
            self.drain(reply["state"]["version"])
        if rng.random() < 0.1:
            for seat, seat_secret in self.secrets.items():
                fetched = state_of(client, seat_secret)
                assert without_presence(fetched) == without_presence(self.states[seat])
                self.note(seat, fetched, fetched)


def _symbol(card: int) -> str:
    """The card's name with its suit symbol (``K♣``)."""
    name = card_ascii(card)
    return name[:-1] + {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}[name[-1]]


@pytest.mark.parametrize("scan_db", ["sqlite", "postgresql"], indirect=True)
def test_no_seat_of_gin_is_ever_sent_a_card_it_may_not_see(scan_db: str) -> None:  # noqa: F811
    """Over every message of complete random games of Gin Rummy (to 100 or 150
    points), against the computer and between two people: no card of the other hand,
    of the stock, or of the other player's knock appears in what a seat is sent. What
    is sent does not depend on the database: SQLite plays 4 games, one of each kind,
    PostgreSQL 2."""
    rng = random.Random(21)
    count = 4 if scan_db.startswith("sqlite") else 2
    requests: list[JSON] = [
        {"opponent": "computer", "level": "random", "seat": i % 2, "rules": "oklahoma"}
        if i % 4 == 0
        else {"opponent": "computer", "level": "greedy", "seat": i % 2}
        if i % 4 == 1
        else {"opponent": "person", "rules": "oklahoma" if i % 4 == 2 else "standard"}
        for i in range(count)
    ]
    sent = GinSent()
    with TestClient(app_on(scan_db, hint_level="greedy")) as client:
        player = GinRandomPlayer(client, sent, rng)
        games = [player.play(request) for request in requests]
    with Store.open(scan_db) as store:
        matches = {game_id: store.load_match(game_id) for game_id in games}
    hidden_at: dict[tuple[int, int, int, int], set[int]] = {}
    named = knocks_hidden = 0
    for game_id, seat, hand_index, moves, payload in sent.messages:
        key = (game_id, seat, hand_index, moves)
        if key not in hidden_at:
            truth = matches[game_id].hands[hand_index]
            assert isinstance(truth, GinHand)
            hand = GinHand(truth.deck, truth.dealer, truth.rules)
            for _player, action in truth.history[: None if moves < 0 else moves]:
                hand.push(GinMove.of_action(action))
            hidden_at[key] = hidden_from(hand, seat)
        text = "\n".join(strings(json.loads(payload) if _is_json(payload) else payload))
        found = cards_named(text)
        leaked = found & hidden_at[key]
        assert not leaked, (
            f"game {game_id}, seat {seat}, hand {hand_index}, after {moves} moves:"
            f" {' '.join(card_ascii(c) for c in leaked)} hidden from the seat but sent:"
            f" {payload!r}"
        )
        named += bool(found)
        if isinstance(payload, dict) and None in payload.get("view", {}).get("pile", []):
            knocks_hidden += 1
    assert all(match.is_over() for match in matches.values())
    assert len(sent.messages) > 100 * len(requests)
    assert named > len(sent.messages) // 2  # the scan sees cards: the seat's own, the pile
    assert knocks_hidden > 0  # some states showed the other's knock face down


def _is_json(payload: Any) -> bool:
    return isinstance(payload, str) and payload.startswith("{")


def test_the_other_players_knock_lies_face_down() -> None:
    """Two greedy players until one knocks: the other is sent the pile with the knock's
    discard face down (``None``), the knock without its card in the history and in the
    recap; the knocker sees his own card."""
    session = GinPlaySession.between_bots(("greedy", "greedy"), "41/0")
    session.deal()
    hand = session.match.hands[0]
    while not hand.is_over():
        session.bot_move()
    knocker, action = hand.history[-1]
    move = GinMove.of_action(action)
    assert move.kind == "knock"
    assert move.card is not None
    defender = 1 - knocker
    sent = sent_gin_view(GinView.of(hand, defender), hand)
    assert sent["pile"][-1] is None
    assert sent["history"][-1] == [knocker, "knock"]
    assert card_ascii(move.card) not in json.dumps(sent)
    assert move.card in hidden_from(hand, defender)
    assert move.card not in hidden_from(hand, knocker)
    own = sent_gin_view(GinView.of(hand, knocker), hand)
    assert own["pile"][-1] == card_ascii(move.card)
    lines = session.recap(defender).lines
    assert lines[-1].endswith("knocks, discarding a card face down")
    assert card_ascii(move.card) not in " ".join(lines)


# -- a real server killed mid-hand -------------------------------------------------------------


def test_a_killed_server_resumes_a_game_of_gin(db_url: str, tmp_path: Path) -> None:
    """``kill -9`` of ``umtali serve`` twice in the middle of a game of Gin Rummy, moves
    in flight over the socket and HTTP; started again on the same port, the players
    come back by themselves and play on, and every acknowledged move is stored where
    it was told. (The moves around the kills, not the whole game: one to 150 points
    may run to twenty hands.)"""
    with running_server(db_url, tmp_path) as server:
        created = HTTP.post(
            f"{server.url}/api/games",
            json={"game": "gin", "opponent": "person", "rules": "oklahoma"},
        ).json()
        # A game of Gin can be short: the second kill comes soon after the first.
        players = play_through_kills(server, created, (0, 1), choose=gin_move, first=4, every=6)
        match = stored_gin(db_url, created["game_id"])
        for player in players:
            for hand_index, move_index, move in player.accepted:
                action = match.hands[hand_index].history[move_index][1]
                assert GinMove.of_action(action).text() == move
            # What the restarted server shows is what is stored.
            state = HTTP.get(f"{server.url}/api/seat/{player.secret}").json()
            assert state["hand_index"] == len(match.hands) - 1
            assert len(state["view"]["history"]) == len(match.hands[-1].history)
