"""The deal's fairness in a real browser (a real ``umtali serve``, Debian's chromium): every
table shows the seal of the hand dealt, the state's commitment; once a hand is over,
"Check this deal" recomputes the hash in the page and finds it matches the seal the page
kept from the deal, showing the whole deck in order (32 cards at Klaberjass, 52 at Gin
Rummy); a reveal tampered on its way (one card changed) is shown as a mismatch; and the
page never asks for a deck before its hand is over.

The seat's own moves are made through the API (the computer plays the other seat), as a
player's clicks are tested elsewhere: what is tested here is what the page shows.
Screenshots of the seal and of the check go to ``/tmp/shots/fair-*.png`` (or the folder
``UMTALI_SHOTS`` names).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Request, Route, ViewportSize

from tests.browser import seat_context
from tests.servers import HTTP, ServerProcess, send_move
from tests.test_web_browser import LAYOUT_CHECKS, WAIT_MS, api_state, turn_state

JSON = dict[str, Any]

SHOTS = Path(os.environ.get("UMTALI_SHOTS", "/tmp/shots"))
PHONE: ViewportSize = {"width": 390, "height": 844}
WIDE: ViewportSize = {"width": 1280, "height": 800}


@pytest.fixture
def server(web_server: ServerProcess) -> ServerProcess:
    """The session's server: these tests make games of their own on it."""
    return web_server


def new_seat(server: ServerProcess, **request: Any) -> str:
    """A new game against the computer at random; the person's secret."""
    reply = HTTP.post(f"{server.url}/api/games", json={"level": "random", **request}, timeout=30)
    assert reply.status_code == 201, reply.text
    secret: str = reply.json()["seats"][0]["secret"]
    return secret


def open_seat(browser: Browser, server: ServerProcess, secret: str, viewport: ViewportSize) -> Page:
    page = seat_context(browser, viewport).new_page()
    page.goto(f"{server.url}/seat/{secret}")
    page.wait_for_selector(".connection[data-status=live]", timeout=WAIT_MS)
    return page


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"fair-{name}.png"))


def verify_requests(page: Page) -> list[str]:
    """The verify requests the page makes, noted as they go out."""
    asked: list[str] = []

    def note(request: Request) -> None:
        if "/verify" in request.url:
            asked.append(request.url.split("/api/", 1)[1])

    page.on("request", note)
    return asked


def shown_seal(page: Page, prefix: str) -> JSON:
    """The seal the table shows: its hand, its commitment, and the folded words."""
    seal = page.locator(f"#{prefix}seal details.deal-seal")
    seal.wait_for(state="attached", timeout=WAIT_MS)
    return {
        "hand": int(seal.get_attribute("data-hand") or "-1"),
        "commitment": seal.get_attribute("data-commitment"),
        "summary": seal.locator("summary").inner_text(),
    }


def wait_for_seal_of(page: Page, prefix: str, hand: int) -> None:
    page.wait_for_selector(f'#{prefix}seal details.deal-seal[data-hand="{hand}"]', timeout=WAIT_MS)


def play_to_the_end_of_hand(server: ServerProcess, secret: str, hand: int, seed: int) -> JSON:
    """Play the seat's moves at random, through the API, until hand ``hand`` is over; the
    state then."""
    rng = random.Random(seed)
    state = turn_state(server, secret)
    moves = 0
    while state["hand_index"] == hand and not state["over"]:
        send_move(server, secret, rng.choice(state["legal"]))
        state = turn_state(server, secret)
        moves += 1
        assert moves < 2_000, "the hand did not end"
    return state


def open_check(page: Page, prefix: str, hand: int) -> Page:
    """Unfold the seal and press "Check this deal" for ``hand``; the verdict shown."""
    details = page.locator(f"#{prefix}seal details.deal-seal")
    if details.get_attribute("open") is None:
        page.click(f"#{prefix}seal summary")
    page.click(f'#{prefix}seal button[data-check-hand="{hand}"]')
    page.wait_for_selector(
        "dialog.deal-check .deal-check-verdict:not([data-verdict=pending])", timeout=WAIT_MS
    )
    return page


def close_hand_end(page: Page, prefix: str) -> None:
    """Close the end of the hand over the table (a dialog: the table under it waits)."""
    page.click(f"[data-key={prefix}hand-end-close]", timeout=WAIT_MS)
    page.locator(f"#{prefix}hand-end").wait_for(state="hidden", timeout=WAIT_MS)


def dialog_deck(page: Page) -> list[str]:
    cards: list[str] = page.eval_on_selector_all(
        "dialog.deal-check .deal-deck svg.card", "cards => cards.map(c => c.dataset.card)"
    )
    return cards


