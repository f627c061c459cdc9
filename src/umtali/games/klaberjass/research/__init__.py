"""Klaberjass for researchers (layer 7): its research encoding, the registry's
``research`` hook (:data:`ENCODING`, a :class:`umtali.rl.encoding.Research`).
docs/RESEARCH.md, "Klaberjass", shows each part with an example.

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

import importlib
import random
from collections.abc import Collection
from types import ModuleType
from typing import TYPE_CHECKING, Final

import numpy as np
import numpy.typing as npt

from umtali.games.klaberjass.bots import BOTS
from umtali.games.klaberjass.rules import BOOK, KLABERJASS_PRESETS, KlaberjassRules
from umtali.kernel.cards import quoted

if TYPE_CHECKING:  # umtali.rl imports this package, to register the environments
    from umtali.rl.encoding import ArrayLayout, Batch, Episode, Observer, Opponent, RewardKind

__all__ = ["ENCODING", "MODULES", "KlaberjassResearch", "rules_of"]

MODULES: Final = ("actions", "observation", "episode", "vector", "openspiel")
"""The modules of Klaberjass's encoding, by name."""


def rules_of(rules: object) -> KlaberjassRules:
    """``rules`` as :class:`~umtali.games.klaberjass.rules.KlaberjassRules`: rules
    themselves, a preset's name, or ``None`` for the book's.

    >>> rules_of("classic").ranking, rules_of(None) is BOOK
    ('classic', True)
    """
    if rules is None:
        return BOOK
    if isinstance(rules, KlaberjassRules):
        return rules
    if isinstance(rules, str) and rules in KLABERJASS_PRESETS:
        return KLABERJASS_PRESETS[rules]
    raise ValueError(
        f"rules are KlaberjassRules or a preset's name ({', '.join(KLABERJASS_PRESETS)}),"
        f" not {quoted(rules)}"
    )


class KlaberjassResearch:
    """Klaberjass's research encoding (see the module)."""

    game: Final = "klaberjass"
    env_id: Final = "Klaberjass-v0"
    aec_name: Final = "klaberjass_v0"
    openspiel_name: Final = "python_klaberjass"
    seats: Final = 2

    @property
    def levels(self) -> Collection[str]:
        """The computer levels of :data:`~umtali.games.klaberjass.bots.BOTS`, read when
        asked (a level added there is an opponent at once)."""
        return BOTS

    def module(self, name: str) -> ModuleType:
        """The encoding's module ``name`` (one of :data:`MODULES`), imported when asked."""
        if name not in MODULES:
            raise ValueError(f"Klaberjass's encoding has no module {name!r}; it has {MODULES}")
        return importlib.import_module(f"{__name__}.{name}")

    @property
    def num_actions(self) -> int:
        from umtali.games.klaberjass.research.actions import NUM_ACTIONS

        return NUM_ACTIONS

    def action_text(self, index: int) -> str:
        from umtali.games.klaberjass.research.actions import action_text

        return action_text(index)

    def default_penalty(self, reward: RewardKind) -> float:
        from umtali.games.klaberjass.research.episode import default_penalty

        return default_penalty(reward)

    def observer(
        self, rules: object = None, *, perfect_recall: bool = False, flat: bool = True
    ) -> Observer:
        from umtali.games.klaberjass.research.observation import Observer as KlaberjassObserver

        return KlaberjassObserver(rules_of(rules), perfect_recall=perfect_recall, flat=flat)

    def episode(
        self,
        rng: random.Random,
        observer: Observer,
        *,
        rules: object = None,
        reward: RewardKind = "margin",
    ) -> Episode:
        from umtali.games.klaberjass.research.episode import Episode as KlaberjassEpisode
        from umtali.games.klaberjass.research.observation import Observer as KlaberjassObserver

        if not isinstance(observer, KlaberjassObserver):
            raise TypeError(
                f"a Klaberjass episode is seen by a Klaberjass observer, not {observer!r}"
            )
        return KlaberjassEpisode(rng, rules_of(rules), reward, observer)

    def opponent(self, level: str) -> Opponent:
        from umtali.games.klaberjass.research.episode import BotOpponent

        return BotOpponent(level)

    def batch(
        self,
        n: int,
        *,
        seed: int | None = None,
        rules: object = None,
        copy: bool = False,
        mask_buffer: npt.NDArray[np.int8] | None = None,
    ) -> Batch:
        from umtali.games.klaberjass.research.vector import HandBatch

        return HandBatch(n, seed=seed, rules=rules_of(rules), copy=copy, mask_buffer=mask_buffer)

    def batch_arrays(self) -> ArrayLayout:
        from umtali.games.klaberjass.research.vector import batch_arrays

        return batch_arrays()

    def register_openspiel(self) -> None:
        """Importing the module registers the game with ``pyspiel``."""
        self.module("openspiel")


ENCODING: Final = KlaberjassResearch()
"""Klaberjass's research encoding, as its spec names it."""
