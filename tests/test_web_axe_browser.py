"""Every page passes axe-core, the accessibility checker (the npm package, injected by
Playwright; tests/axe.py), with no violation of a serious or critical impact: the home
page, each game's table in the middle of a hand (Umtali, Gin Rummy for two and for a
party, Klaberjass) and at the end of its first hand (the dialog over it), the lessons, the quiz, the replay page with a record open, and the
Klaberjass how-to, each at a phone's size and a desktop's. On each the Tab key, from
the top round to the top again, reaches every control shown (a row of cards is one tab
stop, its cards reached by the arrows, as a radio group is)."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize

from tests.axe import axe_script, report, violations
from tests.servers import ServerProcess, send_move
from tests.test_web_browser import (
    WAIT_MS,
    open_home,
    open_table,
    preferred,
    turn_state,
)
from tests.test_web_browser import wait_for_version as umtali_version
from tests.test_web_gin import gin_move
from tests.test_web_gin_browser import open_gin_table
from tests.test_web_gin_browser import wait_for_version as gin_version
from tests.test_web_gin_party_browser import party_to_play
from tests.test_web_klaberjass_browser import open_klaberjass_table
from tests.test_web_klaberjass_browser import wait_for_version as kj_version
from tests.test_web_learn_browser import save_lesson_game

JSON = dict[str, Any]

MARK_FOCUS = """() => {
  // The element the Tab key reached: marked, and whether it was reached before.
  const node = document.activeElement;
  if (!node || node === document.body) return "none";
  if (node.dataset.tabbed) return "again";
  node.dataset.tabbed = "1";
  return "new";
}"""

UNREACHED = """() => {
  // Each control shown and enabled that the Tab key did not reach. A card out of the
  // tab order in a row of cards (the nearest part with an id: a hand, a pile) that has
  // its one tab stop reached does not count (the arrows move along the row), nor does a
  // radio button whose group was reached.
  const controls = document.querySelectorAll(
    "a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex='-1'])");
  const missed = [];
  // Under an open modal dialog (a hand's end) the page is inert: the dialog's own count.
  const modal = document.querySelector("dialog:modal");
  for (const node of controls) {
    if (node.dataset.tabbed || node.disabled || !node.checkVisibility()) continue;
    if (modal && !modal.contains(node)) continue;
    if (node.closest("[inert], [hidden]")) continue;
    if (node.tabIndex < 0 && node.parentElement?.closest("[id]")?.querySelector("[data-tabbed]")) continue;
    if (node.type === "radio" && document.querySelector(
      `input[type=radio][name="${node.name}"][data-tabbed]`)) continue;
    missed.push(node.outerHTML.slice(0, 120));
  }
  return missed;
}"""


def unreached_by_tab(page: Page) -> list[str]:
    """The controls the Tab key does not reach, walked from the page's top round to it."""
    page.evaluate("document.activeElement?.blur(); window.focus()")
    for _ in range(400):
        page.keyboard.press("Tab")
        if page.evaluate(MARK_FOCUS) == "again":
            break
    missed: list[str] = page.evaluate(UNREACHED)
    return missed


SIZES: list[ViewportSize] = [{"width": 390, "height": 844}, {"width": 1280, "height": 800}]


