"""The practical rules' deep take at the Umtali table, in a real browser (headless
chromium) against a real ``umtali serve``: when a card under the top of the discard pile
may be taken with every card above it, the whole pile is laid out, the cards a legal take
names are buttons, and choosing one offers its take in words that say how many cards
come with it. By a click and by the keyboard alone, at a phone's and a desktop's width.

The server deals from a secure shuffle, so no seed can set a deal up: each test plays
its seat through the API (drawing and discarding, which ends no hand) until a deep take
is legal, then turns to the page."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.servers import HTTP, ServerProcess, send_move
from tests.test_web_browser import LAYOUT_CHECKS, WAIT_MS, api_state, turn_state, wait_for_version

# Where the screenshots go: UMTALI_SCREENSHOTS names a folder to keep them in.
SHOTS = os.environ.get("UMTALI_SCREENSHOTS")


@pytest.fixture
def server(web_server: ServerProcess) -> ServerProcess:
    """The session's server: these tests make games of their own on it."""
    return web_server


def deep_takes(state: dict[str, Any]) -> list[str]:
    """The legal takes that name a card under the top of the pile."""
    pile = state["view"]["discard_pile"]
    return [
        move
        for move in state["view"]["legal"]
        if move.split()[0] == "take" and len(move.split()) == 2 and move.split()[1] != pile[-1]
    ]


def practical_game_with_a_deep_take(server: ServerProcess) -> tuple[str, dict[str, Any]]:
    """A new practical game against the computer, played by its seat (draw, then
    discard) until a deep take is legal: the seat's secret and its state then."""
    for _ in range(5):
        created = HTTP.post(
            f"{server.url}/api/games",
            json={"rules": "practical", "level": "greedy", "kind": "game"},
            timeout=10,
        ).json()
        secret = created["seats"][0]["secret"]
        for _ in range(200):
            state = turn_state(server, secret)
            if state["over"]:
                break
            if deep_takes(state):
                return secret, state
            legal = state["view"]["legal"]
            move = next((m for m in legal if m == "draw"), None) or next(
                (m for m in legal if m.startswith("discard")), legal[0]
            )
            send_move(server, secret, move)
    raise AssertionError("no deep take came up in five games")


def _table_shown(page: Page, pile: list[str]) -> None:
    """Wait for the whole pile to be laid out. A deep take that came up in a later hand
    finds the last hand's summary still open (a modal the page shows until the player
    closes it, holding the focus and the clicks): close it."""
    expect(page.locator("#pile .pile-spread-card")).to_have_count(len(pile))
    if page.locator("#hand-end[open]").count():
        page.click("[data-key=hand-end-close]")
        expect(page.locator("#hand-end[open]")).to_have_count(0)


def _shot(page: Page, tmp_path: Path, name: str) -> None:
    folder = Path(SHOTS) if SHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def _open(browser: Browser, server: ServerProcess, secret: str, width: int) -> Page:
    page = browser.new_page(viewport={"width": width, "height": 900})
    page.set_default_timeout(WAIT_MS)
    page.goto(f"{server.url}/seat/{secret}")
    page.wait_for_selector("#connection[data-status=live]")
    return page


def _words(count: int) -> str:
    return "the card" if count == 1 else f"the {count} cards"


@pytest.mark.parametrize("width", [360, 1280])
def test_a_deep_take_is_made_by_clicking_the_pile_card(
    browser: Browser, server: ServerProcess, tmp_path: Path, width: int
) -> None:
    secret, state = practical_game_with_a_deep_take(server)
    pile: list[str] = state["view"]["discard_pile"]
    take = deep_takes(state)[0]
    card = take.split()[1]
    above = pile[pile.index(card) + 1 :]
    page = _open(browser, server, secret, width)
    wait_for_version(page, state["version"])
    # The whole pile is laid out; only the cards a legal take names can be chosen.
    _table_shown(page, pile)
    playable = page.locator("#pile button[data-pile-card]")
    named = {move.split()[1] for move in state["view"]["legal"] if move.split()[0] == "take"}
    expect(playable).to_have_count(len(named))
    for index in range(len(named)):
        assert playable.nth(index).get_attribute("data-pile-card") in named
    # No deep take is offered before its card is chosen.
    expect(page.locator(f'#actions button[data-move="{take}"]')).to_have_count(0)
    # A card is covered by the one above it but for its left strip, which is tapped.
    page.click(f'#pile button[data-pile-card="{card}"]', position={"x": 6, "y": 30})
    expect(page.locator(f'#pile button[data-pile-card="{card}"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    # It and the cards above it are lifted: they come together.
    expect(page.locator("#pile .pile-spread-card.coming")).to_have_count(1 + len(above))
    label = f"Take {_text(card)} and {_words(len(above))} above it"
    offer = page.locator(f'#actions button[data-move="{take}"]')
    expect(offer).to_contain_text(label)
    assert page.evaluate(LAYOUT_CHECKS) == []
    _shot(page, tmp_path, f"deep-take-{width}")
    offer.click()
    wait_for_version(page, state["version"] + 1)
    after = api_state(server, secret)
    assert after["view"]["discard_pile"] == pile[: pile.index(card)]
    assert {card, *above} <= set(after["view"]["hand"])
    # The card taken from deep must be played this turn: no discard is offered yet.
    assert not any(move.startswith("discard") for move in after["view"]["legal"])
    page.close()


def test_a_deep_take_is_made_with_the_keyboard_alone(
    browser: Browser, server: ServerProcess
) -> None:
    secret, state = practical_game_with_a_deep_take(server)
    pile: list[str] = state["view"]["discard_pile"]
    take = deep_takes(state)[-1]
    card = take.split()[1]
    page = _open(browser, server, secret, 1280)
    wait_for_version(page, state["version"])
    _table_shown(page, pile)
    # One Tab stop for the pile; the arrows walk it, Enter chooses, 1 plays the offer.
    # A redraw (the presence of the other seat, a card landing) may replace the button
    # just focused: focus it until the focus holds on a pile card.
    page.wait_for_function(
        """() => {
            const stop = document.querySelector("#pile button[data-pile-card][tabindex='0']");
            if (stop && document.activeElement !== stop) stop.focus();
            return document.activeElement?.dataset.pileCard != null;
        }"""
    )
    buttons = page.locator("#pile button[data-pile-card]")
    target = [buttons.nth(i).get_attribute("data-pile-card") for i in range(buttons.count())]
    at = target.index(page.evaluate("document.activeElement.dataset.pileCard"))
    for _ in range(at - target.index(card)):
        page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.pileCard") == card
    page.keyboard.press("Enter")
    expect(page.locator("#actions button.move").first).to_have_attribute("data-move", take)
    page.keyboard.press("1")
    wait_for_version(page, state["version"] + 1)
    after = api_state(server, secret)
    assert after["view"]["discard_pile"] == pile[: pile.index(card)]
    page.close()


def _text(card: str) -> str:
    """A card as the page prints it: "7s" -> "7♠"."""
    return card[:-1] + {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}[card[-1]]
