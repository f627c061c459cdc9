"""The replay page (``/replay``) in a real browser (headless chromium, tests/browser.py)
against a real ``umtali serve`` (tests/servers.py), on records of Gin Rummy: a game
between two stepped through to its score sheet, and a three-hand game whose hands name
who plays whom, at a phone's width and a desktop's, with screenshots."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.servers import ServerProcess
from umtali.games.gin.match import GinMatch
from umtali.games.gin.party_session import GinPartySession
from umtali.games.gin.session import GinPlaySession
from umtali.kernel.record import save_file

PHONE: ViewportSize = {"width": 360, "height": 740}
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
TIMEOUT_MS = 15_000

# Where the screenshots go: UMTALI_SCREENSHOTS names a folder to keep them in.
SHOTS = os.environ.get("UMTALI_SCREENSHOTS")


@pytest.fixture
def server(web_server: ServerProcess) -> ServerProcess:
    """The session's server: these tests make games of their own on it."""
    return web_server


@pytest.fixture
def errors() -> list[str]:
    """The page's uncaught script errors, which a test expects to stay empty."""
    return []


def _page(browser: Browser, viewport: ViewportSize, errors: list[str]) -> Page:
    page = browser.new_page(viewport=viewport)
    page.set_default_timeout(TIMEOUT_MS)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page


def _shot(page: Page, tmp_path: Path, name: str) -> None:
    folder = Path(SHOTS) if SHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


# Nothing sticks out sideways, no text is under 12 px, and the cards of a row of melds
# and of each seat's caption do not sit on one another.
LAYOUT_CHECKS = """() => {
  const problems = [];
  if (document.documentElement.scrollWidth > window.innerWidth) problems.push("wider than the window");
  for (const node of document.querySelectorAll("#view *")) {
    if (!node.childNodes.length || ![...node.childNodes].some((c) => c.nodeType === 3 && c.textContent.trim())) continue;
    const size = parseFloat(getComputedStyle(node).fontSize);
    if (size < 12) problems.push(`text under 12px: ${node.className} ${size}`);
  }
  const box = (el) => el.getBoundingClientRect();
  const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  for (const row of document.querySelectorAll("#view .gin-laid")) {
    const groups = [...row.children];
    for (let i = 0; i < groups.length; i++) for (let j = i + 1; j < groups.length; j++) {
      if (overlap(box(groups[i]), box(groups[j]))) problems.push("melds overlap");
    }
  }
  for (const seat of document.querySelectorAll("#view .seat")) {
    const name = seat.querySelector(".seat-name");
    const laid = seat.querySelector(".gin-laid");
    if (name && laid && overlap(box(name), box(laid))) problems.push("a seat's name lies on its cards");
  }
  return problems;
}"""


@pytest.fixture(scope="module")
def gin_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, GinMatch]:
    """A whole game of Gin Rummy between two computers, saved as a record."""
    session = GinPlaySession.between_bots(("greedy", "expert"), "4/0", players=("Ann", "Bob"))
    session.play_out()
    path = tmp_path_factory.mktemp("records") / "gin.json"
    save_file(session.match, path)
    return path, session.match


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["360", "1280"])
def test_a_gin_record_is_stepped_through_to_its_score_sheet(
    browser: Browser,
    server: ServerProcess,
    errors: list[str],
    gin_game: tuple[Path, GinMatch],
    viewport: ViewportSize,
    tmp_path: Path,
) -> None:
    path, match = gin_game
    result = match.result()
    assert result is not None
    page = _page(browser, viewport, errors)
    page.goto(f"{server.url}/replay")
    page.set_input_files("#record-file", str(path))
    expect(page.locator("#heading")).to_have_text(
        "Gin Rummy between Ann (Player 1) and Bob (Player 2), to 100"
    )
    # The deal: both hands face up, ten cards each, laid out in melds and deadwood.
    expect(page.locator("#view h2")).to_have_text("The deal")
    expect(page.locator("#view .board-facts")).to_contain_text("Knock with at most")
    seats = page.locator("#view .seat")
    expect(seats).to_have_count(2)
    for seat in range(2):
        expect(seats.nth(seat).locator("svg.card")).to_have_count(10)
    expect(page.locator("#view .pile svg.card")).to_have_count(1)
    assert page.evaluate(LAYOUT_CHECKS) == []
    _shot(page, tmp_path, f"replay-gin-deal-{viewport['width']}")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#view h2")).to_have_text("Turn 1 · Player 2")
    expect(page.locator("#view .moves li").first).to_contain_text("Player 2 ")
    # The end of the first hand: how it ended, and both sides as they were laid.
    page.keyboard.press("End")
    first = match.hands[0].outcome
    assert first is not None
    end = page.locator("#view .hand-end")
    expect(end.locator(".gin-end .seat")).to_have_count(2)
    expect(end.locator(".gin-end .seat-name").nth(first.winner or 0)).to_contain_text(
        f"scores {first.scores[first.winner or 0]}"
    )
    expect(end.locator(".gin-sheet tbody tr").first).to_contain_text(first.how)
    # The very end: the score sheet with its bonuses and the final scores.
    page.get_by_role("button", name=f"Hand {len(match.hands)}").click()
    page.get_by_role("button", name="Last »").click()
    expect(page.get_by_role("button", name="Next ▶")).to_be_disabled()
    final = end.locator(".gin-sheet tr", has_text="Final")
    expect(final).to_contain_text(f"{result.final[0]}{result.final[1]}")
    expect(end.locator(".gin-sheet tr", has_text="Line bonuses")).to_contain_text(
        f"{result.line[0]}{result.line[1]}"
    )
    expect(end).to_contain_text(f"The game is over: won by {match.players[result.winner]}.")
    assert page.evaluate(LAYOUT_CHECKS) == []
    _shot(page, tmp_path, f"replay-gin-end-{viewport['width']}")
    assert errors == []


def test_a_three_hand_record_names_who_plays_whom(
    browser: Browser, server: ServerProcess, errors: list[str], tmp_path: Path
) -> None:
    party = GinPartySession.between_bots(("greedy", "random", "greedy"), 5)
    while not party.is_over():
        for hand in party.deal():
            party.play_out(hand)
        party.count()
    path = tmp_path / "three.json"
    save_file(party.match, path)
    page = _page(browser, PHONE, errors)
    page.goto(f"{server.url}/replay")
    page.set_input_files("#record-file", str(path))
    expect(page.locator("#heading .seating")).to_contain_text("sits out")
    expect(page.locator("#count")).to_contain_text("Hand 1: ")
    # Each seat of the board is one of the two players at the hand's table.
    first = party.match.hands[0].table.players
    names = [party.names[player] for player in first]
    for seat, name in enumerate(names):
        expect(page.locator("#view .seat-name").nth(seat)).to_contain_text(name)
    page.keyboard.press("End")
    expect(page.locator("#view .hand-end .totals")).to_contain_text("Totals: ")
    assert page.evaluate(LAYOUT_CHECKS) == []
    _shot(page, tmp_path, "replay-three-hand-360")
    assert errors == []
