"""Computer players for Klaberjass. A bot is given only a
:class:`~umtali.games.klaberjass.view.KlaberjassView` and an RNG: it never sees the
other hand or the stock.

* ``random``: any legal move.
* ``greedy``: makes trump when the suit's jack or nine, its other trumps and the side
  aces add up to a simple count; in play it wins a trick with its cheapest winning card,
  else throws its least valuable card, and leads its highest card.
* ``expert``: bids on an estimate of the points its hand will take (trump points, side
  aces, sequences, bella, the turned-up card if it holds the 7 to exchange for it); it
  exchanges the 7 unless that breaks a sequence; in play it counts the cards played and
  the suits the other player has shown he lacks, leads its top trump to draw the other's
  trumps, then cashes its masters, and otherwise leads cheap cards.
* ``search`` (the default): tries each legal move in deals drawn from its view and
  played out to the hand's end (:mod:`~umtali.games.klaberjass.bots.search`).

>>> from umtali.kernel.deck import seeded_deck
>>> from umtali.games.klaberjass.match import KlaberjassMatch
>>> from umtali.games.klaberjass.terms import DECK
>>> match = KlaberjassMatch(first_dealer=1)
>>> _ = match.new_hand(seeded_deck(3, DECK))
>>> view = KlaberjassView.of(match, 0)
>>> ExpertKlaberjass().choose(view, random.Random(0)) in view.legal
True
"""

from __future__ import annotations

import random
from typing import Final, Protocol

from umtali.games.api import Deadline
from umtali.games.klaberjass.bots.estimate import BID_THRESHOLD, hand_worth
from umtali.games.klaberjass.bots.search import SearchKlaberjass
from umtali.games.klaberjass.moves import (
    ACCEPT,
    EXCHANGE,
    KEEP,
    NAME,
    PASS,
    PLAY,
    REFUSE,
    TAKE,
    KlaberjassMove,
)
from umtali.games.klaberjass.terms import DECK, card_points, sequences, strength, suit_mask
from umtali.games.klaberjass.view import KlaberjassView
from umtali.kernel.cards import ACE, JACK, cards_of, make_card, rank_of, suit_of

__all__ = [
    "BOTS",
    "DEFAULT_BOT",
    "ExpertKlaberjass",
    "GreedyKlaberjass",
    "KlaberjassBot",
    "RandomKlaberjass",
]


class KlaberjassBot(Protocol):
    """Anything with a name that chooses a Klaberjass move from a player's view."""

    name: str

    def choose(
        self, view: KlaberjassView, rng: random.Random, *, deadline: Deadline | None = None
    ) -> KlaberjassMove:
        """A move from ``view.legal``, due by ``deadline`` if one is given (a bot that
        searches stops there with the best it has found; the others ignore it)."""
        ...


def _legal(view: KlaberjassView, who: str) -> tuple[KlaberjassMove, ...]:
    if not view.legal:
        raise ValueError(f"the {who} bot was asked to move when it has no legal move")
    return view.legal


class RandomKlaberjass:
    """Any legal move, uniformly."""

    name = "random"

    def choose(
        self, view: KlaberjassView, rng: random.Random, *, deadline: Deadline | None = None
    ) -> KlaberjassMove:
        return rng.choice(_legal(view, self.name))


# -- what the bots share -----------------------------------------------------------------


def _turned_suit(view: KlaberjassView) -> int:
    """The suit of the turned-up card (bidding is over once it leaves the table)."""
    assert view.turned is not None, "the turned-up card is on the table while bidding"
    return suit_of(view.turned)


def _bid(view: KlaberjassView, worth: dict[int, float], threshold: float) -> KlaberjassMove:
    """Take or name the suit with the best ``worth`` if it reaches ``threshold``, else
    pass; answer schmeiss by refusing with a hand worth half of it in the turned suit."""
    legal = view.legal
    if view.phase == "schmeiss":
        strong = worth[_turned_suit(view)] >= threshold / 2
        return KlaberjassMove(REFUSE if strong else ACCEPT)
    if view.phase == "bid1":
        take = worth[_turned_suit(view)] >= threshold
        return KlaberjassMove(TAKE if take else PASS)
    named = [move for move in legal if move.kind == NAME]
    best = max(named, key=lambda move: worth[move.card])
    return best if worth[best.card] >= threshold else KlaberjassMove(PASS)


