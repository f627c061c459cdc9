"""Gin Rummy in a real browser: a real ``umtali serve`` process, Debian's chromium driven
by Playwright, the game chosen on the home page and a whole hand against the computer
played by clicks (draw or take, choose a card, discard or knock), then the end of the
hand as the page shows it; and the table at phone and desktop widths, checked for
overlap and legibility, with screenshots.

The moves are chosen from the seat's legal moves (read from the API, as a player reads
the table) by the same sensible policy as the API tests, and made through the page
only.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.browser import open_settings
from tests.servers import HTTP, ServerProcess
from tests.test_web_browser import WAIT_MS, api_state, open_home, seat_secret, turn_state
from tests.test_web_gin import gin_move

JSON = dict[str, Any]


@pytest.fixture
def server(web_server: ServerProcess) -> ServerProcess:
    """The session's server: these tests make games of their own on it."""
    return web_server


def wait_for_version(page: Page, version: int) -> None:
    """Wait until the Gin table shows ``version`` (or later), with no move on its way,
    and (on a page of ``seat_context``) its socket has brought that version too: as
    ``SETTLED`` in tests/browser.py."""
    page.wait_for_function(
        """(version) => {
            const table = document.getElementById("gin-table");
            const heard = window.umtaliSocketVersion;
            return Number(table.dataset.version) >= version && table.dataset.pending === "false"
                && (heard === undefined || heard >= version);
        }""",
        arg=version,
        timeout=WAIT_MS,
    )


def open_gin_table(page: Page, server: ServerProcess, variant: str = "standard") -> str:
    """A new game of Gin Rummy against the greedy computer, made on the home page."""
    open_home(page, server)
    page.check('#computer-form input[name=game][value="gin"]')
    page.check(f'#computer-form input[name=rules][value="{variant}"]')
    # Gin Rummy's levels replace Umtali's; how long is not asked (it is played to 100).
    assert page.is_hidden("#computer-form .kind-choice")
    page.check('#computer-form input[name=level][value="greedy"]')
    page.click("#computer-form button[type=submit]")
    page.wait_for_url(re.compile(r"/seat/"))
    page.wait_for_selector("#gin-connection[data-status=live]", timeout=WAIT_MS)
    return seat_secret(page)


def click_move(page: Page, move: str) -> None:
    """Make ``move`` by clicks: the stock or the pile for a draw or a take; the card,
    then its button, for a discard or a knock."""
    verb, *card = move.split()
    if verb == "draw":
        page.click("#gin-stock button")
    elif verb == "take":
        page.click("#gin-pile button")
    elif card:
        button = f'#gin-hand button[data-card="{card[0]}"]'
        # A second click on the chosen card un-chooses it: click only a card not chosen.
        if page.get_attribute(button, "aria-pressed") != "true":
            page.click(button)
        assert page.get_attribute(button, "aria-pressed") == "true"
        page.click(f'#gin-actions button[data-move="{move}"]')
    else:
        page.click(f'#gin-actions button[data-move="{move}"]')


def play_hand_by_clicks(page: Page, server: ServerProcess, secret: str) -> JSON:
    """Play this seat's moves on the page until the first hand is over; the state then."""
    rng = random.Random(2)
    state = turn_state(server, secret)
    while state["hand_index"] == 0 and not state["over"]:
        wait_for_version(page, state["version"])
        # What the page offers is what the rules allow: no more, no less.
        shown = page.eval_on_selector_all(
            "#gin-actions button[data-move]", "buttons => buttons.map(b => b.dataset.move)"
        )
        assert set(shown) <= set(state["legal"])
        click_move(page, gin_move(state, rng))
        wait_for_version(page, state["version"] + 1)
        state = turn_state(server, secret)
    wait_for_version(page, api_state(server, secret)["version"])
    return api_state(server, secret)


def test_a_whole_hand_of_gin_against_the_computer_by_clicks(
    browser: Browser, server: ServerProcess
) -> None:
    page = browser.new_page()
    secret = open_gin_table(page, server)
    first = api_state(server, secret)
    assert first["game"] == "gin"
    # The hand is shown grouped: each meld, then the deadwood with its count.
    groups = page.locator("#gin-hand .gin-group").count()
    assert groups == len(first["gin"]["melds"]) + (1 if first["gin"]["deadwood"] else 0)
    assert page.inner_text("#gin-limit").startswith("Knock with 10 or less")
    state = play_hand_by_clicks(page, server, secret)
    end = state["gin"]["hand_end"]
    assert end is not None
    assert end["hand_index"] == 0
    # The end of the hand: both sides' cards, how it ended, the points.
    panel = page.locator("#gin-hand-end")
    panel.wait_for(state="visible", timeout=WAIT_MS)
    text = panel.inner_text()
    assert end["result"][1:] in text  # the first letter a capital
    assert state["previous"]["heading"] in text
    for side in end["sides"]:
        assert side["name"] in text
    shown = panel.locator("svg.card").count()
    laid = sum(len(meld) for side in end["sides"] for meld in side["melds"])
    assert shown == laid + sum(len(side["deadwood"]) for side in end["sides"])
    scores = page.inner_text("#gin-scores")
    assert "Hand 1" in scores
    page.click("#gin-hand-end button[data-key=gin-hand-end-close]")
    assert page.is_hidden("#gin-hand-end")
    page.close()


