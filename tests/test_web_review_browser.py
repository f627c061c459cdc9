"""The review page (``/review``) in a real browser against a real ``umtali serve``: a hand
played to its end, "Review this hand" under it, the review with its alternatives and
"Show me", the link from "My games", and the replay page's hand-over of a record, at a
phone's size and a desktop's, fitting the window's width, with axe finding nothing
serious."""

from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.axe import axe_script, report, violations
from tests.servers import ServerProcess, send_move
from umtali.games.umtali.lessons import LESSONS
from umtali.games.umtali.match import Match
from umtali.kernel.record import save_file

PHONE: ViewportSize = {"width": 390, "height": 844}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
TIMEOUT_MS = 30_000
SHOTS = os.environ.get("UMTALI_SCREENSHOTS")


def _call(url: str, body: dict[str, Any] | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


@pytest.fixture(scope="module")
def finished(web_server: ServerProcess) -> str:
    """One game's seat whose first hand is over, for every viewport."""
    return _finished_hand(web_server)


def _finished_hand(server: ServerProcess) -> str:
    """A game against the computer whose first hand the person played to its end (the
    first move offered each time); the seat's secret."""
    created = _call(f"{server.url}/api/games", {"level": "random"})
    secret: str = created["seats"][0]["secret"]
    for _ in range(300):
        state = _call(f"{server.url}/api/seat/{secret}")
        if state["previous"] is not None:
            return secret
        if state["your_turn"] and state["legal"]:
            send_move(server, secret, state["legal"][0])  # waits out the seat's rate limit
    raise AssertionError("the hand did not end")


def _page(browser: Browser, viewport: ViewportSize, errors: list[str]) -> Page:
    # The pages forbid inline scripts: the accessibility checker is let in past the policy.
    page = browser.new_context(viewport=viewport, bypass_csp=True).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def _fits(page: Page) -> None:
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, f"the page is {wide}px wider than the window"


def _shot(page: Page, tmp_path: Path, name: str) -> None:
    folder = Path(SHOTS) if SHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"))


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_a_hand_just_played_is_reviewed_from_its_end_and_from_my_games(
    browser: Browser,
    web_server: ServerProcess,
    finished: str,
    viewport: ViewportSize,
    tmp_path: Path,
) -> None:
    errors: list[str] = []
    secret = finished
    page = _page(browser, viewport, errors)
    page.goto(f"{web_server.url}/seat/{secret}")
    link = page.get_by_role("link", name="Review this hand").first
    expect(link).to_be_visible()
    # Over the table, the hand's end offers it beside "Next hand", in the bar that stays
    # in view however long the end is (on a phone the end scrolls under that bar).
    bar = page.locator("dialog.hand-end[open] .hand-end-actions")
    expect(bar.get_by_role("link", name="Review this hand")).to_be_in_viewport()
    expect(bar.get_by_role("button", name="Next hand")).to_be_in_viewport()
    expect(page.locator("dialog.hand-end[open] .hand-end-review")).to_have_count(0)
    assert link.get_attribute("href") == f"/review#seat={secret}&hand=0"
    assert link.get_attribute("target") == "_blank"
    _shot(page, tmp_path, f"review-hand-end-{viewport['width']}")

    page.goto(f"{web_server.url}/review#seat={secret}&hand=0")
    expect(page.locator("#review-title")).to_have_text("Umtali, hand 1: your play")
    expect(page.locator(".review-accuracy")).to_contain_text("Accuracy ")
    decisions = page.locator(".review-decision")
    expect(decisions.first).to_be_visible()
    expect(decisions.first.locator("tr.mine")).to_have_count(1)
    show = page.locator(".review-show").first
    if show.count():
        line = show.locator("xpath=../following-sibling::ol[1]")
        expect(line).to_be_hidden()
        show.click()
        expect(line).to_be_visible()
        expect(show).to_have_attribute("aria-expanded", "true")
    _fits(page)
    _shot(page, tmp_path, f"review-seat-{viewport['width']}")
    found = violations(page, axe_script())
    assert found == [], f"axe on /review:\n{report(found)}"

    page.goto(f"{web_server.url}/")
    review = page.get_by_role("link", name="Review your last finished hand", exact=False)
    expect(review.first).to_be_visible()
    review.first.click()
    expect(page.locator(".review-decision").first).to_be_visible()
    assert errors == []


def test_the_replay_page_hands_its_record_to_the_review(
    browser: Browser, web_server: ServerProcess, tmp_path: Path
) -> None:
    match = Match(kind="game", first_dealer=LESSONS[0].dealer)
    for lesson in LESSONS:
        lesson.replay(match.new_hand(lesson.deck()))
    path = tmp_path / "book.json"
    save_file(match, path)
    errors: list[str] = []
    page = _page(browser, PHONE, errors)
    page.goto(f"{web_server.url}/replay")
    page.set_input_files("#record-file", str(path))
    page.get_by_role("link", name="Review a player's hands").click()
    expect(page.locator("#whom")).to_be_visible()
    page.select_option("#player", "1")
    page.select_option("#hand", "3")
    page.get_by_role("button", name="Review", exact=True).click()
    expect(page.locator("#review-title")).to_have_text("Umtali, hand 4: Player 2's play")
    first = page.locator(".review-decision").first
    expect(first).to_contain_text("you played discard A♥")
    expect(first.locator("th", has_text="Game won")).to_have_count(1)
    _fits(page)
    _shot(page, tmp_path, "review-from-replay-390")
    assert errors == []
