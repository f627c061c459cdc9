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
    "WEIGHTS",
    "Situation",
    "Weights",
    "discard_danger",
    "keep_worth",
    "outs",
    "potential",
    "situation",
]

_TWO_AWAY: Final = tuple(
    (((1 << (c + 2)) if rank_of(c) <= 8 else 0) | ((1 << (c - 2)) if rank_of(c) >= 3 else 0))
    for c in range(52)
)


@dataclass(frozen=True)
class Weights:
    """The numbers the expert's judgement is made of, in points where they are points.

    The defaults are the expert's. They were tuned in duplicate games against the greedy
    level, and a coordinate search against the expert itself finds no single step of
    one of them that plays better (``benchmarks/tune_expert.py``, docs/BOTS.md). Another
    set makes another player of the same kind: ``ExpertBot(weights=...)``.

    >>> WEIGHTS.risk_of(1), WEIGHTS.risk_of(9)
    (0.7, 0.1)

    Attributes:
        play_chance: how likely a card kept in hand is to be played later.
        risk: by the opponent's hand size (0, 1, 2, ...), how likely he is to go out
            soon (0..1); ``risk_beyond`` for a larger hand.
        marriage_hope: a King or Queen whose partner may still come.
        pair_share, pair_bonus: a pair, by the share of its points a group would score
            with one of the two others, and a bonus (a pair may close a hand).
        near_share, near_bonus: a card next to or two from another of its suit in hand,
            per live neighbour, and a bonus.
        w_points: a discard's face value, what it scores when played later.
        w_outs: per unseen card that would meld a discard with the hand.
        w_danger: per point of what a discard may give the opponent.
        w_risk: how much the forfeit risk discounts a discard's face value.
        marriage_outs: what a live partner of a King or Queen counts among its outs.
        pair_danger, last_card_danger, near_danger: what a discard offers on the top
            discard: a pair (plus its points; more when he holds one card), a run.
        draw_margin: a playable discard is taken when it scores this many times what
            the average stock card would (less as his hand shrinks).
        chase_margin: the same in a game's last hand, trailing, his hand still large.
        hold_back_lead, hold_back_cards: in a game's last hand it declines to go out
            when trailing by more than this and his hand holds this many cards or more.
    """

    play_chance: float = 0.45
    # A player rarely goes out with more than five cards; with one or two he often does.
    risk: tuple[float, ...] = (1.0, 0.7, 0.55, 0.4, 0.28, 0.18)
    risk_beyond: float = 0.1
    marriage_hope: float = 4.0
    pair_share: float = 0.6
    pair_bonus: float = 0.4
    near_share: float = 0.25
    near_bonus: float = 0.3
    w_points: float = 1.0
    w_outs: float = 0.4
    w_danger: float = 0.5
    w_risk: float = 1.0
    marriage_outs: int = 2
    pair_danger: float = 2.0
    last_card_danger: float = 25.0
    near_danger: float = 1.5
    draw_margin: float = 1.0
    chase_margin: float = 2.0
    hold_back_lead: int = -10
    hold_back_cards: int = 6

    def risk_of(self, cards: int) -> float:
        """How likely a player holding ``cards`` cards is to go out soon (0..1)."""
        return self.risk[cards] if 0 <= cards < len(self.risk) else self.risk_beyond


WEIGHTS: Final = Weights()


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


def situation(view: PlayerView, w: Weights = WEIGHTS) -> Situation:
    me, other = view.player, 1 - view.player
    n = view.opponent_hand_size
    risk = 1.0 if view.went_out is not None else w.risk_of(n)
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


def potential(hand: int, sit: Situation, w: Weights = WEIGHTS) -> float:
    """The worth of keeping ``hand`` after this turn's plays, in points (may be negative).

    Near-melds count for part of what they would score; every card counts against us by
    its face value times the chance the opponent goes out and takes it.
    """
    value = 0.0
    live = sit.unseen  # a card that may still come to us
    kept = w.play_chance - sit.risk
    for c in cards_of(hand):
        rank = rank_of(c)
        points = card_points(c)
        if rank == KING and (live >> (c - 1) & 1):
            value += w.marriage_hope  # half a chance at a 20-point marriage
        elif rank == QUEEN and (live >> (c + 1) & 1):
            value += w.marriage_hope
        if rank != JACK:
            same = hand & RANK_MASKS[rank] & ~(1 << c)
            if same:
                # A pair: a group needs one of the two others, or it closes a hand.
                others = (RANK_MASKS[rank] & live).bit_count()
                value += w.pair_share * points * min(others, 2) / 2 + w.pair_bonus
            if rank <= 10:
                near = hand & (SUIT_NEIGHBOURS[c] | _TWO_AWAY[c])
                if near:
                    value += w.near_share * (SUIT_NEIGHBOURS[c] & live).bit_count() + w.near_bonus
        # A card kept is likely to be played on a later turn (and score), unless the
        # opponent goes out first and takes it.
        value += points * kept
    return value


def outs(card: int, hand: int, sit: Situation, w: Weights = WEIGHTS) -> int:
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
        n += w.marriage_outs
    if rank == QUEEN and live >> (card + 1) & 1:
        n += w.marriage_outs
    return n


def keep_worth(card: int, hand: int, sit: Situation, w: Weights = WEIGHTS) -> float:
    """What keeping ``card`` is worth (the cost of discarding it), in rough points."""
    points = card_points(card)
    return w.w_points * points * (1.0 - w.w_risk * sit.risk) + w.w_outs * outs(card, hand, sit, w)


def discard_danger(card: int, top: int | None, sit: Situation, w: Weights = WEIGHTS) -> float:
    """What discarding ``card`` on ``top`` may give the opponent, in points: the top two
    discards may be taken together, so a card that pairs with the top or runs with it in
    its suit invites a take-two (no Ace on an Ace, no 8♣ on a 7♣). When the opponent holds
    one card, a pair on top lets him take both, throw his card and go out on the pair."""
    if top is None:
        return 0.0
    rank = rank_of(card)
    if rank_of(top) == rank and rank != JACK:
        danger = w.pair_danger + card_points(card)
        if sit.opponent_cards == 1:
            danger += w.last_card_danger
        return danger
    if SUIT_NEIGHBOURS[card] >> top & 1 or _TWO_AWAY[card] >> top & 1:
        return w.near_danger
    return 0.0
