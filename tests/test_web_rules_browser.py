"""In the browser: a refused move is told in a player's sentence with a link to the rule
it breaks, which opens the game's rules page at that rule in a new tab (the table stays
as it was); the rules page passes axe-core at a phone's size and a desktop's."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.axe import axe_script, report, violations
from tests.browser import DESKTOP, seat_context
from tests.servers import HTTP, ServerProcess
from tests.test_web_browser import WAIT_MS, api_state

SIZES: list[ViewportSize] = [{"width": 390, "height": 844}, {"width": 1280, "height": 800}]


@pytest.fixture
def server(web_server: ServerProcess) -> ServerProcess:
    """The session's server: these tests make games of their own on it."""
    return web_server


def dealer_secret(server: ServerProcess) -> str:
    """A new Umtali game between two people by link; the secret of the dealer's seat,
    who must first keep or give the 11th card."""
    made = HTTP.post(f"{server.url}/api/games", json={"opponent": "person"}, timeout=30)
    made.raise_for_status()
    for seat in made.json()["seats"]:
        state = api_state(server, seat["secret"])
        if state["your_turn"]:
            assert state["view"]["phase"] == "choose"
            return str(seat["secret"])
    raise AssertionError("no seat is to move in a new game")


def test_a_refusal_is_a_sentence_with_a_link_to_its_rule(
    browser: Browser, server: ServerProcess
) -> None:
    context = seat_context(browser, DESKTOP)
    page = context.new_page()
    secret = dealer_secret(server)
    page.goto(f"{server.url}/seat/{secret}")
    page.wait_for_selector("#connection[data-status=live]", timeout=WAIT_MS)
    page.click('#actions button[data-move="keep"]')  # the dealer keeps the 11th card, and opens
    page.wait_for_selector("#hand button[data-card]", timeout=WAIT_MS)
    state = api_state(server, secret)
    assert state["your_turn"]
    # Two cards that make no meld: neither a Jack, nor of one rank, nor the K and Q of a
    # suit. Laid together they are refused as no marriage (R4).
    hand = state["view"]["hand"]
    first, second = next(
        (a, b)
        for i, a in enumerate(hand)
        for b in hand[i + 1 :]
        if "J" not in (a[:-1], b[:-1])
        and a[:-1] != b[:-1]
        and not ({a[:-1], b[:-1]} == {"K", "Q"} and a[-1] == b[-1])
    )
    before = state["version"]
    page.click(f'#hand button[data-card="{first}"]')
    page.click(f'#hand button[data-card="{second}"]')
    page.click("#actions button.why")
    message = page.locator("#message")
    expect(message).to_have_attribute("data-kind", "error")
    link = message.locator("a.rule-link")
    expect(link).to_have_attribute("href", "/rules/umtali#r4")
    said = message.inner_text()
    assert said.startswith("You cannot "), said
    assert "(R4)" not in said
    assert link.get_attribute("target") == "_blank"
    with context.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_load_state()
    assert rules.url.endswith("/rules/umtali#r4")
    expect(rules.locator("h3#r4")).to_be_in_viewport()
    expect(rules.locator("h3#r4")).to_contain_text("Meld phase")
    # The table is where it was: nothing played, the message still shown.
    assert api_state(server, secret)["version"] == before
    expect(message).to_contain_text("You cannot ")
    # A hint is two sentences: the move, and why, each opening with a capital or with a
    # card's rank ("6♥ is the card your hand needs least").
    page.get_by_role("button", name="Hint", exact=True).click()
    expect(message).to_have_attribute("data-kind", "hint")
    hint = message.inner_text()
    assert re.fullmatch(r"Hint: [^.]+\. [A-Z0-9].*\.", hint), hint
    assert not re.search(r"\((R\d+|V)\)", hint), hint
    context.close()


@pytest.mark.parametrize("game", ["umtali", "gin", "klaberjass"])
def test_the_rules_pages_pass_axe(browser: Browser, server: ServerProcess, game: str) -> None:
    script = axe_script()
    for size in SIZES:
        context = browser.new_context(viewport=size, bypass_csp=True)  # to inject axe
        page = context.new_page()
        page.goto(f"{server.url}/rules/{game}")
        page.wait_for_selector("main h1")
        found = violations(page, script)
        assert not found, f"{game} at {size}: {report(found)}"
        wide = page.evaluate("document.documentElement.scrollWidth > window.innerWidth + 1")
        assert not wide, f"the {game} rules page scrolls sideways at {size}"
        context.close()


def test_the_rules_page_links_to_the_other_games_and_home(
    browser: Browser, server: ServerProcess
) -> None:
    context = browser.new_context(viewport=SIZES[0])
    page = context.new_page()
    page.goto(f"{server.url}/rules/gin")
    page.click("nav >> text=Klaberjass")
    page.wait_for_url(re.compile(r"/rules/klaberjass$"))
    page.click("nav >> text=Umtali home")
    page.wait_for_url(re.compile(r"/$"))
    context.close()
