"""Computer players for Gin Rummy. Like Umtali's, a bot sees only a
:class:`umtali.games.gin.view.GinView` and an RNG.

* ``random``: any legal move.
* ``greedy``: the least deadwood now. It takes the top discard only when that lowers its
  deadwood, discards the card that leaves the least deadwood (the highest of equals), and
  knocks as soon as it may.
* ``cautious``: the greedy choices, and a player's caution (the expert before issue 26,
  kept for the arena to measure against). Among the discards that leave the least
  deadwood it throws the one least useful to the other player (not a card that fits
  those he was seen to take, and better a card whose neighbours are already in the
  pile). It knocks at once while more than 20 cards are in the stock; later only with 4
  or less (an undercut costs 25), or when the stock is nearly gone.
* ``expert``: the cautious player's caution, throwing for the hand's chances as well as
  its count, and waiting to undercut. It throws the card that leaves the least
  deadwood once what the next card drawn is expected to meld away is taken off
  (:func:`draw_value`, over the cards it has not seen), the safest of equals. It knocks
  at once while more than 26 cards are in the stock; later only with gin, with 2 or less when the other player has taken
  nothing from the pile, or when the stock is nearly gone: a player who waits with a
  low count undercuts one who knocks early. docs/BOTS.md has its figures.
* ``search``: the expert's choice and its runners-up played out on deals drawn from its
  view (:mod:`umtali.games.gin.bots.search`), in the arena only.

>>> from umtali.games.gin.state import GinHand
>>> hand = GinHand.from_seed(7)
>>> GinGreedyBot().choose(GinView.of(hand, 1), random.Random(0)).text() in ("take", "pass")
True
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from umtali.games.api import Deadline
from umtali.games.gin.melds import DEADWOOD_VALUES, min_deadwood, min_deadwood_adding
from umtali.games.gin.state import GinMove
from umtali.games.gin.view import GinView
from umtali.kernel.cards import RANK_MASKS, SUIT_MASKS, bit, cards_of, rank_of, suit_of

__all__ = [
    "GIN_ARENA_BOTS",
    "GIN_BOTS",
    "GinBot",
    "GinCautiousBot",
    "GinExpertBot",
    "GinGreedyBot",
    "GinRandomBot",
    "draw_value",
    "make_gin_bot",
]


class GinBot(Protocol):
    """Anything with a name that picks a Gin Rummy move from a player's view."""

    name: str

    def choose(
        self, view: GinView, rng: random.Random, *, deadline: Deadline | None = None
    ) -> GinMove:
        """A move from ``view.legal``, due by ``deadline`` if one is given (a bot that
        searches stops there with the best it has found; the others ignore it)."""
        ...


def _legal(view: GinView, who: str) -> tuple[GinMove, ...]:
    if not view.legal:
        raise ValueError(f"the {who} bot was asked to move when it has no legal move")
    return view.legal


class GinRandomBot:
    """Any legal move, uniformly."""

    name = "random"

    def choose(
        self, view: GinView, rng: random.Random, *, deadline: Deadline | None = None
    ) -> GinMove:
        return rng.choice(_legal(view, self.name))


def _after_discard(hand: int, move: GinMove) -> int:
    assert move.card is not None
    return min_deadwood(hand & ~bit(move.card))


def _best_with(hand: int, card: int) -> int:
    """The least deadwood after adding ``card`` and throwing the best other card."""
    held = hand | bit(card)
    return min(min_deadwood(held & ~bit(other)) for other in cards_of(hand))


class GinGreedyBot:
    """The least deadwood now; see the module docstring."""

    name = "greedy"

    def choose(
        self, view: GinView, rng: random.Random, *, deadline: Deadline | None = None
    ) -> GinMove:
        legal = _legal(view, self.name)
        kinds = {move.kind for move in legal}
        if "take" in kinds:
            return (
                GinMove("take")
                if self.wants_top(view)
                else GinMove("pass" if "pass" in kinds else "draw")
            )
        if kinds == {"draw"}:
            return GinMove("draw")
        knocks = [move for move in legal if move.kind == "knock"]
        if knocks and self.knocks_now(view, knocks):
            return min(knocks, key=lambda m: (_after_discard(view.hand, m), -self.value(m)))
        discards = [move for move in legal if move.kind == "discard"]
        return self.discard(view, discards, rng)

    @staticmethod
    def value(move: GinMove) -> int:
        assert move.card is not None
        return DEADWOOD_VALUES[move.card]

    def wants_top(self, view: GinView) -> bool:
        top = view.pile[-1]
        return _best_with(view.hand, top) < min_deadwood(view.hand)

    def knocks_now(self, view: GinView, knocks: list[GinMove]) -> bool:
        return True

    def discard(self, view: GinView, discards: list[GinMove], rng: random.Random) -> GinMove:
        return min(discards, key=lambda m: (_after_discard(view.hand, m), -self.value(m)))