def _plays(view: KlaberjassView) -> list[int]:
    return [move.card for move in view.legal if move.kind == PLAY]


def _beats(view: KlaberjassView, power: tuple[int, ...], card: int, led: int) -> bool:
    """Whether ``card``, played second, takes the trick ``led`` began."""
    same_or_trump = suit_of(card) == suit_of(led) or suit_of(card) == view.trump
    return same_or_trump and power[card] > power[led]


class GreedyKlaberjass:
    """The simple counts: bids on the suit's jack and nine, its length and the side aces;
    wins each trick as cheaply as it can, else gives away the least; leads its best card."""

    name = "greedy"
    threshold: Final = 5.0
    """The count a suit needs to be made trump."""

    def choose(
        self, view: KlaberjassView, rng: random.Random, *, deadline: Deadline | None = None
    ) -> KlaberjassMove:
        _legal(view, self.name)
        if view.phase in ("bid1", "bid2", "schmeiss"):
            counts = {suit: float(self._count(view.hand, suit)) for suit in range(4)}
            return _bid(view, counts, self.threshold)
        if view.phase == "exchange":
            return KlaberjassMove(EXCHANGE)
        return KlaberjassMove(PLAY, self._card(view))

    @staticmethod
    def _count(hand: int, suit: int) -> int:
        """Two for the jack and the nine of ``suit``, one for each other card of it and
        for each ace of another suit; nothing at all without the jack or the nine."""
        jack, nine = make_card(JACK, suit), make_card(9, suit)
        if not hand >> jack & 1 and not hand >> nine & 1:
            return 0
        trumps = hand & suit_mask(suit)
        aces = sum(1 for card in cards_of(hand & ~trumps) if rank_of(card) == ACE)
        return trumps.bit_count() + (hand >> jack & 1) + (hand >> nine & 1) + aces

    @staticmethod
    def _card(view: KlaberjassView) -> int:
        power = strength(view.ranking, view.trump)
        cards = _plays(view)
        if not view.trick:
            return max(cards, key=lambda card: power[card])

        def value(card: int) -> tuple[int, int]:
            return card_points(card, trump=view.trump), power[card]

        led = view.trick[0]
        winners = [card for card in cards if _beats(view, power, card, led)]
        return min(winners or cards, key=value)


# -- the expert ------------------------------------------------------------------------------


class ExpertKlaberjass:
    """Bids on an estimate of its points, counts the cards, draws trumps when strong."""

    name = "expert"
    threshold: Final = BID_THRESHOLD

    def choose(
        self, view: KlaberjassView, rng: random.Random, *, deadline: Deadline | None = None
    ) -> KlaberjassMove:
        legal = _legal(view, self.name)
        if view.phase in ("bid1", "bid2", "schmeiss"):
            return _bid(view, self._bid_worth(view), self.threshold)
        if view.phase == "exchange":
            return self._exchange(view)
        if len(legal) == 1:
            return legal[0]
        return KlaberjassMove(PLAY, _ExpertPlay(view).card())

    @staticmethod
    def _bid_worth(view: KlaberjassView) -> dict[int, float]:
        turned = view.turned
        assert turned is not None
        worths = {}
        for suit in range(4):
            hand = view.hand
            if suit == suit_of(turned) and hand >> make_card(7, suit) & 1:
                hand = hand & ~(1 << make_card(7, suit)) | 1 << turned  # he will exchange
            worths[suit] = hand_worth(hand, suit, view.ranking)
        return worths

    @staticmethod
    def _exchange(view: KlaberjassView) -> KlaberjassMove:
        """Exchange the 7 for the turned-up card, unless the 7 belongs to a sequence the
        turned-up card does not make up for."""
        turned = view.turned
        assert turned is not None
        seven = make_card(7, view.trump)
        after = view.hand & ~(1 << seven) | 1 << turned
        before_value = sum(value for value, _, _ in sequences(view.hand))
        after_value = sum(value for value, _, _ in sequences(after))
        gain = card_points(turned, trump=view.trump) + after_value - before_value
        return KlaberjassMove(EXCHANGE if gain >= 0 else KEEP)


