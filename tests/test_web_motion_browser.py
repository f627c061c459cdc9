"""The cards move (static/js/motion.js), in a real browser: with the speed at Normal,
the moves since the last state drawn fly one at a time, in the order they were made
(the player's own, then the computer's), each announced by the event ``umtali:moved``;
no card hidden from the seat shows its face in flight; ``prefers-reduced-motion`` and
the speed Off make nothing fly; the speed chosen is kept across a reload. Umtali, Gin
Rummy and Klaberjass against the computer.

The tests wait on the page's events and attributes, never on the clock.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.browser import DESKTOP, SOCKET_WATCH
from tests.servers import ServerProcess
from tests.test_web_browser import (
    WAIT_MS,
    open_table,
    preferred,
    turn_state,
)
from tests.test_web_browser import click_move as click_umtali_move
from tests.test_web_browser import wait_for_version as wait_for_umtali_version
from tests.test_web_gin import gin_move
from tests.test_web_gin_browser import click_move as click_gin_move
from tests.test_web_gin_browser import open_gin_table
from tests.test_web_gin_browser import wait_for_version as wait_for_gin_version
from tests.test_web_klaberjass_browser import click_move as click_kj_move
from tests.test_web_klaberjass_browser import open_klaberjass_table
from tests.test_web_klaberjass_browser import wait_for_version as wait_for_kj_version

JSON = dict[str, Any]

RECORD_MOVES = """
(() => {
  // Tests only: each flight's move as it starts, with what flies then: for each copy in
  // the layer, the card it shows ("back" for a card face down) and the table's version.
  window.umtaliMoved = [];
  document.addEventListener("umtali:moved", (event) => {
    const copies = [...document.querySelectorAll(".motion-layer .motion-card")];
    const table = document.querySelector(".table-page:not([hidden])");
    window.umtaliMoved.push({
      ...event.detail,
      version: Number(table?.dataset.version ?? -1),
      flying: copies.map((copy) => copy.classList.contains("card-back") ? "back" : copy.dataset.flying ?? "?"),
      animating: document.body.dataset.animating ?? null,
    });
  });
})();
"""

SENT_STATES = """
(() => {
  // Tests only: the text of every message the page's socket brings and of every answer
  // to its requests, as it arrives (before the page, or a socket held back, hears it):
  // all that the seat was sent, where a card flying face up must be found.
  window.umtaliSent = [];
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        if (!event.umtaliReplayed) window.umtaliSent.push(String(event.data));
      });
    }
  };
  const nativeFetch = window.fetch;
  window.fetch = async (...args) => {
    const response = await nativeFetch(...args);
    window.umtaliSent.push(await response.clone().text());
    return response;
  };
})();
"""


SOCKET_BEHIND = """
(() => {
  // Tests only: a socket that falls behind, as a busy server's may. While a move is on
  // its way the states the socket brings are held back; once the move's answer has come,
  // the newest of them alone is let through, just before the page reads the answer. The
  // other player's moves are then drawn all at once, and the answer's redraw after them
  // changes nothing.
  const Native = window.WebSocket;
  let socket = null;
  let moving = false;
  let held = null; // the newest state held back, and its version
  let heard = null; // called when a state is held back
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      socket = this;
      this.addEventListener("message", (event) => {
        if (!moving || event.umtaliReplayed) return;
        event.stopImmediatePropagation();
        const message = JSON.parse(event.data);
        if (message.type !== "state") return;
        held = { data: event.data, version: message.version };
        heard?.();
      });
    }
  };
  const nativeFetch = window.fetch;
  window.fetch = async (...args) => {
    if (!String(args[0]).endsWith("/move")) return nativeFetch(...args);
    moving = true;
    try {
      const response = await nativeFetch(...args);
      if (response.ok) {
        const { version } = (await response.clone().json()).state;
        await new Promise((resolve) => {
          heard = () => held && held.version >= version && resolve();
          heard();
        });
      }
      return response;
    } finally {
      moving = false;
      heard = null;
      if (held) {
        const event = new MessageEvent("message", { data: held.data });
        event.umtaliReplayed = true;
        held = null;
        socket.dispatchEvent(event);
      }
    }
  };
})();
"""
"""Run after :data:`SOCKET_WATCH` (which then hears every state, held back or not)."""


@pytest.fixture
def server(web_server: ServerProcess) -> ServerProcess:
    """The session's server: these tests make games of their own on it."""
    return web_server


