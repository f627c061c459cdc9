"""The ``expert`` level: the book's strategy, and a look one step ahead.

* As dealer it keeps the 11th card: the first player is sure of two turns.
* Always takes two discards when it may. Takes from the pile only when the card named is
  played at once (the top card, or under seed 003 the deepest of a deep take, weighing
  the cards that come with it by the forfeit risk) and scores at least what the average
  stock card would (``Weights.draw_margin``), a bar that drops
  as the opponent's hand shrinks (a sure play now beats a hoped-for one when the hand
  may end soon) and rises in the last hand of a game when trailing with time left
  (``Weights.chase_margin``: small sure points do not turn the game, a lucky draw might).
* In the meld phase it steers toward the plan worth most: points now and what the
  remaining hand promises (so K and Q are kept for a marriage over a group of Queens
  when that scores more).
* Goes out whenever it can, laying the last discard face down so the opponent must draw
  blind; near the end of a game it declines to go out only when that would seal a loss.
* Otherwise discards the card whose loss costs least: its worth to the hand, plus what
  it would hand the opponent (a card the table accepts, half of a marriage, the second of
  a pair or run on the top discard), less the forfeit risk of keeping it.
"""

from __future__ import annotations

import random

from umtali.games.api import Deadline
from umtali.games.umtali.bots.evaluate import (
    WEIGHTS,
    Situation,
    Weights,
    discard_danger,
    keep_worth,
    potential,
    situation,
)
from umtali.games.umtali.melds import (
    SOLO_ACCEPTS,
    column_kind,
    column_points,
    meld_accepts,
    meld_plans,
)
from umtali.games.umtali.moves import Move, MoveKind
from umtali.games.umtali.view import PlayerView
from umtali.kernel.cards import JACKS, card_points, cards_of, rank_of

__all__ = ["ExpertBot"]


def _after_plays(hand: int, open_mask: int, multiplier: int, sit: Situation, w: Weights) -> float:
    """The best worth reachable by the meld phase from ``hand``: points + potential."""
    best = None
    for plan in meld_plans(hand, open_mask, multiplier):
        worth = plan.points + potential(plan.left, sit, w)
        if best is None or worth > best:
            best = worth
    return potential(hand, sit, w) if best is None else best


def _points_now(hand: int, open_mask: int, multiplier: int) -> int:
    plans = meld_plans(hand, open_mask, multiplier)
    return plans[0].points if plans else 0


def _take_margin(sit: Situation, w: Weights = WEIGHTS) -> float:
    """How much better than an average stock card a playable discard must be to take it.

    The sooner the opponent may go out, the more a sure play now is worth against one
    that may come later; in the last hand, trailing with time left, it is worth less.
    """
    if sit.last_hand and sit.lead < 0 and sit.opponent_cards >= 5:
        return w.chase_margin
    return w.draw_margin * (1.0 - sit.risk)


