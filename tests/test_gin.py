"""Gin Rummy (ruling G): melds and deadwood checked against brute force, and hands
played to gin, a knock, an undercut and a dead hand with their scores."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from umtali.games.gin.game import GinGame, game_bonuses
from umtali.games.gin.melds import (
    best_arrangement,
    deadwood_points,
    defend,
    is_meld,
    lay_off,
    melds_in,
    min_deadwood,
    min_deadwood_adding,
)
from umtali.games.gin.rules import GIN, OKLAHOMA
from umtali.games.gin.state import GinHand, GinMove, GinMoveError
from umtali.kernel.cards import ALL_CARDS, bit, cards_of, mask_of, parse_card, parse_cards


def cards(text: str) -> int:
    return mask_of(parse_cards(text))


def gin_deck(non_dealer: str, dealer: str, upcard: str, stock: str = "") -> list[int]:
    """A deck that deals these hands and upcard, the named stock cards on top and the
    rest of the pack under them."""
    first, second = parse_cards(non_dealer), parse_cards(dealer)
    assert len(first) == len(second) == 10
    dealt = [card for pair in zip(first, second, strict=True) for card in pair]
    top = [*dealt, parse_card(upcard), *parse_cards(stock)]
    return top + [card for card in range(52) if card not in top]


# -- melds and deadwood, against brute force -----------------------------------------------


def brute_min_deadwood(mask: int) -> int:
    """Try every collection of melds from the hand; keep the disjoint ones (at most
    four: thirteen cards hold no more)."""
    melds = melds_in(mask)
    best = deadwood_points(mask)
    for size in range(1, 5):
        for chosen in itertools.combinations(melds, size):
            union = 0
            for meld in chosen:
                if union & meld:
                    break
                union |= meld
            else:
                best = min(best, deadwood_points(mask & ~union))
    return best


def test_least_deadwood_matches_brute_force_on_random_hands() -> None:
    rng = random.Random(2026)
    for _ in range(400):
        hand = mask_of(rng.sample(range(52), rng.choice((10, 11))))
        assert min_deadwood(hand) == brute_min_deadwood(hand)
        best = best_arrangement(hand)
        union = 0
        for meld in best.melds:
            assert is_meld(meld)
            assert not union & meld
            union |= meld
        assert union | best.deadwood == hand
        assert best.points == min_deadwood(hand)


def test_least_deadwood_matches_brute_force_on_hands_rich_in_melds() -> None:
    # Cards from a few ranks and suits make many overlapping melds; hands of every size.
    rng = random.Random(27)
    for _ in range(600):
        ranks = rng.sample(range(13), rng.randint(3, 6))
        suits = rng.sample(range(4), rng.randint(1, 4))
        pool = [suit * 13 + rank for suit in suits for rank in ranks]
        hand = mask_of(rng.sample(pool, rng.randint(0, min(13, len(pool)))))
        assert min_deadwood(hand) == brute_min_deadwood(hand)


def test_the_least_deadwood_with_one_card_more_is_the_whole_hand_s() -> None:
    # min_deadwood_adding searches only the melds through the new card: every card added
    # to hands rich in melds (runs that reach the ends of a suit, sets of four) and to
    # random ones gives the least deadwood of the whole hand.
    rng = random.Random(28)
    for rich in (True, False) * 200:
        if rich:
            ranks = rng.sample(range(13), rng.randint(3, 7))
            suits = rng.sample(range(4), rng.randint(2, 4))
            pool = [suit * 13 + rank for suit in suits for rank in ranks]
            hand = mask_of(rng.sample(pool, rng.randint(2, min(11, len(pool) - 1))))
        else:
            hand = mask_of(rng.sample(range(52), 10))
        for card in cards_of(ALL_CARDS & ~hand):
            assert min_deadwood_adding(hand, card) == min_deadwood(hand | bit(card))
    # The ends of a suit: K♣ next to A♦ in card ids, and a run to the King.
    assert min_deadwood_adding(cards("Qc Kc"), parse_card("Ad")) == 21
    assert min_deadwood_adding(cards("Jc Qc"), parse_card("Kc")) == 0


def test_cards_in_a_row_across_two_suits_are_no_sequence() -> None:
    # K♣ A♦ 2♦ lie on three neighbouring card ids; Q♠ K♠ A♠ would need the ace high.
    assert min_deadwood(mask_of(parse_cards("Kc Ad 2d"))) == 13
    assert min_deadwood(mask_of(parse_cards("Qs Ks As"))) == 21
    assert min_deadwood(mask_of(parse_cards("Kc Kd Kh Ad 2d"))) == 3


def test_melds_are_sets_and_sequences_with_the_ace_low() -> None:
    assert is_meld(cards("As 2s 3s"))
    assert is_meld(cards("Js Qs Ks"))
    assert not is_meld(cards("Qs Ks As"))  # no wrapping round the ace
    assert not is_meld(cards("9s 10s Jh"))  # one suit only
    assert is_meld(cards("Kc Kd Kh Ks"))
    assert not is_meld(cards("Kc Kd"))


def brute_layoff_points(deadwood: int, melds: tuple[int, ...]) -> int:
    """Lay off cards one at a time in every order that keeps the melds melds."""
    best = 0

    def search(left: int, placed: tuple[int, ...], laid: int) -> None:
        nonlocal best
        best = max(best, deadwood_points(laid))
        for card in cards_of(left):
            for i, meld in enumerate(placed):
                if is_meld(meld | bit(card)):
                    grown = (*placed[:i], meld | bit(card), *placed[i + 1 :])
                    search(left & ~bit(card), grown, laid | bit(card))

    search(deadwood, melds, 0)
    return best


@pytest.mark.parametrize(
    ("deadwood", "melds"),
    [
        ("7s 8s 3h", ("4s 5s 6s", "7c 7d 7h")),  # 7♠ belongs on the run, not on the sevens
        ("Ah 5h 6h 7h", ("2h 3h 4h",)),  # chained upwards
        ("10c 9c Kd", ("Jc Qc Kc",)),  # chained downwards
        ("5d 6d 7d 9s", ("2d 3d 4d", "8d 9d 10d", "9c 9h 9d")),  # a gap filled from both ends
    ],
)
def test_layoffs_are_the_most_that_can_be_laid(deadwood: str, melds: tuple[str, ...]) -> None:
    knocked = tuple(cards(meld) for meld in melds)
    laid = lay_off(cards(deadwood), knocked).laid
    assert deadwood_points(laid) == brute_layoff_points(cards(deadwood), knocked)


def test_the_defender_may_break_his_own_meld_to_lay_off_more() -> None:
    # Knocker: 2♥ 3♥ 4♥ and 9♣ 9♦ 9♠. Defender: 5♥ 6♥ 7♥ 9♥ K♣.
    knocked = (cards("2h 3h 4h"), cards("9c 9d 9s"))
    own, layoff = defend(cards("5h 6h 7h 9h Kc"), knocked)
    assert own.points - deadwood_points(layoff.laid) == 10  # only K♣ is left


def test_random_defences_match_brute_force() -> None:
    rng = random.Random(11)
    for _ in range(60):
        deck = rng.sample(range(52), 20)
        knocker, defender = mask_of(deck[:10]), mask_of(deck[10:])
        laid = best_arrangement(knocker)
        own, layoff = defend(defender, laid.melds)
        got = own.points - deadwood_points(layoff.laid)
        brute = min(
            deadwood_points(defender & ~union) - brute_layoff_points(defender & ~union, laid.melds)
            for union in disjoint_unions(melds_in(defender))
        )
        assert got == brute


def disjoint_unions(melds: list[int]) -> list[int]:
    unions = [0]
    for size in range(1, 4):
        for chosen in itertools.combinations(melds, size):
            union = 0
            for meld in chosen:
                if union & meld:
                    break
                union |= meld
            else:
                unions.append(union)
    return unions


# -- hands played out, with their scores ---------------------------------------------------


def test_gin_scores_25_and_every_point_of_the_other_hand() -> None:
    # Non-dealer (player 1): A♠ 2♠ 3♠ 5♣ 5♦ 5♥ 9♥ 10♥ J♥ K♦; the upcard is 4♠.
    # Dealer (player 0):     2♣ 3♣ 7♦ 8♦ Q♣ Q♥ 6♠ 9♣ A♥ 4♦  (60 points, no meld)
    hand = GinHand(
        gin_deck("As 2s 3s 5c 5d 5h 9h 10h Jh Kd", "2c 3c 7d 8d Qc Qh 6s 9c Ah 4d", "4s")
    )
    hand.push_text("take")
    hand.push_text("knock Kd")
    outcome = hand.outcome
    assert outcome is not None
    assert hand.is_over()
    assert (outcome.how, outcome.winner, outcome.points) == ("gin", 1, 25 + 60)
    assert outcome.scores == (0, 85)
    assert outcome.deadwood == (60, 0)
    assert outcome.layoff is not None
    assert outcome.layoff.laid == 0


def test_a_knock_scores_the_difference_after_layoffs() -> None:
    # Non-dealer (1): 4♥ 5♥ 6♥ 8♣ 8♦ 8♠ 2♣ 3♦ 4♠ K♠; upcard A♣.
    # Dealer (0):     7♥ 8♥ 10♣ J♣ 2♠ 5♠ 6♦ 9♦ Q♦ K♦
    # Player 1 takes the ace and knocks with K♠: melds 4-5-6♥ and the eights, deadwood
    # A♣ 2♣ 3♦ 4♠ = 10. Player 0 lays 7♥ then 8♥ off on the hearts (the 8♥ could go on
    # the eights too) and is left with 10+10+2+5+6+9+10+10 = 62.
    hand = GinHand(
        gin_deck("4h 5h 6h 8c 8d 8s 2c 3d 4s Ks", "7h 8h 10c Jc 2s 5s 6d 9d Qd Kd", "Ac")
    )
    hand.push_text("take")
    hand.push_text("knock Ks")
    outcome = hand.outcome
    assert outcome is not None
    assert outcome.layoff is not None
    assert outcome.layoff.laid == cards("7h 8h")
    assert (outcome.how, outcome.winner, outcome.points) == ("knock", 1, 62 - 10)
    assert outcome.deadwood == (62, 10)


def test_an_undercut_gives_the_defender_the_difference_and_25() -> None:
    # Non-dealer (1) knocks with 9 deadwood: A♣ A♦ 3♦ 4♠ beside 7-8-9♣ and J♦ J♥ J♠.
    # Dealer (0) holds 2-3-4♥, 5♣ 5♦ 5♠, Q♣ Q♦ Q♠ and 2♠: 2 deadwood.
    hand = GinHand(gin_deck("7c 8c 9c Jd Jh Js Ac Ad 3d 4s", "2h 3h 4h 5c 5d 5s Qc Qd Qs 2s", "Kh"))
    hand.push_text("pass")
    hand.push_text("pass")
    hand.push(GinMove("draw"))
    drawn = hand.deck[21]
    hand.push(GinMove("knock", drawn))
    outcome = hand.outcome
    assert outcome is not None
    assert (outcome.how, outcome.winner, outcome.points) == ("undercut", 0, 9 - 2 + 25)


def test_the_hand_is_dead_when_two_cards_are_left_in_the_stock() -> None:
    hand = GinHand.from_seed(3)
    hand.push_text("pass")
    hand.push_text("pass")
    while not hand.is_over():
        hand.push_text("draw")
        drawn = hand.deck[hand.stock_pos - 1]
        hand.push(GinMove("discard", drawn))  # never knock: throw back what was drawn
    assert hand.stock_size() == 2
    assert hand.outcome is not None
    assert (hand.outcome.how, hand.outcome.scores) == ("dead", (0, 0))


def test_the_card_taken_from_the_pile_is_not_discarded_that_turn() -> None:
    hand = GinHand(gin_deck("7c 8c 9c Jd Jh Js Ac Ad 3d 4s", "2h 3h 4h 5c 5d 5s Qc Qd Qs 2s", "Kh"))
    hand.push_text("take")
    with pytest.raises(GinMoveError, match="not allowed now"):
        hand.push_text("discard Kh")
    assert "knock Kh" not in [move.text() for move in hand.legal_moves()]


def test_both_refuse_the_upcard_then_the_non_dealer_must_draw() -> None:
    hand = GinHand.from_seed(5, dealer=0)
    assert hand.to_move() == 1
    hand.push_text("pass")
    assert hand.to_move() == 0
    assert [m.text() for m in hand.legal_moves()] == ["take", "pass"]
    hand.push_text("pass")
    assert hand.to_move() == 1
    assert [m.text() for m in hand.legal_moves()] == ["draw"]


def test_oklahoma_takes_its_knock_limit_and_doubling_from_the_upcard() -> None:
    deal = ("7c 8c 9c Jd Jh Js Ac Ad 3d 4s", "2h 3h 4h 5c 5d 5s Qc Qd Qs 2s")
    seven = GinHand(gin_deck(*deal, "7h"), rules=OKLAHOMA)
    assert (seven.knock_limit, seven.multiplier) == (7, 1)
    ace = GinHand(gin_deck(*deal, "Ah"), rules=OKLAHOMA)
    assert ace.knock_limit == 0  # gin only
    spade = GinHand(gin_deck(*deal, "6s"), rules=OKLAHOMA)
    assert (spade.knock_limit, spade.multiplier) == (6, 2)
    assert GinHand(gin_deck(*deal, "6s"), rules=GIN).knock_limit == 10


def test_a_spade_upcard_doubles_the_hand_in_oklahoma() -> None:
    # The gin hand above with a spade upcard (4♠): its 60 points of deadwood count
    # twice, the gin bonus once: 25 + 2 x 60.
    hand = GinHand(
        gin_deck("As 2s 3s 5c 5d 5h 9h 10h Jh Kd", "2c 3c 7d 8d Qc Qh 6s 9c Ah 4d", "4s"),
        rules=OKLAHOMA,
    )
    hand.push_text("take")
    hand.push_text("knock Kd")
    assert hand.outcome is not None
    assert hand.outcome.scores == (0, 25 + 120)


def test_pop_takes_every_move_back_exactly() -> None:
    rng = random.Random(5)
    for seed in range(20):
        hand = GinHand.from_seed(seed, dealer=seed % 2)
        seen = []
        while not hand.is_over():
            seen.append((hand.hands, hand.pile, hand.stock_pos, hand.legal_actions()))
            hand.push(rng.choice(hand.legal_actions()))
        while hand.history:
            hand.pop()
            assert (hand.hands, hand.pile, hand.stock_pos, hand.legal_actions()) == seen.pop()
        assert hand.outcome is None
        assert hand.hands[0] | hand.hands[1] | bit(hand.pile[0]) == (
            ALL_CARDS & ~mask_of(hand.deck[21:])
        )


def test_a_refused_move_changes_nothing_and_says_what_is_allowed() -> None:
    hand = GinHand.from_seed(9)
    before = (hand.hands, hand.pile, hand.stock_pos, len(hand.history))
    with pytest.raises(GinMoveError, match="the moves allowed: take, pass"):
        hand.push_text("draw")
    with pytest.raises(GinMoveError, match="not a Gin Rummy move"):
        hand.push_text("meld 4d 5d 6d")
    assert (hand.hands, hand.pile, hand.stock_pos, len(hand.history)) == before


# -- a game to 100 ---------------------------------------------------------------------------

GIN_CARDS = "As 2s 3s 5c 5d 5h 9h 10h Jh Kd"  # gin with the 4♠ upcard, throwing the K♦
SIXTY = "2c 3c 7d 8d Qc Qh 6s 9c Ah 4d"  # 60 points, no meld


def gin_hand(game: GinGame, *, by_dealer: bool = False) -> None:
    """Deal and play the next hand: one player goes gin (85 points), the non-dealer
    at once, or the dealer after the non-dealer passes."""
    if by_dealer:
        hand = game.new_hand(gin_deck(SIXTY, GIN_CARDS, "4s"))
        hand.push_text("pass")
    else:
        hand = game.new_hand(gin_deck(GIN_CARDS, SIXTY, "4s"))
    hand.push_text("take")
    hand.push_text("knock Kd")


def dead_hand(game: GinGame) -> None:
    """Deal and play the next hand to a dead hand: nobody takes a card or knocks."""
    hand = game.new_hand(gin_deck("7c 8c 10c Jd Jh Js Ac Ad 3d 4s", SIXTY, "Kh"))
    hand.push_text("pass")
    hand.push_text("pass")
    while not hand.is_over():
        hand.push_text("draw")
        hand.push(GinMove("discard", hand.deck[hand.stock_pos - 1]))


def test_a_game_to_100_with_its_line_and_game_bonuses() -> None:
    game = GinGame(first_dealer=0)
    gin_hand(game)  # dealer 0: player 1 goes gin, 85
    dead_hand(game)  # dealer 1
    assert game.next_dealer() == 1  # a dead hand is dealt again by its dealer
    gin_hand(game)  # dealer 1: player 0 goes gin, 85
    assert game.totals() == (85, 85)
    assert not game.is_over()
    gin_hand(game)  # dealer 0: player 1, 170
    assert game.is_over()
    result = game.result()
    assert (result.winner, result.points, result.shutout) == (1, (85, 170), False)
    assert result.line == (0, 50)  # 25 for each hand the winner won (seed 004)
    assert result.final == (85, 170 + 50 + 100)
    assert result.margin == 320 - 85


def test_the_line_bonus_is_the_winners_and_a_shutout_doubles_his_whole_score() -> None:
    # Seed 004's figures (ruling G): hand points 100 to 42, hands won 7 to 2: the winner
    # adds 25 for each of his 7 and the game's 100, 375 to 42. Clubs that give the loser
    # his line bonus too (an option) make it 375 to 92.
    assert game_bonuses((100, 42), (7, 2), (0,), GIN).final == (375, 42)
    both = dataclasses.replace(GIN, line_bonus_to_all=True)
    assert game_bonuses((100, 42), (7, 2), (0,), both).final == (375, 92)
    # A shutout: 127 points from 3 hands, the loser won none: (127 + 75) x 2 + 200.
    shutout = game_bonuses((127, 0), (3, 0), (0,), GIN)
    assert (shutout.shutout, shutout.game_bonus, shutout.final) == (True, 200, (604, 0))


def test_a_shutout_doubles_the_winners_points_and_the_game_bonus() -> None:
    game = GinGame(first_dealer=0)
    gin_hand(game)  # dealer 0: player 1 goes gin, 85
    gin_hand(game, by_dealer=True)  # dealer 1 goes gin again: 170, player 0 won nothing
    result = game.result()
    assert (result.winner, result.points, result.shutout) == (1, (0, 170), True)
    assert result.game_bonus == 200
    assert result.final == (0, 2 * (170 + 2 * 25) + 200)  # hands and lines doubled
    with pytest.raises(ValueError, match="the game is over"):
        game.new_hand(gin_deck(GIN_CARDS, SIXTY, "4s"))


# -- Oklahoma: the knock limit and the doubling from the upcard, a game to 150 ---------------

KNOCKER = "7c 8c 9c Jd Jh Js Ac Ad 3d 4s"  # 7-8-9♣ and three jacks; A♣ A♦ 3♦ 4♠ = 9
DEFENDER = "2h 3h 4h 5c 5d 5s Qc Qd Qs 2s"  # 2-3-4♥, three fives, three queens; 2♠ = 2


def knock_moves(upcard: str, drawn: str) -> list[str]:
    """The knocks the non-dealer may make in Oklahoma after both pass the upcard and he
    draws ``drawn``."""
    hand = GinHand(gin_deck(KNOCKER, DEFENDER, upcard, drawn), rules=OKLAHOMA)
    hand.push_text("pass")
    hand.push_text("pass")
    hand.push_text("draw")
    return [move.text() for move in hand.legal_moves() if move.kind == "knock"]


def test_oklahoma_knocks_at_the_upcards_rank_or_fewer() -> None:
    # He draws K♥ and throws it back, keeping 9 points of deadwood.
    assert knock_moves("9h", "Kh") == ["knock Kh"]  # nine or fewer: he may
    assert knock_moves("8h", "Kh") == []  # eight or fewer: he may not
    assert knock_moves("Qh", "Kh") == ["knock Kh"]  # a face card leaves the usual 10


def test_an_ace_upcard_in_oklahoma_allows_gin_only() -> None:
    # Drawing 2♦ makes A-2-3♦; throwing 4♠ leaves the A♣ alone, 1 point: no knock.
    assert knock_moves("Ah", "2d") == []
    assert "knock 4s" in knock_moves("Qh", "2d")
    # A hand that goes gin may still knock: A♣ upcard, and the 4♠ drawn completes
    # A-2-3-4♠ beside three fives and 9-10-J♥, K♦ thrown face down.
    hand = GinHand(gin_deck(GIN_CARDS, SIXTY, "Ac", "4s"), rules=OKLAHOMA)
    for move in ("pass", "pass", "draw", "knock Kd"):
        hand.push_text(move)
    assert hand.outcome is not None
    assert (hand.outcome.how, hand.outcome.scores) == ("gin", (0, 25 + 60))


def test_a_spade_upcard_doubles_a_knock_and_an_undercut_but_not_the_bonus() -> None:
    # Non-dealer: 4-5-6♥ and three eights, draws A♣ and knocks with K♠: A♣ 2♣ 3♦ 4♠ = 10
    # (the 10♠ upcard allows ten). The dealer lays 7♥ 8♥ off and keeps 62.
    hand = GinHand(
        gin_deck("4h 5h 6h 8c 8d 8s 2c 3d 4s Ks", "7h 8h 10c Jc 2s 5s 6d 9d Qd Kd", "10s", "Ac"),
        rules=OKLAHOMA,
    )
    for move in ("pass", "pass", "draw", "knock Ks"):
        hand.push_text(move)
    assert hand.outcome is not None
    assert (hand.outcome.how, hand.outcome.scores) == ("knock", (0, 2 * (62 - 10)))
    # The knocker of 9 drawing K♣ under a K♠ upcard is undercut by the dealer's 2:
    # the difference doubled, the 25 once.
    hand = GinHand(gin_deck(KNOCKER, DEFENDER, "Ks", "Kc"), rules=OKLAHOMA)
    for move in ("pass", "pass", "draw", "knock Kc"):
        hand.push_text(move)
    assert hand.outcome is not None
    assert (hand.outcome.how, hand.outcome.scores) == ("undercut", (2 * (9 - 2) + 25, 0))


def test_oklahoma_is_played_to_150_with_the_usual_bonuses() -> None:
    game = GinGame(OKLAHOMA, first_dealer=0)
    gin_hand(game)  # dealer 0; the 4♠ upcard doubles: player 1 scores 25 + 2 x 60 = 145
    assert game.totals() == (0, 145)
    assert not game.is_over()  # over 100, short of 150
    gin_hand(game)  # dealer 1: player 0, 145
    gin_hand(game)  # dealer 0: player 1, 290
    assert game.is_over()
    result = game.result()
    assert (result.winner, result.points, result.shutout) == (1, (145, 290), False)
    assert result.final == (145, 290 + 2 * 25 + 100)  # bonuses are never doubled
