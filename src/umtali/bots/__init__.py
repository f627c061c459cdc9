"""Computer players. A bot sees only a :class:`umtali.view.PlayerView` and an RNG."""

from umtali.bots.base import Bot
from umtali.bots.random_bot import RandomBot

__all__ = ["Bot", "RandomBot"]
