"""Open tables in a real browser (issue 25): one player (browser context A) opens a
table of Gin Rummy on the home page and waits at it; another (context B, a browser of
his own) sees it in the home page's "Open tables", sits down, and both tables show the
other's name; B plays when it is his turn, by clicks. Screenshots of the panel at a
phone's and a desktop's width go to the test's own folder."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import seat_context
from tests.layout import SIZES, layout_problems
from tests.servers import ServerProcess
from tests.test_web_browser import WAIT_MS, api_state, seat_secret, turn_state
from tests.test_web_gin import gin_move
from tests.test_web_gin_browser import click_move, wait_for_version
from tests.test_web_table_fit_browser import GIN, GIN_PARTS


@pytest.fixture
def server(web_server: ServerProcess) -> ServerProcess:
    """The tests' shared server (tests/conftest.py): each test makes its own tables."""
    return web_server


def open_home(page: Page, server: ServerProcess) -> None:
    """The home page, once its "Open tables" panel has the games to choose from."""
    page.goto(server.url + "/")
    page.wait_for_selector("#open-game option", state="attached", timeout=WAIT_MS)


def test_a_table_opened_in_one_browser_is_taken_in_another(
    browser: Browser, server: ServerProcess, tmp_path: Path
) -> None:
    opener = f"Ann {random.randrange(1000)}"
    first = seat_context(browser)
    second = seat_context(browser)
    try:
        a = first.new_page()
        open_home(a, server)
        a.fill("#your-name", opener)
        a.select_option("#open-game", "gin")
        a.click("#open-table-submit")
        a.wait_for_url(re.compile(r"/seat/"), timeout=WAIT_MS)
        a.wait_for_selector("#gin-connection[data-status=live]", timeout=WAIT_MS)
        expect(a.locator("#gin-opponent-presence")).to_contain_text(
            "Waiting for someone to sit down", timeout=WAIT_MS
        )
        expect(a.get_by_role("button", name="Play the computer instead")).to_be_visible()
        secret_a = seat_secret(a)
        # The waiting table, its offer of the computer with it, fits every window.
        for size in SIZES:
            a.set_viewport_size(size)
            assert layout_problems(a, GIN_PARTS, GIN, "open-table-waiting") == []
            a.screenshot(path=str(tmp_path / f"waiting-{size['width']}.png"))
        a.set_viewport_size({"width": 1280, "height": 800})
        # Back on the home page, his own table is listed with a way back to his seat,
        # not "Sit down"; and where the browser forgot that it opened the table, the
        # server refuses him the seat across from himself.
        open_home(a, server)
        own_row = a.locator("#open-tables-list li", has_text=opener)
        expect(own_row.get_by_role("link", name=re.compile("Your table"))).to_be_visible(
            timeout=WAIT_MS
        )
        expect(own_row.get_by_role("button", name=re.compile("Sit down"))).to_have_count(0)
        a.evaluate("localStorage.removeItem('umtali.opened')")
        open_home(a, server)
        a.fill("#your-name", opener)
        own_row.get_by_role("button", name=re.compile("Sit down")).click(timeout=WAIT_MS)
        expect(a.locator("#open-tables-error")).to_contain_text("this is your own table")
        assert a.url.rstrip("/") == server.url
        a.goto(f"{server.url}/seat/{secret_a}")
        a.wait_for_selector("#gin-connection[data-status=live]", timeout=WAIT_MS)

        b = second.new_page()
        for width, height in ((390, 844), (1280, 800)):
            b.set_viewport_size({"width": width, "height": height})
            open_home(b, server)
            row = b.locator("#open-tables-list li", has_text=opener)
            expect(row).to_contain_text("Gin Rummy", timeout=WAIT_MS)
            b.locator("#open-tables-slot").screenshot(
                path=str(tmp_path / f"open-tables-{width}.png")
            )
            b.screenshot(path=str(tmp_path / f"home-{width}.png"), full_page=True)
        b.fill("#your-name", "Bob")
        b.locator("#open-tables-list li", has_text=opener).get_by_role("button").click()
        b.wait_for_url(re.compile(r"/seat/"), timeout=WAIT_MS)
        b.wait_for_selector("#gin-connection[data-status=live]", timeout=WAIT_MS)
        secret_b = seat_secret(b)

        # Each table names the other player; A's heard it live, without a reload.
        expect(b.locator("#gin-opponent-name")).to_have_text(opener, timeout=WAIT_MS)
        expect(a.locator("#gin-opponent-name")).to_have_text("Bob", timeout=WAIT_MS)
        expect(a.locator("#gin-opponent-presence")).not_to_contain_text("Waiting")

        # They play on, each on his own page, until B has made a move of his own.
        rng = random.Random(5)
        played_by_b = 0
        while played_by_b == 0:
            state_b = api_state(server, secret_b)
            assert not state_b["over"]
            page, secret = (b, secret_b) if state_b["your_turn"] else (a, secret_a)
            state = turn_state(server, secret)
            wait_for_version(page, state["version"])
            click_move(page, gin_move(state, rng))
            wait_for_version(page, state["version"] + 1)
            played_by_b += page is b
        assert opener in api_state(server, secret_b)["names"]
    finally:
        first.close()
        second.close()
