"""Umtali for researchers (layer 7): its research encoding, the registry's ``research``
hook (:data:`ENCODING`, a :class:`umtali.rl.encoding.Research`, defined in
:mod:`~umtali.games.umtali.research.encoding`). docs/RESEARCH.md shows each part with
an example.

* :mod:`~umtali.games.umtali.research.actions`: the fixed action space, 14,272 indices.
* :mod:`~umtali.games.umtali.research.observation`: what a seat may see, as arrays.
* :mod:`~umtali.games.umtali.research.episode`: a hand or a game stepped by index, and
  the computer as an opponent.
* :mod:`~umtali.games.umtali.research.vector`: hands stepped in batches.
* :mod:`~umtali.games.umtali.research.policy`: a policy that learns, and plays as a bot.
* :mod:`~umtali.games.umtali.research.openspiel`: one hand as an OpenSpiel game.
* :mod:`~umtali.games.umtali.research.network`: a learned baseline, a small network
  over the observation tensor, with its shipped weights and its bot.

:mod:`umtali.rl` plays them through the registry: its PettingZoo and Gymnasium
environments, parallel batches and benchmark engines are written once for every game's
encoding, and ``umtali.rl.actions`` and its siblings stand for these modules (Umtali
being the default game). The modules are imported when first asked for, so that
registering the environments (``import umtali.rl``) stays light.

>>> ENCODING.env_id, ENCODING.num_actions, ENCODING.action_text(3)
('Umtali-v0', 14272, 'forfeit')
"""

from __future__ import annotations

# umtali.rl first: importing it registers the environments, which reads ENCODING from
# the encoding module (the spec's hook), and that module builds on umtali.rl.shared.
import umtali.rl  # noqa: F401
from umtali.games.umtali.research.encoding import ENCODING, MODULES, UmtaliResearch, rules_of

__all__ = ["ENCODING", "MODULES", "UmtaliResearch", "rules_of"]
