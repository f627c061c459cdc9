"""The default game's episode stepped by action index, and the error of an illegal
action: ``umtali.games.umtali.research.episode``, Umtali's, at its old path.

:mod:`umtali.rl` tells how this module stands for the game's: through the registry,
each name being that module's own object.
"""

from umtali.rl.encoding import alias

__getattr__, __dir__ = alias("episode")
