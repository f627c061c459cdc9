"""Computer players. A bot sees only a :class:`umtali.view.PlayerView` and an RNG."""

from collections.abc import Callable

from umtali.bots.base import Bot
from umtali.bots.expert import ExpertBot
from umtali.bots.greedy import GreedyBot
from umtali.bots.random_bot import RandomBot
from umtali.bots.search import SearchBot

__all__ = ["BOTS", "Bot", "ExpertBot", "GreedyBot", "RandomBot", "SearchBot", "make_bot"]

BOTS: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "expert": ExpertBot,
    "search": SearchBot,
}
"""Bot levels by name."""


def make_bot(level: str) -> Bot:
    """A bot of the named level; an unknown name raises ValueError listing the levels."""
    try:
        factory = BOTS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}; choose from {', '.join(BOTS)}") from None
    return factory()
