"""A policy of the default game that learns, and plays as a bot (Umtali's
``LinearPolicy`` and ``PolicyBot``): ``umtali.games.umtali.research.policy``, at its old
path.

:mod:`umtali.rl` tells how this module stands for the game's: through the registry,
each name being that module's own object.
"""

from umtali.rl.encoding import alias

__getattr__, __dir__ = alias("policy")
