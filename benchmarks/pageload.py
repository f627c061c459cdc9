#!/usr/bin/env python3
"""Page weight and speed: each page of the browser game loaded once, cold, in chromium.

The script starts ``umtali serve`` on a free loopback port (SQLite in a temporary
folder, as benchmarks/loadtest.py does), makes the games whose tables it opens through
the API, and opens each page in a new headless chromium context (Debian's, driven by
Playwright; ``UMTALI_CHROMIUM`` names another) with the cache disabled. For each page it
prints:

- the bytes of the response bodies (decoded) and the bytes transferred (encoded, with
  the headers: the Chrome DevTools Protocol's ``Network`` figures), over every request
  of the first load up to the moment the page is interactive (the table's WebSocket is
  not counted);
- how many requests that took;
- the times from navigation to ``DOMContentLoaded``, to ``load``, and to "interactive":
  on a table, the first move control shown and enabled; on another page, its first
  control.

Then the thresholds of issue 25, with a pass or fail each: under 300 KB transferred,
and interactive under 1 s (on the loopback). The figures are for people: the test
(tests/test_pageload.py) runs the script on one page and checks nothing timed.
docs/PERFORMANCE.md has one run's figures::

    python benchmarks/pageload.py                  # every page
    python benchmarks/pageload.py --page home      # one (repeatable)
    python benchmarks/pageload.py --json pages.json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final

import httpx
from playwright.sync_api import Browser, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))  # loadtest.py, beside this
from loadtest import LoadTestError, started_server

MAX_BYTES: Final = 300 * 1024
"""The most a page's first load may transfer (issue 25)."""

MAX_INTERACTIVE_MS: Final = 1000.0
"""The longest a page may take to be interactive on the loopback (issue 25)."""

WAIT_MS: Final = 15_000
"""How long to wait for a page's control before the page counts as never interactive."""

CHROMIUM: Final = Path(os.environ.get("UMTALI_CHROMIUM", "/usr/bin/chromium"))

MOVE = "#{prefix}actions button:not([disabled])"


@dataclass(frozen=True)
class Target:
    """A page to load: how its path is found (a new game's seat for a table), and the
    selector of the control that makes it interactive."""

    path: Callable[[str], str]
    ready: str


def seat(body: dict[str, Any]) -> Callable[[str], str]:
    """The path of the person's seat of a new game made with ``body``."""

    def made(url: str) -> str:
        answer = httpx.post(f"{url}/api/games", json=body, timeout=30, trust_env=False)
        answer.raise_for_status()
        return f"/seat/{answer.json()['seats'][0]['secret']}"

    return made


def fixed(path: str) -> Callable[[str], str]:
    return lambda url: path


PAGES: Final[dict[str, Target]] = {
    "home": Target(fixed("/"), "#computer-form button[type=submit]"),
    "umtali-table": Target(seat({"level": "greedy"}), MOVE.format(prefix="")),
    "gin-two-table": Target(seat({"game": "gin", "level": "greedy"}), MOVE.format(prefix="gin-")),
    "gin-party-table": Target(
        seat({"game": "gin", "level": "greedy", "players": 3}), MOVE.format(prefix="gin-")
    ),
    "klaberjass-table": Target(
        seat({"game": "klaberjass", "level": "random"}),
        # The person's first move may be a bid (a button) or a lead (a card of the hand).
        MOVE.format(prefix="kj-") + ', #kj-hand button[title^="Play the"]',
    ),
    "learn": Target(fixed("/learn"), "#chooser button"),
    "quiz": Target(fixed("/quiz"), "#quiz button, #quiz input"),
    "replay": Target(fixed("/replay"), "#record-file"),
    "klaberjass-howto": Target(fixed("/learn/klaberjass"), "#howto-start"),
}
"""Every page, by name."""

READY = """(selector) => {
  // The first moment a control is shown and enabled (polled every frame): its time.
  const found = [...document.querySelectorAll(selector)].find(
    (node) => !node.disabled && node.checkVisibility());
  return found ? performance.now() : false;
}"""

