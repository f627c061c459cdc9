"""What a seat of the default game may see, as arrays (Umtali's: docs/RESEARCH.md,
"Observations"): ``umtali.games.umtali.research.observation``, at its old path.

:mod:`umtali.rl` tells how this module stands for the game's: through the registry,
each name being that module's own object.
"""

from umtali.rl.encoding import alias

__getattr__, __dir__ = alias("observation")
