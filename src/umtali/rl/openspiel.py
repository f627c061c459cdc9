"""Every registered game's OpenSpiel game, registered with ``pyspiel`` when this module
is imported: Umtali's as ``"python_umtali"`` (docs/RESEARCH.md, "Umtali as an OpenSpiel
game").

The names of this module are the default game's module of that name (Umtali's): it
stands for ``umtali.games.umtali.research.openspiel``, found through the registry
(:func:`umtali.rl.encoding.encoding_module`), so that this package names no game and
every program written against this path goes on working. Each name is the game
module's own object. Code that wants the exact types imports from the game's module.

>>> import pyspiel
>>> import umtali.rl.openspiel
>>> pyspiel.load_game("python_umtali").get_type().short_name == umtali.rl.openspiel.GAME_NAME
True
"""

from __future__ import annotations

from typing import Any

from umtali.rl.encoding import encoding_module, research, researched

for _game in researched():
    research(_game).register_openspiel()

_MODULE = encoding_module("openspiel")


def __getattr__(name: str) -> Any:
    return getattr(_MODULE, name)


def __dir__() -> list[str]:
    return dir(_MODULE)
