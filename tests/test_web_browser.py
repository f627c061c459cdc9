"""The browser game as a person plays it: a real ``umtali serve`` process, Debian's
chromium driven by Playwright, and every move made by clicks and keys on the page.

The moves are chosen from the seat's legal moves (read from the API, as a player reads
the table) and made through the page only: select the move's cards in the hand, then
press the button that offers the move. What the page then shows is checked against
what the API says.
"""

from __future__ import annotations

import itertools
import re
import time
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import DESKTOP, PHONE, SETTLED, seat_context
from tests.servers import HTTP, ServerProcess, running_server

WAIT_MS = 60_000
"""How long a page may take to show what the test waits for (a move, the computer's
reply, the connection): only a hang takes this long, even on a loaded machine."""

# The order of preference of the test's player: lay cards first, then go out or
# discard; draw rather than take, and keep the 11th card. It plays like a sensible
# beginner, so a hand ends in a few turns.
PREFERENCE = ("keep", "meld", "play", "pair", "discard", "draw", "take", "forfeit", "give")


@pytest.fixture
def server(web_server: ServerProcess) -> ServerProcess:
    """The tests' shared server (tests/conftest.py): each test makes its own games."""
    return web_server


def seat_secret(page: Page) -> str:
    """The secret in the page's own address, /seat/{secret}."""
    match = re.search(r"/seat/([^/?#]+)$", page.url)
    assert match, f"not a seat's page: {page.url}"
    return match.group(1)


def api_state(server: ServerProcess, secret: str) -> dict[str, Any]:
    """The seat's state, as the API gives it."""
    reply = HTTP.get(f"{server.url}/api/seat/{secret}", timeout=10)
    reply.raise_for_status()
    state: dict[str, Any] = reply.json()
    return state


def turn_state(server: ServerProcess, secret: str) -> dict[str, Any]:
    """The seat's state once it is to move or the game is over (the computer may still
    be thinking when a game is made, or after a deal)."""
    deadline = time.monotonic() + WAIT_MS / 1000
    while True:
        state = api_state(server, secret)
        if state["your_turn"] or state["over"] or time.monotonic() > deadline:
            return state
        time.sleep(0.05)


def shown_version(page: Page) -> int:
    """The version of the state the page shows."""
    return int(page.get_attribute("#table", "data-version") or "-1")


def wait_for_version(page: Page, version: int) -> None:
    """Wait until the page shows ``version`` (or later), with no move on its way and no
    copy of it still to come over its socket (tests/browser.py, ``SETTLED``)."""
    page.wait_for_function(SETTLED, arg=version, timeout=WAIT_MS)


def preferred(legal: list[str]) -> str:
    """The move the test's player makes of the legal ones."""
    return min(legal, key=lambda text: (PREFERENCE.index(text.split()[0]), text))


def cards_of(move: str) -> list[str]:
    """The cards of the hand a move uses, from its notation (as the page reads it)."""
    words = move.split()
    verb, rest = words[0], words[1:]
    if verb in ("meld",):
        return rest
    if verb == "play":
        return rest[:1]
    if verb == "discard":
        return rest[:1]
    if verb == "pair":
        return [rest[0], rest[1], *([rest[3]] if len(rest) > 3 else [])]
    return []


def click_move(page: Page, move: str) -> None:
    """Make ``move`` by clicks: select its cards in the hand, then press its button."""
    for card in cards_of(move):
        page.click(f'#hand button[data-card="{card}"]')
        assert page.get_attribute(f'#hand button[data-card="{card}"]', "aria-pressed") == "true"
    page.click(f'#actions button[data-move="{move}"]')


