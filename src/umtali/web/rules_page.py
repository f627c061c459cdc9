"""Each game's rules as a page of its own, ``GET /rules/<game>``, and the link a refusal
gives to the rule it cites.

The text is the game's ``RULES.md``, shipped in its own folder (:attr:`GameSpec.rules_text
<umtali.games.api.GameSpec.rules_text>`): a new game brings its page with its folder, and
nothing here names a game. The Markdown is rendered by markdown-it-py, a CommonMark
renderer already installed with the terminal's ``rich``: raw HTML in the text is off, so
whatever the file holds comes out escaped; links go through its URL check (no
``javascript:``). The only markup read from the file is the anchor line
``<a id="r4"></a>`` before a heading, which GitHub shows as nothing and which gives that
heading the id a refusal's link opens (``/rules/umtali#r4`` for ruling ``R4``); every
other heading gets an id from its words, as GitHub makes them.

>>> page = rules_page("umtali")
>>> page.rules["r4"], 'id="r4"' in page.html
('R4 Meld phase', True)
>>> rule_link("umtali", ("R4", "R6"))
RuleLink(id='R4', title='R4 Meld phase', url='/rules/umtali#r4')
>>> rule_link("umtali", ()) is None
True
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, Final

from markdown_it import MarkdownIt
from markdown_it.token import Token

from umtali import games
from umtali.web.protocol import RuleLink

__all__ = ["RulesPage", "page_html", "rule_link", "rules_page"]

ANCHOR: Final = re.compile(r'^<a id="([a-z0-9-]+)"></a>\s*$')
"""An anchor line of a rules text: the id of the heading after it."""

_SIBLING: Final = re.compile(r"^\.\./([a-z]+)/RULES\.md(#[a-z0-9-]+)?$")
"""A link to another game's rules text, from one game's folder to the next."""


@dataclass(frozen=True)
class RulesPage:
    """A game's rules, rendered: ``html`` (the body's content), its ``title``, and the
    anchored rules by id (``"r4"``) with their headings' words."""

    game: str
    title: str
    html: str
    rules: dict[str, str]


def _slug(text: str) -> str:
    """A heading's id, as GitHub makes it: lower case, spaces to hyphens, no punctuation."""
    return re.sub(r"[^\w\- ]", "", text.lower()).strip().replace(" ", "-")


def render(text: str) -> tuple[str, dict[str, str]]:
    """``text`` (Markdown) as HTML, and the anchored headings (id: words).

    >>> body, rules = render('<a id="r1"></a>\\n\\n## R1 Deal\\n\\n<b>x</b> [a](javascript:y)')
    >>> print(body)
    <h2 id="r1">R1 Deal</h2>
    <p>&lt;b&gt;x&lt;/b&gt; [a](javascript:y)</p>
    <BLANKLINE>
    >>> rules
    {'r1': 'R1 Deal'}
    """
    lines = text.split("\n")
    pending: str | None = None
    anchored: dict[int, str] = {}
    for number, line in enumerate(lines):
        found = ANCHOR.match(line)
        if found:
            pending = found.group(1)
            lines[number] = ""  # the line stays, so the tokens' line numbers hold
        elif pending is not None and line.startswith("#"):
            anchored[number] = pending
            pending = None
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    tokens = md.parse("\n".join(lines))
    rules: dict[str, str] = {}
    used: set[str] = set()
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.map is not None:
            words = tokens[i + 1].content
            ident = anchored.get(token.map[0])
            if ident is not None:
                rules[ident] = words
            else:
                ident = base = _slug(words)
                count = 1
                while ident in used:
                    ident = f"{base}-{count}"
                    count += 1
            used.add(ident)
            token.attrSet("id", ident)
        elif token.type == "inline" and token.children:
            _relink(token.children)
    tokens = _fold_engine_notes(tokens)
    md.add_render_rule("table_open", _table_open)
    md.add_render_rule("table_close", _table_close)
    return md.renderer.render(tokens, md.options, {}), rules


ENGINE_NOTE: Final = "*Engine.*"
"""How a paragraph on how the program enforces a rule begins: written for maintainers,
it is folded away on a player's page, up to the next heading."""

