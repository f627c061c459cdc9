"""Umtali's engine in ``umtali bench --peers`` (:mod:`umtali.sim.peers`): uniform-random
hands played through its public interfaces.

* ``umtali (action ints)``: :meth:`HandState.legal_actions` and :meth:`HandState.push`
  on packed ints, the interface meant for search and learning.
* ``umtali (Move objects)``: :attr:`HandState.legal_moves` read as typed moves, one
  chosen and pushed; the interface of a program that shows moves to people.

>>> import random
>>> UmtaliActions().play_hand(random.Random(8)) == UmtaliMoves().play_hand(random.Random(8))
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from umtali.games.umtali.moves import Move
from umtali.games.umtali.state import HandState
from umtali.kernel.deck import shuffled_deck
from umtali.sim.peers import HandEngine

__all__ = ["UmtaliActions", "UmtaliMoves"]


def _move_list(state: HandState) -> list[Move]:
    return list(state.legal_moves)


class UmtaliActions(HandEngine):
    """Umtali's engine on packed action ints (see the module)."""

    name = "umtali (action ints)"
    read_legal: Callable[[HandState], Sequence[int | Move]] = staticmethod(HandState.legal_actions)

    def deal(self, rng: random.Random) -> HandState:
        return HandState(shuffled_deck(rng), rng.randrange(2))


class UmtaliMoves(UmtaliActions):
    """Umtali's engine on typed moves (see the module)."""

    name = "umtali (Move objects)"
    read_legal = staticmethod(_move_list)
