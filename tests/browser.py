"""A real browser for the tests: Debian's chromium, driven by Playwright.

Playwright's own browser download is not used (it cannot run here): the tests launch
``/usr/bin/chromium``. Where it is missing the browser tests are skipped on a
developer's machine and fail in CI (``CI`` set), as the PostgreSQL tests do.

A table's page hears of a state twice when it moves: in the move's answer, and again
over its WebSocket a moment later. A test that clicks as soon as the page shows the
state may press a button that the second copy draws again under the pointer, and the
click is lost. :func:`seat_context` makes pages that note what their socket brought, so
that a test can wait for both copies (:data:`SETTLED`).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    BrowserType,
    Page,
    ViewportSize,
    sync_playwright,
)

CHROMIUM = Path(os.environ.get("UMTALI_CHROMIUM", "/usr/bin/chromium"))
"""The browser the tests drive (``UMTALI_CHROMIUM`` names another)."""

DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 360, "height": 740}

SOCKET_WATCH = """
(() => {
  // Tests only: each WebSocket the page opens notes, before the page's own listener
  // hears it, the version of the last seat state it brought (-1: none yet).
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      window.umtaliSocketVersion = -1;
      this.addEventListener("message", (event) => {
        let message = null;
        try {
          message = JSON.parse(event.data);
        } catch {
          return;
        }
        if (message && message.type === "state") window.umtaliSocketVersion = message.version;
      });
    }
  };
})();
"""
"""The script :func:`seat_context` runs in every page before the page's own."""

SETTLED = """(version) => {
  const table = document.getElementById("table");
  const heard = window.umtaliSocketVersion;
  return Number(table.dataset.version) >= version
    && table.dataset.pending === "false"
    && (heard === undefined || heard >= version);
}"""
"""Whether the table shows ``version`` (or later) with no move on its way, and its
socket has brought that version too, so that no copy of it is still to come. (A page
opened without :func:`seat_context` has no note of its socket: only the table counts.)"""


@contextmanager
def chromium() -> Iterator[Browser]:
    """A headless chromium; the test is skipped (failed in CI) where there is none."""
    if not CHROMIUM.exists():
        message = f"no chromium at {CHROMIUM} (apt-get install chromium; ./dev test does)"
        if os.environ.get("CI"):
            pytest.fail(f"{message}: CI must run the browser tests")
        pytest.skip(message)
    with sync_playwright() as playwright:
        browser = launch(playwright.chromium)
        try:
            yield browser
        finally:
            browser.close()


def launch(browser_type: BrowserType, *, scroll_bars: bool = False) -> Browser:
    """Debian's chromium, headless, from ``browser_type`` (one Playwright per thread:
    a second browser is launched from the first one's ``browser_type``).

    Playwright hides scroll bars, as a phone's float over the page; ``scroll_bars``
    shows them as a desktop's are, taking room beside whatever scrolls."""
    return browser_type.launch(
        executable_path=str(CHROMIUM),
        # Root in a container has no user namespace for chromium's sandbox.
        args=["--no-sandbox"] if os.geteuid() == 0 else [],
        ignore_default_args=["--hide-scrollbars"] if scroll_bars else None,
    )


def seat_context(browser: Browser, viewport: ViewportSize = DESKTOP) -> BrowserContext:
    """A new context (one person's browser: its own storage) whose pages note the
    version of the last state their seat's WebSocket brought."""
    context = browser.new_context(viewport=viewport)
    context.add_init_script(SOCKET_WATCH)
    return context


def open_settings(page: Page) -> None:
    """Show the bar's settings (four-colour deck, sounds, card moves, keys): on a narrow
    window they are folded behind the gear button, which this opens; on a wide one they
    show already."""
    toggle = page.locator("#settings-toggle")
    if toggle.is_visible() and toggle.get_attribute("aria-expanded") != "true":
        toggle.click()
    page.locator("#four-colour").wait_for(state="visible")
