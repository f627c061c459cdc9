"""The bot protocol: a bot chooses a legal move from what its player may see."""

from __future__ import annotations

import random
from typing import Protocol

from umtali.games.api import Deadline
from umtali.games.umtali.moves import Move
from umtali.games.umtali.view import PlayerView

__all__ = ["Bot"]


class Bot(Protocol):
    """Anything with a name that picks a move from a player view.

    A bot is never handed the full state: ``view`` holds only what its player may know
    (R11), and ``view.legal`` lists the moves it may choose from.
    """

    name: str

    def choose(
        self, view: PlayerView, rng: random.Random, *, deadline: Deadline | None = None
    ) -> Move:
        """A move from ``view.legal``, due by ``deadline`` if one is given (a bot that
        searches stops there with the best it has found; the others ignore it)."""
        ...
