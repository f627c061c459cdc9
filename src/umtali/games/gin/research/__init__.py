"""Gin Rummy for researchers (layer 7): its research encoding for the two-hand game, the
registry's ``research`` hook (:data:`ENCODING`, a :class:`umtali.rl.encoding.Research`,
defined in :mod:`~umtali.games.gin.research.encoding`). docs/RESEARCH.md, "Gin Rummy",
shows each part with an example.

* :mod:`~umtali.games.gin.research.actions`: the fixed action space, 107 indices (the
  engine's own action ints).
* :mod:`~umtali.games.gin.research.observation`: what a seat may see, as arrays in
  [0, 1], made from its :class:`~umtali.games.gin.view.GinView` alone.
* :mod:`~umtali.games.gin.research.episode`: a hand or a game stepped by index, and the
  computer as an opponent.
* :mod:`~umtali.games.gin.research.vector`: hands stepped in batches.
* :mod:`~umtali.games.gin.research.openspiel`: one hand as an OpenSpiel game,
  ``python_gin_rummy``.

:mod:`umtali.rl` plays them through the registry: ``umtali.rl.pettingzoo.env(game=
"gin")``, ``gymnasium.make("GinRummy-v0")``, ``ParallelHandBatch(..., game="gin")``;
``rules="oklahoma"`` plays Oklahoma Gin. Three- and four-hand Gin have no encoding.

>>> ENCODING.env_id, ENCODING.num_actions, ENCODING.action_text(105)
('GinRummy-v0', 107, 'take')
"""

from __future__ import annotations

# umtali.rl first: importing it registers the environments, which reads ENCODING from
# the encoding module (the spec's hook), and that module builds on umtali.rl.shared.
import umtali.rl  # noqa: F401
from umtali.games.gin.research.encoding import ENCODING, MODULES, GinResearch, rules_of

__all__ = ["ENCODING", "MODULES", "GinResearch", "rules_of"]
