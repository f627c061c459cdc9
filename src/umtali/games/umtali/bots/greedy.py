"""The ``greedy`` level: the most points now, and nothing cleverer.

* keeps the 11th card as dealer;
* takes two discards whenever it may (both are then played at once); takes one discard
  only when the best meld plan with it plays it at once; otherwise draws;
* in the meld phase, plays toward the meld plan that scores most now;
* goes out whenever it can (a final discard face down, so the opponent must draw blind);
* otherwise discards its lowest-value card.
"""

from __future__ import annotations

import random

from umtali.games.api import Deadline
from umtali.games.umtali.melds import (
    SOLO_ACCEPTS,
    column_kind,
    column_points,
    meld_accepts,
    meld_plans,
)
from umtali.games.umtali.moves import Move, MoveKind
from umtali.games.umtali.view import PlayerView
from umtali.kernel.cards import card_points, cards_of, rank_of

__all__ = ["GreedyBot"]


def _best_points(hand: int, open_mask: int, multiplier: int) -> int:
    plans = meld_plans(hand, open_mask, multiplier)
    return plans[0].points if plans else 0


class GreedyBot:
    """Most points now; see the module docstring.

    >>> from umtali.games.umtali.lessons import LESSONS
    >>> from umtali.games.umtali.state import HandState
    >>> hand = HandState(LESSONS[0].deck(), dealer=1)
    >>> GreedyBot().choose(PlayerView.of(hand, 1), random.Random(0))
    Move.keep()
    """

    name = "greedy"

    def choose(
        self, view: PlayerView, rng: random.Random, *, deadline: Deadline | None = None
    ) -> Move:
        legal = view.legal
        if not legal:
            raise ValueError("the greedy bot was asked to move when it has no legal move")
        kinds = {m.kind for m in legal}
        if MoveKind.KEEP in kinds:
            return Move.keep()
        if kinds & {MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO}:
            return self._draw(view, legal)
        plays = [m for m in legal if m.kind in (MoveKind.MELD, MoveKind.SOLO)]
        if plays:
            return self._play(view, plays)
        return self._end(legal)

    def _draw(self, view: PlayerView, legal: tuple[Move, ...]) -> Move:
        for move in legal:
            if move.kind is MoveKind.TAKE_TWO:
                return move
        multiplier = view.rules.marriage_multiplier
        hand = view.hand.mask
        open_mask = view.open_mask()
        best: tuple[int, int] | None = None
        choice = None
        for index, move in enumerate(legal):
            if move.kind is not MoveKind.TAKE:
                continue
            # The named card must be played at once: the top discard under the standard
            # rules, or the deepest card of a deep take (seed 003), which brings the cards
            # above it too; those left unplayed count against it on the last turn, where
            # they are forfeited.
            card = move.cards[0]
            got = view.cards_taken_by(move).mask
            plans = meld_plans(hand | got, open_mask, multiplier)
            if plans and not plans[0].left >> card & 1:
                stranded = plans[0].left & got if view.last_turn else 0
                gain = plans[0].points - sum(card_points(c) for c in cards_of(stranded))
                if best is None or (gain, -index) > best:
                    best, choice = (gain, -index), move
        if choice is not None:
            return choice
        for move in legal:
            if move.kind is MoveKind.DRAW:
                return move
        return legal[0]  # the stock is empty on a last turn: the take is the only draw

    def _play(self, view: PlayerView, plays: list[Move]) -> Move:
        hand = view.hand.mask
        open_mask = view.open_mask()
        multiplier = view.rules.marriage_multiplier
        best: tuple[int, int] | None = None
        choice = plays[0]
        for index, move in enumerate(plays):
            mask = sum(1 << c for c in move.cards)
            if move.kind is MoveKind.MELD:
                gain = column_points(column_kind(mask), mask, multiplier)
                after = open_mask | meld_accepts(mask)
            else:
                gain = card_points(move.cards[0])
                after = open_mask | SOLO_ACCEPTS[move.cards[0]]
            score = (gain + _best_points(hand & ~mask, after, multiplier), -index)
            if best is None or score > best:
                best, choice = score, move
        return choice

    def _end(self, legal: tuple[Move, ...]) -> Move:
        outs = [
            m
            for m in legal
            if m.kind is MoveKind.PAIR or (m.kind is MoveKind.DISCARD and m.face_down)
        ]
        if outs:
            # Prefer a face-down discard: it forces the opponent's last draw from the stock.
            return max(outs, key=lambda m: (m.face_down, m.kind is MoveKind.PAIR))
        discards = [m for m in legal if m.kind is MoveKind.DISCARD]
        if discards:
            return min(discards, key=lambda m: (card_points(m.cards[0]), rank_of(m.cards[0])))
        return legal[0]  # forfeit: nothing else is possible
