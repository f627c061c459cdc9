"""Deals that agree with what one Klaberjass player has seen: the worlds a search plays
out (a *determinization* of the hidden cards), drawn from the player's view alone.

A world is a whole :class:`~umtali.games.klaberjass.state.KlaberjassHand`, its deck
chosen so that the hand's public moves replay on it and leave the seat exactly what it
sees: its own cards, the turned-up and bottom cards, the cards played. The other hand
and the stock are dealt at random from the cards the seat has not seen, as far as the
play allows: a suit the other player failed to follow, trumps he could not have held
when he threw a plain card or failed to head a trump lead, the sequences he scored or
did not score, and a 7 of trump he exchanged.

>>> from umtali.kernel.deck import seeded_deck
>>> from umtali.games.klaberjass.match import KlaberjassMatch
>>> match = KlaberjassMatch(first_dealer=1)
>>> real = match.new_hand(seeded_deck(3, DECK))
>>> view = KlaberjassView.of(match, 0)
>>> world = deal_world(view, random.Random(5))
>>> world.hands[0] == real.hands[0], world.turned == real.turned, world.phase
(True, True, 'bid1')
"""

from __future__ import annotations

import random
from typing import Final

from umtali.games.klaberjass.moves import EXCHANGE, KEEP, PLAY, SCHMEISS, KlaberjassMoveError
from umtali.games.klaberjass.rules import KlaberjassRules
from umtali.games.klaberjass.state import KlaberjassHand
from umtali.games.klaberjass.terms import DECK, NATURAL, sequences, strength, suit_mask
from umtali.games.klaberjass.view import KlaberjassView, sequence_cards
from umtali.kernel.cards import cards_of, make_card, rank_of, suit_of

__all__ = ["DEAL_TRIES", "deal_world", "unplayable"]

DEAL_TRIES: Final = 40
"""How many random deals are tried for one that agrees with every inference before the
sequence scores are let go (they are the one inference dealing does not build in)."""

_FIRST_SIX: Final = ((0, 1, 2, 6, 7, 8), (3, 4, 5, 9, 10, 11))
"""Deck positions of the first six cards: the elder's, then the dealer's."""
_THREE_MORE: Final = ((13, 14, 15), (16, 17, 18))
_TURNED: Final = 12
_BOTTOM: Final = 31


def unplayable(view: KlaberjassView) -> int:
    """The cards the other player cannot hold now, by what he played to the tricks:
    the led suit when he did not follow, every trump when he neither followed nor
    trumped, and every trump above the one led when he did not head a trump lead.

    >>> from umtali.kernel.deck import seeded_deck
    >>> from umtali.games.klaberjass.match import KlaberjassMatch
    >>> match = KlaberjassMatch(first_dealer=1)
    >>> _ = match.new_hand(seeded_deck(3, DECK))
    >>> unplayable(KlaberjassView.of(match, 0))
    0
    """
    if view.trump < 0:
        return 0
    power = strength(view.ranking, view.trump)
    trump = view.trump
    trumps = suit_mask(trump)
    ruled_out = 0
    trick: list[tuple[int, int]] = []
    for mover, move in view.history:
        if move.kind != PLAY:
            continue
        trick.append((mover, move.card))
        if len(trick) < 2:
            continue
        (_, led), (second, answer) = trick
        trick = []
        if second != view.other:
            continue
        suit = suit_of(led)
        if suit_of(answer) != suit:
            ruled_out |= suit_mask(suit)
            if suit_of(answer) != trump:
                ruled_out |= trumps
        elif suit == trump and power[answer] < power[led]:
            ruled_out |= sum(1 << c for c in cards_of(trumps) if power[c] > power[led])
    return ruled_out


def _rules_of(view: KlaberjassView) -> KlaberjassRules:
    """The rules the hand is played under, as far as a seat can tell: the ranking it is
    shown, and schmeiss if anyone offered it or it may offer it now."""
    offered = any(move.kind == SCHMEISS for _, move in view.history)
    may_offer = any(move.kind == SCHMEISS for move in view.legal)
    return KlaberjassRules(ranking=view.ranking, schmeiss=offered or may_offer)


