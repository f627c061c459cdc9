"""A database made and filled by the last release (schema 0004, umtali 409a001) is
upgraded by today's store (0005) without a value changing, and every game in it, of
each game and seat count, loads and plays on through today's server.

The rows in ``tests/data/release_0004.json`` were written by that release's own server,
through its API (Umtali against the computer and between two people, a finished game
and its rematch, Gin Rummy for two with a seat handed to the computer, three-hand and
four-hand with friends), and are put back here under its schema, on SQLite and on
PostgreSQL.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from sqlalchemy import Engine, create_engine, select, text

from umtali.kernel.cards import parse_card
from umtali.kernel.record import loads_any
from umtali.web.app import create_app
from umtali.web.models import Base
from umtali.web.server import RateLimit
from umtali.web.store import MIGRATIONS, Store, deck_commitment

RELEASE = json.loads((Path(__file__).parent / "data" / "release_0004.json").read_text("utf-8"))
TABLES = ("games", "seats", "hands", "moves")

JSON = dict[str, Any]


def _value(value: Any) -> Any:
    return (
        datetime.fromisoformat(value["datetime"])
        if isinstance(value, dict) and "datetime" in value
        else value
    )


def _engine(url: str) -> Engine:
    return create_engine(url.replace("postgresql://", "postgresql+psycopg://", 1))


def _rows(engine: Engine) -> dict[str, list[JSON]]:
    """Every row of the four tables, in key order, times as ISO text."""
    found: dict[str, list[JSON]] = {}
    with engine.connect() as connection:
        for name in TABLES:
            table = Base.metadata.tables[name]
            query = select(table).order_by(*table.primary_key.columns)
            found[name] = [
                {
                    k: ({"datetime": v.isoformat()} if isinstance(v, datetime) else v)
                    for k, v in row._mapping.items()
                }
                for row in connection.execute(query)
            ]
    return found


def _at_0004(url: str) -> None:
    """The database at ``url`` brought to schema 0004 and filled with the release's rows,
    as that release left it."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    engine = _engine(url)
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "0004")
            for name in TABLES:
                rows = [{k: _value(v) for k, v in row.items()} for row in RELEASE["rows"][name]]
                connection.execute(Base.metadata.tables[name].insert(), rows)
            if connection.dialect.name == "postgresql":
                connection.execute(
                    text("SELECT setval(pg_get_serial_sequence('games', 'id'), max(id)) FROM games")
                )
    finally:
        engine.dispose()


@pytest.fixture
def release_db(db_url: str) -> str:
    _at_0004(db_url)
    return db_url


@pytest.fixture
def client(release_db: str) -> Iterator[TestClient]:
    unlimited = RateLimit(rate=1e6, burst=1e6)
    with TestClient(create_app(release_db, seat_requests=unlimited, hint_level="greedy")) as client:
        yield client


def _secrets() -> Iterator[tuple[str, int, int, str]]:
    for game in RELEASE["games"]:
        for seat, secret in game["secrets"].items():
            yield game["label"], game["game_id"], int(seat), secret


def _normal(rows: dict[str, list[JSON]]) -> dict[str, list[JSON]]:
    """Rows as a comparison sees them: every time in UTC without its zone (SQLite keeps
    none, PostgreSQL gives it back in UTC)."""

    def moment(value: Any) -> Any:
        stamp = _value(value)
        if isinstance(stamp, datetime) and stamp.tzinfo is not None:
            return stamp.astimezone(UTC).replace(tzinfo=None)
        return stamp

    return {
        name: [{k: moment(v) for k, v in row.items()} for row in found]
        for name, found in rows.items()
    }


def test_the_upgrade_changes_no_stored_value(release_db: str) -> None:
    before = _normal(_rows(_engine(release_db)))
    assert before == _normal(RELEASE["rows"])
    Store.open(release_db).close()
    engine = _engine(release_db)
    with engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).all() == [
            ("0006",)
        ]
    assert _normal(_rows(engine)) == before
    engine.dispose()


