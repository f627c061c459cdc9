"""A person's name at the table, in the browser: a friend who opens his invite link is
offered a "Your name" field (filled in with the name his browser last gave), saves his
name with the keyboard, and the first player's table, open in another browser, shows
it; skipped, the field stays away, and "Change" brings it back. The table with the field
open fits a small phone. Every game's table has it (Umtali, Gin Rummy for two and for a
party, Klaberjass)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import PHONE, seat_context
from tests.layout import layout_problems
from tests.servers import HTTP, ServerProcess
from tests.test_web_browser import WAIT_MS, api_state, turn_state, wait_for_version
from tests.test_web_table_fit_browser import UMTALI, UMTALI_PARTS

JSON = dict[str, Any]


@pytest.fixture
def server(web_server: ServerProcess) -> ServerProcess:
    """The tests' shared server (tests/conftest.py): each test makes its own games."""
    return web_server


def create(server: ServerProcess, **request: Any) -> list[str]:
    """A new game's links' secrets, the maker's first."""
    reply = HTTP.post(f"{server.url}/api/games", json=request, timeout=30)
    assert reply.status_code == 201, reply.text
    return [seat["secret"] for seat in reply.json()["seats"]]


def open_seat(page: Page, server: ServerProcess, secret: str, prefix: str) -> None:
    page.goto(f"{server.url}/seat/{secret}")
    page.wait_for_selector(f"#{prefix}connection[data-status=live]", timeout=WAIT_MS)


TABLES = [
    ({"game": "umtali", "opponent": "person", "name": "Ann"}, "", "#opponent-name", "#own-name"),
    ({"game": "gin", "opponent": "person", "name": "Ann"}, "gin-", "#gin-opponent-name", "#gin-scores thead"),
    ({"game": "klaberjass", "opponent": "person", "name": "Ann"}, "kj-", "#kj-opponent-name", "#kj-scores thead"),
]  # fmt: skip
"""Each table's request, the prefix of its parts' ids, the opponent's seat label, and
where the reader's own name heads his seat or his column of the score sheet."""


@pytest.mark.parametrize(("request_body", "prefix", "opponent", "own"), TABLES, ids=["umtali", "gin", "klaberjass"])  # fmt: skip
def test_a_friend_gives_his_name_and_the_first_player_sees_it(
    browser: Browser,
    server: ServerProcess,
    request_body: JSON,
    prefix: str,
    opponent: str,
    own: str,
) -> None:
    maker, friend = create(server, **request_body)
    host_context, friend_context = seat_context(browser), seat_context(browser)
    friend_context.add_init_script("localStorage.setItem('umtali.name', 'Bob')")
    try:
        host, guest = host_context.new_page(), friend_context.new_page()
        open_seat(host, server, maker, prefix)
        expect(host.locator(opponent)).to_have_text("Player 2", timeout=WAIT_MS)
        # The maker gave his name with the game: nothing is offered him.
        expect(host.locator(f"#{prefix}name-offer")).to_be_hidden()
        expect(host.locator(f"#{prefix}name-line")).to_contain_text("Your name: Ann")
        # His own seat, or his column of the score sheet, is headed by his name.
        expect(host.locator(own)).to_contain_text("Ann (you)")
        open_seat(guest, server, friend, prefix)
        field = guest.get_by_role("textbox", name="Your name", exact=True)
        expect(field).to_be_visible()
        expect(field).to_have_value("Bob")  # the name this browser gave last
        field.fill("  Robert <3 ")
        field.press("Enter")
        expect(guest.locator(f"#{prefix}name-error")).to_contain_text("'<', '>' or '&'")
        field.fill("Robert")
        field.press("Enter")
        expect(guest.locator(f"#{prefix}name-offer")).to_be_hidden(timeout=WAIT_MS)
        expect(guest.locator(f"#{prefix}name-line")).to_contain_text("Your name: Robert")
        assert guest.evaluate("localStorage.getItem('umtali.name')") == "Robert"
        expect(guest.locator(own)).to_contain_text("Robert (you)")
        # The first player's table hears of it over its socket.
        expect(host.locator(opponent)).to_have_text("Robert", timeout=WAIT_MS)
        assert api_state(server, maker)["names"][1] == "Robert"
    finally:
        host_context.close()
        friend_context.close()


def test_a_party_friend_names_himself(browser: Browser, server: ServerProcess) -> None:
    maker, friend = create(server, game="gin", players=3, invite=[2], name="Ann")
    context = seat_context(browser)
    try:
        page = context.new_page()
        open_seat(page, server, friend, "gin-")
        field = page.get_by_role("textbox", name="Your name", exact=True)
        field.fill("Cy")
        page.click("#gin-name-save")
        expect(page.locator("#gin-name-line")).to_contain_text("Your name: Cy", timeout=WAIT_MS)
        expect(page.locator("#gin-scores .party-standings")).to_contain_text("Cy (you)")
        assert api_state(server, maker)["party"]["players"][2] == "Cy"
    finally:
        context.close()


def test_the_field_is_skipped_by_keyboard_and_comes_back_with_change(
    browser: Browser, server: ServerProcess
) -> None:
    (secret,) = create(server, level="random")
    context = seat_context(browser, PHONE)
    try:
        page = context.new_page()
        open_seat(page, server, secret, "")
        field = page.get_by_role("textbox", name="Your name", exact=True)
        expect(field).to_be_visible()
        field.focus()
        page.keyboard.press("Tab")  # to Save
        page.keyboard.press("Tab")  # to Not now
        expect(page.locator("#name-skip")).to_be_focused()
        page.keyboard.press("Enter")
        expect(page.locator("#name-offer")).to_be_hidden()
        page.reload()
        page.wait_for_selector("#connection[data-status=live]", timeout=WAIT_MS)
        expect(page.locator("#name-offer")).to_be_hidden()  # skipped for this tab
        page.locator("[data-key=name-change]").click()
        expect(field).to_be_focused()
        field.fill("Dee")
        field.press("Enter")
        expect(page.locator("#name-line")).to_contain_text("Your name: Dee", timeout=WAIT_MS)
    finally:
        context.close()


def test_the_table_with_the_field_fits(browser: Browser, server: ServerProcess) -> None:
    (secret,) = create(server, level="random")
    for size in ({"width": 360, "height": 640}, {"width": 390, "height": 844}, {"width": 1280, "height": 800}):  # fmt: skip
        context = seat_context(browser, size)  # type: ignore[arg-type]
        try:
            page = context.new_page()
            open_seat(page, server, secret, "")
            wait_for_version(page, turn_state(server, secret)["version"])
            if size["width"] > 360:  # on the smallest, the moves may need its room
                expect(page.locator("#name-offer")).to_be_visible()
            shot = "names"
            problems = layout_problems(page, [*UMTALI_PARTS, "#name-offer"], UMTALI, shot)
            assert problems == [], (size, problems)
        finally:
            context.close()
