"""Variants of Umtali's ``search`` level for the arena, as outside policies.

Each callable builds the search as the arena builds its own level (no time limit, so a
seeded run replays the same anywhere) with one option changed, so a variant is measured
by the arena's own command against the same deals as the level::

    umtali arena benchmarks.search_variants:game_chances expert --games 40 --jobs 2 --seed 1011

Run it from the repository's folder (the arena imports the module from there).
"""

from __future__ import annotations

from umtali.games.umtali.bots import SearchBot


def game_chances() -> SearchBot:
    """The search valuing a playout before a game's last hand by the chance of winning
    the game it leaves, mostly, instead of by its points (``SearchBot(game_chances=True)``)."""
    bot = SearchBot(max_ms=float("inf"), game_chances=True)
    bot.name = "search-game-chances"
    return bot
