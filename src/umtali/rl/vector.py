"""The default game's hands stepped in batches (Umtali's ``HandBatch``: docs/RESEARCH.md,
"Hands in batches"): ``umtali.games.umtali.research.vector``, at its old path.

:mod:`umtali.rl` tells how this module stands for the game's: through the registry,
each name being that module's own object.
"""

from umtali.rl.encoding import alias

__getattr__, __dir__ = alias("vector")
