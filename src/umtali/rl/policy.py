"""A policy that learns, and plays as a bot (:class:`LinearPolicy`, :class:`PolicyBot`).

This is the default game's module of that name (Umtali's, the only game with a research
encoding before there were others): it stands for
``umtali.games.umtali.research.policy``, found through the registry
(:func:`umtali.rl.encoding.encoding_module`), so that this package names no game and
every program written against this path goes on working. Each name is the game
module's own object. Code that wants the exact types imports from the game's module.
"""

from __future__ import annotations

from typing import Any

from umtali.rl.encoding import encoding_module

_MODULE = encoding_module("policy")


def __getattr__(name: str) -> Any:
    return getattr(_MODULE, name)


def __dir__() -> list[str]:
    return dir(_MODULE)
