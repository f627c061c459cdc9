"""Umtali for reinforcement learning: a fixed action space (:mod:`umtali.rl.actions`),
tensor observations (:mod:`umtali.rl.observation`), a PettingZoo environment
(:mod:`umtali.rl.pettingzoo`), a Gymnasium one against a computer player
(:mod:`umtali.rl.gym`) and hands stepped in batches (:mod:`umtali.rl.vector`).
docs/RESEARCH.md shows each with an example.

Everything here needs the ``rl`` extra (``pip install -e '.[rl]'``: numpy, Gymnasium,
PettingZoo); the rules core stays free of them and keeps its packed action ints.
Importing the package registers the Gymnasium environment as ``Umtali-v0``.
"""

from __future__ import annotations

import gymnasium

__all__ = ["ENV_ID"]

ENV_ID = "Umtali-v0"
"""The Gymnasium id of :class:`umtali.rl.gym.UmtaliEnv`: ``gymnasium.make("Umtali-v0")``
once :mod:`umtali.rl` (or any module of it) is imported."""

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="umtali.rl.gym:UmtaliEnv")
