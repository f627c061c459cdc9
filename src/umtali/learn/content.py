"""Teaching content as package data: TOML files read strictly, with errors that name
the file and the key.

Each game keeps its words in its own folder (Umtali's lessons, quiz and help in
``umtali/games/umtali/learn/content/*.toml``; another game's help beside its code), where
a web server can serve them as they are. A file is named by its package and its path
inside it, ``"package:path"``. This module reads them with :mod:`tomllib` through a
:class:`Table` whose getters check each value's type and refuse keys nobody reads, so a
slip in the data fails at load, loudly, with ``file: key: what is wrong``.

>>> table = Table({"title": "Lesson", "turn": 2}, "example.toml")
>>> table.text("title"), table.integer("turn")
('Lesson', 2)
>>> table.text("turn")
Traceback (most recent call last):
...
umtali.learn.content.ContentError: example.toml: turn: expected text, found 2
"""

from __future__ import annotations

import tomllib
from collections.abc import Collection, Mapping, Sequence
from importlib import resources
from typing import TypeVar

__all__ = ["ContentError", "Table", "load"]


class ContentError(ValueError):
    """Teaching content that does not fit its types: the message names file and key."""


_T = TypeVar("_T")


class Table:
    """One TOML table, read with its place (file and key path) for the error messages.

    ``place`` is the table's own key path inside ``file`` (``""`` at the top).
    """

    def __init__(self, data: Mapping[str, object], file: str, place: str = "") -> None:
        self.data = data
        self.file = file
        self.place = place

    def key(self, key: str) -> str:
        """The full key path of ``key`` in this table, as the error messages give it."""
        return f"{self.place}.{key}" if self.place else key

    def error(self, key: str, problem: str) -> ContentError:
        """An error about the value at ``key`` of this table."""
        return ContentError(f"{self.file}: {self.key(key)}: {problem}")

    def only(self, keys: Collection[str]) -> None:
        """Refuse any key not in ``keys``: a misspelt key would otherwise be ignored."""
        for key in self.data:
            if key not in keys:
                raise self.error(key, f"unknown key (expected one of {', '.join(sorted(keys))})")

    def _get(self, key: str, kind: type[_T], name: str, default: _T | None) -> _T:
        value = self.data.get(key, default)
        if value is None:
            raise self.error(key, f"missing {name}")
        # bool is an int to isinstance; a number is never true or false here.
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise self.error(key, f"expected {name}, found {value!r}")
        return value

    def text(self, key: str, default: str | None = None) -> str:
        """The string at ``key`` (``default`` if absent and given)."""
        return self._get(key, str, "text", default)

    def integer(self, key: str, default: int | None = None) -> int:
        """The integer at ``key``."""
        return self._get(key, int, "an integer", default)

    def flag(self, key: str, default: bool | None = None) -> bool:
        """The boolean at ``key``."""
        return self._get(key, bool, "true or false", default)

    def choice(self, key: str, allowed: Sequence[str], default: str | None = None) -> str:
        """The string at ``key``, one of ``allowed``."""
        value = self.text(key, default)
        if value not in allowed:
            raise self.error(key, f"{value!r} is not one of {', '.join(allowed)}")
        return value

    def texts(self, key: str, default: Sequence[str] | None = None) -> tuple[str, ...]:
        """The array of strings at ``key``."""
        values = self._get(key, list, "a list of text", None if default is None else [*default])
        for i, value in enumerate(values):
            if not isinstance(value, str):
                raise self.error(f"{key}[{i}]", f"expected text, found {value!r}")
        return tuple(values)

    def pairs(self, key: str) -> tuple[tuple[str, str], ...]:
        """The array of two-string arrays at ``key`` (absent: none)."""
        values = self._get(key, list, "a list of pairs", [])
        for i, value in enumerate(values):
            if not (
                isinstance(value, list)
                and len(value) == 2
                and all(isinstance(v, str) for v in value)
            ):
                raise self.error(f"{key}[{i}]", f"expected a pair of texts, found {value!r}")
        return tuple((value[0], value[1]) for value in values)

    def table(self, key: str, default: Mapping[str, object] | None = None) -> Table:
        """The table at ``key``."""
        value = self._get(key, dict, "a table", None if default is None else dict(default))
        return Table(value, self.file, self.key(key))

    def tables(self, key: str) -> tuple[Table, ...]:
        """The array of tables at ``key`` (``[[key]]`` in the file)."""
        values = self._get(key, list, "an array of tables", None)
        found = []
        for i, value in enumerate(values):
            if not isinstance(value, dict):
                raise self.error(f"{key}[{i}]", f"expected a table, found {value!r}")
            found.append(Table(value, self.file, f"{self.key(key)}[{i}]"))
        return tuple(found)


def load(source: str) -> Table:
    """The top table of the content file ``source``, named by its package and its path
    in it (``"umtali.games.umtali.learn:content/quiz.toml"``).

    A file that is missing or is not TOML raises :class:`ContentError` naming it.
    """
    package, sep, path = source.partition(":")
    name = path.rsplit("/", 1)[-1]
    if not sep or not package or not path:
        raise ContentError(f"{source}: a content file is named 'package:path'")
    try:
        raw = (resources.files(package).joinpath(*path.split("/"))).read_text(encoding="utf-8")
    except (OSError, ModuleNotFoundError) as e:
        raise ContentError(f"{name}: cannot be read: {e}") from None
    try:
        return Table(tomllib.loads(raw), name)
    except tomllib.TOMLDecodeError as e:
        raise ContentError(f"{name}: not valid TOML: {e}") from None