def test_klaberjass_shows_the_seal_and_checks_the_finished_hand(
    browser: Browser, server: ServerProcess
) -> None:
    secret = new_seat(server, game="klaberjass")
    page = open_seat(browser, server, secret, WIDE)
    asked = verify_requests(page)
    first = api_state(server, secret)
    assert first["hand_index"] == 0
    dealt = first["commitment"]
    wait_for_seal_of(page, "kj-", 0)
    seal = shown_seal(page, "kj-")
    assert seal["commitment"] == dealt
    assert f"{dealt[:4]}…{dealt[-4:]}" in seal["summary"]
    assert "Deal sealed" in seal["summary"]
    shot(page, "seal-1280")
    page.click("#kj-seal summary")
    body = page.locator("#kj-seal .deal-seal-body")
    assert "sealed before any card was seen" in body.inner_text()
    assert dealt in body.inner_text()
    assert page.locator("#kj-seal button[data-check-hand]").count() == 0  # the hand is on
    shot(page, "seal-open-1280")
    page.click("#kj-seal summary")  # folded again

    after = play_to_the_end_of_hand(server, secret, 0, seed=5)
    assert asked == []  # nothing asked while the hand was played
    wait_for_seal_of(page, "kj-", after["hand_index"])
    assert shown_seal(page, "kj-")["commitment"] == after["commitment"]
    close_hand_end(page, "kj-")
    open_check(page, "kj-", 0)
    verdict = page.locator("dialog.deal-check .deal-check-verdict")
    assert verdict.get_attribute("data-verdict") == "match", verdict.inner_text()
    assert "✓ Matches the seal shown at the deal" in verdict.inner_text()
    reveal = HTTP.get(f"{server.url}/api/games/{first['game_id']}/hands/0/verify").json()
    assert dialog_deck(page) == reveal["deck"]
    assert len(reveal["deck"]) == 32
    assert dealt in page.inner_text("dialog.deal-check .deal-check-facts")
    assert asked == [f"games/{first['game_id']}/hands/0/verify"]
    shot(page, "check-1280")
    # The plain SHA-256 a page served over http uses (no WebCrypto there) hashes as
    # WebCrypto does, to the same seal.
    plain = page.evaluate(
        """async ([salt, deck]) => {
            const { hexBytes } = await import("/static/js/fairness.js");
            const { sha256Plain } = await import("/static/js/sha256.js");
            const text = new TextEncoder().encode(deck.join(" "));
            const data = new Uint8Array([...hexBytes(salt), ...text]);
            return [...sha256Plain(data)].map((b) => b.toString(16).padStart(2, "0")).join("");
        }""",
        [reveal["salt"], reveal["deck"]],
    )
    assert plain == dealt
    page.keyboard.press("Escape")
    assert not page.locator("dialog.deal-check").is_visible()
    page.close()


def test_gin_by_keyboard_checks_the_deal_and_a_tampered_reveal_shows_the_mismatch(
    browser: Browser, server: ServerProcess
) -> None:
    secret = new_seat(server, game="gin")
    page = open_seat(browser, server, secret, PHONE)
    asked = verify_requests(page)
    first = api_state(server, secret)
    dealt = first["commitment"]
    wait_for_seal_of(page, "gin-", 0)
    assert shown_seal(page, "gin-")["commitment"] == dealt
    shot(page, "seal-390")
    after = play_to_the_end_of_hand(server, secret, 0, seed=8)
    assert asked == []
    wait_for_seal_of(page, "gin-", after["hand_index"])
    # By the keyboard alone: the hand's end closes with Esc, the seal unfolds, and its
    # check opens, with Enter.
    page.locator("#gin-hand-end button").first.wait_for(timeout=WAIT_MS)
    page.keyboard.press("Escape")
    page.locator("#gin-hand-end").wait_for(state="hidden", timeout=WAIT_MS)
    page.focus("#gin-seal summary")
    page.keyboard.press("Enter")
    check = page.locator('#gin-seal button[data-check-hand="0"]')
    check.wait_for(timeout=WAIT_MS)
    shot(page, "seal-open-390")
    check.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("dialog.deal-check [data-verdict=match]", timeout=WAIT_MS)
    assert len(dialog_deck(page)) == 52
    shot(page, "check-390")
    page.keyboard.press("Escape")

    # The same reveal with one card changed on its way: the page's own hash does not
    # match the seal it kept from the deal.
    def tamper(route: Route) -> None:
        answer = route.fetch()
        reveal = answer.json()
        deck = reveal["deck"]
        spare = next(card for card in ("Ac", "Kd") if card != deck[7])
        deck[deck.index(spare)], deck[7] = deck[7], spare  # two cards swapped: a whole deck still
        route.fulfill(response=answer, body=json.dumps(reveal))

    page.route("**/api/games/*/hands/*/verify", tamper)
    open_check(page, "gin-", 0)
    verdict = page.locator("dialog.deal-check .deal-check-verdict")
    assert verdict.get_attribute("data-verdict") == "mismatch"
    assert "Does not match the seal shown at the deal" in verdict.inner_text()
    assert dealt in page.inner_text("dialog.deal-check .deal-check-facts")
    shot(page, "mismatch-390")
    page.keyboard.press("Escape")
    page.close()


def test_the_umtali_table_s_seal_unfolds_over_the_table_without_moving_the_hand(
    browser: Browser, server: ServerProcess
) -> None:
    secret = new_seat(server, kind="hand")
    page = open_seat(browser, server, secret, PHONE)
    asked = verify_requests(page)
    state = turn_state(server, secret)
    wait_for_seal_of(page, "", 0)
    assert shown_seal(page, "")["commitment"] == state["commitment"]
    # The hand's place (its cards come once the dealer has chosen who gets the 11th).
    page.wait_for_selector("#hand-title", timeout=WAIT_MS)
    before = page.locator("#hand-title").bounding_box()
    page.click("#seal summary")
    page.locator("#seal .deal-seal-body").wait_for(timeout=WAIT_MS)
    assert page.locator("#hand-title").bounding_box() == before
    assert page.evaluate(LAYOUT_CHECKS) == []
    shot(page, "seal-open-umtali-390")
    assert asked == []
    page.close()
