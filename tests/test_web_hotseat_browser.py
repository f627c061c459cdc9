"""Two people at one device (hot-seat), in a real browser (headless chromium) against a
real ``umtali serve``, at a phone's width: the home page makes the game and keeps both
seats for the tab; each seat's table covers itself whenever the device must change hands
(and whenever a seat's page is opened, until its player says he is there), so that no
card of either hand shows to the wrong person. Umtali for a few turns, Gin Rummy for one
turn each, a hand's end and the next dealer's turn, and a game's end and its rematch.

The server deals from a secure shuffle: the tests play whatever legal moves come, and
read each hand from the API to check that none of its cards shows under the cover."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from tests.browser import seat_context
from tests.servers import ServerProcess, send_move
from tests.test_web_browser import (
    WAIT_MS,
    api_state,
    open_home,
    play_turn_by_clicks,
    preferred,
    seat_secret,
    wait_for_version,
)
from tests.test_web_gin_browser import click_move as click_gin_move
from tests.test_web_gin_browser import wait_for_version as wait_for_gin_version

# Where the screenshots go: UMTALI_SCREENSHOTS names a folder to keep them in.
SHOTS = os.environ.get("UMTALI_SCREENSHOTS")

PHONE: ViewportSize = {"width": 360, "height": 780}

# The cards of `cards` the page shows: in its visible text, or in the titles and labels of
# its visible pictures and buttons, by name ("King of hearts") or short name ("K♥").
SHOWN_CARDS = """async (cards) => {
  const { cardName, cardText } = await import("/static/js/cards.js");
  const labelled = [...document.querySelectorAll("svg title, [title], [aria-label]")]
    .filter((node) => (node.closest("svg") ?? node).checkVisibility())
    .map((node) => [node.textContent, node.getAttribute("title"), node.getAttribute("aria-label")].join(" "));
  const seen = [document.body.innerText, ...labelled].join("\\n");
  return cards.filter((card) => seen.includes(cardName(card)) || seen.includes(cardText(card)));
}"""


@pytest.fixture
def server(web_server: ServerProcess) -> ServerProcess:
    """The session's server: these tests make games of their own on it."""
    return web_server


def _shot(page: Page, tmp_path: Path, name: str) -> None:
    folder = Path(SHOTS) if SHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


def _hand(state: dict[str, Any]) -> list[str]:
    hand: list[str] = state["view"]["hand"]
    return hand


def phone_page(browser: Browser) -> tuple[BrowserContext, Page]:
    """A new tab at a phone's width, in a context of its own (the hot-seat game's seats
    are kept in the tab's storage), waiting up to ``WAIT_MS`` for what is expected."""
    context = seat_context(browser, PHONE)
    page = context.new_page()
    page.set_default_timeout(WAIT_MS)
    return context, page


def make_hot_seat_game(page: Page, server: ServerProcess, game: str) -> tuple[str, str]:
    """A game for two at this device, made on the home page: the secret of the seat it
    opens (the one to move) and of the other seat, which the tab keeps."""
    open_home(page, server)
    page.check(f'#friend-form input[name=game][value="{game}"]')
    page.check('#friend-form input[name=where][value="here"]')
    expect(page.locator("#friend-submit")).to_have_text("Deal")
    page.click("#friend-submit")
    page.wait_for_url(re.compile(r"/seat/"))
    opened = seat_secret(page)
    other = page.evaluate("(secret) => sessionStorage.getItem(`umtali.hotseat.${secret}`)", opened)
    assert isinstance(other, str)
    assert other != opened
    assert api_state(server, opened)["your_turn"]
    return opened, other


def expect_covered(
    page: Page,
    server: ServerProcess,
    seats: tuple[str, str],
    table: str,
    name: str,
    *,
    dealt: bool = True,
) -> None:
    """The cover is up, asking to pass the device to `name`, and neither hand shows
    (`dealt`: whether the hands hold cards yet)."""
    expect(page.locator("#hot-seat-title")).to_have_text(f"Pass the device to {name}")
    expect(page.locator(f"#{table}")).to_be_hidden()
    expect(page.locator("#hot-seat-show")).to_have_text(f"I am {name}: show my hand")
    expect(page.locator("#hot-seat-show")).to_be_focused()  # Enter passes it on
    both_hands = [card for secret in seats for card in _hand(api_state(server, secret))]
    assert bool(both_hands) == dealt
    assert page.evaluate(SHOWN_CARDS, both_hands) == []


