"""What the opponent's hidden cards probably are, read from what he did (issue 26).

A :class:`Belief` gives every card the opponent may hold a weight, and the chance of a
whole hand is proportional to the product of its cards' weights (among the hands of the
right size: a *conditional Poisson* model). Uniform dealing is the case where every
weight is 1. The weights come from the viewer's :class:`~umtali.games.umtali.view.PlayerView`
alone, its public move history and the table:

* **A take** says he could use the card: while a card he took from the pile is still in
  his hand, the cards that would meld with it (its rank, its neighbours in its suit, the
  other half of a marriage) are likelier in his hand.
* **A discard** says he could not use the card: the cards that would meld with it are
  less likely in his hand.
* **A pass**, a draw from the stock while a card lay face up on the pile, says the same
  of that card, more weakly.
* **The cards he lays** say what he keeps: the rules made him play all he could, so he
  holds no Jack, no meld and nothing the table accepted (the view's
  ``opponent_excluded`` and ``opponent_meld_free``, which :func:`determinize` keeps);
  and what he keeps over turns is what he values, which the rank prior
  (``RANK_PRIOR``) says for a player who keeps his best cards.

Each piece of evidence fades as he draws new cards (``FADE`` a draw, in the log of the
weight), since the hand it spoke of changes. The module is pure: no I/O, the RNG is
passed in.

>>> import random
>>> from umtali.games.umtali.lessons import LESSONS
>>> from umtali.games.umtali.view import PlayerView
>>> view = PlayerView.of(LESSONS[0].replay(turn=3), 1)
>>> belief = Belief.of(view)
>>> len(belief.cards) >= view.opponent_hand_size - len(view.opponent_known)
True
>>> world = belief.determinize(view, random.Random(1))
>>> len(world.hand(0)) == view.opponent_hand_size
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from umtali.games.umtali.moves import Move, MoveKind
from umtali.games.umtali.notation import parse_move
from umtali.games.umtali.state import HandState
from umtali.games.umtali.view import PlayerView, ViewError, determinize
from umtali.kernel.cards import JACK, KING, QUEEN, RANK_MASKS, rank_of, suit_of

__all__ = ["Belief", "connectors", "log_likelihood", "uniform_log_likelihood"]


TAKE_KEPT: Final = (3.0, 2.0, 1.4)
"""Weight factors, while a card he took is still in his hand, for a card of its rank, a
next neighbour in its suit (or the other half of its marriage), and a card two away."""
DISCARDED: Final = (0.2, 0.25, 0.5)
"""The same for a card he discarded face up."""
PASSED: Final = (0.8, 0.8, 0.95)
"""The same for a card he left on the pile, drawing from the stock instead."""
FADE: Final = 0.95
"""What remains of a piece of evidence (in the log of its factor) after each new draw."""
RANK_PRIOR: Final = (1.0,) * 10 + (1.3, 1.0, 1.3, 1.3)
"""A weight by rank (index 1 = Ace .. 13 = King) before any evidence: a player keeps his
tens, Queens and Kings a little more than the small cards they would cost him less
(index 0 is unused; Jacks he cannot keep once he has played a turn)."""


def connectors(card: int) -> tuple[int, int, int]:
    """The cards that would meld with ``card``, as three masks: of its rank (a pair
    towards a group; none for a Jack, which never melds), its next neighbours in its suit
    within A..10 or its marriage partner, and the cards two away in its suit within
    A..10."""
    rank, suit = rank_of(card), suit_of(card)
    same = 0 if rank == JACK else RANK_MASKS[rank] & ~(1 << card)
    base = 13 * suit - 1  # the card of rank r in this suit is base + r
    near = far = 0
    if rank <= 10:
        for r, step in ((rank - 1, 1), (rank + 1, 1), (rank - 2, 2), (rank + 2, 2)):
            if 1 <= r <= 10:
                if step == 1:
                    near |= 1 << (base + r)
                else:
                    far |= 1 << (base + r)
    elif rank == QUEEN:
        near = 1 << (base + KING)
    elif rank == KING:
        near = 1 << (base + QUEEN)
    return same, near, far


_CONNECTORS: Final = tuple(connectors(c) for c in range(52))


def _evidence(view: PlayerView) -> list[float]:
    """The log weight of every card from the opponent's moves in ``view.history``."""
    opponent = 1 - view.player
    logw = [math.log(RANK_PRIOR[rank_of(c)]) for c in range(52)]
    pile: list[int | None] = []
    kept = view.opponent_known.mask

    def apply(card: int, factors: tuple[float, float, float]) -> None:
        for mask, factor in zip(_CONNECTORS[card], factors, strict=True):
            lf = math.log(factor)
            while mask:
                low = mask & -mask
                logw[low.bit_length() - 1] += lf
                mask ^= low

    for actor, text in view.history:
        if "(face down)" in text:
            pile.append(None)  # an opponent's hidden discard: he went out
            continue
        try:
            move = parse_move(text)
        except ValueError:
            continue  # a move this reading does not follow tells nothing
        kind = move.kind
        if kind in (MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO) and actor == opponent:
            logw = [w * FADE for w in logw]
            top = pile[-1] if pile else None
            if kind is MoveKind.DRAW and top is not None:
                apply(top, PASSED)
        if kind is MoveKind.TAKE and move.cards:
            taken = _take(pile, move)
            if actor == opponent:
                for card in taken:
                    if kept >> card & 1:
                        apply(card, TAKE_KEPT)
        elif kind is MoveKind.TAKE_TWO:
            del pile[-2:]
        elif kind in (MoveKind.DISCARD, MoveKind.PAIR):
            thrown = move.cards[0] if kind is MoveKind.DISCARD else move.discard
            if thrown is None:
                continue
            pile.append(None if move.face_down else thrown)
            if actor == opponent and not move.face_down:
                apply(thrown, DISCARDED)
    return logw


