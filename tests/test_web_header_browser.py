"""The bar at the top of the page: on a phone one line, its settings (four-colour deck,
sounds, card moves, keys) folded behind a gear button that opens them in a small panel;
on a wide window the settings show in the bar as they are."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.browser import seat_context
from tests.servers import ServerProcess
from tests.test_web_browser import open_home, open_table

pytestmark = pytest.mark.browser

SETTINGS = ("#four-colour", "#sound", "#motion", "#show-shortcuts")

ONE_LINE = """() => {
  // The bar's parts in view sit on one line: each one's middle within the others' heights.
  const parts = [...document.querySelectorAll('.site-header > *')]
    .map((el) => el.getBoundingClientRect())
    .filter((box) => box.width > 0 && box.height > 0);
  const middles = parts.map((box) => box.top + box.height / 2);
  return parts.every((box) => middles.every((m) => m >= box.top && m <= box.bottom));
}"""


@pytest.fixture
def server(web_server: ServerProcess) -> ServerProcess:
    return web_server


def check_folded(page: Page) -> None:
    """The narrow bar: one line; the gear opens the settings and Escape closes them,
    the focus back on the gear."""
    assert page.evaluate(ONE_LINE)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    # Every page's link shows whole (none swiped out of view).
    assert page.evaluate(
        "(n => n.scrollWidth <= n.clientWidth + 1)(document.querySelector('.site-header nav'))"
    )
    gear = page.get_by_role("button", name="Settings")
    expect(gear).to_have_attribute("aria-expanded", "false")
    for setting in SETTINGS:
        expect(page.locator(setting)).to_be_hidden()
    gear.click()
    expect(gear).to_have_attribute("aria-expanded", "true")
    width = page.viewport_size["width"] if page.viewport_size else 0
    for setting in SETTINGS:
        expect(page.locator(setting)).to_be_visible()
        box = page.locator(setting).bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= width
    page.locator("#sound").focus()
    page.keyboard.press("Escape")
    expect(page.locator("#four-colour")).to_be_hidden()
    expect(gear).to_have_attribute("aria-expanded", "false")
    expect(gear).to_be_focused()
    # A click elsewhere closes it too.
    gear.click()
    expect(page.locator("#motion")).to_be_visible()
    page.mouse.click(5, page.viewport_size["height"] - 5 if page.viewport_size else 300)
    expect(page.locator("#motion")).to_be_hidden()


@pytest.mark.parametrize(
    "viewport", [{"width": 360, "height": 640}, {"width": 390, "height": 844}], ids=str
)
def test_on_a_phone_the_bar_is_one_line_and_its_settings_open_from_the_gear(
    browser: Browser, server: ServerProcess, viewport: ViewportSize, tmp_path: Path
) -> None:
    context = seat_context(browser, viewport)
    page = context.new_page()
    open_home(page, server, more=False)
    check_folded(page)
    open_table(page, server, "hand")
    check_folded(page)
    page.get_by_role("button", name="Settings").click()
    page.screenshot(path=str(tmp_path / f"settings-{viewport['width']}.png"))
    # A setting changed in the panel holds.
    page.check("#four-colour")
    assert page.evaluate("document.body.classList.contains('four-colour')")
    context.close()


def test_on_a_wide_window_the_settings_show_in_the_bar(
    browser: Browser, server: ServerProcess
) -> None:
    context = seat_context(browser, {"width": 1280, "height": 800})
    page = context.new_page()
    open_home(page, server, more=False)
    expect(page.locator("#settings-toggle")).to_be_hidden()
    for setting in SETTINGS:
        expect(page.locator(setting)).to_be_visible()
    assert page.evaluate(ONE_LINE)
    context.close()
