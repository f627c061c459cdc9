"""Umtali's research encoding (:data:`ENCODING`, the registry's ``research`` hook): its
facts and what its modules keep in their own places, the rest being
:class:`umtali.rl.shared.GameResearch`'s, read from the modules of
:mod:`umtali.games.umtali.research` (see there). The package's names stand for this
module's.

>>> ENCODING.env_id, ENCODING.num_actions, ENCODING.action_text(3)
('Umtali-v0', 14272, 'forfeit')
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Final

from umtali.games.umtali.bots import BOTS
from umtali.games.umtali.rules import PRESETS, STANDARD, RuleSet
from umtali.rl.shared import GameResearch, rules_of_preset

if TYPE_CHECKING:
    pass

__all__ = ["ENCODING", "MODULES", "UmtaliResearch", "rules_of"]

MODULES: Final = ("actions", "observation", "episode", "vector", "policy", "openspiel")
"""The modules of Umtali's encoding, by name."""


def rules_of(rules: object) -> RuleSet:
    """``rules`` as a :class:`~umtali.games.umtali.rules.RuleSet`: one itself, a preset's
    name, or ``None`` for the standard rules.

    >>> rules_of("practical").name, rules_of(None) is STANDARD
    ('practical', True)
    """
    return rules_of_preset(
        rules, default=STANDARD, kind=RuleSet, presets=PRESETS, named="a RuleSet"
    )


class UmtaliResearch(GameResearch):
    """Umtali's research encoding (see the module)."""

    game: Final = "umtali"
    env_id: Final = "Umtali-v0"
    aec_name: Final = "umtali_v0"
    openspiel_name: Final = "python_umtali"
    seats: Final = 2
    levels: Collection[str] = BOTS
    title = "Umtali"
    package = "umtali.games.umtali.research"
    modules = MODULES
    rules_of = staticmethod(rules_of)

    def action_text(self, index: int) -> str:
        """Action ``index`` in Umtali's notation (its ``vector`` module's)."""
        from umtali.games.umtali.research.vector import action_text

        return action_text(index)


ENCODING: Final = UmtaliResearch()
"""Umtali's research encoding, as its spec names it."""
