"""Deals a Gin Rummy player could be in, from his view alone: what a search plays out.

:func:`deal_world` rebuilds the whole hand from a :class:`~umtali.games.gin.view.GinView`:
the first upcard and every move are public, so the discard pile at every moment, and
every card each player took from it, are known; what is not is the other player's
hidden cards, the stock's order, and which of each player's cards came from the stock
when. The other's hidden cards are drawn from the cards the player has not seen,
weighted by what the other did (:func:`belief`); the rest make the stock, shuffled; each
player's stock draws are then placed so that every card he discarded was in his hand
when he discarded it. The hand returned shows the player exactly his view.

:func:`belief` reads the other player's moves as a card player does: a card he took
from the pile says he could use it, so cards of its rank and its neighbours in its suit
are likelier in his hand; a card he discarded, or left on the pile to draw from the
stock, says he could not, so its rank and neighbours are less likely.

>>> from umtali.games.gin.state import GinHand
>>> hand = GinHand.from_seed(3)
>>> for text in ("pass", "pass", "draw"):
...     hand.push_text(text)
>>> view = GinView.of(hand, hand.player)
>>> world = deal_world(view, random.Random(0))
>>> GinView.of(world, view.seat) == view
True
"""

from __future__ import annotations

import random
from typing import Final

from umtali.games.gin.state import DRAW, PASS, TAKE, UPCARD_INDEX, GinHand
from umtali.games.gin.view import GinView
from umtali.kernel.cards import RANK_MASKS, SUIT_MASKS, cards_of, rank_of, suit_of

__all__ = ["belief", "deal_world", "public_events"]

ALL_CARDS: Final = (1 << 52) - 1

TOOK_RANK, TOOK_NEXT, TOOK_GAP = 2.0, 1.8, 1.3
"""How much likelier a card is in the other's hand for each card he took (and holds)
of its rank, next to it in its suit, or two away in its suit."""
THREW_RANK, THREW_NEXT, THREW_GAP = 0.55, 0.6, 0.85
"""How much less likely for each card he discarded of its rank, next to it, two away."""
LEFT_RANK, LEFT_NEXT = 0.65, 0.7
"""How much less likely for each pile card he left there to draw from the stock."""

_Event = tuple[int, int, int]
"""(player, action, card): a move with the card it took or threw (-1 for a draw)."""


def public_events(view: GinView) -> list[_Event]:
    """Every move of the hand with the card each take took: the pile rebuilt move by
    move from the first upcard. ``ValueError`` if the view's pile disagrees."""
    pile = [view.upcard]
    events: list[_Event] = []
    for player, move in view.history:
        if move.kind == "take":
            events.append((player, TAKE, pile.pop()))
        elif move.kind in ("discard", "knock") and move.card is not None:
            pile.append(move.card)
            events.append((player, move.action, move.card))
        elif move.kind == "draw":
            events.append((player, DRAW, -1))
        elif move.kind == "pass":
            events.append((player, PASS, pile[-1]))
        else:
            raise ValueError("a world is dealt for a hand in play, not after a knock")
    if tuple(pile) != view.pile:
        raise ValueError("the view's discard pile does not follow from its moves")
    return events


def _near(card: int) -> tuple[int, int, int]:
    """The masks of ``card``'s rank (itself aside), its neighbours in its suit, and the
    cards two away in its suit."""
    suit = SUIT_MASKS[suit_of(card)]
    one = 1 << card
    return (
        RANK_MASKS[rank_of(card)] & ~one,
        ((one << 1) | (one >> 1)) & suit,
        ((one << 2) | (one >> 2)) & suit,
    )


