"""Our Gin Rummy against an independent implementation: OpenSpiel's ``gin_rummy``.

Both engines play the same deals (OpenSpiel's chance outcomes are set to our deck) and
the same choices (ours, made by a policy that knocks often, so that knocks, gins and
undercuts are common). At every decision the legal moves must agree; at the end the
scores must. Where the two engines differ, the test expects the difference; 1, 2, 6
and 7 are also shown on their own at the end of this file:

1. OpenSpiel lets a player discard the card he just took from the discard pile; ruling
   G does not.
2. OpenSpiel scores a tie after a knock (equal deadwood) as 0; ruling G gives the
   defender 25 for it, as an undercut.
3. When a discard leaves two cards in the stock, OpenSpiel lets the next player take
   that discard if it lets him knock; ruling G ends the hand there, dead.
4. OpenSpiel ends a hand after 50 draws from the discard pile; we end it after 100
   turns (``GinRules.turn_cap``). The test stops comparing a hand that goes that long.
5. OpenSpiel has the knocker and the defender lay melds and layoffs one move at a
   time; we lay them as :mod:`umtali.games.gin.melds` finds best. The test feeds OpenSpiel our
   melds and layoffs and checks that it accepts each as legal and scores them alike.
6. OpenSpiel lays off along a sequence only two cards deep: with 3♦ 4♦ 5♦ on the table
   it takes 6♦ and then 7♦, but not 8♦ after them. The rules put no such limit, and
   neither do we; the test stops comparing a hand whose layoffs go deeper.
7. OpenSpiel can miss a knock: with 2♣ 3♣ 4♣ 5♣, 2♠ 3♠ 4♠ 5♠, 2♦ 2♥ and 5♥ under an
   ace upcard (Oklahoma: gin only), discarding 5♥ leaves gin (3-4-5♣, 2♣ 2♦ 2♥,
   2-3-4-5♠), and OpenSpiel's own count of those ten cards says 0, but its count of the
   eleven says 2, so it offers no knock. The test checks such a knock against
   OpenSpiel's ten-card count and stops comparing that hand.
8. OpenSpiel's Oklahoma does not double a hand under a spade upcard; the test doubles
   its deadwood count before comparing.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.test_gin import gin_deck
from umtali.games.gin.melds import lay_off, min_deadwood
from umtali.games.gin.rules import GIN, OKLAHOMA, GinRules
from umtali.games.gin.state import DISCARD, DRAW, KNOCK, PASS, TAKE, GinHand, GinMove, GinOutcome
from umtali.kernel.cards import bit, cards_of, mask_of, parse_card, parse_cards, rank_of, suit_of

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is in the bench extra")

HANDS = 1000
"""Hands compared: each is dealt from its own seed."""

DRAW_UPCARD, DRAW_STOCK, OS_PASS, OS_KNOCK, MELD_BASE = 52, 53, 54, 55, 56


def os_card(card: int) -> int:
    """OpenSpiel's id of our card: its suits run spades, clubs, diamonds, hearts."""
    return (suit_of(card) + 1) % 4 * 13 + rank_of(card) - 1


def our_card(os_id: int) -> int:
    return (os_id // 13 + 3) % 4 * 13 + os_id % 13


GAME = pyspiel.load_game("gin_rummy")
OKLAHOMA_GAME = pyspiel.load_game("gin_rummy", {"oklahoma": True})
MELD_IDS: dict[frozenset[int], int] = {}
for _action in range(MELD_BASE, GAME.num_distinct_actions()):
    _text = GAME.new_initial_state().action_to_string(0, _action).split("Action: ")[1]
    _names = [_text[i : i + 2] for i in range(0, len(_text), 2)]
    _os_ids = [("A23456789TJQK".index(n[0])) + 13 * "scdh".index(n[1]) for n in _names]
    MELD_IDS[frozenset(our_card(c) for c in _os_ids)] = _action


def os_melds(meld: int) -> list[int]:
    """OpenSpiel's meld actions for one of our melds: its sequences hold at most five
    cards, so a longer one is laid as two."""
    cards = cards_of(meld)
    if len(cards) > 5:
        return [MELD_IDS[frozenset(cards[:3])], *os_melds(sum(bit(c) for c in cards[3:]))]
    return [MELD_IDS[frozenset(cards)]]


def dealt_in_openspiel(hand: GinHand, game: Any = GAME) -> Any:
    """OpenSpiel's state dealt as ``hand`` was (its dealer must be player 1): OpenSpiel
    deals ten cards to player 0, ten to player 1, then the upcard."""
    state = game.new_initial_state()
    deal = [hand.deck[i] for i in range(0, 20, 2)] + [hand.deck[i] for i in range(1, 20, 2)]
    for card in [*deal, hand.deck[20]]:
        state.apply_action(os_card(card))
    return state


def expected_os_legal(hand: GinHand, os_phase: Any) -> set[int]:
    """What OpenSpiel should allow now, worked out from our hand."""
    player = hand.to_move()
    assert player is not None
    ours = hand.legal_actions()
    if os_phase == pyspiel.gin_rummy.FIRST_UPCARD:
        return {DRAW_STOCK} if ours == [DRAW] else {DRAW_UPCARD, OS_PASS}
    if os_phase == pyspiel.gin_rummy.DRAW:
        assert sorted(ours) == [DRAW, TAKE]
        return {DRAW_UPCARD, DRAW_STOCK}
    assert os_phase == pyspiel.gin_rummy.DISCARD
    held = hand.hand(player)
    # Difference 1: OpenSpiel allows every card, the one just taken included.
    allowed = {os_card(c) for c in cards_of(held)}
    assert {a - DISCARD for a in ours if a < KNOCK} | {hand.taken} - {-1} == set(cards_of(held))
    if any(min_deadwood(held & ~bit(c)) <= hand.knock_limit for c in cards_of(held)):
        allowed.add(OS_KNOCK)
    return allowed


UTILS = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)


