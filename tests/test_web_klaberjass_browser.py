"""Klaberjass in a real browser: a real ``umtali serve`` process, Debian's chromium driven
by Playwright, the game chosen on the home page and played by clicks (the bids and the
exchange by their buttons, each card by clicking it): a whole hand against the computer
and its end; a whole game to 500 between two friends, each in his own browser, the second
come by the invite link, to its result and rematch, with every message each seat's page
received scanned for cards that seat may not see; and the table's layout at two phones'
and two desktops' sizes through a hand.

The moves are chosen at random from the seat's legal moves (read from the API, as a
player reads the table) and made through the page only.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Response, WebSocket

from tests.browser import DESKTOP, PHONE, seat_context
from tests.layout import SIZES
from tests.layout import layout_problems as shared_layout_problems
from tests.servers import ServerProcess
from tests.test_conformance_web import Scan
from tests.test_web_browser import WAIT_MS, api_state, open_home, seat_secret, turn_state
from tests.test_web_table_fit_browser import check_hand_end
from umtali.kernel.cards import card_ascii, parse_card

JSON = dict[str, Any]


@pytest.fixture
def server(web_server: ServerProcess) -> ServerProcess:
    """The session's server: these tests make games of their own on it."""
    return web_server


def wait_for_version(page: Page, version: int) -> None:
    """Wait until the table shows ``version`` (or later) with no move on its way, and (on a
    page of ``seat_context``) its socket has brought that version too: as ``SETTLED`` in
    tests/browser.py."""
    page.wait_for_function(
        """(version) => {
            const table = document.getElementById("kj-table");
            const heard = window.umtaliSocketVersion;
            return Number(table.dataset.version) >= version && table.dataset.pending === "false"
                && (heard === undefined || heard >= version);
        }""",
        arg=version,
        timeout=WAIT_MS,
    )


def click_move(page: Page, move: str) -> None:
    """Make ``move`` by a click: a card played by clicking it in the hand, any other
    move by its button. The end of a hand over the table, if it is up, is closed first
    (the table under it waits for that)."""
    if page.locator("#kj-hand-end").is_visible():
        page.click("[data-key=kj-hand-end-close]")
        page.locator("#kj-hand-end").wait_for(state="hidden", timeout=WAIT_MS)
    verb, *rest = move.split()
    if verb == "play":
        page.click(f'#kj-hand button[data-card="{card_ascii(parse_card(rest[0]))}"]')
    else:
        page.click(f'#kj-actions button[data-move="{move}"]')


def open_klaberjass_table(page: Page, server: ServerProcess) -> str:
    """A new game of Klaberjass against the random computer, made on the home page; its
    secret."""
    open_home(page, server)
    page.check('#computer-form input[name=game][value="klaberjass"]')
    page.check('#computer-form input[name=level][value="random"]')
    page.click("#computer-form button[type=submit]")
    page.wait_for_url(re.compile(r"/seat/"))
    page.wait_for_selector("#kj-connection[data-status=live]", timeout=WAIT_MS)
    return seat_secret(page)


def test_a_whole_hand_of_klaberjass_against_the_computer_by_clicks(
    browser: Browser, server: ServerProcess
) -> None:
    page = browser.new_page()
    secret = open_klaberjass_table(page, server)
    rng = random.Random(4)
    state = turn_state(server, secret)
    assert state["game"] == "klaberjass"
    while state["hand_index"] == 0 and not state["over"]:
        wait_for_version(page, state["version"])
        # What the page offers as buttons is what the rules allow, no more.
        offered = page.eval_on_selector_all(
            "#kj-actions button[data-move]", "buttons => buttons.map(b => b.dataset.move)"
        )
        assert set(offered) <= set(state["legal"])
        click_move(page, rng.choice(state["legal"]))
        wait_for_version(page, state["version"] + 1)
        state = turn_state(server, secret)
    final = api_state(server, secret)
    wait_for_version(page, final["version"])
    # The end of the first hand: its account, and the score sheet's first line.
    panel = page.locator("#kj-hand-end")
    panel.wait_for(state="visible", timeout=WAIT_MS)
    assert "hand 1" in panel.inner_text().lower()
    assert "Hand 1" in page.inner_text("#kj-scores")
    page.close()


# -- two friends, a whole game ------------------------------------------------------------------