def play_turn_by_clicks(
    page: Page, server: ServerProcess, secret: str, state: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Make this seat's preferred legal move on the page; the state after it.
    ``state``: the seat's state on its turn, when the caller has just read it."""
    if state is None:
        state = turn_state(server, secret)
    wait_for_version(page, state["version"])
    move = preferred(state["view"]["legal"])
    click_move(page, move)
    wait_for_version(page, state["version"] + 1)
    after = api_state(server, secret)
    wait_for_version(page, after["version"])
    return after


def open_home(page: Page, server: ServerProcess, *, more: bool = True) -> None:
    """The home page, once it has read the games offered and wired its forms, which it
    does as it draws the level choices: a choice made before that escapes the page, and
    a form sent before it goes to the server as a plain page request. With ``more``,
    each form's other choices (game, rules, level, length), folded away at first, are
    opened as a player opens them, by a click."""
    page.goto(server.url + "/")
    page.wait_for_selector("#levels input", state="attached", timeout=WAIT_MS)
    if more:
        for summary in page.locator("#home details.more > summary").all():
            summary.click()


def open_table(page: Page, server: ServerProcess, kind: str, level: str = "greedy") -> str:
    """A new game against the computer, made on the home page; its secret."""
    open_home(page, server)
    page.check(f'#computer-form input[name=level][value="{level}"]')
    page.check(f'#computer-form input[name=kind][value="{kind}"]')
    page.click("#computer-form button[type=submit]")
    page.wait_for_url(re.compile(r"/seat/"))
    page.wait_for_selector("#connection[data-status=live]", timeout=WAIT_MS)
    return seat_secret(page)


def hand_order(page: Page) -> list[str]:
    """The cards of the hand in the order shown."""
    order: list[str] = page.eval_on_selector_all(
        "#hand button[data-card]", "buttons => buttons.map(b => b.dataset.card)"
    )
    return order


def hand_order_once(page: Page, expected: list[str], seconds: float = WAIT_MS / 1000) -> list[str]:
    """The hand's order once it is ``expected``, or after ``seconds`` as it is then: a
    browser on a loaded machine may answer the test before it has handled the drop."""
    deadline = time.monotonic() + seconds
    order = hand_order(page)
    while order != expected and time.monotonic() < deadline:
        page.wait_for_timeout(50)
        order = hand_order(page)
    return order


def shown_scores(page: Page) -> list[list[str]]:
    """The score sheet's rows as shown: [label, first, second]."""
    rows = page.locator("#scores table tr").all()
    return [[cell.inner_text().strip() for cell in row.locator("th, td").all()] for row in rows]


def expected_scores(state: dict[str, Any]) -> list[list[str]]:
    """The same rows built from the API's score sheet; the player's own column is
    headed by his name, "Ann (you)", once he has given one."""
    own = f"{state['your_name']} (you)" if state.get("name_given") else "You"
    names = [own if name == "You" else name for name in state["names"]]
    rows: list[list[str]] = []
    for _number, hands, totals in state["scores"]["games"]:
        rows.append(["", *names])
        rows.extend([f"Hand {i + 1}", str(a), str(b)] for i, (a, b) in enumerate(hands))
        rows.append(["Total", str(totals[0]), str(totals[1])])
    return rows


def test_a_whole_hand_against_the_computer_by_clicks(
    browser: Browser, server: ServerProcess
) -> None:
    context = seat_context(browser, DESKTOP)
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda error: problems.append(str(error)))
    secret = open_table(page, server, "hand")
    state = turn_state(server, secret)
    # The hand under way on the score sheet, as a card player says it.
    has = [
        f"{'you have' if name == 'You' else f'{name} has'} {points} point{'' if points == 1 else 's'}"
        for name, points in zip(state["names"], state["scores"]["this_hand"], strict=True)
    ]
    expect(page.locator("#scores .this-hand")).to_have_text(
        f"So far this hand, {has[0]} and {has[1]} on the table."
    )
    moves = 0
    while not state["over"]:
        play_turn_by_clicks(page, server, secret, state)
        state = turn_state(server, secret)
        moves += 1
        assert moves < 400, "the hand did not end"
    page.wait_for_selector("#result:not([hidden])")
    assert state["result"] in page.inner_text("#result")
    assert shown_scores(page) == expected_scores(state)
    hand_scores = state["scores"]["games"][0][1][0]
    # The last hand, under the result (said once: a match of one hand): each side's
    # points and cards.
    last = page.inner_text("#result .result-hand")
    assert state["previous"]["heading"] not in last
    assert f"{hand_scores[0]} point" in last
    assert page.locator("#result .result-hand .hand-end-side").count() == 2
    assert page.is_hidden("#hand-end")  # no "See the result" over a result in view
    # The record of the finished game is offered whole.
    link = page.get_attribute("#records a", "href")
    assert link == f"/api/games/{state['game_id']}/record"
    assert HTTP.get(server.url + link, timeout=10).status_code == 200
    assert problems == []
    context.close()