def deal_world(view: KlaberjassView, rng: random.Random) -> KlaberjassHand:
    """A hand dealt at random among those the seat cannot tell from the real one, its
    moves replayed: the seat's view of it equals ``view`` (but for the match's totals).
    Inferences that no deal drawn in :data:`DEAL_TRIES` satisfies are let go, the
    sequence scores first."""
    rules = _rules_of(view)
    last: KlaberjassHand | None = None
    for attempt in range(DEAL_TRIES):
        world = _replayed(view, rules, _deck(view, rng, strict=attempt < DEAL_TRIES - 1))
        if world is None:
            continue
        if view.trump < 0 or _same_sequences(view, world):
            return world
        last = world
    if last is not None:
        return last
    world = _replayed(view, rules, _deck(view, rng, strict=False))
    assert world is not None, "a deal that ignores the inferences replays every move"
    return world


def _same_sequences(view: KlaberjassView, world: KlaberjassHand) -> bool:
    """Whether ``world`` scores the sequences ``view`` shows, with the cards it shows."""
    scores = world.sequence_points()
    if scores != view.sequence_points:
        return False
    if not view.sequence_cards:
        return True
    scorer = 0 if scores[0] else 1
    return sequence_cards(world.held(scorer)) == view.sequence_cards


def _replayed(
    view: KlaberjassView, rules: KlaberjassRules, deck: list[int]
) -> KlaberjassHand | None:
    """The hand dealt from ``deck`` with the view's moves played, or ``None`` if one of
    them is not legal there (an inference the deal did not honour)."""
    world = KlaberjassHand(deck, view.dealer, rules)
    for _, move in view.history:
        try:
            world.push(move.action)  # it checks the move is legal there
        except KlaberjassMoveError:
            return None
    return world


def _deck(view: KlaberjassView, rng: random.Random, *, strict: bool) -> list[int]:
    """A deck order that deals the seat its own cards and the other his known ones, the
    rest at random (``strict``: the other's unknown cards kept out of what he cannot
    hold)."""
    me, other = view.seat, view.other
    made = view.trump >= 0
    given_seven = view.given_seven
    turned = view.turned_up
    mine = view.hand
    theirs_known = 0
    for mover, move in view.history:
        if move.kind == PLAY:
            if mover == me:
                mine |= 1 << move.card
            else:
                theirs_known |= 1 << move.card
    ruled_out = unplayable(view) if strict else 0
    if view.sequence_points[other] and view.sequence_cards:
        # every one of his sequences is shown: no card lengthens one
        theirs_known |= view.sequence_cards
        ruled_out |= _neighbours(view.sequence_cards) & ~view.sequence_cards
    if view.exchanged and given_seven is not None:
        # the exchanger was dealt the 7; the turned-up card stays at its place in the deck
        if view.exchanger == me:
            mine = mine & ~(1 << turned) | 1 << given_seven
        else:
            theirs_known = theirs_known & ~(1 << turned) | 1 << given_seven
    if made and suit_of(turned) == view.trump:
        # the 7 of trump: the other held it if he settled the exchange, and did not if
        # the exchange was never offered to anyone
        seven = make_card(7, view.trump)
        settled_by = [mover for mover, move in view.history if move.kind in (EXCHANGE, KEEP)]
        if other in settled_by and given_seven is None:
            theirs_known |= (1 << seven) & ~mine
        elif not settled_by and view.phase != "exchange":
            ruled_out |= 1 << seven
    bottom = view.bottom
    unseen = DECK & ~mine & ~theirs_known & ~(1 << turned)
    if bottom is not None:
        unseen &= ~(1 << bottom)
    dealt_each = 9 if made else 6
    missing = dealt_each - theirs_known.bit_count()
    allowed = unseen & ~ruled_out
    if strict and view.sequence_points[other] and not view.sequence_cards:
        # he scores sequences not shown yet: lay runs worth what he scores in his hand
        planted = (
            _runs_worth(
                view.sequence_points[other],
                allowed | theirs_known,
                missing + theirs_known.bit_count(),
                rng,
            )
            & ~theirs_known
        )
        theirs_known |= planted
        allowed &= ~planted
        missing -= planted.bit_count()
    elif strict and made and view.sequence_points == (0, 0):
        held = view.hand
        for mover, move in view.history:
            if mover == me and move.kind == PLAY:
                held |= 1 << move.card
        best = sequences(held)
        if best:
            # nobody scores though the seat has a sequence: the other's best equals it
            planted = _run_equal_to(best[0], view.trump, allowed | theirs_known, rng)
            planted &= ~theirs_known
            theirs_known |= planted
            allowed &= ~planted
            missing -= planted.bit_count()
    if missing < 0 or allowed.bit_count() < missing:
        return _deck(view, rng, strict=False)
    theirs = theirs_known | _sample(allowed, missing, rng)
    rest = cards_of(unseen & ~theirs)
    rng.shuffle(rest)
    deck: list[int | None] = [None] * 32
    deck[_TURNED] = turned
    if bottom is not None:
        deck[_BOTTOM] = bottom
    elder = 1 - view.dealer
    for who, cards in ((me, mine), (other, theirs)):
        places = list(_FIRST_SIX[0 if who == elder else 1])
        if made:
            places += _THREE_MORE[0 if who == elder else 1]
        own = cards_of(cards)
        rng.shuffle(own)
        for place, card in zip(places, own, strict=True):
            deck[place] = card
    for place in range(32):
        if deck[place] is None:
            deck[place] = rest.pop()
    assert not rest
    return [card for card in deck if card is not None]


