"""What one Gin Rummy player may see: :class:`GinView`, the only thing a bot or a
front end is given.

A player sees his own hand, the discard pile (every card in it was laid face up), the
size of the stock and of the other hand, and those cards of the other hand he saw it
take from the pile. He does not see the stock, or the rest of the other hand, until
the hand is over; then both hands and the knock's melds are shown.

>>> hand = GinHand.from_seed(7)
>>> view = GinView.of(hand, 0)
>>> view.to_move, len(CardSet(view.hand)), view.opponent_cards, view.legal
(1, 10, 10, ())
>>> other = GinView.of(hand, 1)
>>> [move.text() for move in other.legal]
['take', 'pass']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from umtali.games.gin.rules import GinRules
from umtali.games.gin.state import (
    DRAW,
    KNOCK,
    PASS,
    TAKE,
    UPCARD_INDEX,
    GinHand,
    GinMove,
    GinOutcome,
)
from umtali.kernel.cards import CardSet, card_ascii, cards_of

__all__ = ["GinView"]

_MOVES = tuple(GinMove.of_action(action) for action in range(PASS + 1))
"""By action int, its move (a move is immutable, so every view shares them): a view
holds one per move of the hand, made anew for each view they would cost more than the
rest of it."""


@dataclass(frozen=True)
class GinView:
    """One player's view of a hand. Cards are ids, sets of cards masks.

    ``history`` holds every move of the hand: every move is public, since a draw names
    no card and every discard is laid face up, but for the knock's discard, laid face
    down: the other player's view has it neither on the ``pile`` nor in the knock of
    its ``history`` (a ``GinMove("knock")`` without a card). ``opponent_known`` are the
    cards the other player took from the pile and still holds. ``upcard`` is the hand's
    first upcard, which both players saw turned, and ``rules`` the rules the hand is
    played to (with ``history`` they let a bot rebuild everything public about the hand).
    ``revealed`` is the other hand, once the hand is over (else ``None``).
    """

    seat: int
    dealer: int
    to_move: int | None
    hand: int
    pile: tuple[int, ...]
    stock_size: int
    opponent_cards: int
    opponent_known: int
    knock_limit: int
    multiplier: int
    legal: tuple[GinMove, ...]
    history: tuple[tuple[int, GinMove], ...]
    outcome: GinOutcome | None
    revealed: int | None
    upcard: int
    rules: GinRules

    @classmethod
    def of(cls, state: GinHand, seat: int) -> GinView:
        if seat not in (0, 1):
            raise ValueError(f"a seat is 0 or 1, not {seat!r}")
        other = 1 - seat
        known = _cards_seen_taken(state, other)
        over = state.is_over()
        pile = state.pile
        history = tuple((player, _MOVES[action]) for player, action in state.history)
        if history and history[-1][0] == other and history[-1][1].kind == "knock":
            pile = pile[:-1]  # the knock's discard lies face down on the pile
            history = (*history[:-1], (other, GinMove("knock")))
        return cls(
            seat=seat,
            dealer=state.dealer,
            to_move=state.to_move(),
            hand=state.hand(seat),
            pile=pile,
            stock_size=state.stock_size(),
            opponent_cards=state.hand(other).bit_count(),
            opponent_known=known & state.hand(other),
            knock_limit=state.knock_limit,
            multiplier=state.multiplier,
            legal=tuple(state.legal_moves()) if state.to_move() == seat else (),
            history=history,
            outcome=state.outcome,
            revealed=state.hand(other) if over else None,
            upcard=state.deck[UPCARD_INDEX],
            rules=state.rules,
        )

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-ready data, cards in ASCII notation."""

        def names(mask: int) -> list[str]:
            return [card_ascii(c) for c in cards_of(mask)]

        outcome = None
        if self.outcome is not None:
            outcome = {
                "how": self.outcome.how,
                "winner": self.outcome.winner,
                "points": self.outcome.points,
                "deadwood": list(self.outcome.deadwood),
            }
        return {
            "seat": self.seat,
            "dealer": self.dealer,
            "to_move": self.to_move,
            "hand": names(self.hand),
            "pile": [card_ascii(c) for c in self.pile],
            "stock_size": self.stock_size,
            "opponent_cards": self.opponent_cards,
            "opponent_known": names(self.opponent_known),
            "knock_limit": self.knock_limit,
            "multiplier": self.multiplier,
            "legal": [move.text() for move in self.legal],
            "history": [[player, move.text()] for player, move in self.history],
            "outcome": outcome,
            "revealed": None if self.revealed is None else names(self.revealed),
        }

    def __str__(self) -> str:
        return (
            f"seat {self.seat}: {CardSet(self.hand)} | pile top"
            f" {card_ascii(self.pile[-1]) if self.pile else '-'} | stock {self.stock_size}"
        )


def _cards_seen_taken(state: GinHand, taker: int) -> int:
    """The cards ``taker`` took from the pile during the hand (all of them: the caller
    keeps those still in his hand). The pile is rebuilt move by move, since a take
    names no card."""
    pile = [state.deck[UPCARD_INDEX]]
    taken = 0
    for player, action in state.history:
        if action == TAKE:
            card = pile.pop()
            if player == taker:
                taken |= 1 << card
        elif action < DRAW:
            pile.append(action % KNOCK)
    return taken
