"""Heuristic judgements shared by the stronger bots, all from what a player may see.

* :func:`potential`: what the cards left in hand promise (near-melds, marriages), less
  what they would cost if the opponent went out and took them.
* :func:`discard_danger`: what a discard offers the opponent.

Weights are in points, the unit of the score, so the terms add up meaningfully.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from umtali.games.umtali.melds import SUIT_NEIGHBOURS
from umtali.games.umtali.view import PlayerView
from umtali.kernel.cards import JACK, KING, QUEEN, RANK_MASKS, card_points, cards_of, rank_of

__all__ = [
    "Situation",
    "discard_danger",
    "keep_worth",
    "outs",
    "potential",
    "risk_of",
    "situation",
]

PLAY_CHANCE: Final = 0.45
"""How likely a card kept in hand is to be played later, for lack of better knowledge."""

_TWO_AWAY: Final = tuple(
    (((1 << (c + 2)) if rank_of(c) <= 8 else 0) | ((1 << (c - 2)) if rank_of(c) >= 3 else 0))
    for c in range(52)
)


@dataclass(frozen=True)
class Situation:
    """Public facts a bot weighs, computed once per decision.

    Attributes:
        unseen: cards the player cannot place (opponent's unknown cards and the stock).
        open_mask: cards the table accepts as solos.
        opponent_known: cards the opponent is known to hold.
        opponent_cards: the opponent's hand size.
        risk: how likely the opponent is to go out soon (0..1): forfeits weigh this much.
        lead: my game total plus table points, minus the opponent's.
        last_hand: whether this is the last hand of the game.
    """

    unseen: int
    open_mask: int
    opponent_known: int
    opponent_cards: int
    risk: float
    lead: int
    last_hand: bool


def risk_of(cards: int) -> float:
    """How likely a player holding ``cards`` cards is to go out soon (0..1).

    >>> risk_of(1), risk_of(9)
    (0.7, 0.1)
    """
    # A player rarely goes out with more than five cards; with one or two he often does.
    return _RISK.get(cards, 0.1)


_RISK: Final = {0: 1.0, 1: 0.7, 2: 0.55, 3: 0.4, 4: 0.28, 5: 0.18}


def situation(view: PlayerView) -> Situation:
    me, other = view.player, 1 - view.player
    n = view.opponent_hand_size
    risk = 1.0 if view.went_out is not None else risk_of(n)
    lead = view.game_scores[me] + view.points[me] - view.game_scores[other] - view.points[other]
    return Situation(
        unseen=view.unseen().mask,
        open_mask=view.open_mask(),
        opponent_known=view.opponent_known.mask,
        opponent_cards=n,
        risk=risk,
        lead=lead,
        last_hand=view.hands_left == 0,
    )


def potential(hand: int, sit: Situation) -> float:
    """The worth of keeping ``hand`` after this turn's plays, in points (may be negative).

    Near-melds count for part of what they would score; every card counts against us by
    its face value times the chance the opponent goes out and takes it.
    """
    value = 0.0
    live = sit.unseen  # a card that may still come to us
    for c in cards_of(hand):
        rank = rank_of(c)
        points = card_points(c)
        if rank == KING and (live >> (c - 1) & 1):
            value += 4.0  # half a chance at a 20-point marriage
        elif rank == QUEEN and (live >> (c + 1) & 1):
            value += 4.0
        if rank != JACK:
            same = hand & RANK_MASKS[rank] & ~(1 << c)
            if same:
                # A pair: a group needs one of the two others, or it closes a hand.
                others = (RANK_MASKS[rank] & live).bit_count()
                value += 0.6 * points * min(others, 2) / 2 + 0.4
            if rank <= 10:
                near = hand & (SUIT_NEIGHBOURS[c] | _TWO_AWAY[c])
                if near:
                    value += 0.5 * (SUIT_NEIGHBOURS[c] & live).bit_count() * 0.5 + 0.3
        # A card kept is likely to be played on a later turn (and score), unless the
        # opponent goes out first and takes it.
        value += points * (PLAY_CHANCE - sit.risk)
    return value


# Discard weights, tuned in duplicate games against the greedy level (docs/BOTS.md).
W_POINTS: Final = 1.0  # a card's face value: what it scores when played later
W_OUTS: Final = 0.4  # per unseen card that would meld it with the hand
W_DANGER: Final = 0.5  # per point of what the discard may give the opponent
W_RISK: Final = 1.0  # how much the forfeit risk discounts a card's face value


def outs(card: int, hand: int, sit: Situation) -> int:
    """Unseen cards that would make ``card`` part of a meld with the hand."""
    rank = rank_of(card)
    live = sit.unseen
    n = 0
    if hand & RANK_MASKS[rank] & ~(1 << card):
        n += (RANK_MASKS[rank] & live).bit_count()
    if rank <= 10:
        neighbours = SUIT_NEIGHBOURS[card]
        if hand & (neighbours | _TWO_AWAY[card]):
            n += (neighbours & live).bit_count() + (_TWO_AWAY[card] & live).bit_count()
    if rank == KING and live >> (card - 1) & 1:
        n += 2
    if rank == QUEEN and live >> (card + 1) & 1:
        n += 2
    return n


def keep_worth(card: int, hand: int, sit: Situation) -> float:
    """What keeping ``card`` is worth (the cost of discarding it), in rough points."""
    points = card_points(card)
    return W_POINTS * points * (1.0 - W_RISK * sit.risk) + W_OUTS * outs(card, hand, sit)


def discard_danger(card: int, top: int | None, sit: Situation) -> float:
    """What discarding ``card`` on ``top`` may give the opponent, in points: the top two
    discards may be taken together, so a card that pairs with the top or runs with it in
    its suit invites a take-two (no Ace on an Ace, no 8♣ on a 7♣). When the opponent holds
    one card, a pair on top lets him take both, throw his card and go out on the pair."""
    if top is None:
        return 0.0
    rank = rank_of(card)
    if rank_of(top) == rank and rank != JACK:
        danger = 2.0 + card_points(card)
        if sit.opponent_cards == 1:
            danger += 25.0
        return danger
    if SUIT_NEIGHBOURS[card] >> top & 1 or _TWO_AWAY[card] >> top & 1:
        return 1.5
    return 0.0
