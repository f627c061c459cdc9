"""Reviewing a Gin Rummy hand (layer 5): the registry's ``review`` hook, for a game of
two (:mod:`umtali.learn.review`).

Each hand of a record is replayed; at every decision of the reviewed player with more
than one move (take or pass the upcard, take the discard or draw, which card to discard
or knock with) the review builds his :class:`~umtali.games.gin.view.GinView` and deals
what it does not show at random (:func:`deal_from_view`): the other hand's cards he did
not see taken, and the stock. The upcard, dealt face up for both to see, is the only card
read from the record besides the view. Each alternative is played out to the hand's end
with the expert's policy for both players; its points are the player's score minus the
other's in the hand.

A hand the expert plays on both sides, reviewed for the first player. A real review
weighs each choice over hundreds of deals; two deals a choice keep the example quick.

>>> from umtali.kernel.deck import seeded_deck
>>> match = GinMatch()
>>> hand = match.new_hand(seeded_deck(8))
>>> expert, rng = GinExpertBot(), random.Random(3)
>>> while not hand.is_over():
...     hand.push(expert.choose(GinView.of(hand, hand.player), rng))
>>> quick = Settings(playouts=1, alternatives=2, seconds=0.01)
>>> review = REVIEW.review(match, 0, 1, quick)
>>> [decision.played for decision in review.decisions][:3]
['take the upcard', 'discard Q♠', 'take the discard']
>>> len(review.decisions[0].alternatives)
2
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final

from umtali.games.gin.bots import GinExpertBot
from umtali.games.gin.match import GinMatch
from umtali.games.gin.melds import min_deadwood
from umtali.games.gin.rules import GinRules
from umtali.games.gin.state import (
    DRAW,
    KNOCK,
    PASS,
    UPCARD_INDEX,
    GinHand,
    GinMove,
)
from umtali.games.gin.view import GinView
from umtali.kernel.cards import ALL_CARDS, card_name, cards_of
from umtali.kernel.english import sentence
from umtali.learn.review import (
    Decision,
    HandReview,
    ReviewError,
    Settings,
    play_to_end,
    weigh,
)

__all__ = ["REVIEW", "GinReview", "deal_from_view"]

_POLICY: Final = GinExpertBot()
_UPCARD_PHASE, _DRAW_PHASE, _DISCARD_PHASE = 0, 1, 2  # GinHand's phases


def said(move: GinMove, upcard_phase: bool = False) -> str:
    """A move as the review names it to a card player.

    >>> said(GinMove("take")), said(GinMove("draw")), said(GinMove("knock", 0))
    ('take the discard', 'draw from the stock', 'knock, discarding A♣ face down')
    """
    if move.kind == "take":
        return "take the upcard" if upcard_phase else "take the discard"
    if move.kind == "draw":
        return "draw from the stock"
    if move.kind == "pass":
        return "pass"
    assert move.card is not None
    if move.kind == "knock":
        return f"knock, discarding {card_name(move.card)} face down"
    return f"discard {card_name(move.card)}"


def deal_from_view(view: GinView, upcard: int, rules: GinRules, rng: random.Random) -> GinHand:
    """A hand under ``rules`` consistent with ``view`` (its player to move): the cards it
    does not show dealt at random to the other hand (besides the cards he was seen to
    take) and the stock. ``upcard`` is the hand's upcard, which both players saw dealt."""
    me = view.seat
    pile = 0
    for card in view.pile:
        pile |= 1 << card
    unseen = list(cards_of(ALL_CARDS & ~view.hand & ~pile & ~view.opponent_known))
    rng.shuffle(unseen)
    hidden = view.opponent_cards - view.opponent_known.bit_count()
    if hidden < 0 or len(unseen) - hidden != view.stock_size:
        raise ReviewError("the view does not account for the 52 cards")
    theirs = view.opponent_known
    for card in unseen[:hidden]:
        theirs |= 1 << card
    stock = unseen[hidden:]
    start = len(ALL_CARDS_LIST) - view.stock_size
    # The cards before the stock are dealt already: their order no longer matters, but
    # for the upcard, which a view of the hand reads again from its place.
    rest = [c for c in ALL_CARDS_LIST if c not in stock and c != upcard]
    deck = [*rest[:UPCARD_INDEX], upcard, *rest[UPCARD_INDEX:], *stock]
    state = GinHand(deck, view.dealer, rules)
    state.hands = (view.hand, theirs) if me == 0 else (theirs, view.hand)
    state.pile = view.pile
    state.stock_pos = start
    state.knock_limit = view.knock_limit
    state.multiplier = view.multiplier
    state.player = me
    legal = {m.action for m in view.legal}
    moves = [move.action for _, move in view.history]
    state.discards = sum(1 for a in moves if a < DRAW)
    if PASS in legal:
        state.phase = _UPCARD_PHASE
        state._passes = moves.count(PASS)
    elif DRAW in legal:
        state.phase = _DRAW_PHASE
        state._passes = moves.count(PASS) if state.discards == 0 else 0
    else:
        state.phase = _DISCARD_PHASE
        discardable = {a % KNOCK for a in legal}
        taken = [c for c in cards_of(view.hand) if c not in discardable]
        state.taken = taken[0] if taken else -1
    state.history = [(p, m.action) for p, m in view.history]
    state._legal = None
    state._undo = []
    return state


ALL_CARDS_LIST: Final = tuple(cards_of(ALL_CARDS))