def test_every_stored_seat_reads_as_it_did(client: TestClient) -> None:
    for label, game_id, seat, secret in _secrets():
        reply = client.get(f"/api/seat/{secret}")
        assert reply.status_code == 200, (label, reply.text)
        state = reply.json()
        assert (state["game_id"], state["seat"]) == (game_id, seat), label
        record = client.get(f"/api/seat/{secret}/record")
        assert record.status_code == 200, (label, record.text)
        loads_any(record.text)  # a record umtali replay reads


def _choose(legal: list[str], rng: random.Random) -> str:
    """A move of the legal ones: one that ends the hand where there is one (random play
    of Gin Rummy seldom knocks, and its hands would end dead, with no score, for ever),
    else any."""
    ending = [move for move in legal if move.split()[0] in ("knock", "gin")]
    return rng.choice(ending or legal)


def _play_on(client: TestClient, secrets: dict[int, str], rng: random.Random) -> JSON:
    """Legal moves for every person's seat until a hand is dealt after the one under way
    (so a hand ends, its scores stored, and another is dealt) or the game is over: the
    state of the first seat then."""
    start: int | None = None
    for _ in range(5_000):
        states: dict[int, JSON] = {
            seat: client.get(f"/api/seat/{secret}").json() for seat, secret in secrets.items()
        }
        first = states[min(states)]
        start = first["hand_index"] if start is None else start
        if first["over"] or first["hand_index"] > start:
            return first
        movers = [seat for seat, state in states.items() if state["your_turn"] and state["legal"]]
        if not movers:
            # The computer plays a seat handed over to it; its person takes it back.
            handed = [seat for seat, state in states.items() if state["handed_over"]]
            assert handed, states
            assert client.post(f"/api/seat/{secrets[handed[0]]}/reclaim").status_code == 200
            continue
        seat = movers[0]
        move = _choose(states[seat]["legal"], rng)
        reply = client.post(f"/api/seat/{secrets[seat]}/move", json={"move": move})
        assert reply.status_code == 200, reply.text
    raise AssertionError("no hand was dealt after the one under way")


@pytest.mark.parametrize(
    "index", range(len(RELEASE["games"])), ids=[g["label"] for g in RELEASE["games"]]
)
def test_every_stored_game_plays_on(client: TestClient, index: int) -> None:
    """Each game plays on through the end of a hand and the deal of the next (or to its
    end): moves, scores and deals stored by today's server beside the release's; every
    hand over checks out against its commitment, and the record replays."""
    game = RELEASE["games"][index]
    secrets = {int(seat): secret for seat, secret in game["secrets"].items()}
    _play_on(client, secrets, random.Random(index))
    record = client.get(f"/api/seat/{secrets[min(secrets)]}/record")
    assert record.status_code == 200
    told = loads_any(record.text)
    assert told.hands
    for hand_index in range(len(record.json()["hands"])):
        proof = client.get(f"/api/games/{game['game_id']}/hands/{hand_index}/verify").json()
        assert proof["over"]
        deck = [parse_card(name) for name in proof["deck"]]
        assert deck_commitment(bytes.fromhex(proof["salt"]), deck) == proof["commitment"]


def test_a_rematch_made_by_the_release_is_the_one_asked_for(client: TestClient) -> None:
    """The finished game's rematch, made by the release, is the one its player lands in,
    by the link worked out from his old one."""
    finished, rematch = (
        next(game for game in RELEASE["games"] if game["label"] == label)
        for label in ("umtali finished, with its rematch", "the rematch")
    )
    again = client.post(f"/api/seat/{finished['secrets']['0']}/rematch")
    assert again.status_code == 200, again.text
    assert again.json()["game_id"] == rematch["game_id"]
    assert again.json()["seats"][0]["secret"] == rematch["secrets"]["0"]