def settled(page: Page, server: ServerProcess, secret: str, table: str = "table") -> None:
    """Wait until the page shows the seat's latest state, and its socket has brought
    that state too (tests/browser.py): no copy of it is still to come and draw the
    cover or the table again under the pointer, losing a click."""
    wait = wait_for_version if table == "table" else wait_for_gin_version
    wait(page, api_state(server, secret)["version"])


def pass_to(page: Page, secret: str, table: str) -> None:
    """The next player takes the device: his seat's page opens, uncovered (he has just said who he is)."""
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(rf"/seat/{re.escape(secret)}$"))
    expect(page.locator(f"#{table}")).to_be_visible()
    expect(page.locator("#hot-seat-cover")).to_be_hidden()


def close_hand_end(page: Page, server: ServerProcess, secret: str) -> dict[str, Any]:
    """A hand has just ended, on the page of the seat of ``secret``: its end shows to both,
    uncovered, and is closed. The winner deals the next hand (R1), and its cards wait for
    his choice of who gets the 11th card: if that is this seat, the device stays, the table
    shows with the choice, and no card is in either hand. The seat's state after."""
    expect(page.locator("#hand-end")).to_be_visible()
    expect(page.locator("#hot-seat-cover")).to_be_hidden()
    settled(page, server, secret)
    page.click("#hand-end button")
    state = api_state(server, secret)
    assert state["view"]["hand"] == []
    if state["your_turn"]:
        expect(page.locator("#hot-seat-cover")).to_be_hidden()
        expect(page.locator("#table")).to_be_visible()
        assert sorted(state["view"]["legal"]) == ["give", "keep"]
    return state


def test_two_play_umtali_at_one_phone_passing_it_between_turns(
    browser: Browser, server: ServerProcess, tmp_path: Path
) -> None:
    context, page = phone_page(browser)
    mover, waiting = make_hot_seat_game(page, server, "umtali")
    state = api_state(server, mover)
    # Opened, the table stays covered until the player to move says he is at the device.
    first_name = f"Player {state['seat'] + 1}"
    # Umtali's hands are dealt once the dealer has chosen who gets the 11th card.
    expect_covered(page, server, (mover, waiting), "table", first_name, dealt=False)
    _shot(page, tmp_path, "hotseat-cover-360")
    settled(page, server, mover)
    page.click("#hot-seat-show")
    expect(page.locator("#table")).to_be_visible()
    # A reload covers it again: whoever holds the device now must say who he is.
    page.reload()
    expect_covered(page, server, (mover, waiting), "table", first_name, dealt=False)
    settled(page, server, mover)
    page.click("#hot-seat-show")
    expect(page.locator("#table")).to_be_visible()
    for _ in range(4):  # four turns, the device passed after each
        state = api_state(server, mover)
        dealt = True
        while state["your_turn"] and not state["over"]:
            hand_index = state["hand_index"]
            state = play_turn_by_clicks(page, server, mover, state)
            dealt = state["hand_index"] == hand_index
            if not dealt:  # a short hand: this move ended it
                state = close_hand_end(page, server, mover)
        expect_covered(
            page, server, (mover, waiting), "table", state["names"][1 - state["seat"]], dealt=dealt
        )
        pass_to(page, waiting, "table")
        mover, waiting = waiting, mover
        # The other seat's own hand, face up, on its own page.
        hand = _hand(api_state(server, mover))
        expect(page.locator("#hand button[data-card]")).to_have_count(len(hand))
        assert page.evaluate(SHOWN_CARDS, hand) == hand  # what the cover's check would see
    context.close()