def _sample(cards: int, count: int, rng: random.Random) -> int:
    """``count`` of ``cards`` (a mask) drawn at random, as a mask."""
    chosen = 0
    for card in rng.sample(cards_of(cards), count):
        chosen |= 1 << card
    return chosen


def _runs_worth(points: int, cards: int, room: int, rng: random.Random) -> int:
    """Runs of ``cards`` (a mask) worth ``points`` in all (three cards 20, four 50), of
    ``room`` cards at most, chosen at random; 0 if none are found.

    >>> runs = _runs_worth(70, DECK, 9, random.Random(1))
    >>> sum(value for value, _, _ in sequences(runs)), runs.bit_count()
    (70, 7)
    """
    splits = [(fours, (points - 50 * fours) // 20) for fours in range(points // 50 + 1)]
    splits = [(f, t) for f, t in splits if 50 * f + 20 * t == points and 4 * f + 3 * t <= room]
    if not splits:
        return 0
    fours, threes = rng.choice(splits)
    chosen = 0
    for length in [4] * fours + [3] * threes:
        starts = [
            (suit, low)
            for suit in range(4)
            for low in range(len(NATURAL) - length + 1)
            if _run(suit, low, length) & cards & ~chosen == _run(suit, low, length)
            and not _touches(chosen, suit, low, length)
        ]
        if not starts:
            return 0
        suit, low = rng.choice(starts)
        chosen |= _run(suit, low, length)
    return chosen


def _run(suit: int, low: int, length: int) -> int:
    """The cards of ``suit`` from natural place ``low``, ``length`` of them, as a mask."""
    return sum(1 << make_card(NATURAL[place], suit) for place in range(low, low + length))


def _touches(chosen: int, suit: int, low: int, length: int) -> bool:
    """Whether a run at ``low`` would join one already ``chosen`` into a longer run."""
    below = _run(suit, low - 1, 1) if low > 0 else 0
    above = _run(suit, low + length, 1) if low + length < len(NATURAL) else 0
    return bool(chosen & (below | above))


def _neighbours(cards: int) -> int:
    """The cards next to ``cards`` in natural order, in the same suit."""
    found = 0
    for card in cards_of(cards):
        place = NATURAL.index(rank_of(card))
        for near in (place - 1, place + 1):
            if 0 <= near < len(NATURAL):
                found |= 1 << make_card(NATURAL[near], suit_of(card))
    return found


def _run_equal_to(best: tuple[int, int, int], trump: int, cards: int, rng: random.Random) -> int:
    """A run of ``cards`` as good as ``best`` (its value and top card) in another plain
    suit, chosen at random; 0 if there is none."""
    value, top, suit = best
    length = 3 if value == 20 else 4
    low = NATURAL.index(top) - length + 1
    runs = [
        _run(other, low, length)
        for other in range(4)
        if other not in (suit, trump)
        and _run(other, low, length) & cards == _run(other, low, length)
    ]
    return rng.choice(runs) if runs else 0
