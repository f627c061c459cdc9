"""What the opponent's last discard says, read with the expert's own judgement (issue 26).

The belief (:mod:`umtali.games.umtali.bots.belief`) reads every discard the same way: the
cards that would meld with it are less likely in his hand. A player who discards by a
rule says more: of all the cards he held, he threw the one his rule valued least. A
:class:`DiscardModel` scores a hand the opponent may hold now by how well the discard he
made fits it, as the expert (``ExpertBot.rank_discards``) would have judged his hand
then: the cards he holds now and the one he threw. A hand in which he would have kept
the card he threw and thrown another is unlikely in proportion to how much the expert
would have lost by the swap, ``exp(-loss / temperature)``.

Between his discard and the viewer's decision only the viewer has moved, so his hand
then is exactly his hand now and the card thrown. What the expert weighed then is
rebuilt from the view: the pile's top under the discard, the cards he could not see,
the table, and the viewer's hand size (how soon the viewer might go out). The table and
the cards seen are those of now: when the viewer has laid cards this turn they differ a
little from what the opponent saw.

A model of the opponent's play is a guess about him: it is exact when he plays as the
expert does, and a person discards otherwise. The search draws a hand from the belief
and keeps it with the chance this model gives (:meth:`DiscardModel.chance`), so a hand
the model rules out is only made rarer, never impossible.

>>> from umtali.games.umtali.lessons import LESSONS
>>> from umtali.games.umtali.view import PlayerView
>>> state = LESSONS[0].replay(turn=3)
>>> model = DiscardModel.of(PlayerView.of(state, state.player))
>>> model is None or 0.0 < model.chance(state.hands[1 - state.player]) <= 1.0
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

from umtali.games.umtali.bots.evaluate import (
    WEIGHTS,
    Situation,
    discard_danger,
    keep_worth,
)
from umtali.games.umtali.moves import MoveKind
from umtali.games.umtali.notation import parse_move
from umtali.games.umtali.view import PlayerView
from umtali.kernel.cards import rank_of

__all__ = ["TEMPERATURE", "DiscardModel"]

TEMPERATURE: Final = 0.3
"""How many points of the expert's discard cost make a hand ``e`` times less likely."""

_GAINS: Final = {MoveKind.DRAW: 1, MoveKind.TAKE_TWO: 2}


@dataclass(frozen=True)
class DiscardModel:
    """The opponent's last face-up discard and what he weighed when he made it.

    Attributes:
        thrown: the card he discarded.
        top: the pile's top card under it (``None``: the pile was empty or face down).
        seen: the cards he could place then, besides his own hand (the table, the face-up
            pile, the viewer's cards he knew of).
        open_mask: the cards the table accepted.
        viewer_cards: the viewer's hand size then.
        temperature: see :data:`TEMPERATURE`.
    """

    thrown: int
    top: int | None
    seen: int
    open_mask: int
    viewer_cards: int
    temperature: float = TEMPERATURE

    @classmethod
    def of(cls, view: PlayerView, temperature: float = TEMPERATURE) -> DiscardModel | None:
        """The model of the opponent's last move, if it was a face-up discard (``None``
        otherwise: before his first discard, after anyone went out, or when the history
        cannot be followed)."""
        if view.went_out is not None or not view.history:
            return None
        opponent = 1 - view.player
        pile: list[int | None] = []
        last: tuple[int, int | None] | None = None  # his discard, and the top under it
        viewer_gain = 0  # cards the viewer's hand has gained since that discard
        for actor, text in view.history:
            if "(face down)" in text:
                pile.append(None)
                last = None
                continue
            try:
                move = parse_move(text)
            except ValueError:
                return None
            kind = move.kind
            if kind is MoveKind.DISCARD and not move.face_down:
                card = move.cards[0]
                if actor == opponent:
                    last = (card, pile[-1] if pile else None)
                    viewer_gain = 0
                elif last is not None:
                    viewer_gain -= 1
                pile.append(card)
            elif kind is MoveKind.TAKE:
                card = move.cards[0]
                taken = len(pile) - pile.index(card) if card in pile else 1
                del pile[-taken:]
                if actor != opponent:
                    viewer_gain += taken
            elif kind in (MoveKind.MELD, MoveKind.SOLO) and actor != opponent:
                viewer_gain -= len(move.cards)
            elif actor != opponent:
                viewer_gain += _GAINS.get(kind, 0)
                if kind is MoveKind.TAKE_TWO:
                    del pile[-2:]
            if actor == opponent and kind is not MoveKind.DISCARD:
                last = None  # he moved after his discard: a new turn of his
        if last is None:
            return None
        thrown, top = last
        known_to_him = view.taken_from_pile[view.player].mask & view.hand.mask
        hidden_from_him = view.hand.mask & ~known_to_him
        # What he could not see is what the viewer cannot see now, less his own hand,
        # plus the viewer's cards he does not know; the rest he could place.
        seen = ((1 << 52) - 1) & ~view.unseen().mask & ~hidden_from_him & ~(1 << thrown)
        return cls(
            thrown=thrown,
            top=top,
            seen=seen,
            open_mask=view.open_mask(),
            viewer_cards=len(view.hand) - viewer_gain,
            temperature=temperature,
        )

    def loss(self, hand: int) -> float:
        """How many points of the expert's judgement throwing :attr:`thrown` cost, with
        ``hand`` (his cards now) kept, against the discard it rates best: 0 when the
        expert would have thrown it too."""
        held = hand | 1 << self.thrown
        sit = Situation(
            unseen=((1 << 52) - 1) & ~self.seen & ~held,
            open_mask=self.open_mask,
            opponent_known=0,
            opponent_cards=self.viewer_cards,
            risk=WEIGHTS.risk_of(self.viewer_cards),
            lead=0,
            last_hand=False,
        )

        def cost(card: int) -> float:
            worth = keep_worth(card, held, sit) + WEIGHTS.w_danger * discard_danger(
                card, self.top, sit
            )
            return worth + 0.001 * rank_of(card)

        thrown = cost(self.thrown)
        best = thrown
        mask = hand
        while mask:
            low = mask & -mask
            best = min(best, cost(low.bit_length() - 1))
            mask ^= low
        return thrown - best

    def chance(self, hand: int) -> float:
        """The chance (at most 1) with which a hand drawn from the belief is kept:
        ``exp(-loss / temperature)``."""
        return math.exp(-self.loss(hand) / self.temperature)
