"""The games the server offers come from the registry, and only those with a browser
table: what is offered, each game's levels (``/api/levels`` as before, and by game),
new games checked against the game's spec, and the schema that publishes each game's
own state and replay models."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from umtali import games
from umtali.web.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'umtali.db'}")) as client:
        yield client


@pytest.fixture
def tableless(monkeypatch: pytest.MonkeyPatch) -> str:
    """A game registered for this test only, with no browser table."""
    spec = dataclasses.replace(
        games.get("umtali"), name="tableless", title="Tableless", table=None, static=None
    )
    games.games()  # the registry is read before it is added to
    monkeypatch.setitem(games._registry, spec.name, spec)
    return spec.name


def test_the_games_offered_are_the_registry_s_with_a_table(
    client: TestClient, tableless: str
) -> None:
    offered = client.get("/api/games-offered").json()["games"]
    expected = [spec for spec in games.games() if spec.has("table")]
    assert [game["game"] for game in offered] == [spec.name for spec in expected]
    assert tableless in games.names()
    for game, spec in zip(offered, expected, strict=True):
        assert (game["title"], game["levels"], game["default_level"]) == (
            spec.title,
            list(spec.levels),
            spec.default_level,
        )
        assert (game["rules"], game["kinds"], game["seat_counts"]) == (
            list(spec.variants),
            list(spec.lengths),
            list(spec.seat_counts),
        )
    reply = client.post("/api/games", json={"game": tableless})
    assert reply.status_code == 422
    assert "the game is one of 'umtali' or 'gin'" in reply.text
    assert client.get(f"/api/games/{tableless}/levels").status_code == 404


def test_levels_are_the_default_game_s_and_each_game_s(client: TestClient) -> None:
    umtali, gin = games.get("umtali"), games.get("gin")
    assert client.get("/api/levels").json() == {
        "levels": list(umtali.levels),
        "default": umtali.default_level,
    }
    by_game = {"levels": list(gin.levels), "default": gin.default_level}
    assert client.get("/api/levels", params={"game": "gin"}).json() == by_game
    assert client.get("/api/games/gin/levels").json() == by_game
    missing = client.get("/api/games/chess/levels")
    assert missing.status_code == 404
    assert "there is no game 'chess'" in missing.json()["detail"]
    assert client.get("/api/levels", params={"game": "chess"}).status_code == 404


@pytest.mark.parametrize(
    ("request_body", "complaint"),
    [
        ({"players": 3}, "three or four players play Gin Rummy only: Umtali is a game of two"),
        ({"kind": "deal"}, "Umtali is played as a game or a hand or a session"),
        ({"game": "gin", "kind": "session"}, "Gin Rummy is played as a game"),
        ({"game": "gin", "level": "openspiel"}, "level at Gin Rummy is one of random, greedy"),
    ],
)
def test_a_new_game_is_checked_against_its_spec(
    client: TestClient, request_body: dict[str, object], complaint: str
) -> None:
    reply = client.post("/api/games", json=request_body)
    assert reply.status_code == 422
    assert complaint in reply.text


def test_the_schema_publishes_each_game_s_state_and_replay(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    models = schema["components"]["schemas"]
    paths = schema["paths"]
    state = paths["/api/seat/{secret}"]["get"]["responses"]["200"]["content"]["application/json"]
    told = {ref["$ref"].rsplit("/", 1)[1] for ref in state["schema"]["oneOf"]}
    assert told == {"UmtaliSeatState", "GinSeatState", "KlaberjassSeatState"}
    assert state["schema"]["discriminator"]["propertyName"] == "game"
    assert {"gin", "party"} <= models["GinSeatState"]["properties"].keys()
    assert "gin" not in models["UmtaliSeatState"]["properties"]
    moved = paths["/api/seat/{secret}/move"]["post"]["responses"]["200"]["content"]
    accepted = moved["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    assert {
        ref["$ref"].rsplit("/", 1)[1] for ref in models[accepted]["properties"]["state"]["oneOf"]
    } == told
    replay = paths["/api/replay"]["post"]["responses"]["200"]["content"]["application/json"]
    assert {ref["$ref"].rsplit("/", 1)[1] for ref in replay["schema"]["oneOf"]} == {
        "UmtaliReplay",
        "GinReplay",
        "KlaberjassReplay",
    }
    assert models["NewGameRequest"]["properties"]["game"]["enum"] == ["umtali", "gin", "klaberjass"]
