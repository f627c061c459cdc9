"""Issue 25's promise: a new user plays a whole game against the computer at a desktop's
size (1280×800) and at a phone's (390×844) without ever scrolling.

As a new user would: the home page, his name typed in, the one click of "Play the
computer" (what it deals by default: the registry's first game, Umtali, a game of four
hands, against its default level); then on each of his turns the hint (the H key and
the Hint button in turn), which selects the hint's cards and marks its move, and a
click on the move it marks; each end of a hand closed by its "Next hand" button; to the
game's end, where the result says it is over and the score sheet shows the server's
scores. At every step the table is checked as tests/layout.py checks it (what a player
needs in the window, apart, no text under 12 px) and the page must not scroll.

The desktop plays with the cards' moves Off (``umtali.motion`` in the browser's storage,
set before the page loads), to be quick; the phone at the default speed, to show that
the cards' flights never stand in the way of play. The test waits on the table's
versions, never on the clock. With ``UMTALI_SCREENSHOTS`` set to a folder, a few steps
are kept there to look at.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize

from tests.browser import seat_context
from tests.layout import layout_problems
from tests.servers import ServerProcess
from tests.test_web_browser import (
    WAIT_MS,
    api_state,
    expected_scores,
    seat_secret,
    shown_scores,
    turn_state,
    wait_for_version,
)
from tests.test_web_table_fit_browser import UMTALI, UMTALI_PARTS

NAME = "Thandi"

NO_SCROLL = "() => document.documentElement.scrollHeight <= innerHeight"


@pytest.fixture
def server(web_server: ServerProcess) -> ServerProcess:
    """The session's server: the test makes a game of its own on it."""
    return web_server


def fits(page: Page, parts: list[str], step: str, shot: str | None = None) -> None:
    """The table's ``parts`` in the window and apart, no small text, and no scrolling."""
    problems = layout_problems(page, parts, UMTALI, shot)
    assert problems == [], (step, page.viewport_size, problems)
    assert page.evaluate(NO_SCROLL), (step, page.viewport_size, "the page scrolls")


def deal_from_home(page: Page, server: ServerProcess) -> str:
    """A new user's game: his name typed on the home page, then "Play the computer"'s
    one button, its choices left as they come; the seat's secret (from its address)."""
    page.goto(server.url + "/")
    # The form is wired as it draws the level choices (tests/test_web_browser.py, open_home).
    page.wait_for_selector("#levels input", state="attached", timeout=WAIT_MS)
    page.fill("#your-name", NAME)
    page.click("#computer-form button[type=submit]")
    page.wait_for_url(re.compile(r"/seat/"), timeout=WAIT_MS)
    page.wait_for_selector("#connection[data-status=live]", timeout=WAIT_MS)
    return seat_secret(page)


def close_hand_end(page: Page, step: str, shot: str | None) -> None:
    """The end of the hand over the table: in the window, its "Next hand" button in view;
    closed by a click on that button."""
    page.locator("#hand-end").wait_for(state="visible", timeout=WAIT_MS)
    fits(page, ["#hand-end"], step, shot)
    fits(page, ["[data-key=hand-end-close]"], step)
    page.click("[data-key=hand-end-close]")
    page.locator("#hand-end").wait_for(state="hidden", timeout=WAIT_MS)


def play_hinted(page: Page, state: dict[str, Any], by_key: bool, shot: str | None) -> None:
    """Ask for the hint (the H key, or the Hint button) and click the move it marks;
    ``shot``: the name of the screenshot of the hinted table (tests/layout.py)."""
    if by_key:
        page.keyboard.press("h")
    else:
        page.click("#actions [data-key=hint]")
    hinted = page.locator("#actions button.move.hinted")
    hinted.wait_for(state="visible", timeout=WAIT_MS)
    assert page.get_attribute("#message", "data-kind") == "hint"
    fits(page, [*UMTALI_PARTS, "#message"], f"hinted, version {state['version']}", shot)
    hinted.click()
    wait_for_version(page, state["version"] + 1)


SIZES: list[tuple[ViewportSize, str | None]] = [
    ({"width": 1280, "height": 800}, "off"),
    ({"width": 390, "height": 844}, None),  # the cards move at the default speed
]


@pytest.mark.parametrize(
    ("size", "motion"), SIZES, ids=[f"{s['width']}x{s['height']}" for s, _ in SIZES]
)
def test_a_new_user_plays_a_whole_game_by_hints_and_clicks_without_scrolling(
    browser: Browser, server: ServerProcess, size: ViewportSize, motion: str | None
) -> None:
    context = seat_context(browser, size)
    if motion:
        context.add_init_script(f"localStorage.setItem('umtali.motion', '{motion}')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    secret = deal_from_home(page, server)
    assert page.evaluate("document.body.dataset.motion") == (motion or "normal")
    tag = f"whole-{motion or 'moving'}"
    state = turn_state(server, secret)
    assert state["name_given"]
    assert state["your_name"] == NAME
    closed = -1  # the last hand whose end was closed
    turns = 0
    while not state["over"]:
        wait_for_version(page, state["version"])
        ended = (state.get("previous") or {}).get("hand_index", -1)
        if ended > closed:
            close_hand_end(
                page, f"end of hand {ended + 1}", f"{tag}-hand-end" if ended == 0 else None
            )
            closed = ended
        shot = f"{tag}-turn-{turns}" if turns in (3, 25) else None
        fits(page, UMTALI_PARTS, f"turn {turns}, version {state['version']}", shot)
        play_hinted(page, state, turns % 2 == 0, shot and f"{shot}-hinted")
        state = turn_state(server, secret)
        turns += 1
        assert turns < 1000, "the game did not end"
    wait_for_version(page, state["version"])
    page.locator("#result").wait_for(state="visible", timeout=WAIT_MS)
    assert page.is_hidden("#hand-end"), "the last hand shows under the result, not over it"
    fits(page, ["#result"], "the game's end", f"{tag}-over")
    fits(page, ["#result .result-text"], "the game's end")
    assert state["result"] in page.inner_text("#result .result-text")
    final = api_state(server, secret)
    assert shown_scores(page) == expected_scores(final)
    # The result's last hand says each side's total, as the score sheet ends.
    totals = final["scores"]["games"][-1][2]
    shown = page.locator("#result .hand-end-points").all_inner_texts()
    assert [re.sub(r".*total ", "", text) for text in shown] == [str(t) for t in totals]
    assert state["hand_index"] >= 3, "a game is four hands at least"
    assert errors == []
    context.close()
