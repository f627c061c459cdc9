"""Klaberjass for researchers (layer 7): its research encoding, the registry's
``research`` hook (:data:`ENCODING`, a :class:`umtali.rl.encoding.Research`, defined in
:mod:`~umtali.games.klaberjass.research.encoding`). docs/RESEARCH.md, "Klaberjass",
shows each part with an example.

* :mod:`~umtali.games.klaberjass.research.actions`: the fixed action space, 43 indices.
* :mod:`~umtali.games.klaberjass.research.observation`: what a seat may see, as arrays,
  made from its :class:`~umtali.games.klaberjass.view.KlaberjassView` alone.
* :mod:`~umtali.games.klaberjass.research.episode`: a hand or a game stepped by index,
  and the computer as an opponent.
* :mod:`~umtali.games.klaberjass.research.vector`: hands stepped in batches.
* :mod:`~umtali.games.klaberjass.research.openspiel`: one hand as an OpenSpiel game,
  ``python_klaberjass``.

:mod:`umtali.rl` plays them through the registry: ``umtali.rl.pettingzoo.env(game=
"klaberjass")``, ``gymnasium.make("Klaberjass-v0")``, ``ParallelHandBatch(...,
game="klaberjass")``. There is no policy module: Umtali's learning policy is its own,
reached at ``umtali.rl.policy`` as the default game's, and nothing in :mod:`umtali.rl`
asks a game for one.

>>> ENCODING.env_id, ENCODING.num_actions, ENCODING.action_text(7)
('Klaberjass-v0', 43, 'name ♣')
"""

from __future__ import annotations

# umtali.rl first: importing it registers the environments, which reads ENCODING from
# the encoding module (the spec's hook), and that module builds on umtali.rl.shared.
import umtali.rl  # noqa: F401
from umtali.games.klaberjass.research.encoding import (
    ENCODING,
    MODULES,
    KlaberjassResearch,
    rules_of,
)

__all__ = ["ENCODING", "MODULES", "KlaberjassResearch", "rules_of"]