def motion_context(
    browser: Browser, reduced: bool = False, socket_behind: bool = False
) -> BrowserContext:
    """A person's browser whose pages note their socket's states (tests/browser.py) and
    the flights' events; the system asking for reduced motion when ``reduced``; the
    socket falling behind (:data:`SOCKET_BEHIND`) when ``socket_behind``."""
    context = browser.new_context(
        viewport=DESKTOP, reduced_motion="reduce" if reduced else "no-preference"
    )
    context.add_init_script(SOCKET_WATCH)
    context.add_init_script(SENT_STATES)
    context.add_init_script(RECORD_MOVES)
    if socket_behind:
        context.add_init_script(SOCKET_BEHIND)
    return context


def moved(page: Page) -> list[JSON]:
    events: list[JSON] = page.evaluate("window.umtaliMoved")
    return events


def flew(page: Page, verb: str, mine: bool | None = None) -> bool:
    """Whether a move of ``verb`` (by the player when ``mine``, by the other when not
    ``mine``) has made a card fly."""
    return any(
        event["text"].split()[0] == verb and mine in (None, event["mine"]) for event in moved(page)
    )


def settle(page: Page) -> None:
    """Wait until no card is in flight."""
    page.wait_for_function("() => document.body.dataset.animating === undefined", timeout=WAIT_MS)


def play_until(
    page: Page,
    server: ServerProcess,
    secret: str,
    moves: tuple[Callable[[JSON], str], Callable[[Page, str], None], Callable[[Page, int], None]],
    done: Callable[[JSON, JSON], bool],
    hands: int = 1,
) -> JSON:
    """Make this seat's moves on the page (``moves``: how one is chosen from the state,
    made by clicks, and waited for) until ``done(before, after)`` says so of a move, or
    the first ``hands`` hands are over; the state then."""
    choose, click, wait = moves
    state = turn_state(server, secret)
    while state["hand_index"] < hands and not state["over"]:
        wait(page, state["version"])
        if state["hand_index"] > 0:
            # A hand has ended: its end shows over the table until Esc closes it.
            page.keyboard.press("Escape")
            page.locator("dialog.hand-end[open]").wait_for(state="detached", timeout=WAIT_MS)
        before = state
        click(page, choose(state))
        wait(page, state["version"] + 1)
        # The moves drawn fly to their end before the next click, whose redraw of a
        # new state would end them (and the check below looks at what flew).
        settle(page)
        state = turn_state(server, secret)
        if done(before, state):
            break
    wait(page, state["version"])
    return state


def the_other_moved(before: JSON, after: JSON) -> bool:
    """Whether the other player has moved since ``before``, in the same hand."""
    new = after["view"]["history"][len(before["view"]["history"]) :]
    return after["hand_index"] == before["hand_index"] and any(
        actor != after["seat"] for actor, _ in new
    )


UMTALI = (
    lambda state: preferred(state["view"]["legal"]),
    click_umtali_move,
    wait_for_umtali_version,
)


def play_umtali_until_the_computer_moved(page: Page, server: ServerProcess, secret: str) -> JSON:
    return play_until(page, server, secret, UMTALI, the_other_moved)


def sent_by_version(page: Page) -> dict[int, str]:
    """What the page was sent (:data:`SENT_STATES`): the text of each seat state, by its
    version (a socket's message, or the state in a request's answer)."""
    states: dict[int, str] = {}
    for text in page.evaluate("window.umtaliSent"):
        try:
            message = json.loads(text)
        except ValueError:
            continue
        state = message.get("state", message) if isinstance(message, dict) else None
        if isinstance(state, dict) and state.get("type") == "state":
            states[state["version"]] = json.dumps(state)
    return states


def seen_by_seat(card: str, state: str) -> bool:
    """Whether the seat's state (its text) holds ``card`` (in its hand, the pile, the
    table, the cards known of the other hand, the moves of its history): a card the seat
    may see."""
    return re.search(rf"\b{card}\b", state) is not None


def check_flights(events: list[JSON], page: Page) -> None:
    """The events of one table: in each redraw the moves go in order, and every copy in
    flight is a back or a card the seat sees in the state being drawn, the one the page
    was sent with that version. (Not the state at the test's end: a card the other player
    took from the pile and laid at a hand's end is in none of the next hand's states.)"""
    assert events, "no card flew"
    states = sent_by_version(page)
    by_version: dict[int, list[JSON]] = {}
    for event in events:
        by_version.setdefault(event["version"], []).append(event)
        assert event["animating"] == "true"
        assert event["cards"] >= 1
        for card in event["flying"]:
            assert card == "back" or seen_by_seat(card, states[event["version"]]), (
                f"{card} flew face up: {event}"
            )
        if not event["mine"] and event["text"].split()[0] == "draw":
            # The other player's drawn card flies face down.
            assert "back" in event["flying"]
    for batch in by_version.values():
        indices = [event["index"] for event in batch]
        assert indices == sorted(set(indices)), batch
        mine = [event["mine"] for event in batch]
        # The player's own move first, then the other player's.
        assert mine == sorted(mine, reverse=True), batch


