"""The table as the connection comes and goes, and what tells a player in another tab
that it is his turn: a real ``umtali serve`` process, Debian's chromium and Playwright.

A lost connection shows a banner in view and disables the board, so that no move is
sent into the void; once the server is back the banner goes, an error of the outage
with it, and a move works. The tab's title and icon mark the player's turn, and the
optional sounds are off until turned on, remembered, and played only after a gesture.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, ViewportSize

from tests.browser import seat_context
from tests.servers import ServerProcess, running_server, send_move
from tests.test_web_browser import (
    WAIT_MS,
    api_state,
    click_move,
    invite,
    open_home,
    open_table,
    play_turn_by_clicks,
    preferred,
    seat_secret,
    turn_state,
    wait_for_version,
)

WIDE: ViewportSize = {"width": 1280, "height": 800}
NARROW: ViewportSize = {"width": 390, "height": 844}

TURN_MARK = "● Your turn — "
"""What the tab's title starts with on the player's turn (seat_page.js)."""

SHOTS = os.environ.get("UMTALI_SCREENSHOTS")
"""A folder to keep the screenshots in (else the test's own temporary folder)."""

IN_VIEW = """(selector) => {
  const box = document.querySelector(selector).getBoundingClientRect();
  return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight
    && box.left >= 0 && box.right <= window.innerWidth;
}"""
"""Whether the element is wholly inside the window as it is scrolled now."""

AUDIO_STUB = """
(() => {
  // Tests only: an AudioContext that plays nothing but counts what is asked of it:
  // the contexts made, and the frequency of each note started.
  window.umtaliAudioContexts = 0;
  window.umtaliTones = [];
  const param = () => ({
    setValueAtTime() {},
    linearRampToValueAtTime() {},
    exponentialRampToValueAtTime() {},
  });
  window.AudioContext = class {
    constructor() {
      window.umtaliAudioContexts += 1;
      this.state = "running";
      this.currentTime = 0;
      this.destination = {};
    }
    resume() {
      return Promise.resolve();
    }
    createGain() {
      return { gain: param(), connect() {} };
    }
    createOscillator() {
      const node = { type: "sine", connect() {}, stop() {}, frequency: null };
      node.frequency = { setValueAtTime: (value) => { node.hz = value; } };
      node.start = () => window.umtaliTones.push(node.hz);
      return node;
    }
  };
})();
"""
"""The script the sound test's pages run before their own."""

CHIME = 880
"""The top note of the "your turn" chime (sound.js): no other sound plays it."""


@pytest.fixture
def server(web_server: ServerProcess) -> ServerProcess:
    """The session's server: these tests make games of their own on it."""
    return web_server


def shot(page: Page, tmp_path: Path, name: str) -> None:
    folder = Path(SHOTS) if SHOTS else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"conn-{name}.png"))


def board_buttons(page: Page) -> list[list[Any]]:
    """Each button of the board: whether it is disabled, and its aria-disabled."""
    found: list[list[Any]] = page.eval_on_selector_all(
        "#board button", "bs => bs.map(b => [b.disabled, b.getAttribute('aria-disabled')])"
    )
    return found


def test_a_lost_connection_is_shown_in_view_and_sends_no_move(
    browser: Browser, tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path}/u.db"
    context = seat_context(browser, WIDE)
    page = context.new_page()
    api_requests: list[str] = []
    page.on("request", lambda request: api_requests.append(request.url))
    with running_server(db, tmp_path) as first:
        port = first.port
        secret = open_table(page, first, "game")
        state = turn_state(first, secret)
        wait_for_version(page, state["version"])
        # A move sent as the server goes away fails, and says so under the moves.
        page.route("**/move", lambda route: route.abort())
        click_move(page, preferred(state["view"]["legal"]))
        page.wait_for_selector("#message[data-kind=error]", timeout=WAIT_MS)
        page.unroute("**/move")
        first.kill()  # gone without a goodbye, as a crashed server or a lost network
        page.wait_for_selector("#connection-banner:not([hidden])", timeout=WAIT_MS)
    assert "Connection lost" in page.inner_text("#connection-banner")
    page.wait_for_selector("#table.offline", timeout=WAIT_MS)
    assert page.inner_text("#message") == "", "the banner says it: no error of the outage below"
    # Every button of the board is disabled, and said to be.
    buttons = board_buttons(page)
    assert buttons
    assert all(button == [True, "true"] for button in buttons), buttons
    # The banner is in view at both sizes, wherever the page is scrolled.
    for size in (WIDE, NARROW):
        page.set_viewport_size(size)
        page.locator("#actions").scroll_into_view_if_needed()
        assert page.evaluate(IN_VIEW, "#connection-banner")
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        assert page.evaluate(IN_VIEW, "#connection-banner")
        page.evaluate("window.scrollTo(0, 0)")
        assert page.evaluate(IN_VIEW, "#connection-banner")
        shot(page, tmp_path, f"{size['width']}x{size['height']}")
    # A click on a move, or its key, sends nothing: the page's next request is the test's own.
    before = len(api_requests)
    moves = page.locator("#actions button[data-move]")
    if moves.count() > 0:
        moves.first.click(force=True)
    page.locator("#stock").click(force=True)
    page.keyboard.press("d")
    with page.expect_request("**/healthz"):
        page.evaluate("fetch('/healthz').catch(() => null)")
    assert [url for url in api_requests[before:] if "/api/" in url] == []
    assert page.get_attribute("#table", "data-pending") == "false"
    with running_server(db, tmp_path, port=port) as second:
        page.wait_for_selector("#connection-banner", state="hidden", timeout=WAIT_MS)
        page.wait_for_selector("#connection[data-status=live]", timeout=WAIT_MS)
        assert page.locator("#table.offline").count() == 0
        assert page.inner_text("#message") == "", "no error of the outage is left"
        assert all(aria is None for _, aria in board_buttons(page)), "the board is enabled again"
        play_turn_by_clicks(page, second, secret)
    context.close()