def test_two_people_play_a_hand_by_the_invite_link(browser: Browser, server: ServerProcess) -> None:
    host_context = seat_context(browser, DESKTOP)
    guest_context = seat_context(browser, PHONE)
    host = host_context.new_page()
    guest = guest_context.new_page()
    open_home(host, server)
    host.check('#friend-form input[name=kind][value="hand"]')
    host.click("#friend-form button[type=submit]")
    host.wait_for_selector("#invite:not([hidden])")
    friend_link = host.input_value("#friend-link")
    own_link = host.input_value("#own-link")
    assert friend_link != own_link
    assert friend_link.startswith(server.url + "/seat/")
    host.click("#open-own-seat")
    host.wait_for_url(own_link)
    guest.goto(friend_link)
    pages = {seat_secret(host): host, seat_secret(guest): guest}
    for page in pages.values():
        page.wait_for_selector("#connection[data-status=live]", timeout=WAIT_MS)
        # Each is told that the other came, in a state of the same version: the table is
        # drawn again for it, so it must come before the first click, not under it.
        page.wait_for_selector("#opponent-presence .presence-tag.here", timeout=WAIT_MS)
    states = {secret: api_state(server, secret) for secret in pages}
    turns = 0
    while not any(state["over"] for state in states.values()):
        (mover,) = [secret for secret, state in states.items() if state["your_turn"]]
        (watcher,) = [secret for secret in pages if secret != mover]
        after = play_turn_by_clicks(pages[mover], server, mover, states[mover])
        # The other player's page learns of the move over its WebSocket.
        wait_for_version(pages[watcher], after["version"])
        states = {mover: after, watcher: api_state(server, watcher)}
        turns += 1
        assert turns < 600, "the hand did not end"
    for secret, page in pages.items():
        page.wait_for_selector("#result:not([hidden])", timeout=WAIT_MS)
        state = states[secret]
        assert state["result"] in page.inner_text("#result")
        assert shown_scores(page) == expected_scores(state)
    # A rematch: the host asks, the guest is offered the link to the same new game.
    game_id = states[seat_secret(host)]["game_id"]
    host.click("[data-key=rematch]")
    host.wait_for_url(lambda url: "/seat/" in url and url != own_link)
    guest.click("#result a:text('Play the rematch')", timeout=WAIT_MS)
    guest.wait_for_url(lambda url: "/seat/" in url and url != friend_link)
    host_again = api_state(server, seat_secret(host))
    guest_again = api_state(server, seat_secret(guest))
    assert host_again["game_id"] == guest_again["game_id"] != game_id
    assert host_again["seat"] != guest_again["seat"]
    host_context.close()
    guest_context.close()


def game_under_way(page: Page, server: ServerProcess) -> tuple[str, dict[str, Any]]:
    """A game against the computer in which the seat has made four moves by clicks and
    holds three cards or more, its secret and state. Four moves may lay down all but two
    of a lucky hand's cards (melds, then solos onto them); another game is made then."""
    for _ in range(5):
        secret = open_table(page, server, "game")
        for _ in range(4):
            play_turn_by_clicks(page, server, secret)
        state = turn_state(server, secret)
        if not state["over"] and len(state["view"]["hand"]) >= 3:
            return secret, state
    raise AssertionError("five games in a row left the seat under three cards in four moves")


def test_a_reload_in_the_middle_of_a_hand_resumes_it(
    browser: Browser, server: ServerProcess
) -> None:
    context = seat_context(browser, DESKTOP)
    page = context.new_page()
    secret, state = game_under_way(page, server)
    wait_for_version(page, state["version"])
    # The player drags his first card to the third place; the order outlives a reload.
    before = hand_order(page)
    assert len(before) >= 3
    # The mouse works in the window: a table grown tall may have the hand below it.
    page.locator("#hand").scroll_into_view_if_needed()
    start = page.locator(f'#hand button[data-card="{before[0]}"]').bounding_box()
    end = page.locator(f'#hand button[data-card="{before[2]}"]').bounding_box()
    assert start is not None
    assert end is not None
    page.mouse.move(start["x"] + start["width"] / 2, start["y"] + start["height"] / 2)
    page.mouse.down()
    page.mouse.move(end["x"] + end["width"] * 0.8, end["y"] + end["height"] / 2, steps=8)
    page.mouse.up()
    dragged = hand_order_once(page, [before[1], before[2], before[0], *before[3:]])
    assert dragged == [before[1], before[2], before[0], *before[3:]]
    assert page.locator("#hand button[aria-pressed=true]").count() == 0, "a drag selects nothing"
    page.reload()
    page.wait_for_selector("#connection[data-status=live]", timeout=WAIT_MS)
    wait_for_version(page, state["version"])
    assert hand_order(page) == dragged
    assert sorted(dragged) == sorted(state["view"]["hand"])
    assert page.inner_text("#table-title") == state["title"]
    # The home page offers it again, under My games.
    page.goto(server.url + "/")
    assert page.get_attribute("#recent a", "href") == f"/seat/{secret}"
    context.close()