@pytest.mark.parametrize("socket_behind", [False, True], ids=["socket-on-time", "socket-behind"])
def test_umtali_the_computer_s_moves_fly_one_at_a_time_in_order(
    browser: Browser, server: ServerProcess, socket_behind: bool
) -> None:
    # With the socket behind, the computer's moves come in one state, and the answer to
    # the player's move is drawn again while they fly: that redraw must not stop them.
    context = motion_context(browser, socket_behind=socket_behind)
    page = context.new_page()
    secret = open_table(page, server, "hand")
    assert page.get_attribute("body", "data-motion") == "normal"
    assert page.input_value("#motion") == "normal"
    state = play_umtali_until_the_computer_moved(page, server, secret)
    settle(page)
    events = moved(page)
    theirs = [event for event in events if not event["mine"]]
    assert theirs, events
    # The computer's moves as they flew are its moves in the hand's history, in order.
    history = [text for actor, text in state["view"]["history"] if actor != state["seat"]]
    texts = [event["text"] for event in theirs]
    at = 0
    for text in texts:
        assert text in history[at:], (texts, history)
        at = history.index(text, at) + 1
    check_flights(events, page)
    assert page.locator(".motion-layer .motion-card").count() == 0
    # The flights never widen the page.
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    context.close()


@pytest.mark.parametrize("socket_behind", [False, True], ids=["socket-on-time", "socket-behind"])
def test_gin_moves_fly_and_the_computer_s_drawn_card_flies_face_down(
    browser: Browser, server: ServerProcess, socket_behind: bool
) -> None:
    context = motion_context(browser, socket_behind=socket_behind)
    page = context.new_page()
    secret = open_gin_table(page, server)
    rng = random.Random(5)
    gin_moves = (lambda state: gin_move(state, rng), click_gin_move, wait_for_gin_version)
    # The computer may take from the pile all through a hand, or the hand may end at his
    # first turn: three hands, for one of his draws from the stock.
    play_until(
        page,
        server,
        secret,
        gin_moves,
        lambda before, after: flew(page, "draw", mine=False),
        hands=3,
    )
    settle(page)
    events = moved(page)
    assert flew(page, "draw", mine=False), events
    check_flights(events, page)
    context.close()


def test_klaberjass_a_card_played_flies_to_the_trick(
    browser: Browser, server: ServerProcess
) -> None:
    context = motion_context(browser)
    page = context.new_page()
    secret = open_klaberjass_table(page, server)
    rng = random.Random(4)

    kj_moves = (lambda state: rng.choice(state["legal"]), click_kj_move, wait_for_kj_version)
    play_until(page, server, secret, kj_moves, lambda before, after: flew(page, "play"))
    settle(page)
    assert flew(page, "play"), moved(page)
    check_flights(moved(page), page)
    context.close()


def test_reduced_motion_and_the_speed_off_make_nothing_fly_and_the_speed_is_kept(
    browser: Browser, server: ServerProcess
) -> None:
    context = motion_context(browser, reduced=True)
    page = context.new_page()
    secret = open_table(page, server, "hand")
    # The system asks for reduced motion: Off, until the player chooses a speed.
    assert page.input_value("#motion") == "off"
    play_umtali_until_the_computer_moved(page, server, secret)
    assert moved(page) == []
    assert page.get_attribute("body", "data-animating") is None
    # A speed chosen is the player's own: kept across a reload, and used even so.
    page.select_option("#motion", "fast")
    page.reload()
    page.wait_for_selector("#connection[data-status=live]", timeout=WAIT_MS)
    assert page.input_value("#motion") == "fast"
    assert page.evaluate("localStorage.getItem('umtali.motion')") == "fast"
    play_umtali_until_the_computer_moved(page, server, secret)
    settle(page)
    assert moved(page) != []
    # Off: nothing flies.
    page.select_option("#motion", "off")
    page.reload()
    page.wait_for_selector("#connection[data-status=live]", timeout=WAIT_MS)
    assert page.input_value("#motion") == "off"
    play_umtali_until_the_computer_moved(page, server, secret)
    assert moved(page) == []
    context.close()
