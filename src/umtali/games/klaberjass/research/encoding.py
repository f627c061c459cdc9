"""Klaberjass's research encoding (:data:`ENCODING`, the registry's ``research`` hook):
its facts, the rest being :class:`umtali.rl.shared.GameResearch`'s, read from the modules
of :mod:`umtali.games.klaberjass.research` (see there). The package's names stand for
this module's.

>>> ENCODING.env_id, ENCODING.num_actions, ENCODING.action_text(7)
('Klaberjass-v0', 43, 'name ♣')
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

from umtali.games.klaberjass.bots import BOTS
from umtali.games.klaberjass.rules import BOOK, KLABERJASS_PRESETS, KlaberjassRules
from umtali.rl.shared import GameResearch, rules_of_preset

__all__ = ["ENCODING", "MODULES", "KlaberjassResearch", "rules_of"]

MODULES: Final = ("actions", "observation", "episode", "vector", "openspiel")
"""The modules of Klaberjass's encoding, by name."""


def rules_of(rules: object) -> KlaberjassRules:
    """``rules`` as :class:`~umtali.games.klaberjass.rules.KlaberjassRules`: rules
    themselves, a preset's name, or ``None`` for the book's.

    >>> rules_of("classic").ranking, rules_of(None) is BOOK
    ('classic', True)
    """
    return rules_of_preset(
        rules,
        default=BOOK,
        kind=KlaberjassRules,
        presets=KLABERJASS_PRESETS,
        named="KlaberjassRules",
    )


class KlaberjassResearch(GameResearch):
    """Klaberjass's research encoding (see the module)."""

    game: Final = "klaberjass"
    env_id: Final = "Klaberjass-v0"
    aec_name: Final = "klaberjass_v0"
    openspiel_name: Final = "python_klaberjass"
    seats: Final = 2
    title = "Klaberjass"
    package = "umtali.games.klaberjass.research"
    modules = MODULES
    rules_of = staticmethod(rules_of)

    @property
    def levels(self) -> Collection[str]:
        """The computer levels of :data:`~umtali.games.klaberjass.bots.BOTS`, read when
        asked (a level added there is an opponent at once)."""
        return BOTS


ENCODING: Final = KlaberjassResearch()
"""Klaberjass's research encoding, as its spec names it."""
