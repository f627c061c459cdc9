"""Every table fits the window: Umtali's, and Gin Rummy's for two, three and four, each open
at two phones' and two desktops' sizes at once (tests/layout.py) while a hand is played
through the API, and checked after every move of the player's: the turn's line, the
opponent's side, the stock, the pile, the hand and the moves inside the window, apart
from each other, the page not scrolling, no text under 12 px. Then the end of the hand
in a dialog over the table, its button in view and focused, and the next hand's table
once it is closed (:func:`check_hand_end`, which Klaberjass's layout test calls too).

Each page is checked once it shows the state the test has read (its version), so that
no check waits on a clock. With ``UMTALI_SCREENSHOTS`` set to a folder, each table's
fullest moment and its hand's end are kept there to look at.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.browser import seat_context
from tests.layout import SIZES, layout_problems
from tests.servers import ServerProcess, send_move
from tests.test_web_browser import (
    WAIT_MS,
    api_state,
    open_table,
    preferred,
    turn_state,
)
from tests.test_web_browser import wait_for_version as umtali_version
from tests.test_web_gin import gin_move
from tests.test_web_gin_browser import open_gin_table
from tests.test_web_gin_browser import wait_for_version as gin_version
from tests.test_web_gin_party_browser import party_to_play

JSON = dict[str, Any]
Wait = Callable[[Page, int], None]

UMTALI = "#table"
UMTALI_PARTS = ["#turn", "#table .opponent", "#stock", "#pile", "#table .side.mine", "#hand", "#actions"]  # fmt: skip
"""What an Umtali player needs in view: the turn's line, the opponent's side (his hand's
back and what he laid), the stock, the pile, his own side, his hand and the moves."""

GIN = "#gin-table"
GIN_PARTS = ["#gin-turn", "#gin-table .opponent", "#gin-stock", "#gin-pile", "#gin-hand", "#gin-actions"]  # fmt: skip
"""What a Gin Rummy player needs in view, at two or at four."""


@pytest.fixture
def server(web_server: ServerProcess) -> ServerProcess:
    """The session's server: these tests make games of their own on it."""
    return web_server


@contextmanager
def everywhere(
    browser: Browser, server: ServerProcess, secret: str, live: str
) -> Iterator[list[Page]]:
    """The seat of ``secret`` open at every size of :data:`SIZES`, each page once its
    connection is ``live`` (the selector that says so)."""
    contexts = [seat_context(browser, size) for size in SIZES]
    try:
        pages = [context.new_page() for context in contexts]
        for page in pages:
            page.goto(f"{server.url}/seat/{secret}")
            page.wait_for_selector(live, timeout=WAIT_MS)
        yield pages
    finally:
        for context in contexts:
            context.close()


def check(
    pages: list[Page],
    wait: Wait,
    version: int,
    parts: list[str],
    root: str,
    step: str,
    shot: str | None = None,
) -> None:
    """Each page, once it shows ``version``, has the table's ``parts`` in view and apart,
    does not scroll and has no small text."""
    for page, size in zip(pages, SIZES, strict=True):
        wait(page, version)
        problems = layout_problems(page, parts, root, shot)
        assert problems == [], (step, size, problems)


def check_hand_end(
    pages: list[Page],
    wait: Wait,
    server: ServerProcess,
    secret: str,
    prefix: str,
    parts: list[str],
    root: str,
    shot: str,
) -> None:
    """The end of the hand just over, on each page: a dialog over the table, in the
    window without scrolling, announced by its heading, its button focused (Enter closes
    it on the first page, Esc on the others, a click on the last); closed, the table as
    in play, the board where it was."""
    state = api_state(server, secret)
    panel = f"#{prefix}hand-end"
    close = f"[data-key={prefix}hand-end-close]"
    for index, (page, size) in enumerate(zip(pages, SIZES, strict=True)):
        wait(page, state["version"])
        page.locator(panel).wait_for(state="visible", timeout=WAIT_MS)
        page.wait_for_function(
            "([panel, close]) => document.querySelector(panel).open"
            " && document.activeElement === document.querySelector(close)",
            arg=[panel, close],
            timeout=WAIT_MS,
        )
        # The button is inside the panel: each is checked in view on its own.
        problems = layout_problems(page, [panel], root, shot) + layout_problems(page, [close], root)
        assert problems == [], ("the hand's end", size, problems)
        assert page.evaluate(f"document.querySelector('{panel}').matches(':modal')"), size
        labelled = page.locator(panel).get_attribute("aria-labelledby")
        heading = page.locator(f"#{labelled}").inner_text()
        assert " hand " in f" {heading.lower()} ", (size, heading)
        sides = page.locator(f"{panel} .hand-end-side")
        assert sides.count() == 2, size
        if index == 0:
            page.keyboard.press("Enter")
        elif index < len(pages) - 1:
            page.keyboard.press("Escape")
        else:
            page.click(close)
        page.locator(panel).wait_for(state="hidden", timeout=WAIT_MS)
        problems = layout_problems(page, parts, root)
        assert problems == [], ("the next hand", size, problems)


