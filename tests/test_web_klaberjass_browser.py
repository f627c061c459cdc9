"""Klaberjass in a real browser: a real ``umtali serve`` process, Debian's chromium driven
by Playwright, the game chosen on the home page and a whole hand against the computer
played by clicks (the bids and the exchange by their buttons, each card by clicking it),
then the end of the hand as the page shows it.

The moves are chosen at random from the seat's legal moves (read from the API, as a
player reads the table) and made through the page only.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.servers import ServerProcess
from tests.test_web_browser import WAIT_MS, api_state, open_home, seat_secret, turn_state
from umtali.kernel.cards import card_ascii, parse_card

JSON = dict[str, Any]


@pytest.fixture
def server(web_server: ServerProcess) -> ServerProcess:
    """The session's server: these tests make games of their own on it."""
    return web_server


def wait_for_version(page: Page, version: int) -> None:
    """Wait until the table shows ``version`` (or later) with no move on its way."""
    page.wait_for_function(
        """(version) => {
            const table = document.getElementById("kj-table");
            return Number(table.dataset.version) >= version && table.dataset.pending === "false";
        }""",
        arg=version,
        timeout=WAIT_MS,
    )


def click_move(page: Page, move: str) -> None:
    """Make ``move`` by a click: a card played by clicking it in the hand, any other
    move by its button."""
    verb, *rest = move.split()
    if verb == "play":
        page.click(f'#kj-hand button[data-card="{card_ascii(parse_card(rest[0]))}"]')
    else:
        page.click(f'#kj-actions button[data-move="{move}"]')


def test_a_whole_hand_of_klaberjass_against_the_computer_by_clicks(
    browser: Browser, server: ServerProcess
) -> None:
    page = browser.new_page()
    open_home(page, server)
    page.check('#computer-form input[name=game][value="klaberjass"]')
    page.check('#computer-form input[name=level][value="random"]')
    page.click("#computer-form button[type=submit]")
    page.wait_for_url(re.compile(r"/seat/"))
    page.wait_for_selector("#kj-connection[data-status=live]", timeout=WAIT_MS)
    secret = seat_secret(page)
    rng = random.Random(4)
    state = turn_state(server, secret)
    assert state["game"] == "klaberjass"
    while state["hand_index"] == 0 and not state["over"]:
        wait_for_version(page, state["version"])
        # What the page offers as buttons is what the rules allow, no more.
        offered = page.eval_on_selector_all(
            "#kj-actions button[data-move]", "buttons => buttons.map(b => b.dataset.move)"
        )
        assert set(offered) <= set(state["legal"])
        click_move(page, rng.choice(state["legal"]))
        wait_for_version(page, state["version"] + 1)
        state = turn_state(server, secret)
    final = api_state(server, secret)
    wait_for_version(page, final["version"])
    # The end of the first hand: its account, and the score sheet's first line.
    panel = page.locator("#kj-hand-end")
    panel.wait_for(state="visible", timeout=WAIT_MS)
    assert "Hand 1" in panel.inner_text()
    assert "Hand 1" in page.inner_text("#kj-scores")
    page.close()