@pytest.fixture
def server(web_server: ServerProcess) -> ServerProcess:
    """The session's server: these tests make games of their own on it."""
    return web_server


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The four lesson hands saved as one game, for the replay page."""
    return save_lesson_game(tmp_path_factory.mktemp("records"))


def home(page: Page, server: ServerProcess, record: Path) -> None:
    open_home(page, server)


def umtali_table(page: Page, server: ServerProcess, record: Path) -> None:
    # Into the hand: the deal's choice and the first draw are made through the API.
    secret = open_table(page, server, "game")
    for _ in range(2):
        send_move(server, secret, preferred(turn_state(server, secret)["view"]["legal"]))
    umtali_version(page, turn_state(server, secret)["version"])


def gin_two(page: Page, server: ServerProcess, record: Path) -> None:
    secret = open_gin_table(page, server)
    gin_version(page, turn_state(server, secret)["version"])


def gin_party(page: Page, server: ServerProcess, record: Path) -> None:
    _, state = party_to_play(page, server, 3)
    gin_version(page, state["version"])


def klaberjass(page: Page, server: ServerProcess, record: Path) -> None:
    kj_version(page, turn_state(server, open_klaberjass_table(page, server))["version"])


def to_hand_end(
    page: Page, server: ServerProcess, secret: str, prefix: str, choose: Callable[[JSON], str]
) -> None:
    """The seat's first hand played to its end by ``choose`` through the API, and the
    page showing its end: the dialog over the table."""
    state = turn_state(server, secret)
    first = state["hand_index"]
    while state["hand_index"] == first and not state["over"]:
        if (state["view"] or {}).get("outcome"):
            break  # a party's hand: over while the other table plays on
        send_move(server, secret, choose(state))
        state = turn_state(server, secret)
    page.locator(f"#{prefix}hand-end").wait_for(state="visible", timeout=WAIT_MS)
    page.locator(f"[data-key={prefix}hand-end-close]").wait_for(timeout=WAIT_MS)


def umtali_hand_end(page: Page, server: ServerProcess, record: Path) -> None:
    secret = open_table(page, server, "game")
    to_hand_end(page, server, secret, "", lambda state: preferred(state["view"]["legal"]))


def gin_two_hand_end(page: Page, server: ServerProcess, record: Path) -> None:
    rng = random.Random(3)
    secret = open_gin_table(page, server)
    to_hand_end(page, server, secret, "gin-", lambda state: gin_move(state, rng))


def gin_party_hand_end(page: Page, server: ServerProcess, record: Path) -> None:
    rng = random.Random(3)
    secret, _state = party_to_play(page, server, 4)
    to_hand_end(page, server, secret, "gin-", lambda state: gin_move(state, rng))


def klaberjass_hand_end(page: Page, server: ServerProcess, record: Path) -> None:
    rng = random.Random(3)
    secret = open_klaberjass_table(page, server)
    to_hand_end(page, server, secret, "kj-", lambda state: rng.choice(state["legal"]))


def learn(page: Page, server: ServerProcess, record: Path) -> None:
    page.goto(f"{server.url}/learn")
    page.get_by_role("button", name="Lesson 3").wait_for(timeout=WAIT_MS)


def lesson(page: Page, server: ServerProcess, record: Path) -> None:
    learn(page, server, record)
    page.get_by_role("button", name="Lesson 3").click()
    page.wait_for_selector("button.continue, form.answer-form", timeout=WAIT_MS)


def quiz(page: Page, server: ServerProcess, record: Path) -> None:
    page.goto(f"{server.url}/quiz")
    page.get_by_role("button", name="Begin").click(timeout=WAIT_MS)
    # Question 1: its hand's cards to click, Next group and Clear.
    page.wait_for_selector("form.answer-form button.pick", timeout=WAIT_MS)


def replay(page: Page, server: ServerProcess, record: Path) -> None:
    page.goto(f"{server.url}/replay")
    page.set_input_files("#record-file", str(record))
    page.wait_for_selector("#view h2", timeout=WAIT_MS)
    page.keyboard.press("ArrowRight")


def howto(page: Page, server: ServerProcess, record: Path) -> None:
    page.goto(f"{server.url}/learn/klaberjass")
    page.wait_for_selector("#howto-start", timeout=WAIT_MS)
    page.click("#howto-start")
    page.wait_for_selector("#howto-ask", timeout=WAIT_MS)


PAGES: dict[str, Callable[[Page, ServerProcess, Path], None]] = {
    "home": home,
    "umtali-table": umtali_table,
    "gin-two-table": gin_two,
    "gin-party-table": gin_party,
    "klaberjass-table": klaberjass,
    "umtali-hand-end": umtali_hand_end,
    "gin-two-hand-end": gin_two_hand_end,
    "gin-party-hand-end": gin_party_hand_end,
    "klaberjass-hand-end": klaberjass_hand_end,
    "learn": learn,
    "lesson": lesson,
    "quiz": quiz,
    "replay": replay,
    "klaberjass-howto": howto,
}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s['width']}x{s['height']}")
@pytest.mark.parametrize("name", list(PAGES))
def test_axe_finds_nothing_serious_and_the_tab_key_reaches_every_control(
    browser: Browser, server: ServerProcess, record: Path, name: str, size: ViewportSize
) -> None:
    script = axe_script()
    # The pages forbid inline scripts: the checker is let in past the policy.
    context = browser.new_context(viewport=size, bypass_csp=True)
    try:
        page = context.new_page()
        PAGES[name](page, server, record)
        found = violations(page, script)
        assert found == [], f"axe on {name} at {size}:\n{report(found)}"
        # Every control is reachable by the keyboard.
        missed = unreached_by_tab(page)
        assert missed == [], f"the Tab key misses on {name} at {size}:\n" + "\n".join(missed)
    finally:
        context.close()


CARD_NAME = re.compile(
    r"\b(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king)"
    r" of (spades|hearts|diamonds|clubs)\b"
)
"""A card as a screen reader names it ("queen of spades")."""

TABLES = {"umtali-table": "", "gin-two-table": "gin-", "klaberjass-table": "kj-"}
"""Each kind of table, by the prefix of its parts' ids."""


@pytest.mark.parametrize("name", list(TABLES))
def test_a_screen_reader_hears_the_cards_the_turn_and_the_opponent_s_moves(
    browser: Browser, server: ServerProcess, record: Path, name: str
) -> None:
    prefix = TABLES[name]
    context = browser.new_context(viewport=SIZES[1])
    try:
        page = context.new_page()
        PAGES[name](page, server, record)
        # Each card of the hand is a button named by its card.
        buttons = re.findall(r'button "([^"]*)"', page.locator(f"#{prefix}hand").aria_snapshot())
        assert buttons, "no card of the hand is a named button"
        assert all(CARD_NAME.search(button) for button in buttons), buttons
        # The turn is a status, and the opponent's moves a polite log: both are read
        # out as they change.
        assert page.get_attribute(f"#{prefix}turn", "role") == "status"
        log = page.get_by_role("log", name="Last moves")
        assert log.count() == 1
        assert log.get_attribute("aria-live") == "polite"
        assert "since your last move" in log.inner_text()
    finally:
        context.close()