class ExpertBot:
    """Plays the book's strategy with a one-step look ahead; see the module docstring.
    ``weights`` are the numbers its judgement is made of (the expert's by default).

    >>> from umtali.games.umtali.lessons import LESSONS
    >>> from umtali.games.umtali.state import HandState
    >>> hand = HandState(LESSONS[3].deck(), dealer=1)
    >>> bot = ExpertBot()
    >>> bot.choose(PlayerView.of(hand, 1), random.Random(0))
    Move.keep()
    """

    name = "expert"

    def __init__(self, weights: Weights = WEIGHTS) -> None:
        self.weights = weights

    def choose(
        self, view: PlayerView, rng: random.Random, *, deadline: Deadline | None = None
    ) -> Move:
        legal = view.legal
        if not legal:
            raise ValueError("the expert bot was asked to move when it has no legal move")
        if len(legal) == 1:
            return legal[0]
        kinds = {m.kind for m in legal}
        if MoveKind.KEEP in kinds:
            return Move.keep()
        sit = situation(view, self.weights)
        if kinds & {MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO}:
            return self._draw(view, legal, sit)
        plays = [m for m in legal if m.kind in (MoveKind.MELD, MoveKind.SOLO)]
        if plays:
            return self._play(view, plays, sit)
        return self._end(view, legal, sit)

    # -- draw ------------------------------------------------------------------------
    def _draw(self, view: PlayerView, legal: tuple[Move, ...], sit: Situation) -> Move:
        """Take two when allowed; take one only when it is played at once and scores at
        least what a card from the stock is expected to; otherwise draw from the stock."""
        for move in legal:
            if move.kind is MoveKind.TAKE_TWO:
                return move
        hand = view.hand.mask
        multiplier = view.rules.marriage_multiplier
        open_mask = sit.open_mask
        draw = next((m for m in legal if m.kind is MoveKind.DRAW), None)
        take, score = self._best_take(view, legal, sit)
        if take is None:
            # Nothing taken would be played at once.
            return draw or next(m for m in legal if m.kind is MoveKind.TAKE)
        if draw is None:
            return take
        base = _points_now(hand, open_mask, multiplier)
        gain = score - base
        stock = sit.unseen & ~sit.opponent_known
        # A card the table does not accept, not a Jack, and neither of a rank in hand nor
        # next to a hand card in its suit, cannot be played this turn: it adds nothing.
        playable = open_mask | JACKS
        for c in cards_of(hand):
            playable |= SOLO_ACCEPTS[c]
        expected = sum(
            _points_now(hand | 1 << c, open_mask, multiplier) - base
            for c in cards_of(stock & playable)
        ) / max(1, stock.bit_count())
        return take if gain >= _take_margin(sit, self.weights) * expected else draw

    def _best_take(
        self, view: PlayerView, legal: tuple[Move, ...], sit: Situation
    ) -> tuple[Move | None, float]:
        """The take whose best meld plan plays the card it names at once and scores most,
        with what that plan scores; (``None``, 0) when no take's card would be played.

        Under the standard rules that is the top discard alone. A deep take (seed 003)
        brings the cards above the one named too: those its plan leaves in hand count
        against it by the chance of being forfeited (``sit.risk``)."""
        hand = view.hand.mask
        multiplier = view.rules.marriage_multiplier
        best: Move | None = None
        best_score = 0.0
        for move in legal:
            if move.kind is not MoveKind.TAKE:
                continue
            card = move.cards[0]
            got = view.cards_taken_by(move).mask
            plans = meld_plans(hand | got, sit.open_mask, multiplier)
            if not plans or plans[0].left >> card & 1:
                continue
            stranded = plans[0].left & got
            score = plans[0].points - sit.risk * sum(card_points(c) for c in cards_of(stranded))
            if best is None or score > best_score:
                best, best_score = move, score
        return best, best_score

    # -- meld phase ------------------------------------------------------------------
    def _play(self, view: PlayerView, plays: list[Move], sit: Situation) -> Move:
        hand = view.hand.mask
        multiplier = view.rules.marriage_multiplier
        best_move = plays[0]
        best_worth = float("-inf")
        seen: set[tuple[int, int]] = set()
        for move in plays:
            mask = 0
            for c in move.cards:
                mask |= 1 << c
            if move.kind is MoveKind.MELD:
                gain = column_points(column_kind(mask), mask, multiplier)
                after = sit.open_mask | meld_accepts(mask)
            else:
                gain = card_points(move.cards[0])
                after = sit.open_mask | SOLO_ACCEPTS[move.cards[0]]
            key = (mask, after)
            if key in seen:  # the same card off another target: same worth
                continue
            seen.add(key)
            worth = gain + _after_plays(hand & ~mask, after, multiplier, sit, self.weights)
            if worth > best_worth:
                best_worth, best_move = worth, move
        return best_move

    # -- ending the turn -------------------------------------------------------------
    def _end(self, view: PlayerView, legal: tuple[Move, ...], sit: Situation) -> Move:
        outs = [
            m
            for m in legal
            if m.kind is MoveKind.PAIR or (m.kind is MoveKind.DISCARD and len(view.hand) == 1)
        ]
        discards = [m for m in legal if m.kind is MoveKind.DISCARD and not m.face_down]
        if outs and not self._hold_back(view, sit, discards):
            # Face down stops the opponent drawing it on his last turn.
            return max(outs, key=lambda m: (m.face_down, m.kind is MoveKind.PAIR))
        if discards:
            return self._discard(view, discards, sit)
        forfeit = [m for m in legal if m.kind is MoveKind.FORFEIT]
        return outs[0] if outs else forfeit[0] if forfeit else legal[0]

    def _hold_back(self, view: PlayerView, sit: Situation, discards: list[Move]) -> bool:
        """Whether to keep playing instead of going out: only in the last hand of a game,
        when going out now would still lose it and the opponent is far from going out."""
        if not discards or not sit.last_hand or view.last_turn:
            return False
        w = self.weights
        return sit.lead < w.hold_back_lead and sit.opponent_cards >= w.hold_back_cards

    def _discard(self, view: PlayerView, discards: list[Move], sit: Situation) -> Move:
        return self.rank_discards(view, discards, sit)[0]

    def rank_discards(self, view: PlayerView, discards: list[Move], sit: Situation) -> list[Move]:
        """The discards, best first: what keeping each card is worth, plus what it would
        hand the opponent; on a tie the lowest rank goes first."""
        hand = view.hand.mask
        top = view.top_discard()
        w = self.weights

        def cost(move: Move) -> float:
            c = move.cards[0]
            worth = keep_worth(c, hand, sit, w) + w.w_danger * discard_danger(c, top, sit, w)
            return worth + 0.001 * rank_of(c)

        return sorted(discards, key=cost)
