"""The conformance suite through the web API: every registered game with a browser table,
Toy included, at every seat count, played to its end by random legal moves from every
seat (by HTTP and over each seat's WebSocket) on SQLite, mostly the hint's move, with refused moves, hints and
questions along the way; and every message each seat receives scanned for cards it may
not know.

What a seat may know is read from the game's own account of it, its view: while a hand
is played, a message may name only the cards that seat's views of that hand have named
so far (its own cards, the pile, what it saw taken...). So a table that told a hidden
card in a title, a recap, a sentence, a hint or a hand's account would be caught,
whatever the game. Once a hand is over its deck is public (its commitment is opened),
so what is said of a finished hand is not restricted. Each game's own tests check its
view against the engine (Umtali's and Gin Rummy's scans in test_web_api.py and
test_web_gin.py).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import tests.toy_game
from tests.test_web_api import app_on, cards_named, new_game, state_of, strings
from umtali import games
from umtali.games.api import GameSpec
from umtali.kernel.cards import card_ascii
from umtali.kernel.record import loads_any

JSON = dict[str, Any]

MOVES_CAP = 20_000

PUBLIC_PARTS = {("party", "draw")}
"""Parts of a state that name cards of no hand's deck, shown to all alike: the draw for
places of three-hand Gin (cards cut from a deck of their own before the first deal)."""


def _seatings() -> list[Any]:
    return [
        pytest.param(spec.name, seats, id=f"{spec.name}-{seats}")
        for spec in tests.toy_game.every_game()
        if spec.has("table")
        for seats in spec.seat_counts
    ]


SEATINGS = _seatings()


def request_for(spec: GameSpec, seats: int) -> JSON:
    """A game with a person by link in every seat: every message path is a seat's."""
    level = spec.levels[0]
    if seats == 2:
        return {"game": spec.name, "opponent": "person", "level": level}
    return {
        "game": spec.name,
        "players": seats,
        "level": level,
        "seat": 0,
        "invite": list(range(1, seats)),
    }


@dataclass
class Scan:
    """What one seat was sent, in order, with what it may know of each hand."""

    known: dict[int, set[int]] = field(default_factory=dict)
    """The cards the seat's views of each hand named, by hand index."""
    over: set[int] = field(default_factory=set)
    """The hands the seat was told are over."""
    leaks: list[str] = field(default_factory=list)
    ends: list[JSON] = field(default_factory=list)
    """Every account of a hand's end the seat was sent (a state's ``previous``)."""

    def state(self, state: JSON) -> None:
        """A state: its view first (what the seat may now know), then the rest."""
        hand = state["hand_index"]
        self.over.update(range(hand))  # a hand is dealt once the one before it is over
        view = state.get("view")
        if view is not None:
            self.known.setdefault(hand, set()).update(self._named(view))
            if state["over"] or _view_over(view):
                self.over.add(hand)
        rest = {key: value for key, value in state.items() if key not in ("view", "previous")}
        for outer, inner in PUBLIC_PARTS:
            if isinstance(rest.get(outer), dict) and inner in rest[outer]:
                rest[outer] = {key: part for key, part in rest[outer].items() if key != inner}
        self.check(hand, rest)
        previous = state.get("previous")
        if previous is not None:
            self.over.add(previous["hand_index"])
            self.ends.append(previous)

    def check(self, hand: int, payload: Any) -> None:
        """``payload``, sent about ``hand``, names no card the seat may not know. A part of
        it that carries a ``hand_index`` of its own (the account of the hand before, say)
        is about that hand instead."""
        if isinstance(payload, dict) and isinstance(payload.get("hand_index"), int):
            hand = payload["hand_index"]
        if hand in self.over:
            return
        if isinstance(payload, dict | list):
            for part in payload.values() if isinstance(payload, dict) else payload:
                self.check(hand, part)
            return
        named = self._named(payload) - self.known.get(hand, set())
        if named:
            self.leaks.append(f"hand {hand}: {sorted(map(card_ascii, named))} in {payload!r:.300}")

    @staticmethod
    def _named(data: Any) -> set[int]:
        return {card for text in strings(data) for card in cards_named(text)}


def _view_over(view: JSON) -> bool:
    """Whether a game's view says its hand is over (each game's view tells it its way)."""
    return bool(view.get("outcome")) or view.get("phase") == "over" or view.get("over") is True