def test_the_keyboard_alone_can_play(browser: Browser, server: ServerProcess) -> None:
    context = seat_context(browser, DESKTOP)
    page = context.new_page()
    secret = open_table(page, server, "game")
    for _ in range(6):
        state = turn_state(server, secret)
        wait_for_version(page, state["version"])
        move = preferred(state["view"]["legal"])
        cards = cards_of(move)
        if cards:
            # Arrow keys to each card, Space to select it, then the move's number.
            page.locator("#hand button[tabindex='0']").focus()
            order = page.eval_on_selector_all(
                "#hand button[data-card]", "bs => bs.map(b => b.dataset.card)"
            )
            at = 0
            for card in cards:
                target = order.index(card)
                key = "ArrowRight" if target > at else "ArrowLeft"
                for _ in range(abs(target - at)):
                    page.keyboard.press(key)
                at = target
                page.keyboard.press("Space")
        number = page.get_attribute(f'#actions button[data-move="{move}"]', "aria-keyshortcuts")
        assert number is not None
        assert number.isdigit()
        page.keyboard.press(number)
        wait_for_version(page, state["version"] + 1)
    # A card moves in the hand with Shift and an arrow.
    wait_for_version(page, turn_state(server, secret)["version"])
    page.locator("#hand button[tabindex='0']").focus()
    before = page.eval_on_selector_all(
        "#hand button[data-card]", "bs => bs.map(b => b.dataset.card)"
    )
    page.keyboard.press("Shift+ArrowRight")
    after_order = page.eval_on_selector_all(
        "#hand button[data-card]", "bs => bs.map(b => b.dataset.card)"
    )
    assert after_order == [before[1], before[0], *before[2:]]
    assert page.evaluate("document.activeElement.dataset.card") == before[0]
    context.close()


def test_a_selection_that_is_no_move_is_explained(browser: Browser, server: ServerProcess) -> None:
    context = seat_context(browser, DESKTOP)
    page = context.new_page()
    secret = open_table(page, server, "game")
    state = turn_state(server, secret)
    if state["view"]["phase"] == "choose":
        state = play_turn_by_clicks(page, server, secret)
    # Cards that no legal move uses exactly (one card, else two).
    used = [sorted(cards_of(move)) for move in state["view"]["legal"]]
    hand = state["view"]["hand"]
    choices = [[card] for card in hand] + [sorted(pair) for pair in itertools.pairwise(hand)]
    chosen = next(cards for cards in choices if sorted(cards) not in used)
    for card in chosen:
        page.click(f'#hand button[data-card="{card}"]')
    assert (
        page.locator("#actions button[data-move]").evaluate_all(
            "buttons => buttons.filter(b => b.dataset.move.split(' ').length > 1 && !b.dataset.move.startsWith('take'))"
        )
        == []
    ), "no move is offered for cards that make none"
    page.click("#actions button.why")
    message = page.locator("#message")
    message.wait_for(state="visible")
    assert page.get_attribute("#message", "data-kind") == "error"
    assert len(message.inner_text()) > 10
    assert api_state(server, secret)["version"] == state["version"], "asking why changed nothing"
    context.close()


def test_the_cards_are_named_and_the_four_colour_deck_is_remembered(
    browser: Browser, server: ServerProcess
) -> None:
    context = seat_context(browser, DESKTOP)
    page = context.new_page()
    secret = open_table(page, server, "hand")
    if turn_state(server, secret)["view"]["phase"] == "choose":
        play_turn_by_clicks(page, server, secret)  # the dealer keeps the 11th card
    page.wait_for_selector("#hand svg.card")
    labels = page.eval_on_selector_all(
        "#hand svg.card", "cards => cards.map(c => c.getAttribute('aria-label'))"
    )
    assert labels
    assert all(
        re.fullmatch(
            r"(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of (clubs|diamonds|hearts|spades)",
            label,
        )
        for label in labels
    )
    fills = "cards => cards.map(c => getComputedStyle(c.querySelector('.card-rank')).fill)"
    two_colours = set(page.eval_on_selector_all("#hand svg.card", fills))
    page.check("#four-colour")
    page.reload()
    page.wait_for_selector("#hand svg.card")
    assert page.is_checked("#four-colour")
    four_colours = set(page.eval_on_selector_all("#hand svg.card", fills))
    suits = {label.split(" of ")[1] for label in labels}
    assert len(two_colours) <= 2
    assert len(four_colours) == len(suits)
    context.close()