LAYOUT_CHECKS = """() => {
  const box = (el) => el.getBoundingClientRect();
  const visible = (el) => { const b = box(el); return b.width > 0 && b.height > 0; };
  const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const problems = [];
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width) problems.push(`page ${document.documentElement.scrollWidth}px wide in ${width}px`);
  for (const el of document.querySelectorAll("body *")) {
    if (!visible(el) || el.closest("svg")) continue;
    // At a phone's table the site's bar is one line that scrolls sideways: its end may lie past the edge.
    if (box(el).right > width + 0.5 && !el.closest(".site-header")) problems.push(`${el.tagName}#${el.id}.${el.className} ends at ${box(el).right}`);
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (own && size < 12) problems.push(`${el.tagName}.${el.className} "${el.textContent.trim().slice(0, 20)}" at ${size}px`);
  }
  const side = document.querySelector("#gin-table .sidebar");
  if (side && visible(side) && side.scrollWidth > side.clientWidth + 1) problems.push(`the sidebar scrolls sideways: ${side.scrollWidth}px in ${side.clientWidth}px`);
  const regions = ["#gin-table .opponent", "#gin-table .middle", "#gin-hand", "#gin-actions", "#gin-table .sidebar", "#gin-turn", "#gin-table .status-bar"]
    .map((s) => document.querySelector(s)).filter((el) => el && visible(el));
  for (let i = 0; i < regions.length; i++) for (let j = i + 1; j < regions.length; j++) {
    if (overlap(box(regions[i]), box(regions[j]))) problems.push(`regions overlap: ${regions[i].id || regions[i].className} / ${regions[j].id || regions[j].className}`);
  }
  for (const selector of ["#gin-hand .gin-group", "#gin-actions > *", "#gin-table .middle > *"]) {
    const items = [...document.querySelectorAll(selector)].filter(visible);
    for (let i = 0; i < items.length; i++) for (let j = i + 1; j < items.length; j++) {
      if (overlap(box(items[i]), box(items[j]))) problems.push(`${selector} ${i} and ${j} overlap`);
    }
  }
  return problems;
}"""


@pytest.mark.parametrize("width", [360, 1280])
def test_the_gin_table_fits_and_reads_at_phone_and_desktop_widths(
    browser: Browser,
    desktop_browser: Browser,
    server: ServerProcess,
    tmp_path: Path,
    width: int,
) -> None:
    # A desktop's scroll bars take room: the sidebar's sheet must fit beside its own.
    context = (desktop_browser if width > 700 else browser).new_context(
        viewport={"width": width, "height": 800}
    )
    page = context.new_page()
    open_home(page, server)
    page.check('#computer-form input[name=game][value="gin"]')
    page.screenshot(path=str(tmp_path / f"gin-home-{width}.png"), full_page=True)
    secret = open_gin_table(page, server, "oklahoma")
    # The longest name the page lets a player type, with no space to wrap at: the score
    # sheet's column and every line that names him must still fit.
    HTTP.post(
        f"{server.url}/api/seat/{secret}/name", json={"name": "W" * 24}, timeout=10
    ).raise_for_status()
    state = turn_state(server, secret)
    rng = random.Random(width)
    # On to a turn with eleven cards in hand, a card chosen: the fullest the table gets.
    while not any(move.startswith("discard") for move in state["legal"]):
        wait_for_version(page, state["version"])
        click_move(page, gin_move(state, rng))
        wait_for_version(page, state["version"] + 1)
        state = turn_state(server, secret)
    wait_for_version(page, state["version"])
    card = state["legal"][-1].split()[1]
    page.click(f'#gin-hand button[data-card="{card}"]')
    assert page.evaluate(LAYOUT_CHECKS) == []
    page.screenshot(path=str(tmp_path / f"gin-table-{width}.png"), full_page=True)
    # The four-colour deck draws each suit in its own colour.
    open_settings(page)
    page.check("#four-colour")
    fills = "cards => cards.map(c => getComputedStyle(c.querySelector('.card-rank')).fill)"
    suits = {name[-1] for name in state["view"]["hand"]}
    assert len(set(page.eval_on_selector_all("#gin-hand svg.card", fills))) == len(suits)
    # On to the end of the hand: the hand-end panel, at this width too.
    play_hand_by_clicks(page, server, secret)
    page.locator("#gin-hand-end").wait_for(state="visible", timeout=WAIT_MS)
    assert page.evaluate(LAYOUT_CHECKS) == []
    page.screenshot(path=str(tmp_path / f"gin-hand-end-{width}.png"), full_page=True)
    context.close()