@contextmanager
def received(page: Page) -> Iterator[list[JSON]]:
    """Every JSON message ``page`` receives from the server, in the order it comes: the
    answers of its HTTP requests to the API and the frames of its WebSocket."""
    messages: list[JSON] = []

    def frame(payload: str | bytes) -> None:
        message = json.loads(payload)
        if isinstance(message, dict):
            messages.append(message)

    def socket(ws: WebSocket) -> None:
        ws.on("framereceived", frame)

    def response(answer: Response) -> None:
        if "/api/" in answer.url and answer.headers.get("content-type", "").startswith(
            "application/json"
        ):
            frame(answer.body())

    page.on("websocket", socket)
    page.on("response", response)
    try:
        yield messages
    finally:
        page.remove_listener("websocket", socket)
        page.remove_listener("response", response)


def leaks_in(messages: list[JSON]) -> list[str]:
    """The cards ``messages`` named that their seat could not know when it was sent them,
    read as the conformance suite reads every game's messages (tests/test_conformance_web.py):
    a state's view first, then the rest of it; a move's answer, its state, then its
    sentence; any other message, about the hand under way."""
    scan = Scan()
    hand = 0
    for message in messages:
        state = message.get("state", message) if message.get("accepted") else message
        if isinstance(state, dict) and state.get("type") == "state":
            scan.state(state)
            hand = state["hand_index"]
        if message.get("accepted"):
            scan.check(message["hand_index"], message.get("sentence", ""))
        elif state is message and message.get("type") != "state":
            scan.check(hand, message)
    return scan.leaks


def test_two_friends_play_a_whole_game_by_the_invite_link_and_no_seat_sees_a_hidden_card(
    browser: Browser, server: ServerProcess
) -> None:
    host_context = seat_context(browser, DESKTOP)
    guest_context = seat_context(browser, PHONE)
    host = host_context.new_page()
    guest = guest_context.new_page()
    open_home(host, server)
    host.check('#friend-form input[name=game][value="klaberjass"]')
    host.click("#friend-form button[type=submit]")
    host.wait_for_selector("#invite:not([hidden])")
    friend_link = host.input_value("#friend-link")
    own_link = host.input_value("#own-link")
    assert friend_link != own_link
    with received(host) as host_got, received(guest) as guest_got:
        host.click("#open-own-seat")
        host.wait_for_url(own_link)
        guest.goto(friend_link)
        pages = {seat_secret(host): host, seat_secret(guest): guest}
        for page in pages.values():
            page.wait_for_selector("#kj-connection[data-status=live]", timeout=WAIT_MS)
            # Each is told that the other came, in a state of the same version: the table
            # is drawn again for it, so it must come before the first click, not under it.
            page.wait_for_selector("#kj-opponent-presence .presence-tag.here", timeout=WAIT_MS)
        rng = random.Random(23)
        states = {secret: api_state(server, secret) for secret in pages}
        assert {state["game"] for state in states.values()} == {"klaberjass"}
        moves = 0
        while not any(state["over"] for state in states.values()):
            (mover,) = [secret for secret, state in states.items() if state["your_turn"]]
            (watcher,) = [secret for secret in pages if secret != mover]
            state = states[mover]
            wait_for_version(pages[mover], state["version"])
            offered = pages[mover].eval_on_selector_all(
                "#kj-actions button[data-move]", "buttons => buttons.map(b => b.dataset.move)"
            )
            assert set(offered) <= set(state["legal"])
            click_move(pages[mover], rng.choice(state["legal"]))
            wait_for_version(pages[mover], state["version"] + 1)
            after = api_state(server, mover)
            # The other player's page learns of the move over its WebSocket.
            wait_for_version(pages[watcher], after["version"])
            states = {mover: after, watcher: api_state(server, watcher)}
            moves += 1
            assert moves < 2_000, "the game did not end"
        for secret, page in pages.items():
            final = api_state(server, secret)
            wait_for_version(page, final["version"])
            page.wait_for_selector("#kj-result:not([hidden])", timeout=WAIT_MS)
            result = page.inner_text("#kj-result")
            assert final["result"] in result
            # The game is over at 500: one total reached it, and the score sheet adds up.
            sheet = final["klaberjass"]["sheet"]
            assert max(sheet["totals"]) >= sheet["target"] == 500
            assert len(sheet["hands"]) == final["hand_index"] + 1 >= 2
            for player in (0, 1):
                assert (
                    sum(points[player] for points, _how in sheet["hands"])
                    == sheet["totals"][player]
                )
            scores = page.inner_text("#kj-scores")
            assert f"Hand {len(sheet['hands'])}" in scores
            assert all(str(total) in scores for total in sheet["totals"])
        # The rematch: the host asks, the guest is offered the link to the same new game.
        game_id = states[seat_secret(host)]["game_id"]
        host.click("[data-key=kj-rematch]")
        host.wait_for_url(lambda url: "/seat/" in url and url != own_link)
        guest.click("#kj-result a:text('Play the rematch')", timeout=WAIT_MS)
        guest.wait_for_url(lambda url: "/seat/" in url and url != friend_link)
        host_again = api_state(server, seat_secret(host))
        guest_again = api_state(server, seat_secret(guest))
        assert host_again["game_id"] == guest_again["game_id"] != game_id
        assert host_again["game"] == "klaberjass"
        assert host_again["seat"] != guest_again["seat"]
    # What each page was sent, over HTTP and its socket, named no card hidden from it.
    for got in (host_got, guest_got):
        assert sum(message.get("type") == "state" for message in got) > moves
        assert any(message.get("accepted") for message in got)  # the moves' HTTP answers
        assert leaks_in(got) == []
    host_context.close()
    guest_context.close()