def test_after_a_hands_end_the_device_goes_to_the_next_dealer(
    browser: Browser, server: ServerProcess
) -> None:
    context, page = phone_page(browser)
    first, second = make_hot_seat_game(page, server, "umtali")
    seats = (first, second)
    opened = api_state(server, first)
    expect_covered(page, server, seats, "table", f"Player {opened['seat'] + 1}", dealt=False)
    settled(page, server, first)
    page.click("#hot-seat-show")
    expect(page.locator("#table")).to_be_visible()
    # The first hand, both seats played through the API, as a beginner plays; the page
    # of the first seat stays open, covered whenever the second is to move.
    for _ in range(400):
        states = [api_state(server, secret) for secret in seats]
        if states[0]["hand_index"] > 0:
            break
        mover = 0 if states[0]["your_turn"] else 1
        send_move(server, seats[mover], preferred(states[mover]["view"]["legal"]))
    assert not states[0]["over"]  # a game goes on after its first hand
    state = close_hand_end(page, server, first)
    if not state["your_turn"]:  # the second seat won: he deals, at his own page
        expect_covered(page, server, seats, "table", state["names"][1 - state["seat"]], dealt=False)
        pass_to(page, second, "table")
        seats = (second, first)
    # The dealer chooses who gets the 11th card (whoever holds it starts) and plays out
    # his turn if it is his; then the device goes to the other, the cards now dealt.
    state = api_state(server, seats[0])
    assert sorted(state["view"]["legal"]) == ["give", "keep"]
    while state["your_turn"]:
        state = play_turn_by_clicks(page, server, seats[0], state)
    expect_covered(page, server, seats, "table", state["names"][1 - state["seat"]])
    context.close()


def _gin_move(legal: list[str]) -> str:
    """Pass on the first upcard, draw from the stock, discard the first card offered."""
    for wanted in ("pass", "draw"):
        if wanted in legal:
            return wanted
    return next(move for move in legal if move.startswith("discard"))


def test_two_play_gin_rummy_at_one_device_one_turn_each(
    browser: Browser, server: ServerProcess
) -> None:
    context, page = phone_page(browser)
    mover, waiting = make_hot_seat_game(page, server, "gin")
    state = api_state(server, mover)
    expect_covered(page, server, (mover, waiting), "gin-table", f"Player {state['seat'] + 1}")
    settled(page, server, mover, "gin-table")
    page.keyboard.press("Enter")
    expect(page.locator("#gin-table")).to_be_visible()
    # The first upcard passed by both (a turn each), then a draw and a discard.
    for _ in range(3):
        state = api_state(server, mover)
        expect(page.locator("#gin-hand button[data-card]")).to_have_count(len(_hand(state)))
        while state["your_turn"] and not state["over"]:
            wait_for_gin_version(page, state["version"])
            click_gin_move(page, _gin_move(state["legal"]))
            wait_for_gin_version(page, state["version"] + 1)
            state = api_state(server, mover)
        expect_covered(
            page, server, (mover, waiting), "gin-table", state["names"][1 - state["seat"]]
        )
        pass_to(page, waiting, "gin-table")
        mover, waiting = waiting, mover
    context.close()


def test_the_end_shows_uncovered_and_the_rematch_stays_at_one_device(
    browser: Browser, server: ServerProcess
) -> None:
    context, page = phone_page(browser)
    open_home(page, server)
    page.check('#friend-form input[name=kind][value="hand"]')
    first, second = make_hot_seat_game(page, server, "umtali")
    # One hand, both seats played through the API, as a beginner plays.
    for _ in range(400):
        states = [api_state(server, secret) for secret in (first, second)]
        if states[0]["over"]:
            break
        mover = 0 if states[0]["your_turn"] else 1
        send_move(server, (first, second)[mover], preferred(states[mover]["view"]["legal"]))
    over = api_state(server, first)
    assert over["over"]
    # The end is for both: the table shows, with the result, and no cover.
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#hot-seat-cover")).to_be_hidden()
    expect(page.locator("#table")).to_be_visible()
    # The rematch keeps both seats in this tab, and opens covered for the seat to move.
    settled(page, server, first)
    page.click("#result button[data-key=rematch]")
    page.wait_for_url(lambda url: first not in url and second not in url)
    rematch = seat_secret(page)
    partner = page.evaluate(
        "(secret) => sessionStorage.getItem(`umtali.hotseat.${secret}`)", rematch
    )
    assert partner not in (None, first, second, rematch)
    assert api_state(server, rematch)["your_turn"]
    expect(page.locator("#hot-seat-cover")).to_be_visible()
    expect(page.locator("#table")).to_be_hidden()
    context.close()
