"""The rules in brief and the help of ``umtali play``, from ``content/help.toml`` (Umtali)
or another file laid out as it is (``content/gin_help.toml``: Gin Rummy).

Plain text for any front end: what the player types at the prompt is written between
backquotes (``moves``), for the front end to set apart; :func:`typed_spans` splits a
text there.

>>> rules_summary().title
'Umtali in brief'
>>> play_help().rows[2]
('cards', 'typed Ks, 10h, Th, K♠ or K-♠ (as the book prints them), in any case')
>>> typed_spans(play_help().title)
(('Type a move in notation, or its number from ', False), ('moves', True), (':', False))
>>> rules_summary("gin_help.toml").title, play_help("gin_help.toml").rows[0][0]
('Gin Rummy in brief', 'take')
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Final

from umtali.learn.content import Table, load

__all__ = ["HELP_FILE", "Reference", "help_file", "play_help", "rules_summary", "typed_spans"]

HELP_FILE: Final = "help.toml"
"""Umtali's rules in brief and play help; a game's own file is laid out as this one."""

_PRESET_HELP: Final = {"practical": "practical_help.toml"}
"""The help of Umtali's presets that play otherwise than the standard rules tell."""


def help_file(preset: str) -> str:
    """The help file of Umtali's rules ``preset``: its own where it has one, else the
    standard rules' (a preset whose help says nothing new needs none).

    >>> help_file("practical"), help_file("standard")
    ('practical_help.toml', 'help.toml')
    """
    return _PRESET_HELP.get(preset, HELP_FILE)


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
def rules_summary(file: str = HELP_FILE) -> Reference:
    """The rules in a few points: Umtali's, or those of the game whose help ``file`` is
    (a file of ``learn/content``, such as ``"gin_help.toml"``)."""
    table = _section("rules", file)
    table.only({"title", "points"})
    return Reference(table.text("title"), tuple(("", point) for point in table.texts("points")))


@cache
def play_help(file: str = HELP_FILE) -> Reference:
    """What may be typed at the prompt of ``umtali play``: in a game of Umtali, or of
    the game whose help ``file`` is."""
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