# -- how it looks -------------------------------------------------------------------------------

LAYOUT_CHECKS = """() => {
  const box = (el) => el.getBoundingClientRect();
  const visible = (el) => { const b = box(el); return b.width > 0 && b.height > 0; };
  const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const problems = [];
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width) problems.push(`page ${document.documentElement.scrollWidth}px wide in ${width}px`);
  for (const el of document.querySelectorAll("body *")) {
    if (!visible(el) || el.closest("svg")) continue;
    // At a phone's table the site's bar is one line that scrolls sideways: its end may lie past the edge.
    if (box(el).right > width + 0.5 && !el.closest(".site-header")) problems.push(`${el.tagName}#${el.id}.${el.className} ends at ${box(el).right}`);
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (own && size < 12) problems.push(`${el.tagName}.${el.className} "${el.textContent.trim().slice(0, 20)}" at ${size}px`);
  }
  const regions = ["#opponent-melds", ".middle", "#own-melds", "#hand", "#actions", ".sidebar", ".turn", ".status-bar"]
    .map((s) => document.querySelector(s)).filter((el) => el && visible(el));
  for (let i = 0; i < regions.length; i++) for (let j = i + 1; j < regions.length; j++) {
    if (overlap(box(regions[i]), box(regions[j]))) problems.push(`regions overlap: ${regions[i].id || regions[i].className} / ${regions[j].id || regions[j].className}`);
  }
  // On a phone the hand's cards overlap, each leaving the index (rank and suit) of the one under it in view.
  const cards = [...document.querySelectorAll("#hand .hand-card")].filter(visible).map(box);
  for (let i = 1; i < cards.length; i++) {
    const [a, b] = [cards[i - 1], cards[i]];
    if (Math.abs(a.top - b.top) < a.height / 2 && b.left - a.left < a.width * 0.5) problems.push(`#hand cards ${i - 1} and ${i} hide an index`);
  }
  const groups = ["#own-melds .table-item", "#opponent-melds .table-item", "#actions > *"];
  for (const selector of groups) {
    const items = [...document.querySelectorAll(selector)].filter(visible);
    for (let i = 0; i < items.length; i++) for (let j = i + 1; j < items.length; j++) {
      if (overlap(box(items[i]), box(items[j]))) problems.push(`${selector} ${i} and ${j} overlap`);
    }
  }
  return problems;
}"""


@pytest.mark.parametrize("width", [360, 1280])
def test_the_table_fits_and_reads_at_phone_and_desktop_widths(
    browser: Browser, server: ServerProcess, tmp_path: Path, width: int
) -> None:
    context = seat_context(browser, {"width": width, "height": 800})
    page = context.new_page()
    open_home(page, server)  # every choice unfolded, the widest the home page grows
    assert page.evaluate(LAYOUT_CHECKS) == []
    page.screenshot(path=str(tmp_path / f"home-{width}.png"), full_page=True)
    secret = open_table(page, server, "game")
    # A few turns, so that both sides have cards on the table.
    for _ in range(8):
        state = play_turn_by_clicks(page, server, secret)
        tables = state["view"]["tables"]
        if tables[0] and tables[1] and state["view"]["phase"] == "play":
            break
    # A selected card shows where it can go.
    wait_for_version(page, turn_state(server, secret)["version"])
    first = page.get_attribute("#hand button[data-card]", "data-card")
    page.click(f'#hand button[data-card="{first}"]')
    assert page.evaluate(LAYOUT_CHECKS) == []
    page.screenshot(path=str(tmp_path / f"table-{width}.png"), full_page=True)
    context.close()


def invite(host: Page, server: ServerProcess, kind: str = "hand") -> str:
    """Make an invitation on the home page and open the host's seat; the friend's link."""
    open_home(host, server)
    host.check(f'#friend-form input[name=kind][value="{kind}"]')
    host.click("#friend-form button[type=submit]")
    host.wait_for_selector("#invite:not([hidden])")
    friend_link = host.input_value("#friend-link")
    host.click("#open-own-seat")
    host.wait_for_url(re.compile(r"/seat/"))
    host.wait_for_selector("#connection[data-status=live]", timeout=WAIT_MS)
    return friend_link