def belief(view: GinView, events: list[_Event] | None = None) -> dict[int, float]:
    """A weight for each card the player has not seen (see the module): the higher, the
    likelier it is among the other player's hidden cards."""
    if events is None:
        events = public_events(view)
    seen = view.hand | (1 << view.upcard)
    for _, action, card in events:
        if action != TAKE and card >= 0:
            seen |= 1 << card
    weight = dict.fromkeys(cards_of(ALL_CARDS & ~seen), 1.0)
    other = 1 - view.seat

    def scale(mask: int, factor: float) -> None:
        for card in cards_of(mask & ~seen):
            weight[card] *= factor

    top = view.upcard
    for player, action, card in events:
        if player == other:
            rank, next_, gap = _near(card) if card >= 0 else (0, 0, 0)
            if action == TAKE and view.opponent_known >> card & 1:
                scale(rank, TOOK_RANK)
                scale(next_, TOOK_NEXT)
                scale(gap, TOOK_GAP)
            elif action in (PASS, DRAW):
                left = _near(top)
                scale(left[0], LEFT_RANK)
                scale(left[1], LEFT_NEXT)
            elif action not in (TAKE, PASS, DRAW):
                scale(rank, THREW_RANK)
                scale(next_, THREW_NEXT)
                scale(gap, THREW_GAP)
        if action not in (TAKE, PASS, DRAW):
            top = card
    return weight


def _weighted_sample(weights: dict[int, float], count: int, rng: random.Random) -> int:
    """``count`` cards drawn without replacement, each in proportion to its weight
    (Efraimidis and Spirakis' keys), as a mask."""
    keyed = sorted(weights, key=lambda card: rng.random() ** (1.0 / weights[card]), reverse=True)
    mask = 0
    for card in keyed[:count]:
        mask |= 1 << card
    return mask


def deal_world(view: GinView, rng: random.Random, *, infer: bool = True) -> GinHand:
    """A hand dealt and played so that ``view``'s player sees exactly ``view`` in it, the
    other's hidden cards drawn by :func:`belief` (uniformly when ``infer`` is false) and
    the stock shuffled. ``ValueError`` for a hand already over."""
    if view.outcome is not None:
        raise ValueError("a world is dealt for a hand in play, not one that is over")
    events = public_events(view)
    weights = belief(view, events)
    if not infer:
        weights = dict.fromkeys(weights, 1.0)
    other = 1 - view.seat
    hidden = view.opponent_cards - view.opponent_known.bit_count()
    theirs = _weighted_sample(weights, hidden, rng) | view.opponent_known
    stock = [card for card in weights if not theirs >> card & 1]
    rng.shuffle(stock)
    if len(stock) != view.stock_size:
        raise ValueError("the view's stock does not agree with the cards it has seen")
    # When each card first lay face up (the upcard before every move).
    shown = {view.upcard: -1}
    for time, (_, action, card) in enumerate(events):
        if action not in (TAKE, PASS, DRAW):
            shown.setdefault(card, time)
    never = len(events)
    final = {view.seat: view.hand, other: theirs}
    drawn: dict[int, int] = {}
    dealt = {}
    for player in (0, 1):
        held = set(cards_of(final[player]))
        for time in range(len(events) - 1, -1, -1):
            who, action, card = events[time]
            if who != player:
                continue
            if action == TAKE:
                held.remove(card)
            elif action == DRAW:
                # Any card he held then that was never yet face up could have come from
                # the stock here; the one shown last leaves the most for earlier draws.
                fresh = [c for c in held if shown.get(c, never) > time]
                card = max(fresh, key=lambda c: (shown.get(c, never), c))
                held.remove(card)
                drawn[time] = card
            elif action != PASS:
                held.add(card)
        if len(held) != 10:
            raise ValueError("the view's moves do not leave ten cards dealt to each player")
        dealt[player] = sorted(held)
    non_dealer = 1 - view.dealer
    deck = [0] * UPCARD_INDEX
    deck[0::2] = dealt[non_dealer]
    deck[1::2] = dealt[view.dealer]
    deck += [view.upcard, *(drawn[time] for time in sorted(drawn)), *stock]
    actions = [action for _, action, _ in events]
    return GinHand.replayed(deck, view.dealer, view.rules, actions)
