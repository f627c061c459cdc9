"""A fixed action space for Klaberjass: every move the rules could ever offer is one int in
``range(NUM_ACTIONS)``, 43 in all.

The engine packs a move as ``kind | card << 4`` (:mod:`umtali.games.klaberjass.moves`),
which leaves gaps (a card id runs to 51, the deck holding 32 of them); learners get this
dense numbering instead, and the engine keeps its own. One numbering serves every preset:
``schmeiss``, ``accept`` and ``refuse`` are simply never legal where the rules leave
schmeiss out.

============  =====  =====  ===========================================================
block         base   count  what one index of it is
============  =====  =====  ===========================================================
``TAKE``         0      1   take the turned-up suit as trump (first round)
``PASS``         1      1   pass (either round of bidding)
``SCHMEISS``     2      1   offer schmeiss (first round, where the rules allow it)
``ACCEPT``       3      1   accept schmeiss: the hand is thrown in
``REFUSE``       4      1   refuse schmeiss: the offerer makes the turned-up suit
``EXCHANGE``     5      1   give the 7 of trump for the turned-up card
``KEEP``         6      1   keep the 7 of trump
``NAME``         7      4   name a suit as trump (second round): ``NAME + suit``,
                            ♣ ♦ ♥ ♠
``PLAY``        11     32   play a card to the trick: ``PLAY + place``, the card's place
                            in :data:`CARDS` (by suit ♣ ♦ ♥ ♠, each A 7 8 9 10 J Q K)
============  =====  =====  ===========================================================

>>> from umtali.games.klaberjass.moves import KlaberjassMove
>>> [action_text(i) for i in (TAKE, PASS, NAME + 2, PLAY)]
['take', 'pass', 'name ♥', 'play A♣']
>>> index_of(KlaberjassMove.parse("play 10h")) - PLAY, move_of(index_of(KlaberjassMove.parse("Js")))
(20, KlaberjassMove(kind=8, card=49))

A card outside Klaberjass's deck has no index:

>>> index_of(KlaberjassMove.parse("play 2c"))
Traceback (most recent call last):
...
umtali.games.klaberjass.research.actions.ActionSpaceError: 'play 2♣' is no move the rules could ever offer, so it has no index in the action space
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from umtali.games.klaberjass import moves as engine
from umtali.games.klaberjass.moves import KlaberjassMove
from umtali.games.klaberjass.state import KlaberjassHand
from umtali.games.klaberjass.terms import DECK
from umtali.kernel.cards import cards_of, quoted

__all__ = [
    "ACCEPT",
    "CARDS",
    "ENGINE_ACTIONS",
    "EXCHANGE",
    "INDEX_OF_ACTION",
    "KEEP",
    "NAME",
    "NUM_ACTIONS",
    "PASS",
    "PLACE_OF_CARD",
    "PLAY",
    "REFUSE",
    "SCHMEISS",
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


CARDS: Final = tuple(cards_of(DECK))
"""Klaberjass's 32 cards in card-id order: a card's *place* is its index here, and the
observation's card columns are these places too."""

PLACE_OF_CARD: Final = {card: place for place, card in enumerate(CARDS)}
"""By card id, its place in :data:`CARDS`."""

TAKE: Final = 0
PASS: Final = 1
SCHMEISS: Final = 2
ACCEPT: Final = 3
REFUSE: Final = 4
EXCHANGE: Final = 5
KEEP: Final = 6
NAME: Final = 7
PLAY: Final = NAME + 4
NUM_ACTIONS: Final = PLAY + len(CARDS)


def _engine_actions() -> tuple[int, ...]:
    """By action index, the engine's packed action int."""
    words = (
        engine.TAKE,
        engine.PASS,
        engine.SCHMEISS,
        engine.ACCEPT,
        engine.REFUSE,
        engine.EXCHANGE,
        engine.KEEP,
    )
    names = tuple(engine.NAME | suit << 4 for suit in range(4))
    plays = tuple(engine.PLAY | card << 4 for card in CARDS)
    return (*words, *names, *plays)


ENGINE_ACTIONS: Final = _engine_actions()
"""By action index, the engine's action int (``ENGINE_ACTIONS[i]`` is what
``KlaberjassHand.push`` takes)."""
assert len(ENGINE_ACTIONS) == NUM_ACTIONS

_NO_INDEX: Final = -1
INDEX_OF_ACTION: Final = tuple(
    ENGINE_ACTIONS.index(action) if action in ENGINE_ACTIONS else _NO_INDEX
    for action in range(max(ENGINE_ACTIONS) + 1)
)
"""By engine action int, its action index (-1 for an int that is no move): a list
lookup, cheaper than a dict's for the few hundred ints there are."""


def engine_action(index: int) -> int:
    """The engine's action int of action ``index``; :class:`ActionSpaceError` for an int
    outside the space.

    >>> engine_action(PLAY + 20) == KlaberjassMove.parse("play 10h").action
    True
    """
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < NUM_ACTIONS:
        raise ActionSpaceError(
            f"an action index is an int 0..{NUM_ACTIONS - 1}, not {quoted(index)}"
        )
    return ENGINE_ACTIONS[index]


def move_of(index: int) -> KlaberjassMove:
    """The move of action ``index``."""
    return KlaberjassMove.of_action(engine_action(index))


def index_of(move: KlaberjassMove | int) -> int:
    """The action index of ``move`` (a move, or the engine's action int)."""
    action = move.action if isinstance(move, KlaberjassMove) else move
    found = INDEX_OF_ACTION[action] if 0 <= action < len(INDEX_OF_ACTION) else _NO_INDEX
    if found == _NO_INDEX:
        what = KlaberjassMove.of_action(action).text() if action >= 0 else str(action)
        raise ActionSpaceError(
            f"{what!r} is no move the rules could ever offer, so it has no index in the"
            " action space"
        )
    return found


def action_text(index: int) -> str:
    """Action ``index`` in the game's notation (:meth:`KlaberjassMove.text`).

    >>> action_text(NAME + 3), action_text(EXCHANGE)
    ('name ♠', 'exchange')
    """
    return move_of(index).text()


def legal_indices(hand: KlaberjassHand) -> list[int]:
    """The legal action indices of ``hand`` now, in the engine's order."""
    index = INDEX_OF_ACTION
    return [index[action] for action in hand.legal_actions()]


def legal_mask(hand: KlaberjassHand) -> npt.NDArray[np.bool_]:
    """The legal actions of ``hand`` now as a boolean mask of :data:`NUM_ACTIONS`."""
    mask = np.zeros(NUM_ACTIONS, np.bool_)
    mask[legal_indices(hand)] = True
    return mask
