"""The puzzles page (``/puzzles``) in a real browser against a real ``umtali serve``: the
link from the home page's Learn section, a puzzle drawn with the table's cards, a move
chosen by a click, the answer, each move's points and the explanation, at a phone's
size, a small phone's and a desktop's, fitting the window's width, with axe finding
nothing serious."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.axe import axe_script, report, violations
from tests.servers import ServerProcess
from umtali.games.umtali.learn.puzzles import PUZZLES

PHONE: ViewportSize = {"width": 390, "height": 844}
SMALL: ViewportSize = {"width": 360, "height": 640}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
TIMEOUT_MS = 30_000
SHOTS = os.environ.get("UMTALI_SCREENSHOTS")


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
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("viewport", [PHONE, SMALL, DESKTOP], ids=["390", "360", "1280"])
def test_a_puzzle_is_answered_by_a_click_and_explained(
    browser: Browser, web_server: ServerProcess, viewport: ViewportSize, tmp_path: Path
) -> None:
    puzzles = PUZZLES.shipped()
    puzzle = puzzles[0]
    wrong = next(i for i in range(len(puzzle.options)) if i != puzzle.answer)
    errors: list[str] = []
    page = _page(browser, viewport, errors)
    page.goto(f"{web_server.url}/")
    link = page.get_by_role("link", name="Umtali puzzles")
    expect(link).to_have_attribute("href", "/puzzles")

    page.goto(f"{web_server.url}/puzzles?puzzle=1")
    box = page.locator("section.puzzle")
    expect(box.locator(".question-title")).to_have_text(f"Puzzle 1 of {len(puzzles)}")
    expect(box.locator(".prompt")).to_have_text(puzzle.prompt)
    expect(box.locator(".position svg.card").first).to_be_visible()
    assert puzzle.position["pile"] == []  # no card discarded yet: said so, not captioned
    expect(box.locator(".position")).to_contain_text("Discard pile")
    expect(box.locator(".position")).to_contain_text("Nothing discarded yet.")
    expect(box.locator(".position")).not_to_contain_text("bottom to top")
    moves = box.locator("button.puzzle-move")
    expect(moves).to_have_count(len(puzzle.options))
    for n, option in enumerate(puzzle.options):
        expect(moves.nth(n)).to_contain_text(option.move)
        expect(moves.nth(n).locator("svg.card")).to_have_count(len(option.cards))
    _fits(page)
    _shot(page, tmp_path, f"puzzle-{viewport['width']}")
    found = violations(page, axe_script())
    assert found == [], f"axe on /puzzles:\n{report(found)}"

    moves.nth(wrong).click()
    answer = box.locator(".answer")
    expect(answer).to_contain_text(f"Not this time: the best move is {puzzle.best.move}.")
    expect(answer.locator(".explanation")).to_have_text(puzzle.explanation)
    expect(answer.locator("tr")).to_have_count(len(puzzle.options))
    expect(moves.nth(puzzle.answer)).to_have_class("choice puzzle-move best")
    expect(moves.nth(puzzle.answer).locator(".best-mark")).to_have_text("✓ best move")
    expect(moves.first).to_be_disabled()
    _fits(page)
    _shot(page, tmp_path, f"puzzle-answered-{viewport['width']}")
    found = violations(page, axe_script())
    assert found == [], f"axe on /puzzles, answered:\n{report(found)}"
    page.get_by_role("button", name="Next puzzle").click()
    expect(page.locator(".summary")).to_have_text("You found 0 of 1.")
    assert errors == []


def test_the_puzzles_come_in_a_random_order_one_after_another(
    browser: Browser, web_server: ServerProcess
) -> None:
    errors: list[str] = []
    page = _page(browser, PHONE, errors)
    page.goto(f"{web_server.url}/puzzles")
    title = page.locator("section.puzzle .question-title")
    expect(title).to_contain_text(f"of {len(PUZZLES.shipped())}")
    first = title.inner_text()
    page.locator("button.puzzle-move").first.click()
    page.get_by_role("button", name="Next puzzle").click()
    expect(title).not_to_have_text(first)
    expect(page.locator("button.puzzle-move").first).to_be_enabled()
    assert errors == []
