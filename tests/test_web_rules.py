"""The rules pages (``GET /rules/<game>``) and the words a player reads when a move is
refused or a hint given: every registered game has its page, every rule a refusal can
cite is an anchor on it, and no sentence of a scripted game names a rule by its code or
starts in lower case."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from umtali import games
from umtali.games.api import Hint, Refused
from umtali.kernel.english import sentence
from umtali.web.app import create_app
from umtali.web.rules_page import ANCHOR, render, rule_link, rules_page

REASONS = Path(games.__file__).parent / "umtali" / "reasons.py"

CODE_IN_TEXT = re.compile(r"\((?:R\d+|V)(?:, (?:R\d+|V))*\)")
"""A ruling named by its code in brackets, "(R4)", "(R4, R6)", "(V)" (not a card's rank,
"(K)")."""


class _Ids(HTMLParser):
    """The ids of a page's elements, and whether it holds a script."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.scripts = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.scripts += tag == "script"
        self.ids.update(value for name, value in attrs if name == "id" and value)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder = tmp_path_factory.mktemp("rules")
    with TestClient(create_app(f"sqlite:///{folder}/u.db")) as test_client:
        yield test_client


def page_ids(client: TestClient, game: str) -> set[str]:
    reply = client.get(f"/rules/{game}")
    assert reply.status_code == 200, reply.text
    assert reply.headers["content-type"].startswith("text/html")
    assert "script-src 'self'" in reply.headers["content-security-policy"]
    found = _Ids()
    found.feed(reply.text)
    assert found.scripts == 0, "a rules page runs no script"
    return found.ids


def cited_rules() -> set[str]:
    """Every rule id a refusal of Umtali's engine may cite: the string constants of the
    ``rules`` argument of each ``_Why`` in reasons.py."""
    tree = ast.parse(REASONS.read_text(encoding="utf-8"))
    cited: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "_Why":
            rules = node.args[2] if len(node.args) > 2 else None
            if isinstance(rules, ast.Tuple):
                cited.update(
                    e.value
                    for e in rules.elts
                    if isinstance(e, ast.Constant) and isinstance(e.value, str)
                )
    return cited


@pytest.mark.parametrize("game", games.names())
def test_every_game_has_a_rules_page_with_an_anchor_for_each_rule(
    client: TestClient, game: str
) -> None:
    spec = games.get(game)
    assert spec.rules_text is not None, f"{game} ships no rules text"
    ids = page_ids(client, game)
    anchored = {m.group(1) for m in map(ANCHOR.match, spec.rules_markdown().split("\n")) if m}
    assert anchored, f"{game}'s rules name no rule"
    assert anchored <= ids
    assert set(rules_page(game).rules) == anchored


def test_every_rule_a_refusal_cites_links_to_an_anchor(client: TestClient) -> None:
    cited = cited_rules()
    assert {"R1", "R2", "R3", "R4", "R5", "R6", "R7", "V"} <= cited
    ids = page_ids(client, "umtali")
    for rule in sorted(cited):
        link = rule_link("umtali", (rule,))
        assert link is not None, rule
        path, _, anchor = link.url.partition("#")
        assert path == "/rules/umtali", link
        assert anchor in ids, link


def test_an_unknown_game_has_no_rules_page(client: TestClient) -> None:
    reply = client.get("/rules/chess")
    assert reply.status_code == 404
    assert "umtali" in reply.json()["detail"]


def test_the_markdown_is_escaped_and_only_anchor_lines_are_read() -> None:
    body, rules = render(
        '<a id="x1"></a>\n\n## X1 A rule\n\n<script>alert(1)</script>\n\n'
        '<a href="javascript:alert(1)">a</a> [b](javascript:alert(1)) [c](../gin/RULES.md)'
        "\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    )
    assert rules == {"x1": "X1 A rule"}
    assert "<script" not in body
    assert 'href="javascript' not in body
    assert '<a href="/rules/gin">c</a>' in body
    assert 'role="region"' in body
    assert "<table>" in body


def scripted_sentences(game: str, seed: int, steps: int = 150) -> Iterator[tuple[str, Refused]]:
    """The refusals and hints a person in seat 0 of ``game`` reads in a scripted game
    against the computer: at each of his turns every move text played so far is tried
    (most are refused now), a hint is asked for and played."""
    spec = games.get(game)
    session = spec.maker().new(seed=seed, humans={0}, seats=2)
    played: list[str] = []
    for _ in range(steps):
        if session.is_over():
            return
        if session.needs_deal():
            session.deal()
            continue
        seat = session.to_move()
        if seat is None:
            return
        if seat != 0:
            played.append(session.bot_move(budget=0.01).move.text())
            continue
        for text in dict.fromkeys(played[-12:]):
            reply = session.check(0, text)
            if isinstance(reply, Refused):
                yield reply.sentence, reply
        hint = session.hint(0, budget=0.01)
        assert isinstance(hint, Hint), hint
        told = f"Hint: {hint.move.text()}. {sentence(hint.why)}"  # as the table says it
        yield told, Refused("")
        accepted = session.submit(0, hint.move)
        assert not isinstance(accepted, Refused), accepted
        played.append(hint.move.text())


@pytest.mark.parametrize("game", games.names())
def test_what_a_player_reads_is_written_for_him(game: str) -> None:
    seen = 0
    linked = 0
    for seed in (3, 8):
        for text, reply in scripted_sentences(game, seed):
            seen += 1
            assert not CODE_IN_TEXT.search(text), text
            assert text[:1].isupper() or text[:1].isdigit(), text  # a word, or a card
            assert "is not allowed now" not in text or text.startswith("That"), text
            for rule in reply.rules:
                link = rule_link(game, (rule,))
                assert link is not None, (rule, text)
                linked += 1
            if text.startswith("Hint: "):
                assert len(text.split(". ", 1)[1]) > 3, text
    assert seen > 10
    if game == "umtali":
        assert linked, "some refusal of a scripted Umtali game cites a rule"
