"""Gin Rummy's ``search`` level: determinized playouts over the choices that matter.

At a take-or-draw with a pile card it could use, and at a discard with more than one
sensible card (or a knock to weigh), it starts from the expert's choice and its
runners-up: the other way to draw; the next discards that leave the least deadwood
(within ``SLACK`` points of the least), and knocking or not. It deals the cards it cannot
see in agreement with its view, weighted by what the other player took and threw
(:func:`umtali.games.gin.bots.worlds.deal_world`), plays every candidate out on that same
deal to the end of the hand, both players by a quick version of the expert's policy
(:func:`playout_move`), and records each one's hand margin (its points minus the
other's) against the expert's choice on the same deal. It keeps the expert's choice
unless another beats it clearly: by a point a hand at least, and by more than
``confidence`` standard errors (two).

Its budget is a number of playouts per decision, spent the same on any machine (so a
seeded game replays alike), and the ``deadline`` a server hands it, looked at between
two deals: with fewer than two deals played the expert's choice stands. Most decisions
stop far sooner, once every runner-up is clearly worse or clearly better; a decision
with one sensible choice (a gin, a pile card that fits nothing) plays it at once.

>>> from umtali.games.gin.state import GinHand
>>> hand = GinHand.from_seed(7)
>>> GinSearchBot().choose(GinView.of(hand, 1), random.Random(0)).text() in ("take", "pass")
True
"""

from __future__ import annotations

import random
from typing import Final

from umtali.games.api import Deadline
from umtali.games.gin.bots import GinExpertBot
from umtali.games.gin.bots.worlds import deal_world
from umtali.games.gin.melds import DEADWOOD_VALUES, min_deadwood
from umtali.games.gin.state import DISCARD, DRAW, KNOCK, PASS, TAKE, GinHand, GinMove
from umtali.games.gin.view import GinView
from umtali.kernel.cards import RANK_MASKS, SUIT_MASKS, bit, cards_of, rank_of, suit_of
from umtali.kernel.paired import PairedMargins

__all__ = ["GinSearchBot", "playout_move"]

SLACK: Final = 6
"""Deadwood points a discard may leave above the least and still be a candidate."""
SETTLED_WORSE: Final = 2.0
"""A runner-up this many standard errors below the expert's choice is settled."""
SETTLED_BETTER: Final = 3.0
"""A runner-up this many standard errors above it is settled."""
INDIFFERENT: Final = 1.0
"""Points a hand below which a runner-up's gain is not worth playing on for: one whose
mean could not beat the expert's choice by more, at ``SETTLED_WORSE`` standard errors,
is settled."""


def _fits(hand: int, card: int) -> bool:
    """Whether ``card`` has a card of its rank, or one within two of it in its suit, in
    ``hand``: whether it could ever join a meld with them."""
    one = bit(card)
    suit = SUIT_MASKS[suit_of(card)]
    near = (one << 1 | one >> 1 | one << 2 | one >> 2) & suit
    return bool(hand & (near | RANK_MASKS[rank_of(card)] & ~one))


def _best_discard(hand: int, barred: int) -> tuple[int, int]:
    """The discard that leaves the least deadwood (the highest card of equals), never
    the card ``barred``, and the deadwood it leaves. Taking a card away lowers the
    deadwood by at most its value, so the cards are tried from the highest down and the
    search stops once no card left could do better."""
    least = min_deadwood(hand)
    best, choice = 1 << 30, -1
    for card in sorted(cards_of(hand), key=lambda c: (-DEADWOOD_VALUES[c], -c)):
        if card == barred:
            continue
        if least - DEADWOOD_VALUES[card] >= best:
            break
        left = min_deadwood(hand & ~bit(card))
        if left < best:
            best, choice = left, card
    return choice, best


def playout_move(state: GinHand) -> int:
    """The playouts' move for the player to move in ``state`` (his own cards and the
    pile only): take a pile card that joins a meld, else draw (or pass the first
    upcard); throw the card that leaves the least deadwood; knock as the expert does
    (:class:`~umtali.games.gin.bots.GinExpertBot`): with gin, or early in the hand, or
    with its late count or less, or when the stock is nearly gone."""
    hand = state.hands[state.player]
    if not state.must_discard():
        if state.may_take():
            top = state.pile[-1]
            if min_deadwood(hand | bit(top)) < min_deadwood(hand) + DEADWOOD_VALUES[top]:
                return TAKE
        return PASS if PASS in state.legal_actions() else DRAW
    card, left = _best_discard(hand, state.taken)
    stock = state.stock_size()
    if left <= state.knock_limit and (
        left == 0 or stock > GinExpertBot.EARLY or left <= GinExpertBot.LATE or stock <= 4
    ):
        return KNOCK + card
    return DISCARD + card


