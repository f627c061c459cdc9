"""The pages' routes (umtali.web.pages): what is served, with which headers, and what
is refused; and the static files themselves (no inline script, every import found)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from umtali.web.app import create_app
from umtali.web.routers import pages


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder = tmp_path_factory.mktemp("pages")
    with TestClient(create_app(f"sqlite:///{folder}/u.db")) as test_client:
        yield test_client


def assert_locked_down(headers: dict[str, str] | object) -> None:
    """The headers every page and file carries."""
    policy = headers["content-security-policy"]  # type: ignore[index]
    directives = dict(part.strip().split(" ", 1) for part in policy.split(";"))
    assert directives["default-src"] == "'none'"
    assert directives["script-src"] == "'self'"
    assert directives["style-src"] == "'self'"
    assert directives["connect-src"] == "'self'"
    assert directives["frame-ancestors"] == "'none'"
    assert "unsafe" not in policy
    assert headers["referrer-policy"] == "no-referrer"  # type: ignore[index]
    assert headers["x-content-type-options"] == "nosniff"  # type: ignore[index]


def test_the_home_page_and_every_seat_path_answer_the_page(client: TestClient) -> None:
    home = client.get("/")
    assert home.status_code == 200
    assert home.headers["content-type"] == "text/html; charset=utf-8"
    assert_locked_down(home.headers)
    assert home.headers["cache-control"] == "no-cache"
    assert '<script type="module" src="/static/js/main.js">' in home.text
    # Any seat path answers the same page; the secret is not looked at here, so a
    # forged one is told apart from a real one by the API only.
    seat = client.get("/seat/some-secret-that-names-no-seat")
    assert seat.status_code == 200
    assert seat.content == home.content
    assert_locked_down(seat.headers)


def test_a_seat_path_with_too_long_a_secret_is_refused(client: TestClient) -> None:
    assert client.get("/seat/" + "a" * 201).status_code == 422


@pytest.mark.parametrize(
    ("path", "media_type"),
    [
        ("/static/js/cards.js", "text/javascript; charset=utf-8"),
        ("/static/games/umtali/table.js", "text/javascript; charset=utf-8"),
        ("/static/css/base.css", "text/css; charset=utf-8"),
        ("/static/img/icon.svg", "image/svg+xml"),
        ("/static/index.html", "text/html; charset=utf-8"),
    ],
)
def test_static_files_are_served_with_their_type(
    client: TestClient, path: str, media_type: str
) -> None:
    reply = client.get(path)
    assert reply.status_code == 200
    assert reply.headers["content-type"] == media_type
    assert_locked_down(reply.headers)
    on_disk = pages.STATIC_ROOT.joinpath(*path.removeprefix("/static/").split("/"))
    assert reply.content == on_disk.read_bytes()


def test_a_file_the_browser_holds_is_answered_304(client: TestClient) -> None:
    first = client.get("/static/js/cards.js")
    tag = first.headers["etag"]
    assert re.fullmatch(r'"[0-9a-f]{32}"', tag)
    again = client.get("/static/js/cards.js", headers={"If-None-Match": tag})
    assert again.status_code == 304
    assert again.content == b""
    assert again.headers["etag"] == tag
    weak = client.get("/static/js/cards.js", headers={"If-None-Match": f'"other", W/{tag}'})
    assert weak.status_code == 304
    stale = client.get("/static/js/cards.js", headers={"If-None-Match": '"0000"'})
    assert stale.status_code == 200
    assert stale.content == first.content


def test_head_gives_the_headers_without_the_body(client: TestClient) -> None:
    full = client.get("/static/css/base.css")
    head = client.head("/static/css/base.css")
    assert head.status_code == 200
    assert head.content == b""
    assert head.headers["content-length"] == str(len(full.content))
    assert head.headers["etag"] == full.headers["etag"]


@pytest.mark.parametrize(
    "path",
    [
        "/static/nothing-here.js",
        "/static/js",  # a folder
        "/static/js/",
        "/static/%2e%2e/pages.py",  # out of the folder
        "/static/js/%2e%2e/%2e%2e/pages.py",
        "/static/..%2fpages.py",
        "/static/js%5ccards.js",  # a backslash
        "/static/.hidden.js",
        "/static/js//cards.js",
        "/static/" + "a/" * 200 + "cards.js",
    ],
)
def test_what_is_no_page_file_is_answered_404(client: TestClient, path: str) -> None:
    reply = client.get(path)
    assert reply.status_code == 404
    assert "no page file has this path" in reply.json()["detail"]
    assert_locked_down(reply.headers)


def test_only_known_types_inside_the_folder_are_served(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "static"
    root.mkdir()
    (root / "page.js").write_text("export {};\n")
    (root / "notes.bak").write_text("a backup an editor left\n")
    outside = tmp_path / "secret.js"
    outside.write_text("export const secret = 1;\n")
    (root / "link.js").symlink_to(outside)
    monkeypatch.setattr(pages, "STATIC_ROOT", root.resolve())
    assert client.get("/static/page.js").status_code == 200
    assert client.get("/static/notes.bak").status_code == 404
    assert client.get("/static/link.js").status_code == 404


@pytest.mark.parametrize(
    ("name", "changed", "before", "after"),
    [
        ("page.js", "page.js", "export const version = 1;\n", "export const version = 22;\n"),
        # A page's included file (the learning pages' header): its link to the page marked.
        ("page.html", "nav.html", '<a href="/a">A</a><a href="/b">B</a>\n',
         '<a href="/b">B</a><a href="/c">C, a longer name</a>\n'),
    ],
    ids=["file", "included"],
)  # fmt: skip
def test_a_changed_file_is_read_again(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    changed: str,
    before: str,
    after: str,
) -> None:
    root = tmp_path / "static"
    root.mkdir()
    (root / changed).write_text(before)
    if changed != name:
        (root / name).write_text(f'<!--#include {changed} current="/b"-->\n')
    monkeypatch.setattr(pages, "STATIC_ROOT", root.resolve())
    with TestClient(create_app(f"sqlite:///{tmp_path}/u.db")) as client:
        first = client.get(f"/static/{name}")
        (root / changed).write_text(after)
        second = client.get(f"/static/{name}")
    assert first.text != second.text
    assert second.text == after.replace('href="/b">', 'href="/b" aria-current="page">')
    assert first.headers["etag"] != second.headers["etag"]


@pytest.mark.parametrize(
    ("path", "current"),
    [("/learn", "/learn"), ("/quiz", "/quiz"), ("/replay", "/replay"), ("/puzzles", "/puzzles"),
     ("/static/learn/review.html", None)],
)  # fmt: skip
def test_the_learning_pages_are_served_with_their_shared_head_and_header(
    client: TestClient, path: str, current: str | None
) -> None:
    page = client.get(path).text
    assert "<!--#include" not in page
    assert page.count('<meta charset="utf-8">') == 1
    assert page.index('<meta charset="utf-8">') < page.index("<title>")
    assert '<link rel="stylesheet" href="/static/learn/learning.css">' in page
    links = re.findall(r'<a href="([^"]*)"( aria-current="page")?>', page.split("</header>")[0])
    assert [href for href, _ in links] == ["/", "/learn", "/quiz", "/puzzles", "/replay"]
    assert [href for href, mark in links if mark] == ([] if current is None else [current])


# -- the files themselves -----------------------------------------------------------------------


class _Markup(HTMLParser):
    """Collects what a page loads and any inline script or style it holds."""

    def __init__(self) -> None:
        super().__init__()
        self.loads: list[str] = []
        self.inline: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name, value in attrs:
            if name.startswith("on") or name == "style":
                self.inline.append(f"<{tag} {name}=...>")
            if name in ("src", "href") and value and value.startswith("/static/"):
                self.loads.append(value)
        if tag == "style":
            self.inline.append("<style>")
        self._in_script = tag == "script"
        if tag == "script" and not values.get("src"):
            self.inline.append("<script> without src")

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False


def test_the_page_holds_no_inline_script_or_style_and_loads_what_exists(
    client: TestClient,
) -> None:
    markup = _Markup()
    markup.feed((pages.STATIC_ROOT / "index.html").read_text())
    assert markup.inline == []
    assert "/static/js/main.js" in markup.loads
    for path in markup.loads:
        assert client.get(path).status_code == 200, path


IMPORT = re.compile(r"""^\s*import\s[^;]*?from\s+"([^"]+)";""", re.MULTILINE | re.DOTALL)


def test_every_module_imports_modules_that_exist() -> None:
    scripts = sorted((pages.STATIC_ROOT / "js").glob("*.js"))
    assert scripts, "no modules found"
    seen = 0
    for script in scripts:
        for target in IMPORT.findall(script.read_text()):
            assert target.startswith("./"), f"{script.name} imports {target}: only relative modules"
            assert (script.parent / target).is_file(), f"{script.name} imports {target}: missing"
            seen += 1
    assert seen >= 5


def test_the_cards_module_keeps_its_published_interface() -> None:
    text = (pages.STATIC_ROOT / "js" / "cards.js").read_text()
    for name in ("cardSvg", "suitSymbol", "cardName", "cardText", "parseCard", "suitColour"):
        assert re.search(rf"^export function {name}\(", text, re.MULTILINE), name
    assert "export function cardSvg(card, { fourColour = false, faceDown = false } = {})" in text
