"""The ``random`` level: a uniformly random legal move."""

from __future__ import annotations

import random

from umtali.games.api import Deadline
from umtali.games.umtali.moves import Move
from umtali.games.umtali.view import PlayerView

__all__ = ["RandomBot"]


class RandomBot:
    """Chooses uniformly among the legal moves. A baseline, and the benchmark's player.

    >>> from umtali.games.umtali.state import HandState
    >>> hand = HandState.from_seed(3)
    >>> RandomBot().choose(PlayerView.of(hand, 0), random.Random(0)) in hand.legal_moves
    True
    """

    name = "random"

    def choose(
        self, view: PlayerView, rng: random.Random, *, deadline: Deadline | None = None
    ) -> Move:
        if not view.legal:
            raise ValueError("the random bot was asked to move when it has no legal move")
        return view.legal[rng.randrange(len(view.legal))]