def test_the_secrecy_scan_of_a_page_s_messages_finds_a_card_it_may_not_see() -> None:
    # A state whose view holds two cards, then one that names a third: the scan says so.
    view = {"hand": ["Ah", "Kh"], "phase": "play"}
    first = {"type": "state", "hand_index": 0, "version": 1, "view": view, "over": False}
    told = {"type": "presence", "text": "Player 2 holds the 7s"}
    assert leaks_in([first]) == []
    assert len(leaks_in([first, told])) == 1


# -- the table's layout -------------------------------------------------------------------------

KEY_PARTS = ["#kj-turn", "#kj-table .opponent", "#kj-trump", "#kj-turned", "#kj-bottom", "#kj-trick", "#kj-hand", "#kj-actions"]  # fmt: skip
"""What a player needs in view to move: the turn's line, the opponent's side, trump, the
turned-up card (or the 7 given for it), the bottom card, the trick, the hand and the moves."""

ROOT = "#kj-table"


def layout_problems(page: Page, parts: list[str], name: str) -> list[str]:
    """What the shared check (tests/layout.py) finds wrong with the table; its screenshot
    kept as ``klaberjass-<name>`` when screenshots are asked for."""
    return shared_layout_problems(page, parts, ROOT, f"klaberjass-{name}")


def test_the_table_keeps_what_a_player_needs_in_view_at_phone_and_desktop_sizes(
    browser: Browser, server: ServerProcess
) -> None:
    # One game against the computer, its seat open at every size at once; one page plays.
    maker = browser.new_page()
    open_home(maker, server)
    maker.check('#computer-form input[name=game][value="klaberjass"]')
    maker.check('#computer-form input[name=level][value="random"]')
    maker.click("#computer-form button[type=submit]")
    maker.wait_for_url(re.compile(r"/seat/"))
    secret = seat_secret(maker)
    maker.close()
    contexts = [seat_context(browser, size) for size in SIZES]
    pages = [context.new_page() for context in contexts]
    for page in pages:
        page.goto(f"{server.url}/seat/{secret}")
        page.wait_for_selector("#kj-connection[data-status=live]", timeout=WAIT_MS)
    player = pages[0]
    rng = random.Random(5)
    seen: set[str] = set()
    state = turn_state(server, secret)
    while state["hand_index"] == 0 and not state["over"]:
        view = state["view"]
        step = "play, a card led" if view["phase"] == "play" and view["trick"] else view["phase"]
        for page, size in zip(pages, SIZES, strict=True):
            wait_for_version(page, state["version"])
            assert layout_problems(page, KEY_PARTS, step) == [], (step, size)
        seen.add(step)
        click_move(player, rng.choice(state["legal"]))
        wait_for_version(player, state["version"] + 1)
        state = turn_state(server, secret)
    assert "play" in seen
    # The hand's end: the dialog every table shows, in view at every size, its button
    # focused; then, closed, the next hand's table as before.
    check_hand_end(
        pages, wait_for_version, server, secret, "kj-", KEY_PARTS, ROOT, "klaberjass-hand-end"
    )
    if not seen & {"bid1", "bid2"}:
        # He dealt the first hand and the computer made trump at once; the deal passes,
        # so he bids first in the second.
        state = turn_state(server, secret)
        assert state["view"]["phase"] == "bid1"
        for page, size in zip(pages, SIZES, strict=True):
            wait_for_version(page, state["version"])
            assert layout_problems(page, KEY_PARTS, "bid1") == [], ("bid1", size)
        seen.add("bid1")
    assert {"bid1", "play"} <= seen
    for context in contexts:
        context.close()
