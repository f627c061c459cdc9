"""Umtali for researchers (layer 7): its research encoding, the registry's ``research``
hook (:data:`ENCODING`, a :class:`umtali.rl.encoding.Research`). docs/RESEARCH.md shows
each part with an example.

* :mod:`~umtali.games.umtali.research.actions`: the fixed action space, 14,272 indices.
* :mod:`~umtali.games.umtali.research.observation`: what a seat may see, as arrays.
* :mod:`~umtali.games.umtali.research.episode`: a hand or a game stepped by index, and
  the computer as an opponent.
* :mod:`~umtali.games.umtali.research.vector`: hands stepped in batches.
* :mod:`~umtali.games.umtali.research.policy`: a policy that learns, and plays as a bot.
* :mod:`~umtali.games.umtali.research.openspiel`: one hand as an OpenSpiel game.

:mod:`umtali.rl` plays them through the registry: its PettingZoo and Gymnasium
environments, parallel batches and benchmark engines are written once for every game's
encoding, and ``umtali.rl.actions`` and its siblings stand for these modules (Umtali
being the default game). The modules are imported when first asked for, so that
registering the environments (``import umtali.rl``) stays light.

>>> ENCODING.env_id, ENCODING.num_actions, ENCODING.action_text(3)
('Umtali-v0', 14272, 'forfeit')
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Collection
from types import ModuleType
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import numpy.typing as npt

from umtali.games.umtali.bots import BOTS
from umtali.games.umtali.rules import PRESETS, STANDARD, RuleSet
from umtali.kernel.cards import quoted

if TYPE_CHECKING:  # umtali.rl imports this package, to register the environments
    from umtali.rl.encoding import ArrayLayout, Batch, Episode, Observer, Opponent, RewardKind

__all__ = ["ENCODING", "MODULES", "UmtaliResearch", "rules_of"]

MODULES: Final = ("actions", "observation", "episode", "vector", "policy", "openspiel")
"""The modules of Umtali's encoding, by name."""


def rules_of(rules: object) -> RuleSet:
    """``rules`` as a :class:`~umtali.games.umtali.rules.RuleSet`: one itself, a preset's
    name, or ``None`` for the standard rules.

    >>> rules_of("practical").name, rules_of(None) is STANDARD
    ('practical', True)
    """
    if rules is None:
        return STANDARD
    if isinstance(rules, RuleSet):
        return rules
    if isinstance(rules, str) and rules in PRESETS:
        return PRESETS[rules]
    raise ValueError(
        f"rules are a RuleSet or a preset's name ({', '.join(PRESETS)}), not {quoted(rules)}"
    )


class UmtaliResearch:
    """Umtali's research encoding (see the module)."""

    game: Final = "umtali"
    env_id: Final = "Umtali-v0"
    aec_name: Final = "umtali_v0"
    openspiel_name: Final = "python_umtali"
    seats: Final = 2
    levels: Collection[str] = BOTS

    def module(self, name: str) -> ModuleType:
        """The encoding's module ``name`` (one of :data:`MODULES`), imported when asked."""
        if name not in MODULES:
            raise ValueError(f"Umtali's encoding has no module {name!r}; it has {MODULES}")
        return importlib.import_module(f"{__name__}.{name}")

    @property
    def num_actions(self) -> int:
        from umtali.games.umtali.research.actions import NUM_ACTIONS

        return NUM_ACTIONS

    def action_text(self, index: int) -> str:
        from umtali.games.umtali.research.vector import action_text

        return action_text(index)

    def default_penalty(self, reward: RewardKind) -> float:
        from umtali.games.umtali.research.episode import default_penalty

        return default_penalty(reward)

    def observer(
        self, rules: object = None, *, perfect_recall: bool = False, flat: bool = True
    ) -> Observer:
        from umtali.games.umtali.research.observation import Observer as UmtaliObserver

        return UmtaliObserver(rules_of(rules), perfect_recall=perfect_recall, flat=flat)

    def episode(
        self,
        rng: random.Random,
        observer: Observer,
        *,
        rules: object = None,
        reward: RewardKind = "margin",
    ) -> Episode:
        from umtali.games.umtali.research.episode import Episode as UmtaliEpisode
        from umtali.games.umtali.research.observation import Observer as UmtaliObserver

        if not isinstance(observer, UmtaliObserver):
            raise TypeError(f"an Umtali episode is seen by an Umtali observer, not {observer!r}")
        return UmtaliEpisode(rng, rules_of(rules), reward, observer)

    def opponent(self, level: str) -> Opponent:
        from umtali.games.umtali.research.episode import BotOpponent

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
        from umtali.games.umtali.research.vector import HandBatch

        return HandBatch(n, seed=seed, rules=rules_of(rules), copy=copy, mask_buffer=mask_buffer)

    def batch_arrays(self) -> ArrayLayout:
        from umtali.games.umtali.research.observation import CARD_PLANES, COUNTS, FLAGS

        layout: dict[str, tuple[tuple[int, ...], np.dtype[Any]]] = {
            "cards": ((len(CARD_PLANES), 52), np.dtype(np.uint8)),
            "pile": ((52,), np.dtype(np.uint8)),
            "counts": ((len(COUNTS),), np.dtype(np.int32)),
            "flags": ((len(FLAGS),), np.dtype(np.uint8)),
        }
        return layout

    def register_openspiel(self) -> None:
        """Importing the module registers the game with ``pyspiel``."""
        self.module("openspiel")


ENCODING: Final = UmtaliResearch()
"""Umtali's research encoding, as its spec names it."""
