"""Klaberjass in the registry (:mod:`umtali.games`): its facts, and where its parts live."""

from __future__ import annotations

from typing import Final

from umtali.games.api import GameSpec
from umtali.games.klaberjass.rules import KLABERJASS_PRESETS
from umtali.games.klaberjass.terms import DECK

__all__ = ["LEVELS", "SPEC"]

LEVELS: Final = ("random", "greedy", "expert", "search")
"""The computer levels, weakest first (:data:`umtali.games.klaberjass.bots.BOTS`)."""

SPEC: Final = GameSpec(
    name="klaberjass",
    title="Klaberjass",
    summary=(
        "Bid for trump, declare sequences and bella, and take the points in nine tricks,"
        " to 500; the book's ranking or the classic one."
    ),
    seat_counts=(2,),
    variants=tuple(KLABERJASS_PRESETS),
    levels=LEVELS,
    default_level="search",
    deck_size=32,
    deck_cards=DECK,
    sessions="umtali.games.klaberjass.session:SESSIONS",
    record="umtali.games.klaberjass.record:BODY",
    events="umtali.games.klaberjass.replay:match_events",
    terminal="umtali.games.klaberjass.terminal:SCREEN",
    arena="umtali.games.klaberjass.arena:ARENA",
    table="umtali.games.klaberjass.table:TABLE",
    research="umtali.games.klaberjass.research.encoding:ENCODING",
    static="klaberjass",
    rules_text="umtali.games.klaberjass:RULES.md",
)
