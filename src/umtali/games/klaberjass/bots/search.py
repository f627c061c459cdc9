"""The ``search`` level of Klaberjass: every decision tried in deals drawn from what the
player has seen, each played out to the hand's end, and the move that scores best on
average chosen.

The search sees its view only. The worlds it plays out are dealt by
:func:`~umtali.games.klaberjass.bots.worlds.deal_world`, which honours what the view shows
(the suits the other player could not follow, his sequences, the exchange) and deals
the rest of the unseen cards at random. In a world, both players play out the hand with
the cards of that world in front of them (:func:`playout_action`): they bid as the
``expert`` counts, always exchange the 7, lead the card whose trick pays best against the
other's reply, win a trick as cheaply as they can and otherwise throw the least. The
same worlds serve every candidate move, so the comparison is between moves and not
between deals. The last tricks are solved exactly in each world once few cards are left
(:data:`EXACT_CARDS`).

A ``deadline`` (a server's thinking budget, :class:`~umtali.games.api.Deadline`) is
looked at before each world: once it has passed, the move chosen is the best over the
worlds played so far, or, when not one was played, the ``expert``'s.

>>> from umtali.kernel.deck import seeded_deck
>>> from umtali.games.klaberjass.match import KlaberjassMatch
>>> from umtali.games.klaberjass.terms import DECK
>>> match = KlaberjassMatch(first_dealer=1)
>>> _ = match.new_hand(seeded_deck(3, DECK))
>>> view = KlaberjassView.of(match, 0)
>>> SearchKlaberjass(worlds=4).choose(view, random.Random(0)) in view.legal
True
"""

from __future__ import annotations

import random
from typing import Final

from umtali.games.api import Deadline
from umtali.games.klaberjass.bots.estimate import BID_THRESHOLD, hand_worth
from umtali.games.klaberjass.bots.worlds import deal_world
from umtali.games.klaberjass.moves import (
    ACCEPT,
    EXCHANGE,
    NAME,
    PASS,
    PLAY,
    REFUSE,
    TAKE,
    KlaberjassMove,
)
from umtali.games.klaberjass.state import LAST_TRICK, KlaberjassHand, maker_rule
from umtali.games.klaberjass.terms import card_points, suit_mask
from umtali.games.klaberjass.view import KlaberjassView
from umtali.kernel.cards import cards_of, suit_of

__all__ = ["EXACT_CARDS", "PLAY_WORLDS", "SearchKlaberjass", "playout_action"]

PLAY_WORLDS: Final = 24
"""How many worlds a decision is tried in by default."""

EXACT_CARDS: Final = 6
"""Once this many cards or fewer are left in the two hands (three tricks), a world's
play is solved exactly instead of played out."""


def playout_action(hand: KlaberjassHand) -> int:
    """The move the player to move makes in a playout, seeing every card of the world."""
    phase = hand.phase
    if phase == "play":
        return PLAY | _playout_card(hand) << 4
    legal = hand.legal_actions()
    if phase == "exchange":
        return EXCHANGE
    if phase == "schmeiss":
        worth = hand_worth(hand.hands[hand.player], suit_of(hand.turned), hand.rules.ranking)
        return REFUSE if worth >= BID_THRESHOLD / 2 else ACCEPT
    own = hand.hands[hand.player]
    ranking = hand.rules.ranking
    if phase == "bid1":
        suit = suit_of(hand.turned)
        return TAKE if hand_worth(own, suit, ranking) >= BID_THRESHOLD else PASS
    named = [action for action in legal if action & 0xF == NAME]
    best = max(named, key=lambda action: hand_worth(own, action >> 4, ranking))
    return best if hand_worth(own, best >> 4, ranking) >= BID_THRESHOLD else PASS


_POINTS: Final = tuple(
    tuple(card_points(card, trump=trump) for card in range(52)) for trump in range(4)
)
"""Each card's points by card id, for each trump suit (the playouts ask it often)."""


def _playout_card(hand: KlaberjassHand) -> int:
    cards = cards_of(hand.playable())
    if len(cards) == 1:
        return cards[0]
    power = hand.power
    trump = hand.trump
    points = _POINTS[trump]
    if hand.trick:
        return _answer(hand.trick[0], cards, power, trump)
    other = hand.hands[1 - hand.player]

    def trick_value(card: int) -> tuple[int, int]:
        reply = _answer(card, cards_of(_replies(other, card, power, trump)), power, trump)
        won = points[card] + points[reply]
        wins = not _beats(reply, card, power, trump)
        return (won if wins else -won), -power[card]

    return max(cards, key=trick_value)


