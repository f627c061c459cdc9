"""What a player sees when the server closes the seat's WebSocket for good: the seat
open in more tabs than the server allows (code 4429), and a link that names no seat
(code 4404). A real ``umtali serve`` allowing one socket per seat, Debian's chromium.

The page must say so plainly and must not reconnect in a loop. A loop is caught
without sleeping: the page under test runs on Playwright's fake clock, so that the
test moves its time a minute on at once (far past the longest pause between two
tries, 15 s) and counts the sockets it opened, in the page itself (:data:`SOCKET_LOG`,
synchronous with ``new WebSocket``) and as Playwright saw them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    Page,
    Route,
    ViewportSize,
    WebSocket,
    expect,
)

from tests.browser import DESKTOP, seat_context
from tests.servers import HTTP, ServerProcess, running_server
from tests.test_web_browser import WAIT_MS, open_table, play_turn_by_clicks
from umtali.web.socket import NO_SEAT_CODE
from umtali.web.transport import TOO_MANY_SOCKETS_CODE

SIZES: list[ViewportSize] = [{"width": 360, "height": 640}, {"width": 1280, "height": 800}]
"""A small phone's screen and a laptop's: the message must be in full view on both."""

SOCKET_LOG = """
(() => {
  // Tests only: every WebSocket the page opens, and the code it was closed with.
  const Native = window.WebSocket;
  window.umtaliSockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      const entry = { closed: null, heard: false };
      window.umtaliSockets.push(entry);
      this.addEventListener("message", () => { entry.heard = true; });
      this.addEventListener("close", (event) => { entry.closed = event.code; });
    }
  };
})();
"""
"""The script each page of these tests runs before its own."""

ANSWERED = """(n) => {
  const last = window.umtaliSockets[n - 1];
  return window.umtaliSockets.length === n && (last.closed !== null || last.heard);
}"""
"""Whether the page has opened its n-th socket and the server has answered on it: the
socket brought a state, or was closed."""

A_MINUTE_MS = 60_000
"""How far the fake clock is moved on after the socket closed: four times the page's
longest pause between two tries."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server that lets each seat hold one WebSocket open."""
    folder = tmp_path_factory.mktemp("socket-limits")
    args = ["--sockets-per-seat", "1"]
    with running_server(f"sqlite:///{folder / 'umtali.db'}", folder, args=args) as process:
        yield process


def logged_context(browser: Browser) -> BrowserContext:
    context = seat_context(browser, DESKTOP)
    context.add_init_script(SOCKET_LOG)
    return context


def sockets_in_page(page: Page) -> list[Any]:
    """The close code of each socket the page opened (None: still open)."""
    return [entry["closed"] for entry in page.evaluate("window.umtaliSockets")]


def opened_and_closed(page: Page, url: str) -> list[WebSocket]:
    """Open ``url`` on ``page`` under the fake clock, and wait until its first socket
    has closed; every socket Playwright sees the page open."""
    seen: list[WebSocket] = []
    page.on("websocket", lambda socket: seen.append(socket))
    page.clock.install()
    with page.expect_websocket(timeout=WAIT_MS) as first:
        page.goto(url)
    socket = first.value
    if not socket.is_closed():
        socket.wait_for_event("close", timeout=WAIT_MS)
    return seen


def no_more_sockets_after_a_minute(page: Page, seen: list[WebSocket], code: int) -> None:
    """The page opened one socket, closed with ``code``, and opens none in the next
    minute of its clock."""
    page.clock.run_for(A_MINUTE_MS)
    # A retry would have made its socket during run_for: the page's own count has it.
    assert sockets_in_page(page) == [code]
    page.evaluate("1")  # one more round trip, for any event of a socket still on its way
    assert len(seen) == 1


def test_a_seat_open_in_too_many_tabs_says_so_and_stops_trying(
    browser: Browser, server: ServerProcess
) -> None:
    context = logged_context(browser)
    first = context.new_page()
    secret = open_table(first, server, "hand")
    link = first.url
    # The same link in a second tab: the server allows the seat one socket only.
    second = context.new_page()
    problems: list[str] = []
    second.on("pageerror", lambda error: problems.append(str(error)))
    seen = opened_and_closed(second, link)
    connection = second.locator("#connection")
    expect(connection).to_have_attribute("data-status", "too-many")
    expect(connection).to_contain_text("This seat is open in too many tabs or windows")
    expect(connection).to_contain_text("close one")
    no_more_sockets_after_a_minute(second, seen, TOO_MANY_SOCKETS_CODE)
    expect(connection).to_have_attribute("data-status", "too-many")
    for viewport in SIZES:
        second.set_viewport_size(viewport)
        expect(connection).to_be_in_viewport(ratio=1)
    # The first tab plays on, its socket still bringing each state (SETTLED in
    # play_turn_by_clicks waits for the socket's copy).
    expect(first.locator("#connection")).to_have_attribute("data-status", "live")
    assert sockets_in_page(first) == [None]
    play_turn_by_clicks(first, server, secret)
    assert sockets_in_page(first) == [None]
    # Once the first tab is closed, "Retry now" makes the second live. (The server
    # may not yet have seen the first tab's socket close: a try it refuses is closed
    # at once, and the player presses the button again.)
    first.close()
    for tries in range(2, 42):
        second.get_by_role("button", name="Retry now").click()
        second.wait_for_function(ANSWERED, arg=tries, timeout=WAIT_MS)
        if sockets_in_page(second)[-1] is None:
            break
    expect(connection).to_have_attribute("data-status", "live")
    assert problems == []
    context.close()


def test_a_forged_link_says_no_seat_and_opens_no_socket(
    browser: Browser, server: ServerProcess
) -> None:
    context = logged_context(browser)
    page = context.new_page()
    seen: list[WebSocket] = []
    page.on("websocket", lambda socket: seen.append(socket))
    page.clock.install()
    page.goto(server.url + "/seat/" + "x" * 43)
    expect(page.locator("#no-seat")).to_be_visible()
    expect(page.locator("#no-seat")).to_contain_text("No seat has this link")
    page.clock.run_for(A_MINUTE_MS)
    expect(page.locator("#no-seat")).to_be_visible()
    assert sockets_in_page(page) == []
    page.evaluate("1")
    assert seen == []
    context.close()


def test_a_socket_closed_4404_says_no_seat_and_stops_trying(
    browser: Browser, server: ServerProcess
) -> None:
    """The page read a seat's state, then its socket is told that no seat has the link
    (as when the game is gone between the two): the page says so and tries no more.
    The forged link's state is answered, for the page, with a real seat's."""
    real = HTTP.post(f"{server.url}/api/games", json={"opponent": "person"}, timeout=10)
    real.raise_for_status()
    state = HTTP.get(
        f"{server.url}/api/seat/{real.json()['seats'][0]['secret']}", timeout=10
    ).json()
    forged = "y" * 43
    context = logged_context(browser)
    page = context.new_page()

    def answer_with_the_real_state(route: Route) -> None:
        route.fulfill(json=state)

    page.route(f"**/api/seat/{forged}", answer_with_the_real_state)
    seen = opened_and_closed(page, f"{server.url}/seat/{forged}")
    expect(page.locator("#no-seat")).to_be_visible()
    expect(page.locator("#no-seat")).to_contain_text("No seat has this link")
    expect(page.locator("#table")).to_be_hidden()
    no_more_sockets_after_a_minute(page, seen, NO_SEAT_CODE)
    expect(page.locator("#no-seat")).to_be_visible()
    context.close()
