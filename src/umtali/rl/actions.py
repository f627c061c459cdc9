"""The default game's fixed action space (Umtali's: docs/RESEARCH.md, "The action space"):
``umtali.games.umtali.research.actions``, where it was before there were other games.

:mod:`umtali.rl` tells how this module stands for the game's: through the registry,
each name being that module's own object.
"""

from umtali.rl.encoding import alias

__getattr__, __dir__ = alias("actions")
