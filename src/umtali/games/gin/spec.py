"""Gin Rummy in the registry (:mod:`umtali.games`): its facts, and where its parts live.
Two, three or four play it: three- and four-hand are seat counts of the one game."""

from __future__ import annotations

from typing import Final

from umtali.games.api import GameSpec
from umtali.games.gin.rules import GIN_PRESETS

__all__ = ["LEVELS", "SPEC"]

LEVELS: Final = ("random", "greedy", "expert", "search")
"""The computer levels, weakest first (:data:`umtali.games.gin.bots.GIN_BOTS` makes them)."""

SPEC: Final = GameSpec(
    name="gin",
    title="Gin Rummy",
    summary=(
        "Form your hand into melds and knock when your deadwood is low, to 100 points;"
        " Oklahoma Gin as a variant, and three- or four-hand play."
    ),
    seat_counts=(2, 3, 4),
    variants=tuple(GIN_PRESETS),
    levels=LEVELS,
    default_level="expert",
    record_head=frozenset(("first_dealer", "party")),
    sessions="umtali.games.gin.sessions:SESSIONS",
    record="umtali.games.gin.record:BODY",
    events="umtali.games.gin.replay:record_events",
    terminal="umtali.games.gin.terminal:SCREEN",
    table="umtali.games.gin.table:TABLE",
    arena="umtali.games.gin.arena:ARENA",
    static="gin",
    rules_text="umtali.games.gin:RULES.md",
)
