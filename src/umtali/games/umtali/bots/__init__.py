"""Computer players. A bot sees only a :class:`umtali.games.umtali.view.PlayerView` and an RNG."""

from collections.abc import Callable

from umtali.games.umtali.bots.base import Bot
from umtali.games.umtali.bots.expert import ExpertBot
from umtali.games.umtali.bots.greedy import GreedyBot
from umtali.games.umtali.bots.random_bot import RandomBot
from umtali.games.umtali.bots.search import SearchBot

__all__ = [
    "BOTS",
    "DEFAULT_BOT",
    "Bot",
    "ExpertBot",
    "GreedyBot",
    "RandomBot",
    "SearchBot",
    "make_bot",
]

BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "expert": ExpertBot,
    "search": SearchBot,
}
"""Bot levels by name, weakest first."""

DEFAULT_BOT = "search"
"""The level ``umtali play`` uses unless told: the strongest one measured (docs/BOTS.md)
to decide within one second."""


def make_bot(level: str, *, reproducible: bool = False) -> Bot:
    """A bot of the named level; an unknown name raises ValueError listing the levels.

    With ``reproducible``, a bot's choices depend on its view and RNG alone: the search
    level then spends its playout budget whatever the time, instead of also stopping
    at its time limit. The arena and ``umtali play`` build their bots this way, so a
    run or a seeded game replays the same on any machine.
    """
    if level == "search" and reproducible:
        return SearchBot(max_ms=float("inf"))
    try:
        factory = BOTS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; choose from {', '.join(BOTS)}") from None
    return factory()