TIMES = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  return {dom: nav.domContentLoadedEventEnd, load: nav.loadEventEnd};
}"""


@dataclass
class Figures:
    """One page's first load."""

    page: str
    requests: int
    body_bytes: int
    transfer_bytes: int
    dom_content_loaded_ms: float
    load_ms: float
    interactive_ms: float | None

    @property
    def passes(self) -> bool:
        return (
            self.transfer_bytes < MAX_BYTES
            and self.interactive_ms is not None
            and self.interactive_ms < MAX_INTERACTIVE_MS
        )


def measure(browser: Browser, url: str, name: str, target: Target) -> Figures:
    """Load ``name`` once in a fresh context with the cache off, and measure it."""
    path = target.path(url)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        requests: set[str] = set()
        body: dict[str, int] = {}
        transfer: dict[str, int] = {}

        def sent(event: dict[str, Any]) -> None:
            requests.add(event["requestId"])

        def data(event: dict[str, Any]) -> None:
            body[event["requestId"]] = body.get(event["requestId"], 0) + event["dataLength"]

        def finished(event: dict[str, Any]) -> None:
            transfer[event["requestId"]] = int(event["encodedDataLength"])

        cdp.on("Network.requestWillBeSent", sent)
        cdp.on("Network.dataReceived", data)
        cdp.on("Network.loadingFinished", finished)
        page.goto(url + path, wait_until="load")
        interactive: float | None
        try:
            handle = page.wait_for_function(READY, arg=target.ready, polling="raf", timeout=WAIT_MS)
            interactive = float(handle.json_value())
        except Exception:  # never interactive in time: reported so, not raised
            interactive = None
        times = page.evaluate(TIMES)
        return Figures(
            page=name,
            requests=len(requests),
            body_bytes=sum(body.values()),
            transfer_bytes=sum(transfer.values()),
            dom_content_loaded_ms=round(float(times["dom"]), 1),
            load_ms=round(float(times["load"]), 1),
            interactive_ms=None if interactive is None else round(interactive, 1),
        )
    finally:
        context.close()


def table(rows: list[Figures]) -> str:
    """The figures as a Markdown table, with each page's verdict."""
    lines = [
        "| page | requests | body KB | transferred KB | DOMContentLoaded ms | load ms"
        " | interactive ms | ≤ 300 KB, < 1 s |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for row in rows:
        ready = "never" if row.interactive_ms is None else f"{row.interactive_ms:.0f}"
        lines.append(
            f"| {row.page} | {row.requests} | {row.body_bytes / 1024:.1f}"
            f" | {row.transfer_bytes / 1024:.1f} | {row.dom_content_loaded_ms:.0f}"
            f" | {row.load_ms:.0f} | {ready} | {'pass' if row.passes else 'FAIL'} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--page", action="append", choices=list(PAGES), help="one page (repeatable)"
    )
    parser.add_argument("--json", type=Path, help="write the figures to this file as JSON")
    args = parser.parse_args(argv)
    names = args.page or list(PAGES)
    if not CHROMIUM.exists():
        print(f"no chromium at {CHROMIUM} (apt-get install chromium)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="umtali-pageload-") as folder:
        db_url = f"sqlite:///{Path(folder) / 'pageload.db'}"
        try:
            with started_server(db_url, Path(folder), None) as server, sync_playwright() as pw:
                browser = pw.chromium.launch(
                    executable_path=str(CHROMIUM),
                    args=["--no-sandbox"] if os.geteuid() == 0 else [],
                )
                try:
                    rows = [measure(browser, server.url, name, PAGES[name]) for name in names]
                finally:
                    browser.close()
        except LoadTestError as e:
            print(e, file=sys.stderr)
            return 2
    print(table(rows))
    print()
    print(
        f"thresholds: first load under {MAX_BYTES // 1024} KB transferred,"
        f" interactive under {MAX_INTERACTIVE_MS:.0f} ms on the loopback"
    )
    failed = [row.page for row in rows if not row.passes]
    print("all pages pass" if not failed else f"over a threshold: {', '.join(failed)}")
    if args.json is not None:
        args.json.write_text(
            json.dumps([{**asdict(row), "passes": row.passes} for row in rows], indent=2) + "\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
