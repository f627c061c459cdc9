"""Gin Rummy's research encoding (:data:`ENCODING`, the registry's ``research`` hook):
its facts, the rest being :class:`umtali.rl.shared.GameResearch`'s, read from the modules
of :mod:`umtali.games.gin.research` (see there). The package's names stand for this
module's.

>>> ENCODING.env_id, ENCODING.num_actions, ENCODING.action_text(104)
('GinRummy-v0', 107, 'draw')
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

from umtali.games.gin.bots import GIN_BOTS
from umtali.games.gin.rules import GIN, GIN_PRESETS, GinRules
from umtali.rl.shared import GameResearch, rules_of_preset

__all__ = ["ENCODING", "MODULES", "GinResearch", "rules_of"]

MODULES: Final = ("actions", "observation", "episode", "vector", "openspiel")
"""The modules of Gin Rummy's encoding, by name."""


def rules_of(rules: object) -> GinRules:
    """``rules`` as :class:`~umtali.games.gin.rules.GinRules`: rules themselves, a
    preset's name (``"standard"``, ``"oklahoma"``), or ``None`` for the standard game.

    >>> rules_of("oklahoma").oklahoma, rules_of(None) is GIN
    (True, True)
    """
    return rules_of_preset(rules, default=GIN, kind=GinRules, presets=GIN_PRESETS, named="GinRules")


class GinResearch(GameResearch):
    """Gin Rummy's research encoding (see the module): the two-hand game."""

    game: Final = "gin"
    env_id: Final = "GinRummy-v0"
    aec_name: Final = "gin_rummy_v0"
    openspiel_name: Final = "python_gin_rummy"
    seats: Final = 2
    title = "Gin Rummy"
    package = "umtali.games.gin.research"
    modules = MODULES
    rules_of = staticmethod(rules_of)

    @property
    def levels(self) -> Collection[str]:
        """The computer levels of :data:`~umtali.games.gin.bots.GIN_BOTS`, read when
        asked (a level added there is an opponent at once)."""
        return GIN_BOTS


ENCODING: Final = GinResearch()
"""Gin Rummy's research encoding, as its spec names it."""