class GinSearchBot:
    """Determinized playouts from the expert's candidates; see the module docstring.

    Args:
        playouts: the most playouts per decision (over all candidates).
        candidates: how many of the expert's choices to compare (its choice first).
        confidence: standard errors by which a runner-up must beat the expert's choice.
        min_deals: deals played before a decision may stop early.
        infer: deal the other's hidden cards by what he did (else uniformly).
    """

    name = "search"

    def __init__(
        self,
        playouts: int = 48,
        candidates: int = 3,
        confidence: float = 2.0,
        min_deals: int = 6,
        infer: bool = True,
    ) -> None:
        if playouts < 1 or candidates < 2 or min_deals < 2:
            raise ValueError(
                "the search bot needs a playout, two candidates and two deals at least"
            )
        self.playouts = playouts
        self.candidates = candidates
        self.confidence = confidence
        self.min_deals = min_deals
        self.infer = infer
        self.policy = GinExpertBot()

    def choose(
        self, view: GinView, rng: random.Random, *, deadline: Deadline | None = None
    ) -> GinMove:
        if not view.legal:
            raise ValueError("the search bot was asked to move when it has no legal move")
        candidates = self.candidates_of(view, rng)
        if len(candidates) == 1:
            return candidates[0]
        return self._search(view, candidates, rng, deadline)

    def candidates_of(self, view: GinView, rng: random.Random) -> list[GinMove]:
        """The expert's choice first, then the runners-up worth playing out."""
        first = self.policy.choose(view, rng)
        legal = view.legal
        if first.kind in ("take", "pass", "draw"):
            if first.kind != "take" and not _fits(view.hand, view.pile[-1]):
                return [first]  # a pile card that fits nothing is left there
            return [first, *(move for move in legal if move != first)]
        if first.kind == "knock" and min_deadwood(view.hand & ~bit(first.card or 0)) == 0:
            return [first]  # gin
        scored = sorted(
            (min_deadwood(view.hand & ~bit(move.card or 0)), -DEADWOOD_VALUES[move.card or 0], move)
            for move in legal
            if move.kind == "discard"
        )
        least = scored[0][0]
        out = [first]
        knocks = [move for move in legal if move.kind == "knock"]
        if knocks and first.kind != "knock":
            out.append(min(knocks, key=lambda m: (min_deadwood(view.hand & ~bit(m.card or 0)),)))
        elif first.kind == "knock":
            out.append(GinMove("discard", first.card))
        for left, _, move in scored:
            if len(out) >= self.candidates or left > least + SLACK:
                break
            if move not in out:
                out.append(move)
        return out

    def _search(
        self, view: GinView, candidates: list[GinMove], rng: random.Random, due: Deadline | None
    ) -> GinMove:
        # Per runner-up, its margin minus the expert's choice's deal by deal (a paired
        # comparison cancels the deal's luck). A runner-up clearly worse is played no more.
        runners_up = [PairedMargins() for _ in candidates]
        open_ = list(range(1, len(candidates)))
        done = played = 0
        me = view.seat
        while open_ and done < self.playouts and (due is None or not due.passed()):
            world = deal_world(view, rng, infer=self.infer)
            first = _playout(world, candidates[0].action, me)
            for i in open_:
                runners_up[i].add(_playout(world, candidates[i].action, me) - first)
            done += 1 + len(open_)
            played += 1
            if played >= self.min_deals and played % 4 == 0:
                open_ = [i for i in open_ if not _worse(runners_up[i])]
                if all(_better(runners_up[i]) for i in open_):
                    break
        return candidates[self.accepted(runners_up)]

    def accepted(self, runners_up: list[PairedMargins]) -> int:
        """The candidate to play, given each runner-up's margins over the expert's choice
        (the first entry, the choice's own, is not read): the runner-up with the best
        mean of those that beat the choice by more than ``confidence`` standard errors
        and by at least :data:`INDIFFERENT` points, else the expert's choice (0)."""
        best, best_margin = 0, 0.0
        for i in range(1, len(runners_up)):
            if runners_up[i].deals >= 2:
                mean, error = runners_up[i].mean_and_error()
                if mean > max(best_margin, INDIFFERENT) and mean > self.confidence * error:
                    best, best_margin = i, mean
        return best


def _playout(world: GinHand, action: int, me: int) -> float:
    """``me``'s hand margin after ``action`` and :func:`playout_move` to the end; the
    world is left as it was."""
    before = world.snapshot()
    world.play_trusted(action)
    while not world.is_over():
        world.play_trusted(playout_move(world))
    outcome = world.outcome
    assert outcome is not None
    scores = outcome.scores
    world.restore(before)
    return float(scores[me] - scores[1 - me])


def _worse(runner_up: PairedMargins) -> bool:
    """Whether a runner-up is clearly no better than the expert's choice (by more than
    :data:`INDIFFERENT`), or plays out the same."""
    return runner_up.clearly_below(INDIFFERENT, SETTLED_WORSE)


def _better(runner_up: PairedMargins) -> bool:
    """Whether a runner-up is clearly better than the expert's choice."""
    return runner_up.clearly_above(0.0, SETTLED_BETTER)