def test_the_umtali_table_fits_every_size_through_a_hand(
    browser: Browser, server: ServerProcess
) -> None:
    maker = browser.new_page()
    secret = open_table(maker, server, "game")
    maker.close()
    with everywhere(browser, server, secret, "#connection[data-status=live]") as pages:
        state = turn_state(server, secret)
        most = 0
        steps = 0
        while state["hand_index"] == 0 and not state["over"]:
            view = state["view"]
            # The table with the most laid on it so far is the one kept to look at.
            laid = sum(len(column["cards"]) for side in view["tables"] for column in side)
            shot = "fit-umtali" if laid > most else None
            most = max(most, laid)
            check(
                pages,
                umtali_version,
                state["version"],
                UMTALI_PARTS,
                UMTALI,
                f"{view['phase']} {steps}",
                shot,
            )
            send_move(server, secret, preferred(view["legal"]))
            state = turn_state(server, secret)
            steps += 1
            assert steps < 200, "the hand did not end"
        assert most >= 6, "too little was laid on the table to try its layout"
        if not state["over"]:
            check_hand_end(
                pages,
                umtali_version,
                server,
                secret,
                "",
                UMTALI_PARTS,
                UMTALI,
                "fit-umtali-hand-end",
            )


def play_gin_hand(pages: list[Page], server: ServerProcess, secret: str, name: str) -> None:
    """The person's moves of his first hand of Gin Rummy, made by the API, each page
    checked before each; then the hand's end."""
    rng = random.Random(7)
    state = turn_state(server, secret)
    first = state["hand_index"]
    steps = 0
    discards = 0
    while state["hand_index"] == first and not state["over"]:
        if (state["view"] or {}).get("outcome"):
            break
        # The table is fullest with eleven cards in the hand: the third such turn is kept.
        full = any(move.startswith("discard") for move in state["legal"])
        discards += full
        shot = f"fit-{name}" if full and discards == 3 else None
        check(pages, gin_version, state["version"], GIN_PARTS, GIN, f"{name} {steps}", shot)
        send_move(server, secret, gin_move(state, rng))
        state = turn_state(server, secret)
        steps += 1
        assert steps < 200, "the hand did not end"
    if not state["over"]:
        check_hand_end(
            pages, gin_version, server, secret, "gin-", GIN_PARTS, GIN, f"fit-{name}-hand-end"
        )


def test_the_gin_table_of_two_fits_every_size_through_a_hand(
    browser: Browser, server: ServerProcess
) -> None:
    maker = browser.new_page()
    secret = open_gin_table(maker, server)
    maker.close()
    with everywhere(browser, server, secret, "#gin-connection[data-status=live]") as pages:
        play_gin_hand(pages, server, secret, "gin-two")


@pytest.mark.parametrize("players", [3, 4])
def test_the_gin_party_table_fits_every_size_through_a_hand(
    browser: Browser, server: ServerProcess, players: int
) -> None:
    maker = browser.new_page()
    secret, _state = party_to_play(maker, server, players)
    maker.close()
    with everywhere(browser, server, secret, "#gin-connection[data-status=live]") as pages:
        play_gin_hand(pages, server, secret, f"gin-party-{players}")
