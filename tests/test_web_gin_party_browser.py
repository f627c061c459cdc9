"""Three- and four-hand Gin Rummy in a real browser: a real ``umtali serve`` process,
Debian's chromium driven by Playwright. The game is made on the home page (Gin Rummy,
three or four players, the computer at the other seats), the person's first hand is
played by clicks to its end, and the party's panel tells the draw or the teams, who
plays whom, and the hand's result; the table is checked for overlap and legibility at
phone and desktop widths, with screenshots.

The moves are chosen from the seat's legal moves (read from the API, as a player reads
the table) by the API tests' policy, and made through the page only.
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.servers import ServerProcess, send_move
from tests.test_web_browser import WAIT_MS, api_state, open_home, seat_secret, turn_state
from tests.test_web_gin import gin_move
from tests.test_web_gin_browser import LAYOUT_CHECKS, click_move, wait_for_version


@pytest.fixture
def server(web_server: ServerProcess) -> ServerProcess:
    """The session's server: these tests make games of their own on it."""
    return web_server


def open_party_table(page: Page, server: ServerProcess, players: int) -> str:
    """A new party game against the greedy computer, made on the home page."""
    open_home(page, server)
    # How many play is asked for Gin Rummy only; the friends' seats only for a party.
    assert page.is_hidden("#computer-form .players-choice")
    page.check('#computer-form input[name=game][value="gin"]')
    assert page.is_hidden("#party-invites")
    page.check(f'#computer-form input[name=players][value="{players}"]')
    assert page.is_visible("#party-invites")
    assert page.is_visible('#party-invites input[value="3"]') == (players == 4)
    page.check('#computer-form input[name=level][value="greedy"]')
    page.click("#computer-form button[type=submit]")
    page.wait_for_url(re.compile(r"/seat/"))
    page.wait_for_selector("#gin-connection[data-status=live]", timeout=WAIT_MS)
    page.wait_for_selector("#gin-party-panel:not([hidden])", timeout=WAIT_MS)
    return seat_secret(page)


def party_to_play(page: Page, server: ServerProcess, players: int) -> tuple[str, Any]:
    """A party game in which the person is to move, and its state. At three-hand the
    player on deck may sit out a whole game: while the lone player wins every hand he
    stays alone, and the game can end before the one on deck has played (his team's
    wins count for him, his losses never come). Such a game is checked to show its
    result, and another is made."""
    for _ in range(5):
        secret = open_party_table(page, server, players)
        state = turn_state(server, secret)
        if not state["over"]:
            return secret, state
        assert players == 3, "a four-hand game ended before every seat had played"
        wait_for_version(page, state["version"])
        assert state["party"]["result"] in page.inner_text("#gin-scores")
    raise AssertionError("five three-hand games in a row ended before the person played")


