"""Every registered game's OpenSpiel game, registered with ``pyspiel`` when this module
is imported: Umtali's as ``"python_umtali"`` (docs/RESEARCH.md, "Umtali as an OpenSpiel
game").

The names of this module are the default game's module of that name (Umtali's,
``umtali.games.umtali.research.openspiel``, at its old path): :mod:`umtali.rl` tells
how it stands for the game's, through the registry, each name being that module's own
object.

>>> import pyspiel
>>> import umtali.rl.openspiel
>>> pyspiel.load_game("python_umtali").get_type().short_name == umtali.rl.openspiel.GAME_NAME
True
"""

from __future__ import annotations

from umtali.rl.encoding import alias, research, researched

for _game in researched():
    research(_game).register_openspiel()

__getattr__, __dir__ = alias("openspiel")
