"""The home page as a newcomer meets it: one click deals the default game against the
computer with its usual rules, level and length; the name he types is remembered and
shown at the table; "My games" lists the seats this browser holds, with the game, the
opponent and whose turn it is, to resume or to forget."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from tests.browser import DESKTOP, PHONE, seat_context
from tests.servers import HTTP, ServerProcess
from tests.test_web_browser import WAIT_MS, open_home, seat_secret

pytestmark = pytest.mark.browser


@pytest.fixture
def server(web_server: ServerProcess) -> ServerProcess:
    return web_server


def offered_default(server: ServerProcess) -> dict[str, object]:
    games: list[dict[str, object]] = HTTP.get(f"{server.url}/api/games-offered").json()["games"]
    return games[0]


def test_one_click_deals_the_default_game_with_its_usual_choices(
    browser: Browser, server: ServerProcess
) -> None:
    context = seat_context(browser, PHONE)
    page = context.new_page()
    open_home(page, server, more=False)
    default = offered_default(server)
    # The other choices are folded away, and what one click deals is said in a line.
    expect(page.locator("#computer-form details.more")).not_to_have_attribute("open", "")
    assert page.is_hidden("#levels")
    summary = page.inner_text("#computer-summary")
    assert str(default["title"]) in summary
    level_names = default["level_names"]
    assert isinstance(level_names, dict)
    assert level_names[default["default_level"]] in summary
    # The way to play is in view on a phone without scrolling.
    button = page.locator("#computer-form button[type=submit]")
    box = button.bounding_box()
    assert box is not None
    assert box["y"] + box["height"] <= PHONE["height"]
    button.click()
    page.wait_for_url(re.compile(r"/seat/"), timeout=WAIT_MS)
    state = HTTP.get(f"{server.url}/api/seat/{seat_secret(page)}").json()
    assert state["game"] == default["game"]
    assert state["rules"] == default["default_rules"]
    assert state["names"][1] == f"Computer ({level_names[default['default_level']]})"
    context.close()


def test_the_name_typed_is_remembered_and_shown_to_the_friend(
    browser: Browser, server: ServerProcess
) -> None:
    host_context = seat_context(browser, DESKTOP)
    host = host_context.new_page()
    open_home(host, server, more=False)
    host.fill("#your-name", "  Ann Lee ")
    host.locator("#your-name").blur()
    host.reload()
    host.wait_for_selector("#levels input", state="attached", timeout=WAIT_MS)
    expect(host.locator("#your-name")).to_have_value("Ann Lee")
    host.click("#friend-form button[type=submit]")
    host.wait_for_selector("#invite:not([hidden])", timeout=WAIT_MS)
    friend_link = host.input_value("#friend-link")
    guest_context = seat_context(browser, PHONE)
    guest = guest_context.new_page()
    guest.goto(friend_link)
    guest.wait_for_selector("#connection[data-status=live]", timeout=WAIT_MS)
    expect(guest.locator("#opponent-name")).to_contain_text("Ann Lee")
    own = host.input_value("#own-link").rsplit("/", 1)[1]
    assert HTTP.get(f"{server.url}/api/seat/{own}").json()["your_name"] == "Ann Lee"
    host_context.close()
    guest_context.close()


def test_my_games_tells_each_game_and_whose_turn_and_forgets_one(
    browser: Browser, server: ServerProcess
) -> None:
    context = seat_context(browser, DESKTOP)
    page = context.new_page()
    open_home(page, server, more=False)
    assert page.is_hidden("#recent-panel")  # a newcomer has none
    page.click("#computer-form button[type=submit]")
    page.wait_for_url(re.compile(r"/seat/"), timeout=WAIT_MS)
    page.wait_for_selector("#connection[data-status=live]", timeout=WAIT_MS)
    secret = seat_secret(page)
    state = HTTP.get(f"{server.url}/api/seat/{secret}").json()
    # A seat this browser kept that no longer names a game is said to be gone.
    page.evaluate(
        """() => {
          const kept = JSON.parse(localStorage.getItem("umtali.recent"));
          kept.push({path: "/seat/forged-link", title: "Old game", over: false, seen: 1});
          localStorage.setItem("umtali.recent", JSON.stringify(kept));
        }"""
    )
    open_home(page, server, more=False)
    items = page.locator("#recent li")
    expect(items).to_have_count(2)
    first = items.nth(0)
    expect(first.locator("a")).to_have_attribute("href", f"/seat/{secret}")
    expect(first.locator("a")).to_have_text(f"Umtali against {state['names'][1]}")
    turn = "your turn" if state["your_turn"] else f"{state['names'][1]} to play"
    expect(first.locator(".standing")).to_contain_text(turn)
    expect(items.nth(1).locator(".standing")).to_contain_text("no longer on this server")
    items.nth(1).get_by_role("button", name="Forget").click()
    expect(items).to_have_count(1)
    first.locator("a").click()
    page.wait_for_url(re.compile(r"/seat/"), timeout=WAIT_MS)
    assert seat_secret(page) == secret
    context.close()