_FOLD_OPEN: Final = '<details class="engine-note"><summary>How the program applies it</summary>\n'


def _fold_engine_notes(tokens: list[Token]) -> list[Token]:
    """``tokens`` with each maintainer's note (from a paragraph beginning
    :data:`ENGINE_NOTE` to the next heading) inside a closed ``<details>``.

    >>> body, _ = render("## R1\\n\\nThe rule.\\n\\n*Engine.* Code.\\n\\n- more\\n\\n## R2\\n")
    >>> print(body)
    <h2 id="r1">R1</h2>
    <p>The rule.</p>
    <details class="engine-note"><summary>How the program applies it</summary>
    <p><em>Engine.</em> Code.</p>
    <ul>
    <li>more</li>
    </ul>
    </details>
    <h2 id="r2">R2</h2>
    <BLANKLINE>
    """
    folded: list[Token] = []
    inside = False
    for i, token in enumerate(tokens):
        if inside and token.type == "heading_open":
            folded.append(_html("</details>\n"))
            inside = False
        if (
            not inside
            and token.type == "paragraph_open"
            and i + 1 < len(tokens)
            and tokens[i + 1].content.startswith(ENGINE_NOTE)
        ):
            folded.append(_html(_FOLD_OPEN))
            inside = True
        folded.append(token)
    if inside:
        folded.append(_html("</details>\n"))
    return folded


def _html(markup: str) -> Token:
    """A block of the page's own markup (never text from the file)."""
    token = Token("html_block", "", 0)
    token.content = markup
    return token


def _relink(children: list[Token]) -> None:
    """Links to another game's rules text lead to its page; other relative links (to
    files of the source tree) are left as their words."""
    keep: list[Token] = []
    dropping = 0
    for child in children:
        if child.type == "link_open":
            href = str(child.attrGet("href") or "")
            sibling = _SIBLING.match(href)
            if sibling:
                child.attrSet("href", f"/rules/{sibling.group(1)}{sibling.group(2) or ''}")
            elif not href.startswith(("#", "/rules/", "https://")):
                dropping += 1
                continue
        elif child.type == "link_close" and dropping:
            dropping -= 1
            continue
        keep.append(child)
    children[:] = keep


def _table_open(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    # A wide table scrolls in a region of its own, which the keyboard can reach.
    return '<div class="table-scroll" role="region" aria-label="Table" tabindex="0"><table>\n'


def _table_close(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    return "</table></div>\n"


@cache
def rules_page(game: str) -> RulesPage:
    """The rules page of the registered game ``game`` (:class:`umtali.games.UnknownGameError`
    if none; :class:`umtali.games.api.HookError` if it has no rules text)."""
    spec = games.get(game)
    body, rules = render(spec.rules_markdown())
    return RulesPage(spec.name, spec.title, body, rules)


def rule_link(game: str, rules: Sequence[str]) -> RuleLink | None:
    """The link to the first of ``rules`` (ids such as ``"R4"``) that ``game``'s page
    anchors; ``None`` when it anchors none of them (or has no rules text)."""
    if not rules or not games.get(game).rules_text:
        return None
    page = rules_page(game)
    for rule in rules:
        ident = rule.lower()
        if ident in page.rules:
            return RuleLink(id=rule, title=page.rules[ident], url=f"/rules/{game}#{ident}")
    return None


def page_html(page: RulesPage) -> str:
    """The whole HTML document of ``page``: no script, the site's own styles."""
    others = ", ".join(
        f'<a href="/rules/{spec.name}">{html.escape(spec.title)}</a>'
        for spec in games.games()
        if spec.rules_text and spec.name != page.game
    )
    title = html.escape(page.title)
    return f"""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}: the rules</title>
<link rel="stylesheet" href="/static/css/base.css">
<link rel="stylesheet" href="/static/css/rules.css">
</head>
<body class="rules-page">
<header class="rules-head">
<nav aria-label="Pages"><a href="/">Umtali home</a>{" · The rules of " + others if others else ""}</nav>
</header>
<main class="rules">
{page.html}</main>
</body>
</html>
"""