class _ExpertPlay:
    """The expert's choice of a card: what it knows of the cards out, then a rule."""

    def __init__(self, view: KlaberjassView) -> None:
        self.view = view
        self.trump = view.trump
        self.power = strength(view.ranking, view.trump)
        self.cards = _plays(view)
        out_of_play = 0 if view.bottom is None else 1 << view.bottom
        if view.exchanged and view.given_seven is not None:
            out_of_play |= 1 << view.given_seven
        self.other_known = 0
        if view.exchanger == view.other:
            self.other_known |= 1 << view.turned_up  # he took it for his 7
        elif not view.exchanged:
            out_of_play |= 1 << view.turned_up
        seen_sequences = view.sequence_cards if view.sequence_points[view.other] else 0
        self.other_known |= seen_sequences
        self.other_known &= ~view.played
        # the cards that may be in the other hand (or the stock)
        self.unseen = DECK & ~view.hand & ~view.played & ~out_of_play
        self.void = self._voids()

    def _voids(self) -> set[int]:
        """The suits the other player has shown he lacks (trump included)."""
        view = self.view
        void: set[int] = set()
        trick: list[tuple[int, int]] = []
        for mover, move in view.history:
            if move.kind != PLAY:
                continue
            trick.append((mover, move.card))
            if len(trick) == 2:
                (_, led), (second, answer) = trick
                if second == view.other and suit_of(answer) != suit_of(led):
                    void.add(suit_of(led))
                    if suit_of(answer) != self.trump:
                        void.add(self.trump)
                trick = []
        return void

    def _may_hold(self, suit: int) -> int:
        """The unseen cards of ``suit`` the other player may hold."""
        if suit in self.void:
            return self.other_known & suit_mask(suit)
        return self.unseen & suit_mask(suit) | self.other_known & suit_mask(suit)

    def _is_master(self, card: int) -> bool:
        """Whether ``card`` beats every card of its suit the other may hold."""
        outs = self._may_hold(suit_of(card))
        return all(self.power[card] > self.power[out] for out in cards_of(outs))

    def _points(self, card: int) -> int:
        return card_points(card, trump=self.trump)

    def card(self) -> int:
        return self._follow() if self.view.trick else self._lead()

    def _lead(self) -> int:
        trump = self.trump
        cards = self.cards
        trumps = [c for c in cards if suit_of(c) == trump]
        other_trumps = self._may_hold(trump)
        # draw trumps with the top trump while the other may still hold some
        if trumps and other_trumps:
            top = max(trumps, key=lambda c: self.power[c])
            if self._is_master(top) and (len(trumps) >= 2 or self.view.maker == self.view.seat):
                return top
        # cash a side master the other cannot ruff
        can_ruff = bool(other_trumps)
        masters = [
            c
            for c in cards
            if suit_of(c) != trump
            and self._is_master(c)
            and not (can_ruff and suit_of(c) in self.void)
        ]
        if masters:
            return max(masters, key=lambda c: (self._points(c), self.power[c]))
        # else lead low from a plain suit, keeping the tens and kings guarded
        plain = [c for c in cards if suit_of(c) != trump] or cards
        return min(plain, key=lambda c: (self._points(c), self.power[c]))

    def _follow(self) -> int:
        led = self.view.trick[0]
        cards = self.cards
        winners = [c for c in cards if _beats(self.view, self.power, c, led)]
        if winners:
            same_suit = [c for c in winners if suit_of(c) == suit_of(led) != self.trump]
            if same_suit:
                return max(same_suit, key=lambda c: (self._points(c), self.power[c]))
            # a trump: the weakest that wins, and on a cheap trick no big trump if a
            # small one wins
            return min(winners, key=lambda c: (self.power[c], self._points(c)))
        return min(cards, key=lambda c: (self._points(c), self.power[c]))


BOTS: Final[dict[str, type[KlaberjassBot]]] = {
    "random": RandomKlaberjass,
    "greedy": GreedyKlaberjass,
    "expert": ExpertKlaberjass,
    "search": SearchKlaberjass,
}
"""The computer levels by name, weakest first."""

DEFAULT_BOT: Final = "search"
