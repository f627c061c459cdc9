"""A fixed action space for Gin Rummy: every move the rules could ever offer is one int in
``range(NUM_ACTIONS)``, 107 in all.

The engine's packed action ints (:mod:`umtali.games.gin.state`) are already dense, so an
action index *is* the engine's int: ``GinHand.push(index)`` plays it and
``GinHand.legal_actions()`` lists legal indices. One numbering serves both presets
(standard and Oklahoma).

============  =====  =====  ===========================================================
block         base   count  what one index of it is
============  =====  =====  ===========================================================
``DISCARD``      0     52   discard a card face up and end the turn: ``DISCARD + card``
``KNOCK``       52     52   discard a card face down and knock (gin with no deadwood
                            left): ``KNOCK + card``
``DRAW``       104      1   draw the top card of the stock
``TAKE``       105      1   take the top card of the discard pile (the upcard, at first)
``PASS``       106      1   refuse the first upcard
============  =====  =====  ===========================================================

A card is its id (``suit * 13 + rank - 1``, clubs first, ace low; see
:mod:`umtali.kernel.cards`), which is also its column in the observation's card planes.

>>> from umtali.games.gin.state import GinMove
>>> [action_text(i) for i in (DRAW, TAKE, PASS, DISCARD + 12, KNOCK + 16)]
['draw', 'take', 'pass', 'discard Kc', 'knock 4d']
>>> index_of(GinMove.parse("discard 10h")), move_of(KNOCK)
(35, GinMove(kind='knock', card=0))
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from umtali.games.gin.state import DISCARD, DRAW, KNOCK, PASS, TAKE, GinHand, GinMove
from umtali.kernel.cards import quoted

__all__ = [
    "DISCARD",
    "DRAW",
    "ENGINE_ACTIONS",
    "INDEX_OF_ACTION",
    "KNOCK",
    "NUM_ACTIONS",
    "PASS",
    "TAKE",
    "ActionSpaceError",
    "action_text",
    "engine_action",
    "index_of",
    "legal_indices",
    "legal_mask",
    "move_of",
]


class ActionSpaceError(ValueError):
    """An int that is no action index, or a move that has none."""


NUM_ACTIONS: Final = PASS + 1
"""The size of the action space: 107."""
assert (DISCARD, KNOCK, DRAW, TAKE, PASS) == (0, 52, 104, 105, 106)

ENGINE_ACTIONS: Final = tuple(range(NUM_ACTIONS))
"""By action index, the engine's action int: the same int (kept for the shape every
game's action module has)."""

INDEX_OF_ACTION: Final = ENGINE_ACTIONS
"""By engine action int, its action index: the same int."""


def engine_action(index: int) -> int:
    """The engine's action int of action ``index`` (the index itself);
    :class:`ActionSpaceError` for an int outside the space.

    >>> engine_action(NUM_ACTIONS)
    Traceback (most recent call last):
    ...
    umtali.games.gin.research.actions.ActionSpaceError: an action index is an int 0..106, not 107
    """
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < NUM_ACTIONS:
        raise ActionSpaceError(
            f"an action index is an int 0..{NUM_ACTIONS - 1}, not {quoted(index)}"
        )
    return index


def move_of(index: int) -> GinMove:
    """The move of action ``index``."""
    return GinMove.of_action(engine_action(index))


def index_of(move: GinMove | int) -> int:
    """The action index of ``move`` (a move, or the engine's action int)."""
    action = move.action if isinstance(move, GinMove) else move
    if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
        raise ActionSpaceError(
            f"{quoted(move)} is no move the rules could ever offer, so it has no index in"
            " the action space"
        )
    return action


def action_text(index: int) -> str:
    """Action ``index`` in the game's notation (:meth:`GinMove.text`), which
    :meth:`GinMove.parse` reads back.

    >>> action_text(DISCARD + 9), action_text(KNOCK + 51)
    ('discard 10c', 'knock Ks')
    """
    return move_of(index).text()


def legal_indices(hand: GinHand) -> list[int]:
    """The legal action indices of ``hand`` now, in the engine's (increasing) order."""
    return hand.legal_actions()


def legal_mask(hand: GinHand) -> npt.NDArray[np.bool_]:
    """The legal actions of ``hand`` now as a boolean mask of :data:`NUM_ACTIONS`.

    >>> hand = GinHand.from_seed(7)
    >>> legal_mask(hand).nonzero()[0].tolist()
    [105, 106]
    """
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    mask[hand.legal_actions()] = True
    return mask
