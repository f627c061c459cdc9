"""An outside policy for Umtali, to submit to the arena: ``make_bot`` returns a bot with
the interface of the game's own bots (``umtali.games.umtali.bots.Bot``): a ``name``, and
``choose(view, rng)`` that picks one move of ``view.legal`` from what the player may
see (the ``PlayerView``), nothing else.

Run it against every level, or one, from the repository's folder (the folder run from
is searched for the module first, as ``python -m`` does)::

    umtali arena examples.eager_policy:make_bot random,greedy --games 200 --jobs 2
    umtali arena examples.eager_policy:make_bot greedy

docs/RESEARCH.md ("Submit a policy") has the table it gives. The policy is a rule of
thumb, eager to be rid of its cards: it goes out when it can; else lays the meld that
lays the most points, or a solo card; keeps the 11th card; draws rather than takes,
unless the top discard is worth points; and discards its cheapest card face up.
"""

from __future__ import annotations

import random

from umtali.games.umtali.moves import Move, MoveKind
from umtali.games.umtali.view import PlayerView
from umtali.kernel.cards import card_points

__version__ = "1.0"
"""The arena records it with the results (a bot's own ``version`` would come first)."""

_ORDER = {
    MoveKind.PAIR: 0,  # going out
    MoveKind.MELD: 1,
    MoveKind.SOLO: 2,
    MoveKind.KEEP: 3,
    MoveKind.TAKE: 4,
    MoveKind.DRAW: 5,
    MoveKind.TAKE_TWO: 6,
    MoveKind.GIVE: 7,
    MoveKind.DISCARD: 8,
    MoveKind.FORFEIT: 9,
}


def _worth(move: Move) -> tuple[int, int]:
    """How much the policy likes ``move``: lower first, then the most points laid."""
    kind = move.kind
    points = sum(card_points(card) for card in move.cards)
    if kind is MoveKind.TAKE and points < 5:
        kind = MoveKind.TAKE_TWO  # a cheap take ranks below drawing
    if kind is MoveKind.DISCARD:
        return (_ORDER[kind] + move.face_down, points)  # the cheapest card, face up
    return (_ORDER[kind], -points)


class EagerBot:
    """The policy (see the module)."""

    name = "eager"

    def choose(self, view: PlayerView, rng: random.Random, **_: object) -> Move:
        """The move it likes best of ``view.legal``; ties go to the first."""
        return min(view.legal, key=_worth)


def make_bot() -> EagerBot:
    """What ``umtali arena examples.eager_policy:make_bot`` calls, once a game."""
    return EagerBot()