def play_turn_by_api(server: ServerProcess, secret: str) -> dict[str, Any]:
    """The seat's whole turn, its moves made through the API; the state after it."""
    state = turn_state(server, secret)
    while state["your_turn"] and not state["over"]:
        send_move(server, secret, preferred(state["view"]["legal"]))
        state = api_state(server, secret)
    return state


def wait_for_mark(page: Page, marked: bool) -> None:
    """Wait until the tab's title and icon say it is the player's turn (or do not)."""
    page.wait_for_function(
        """([mark, marked]) => document.title.startsWith(mark) === marked
          && document.querySelector("link[rel~='icon']").getAttribute("href").includes("turn") === marked""",
        arg=[TURN_MARK, marked],
        timeout=WAIT_MS,
    )


def test_the_tab_title_and_icon_mark_the_player_s_turn(
    browser: Browser, server: ServerProcess
) -> None:
    context = seat_context(browser, WIDE)
    host = context.new_page()
    friend = invite(host, server, "game").rsplit("/", 1)[1]
    mine = seat_secret(host)
    if not api_state(server, mine)["your_turn"]:
        wait_for_mark(host, False)
        play_turn_by_api(server, friend)
    wait_for_mark(host, True)
    assert host.title().startswith(TURN_MARK)
    play_turn_by_api(server, mine)
    wait_for_mark(host, False)
    assert host.title().endswith(" · Umtali")
    play_turn_by_api(server, friend)
    wait_for_mark(host, True)
    context.close()


def test_sounds_are_off_until_turned_on_remembered_and_wait_for_a_gesture(
    browser: Browser, server: ServerProcess
) -> None:
    context = seat_context(browser, WIDE)
    context.add_init_script(AUDIO_STUB)
    page = context.new_page()
    open_home(page, server)
    assert not page.is_checked("#sound")
    assert page.evaluate("localStorage.getItem('umtali.sound')") is None
    friend = invite(page, server, "game").rsplit("/", 1)[1]
    mine = seat_secret(page)
    # Off: a turn comes and goes in silence.
    if not api_state(server, mine)["your_turn"]:
        play_turn_by_api(server, friend)
    wait_for_mark(page, True)
    assert page.evaluate("window.umtaliTones") == []
    # On (the click is the gesture that lets it play): the turn's chime sounds.
    page.check("#sound")
    assert page.evaluate("localStorage.getItem('umtali.sound')") == "1"
    play_turn_by_api(server, mine)
    wait_for_mark(page, False)
    play_turn_by_api(server, friend)
    wait_for_mark(page, True)
    page.wait_for_function(f"window.umtaliTones.includes({CHIME})", timeout=WAIT_MS)
    # Remembered after a reload, but nothing is made or played before a gesture.
    page.reload()
    page.wait_for_selector("#connection[data-status=live]", timeout=WAIT_MS)
    assert page.is_checked("#sound")
    play_turn_by_api(server, mine)
    wait_for_mark(page, False)
    play_turn_by_api(server, friend)
    wait_for_mark(page, True)
    assert page.evaluate("[window.umtaliAudioContexts, window.umtaliTones]") == [0, []]
    context.close()