def knock_confirmed_by_openspiel(hand: GinHand) -> bool:
    """Whether OpenSpiel's own count of ten cards' deadwood allows the knock its
    eleven-card count refused: some discard leaves no more than the limit."""
    player = hand.to_move()
    assert player is not None
    held = cards_of(hand.hand(player))
    return any(
        UTILS.min_deadwood([os_card(c) for c in held if c != out]) <= hand.knock_limit
        for out in held
    )


def policy(hand: GinHand, rng: random.Random) -> int:
    """A player who knocks when he can (mostly) and otherwise plays at random or sheds
    his worst card, so that every ending is reached often."""
    legal = hand.legal_actions()
    knocks = [a for a in legal if a >= KNOCK and a < DRAW]
    held = hand.hand(hand.player)
    gins = [a for a in knocks if min_deadwood(held & ~bit(a - KNOCK)) == 0]
    if gins or (knocks and rng.random() < 0.4):
        return rng.choice(gins or knocks)
    discards = [a for a in legal if a < KNOCK]
    if discards and rng.random() < 0.7:
        return min(discards, key=lambda a: (min_deadwood(held & ~bit(a)), rng.random()))
    return rng.choice([a for a in legal if not KNOCK <= a < DRAW] or legal)


def lay_knock(state: Any, outcome: GinOutcome) -> bool:
    """Feed OpenSpiel the knock as we laid it: melds, then the layoffs (in an order
    that chains along sequences), then the defender's melds. False when OpenSpiel
    refuses a layoff three or more cards along a sequence (difference 6)."""
    assert outcome.knocker_melds is not None
    assert outcome.layoff is not None
    assert outcome.defender_melds is not None
    for meld in outcome.knocker_melds.melds:
        for action in os_melds(meld):
            assert action in state.legal_actions(), "OpenSpiel refuses a meld we laid"
            state.apply_action(action)
    state.apply_action(OS_PASS)
    if outcome.how != "gin":
        left = set(cards_of(outcome.layoff.laid))
        while left:
            legal = set(state.legal_actions())
            ready = sorted(c for c in left if os_card(c) in legal)
            if not ready:
                laid = outcome.layoff.laid & ~sum(bit(c) for c in left)
                # The next card along the sequence is the one OpenSpiel cannot take.
                assert any(is_deep_chain(c, laid) for c in left), "OpenSpiel refuses a layoff"
                return False
            state.apply_action(os_card(ready[0]))
            left.discard(ready[0])
        state.apply_action(OS_PASS)
    for meld in outcome.defender_melds.melds:
        if meld & outcome.layoff.laid:
            continue  # broken up to lay off its cards
        for action in os_melds(meld):
            state.apply_action(action)
    state.apply_action(OS_PASS)
    return True


def is_deep_chain(card: int, laid: int) -> bool:
    """Whether ``card`` reaches a sequence only through two cards laid off before it,
    next to it in its suit."""
    rank = rank_of(card)
    below = [rank - 1, rank - 2]
    above = [rank + 1, rank + 2]
    same_suit = {rank_of(c) for c in cards_of(laid) if suit_of(c) == suit_of(card)}
    return set(below) <= same_suit or set(above) <= same_suit