@dataclass
class Table:
    """The seats of one game, played by random legal moves until it ends."""

    client: TestClient
    rng: random.Random
    secrets: dict[int, str]
    scans: dict[int, Scan] = field(default_factory=dict)
    states: dict[int, JSON] = field(default_factory=dict)

    def take(self, seat: int, message: JSON) -> None:
        """A state (or a move's answer) ``seat`` was sent: scanned, and kept."""
        scan = self.scans.setdefault(seat, Scan())
        state = message.get("state", message) if message.get("accepted") else message
        if state.get("type") == "state":
            scan.state(state)
            if state["version"] >= self.states.get(seat, {}).get("version", -1):
                self.states[seat] = state
        if message.get("accepted"):
            # After the state: a card the move drew is named in both.
            scan.check(message["hand_index"], message.get("sentence", ""))

    def fetch(self) -> None:
        for seat, secret in self.secrets.items():
            self.take(seat, state_of(self.client, secret))

    def movers(self) -> list[int]:
        return [seat for seat, state in self.states.items() if state["your_turn"]]

    def over(self) -> bool:
        return all(state["over"] for state in self.states.values())

    def asides(self, seat: int) -> None:
        """A refused move, a question and a hint: none may change anything."""
        secret = self.secrets[seat]
        before = state_of(self.client, secret)
        refused = self.client.post(f"/api/seat/{secret}/move", json={"move": "no such move"})
        assert refused.status_code == 409, refused.text
        assert refused.json()["accepted"] is False, refused.text
        why = self.client.post(
            f"/api/seat/{secret}/why", json={"move": self.rng.choice(before["legal"])}
        )
        assert why.status_code == 200, why.text
        assert why.json()["legal"] is True, why.text
        hint = self.client.get(f"/api/seat/{secret}/hint")
        assert hint.status_code == 200, hint.text
        assert hint.json()["move"] in before["legal"]
        for payload in (refused.json(), why.json(), hint.json()):
            self.scans[seat].check(before["hand_index"], payload)
        after = state_of(self.client, secret)
        assert after["version"] == before["version"]

    def move_for(self, seat: int) -> str:
        """Mostly the hint's move, else any legal move: random play alone seldom ends a
        game whose hands end only when a player chooses to (Gin's knock), and the hint,
        at the server's hint level, is the one move every game suggests alike."""
        legal: list[str] = self.states[seat]["legal"]
        if self.rng.random() < 0.25:
            return self.rng.choice(legal)
        hint = self.client.get(f"/api/seat/{self.secrets[seat]}/hint")
        assert hint.status_code == 200, hint.text
        self.scans[seat].check(self.states[seat]["hand_index"], hint.json())
        move: str = hint.json()["move"]
        assert move in legal, (move, legal)
        return move

    def play(self) -> None:
        self.fetch()
        for _ in range(MOVES_CAP):
            if self.over():
                return
            movers = self.movers()
            assert movers, "the game is neither over nor waiting for anybody"
            seat = self.rng.choice(movers)
            if self.rng.random() < 0.03:
                self.asides(seat)
            move = self.move_for(seat)
            reply = self.client.post(f"/api/seat/{self.secrets[seat]}/move", json={"move": move})
            assert reply.status_code == 200, reply.text
            assert reply.json()["accepted"] is True, reply.json()
            self.take(seat, reply.json())
            self.fetch()
        raise AssertionError("the game did not end")


def sockets_of(client: TestClient, secrets: dict[int, str]) -> Iterator[tuple[int, Any]]:
    for seat, secret in secrets.items():
        yield seat, client.websocket_connect(f"/ws/seat/{secret}")


@pytest.fixture(autouse=True)
def toy_registered() -> Iterator[None]:
    with tests.toy_game.registered():
        yield


@pytest.mark.parametrize(("name", "seats"), SEATINGS)
def test_random_play_through_the_web_api_ends_and_no_seat_learns_a_hidden_card(
    name: str, seats: int, tmp_path: Path
) -> None:
    spec = games.get(name)
    db_url = f"sqlite:///{tmp_path / 'umtali.db'}"
    with TestClient(app_on(db_url, hint_level="greedy")) as client:
        created = new_game(client, **request_for(spec, seats))
        secrets = {seat["seat"]: seat["secret"] for seat in created["seats"]}
        assert sorted(secrets) == list(range(seats))
        table = Table(client, random.Random(seats), secrets)
        # Every socket is read to its end afterwards: what it pushed is scanned too.
        opened = dict(sockets_of(client, secrets))
        for socket in opened.values():
            socket.__enter__()
        try:
            table.play()
            pushed: dict[int, list[JSON]] = {seat: [] for seat in opened}
            for seat, socket in opened.items():
                final = table.states[seat]["version"]
                while True:
                    message = socket.receive_json()
                    pushed[seat].append(message)
                    if message.get("type") == "state" and message["version"] >= final:
                        break
        finally:
            for socket in opened.values():
                socket.__exit__(None, None, None)
        for messages in pushed.values():
            scan = Scan()
            for message in messages:
                if message.get("type") == "state":
                    scan.state(message)
            assert not scan.leaks, scan.leaks[:3]
        for seat, scan in table.scans.items():
            assert not scan.leaks, (seat, scan.leaks[:3])
            # Every game's end of a hand that has one has the one shape every table draws:
            # a heading that says who won it, and both players with their cards and points.
            for end in scan.ends:
                assert f"hand {end['hand_index'] + 1}" in end["heading"].lower(), end
                assert len(end["sides"]) == 2, end
                assert all(isinstance(side["points"], int) for side in end["sides"]), end
        record = client.get(f"/api/games/{created['game_id']}/record")
        assert record.status_code == 200, record.text
        match = loads_any(record.text)
        assert games.spec_of(match) is spec
        assert match.is_over()
        offered = client.get("/api/games-offered").json()
        assert name in [game["game"] for game in offered["games"]]
