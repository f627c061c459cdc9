"""The one check of a table's layout that every table's browser test uses: at two phones'
and two desktops' sizes, what a player needs to move is in the window, each part apart
from the others, the page does not scroll, and no text is under 12 px.

A test names the parts of its table (the opponent's side, the stock, the pile, the hand,
the moves, the turn's line...) and the table's root; :func:`layout_problems` says what
is wrong, an empty list when nothing is.
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import Page, ViewportSize

SIZES: list[ViewportSize] = [
    {"width": 360, "height": 640},
    {"width": 390, "height": 844},
    {"width": 1280, "height": 800},
    {"width": 1920, "height": 1080},
]
"""Two phones and two desktops: the table must serve each without scrolling to move."""

LAYOUT = """({parts, root, still}) => {
  const problems = [];
  const width = document.documentElement.clientWidth;
  const inView = (b) => b.top >= 0 && b.left >= 0 && b.bottom <= innerHeight + 0.5 && b.right <= width + 0.5;
  const boxes = [];
  for (const selector of parts) {
    const part = document.querySelector(selector);
    if (!part || !part.checkVisibility()) continue;
    const b = part.getBoundingClientRect();
    if (!inView(b)) problems.push(`${selector} at ${Math.round(b.left)},${Math.round(b.top)}-${Math.round(b.right)},${Math.round(b.bottom)} in ${width}x${innerHeight}`);
    boxes.push([selector, b]);
  }
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [one, a] = boxes[i];
    const [two, b] = boxes[j];
    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1) problems.push(`${one} overlaps ${two}`);
  }
  if (document.documentElement.scrollWidth > width) {
    // Name the outermost parts that reach past the window, to say what widens the page.
    const wide = [...document.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > width + 0.5 && !(e.parentElement && e.parentElement.getBoundingClientRect().right > width + 0.5));
    const names = wide.slice(0, 3).map((e) => e.tagName.toLowerCase() + (e.id ? "#" + e.id : "") + (e.className && typeof e.className === "string" ? "." + e.className.split(" ").join(".") : ""));
    problems.push(`the page is ${document.documentElement.scrollWidth}px wide in ${width}px (${names.join(", ")})`);
  }
  const tall = document.documentElement.scrollHeight;
  if (still && tall > innerHeight + 1) problems.push(`the page is ${tall}px high in ${innerHeight}px: it scrolls`);
  for (const node of document.querySelectorAll(`${root} *`)) {
    if (!node.checkVisibility() || node.closest("svg")) continue;
    if (node.getBoundingClientRect().right > width + 0.5) problems.push(`${node.tagName}#${node.id}.${node.className} ends past the page's edge`);
    const own = [...node.childNodes].some((child) => child.nodeType === 3 && child.textContent.trim());
    const size = parseFloat(getComputedStyle(node).fontSize);
    if (own && size < 12) problems.push(`"${node.textContent.trim().slice(0, 30)}" at ${size}px`);
  }
  return problems;
}"""
"""What is wrong with the table as shown from the page's top: a key part out of view or
over another, the page wider than the screen (or, ``still``, higher: it scrolls), text
under 12 px."""

SHOTS = os.environ.get("UMTALI_SCREENSHOTS")
"""A folder to keep the layout tests' screenshots in, to look at (none are kept unless set)."""


def layout_problems(
    page: Page, parts: list[str], root: str, shot: str | None = None, *, still: bool = True
) -> list[str]:
    """What :data:`LAYOUT` finds wrong on ``page``, in the table whose root is the
    selector ``root``, ``parts`` the selectors of what must be in view and apart;
    ``still``: the page must not scroll. Its screenshot is kept as ``shot`` (with the
    window's size) in :data:`SHOTS`, if both are set, and as ``<root>-problem`` when
    something is wrong."""
    page.evaluate("window.scrollTo(0, 0)")
    problems: list[str] = page.evaluate(LAYOUT, {"parts": parts, "root": root, "still": still})
    if SHOTS and (shot or problems):
        size = page.viewport_size or {"width": 0, "height": 0}
        folder = Path(SHOTS)
        folder.mkdir(parents=True, exist_ok=True)
        name = (shot or f"{root.strip('#')}-problem").replace(" ", "-").replace(",", "")
        page.screenshot(path=str(folder / f"{name}-{size['width']}x{size['height']}.png"))
    return problems
