"""The registry of games: every front end asks it, none names a game.

Each game lives in a package of its own under ``umtali.games`` and describes itself in a
:class:`~umtali.games.api.GameSpec` (its ``spec`` module). The games built in are listed
below, a line each, and read only when first asked for. Others come from installed
packages that declare an entry point in the group ``umtali.games``, or from the
``UMTALI_GAMES`` environment variable (``module:attr`` texts separated by commas, each
naming a spec; what the tests' toy game uses), or from :func:`register` itself.

>>> [spec.name for spec in games()][:3]
['umtali', 'gin', 'klaberjass']
>>> get("gin").title
'Gin Rummy'
>>> get("chess")
Traceback (most recent call last):
...
umtali.games.UnknownGameError: there is no game 'chess'; the games are umtali, gin, klaberjass
"""

from __future__ import annotations

import os
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from umtali.games.api import GameSpec

__all__ = [
    "BUILT_IN",
    "DEFAULT_GAME",
    "ENTRY_POINT_GROUP",
    "UnknownGameError",
    "games",
    "get",
    "names",
    "register",
    "spec_of",
]

BUILT_IN: Final = (
    "umtali.games.umtali.spec:SPEC",
    "umtali.games.gin.spec:SPEC",
    "umtali.games.klaberjass.spec:SPEC",
)
"""The games that come with the package, in the order they are offered."""

DEFAULT_GAME: Final = "umtali"
"""The game played when none is named, and the game of a record that names none (every
record written before there was a choice)."""

ENTRY_POINT_GROUP: Final = "umtali.games"
"""The entry-point group an installed package declares its games in."""

ENVIRONMENT: Final = "UMTALI_GAMES"


class UnknownGameError(LookupError):
    """A game name that no registered game has."""


_registry: dict[str, GameSpec] = {}
_loaded = False


def register(spec: GameSpec, *, replace: bool = False) -> GameSpec:
    """Add ``spec`` to the registry (``replace``: in place of a game of its name), after
    the games built in and those installed."""
    from umtali.games.api import GameSpec

    _load()
    if not isinstance(spec, GameSpec):
        raise TypeError(f"a game is registered by its GameSpec, not {spec!r}")
    if spec.name in _registry and not replace and _registry[spec.name] is not spec:
        raise ValueError(f"a game named {spec.name!r} is registered already")
    _registry[spec.name] = spec
    return spec


def unregister(name: str) -> None:
    """Take the game named ``name`` out of the registry (a game registered for a while,
    as the tests do theirs); :class:`UnknownGameError` if none is."""
    get(name)
    del _registry[name]


def _load() -> None:
    """Register the games built in, then those of installed packages and of
    ``UMTALI_GAMES``, once."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    from umtali.games.api import resolve

    hooks = list(BUILT_IN)
    hooks += [entry.value for entry in entry_points(group=ENTRY_POINT_GROUP)]
    hooks += [hook.strip() for hook in os.environ.get(ENVIRONMENT, "").split(",") if hook.strip()]
    for hook in hooks:
        spec = resolve(hook)
        if _registry.get(spec.name) is not spec:
            register(spec)


def games() -> tuple[GameSpec, ...]:
    """Every registered game, the built-in ones first."""
    _load()
    return tuple(_registry.values())


def names() -> tuple[str, ...]:
    """The names of every registered game."""
    return tuple(spec.name for spec in games())


def get(name: object) -> GameSpec:
    """The game named ``name``; :class:`UnknownGameError` naming the games if none is."""
    _load()
    if isinstance(name, str) and name in _registry:
        return _registry[name]
    shown = repr(name) if isinstance(name, str) and len(name) <= 40 else "of that name"
    raise UnknownGameError(f"there is no game {shown}; the games are {', '.join(_registry)}")


def spec_of(match: object) -> GameSpec:
    """The game ``match`` (a match, game or party of any game) is a match of."""
    for spec in games():
        if spec.body().owns(match):
            return spec
    raise UnknownGameError(f"{type(match).__name__} is a match of no registered game")