def test_an_away_friend_s_seat_is_handed_to_the_computer_and_reclaimed(
    browser: Browser, tmp_path: Path
) -> None:
    with running_server(f"sqlite:///{tmp_path}/u.db", tmp_path, args=["--grace", "1"]) as quick:
        host_context = seat_context(browser, DESKTOP)
        host = host_context.new_page()
        friend_link = invite(host, quick)
        host_secret = seat_secret(host)
        guest_context = seat_context(browser, PHONE)
        guest = guest_context.new_page()
        guest.goto(friend_link)
        guest.wait_for_selector("#connection[data-status=live]", timeout=WAIT_MS)
        host.wait_for_selector("#opponent-presence .presence-tag.here", timeout=WAIT_MS)
        guest_context.close()  # the friend goes away
        host.wait_for_selector("#opponent-presence .presence-tag.away", timeout=WAIT_MS)
        host.click("[data-key=hand-over]", timeout=WAIT_MS)
        host.wait_for_selector(
            "#opponent-presence .presence-tag:text('the computer plays for them')",
            timeout=WAIT_MS,
        )
        # The computer now answers for the friend: the host is to move again.
        state = turn_state(quick, host_secret)
        assert state["your_turn"] or state["over"]
        assert state["opponent"]["handed_over"]
        # The friend comes back and takes the seat again.
        back_context = seat_context(browser, PHONE)
        back = back_context.new_page()
        back.goto(friend_link)
        back.wait_for_selector("#away-banner:not([hidden])", timeout=WAIT_MS)
        back.click("[data-key=reclaim]")
        back.wait_for_selector("#away-banner", state="hidden", timeout=WAIT_MS)
        assert not api_state(quick, seat_secret(back))["handed_over"]
        host.wait_for_selector("#opponent-presence .presence-tag.here", timeout=WAIT_MS)
        host_context.close()
        back_context.close()


def test_the_page_reconnects_after_the_server_comes_back(browser: Browser, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/u.db"
    context = seat_context(browser, DESKTOP)
    page = context.new_page()
    with running_server(db, tmp_path) as first:
        port = first.port
        secret = open_table(page, first, "game")
        play_turn_by_clicks(page, first, secret)
        first.kill()  # gone without a goodbye, as a crashed server or a lost network
        # One wait for both: the page tries again after half a second, and "waiting"
        # may have turned to "connecting" by the time a second look is taken.
        page.wait_for_selector(
            "#connection[data-status=waiting]:has-text('retrying')", timeout=WAIT_MS
        )
    with running_server(db, tmp_path, port=port) as second:
        page.wait_for_selector("#connection[data-status=live]", timeout=WAIT_MS)
        # The resync: a move made elsewhere (here through the API) shows on the page.
        state = turn_state(second, secret)
        move = preferred(state["view"]["legal"])
        reply = HTTP.post(f"{second.url}/api/seat/{secret}/move", json={"move": move}, timeout=10)
        assert reply.status_code == 200
        wait_for_version(page, reply.json()["state"]["version"])
        play_turn_by_clicks(page, second, secret)
    context.close()


def test_a_link_that_names_no_seat_says_so(browser: Browser, server: ServerProcess) -> None:
    context = seat_context(browser, PHONE)
    page = context.new_page()
    page.goto(server.url + "/seat/" + "x" * 43)
    page.wait_for_selector("#no-seat:not([hidden])", timeout=WAIT_MS)
    assert "no seat has this link" in page.inner_text("#no-seat")
    assert page.is_hidden("#table")
    context.close()


def test_the_form_and_the_table_give_a_level_one_name(
    browser: Browser, server: ServerProcess
) -> None:
    """Issue 25: the level the form calls "Casual" is "Computer (Casual)" at the table."""
    context = seat_context(browser)
    page = context.new_page()
    open_home(page, server)
    label = page.inner_text('#computer-form label:has(input[name=level][value="greedy"])')
    assert label.strip().startswith("Casual")
    open_table(page, server, "hand", level="greedy")
    page.wait_for_function(
        "() => document.body.innerText.includes('Computer (Casual)')", timeout=WAIT_MS
    )
    assert "greedy" not in page.inner_text("body")
    context.close()
