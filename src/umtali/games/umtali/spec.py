"""Umtali in the registry (:mod:`umtali.games`): its facts, and where its parts live."""

from __future__ import annotations

from typing import Final

from umtali.games.api import GameSpec
from umtali.games.umtali.match import MATCH_KINDS
from umtali.games.umtali.rules import PRESETS

__all__ = ["LEVELS", "SPEC"]

LEVELS: Final = ("random", "greedy", "expert", "search")
"""The computer levels, weakest first (:data:`umtali.games.umtali.bots.BOTS` makes them)."""

SPEC: Final = GameSpec(
    name="umtali",
    title="Umtali",
    summary=(
        "The two-player rummy of colonial Rhodesia: lay melds on the table, play cards off"
        " them, and go out first."
    ),
    seat_counts=(2,),
    variants=tuple(PRESETS),
    levels=LEVELS,
    default_level="search",
    lengths=("game", *(kind for kind in MATCH_KINDS if kind != "game")),
    record_head=frozenset(("match", "first_dealer")),
    sessions="umtali.games.umtali.session:SESSIONS",
    record="umtali.games.umtali.record:BODY",
    events="umtali.games.umtali.replay:match_events",
    terminal="umtali.games.umtali.terminal:SCREEN",
    table="umtali.games.umtali.table:TABLE",
    research="umtali.games.umtali.research.encoding:ENCODING",
    arena="umtali.games.umtali.arena:ARENA",
    static="umtali",
    rules_text="umtali.games.umtali:RULES.md",
    review="umtali.games.umtali.learn.review:REVIEW",
    puzzles="umtali.games.umtali.learn.puzzles:PUZZLES",
)
