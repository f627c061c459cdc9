"""A real browser for the tests: Debian's chromium, driven by Playwright.

Playwright's own browser download is not used (it cannot run here): the tests launch
``/usr/bin/chromium``. Where it is missing the browser tests are skipped on a
developer's machine and fail in CI (``CI`` set), as the PostgreSQL tests do.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

CHROMIUM = Path(os.environ.get("UMTALI_CHROMIUM", "/usr/bin/chromium"))
"""The browser the tests drive (``UMTALI_CHROMIUM`` names another)."""


@contextmanager
def chromium() -> Iterator[Browser]:
    """A headless chromium; the test is skipped (failed in CI) where there is none."""
    if not CHROMIUM.exists():
        message = f"no chromium at {CHROMIUM} (apt-get install chromium; ./dev test does)"
        if os.environ.get("CI"):
            pytest.fail(f"{message}: CI must run the browser tests")
        pytest.skip(message)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            # Root in a container has no user namespace for chromium's sandbox.
            args=["--no-sandbox"] if os.geteuid() == 0 else [],
        )
        try:
            yield browser
        finally:
            browser.close()