def _take(pile: list[int | None], move: Move) -> list[int]:
    """Take the named card and every card above it off ``pile``; the cards taken."""
    card = move.cards[0]
    if card not in pile:
        pile.clear()  # the reading lost its place: start the pile afresh
        return [card]
    i = pile.index(card)
    taken = [c for c in pile[i:] if c is not None]
    del pile[i:]
    return taken


@dataclass(frozen=True)
class Belief:
    """Weights on the cards the opponent may hold (see the module docstring).

    Attributes:
        cards: the cards he may hold that the viewer does not know of, in card order.
        weights: their weights, in the same order.
        size: how many of them he holds.
    """

    cards: tuple[int, ...]
    weights: tuple[float, ...]
    size: int
    _table: tuple[tuple[float, ...], ...]

    @classmethod
    def of(cls, view: PlayerView, *, uniform: bool = False) -> Belief:
        """The belief ``view`` supports; ``uniform`` gives every card the same weight
        (today's dealing, for comparison). :class:`ViewError` if the view does not
        account for its cards."""
        cards = candidates(view)
        size = view.opponent_hand_size - len(view.opponent_known)
        if size < 0 or size > len(cards):
            raise ViewError("the view leaves the opponent fewer cards he may hold than he holds")
        if uniform:
            weights = tuple(1.0 for _ in cards)
        else:
            logw = _evidence(view)
            weights = tuple(math.exp(logw[c]) for c in cards)
        return cls(cards, weights, size, _suffix_table(weights, size))

    def pick(self, rng: random.Random) -> int:
        """A hand for the opponent's unknown cards, as a mask, drawn with chance
        proportional to the product of its cards' weights."""
        table = self._table
        need = self.size
        hand = 0
        for i, card in enumerate(self.cards):
            if need == 0:
                break
            total = table[i][need]
            if rng.random() * total < self.weights[i] * table[i + 1][need - 1]:
                hand |= 1 << card
                need -= 1
        return hand

    def log_likelihood(self, hand: int) -> float:
        """The natural log of the chance this belief gives the unknown cards ``hand``
        (a mask of ``size`` of its cards); ``-inf`` for a hand it cannot deal."""
        logp = -math.log(self._table[0][self.size])
        index = {c: i for i, c in enumerate(self.cards)}
        n = 0
        while hand:
            low = hand & -hand
            i = index.get(low.bit_length() - 1)
            if i is None:
                return -math.inf
            logp += math.log(self.weights[i])
            hand ^= low
            n += 1
        return logp if n == self.size else -math.inf

    def determinize(
        self,
        view: PlayerView,
        rng: random.Random,
        *,
        chance: Callable[[int], float] | None = None,
        tries: int = 8,
    ) -> HandState:
        """A full state consistent with ``view``, the opponent's unknown cards drawn from
        this belief (``view`` must be the one the belief is of); no undo kept.

        ``chance``, if given, reads more of his play: a hand drawn (his whole hand, the
        cards known of it too) is kept with the chance it gives, else drawn again, up to
        ``tries`` draws, the last of which is kept whatever its chance (so a hand
        ``chance`` misjudges is rarer, never impossible)."""
        known = view.opponent_known.mask

        def pick(cards: tuple[int, ...], size: int, rng: random.Random) -> int:
            assert size == self.size
            assert cards == self.cards
            hand = self.pick(rng)
            if chance is not None:
                for _ in range(tries - 1):
                    if rng.random() < chance(hand | known):
                        break
                    hand = self.pick(rng)
            return hand

        return determinize(view, rng, undo=False, pick=pick)


def candidates(view: PlayerView) -> tuple[int, ...]:
    """The cards the opponent may hold beyond those the viewer knows he holds: the unseen
    cards less what he cannot hold (``view.opponent_excluded``) and less the cards he
    took from the pile that are out of sight (those lie face down on the pile)."""
    taken = view.taken_from_pile[1 - view.player].mask
    mask = view.unseen().mask & ~taken & ~view.opponent_excluded.mask
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def _suffix_table(weights: tuple[float, ...], size: int) -> tuple[tuple[float, ...], ...]:
    """``table[i][j]``: the sum, over the ways to choose ``j`` of ``weights[i:]``, of the
    product of the chosen weights (the elementary symmetric polynomial), for j <= size."""
    n = len(weights)
    rows: list[tuple[float, ...]] = [(1.0,) + (0.0,) * size]
    for i in range(n - 1, -1, -1):
        below = rows[-1]
        w = weights[i]
        rows.append((1.0, *(below[j] + w * below[j - 1] for j in range(1, size + 1))))
    rows.reverse()
    return tuple(rows)


def log_likelihood(view: PlayerView, hidden: int) -> float:
    """The log chance the belief of ``view`` gives the opponent's real unknown cards."""
    return Belief.of(view).log_likelihood(hidden)


def uniform_log_likelihood(view: PlayerView, hidden: int) -> float:
    """The same under uniform dealing over the cards he may hold."""
    return Belief.of(view, uniform=True).log_likelihood(hidden)
