"""Klaberjass's engine (ruling K): the deal in threes, both rounds of bidding, schmeiss,
the exchange of the 7 of trump, the tricks (follow, trump, head a trump lead), sequences,
bella, the last trick, the maker's rule and the pot, push/pop and perft."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from umtali.games.klaberjass.match import KlaberjassMatch
from umtali.games.klaberjass.moves import KlaberjassMove, KlaberjassMoveError
from umtali.games.klaberjass.rules import BOOK, CLASSIC, KlaberjassRules
from umtali.games.klaberjass.state import KlaberjassHand, maker_rule
from umtali.games.klaberjass.terms import DECK, card_points, sequences
from umtali.kernel.cards import cards_of, mask_of, parse_card, parse_cards, suit_of
from umtali.kernel.deck import seeded_deck

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def stacked(elder: str, dealer: str, turned: str, elder3: str, dealer3: str) -> list[int]:
    """A deck that deals ``elder`` (6 cards) and ``dealer`` (6) in packets of three,
    turns up ``turned``, then gives ``elder3`` and ``dealer3``; the rest is the stock, in
    card order."""
    e, d = parse_cards(elder), parse_cards(dealer)
    front = [*e[:3], *d[:3], *e[3:], *d[3:], parse_card(turned)]
    front += parse_cards(elder3) + parse_cards(dealer3)
    rest = [c for c in cards_of(DECK) if c not in front]
    return front + rest


def texts(hand: KlaberjassHand) -> list[str]:
    return [move.text() for move in hand.legal_moves()]


def play(hand: KlaberjassHand, *moves: str) -> None:
    for text in moves:
        hand.push_text(text)


# Player 1 deals, so player 0 (the elder) bids and leads first.
#   elder:  J♥ 9♥ A♥ | K♠ Q♠ J♠   then 7♥ 10♣ 8♦
#   dealer: A♣ K♣ Q♣ | 10♦ 9♦ 8♣  then 7♠ A♦ K♦
#   turned up: 8♥
HEARTS_DECK = stacked("Jh 9h Ah Ks Qs Js", "Ac Kc Qc 10d 9d 8c", "8h", "7h 10c 8d", "7s Ad Kd")


def test_the_deal_in_threes_and_the_turned_up_card() -> None:
    hand = KlaberjassHand(HEARTS_DECK, dealer=1)
    assert hand.hands[0] == mask_of(parse_cards("Jh 9h Ah Ks Qs Js"))
    assert hand.hands[1] == mask_of(parse_cards("Ac Kc Qc 10d 9d 8c"))
    assert (hand.turned, hand.phase, hand.to_move()) == (parse_card("8h"), "bid1", 0)
    assert texts(hand) == ["take", "pass"]


def test_a_take_deals_three_more_and_the_7_of_trump_may_be_exchanged() -> None:
    hand = KlaberjassHand(HEARTS_DECK, dealer=1)
    play(hand, "take")  # hearts are trump; the elder is maker
    assert (hand.maker, suit_of(hand.turned), hand.phase) == (0, 2, "exchange")
    assert len(cards_of(hand.hands[0])) == len(cards_of(hand.hands[1])) == 9
    assert texts(hand) == ["exchange", "keep"]
    play(hand, "exchange")  # 7♥ for the 8♥
    assert hand.hands[0] >> parse_card("8h") & 1
    assert not hand.hands[0] >> parse_card("7h") & 1
    assert hand.phase == "play"
    assert hand.bottom_shown()
    hand.pop()
    assert hand.hands[0] >> parse_card("7h") & 1
    assert hand.phase == "exchange"


def test_the_second_round_names_another_suit_and_two_passes_throw_it_in() -> None:
    hand = KlaberjassHand(HEARTS_DECK, dealer=1)
    play(hand, "pass", "pass")
    assert hand.phase == "bid2"
    assert texts(hand) == ["name ♣", "name ♦", "name ♠", "pass"]
    with pytest.raises(KlaberjassMoveError, match="was turned down in the first round"):
        hand.push_text("name hearts")
    play(hand, "name spades")
    assert (hand.maker, hand.trump, hand.phase) == (0, 3, "play")  # no exchange off-suit
    thrown = KlaberjassHand(HEARTS_DECK, dealer=1)
    play(thrown, "pass", "pass", "pass", "pass")
    assert thrown.is_over()
    assert thrown.thrown_in()
    outcome = thrown.outcome()
    assert outcome is not None
    assert (outcome.result, outcome.scores) == ("thrown_in", (0, 0))


def test_schmeiss_is_an_option_accepted_or_refused() -> None:
    plain = KlaberjassHand(HEARTS_DECK, dealer=1)
    with pytest.raises(KlaberjassMoveError, match="do not allow schmeiss"):
        plain.push_text("schmeiss")
    rules = dataclasses.replace(BOOK, schmeiss=True)
    hand = KlaberjassHand(HEARTS_DECK, dealer=1, rules=rules)
    assert texts(hand) == ["take", "pass", "schmeiss"]
    play(hand, "schmeiss")
    assert (hand.to_move(), texts(hand)) == (1, ["accept", "refuse"])
    play(hand, "accept")
    assert hand.thrown_in()
    hand.pop()
    play(hand, "refuse")  # the offerer makes the turned-up suit
    assert (hand.maker, hand.trump) == (0, 2)


def test_follow_suit_trump_and_head_a_trump_lead() -> None:
    hand = KlaberjassHand(HEARTS_DECK, dealer=1)
    play(hand, "take", "keep")
    # Elder: J♥ 9♥ A♥ 7♥ K♠ Q♠ J♠ 10♣ 8♦; dealer: A♣ K♣ Q♣ 10♦ 9♦ 8♣ 7♠ A♦ K♦.
    play(hand, "play K♠")
    assert texts(hand) == ["play 7♠"]  # he must follow
    with pytest.raises(KlaberjassMoveError, match=r"you must follow suit: you hold the 7♠ \(K\)"):
        hand.push_text("play A♣")
    play(hand, "play 7♠")  # the elder wins K♠ 7♠: 4 points
    assert (hand.points, hand.to_move()) == ([4, 0], 0)
    play(hand, "play 9♥")  # a trump lead: the dealer has no heart, so any card
    assert len(texts(hand)) == 8
    play(hand, "play 8♣", "play 8♦")
    # The dealer has diamonds: he must follow, and may play any of them.
    assert texts(hand) == ["play A♦", "play 9♦", "play 10♦", "play K♦"]


def test_a_trump_lead_must_be_headed_if_possible() -> None:
    # The dealer holds 7♥ and K♥; the elder leads the 8♥ (book ranking: K above 8 above 7).
    deck = stacked("Jc 9c Ac 8h Qs Js", "Ad Kd Qd 7h Kh 9d", "10h", "7c 10c 8d", "7s As Ks")
    hand = KlaberjassHand(deck, dealer=1)
    play(hand, "take")  # hearts; the dealer holds 7♥ and may exchange it
    assert hand.to_move() == 1
    play(hand, "keep", "play 8♥")
    assert texts(hand) == ["play K♥"]
    with pytest.raises(KlaberjassMoveError, match="a higher trump than 8♥: you hold the K♥"):
        hand.push_text("play 7h")


@settings(max_examples=80, deadline=None)
@given(seeds, st.sampled_from([BOOK, CLASSIC]))
def test_random_hands_keep_every_rule_and_count_every_point(
    seed: int, rules: KlaberjassRules
) -> None:
    rng = random.Random(seed)
    hand = KlaberjassHand(seeded_deck(seed, DECK), dealer=seed % 2, rules=rules)
    played: list[int] = []
    while not hand.is_over():
        legal = hand.legal_actions()
        assert legal
        assert len(set(legal)) == len(legal)
        before = snapshot(hand)
        for action in legal:  # push then pop restores the hand
            hand.push(action)
            hand.pop()
            assert snapshot(hand) == before
        if hand.phase == "play":
            check_card_rules(hand, legal)
        action = rng.choice(legal)
        if hand.phase == "play":
            played.append(action >> 4)
        hand.push(action)
    outcome = hand.outcome()
    assert outcome is not None
    if outcome.result == "thrown_in":
        return
    # The card points won are those of the 18 cards played, with 10 for the last trick.
    assert len(played) == 18
    assert sum(hand.points) == sum(card_points(c, trump=hand.trump) for c in played) + 10
    sequence, bella = hand.sequence_points(), hand.bella()
    totals = tuple(hand.points[p] + sequence[p] + bella[p] for p in (0, 1))
    assert outcome.totals == totals
    assert (outcome.result, outcome.scores, outcome.to_pot) == maker_rule(totals, hand.maker)


def snapshot(hand: KlaberjassHand) -> tuple[object, ...]:
    return (
        tuple(hand.hands),
        hand.phase,
        hand.player,
        hand.trump,
        hand.maker,
        tuple(hand.trick),
        tuple(hand.points),
        tuple(hand.history),
        hand.start_hands,
    )


def check_card_rules(hand: KlaberjassHand, legal: list[int]) -> None:
    """Every legal card obeys follow suit, trump, and head a trump lead; and every card
    of the hand that is not legal breaks one of them."""
    mine = hand.hands[hand.player]
    cards = {action >> 4 for action in legal}
    if not hand.trick:
        assert mask_of(cards) == mine
        return
    led = hand.trick[0]
    suit, trump = suit_of(led), hand.trump
    same = [c for c in cards_of(mine) if suit_of(c) == suit]
    trumps = [c for c in cards_of(mine) if suit_of(c) == trump]
    power = hand._strength
    if suit == trump:
        higher = [c for c in trumps if power[c] > power[led]]
        expected = higher or trumps or cards_of(mine)
    else:
        expected = same or trumps or cards_of(mine)
    assert cards == set(expected)


def test_sequences_score_for_the_best_only() -> None:
    assert sequences(mask_of(parse_cards("7h 8h 9h 10h"))) == [(50, 10, 2)]
    # Player 0: 9♠ 10♠ J♠ (20, top J); player 1: Q♦ K♦ A♦ (20, top A): player 1 scores.
    deck = stacked("9s 10s Js 7c 8c 9c", "Qd Kd Ad 7h 8h 10c", "Jc", "7d 8d 9d", "Ac Kc Qc")
    hand = KlaberjassHand(deck, dealer=1)
    play(hand, "take", "keep")  # clubs; player 0 holds 7♣ and keeps it
    # Player 0 now also holds 7♦ 8♦ 9♦ (20, top 9) and 7♣ 8♣ 9♣ (20, top 9, trump);
    # player 1: Q♦ K♦ A♦ (20, top A) and Q♣ K♣ A♣ (20, top A, trump): player 1's best.
    assert hand.sequence_points() == (0, 40)
    assert hand.bella() == (0, 20)  # K♣ Q♣ of trump


def test_the_maker_rule_and_the_pot() -> None:
    assert maker_rule((55, 70), maker=0) == ("failed", (0, 125), 0)  # the book's example
    assert maker_rule((70, 55), maker=0) == ("made", (70, 55), 0)
    assert maker_rule((62, 62), maker=1) == ("tied", (62, 0), 62)


def test_a_whole_game_to_500_alternates_the_deal() -> None:
    game = KlaberjassMatch(first_dealer=1)
    rng = random.Random(7)
    dealers = []
    while not game.is_over():
        hand = game.new_hand(seeded_deck(rng.randrange(10**9), DECK))
        dealers.append(hand.dealer)
        while not hand.is_over():
            hand.push(rng.choice(hand.legal_actions()))
    assert dealers == [1, 0] * (len(dealers) // 2) + [1] * (len(dealers) % 2)
    standing = game.standing()
    assert sum(standing.hands[i][0] for i in range(len(standing.hands))) == standing.totals[0]
    assert max(game.totals()) >= 500
    with pytest.raises(ValueError, match="the game is over"):
        game.new_hand(seeded_deck(1, DECK))


def test_moves_round_trip_through_their_notation() -> None:
    hand = KlaberjassHand(seeded_deck(11, DECK), dealer=0)
    rng = random.Random(11)
    while not hand.is_over():
        for move in hand.legal_moves():
            assert KlaberjassMove.parse(move.text()) == move
        hand.push(rng.choice(hand.legal_actions()))


def perft(hand: KlaberjassHand, depth: int) -> int:
    if depth == 0 or hand.is_over():
        return 1
    total = 0
    for action in hand.legal_actions():
        hand.push(action)
        total += perft(hand, depth - 1)
        hand.pop()
    return total


def perft_by_copy(deck: list[int], history: list[int], depth: int) -> int:
    """Perft by brute force: each branch replayed from the deal, no push/pop undo."""
    hand = KlaberjassHand(deck, dealer=1)
    for action in history:
        hand.push(action)
    if depth == 0 or hand.is_over():
        return 1
    return sum(perft_by_copy(deck, [*history, a], depth - 1) for a in hand.legal_actions())


def test_perft_counts() -> None:
    # The deck above: take or pass, both rounds, the exchange, then the first tricks.
    hand = KlaberjassHand(HEARTS_DECK, dealer=1)
    assert [perft(hand, depth) for depth in range(1, 7)] == [2, 4, 24, 143, 942, 4669]
    assert perft_by_copy(HEARTS_DECK, [], 5) == 942


def test_schmeiss_is_offered_by_its_presets() -> None:
    from umtali.games.klaberjass.rules import KLABERJASS_PRESETS
    from umtali.games.klaberjass.session import SESSIONS

    assert list(KLABERJASS_PRESETS) == ["book", "classic", "schmeiss", "classic-schmeiss"]
    assert [r.schmeiss for r in KLABERJASS_PRESETS.values()] == [False, False, True, True]
    session = SESSIONS.new(seed=3, humans={0}, variant="schmeiss", level="random")
    while session.needs_deal():
        session.deal()
    # Seed 3: the computer deals, so the person bids first.
    assert session.waiting() == (0,)
    assert session.view(0).phase == "bid1"
    assert [move.text() for move in session.view(0).legal] == ["take", "pass", "schmeiss"]
    assert "schmeiss" in session.hand_title(("You", "Bob"))