@dataclass
class _Choice:
    """One decision, from the player's view and the upcard alone."""

    view: GinView
    upcard: int
    rules: GinRules
    options: tuple[GinMove, ...]
    played: int
    upcard_phase: bool
    lead: float | None = None

    @property
    def moves(self) -> tuple[str, ...]:
        return tuple(said(m, self.upcard_phase) for m in self.options)

    def deal(self, rng: random.Random) -> GinHand:
        return deal_from_view(self.view, self.upcard, self.rules, rng)

    def play_out(self, world: GinHand, index: int, rng: random.Random) -> float:
        state = _copy(world)
        state.push(self.options[index])
        play_to_end(state, lambda s: _POLICY.choose(GinView.of(s, s.player), rng))
        outcome = state.outcome
        assert outcome is not None
        me = self.view.seat
        return float(outcome.scores[me] - outcome.scores[1 - me])

    def line(self, index: int, rng: random.Random) -> tuple[str, ...]:
        """The alternative and the rest of his turn (after a take, the discard the
        expert makes; after a draw the card is unknown, so it stops)."""
        move = self.options[index]
        out = [said(move, self.upcard_phase)]
        if move.kind == "take":
            state = self.deal(rng)
            state.push(move)
            if not state.is_over() and state.to_move() == self.view.seat:
                out.append(said(_POLICY.choose(GinView.of(state, self.view.seat), rng)))
        return tuple(out)


def _copy(world: GinHand) -> GinHand:
    """A copy of ``world`` to play on."""
    state = GinHand.__new__(GinHand)
    for name in GinHand.__slots__:
        setattr(state, name, getattr(world, name))
    state.history = list(world.history)
    state._undo = []
    return state


class GinReview:
    """Gin Rummy's :class:`umtali.learn.review.Reviewer`, for a game of two."""

    def hands(self, match: Any) -> tuple[tuple[int, tuple[int, ...]], ...]:
        if not isinstance(match, GinMatch):
            raise ReviewError("only a game of Gin Rummy between two can be reviewed yet")
        return tuple((i, (0, 1)) for i, hand in enumerate(match.hands) if hand.is_over())

    def review(self, match: Any, hand_index: int, seat: int, settings: Settings) -> HandReview:
        if not isinstance(match, GinMatch):
            raise ReviewError("only a game of Gin Rummy between two can be reviewed yet")
        if type(hand_index) is not int or not 0 <= hand_index < len(match.hands):
            raise ReviewError(f"the record has {len(match.hands)} hands: no hand {hand_index + 1}")
        played = match.hands[hand_index]
        if not played.is_over():
            raise ReviewError(
                f"hand {hand_index + 1} is not finished: only a finished hand is reviewed"
            )
        if seat not in (0, 1):
            raise ReviewError("this game has two players: player 1 or player 2")
        upcard = played.deck[UPCARD_INDEX]  # dealt face up: both players saw it
        state = GinHand(played.deck, played.dealer, played.rules)
        decisions = []
        for index, (actor, action) in enumerate(played.history):
            if actor == seat and len(state.legal_actions()) > 1:
                view = GinView.of(state, seat)
                made = GinMove.of_action(action)
                choice = _choice_at(view, upcard, played.rules, made, settings.alternatives)
                if choice is not None:
                    alternatives, spent = weigh(choice, settings, f"{hand_index}/{index}")
                    decisions.append(
                        Decision(
                            index,
                            state.turns() + 1,
                            _where(view),
                            choice.moves[choice.played],
                            alternatives,
                            spent,
                        )
                    )
            state.push(action)
        outcome = played.outcome
        assert outcome is not None
        return HandReview(
            game="gin",
            hand_index=hand_index,
            seat=seat,
            player=match.players[seat],
            result=sentence(_result(outcome.how, outcome.winner, outcome.points, match.players)),
            decisions=tuple(decisions),
            settings=settings,
        )


def _choice_at(
    view: GinView, upcard: int, rules: GinRules, made: GinMove, most: int
) -> _Choice | None:
    legal = list(view.legal)
    upcard_phase = any(m.kind == "pass" for m in legal)
    if any(m.kind in ("discard", "knock") for m in legal):
        ranked = sorted(
            (m for m in legal if m.kind == "discard"),
            key=lambda m: min_deadwood(view.hand & ~(1 << (m.card or 0))),
        )
        knocks = [m for m in legal if m.kind == "knock"]
        legal = [*knocks[:3], *ranked[:most]]
        if made not in legal:
            legal.append(made)
    if len(legal) < 2 or made not in legal:
        return None
    return _Choice(view, upcard, rules, tuple(legal), legal.index(made), upcard_phase)


def _where(view: GinView) -> str:
    hand = " ".join(card_name(c) for c in cards_of(view.hand))
    top = f"the pile showed {card_name(view.pile[-1])}" if view.pile else "the pile was empty"
    return sentence(
        f"you held {hand}; {top}; the stock held {view.stock_size} and you could knock"
        f" with {view.knock_limit} or less"
    )


def _result(how: str, winner: int | None, points: int, names: tuple[str, str]) -> str:
    if winner is None:
        return "the hand was dead: nobody scored"
    words = {"gin": "went gin", "knock": "won by a knock", "undercut": "undercut the knock"}
    return f"{names[winner]} {words.get(how, how)}, scoring {points}"


REVIEW: Final[Any] = GinReview()
