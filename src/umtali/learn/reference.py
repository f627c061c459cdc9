"""A game's rules in brief and the help of its ``umtali play`` prompt, from a help file
each game keeps beside its code (a TOML file with a ``rules`` and a ``play`` table, named
``"package:path"`` as :func:`umtali.learn.content.load` reads it).

Plain text for any front end: what the player types at the prompt is written between
backquotes (``moves``), for the front end to set apart; :func:`typed_spans` splits a
text there.

>>> umtali = "umtali.games.umtali.learn:content/help.toml"
>>> rules_summary(umtali).title
'Umtali in brief'
>>> play_help(umtali).rows[2]
('cards', 'typed Ks, 10h, Th, K♠ or K-♠ (as the book prints them), in any case')
>>> typed_spans(play_help(umtali).title)
(('Type a move in notation, or its number from ', False), ('moves', True), (':', False))
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from umtali.learn.content import Table, load

__all__ = ["Reference", "play_help", "rules_summary", "typed_spans"]


@dataclass(frozen=True)
class Reference:
    """A titled list of help.

    Attributes:
        title: the heading.
        rows: (label, text) pairs; an empty label makes the row one point of a list.
    """

    title: str
    rows: tuple[tuple[str, str], ...]


def _section(name: str, file: str) -> Table:
    content = load(file)
    content.only({"rules", "play"})
    return content.table(name)


@cache
def rules_summary(file: str) -> Reference:
    """The rules in a few points, of the game whose help ``file`` is."""
    table = _section("rules", file)
    table.only({"title", "points"})
    return Reference(table.text("title"), tuple(("", point) for point in table.texts("points")))


@cache
def play_help(file: str) -> Reference:
    """What may be typed at the prompt of ``umtali play``, in a game of the game whose
    help ``file`` is."""
    table = _section("play", file)
    table.only({"title", "rows"})
    rows = []
    for row in table.tables("rows"):
        row.only({"label", "text"})
        rows.append((row.text("label"), _spanned(row, "text")))
    return Reference(_spanned(table, "title"), tuple(rows))


def _spanned(table: Table, key: str) -> str:
    """The text at ``key``, its backquotes paired."""
    text = table.text(key)
    try:
        typed_spans(text)
    except ValueError as e:
        raise table.error(key, str(e)) from None
    return text


def typed_spans(text: str) -> tuple[tuple[str, bool], ...]:
    """``text`` cut into spans, each marked whether it is typed at the prompt (written
    between backquotes).

    >>> typed_spans("`hint` or `why MOVE`")
    (('hint', True), (' or ', False), ('why MOVE', True))
    """
    parts = text.split("`")
    if len(parts) % 2 == 0:
        raise ValueError(f"an odd number of backquotes in {text!r}")
    return tuple((part, i % 2 == 1) for i, part in enumerate(parts) if part)