class GinCautiousBot(GinGreedyBot):
    """The greedy choices with caution in discarding and knocking: the expert before
    issue 26, kept in the arena to measure against; see the module docstring."""

    name = "cautious"

    EARLY = 20
    """While more cards than this are in the stock it knocks at once."""
    LATE = 4
    """Later it knocks with this many points or less (2 more when the other player has
    taken nothing from the pile), or when the stock is nearly gone."""

    def knocks_now(self, view: GinView, knocks: list[GinMove]) -> bool:
        best = min(_after_discard(view.hand, move) for move in knocks)
        if best == 0 or view.stock_size > self.EARLY:
            return True
        # Late in the hand the other player has had time to build: knock with a low
        # count only, unless the stock is nearly gone and this is the last chance.
        limit = self.LATE if view.opponent_known else self.LATE + 2
        return best <= limit or view.stock_size <= 4

    def discard(self, view: GinView, discards: list[GinMove], rng: random.Random) -> GinMove:
        least = min(_after_discard(view.hand, move) for move in discards)
        near = [move for move in discards if _after_discard(view.hand, move) == least]
        return min(near, key=lambda m: (self.danger(view, m), -self.value(m)))

    @staticmethod
    def danger(view: GinView, move: GinMove) -> int:
        """How likely ``move``'s card is to help the other player: it fits a card he
        was seen to take (same rank, or the next rank of the suit), less so when the
        cards it would meld with are already in the pile."""
        card = move.card
        assert card is not None
        pile = _pile_mask(view)
        known = view.opponent_known
        rank, suit = rank_of(card), suit_of(card)
        same_rank = RANK_MASKS[rank] & ~bit(card)
        neighbours = ((bit(card) << 1) | (bit(card) >> 1)) & SUIT_MASKS[suit]
        risk = 0
        if known & (same_rank | neighbours):
            risk += 3
        risk += (same_rank & ~pile & ~view.hand).bit_count() > 1
        risk += (neighbours & ~pile & ~view.hand).bit_count()
        return risk


def _pile_mask(view: GinView) -> int:
    pile = 0
    for seen in view.pile:
        pile |= bit(seen)
    return pile


_ALL_CARDS = (1 << 52) - 1


def draw_value(hand: int, unseen: int) -> float:
    """The deadwood the next card drawn would meld away, on average over the cards
    ``unseen``: for each, the points of ``hand`` plus its value less the deadwood of
    both together (0 for a card that joins no meld).

    >>> from umtali.kernel.cards import mask_of, parse_cards
    >>> hand = mask_of(parse_cards("5s 6s Kd"))
    >>> draw_value(hand, mask_of(parse_cards("4s 7s 2c Kh")))  # (15 + 18 + 0 + 0) / 4
    8.25
    """
    if not unseen:
        return 0.0
    # Only a card of the rank of one held, or within two of one in its suit, can meld.
    near = 0
    for card in cards_of(hand):
        one = bit(card)
        near |= RANK_MASKS[rank_of(card)] | (
            (one << 1 | one >> 1 | one << 2 | one >> 2) & SUIT_MASKS[suit_of(card)]
        )
    held = min_deadwood(hand)
    total = 0
    for card in cards_of(unseen & near):
        total += held + DEADWOOD_VALUES[card] - min_deadwood_adding(hand, card, held)
    return total / unseen.bit_count()


class GinExpertBot(GinCautiousBot):
    """The cautious player's choices, throwing for the hand's chances as well as its
    count, and waiting longer to knock; see the module docstring."""

    name = "expert"

    EARLY = 26
    LATE = 0

    DRAWS = 1.0
    """Points of deadwood a discard may cost for each point its next draw is expected
    to meld away (:func:`draw_value`); tuned against OpenSpiel's bot on deals not used
    for the figures in docs/BOTS.md (0.5 and 2 did worse)."""

    def discard(self, view: GinView, discards: list[GinMove], rng: random.Random) -> GinMove:
        unseen = _ALL_CARDS & ~view.hand & ~_pile_mask(view) & ~view.opponent_known

        def cost(move: GinMove) -> float:
            left = view.hand & ~bit(move.card or 0)
            return min_deadwood(left) - self.DRAWS * draw_value(left, unseen)

        scored = [(cost(move), move) for move in discards]
        least = min(score for score, _ in scored)
        near = [move for score, move in scored if score <= least + 1e-9]
        return min(near, key=lambda m: (self.danger(view, m), -self.value(m)))


def _search() -> GinBot:
    from umtali.games.gin.bots.search import GinSearchBot  # it builds on the expert here

    return GinSearchBot()


GIN_BOTS: dict[str, Callable[[], GinBot]] = {
    "random": GinRandomBot,
    "greedy": GinGreedyBot,
    "expert": GinExpertBot,
}
"""Gin Rummy's bot levels by name, weakest first: those offered to a person."""


def _openspiel() -> GinBot:
    from umtali.games.gin.bots.openspiel import OpenSpielGinBot  # needs the bench extra

    return OpenSpielGinBot()


GIN_ARENA_BOTS: dict[str, Callable[[], GinBot]] = {
    **GIN_BOTS,
    "cautious": GinCautiousBot,
    "search": _search,
    "openspiel": _openspiel,
}
"""The levels the arena may play: every level; ``cautious``, the expert before issue 26,
to measure against; ``search``, kept to the arena until it
plays better than ``expert`` (docs/BOTS.md: today it does not, so a person is not
offered it as the strongest); and ``openspiel``, OpenSpiel's simple Gin Rummy bot
(:mod:`umtali.games.gin.bots.openspiel`, the ``bench`` extra), an opponent to measure against
that is never offered to a person."""


def make_gin_bot(level: str) -> GinBot:
    """A Gin Rummy bot of the named level (or ``openspiel``, the arena's); an unknown
    name raises ValueError, as does ``openspiel`` without OpenSpiel."""
    try:
        return GIN_ARENA_BOTS[level]()
    except KeyError:
        raise ValueError(
            f"unknown Gin Rummy bot level {level!r}; choose from {', '.join(GIN_BOTS)}"
        ) from None
