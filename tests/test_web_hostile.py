"""Crafted input from a stranger who means harm, sent over HTTP and the WebSocket: lone
surrogates in JSON, ids and indices past what the database holds, forged socket links,
and the documentation pages, which stay off unless asked for. Each is answered with a
4xx and a message saying what is wrong; none gives 500, and no traceback reaches the
log (issue 24)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.servers import ServerProcess, running_server
from tests.test_web_api import app_on
from umtali.cli.parser import build_parser
from umtali.web.app import create_app
from umtali.web.routers.pages import CONTENT_SECURITY_POLICY

LONE = '"\\ud800"'
"""A JSON string holding a lone surrogate (written as JSON writes it)."""

HUGE = [2**31, 2**63, 2**64, -(2**63) - 1, 10**50]
"""Numbers no id or index of the database can be."""


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with TestClient(app_on(db_url), raise_server_exceptions=False) as opened:
        yield opened


def secret_of(client: TestClient) -> str:
    """A seat of a new game between two people."""
    created = client.post("/api/games", json={"opponent": "person"}).json()
    secret: str = created["seats"][0]["secret"]
    return secret


def bodies() -> list[tuple[str, str]]:
    """Each route that reads a JSON body, and a body holding a lone surrogate (``SEAT``
    stands for a seat's secret)."""
    return [
        ("/api/games", f'{{"rules": {LONE}}}'),
        ("/api/games", f'{{"game": {LONE}}}'),
        ("/api/games", f'{{"level": {LONE}, "opponent": "computer"}}'),
        ("/api/games", f'{{"kind": {LONE}}}'),
        ("/api/games", f'{{"invite": [{LONE}], "players": 3}}'),
        ("/api/games", f"{{{LONE}: 1}}"),
        ("/api/seat/SEAT/move", f'{{"move": {LONE}}}'),
        ("/api/seat/SEAT/move", '{"move": "draw \\udfff"}'),
        ("/api/seat/SEAT/why", f'{{"move": {LONE}}}'),
        ("/api/seat/SEAT/hand-over", f'{{"move": {LONE}}}'),
        ("/api/quiz/1/answer", f'{{"answer": {LONE}}}'),
        ("/api/lessons/1/questions/1/answer", f'{{"answer": {LONE}}}'),
        ("/api/replay", f'{{"format": {LONE}}}'),
    ]


@pytest.mark.parametrize(("path", "body"), bodies())
def test_a_lone_surrogate_in_a_json_body_is_refused_with_400(
    client: TestClient, path: str, body: str
) -> None:
    path = path.replace("SEAT", secret_of(client))
    for headers in ({"content-type": "application/json"}, {}):
        reply = client.post(path, content=body.encode(), headers=headers)
        assert reply.status_code == 400, reply.text
        assert "lone surrogate" in reply.json()["detail"]


def test_a_surrogate_as_raw_bytes_is_refused_too(client: TestClient) -> None:
    # Python's JSON reader lets the bytes of a surrogate through as one.
    reply = client.post("/api/games", content=b'{"rules": "\xed\xa0\x80"}')
    assert reply.status_code == 400
    assert reply.json()["detail"].startswith("the JSON holds a lone surrogate (rules)")


def test_a_pair_of_surrogates_is_a_character_and_read_as_ever(client: TestClient) -> None:
    secret = secret_of(client)
    reply = client.post(
        f"/api/seat/{secret}/why",
        content=b'{"move": "\\ud83c\\udca1"}',
        headers={"content-type": "application/json"},
    )
    assert reply.status_code == 200, reply.text


def test_a_lone_surrogate_in_a_socket_message_gets_an_error_and_the_socket_goes_on(
    client: TestClient,
) -> None:
    with client.websocket_connect(f"/ws/seat/{secret_of(client)}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_text(f'{{"type": "move", "move": {LONE}, "id": 3}}')
        error = ws.receive_json()
        assert error["type"] == "error"
        assert error["id"] == 3
        assert "lone surrogate (move)" in error["detail"]
        ws.send_text('{"type": "ping"}')
        assert ws.receive_json() == {"type": "pong"}


def number_paths(client: TestClient) -> list[tuple[str, int]]:
    """Each route with a number in its path, ``N`` standing for it, and the status that
    answers a number that names nothing."""
    game_id = client.post("/api/games", json={"opponent": "person"}).json()["game_id"]
    return [
        ("/api/games/N/record", 404),
        ("/api/games/N/hands/0/verify", 404),
        (f"/api/games/{game_id}/hands/N/verify", 404),
        ("/api/lessons/N", 404),
        ("/api/klaberjass/howto/N", 422),
    ]


def test_a_huge_id_or_index_names_nothing_and_says_so(client: TestClient) -> None:
    for path, status in number_paths(client):
        for number in HUGE:
            reply = client.get(path.replace("N", str(number)))
            assert reply.status_code == status, (path, number, reply.text)
            if status == 404:
                detail = reply.json()["detail"]
                assert "no game" in detail or "no hand" in detail or "no lesson" in detail
    for path in ("/api/quiz/N/answer", "/api/lessons/1/questions/N/answer"):
        for number in HUGE:
            reply = client.post(path.replace("N", str(number)), json={"answer": "a"})
            assert reply.status_code == 404, (path, number, reply.text)


def test_a_huge_id_is_quoted_short(client: TestClient) -> None:
    detail = client.get(f"/api/games/{10**50}/record").json()["detail"]
    assert detail.startswith("there is no game 1000000000… (51 digits): a game id is")


def test_the_api_documentation_is_off_unless_asked_for(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'off.db'}")) as client:
        assert client.get("/docs").status_code == 404
        assert client.get("/redoc").status_code == 404
        assert client.get("/openapi.json").status_code == 200
    with TestClient(create_app(f"sqlite:///{tmp_path / 'on.db'}", api_docs=True)) as client:
        for page in ("/docs", "/redoc"):
            reply = client.get(page)
            assert reply.status_code == 200
            assert reply.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert build_parser().parse_args(["serve", "--api-docs"]).api_docs
    assert not build_parser().parse_args(["serve"]).api_docs


# -- over a real socket ------------------------------------------------------------------------


def ws_url(server: ServerProcess, secret: str) -> str:
    return server.url.replace("http://", "ws://") + f"/ws/seat/{secret}"


def test_a_forged_socket_link_is_closed_with_4404(web_server: ServerProcess) -> None:
    forged = ws_url(web_server, "forged-link-" + "x" * 30)
    with connect(forged, open_timeout=30) as ws, pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=30)
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == 4404
    assert closed.value.rcvd.reason == "no seat has this link"


def probe(server: ServerProcess) -> list[tuple[str, int]]:
    """Send every crafted request to ``server``: what each was answered."""
    answers: list[tuple[str, int]] = []
    with httpx.Client(base_url=server.url, timeout=30) as http:
        created: dict[str, Any] = http.post("/api/games", json={"opponent": "person"}).json()
        secret = created["seats"][0]["secret"]
        for path, body in bodies():
            path = path.replace("SEAT", secret)
            reply = http.post(
                path, content=body.encode(), headers={"content-type": "application/json"}
            )
            answers.append((path, reply.status_code))
        for path in (
            "/api/games/N/record",
            "/api/games/N/hands/0/verify",
            "/api/games/1/hands/N/verify",
        ):
            for number in HUGE:
                reply = http.get(path.replace("N", str(number)))
                answers.append((path, reply.status_code))
    with connect(ws_url(server, secret), open_timeout=30) as ws:
        ws.recv(timeout=30)  # the state
        ws.send(f'{{"type": "move", "move": {LONE}, "id": 1}}')
        ws.send('{"type": "ping"}')
        while '"pong"' not in ws.recv(timeout=30):
            pass
    return answers


def test_no_crafted_input_leaves_a_traceback_in_the_log(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'umtali.db'}", tmp_path) as server:
        answers = probe(server)
    log = server.log.read_text(errors="replace")
    assert [(path, status) for path, status in answers if status >= 500] == []
    assert "Traceback" not in log, log[-4000:]