@pytest.mark.parametrize(("width", "players"), [(1280, 3), (360, 4)])
def test_a_party_hand_by_clicks_at_desktop_and_phone_widths(
    browser: Browser, server: ServerProcess, tmp_path: Path, width: int, players: int
) -> None:
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    secret, state = party_to_play(page, server, players)
    party = state["party"]
    panel = page.inner_text("#gin-party")
    assert (party["draw"] if players == 3 else party["teams_sentence"]) in panel
    assert party["seating"] in panel
    # The standings name every player (three-hand) or both teams (four-hand).
    standings = page.inner_text("#gin-scores")
    assert all(name in standings for name in party["players"])
    assert page.inner_text("#gin-title").startswith(
        f"{'Three' if players == 3 else 'Four'}-hand Gin Rummy"
    )
    first_hand = state["hand_index"]
    rng = random.Random(width)
    checked = False
    while state["hand_index"] == first_hand and not state["view"]["outcome"] and not state["over"]:
        wait_for_version(page, state["version"])
        shown = page.eval_on_selector_all(
            "#gin-actions button[data-move]", "buttons => buttons.map(b => b.dataset.move)"
        )
        assert set(shown) <= set(state["legal"])  # the page offers what the rules allow
        if not checked and any(move.startswith("discard") for move in state["legal"]):
            card = state["legal"][-1].split()[1]
            page.click(f'#gin-hand button[data-card="{card}"]')
            assert page.evaluate(LAYOUT_CHECKS) == []
            page.screenshot(
                path=str(tmp_path / f"party-{players}-table-{width}.png"), full_page=True
            )
            page.keyboard.press("Escape")  # the keys work as at the table of two
            checked = True
        click_move(page, gin_move(state, rng))
        wait_for_version(page, state["version"] + 1)
        state = turn_state(server, secret)
    wait_for_version(page, api_state(server, secret)["version"])
    final = api_state(server, secret)
    counted = final["party"]["hands"]
    assert counted
    listed = page.inner_text("#gin-party .party-hands")
    assert all(hand["result"] in listed for hand in counted)
    if final["over"]:
        # The person's hand ended the game (about one three-hand game in a hundred, when
        # the others had played hands before it): the result shows, with the last hand
        # under it, and no hand's end over the table.
        page.locator("#gin-result").wait_for(state="visible", timeout=WAIT_MS)
        result = page.inner_text("#gin-result")
        assert final["result"] in result
        assert final["previous"]["heading"] in result
        assert page.is_hidden("#gin-hand-end")
        assert page.evaluate(LAYOUT_CHECKS) == []
        page.screenshot(path=str(tmp_path / f"party-{players}-over-{width}.png"), full_page=True)
        context.close()
        return
    # The hand is over: its end over the table, its result in the party's list.
    page.locator("#gin-hand-end").wait_for(state="visible", timeout=WAIT_MS)
    assert final["party"]["totals_sentence"] in page.inner_text("#gin-hand-end")
    assert page.evaluate(LAYOUT_CHECKS) == []
    page.screenshot(path=str(tmp_path / f"party-{players}-hand-end-{width}.png"), full_page=True)
    page.click("#gin-hand-end button[data-key=gin-hand-end-close]")
    assert page.is_hidden("#gin-hand-end")
    context.close()


def test_a_party_game_s_end_shows_its_result_and_final_scores(
    browser: Browser, server: ServerProcess
) -> None:
    """Three-hand played to the end (the person's moves sent to the API, fast): the
    page shows the game's result and the final scores under the standings."""
    page = browser.new_page()
    secret = open_party_table(page, server, 3)
    rng = random.Random(3)
    state = turn_state(server, secret)
    while not state["over"]:
        send_move(server, secret, gin_move(state, rng))
        state = turn_state(server, secret)
    wait_for_version(page, state["version"])
    party = state["party"]
    standings = page.inner_text("#gin-scores")
    assert party["result"] in standings
    assert all(str(score) in standings for score in party["final"])
    page.close()


def test_friends_are_invited_to_seats_of_a_party_game(
    browser: Browser, server: ServerProcess
) -> None:
    """Three-hand with a friend at seat 3: the home page shows his link (and keeps the
    person's own), and the link opens his seat at the same game."""
    page = browser.new_page()
    open_home(page, server)
    page.check('#computer-form input[name=game][value="gin"]')
    page.check('#computer-form input[name=players][value="3"]')
    assert page.is_hidden('#party-invites input[value="3"]')  # no seat 4 at three-hand
    page.check('#party-invites input[value="2"]')
    page.check('#computer-form input[name=level][value="greedy"]')
    page.click("#computer-form button[type=submit]")
    page.wait_for_selector("#party-links:not([hidden])", timeout=WAIT_MS)
    links = page.eval_on_selector_all(
        "#party-link-list input", "inputs => inputs.map(i => i.value)"
    )
    assert len(links) == 1
    assert "seat 3" in page.inner_text("#party-link-list")
    friend = browser.new_page()
    friend.goto(links[0])
    friend.wait_for_selector("#gin-party-panel:not([hidden])", timeout=WAIT_MS)
    friend_state = api_state(server, seat_secret(friend))
    assert friend_state["party"]["you"] == 2
    assert friend_state["party"]["players"] == ["Player 1", "Computer 2 (Casual)", "You"]
    page.click("#open-party-seat")
    page.wait_for_url(re.compile(r"/seat/"))
    own = api_state(server, seat_secret(page))
    assert own["game_id"] == friend_state["game_id"]
    assert own["party"]["you"] == 0
    friend.close()
    page.close()