def play_both(seed: int, rules: GinRules = GIN) -> str:
    """Play one hand through both engines; returns how it ended (or "long")."""
    rng = random.Random(seed)
    hand = GinHand.from_seed(seed, dealer=1, rules=rules)  # OpenSpiel's player 0 moves first
    state = dealt_in_openspiel(hand, OKLAHOMA_GAME if rules.oklahoma else GAME)
    takes = 0
    while not hand.is_over():
        assert state.current_player() == hand.to_move()
        assert state.knock_card() == hand.knock_limit
        assert state.stock_size() == hand.stock_size()
        expected = expected_os_legal(hand, state.current_phase())
        offered = set(state.legal_actions())
        if offered != expected:
            assert expected - offered == {OS_KNOCK}, seed
            assert offered <= expected, seed
            assert knock_confirmed_by_openspiel(hand), seed  # difference 7
            return "missed"

        action = policy(hand, rng)
        hand.push(action)
        if action == PASS:
            state.apply_action(OS_PASS)
        elif action == TAKE:
            takes += 1
            if takes >= 50:
                return "long"  # difference 4
            state.apply_action(DRAW_UPCARD)
        elif action == DRAW:
            state.apply_action(DRAW_STOCK)
            state.apply_action(os_card(hand.deck[hand.stock_pos - 1]))
        elif action < KNOCK:
            state.apply_action(os_card(action - DISCARD))
        else:
            state.apply_action(OS_KNOCK)
            state.apply_action(os_card(action - KNOCK))
    outcome = hand.outcome
    assert outcome is not None
    if outcome.how == "dead":
        if hand.turns() >= hand.rules.turn_cap:
            return "long"
        assert state.current_phase() == pyspiel.gin_rummy.WALL  # difference 3
        state.apply_action(OS_PASS)
        assert state.returns() == [0.0, 0.0]
        return "dead"
    if not lay_knock(state, outcome):
        return "chain"
    assert state.is_terminal()
    returns = state.returns()
    knocked, defended = (
        outcome.deadwood[outcome.knocker or 0],
        outcome.deadwood[1 - (outcome.knocker or 0)],
    )
    if outcome.how == "undercut" and knocked == defended:  # difference 2
        assert returns == [0.0, 0.0]
        return "tie"
    assert outcome.winner is not None
    # OpenSpiel has no spade doubling (Oklahoma): ours doubles the deadwood, not the bonus.
    bonus = {"gin": rules.gin_bonus, "undercut": rules.undercut_bonus}.get(outcome.how, 0)
    doubled = (returns[outcome.winner] - bonus) * hand.multiplier + bonus
    assert doubled == outcome.points, (seed, outcome)
    return outcome.how


@pytest.mark.parametrize(("rules", "hands"), [(GIN, HANDS), (OKLAHOMA, HANDS // 4)])
def test_both_engines_agree_over_thousands_of_hands(rules: GinRules, hands: int) -> None:
    endings: dict[str, int] = {}
    for seed in range(hands):
        how = play_both(seed, rules)
        endings[how] = endings.get(how, 0) + 1
    # Every ending must have been reached, or the comparison proved little.
    for how in ("gin", "knock", "undercut", "dead"):
        assert endings.get(how, 0) >= hands // 100, endings


def test_openspiel_lets_the_card_just_taken_be_discarded_and_we_do_not() -> None:
    hand = GinHand.from_seed(4, dealer=1)
    hand.push(TAKE)
    taken = hand.taken
    assert DISCARD + taken not in hand.legal_actions()
    state = dealt_in_openspiel(hand)
    state.apply_action(DRAW_UPCARD)
    assert os_card(taken) in state.legal_actions()


def test_a_tie_after_a_knock_is_an_undercut_for_us_and_nothing_for_openspiel() -> None:
    # Non-dealer (0): 7-8-9-10♣, J♦ J♥ J♠, and A♣ 2♦ 4♠: 7 deadwood.
    # Dealer (1):     2-3-4♥, 5♣ 5♦ 5♠, Q♣ Q♦ Q♠, and 7♠: 7 deadwood, nothing to lay off.
    hand = GinHand(
        gin_deck("7c 8c 9c 10c Jd Jh Js Ac 2d 4s", "2h 3h 4h 5c 5d 5s Qc Qd Qs 7s", "Kh"),
        dealer=1,
    )
    state = dealt_in_openspiel(hand)
    for action in (PASS, PASS, DRAW):
        hand.push(action)
    for action in (OS_PASS, OS_PASS, DRAW_STOCK, os_card(hand.deck[21])):
        state.apply_action(action)
    hand.push(GinMove("knock", hand.deck[21]))  # throws back the card drawn
    state.apply_action(OS_KNOCK)
    state.apply_action(os_card(hand.deck[21]))
    outcome = hand.outcome
    assert outcome is not None
    assert outcome.deadwood == (7, 7)
    assert (outcome.how, outcome.winner, outcome.points) == ("undercut", 1, 25)
    assert lay_knock(state, outcome)
    assert state.returns() == [0.0, 0.0]


def test_openspiel_lays_off_only_two_cards_along_a_sequence() -> None:
    # On the table: 3♦ 4♦ 5♦. Laid off already: 6♦ and 7♦. The 8♦ still fits.
    run = frozenset(parse_cards("3d 4d 5d"))
    offered = UTILS.all_layoffs(
        [MELD_IDS[run] - MELD_BASE], [os_card(c) for c in parse_cards("6d 7d")]
    )
    assert os_card(parse_card("8d")) not in offered
    ours = lay_off(mask_of(parse_cards("6d 7d 8d")), (mask_of(run),))
    assert ours.laid == mask_of(parse_cards("6d 7d 8d"))


def test_openspiel_misses_a_gin_that_a_discard_would_leave() -> None:
    ten = parse_cards("2c 3c 4c 5c 2d 2h 2s 3s 4s 5s")
    eleven = [*ten, parse_card("5h")]
    assert UTILS.min_deadwood([os_card(c) for c in ten]) == 0
    assert UTILS.min_deadwood([os_card(c) for c in eleven]) == 2
    assert min_deadwood(mask_of(ten)) == 0  # ours: discard 5♥ and it is gin