def _replies(hand: int, led: int, power: tuple[int, ...], trump: int) -> int:
    """The cards of ``hand`` that may answer ``led`` (follow, trump, head a trump lead)."""
    suit = led // 13
    trumps = hand & suit_mask(trump)
    if suit == trump:
        if not trumps:
            return hand
        higher = 0
        for card in cards_of(trumps):
            if power[card] > power[led]:
                higher |= 1 << card
        return higher or trumps
    return hand & suit_mask(suit) or trumps or hand


def _beats(card: int, led: int, power: tuple[int, ...], trump: int) -> bool:
    """Whether ``card``, played second, takes the trick ``led`` began."""
    suit = card // 13
    return (suit == led // 13 or suit == trump) and power[card] > power[led]


def _answer(led: int, cards: list[int], power: tuple[int, ...], trump: int) -> int:
    """The second card: the cheapest that wins the trick, else the least worth."""
    points = _POINTS[trump]
    winners = [card for card in cards if _beats(card, led, power, trump)]
    return min(winners or cards, key=lambda card: (points[card], power[card]))


class SearchKlaberjass:
    """Tries each legal move in ``worlds`` deals drawn from its view (see the module)."""

    name = "search"

    def __init__(self, worlds: int = PLAY_WORLDS) -> None:
        if worlds < 1:
            raise ValueError(f"the search plays out at least one world, not {worlds}")
        self.worlds = worlds

    def choose(
        self, view: KlaberjassView, rng: random.Random, *, deadline: Deadline | None = None
    ) -> KlaberjassMove:
        legal = view.legal
        if not legal:
            raise ValueError("the search bot was asked to move when it has no legal move")
        if len(legal) == 1:
            return legal[0]
        actions = [move.action for move in legal]
        totals = dict.fromkeys(actions, 0.0)
        me = view.seat
        for played in range(self.worlds):
            if deadline is not None and deadline.passed():
                if not played:
                    return _expert(view, rng)
                break
            world = deal_world(view, rng)
            for action in actions:
                totals[action] += _played_out(world, action, me)
        best = max(actions, key=lambda action: totals[action])
        return KlaberjassMove.of_action(best)


def _expert(view: KlaberjassView, rng: random.Random) -> KlaberjassMove:
    """The ``expert``'s choice: the search's when its time is up before a world is played."""
    # Imported here: the bots' package imports this module for its ``search`` level.
    from umtali.games.klaberjass.bots import ExpertKlaberjass

    return ExpertKlaberjass().choose(view, rng)


def _played_out(world: KlaberjassHand, action: int, me: int) -> float:
    """``me``'s score less the other's once ``action`` and a playout end the hand; the
    world is left as it was."""
    depth = 1
    world.push(action)
    while not world.is_over():
        if (
            world.phase == "play"
            and not world.trick
            and world.hands[0].bit_count() + world.hands[1].bit_count() <= EXACT_CARDS
        ):
            margin = _solved(world, me)
            break
        world.push(playout_action(world))
        depth += 1
    else:
        margin = _margin(world, me)
    for _ in range(depth):
        world.pop()
    return margin


def _margin(world: KlaberjassHand, me: int) -> float:
    score = world.outcome()
    assert score is not None
    return float(score.scores[me] - score.scores[1 - me])


def _solved(world: KlaberjassHand, me: int) -> float:
    """The margin of the hand for ``me`` when both play the last tricks of ``world``
    perfectly (minimax over the cards left; a trick is about to be led)."""
    sequence, bella = world.sequence_points(), world.bella()
    extras = (sequence[0] + bella[0], sequence[1] + bella[1])
    power, trump, maker = world.power, world.trump, world.maker
    worth = _POINTS[trump]

    def margin(points: tuple[int, int]) -> float:
        totals = (points[0] + extras[0], points[1] + extras[1])
        _, scores, _ = maker_rule(totals, maker)
        return float(scores[me] - scores[1 - me])

    def best(hands: tuple[int, int], leader: int, points: tuple[int, int]) -> float:
        follower = 1 - leader
        maximise = leader == me
        result = -1e9 if maximise else 1e9
        for led in cards_of(hands[leader]):
            reply_best = 1e9 if maximise else -1e9
            for reply in cards_of(_replies(hands[follower], led, power, trump)):
                winner = follower if _beats(reply, led, power, trump) else leader
                left = [hands[0], hands[1]]
                left[leader] &= ~(1 << led)
                left[follower] &= ~(1 << reply)
                won = worth[led] + worth[reply]
                gained = [points[0], points[1]]
                if not left[0]:
                    gained[winner] += won + LAST_TRICK
                    value = margin((gained[0], gained[1]))
                else:
                    gained[winner] += won
                    value = best((left[0], left[1]), winner, (gained[0], gained[1]))
                reply_best = min(reply_best, value) if maximise else max(reply_best, value)
            result = max(result, reply_best) if maximise else min(result, reply_best)
        return result

    start = (world.hands[0], world.hands[1])
    return best(start, world.player, (world.points[0], world.points[1]))
