"""The binding rulings R1-R11 (docs/RULES.md, Part 2), each played out at the table.

Every position is a real hand dealt from a stacked deck. Refused moves must name the rule and
leave the hand exactly as it was. Players are 0 (the book's Player 1) and 1 (Player 2); hands
are drawn spades, hearts, diamonds, clubs, high to low.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from tests.helpers import c, cards, deal, play, snapshot
from umtali import (
    CardSet,
    HandState,
    IllegalMoveError,
    Move,
    MoveKind,
    Phase,
    RuleSet,
    Termination,
    stacked_deck,
)
from umtali.games.umtali.lessons import LESSONS
from umtali.games.umtali.match import Match
from umtali.games.umtali.melds import ColumnKind, column_points, meld_accepts, meld_plans
from umtali.games.umtali.view import PlayerView
from umtali.kernel.cards import JACK, card_ascii, card_name, card_points, rank_of
from umtali.kernel.cards import JACKS as JACKS_MASK
from umtali.kernel.players import MatchError

Snapshot = tuple[object, ...]
EndState = tuple[frozenset[str], CardSet]


# -- helpers ----------------------------------------------------------------------------------
def push_any(hand: HandState, move: str | Move) -> None:
    if isinstance(move, Move):
        hand.push(move)
    else:
        hand.push_text(move)


def refuse(hand: HandState, move: str | Move, *why: str) -> str:
    """Try ``move``, expect IllegalMoveError naming ``why``, and check nothing changed."""
    before = snapshot(hand)
    with pytest.raises(IllegalMoveError) as info:
        push_any(hand, move)
    message = str(info.value)
    for fragment in why:
        assert fragment in message, message
    assert snapshot(hand) == before
    return message


def plays(hand: HandState) -> list[Move]:
    """The meld-phase plays legal now (overlapped melds and solo cards)."""
    return [m for m in hand.legal_moves if m.kind in (MoveKind.MELD, MoveKind.SOLO)]


def kinds(hand: HandState) -> set[MoveKind]:
    return {m.kind for m in hand.legal_moves}


def table(hand: HandState, player: int) -> list[str]:
    return [str(col) for col in hand.table(player)]


def meld_phase_ends(hand: HandState) -> set[EndState]:
    """Every end state of the meld phase reachable through legal moves."""
    mover = hand.player
    ends: set[EndState] = set()

    def explore() -> None:
        options = plays(hand) if hand.player == mover else []
        if not options:
            ends.add((frozenset(table(hand, mover)), hand.hand(mover)))
            return
        for move in options:
            hand.push(move)
            explore()
            hand.pop()

    before = snapshot(hand)
    explore()
    assert snapshot(hand) == before
    return ends


def outcome_of(hand: HandState) -> tuple[Termination, tuple[int, ...], CardSet, tuple[int, int]]:
    outcome = hand.outcome()
    assert outcome is not None
    return outcome.termination, outcome.went_out, outcome.forfeited, outcome.scores


# Ten cards nobody can play beside the hand below (no melds, no Jacks, no 8♠, 10s or Qs).
DULL = "2h 4h 6h 2d 4d 6d 3c 5c 7c 9c"
# Eleven cards that all go down on the opening turn: four Jacks (20) and A-7♠ (7).
ALL_OUT = "Js Jh Jd Jc 7s 6s 5s 4s 3s 2s As"
ALL_OUT_MOVES = ("play J♠", "play J♥", "play J♦", "play J♣", "meld 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ A♠")


# -- R1 Deal and dealer -------------------------------------------------------------------------
def test_r1_dealer_keeps_or_gives_the_eleventh_card() -> None:
    deck = stacked_deck("Ks 2s 4s 6s 8s 2h 4h 6h 8h 3c 5c", "Ad 3d 5d 7d 9d As 3s 5s 7s 9s")
    hand = HandState(deck, dealer=0)
    assert (hand.phase, hand.player) == (Phase.CHOOSE, 0)
    assert list(hand.legal_moves) == [Move.keep(), Move.give()]
    assert (len(hand.hand(0)), len(hand.hand(1))) == (0, 0)
    refuse(hand, "draw", "choose who receives the 11th card")
    refuse(hand, "discard K♠", "choose who receives the 11th card")

    eleventh = deck[20]  # the card the dealer decides about
    hand.push_text("keep")
    assert (len(hand.hand(0)), len(hand.hand(1))) == (11, 10)
    assert eleventh in hand.hand(0)
    assert (hand.player, hand.phase) == (0, Phase.PLAY)
    refuse(hand, "give", "already dealt")

    hand.pop()
    hand.push_text("give")
    assert (len(hand.hand(0)), len(hand.hand(1))) == (10, 11)
    assert eleventh in hand.hand(1)
    # The opponent, holding 11, starts (and, R2, does not draw).
    assert (hand.player, hand.phase) == (1, Phase.PLAY)
    assert not kinds(hand) & {MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO}


def hand_won_by(match: Match, winner: int) -> HandState:
    """Deal the next hand of ``match`` so that ``winner`` holds ALL_OUT and goes out on the
    opening turn (the dealer keeps or gives the 11th card to make it so); the loser draws K♥
    and forfeits DULL. Score: 27 + 15 forfeited = 42 to 0."""
    dealer = match.next_dealer()
    if winner == dealer:
        hand = match.new_hand(stacked_deck(ALL_OUT, DULL, "Kh"))
        hand.push_text("keep")
    else:
        hand = match.new_hand(stacked_deck(DULL, ALL_OUT, "Kh", dealer_gets_eleven=False))
        hand.push_text("give")
    assert hand.dealer == dealer
    play(hand, *ALL_OUT_MOVES, "draw", "forfeit")
    scores = (42, 0) if winner == 0 else (0, 42)
    assert outcome_of(hand)[3] == scores
    return hand


def drawn_hand(match: Match) -> HandState:
    """The dealer lays A-7♠ and 7-4♥ (11) and goes out; the other draws 4♣ and lays A-7♦
    and 7-4♣ (11): both out, 11 all, a drawn hand."""
    hand = match.new_hand(
        stacked_deck("7s 6s 5s 4s 3s 2s As 7h 6h 5h 4h", "7d 6d 5d 4d 3d 2d Ad 7c 6c 5c", "4c")
    )
    play(
        hand,
        "keep",
        "meld 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ A♠",
        "meld 7♥ 6♥ 5♥ 4♥",
        "draw",
        "meld 7♦ 6♦ 5♦ 4♦ 3♦ 2♦ A♦",
        "meld 7♣ 6♣ 5♣ 4♣",
    )
    outcome = hand.outcome()
    assert outcome is not None
    assert outcome.scores == (11, 11)
    assert outcome.winner is None
    return hand


def test_r1_the_hand_winner_deals_next_and_a_drawn_hand_keeps_the_dealer() -> None:
    match = Match(kind="game", first_dealer=1)
    assert hand_won_by(match, 0).dealer == 1  # Player 2 deals, gives, Player 1 wins
    assert match.next_dealer() == 0
    assert drawn_hand(match).dealer == 0
    assert match.next_dealer() == 0  # drawn: the same player deals again
    assert hand_won_by(match, 1).dealer == 0  # Player 1 deals, gives, Player 2 wins
    assert match.next_dealer() == 1
    assert hand_won_by(match, 1).dealer == 1  # the dealer keeps and wins
    assert match.next_dealer() == 1


def test_r1_a_new_hand_waits_for_the_current_one() -> None:
    match = Match(kind="game", first_dealer=0)
    match.new_hand(stacked_deck(ALL_OUT, DULL, "Kh"))
    with pytest.raises(MatchError):
        match.next_dealer()
    with pytest.raises(MatchError):
        match.new_hand(stacked_deck(ALL_OUT, DULL, "Kh"))


# -- R2 Opening turn ------------------------------------------------------------------------------
def test_r2_the_opening_turn_has_no_draw() -> None:
    hand = deal("Ks 2s 4s 6s 8s 2h 4h 6h 8h 3c 5c", "Ad 3d 5d 7d 9d As 3s 5s 7s 9s", dealer=1)
    assert not kinds(hand) & {MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO}
    assert kinds(hand) == {MoveKind.DISCARD}
    refuse(hand, "draw", "there is no draw on the opening turn", "R2")
    assert hand.stock_size() == 31
    hand.push_text("discard K♠")
    # From the second turn on, every turn starts with a draw.
    assert hand.phase == Phase.DRAW
    assert {m.kind for m in hand.legal_moves} == {MoveKind.DRAW, MoveKind.TAKE}


@pytest.mark.parametrize("choice", ["keep", "give"])
def test_r2_the_opening_player_can_go_out_at_once(choice: str) -> None:
    if choice == "keep":
        deck = stacked_deck(ALL_OUT, DULL, "Kh")
    else:
        deck = stacked_deck(DULL, ALL_OUT, "Kh", dealer_gets_eleven=False)
    hand = HandState(deck, dealer=0)
    hand.push_text(choice)
    opener = 0 if choice == "keep" else 1
    play(hand, *ALL_OUT_MOVES)
    assert hand.hand(opener) == CardSet()
    assert (hand.player, hand.phase, hand.last_turn) == (1 - opener, Phase.DRAW, True)
    play(hand, "draw", "forfeit")
    termination, went_out, forfeited, scores = outcome_of(hand)
    assert (termination, went_out) == (Termination.OUT, (opener,))
    assert forfeited == cards(DULL + " Kh")
    assert scores[opener] == 27 + 15
    assert scores[1 - opener] == 0


# -- R3 Draw ------------------------------------------------------------------------------------------
def pile_position(second_discard: str) -> HandState:
    """Player 2 deals and throws 9♣. Player 1 draws Q♦ and throws ``second_discard``
    (5♥ or Q♦); Player 2 draws 6♥ and throws it back. Player 1 is to draw, holding
        K♠ 9♠ 6♠ | 7♥ (5♥) | (Q♦) 4♦ 2♦ | 8♣ 6♣ A♣
    """
    hand = deal(
        "Kc 10d 8d 3s As 2h Qh 9c 3d 5d 7s",
        "7h 5h 6s 6c Ks 9s 2d 4d Ac 8c",
        "Qd 6h 4s",
        dealer=1,
    )
    play(hand, "discard 9♣", "draw", f"discard {second_discard}", "draw", "discard 6♥")
    assert hand.player == 0
    assert hand.phase == Phase.DRAW
    return hand


def test_r3_take_two_only_when_both_can_be_played() -> None:
    # Pile ... Q♦ 6♥: the 6♥ fits 7♥ 5♥, but nothing in hand will ever take the Q♦.
    hand = pile_position("Q♦")
    assert Move.take(c("6h")) in hand.legal_moves
    assert Move.take_two(c("6h"), c("Qd")) not in hand.legal_moves
    refuse(hand, "take 6♥ Q♦", "may be taken together only if both can be played", "R3")
    refuse(hand, "take Q♦ 6♥", "the top two discards are 6♥ and Q♦")

    # Pile ... 5♥ 6♥ with 7♥ in hand: both go into 7♥ 6♥ 5♥.
    hand = pile_position("5♥")
    assert Move.take_two(c("6h"), c("5h")) in hand.legal_moves


def test_r3_after_taking_two_a_play_that_strands_one_is_refused() -> None:
    hand = pile_position("5♥")
    hand.push_text("take 6♥ 5♥")
    assert hand.taken_this_turn() == cards("6h 5h")
    # Two melds hold the 6♥: the run 7♥ 6♥ 5♥ and the group 6♠ 6♥ 6♣. The group would leave
    # the 5♥ with nothing to go into, so only the run is allowed.
    assert plays(hand) == [Move.meld(cards("7h 6h 5h"))]
    refuse(hand, Move.meld(cards("6s 6h 6c")), "could no longer both be played this turn (R3)")
    refuse(hand, "meld 6♠ 6♥ 6♣", "could no longer both be played this turn (R3)")
    refuse(hand, "discard 2♦", "every playable card must be played", "R4")
    hand.push_text("meld 7♥ 6♥ 5♥")
    # Both taken cards are down; the 6♠ 6♣ pair stays in hand and any card may go.
    assert table(hand, 0) == ["sequence 7♥ 6♥ 5♥"]
    assert kinds(hand) == {MoveKind.DISCARD}
    assert len(hand.legal_moves) == len(hand.hand(0))


def test_r3_a_single_taken_card_cannot_be_thrown_back() -> None:
    # Player 2 opens by throwing K♠. Player 1 takes it, though nothing of his can use it:
    #   9♠ 7♠ 5♠ 3♠ A♠ | 9♦ 7♦ 5♦ 3♦ A♦
    hand = deal(DEALER_THROWS_KS, "Ad 3d 5d 7d 9d As 3s 5s 7s 9s", dealer=1)
    play(hand, "discard K♠", "take K♠")
    assert hand.taken_this_turn() == cards("Ks")
    assert plays(hand) == []
    assert set(hand.legal_moves) == {
        Move.discard_card(card) for card in cards("Ad 3d 5d 7d 9d As 3s 5s 7s 9s")
    }
    refuse(
        hand,
        "discard K♠",
        "K♠ was taken from the discard pile this turn and may be discarded only to go out (R3)",
    )
    hand.push_text("discard 9♠")
    assert hand.hand(0) == cards("Ks Ad 3d 5d 7d 9d As 3s 5s 7s")


def hand_four_after_the_dealer_throws_a_second_two() -> HandState:
    """The book's Hand 4, where the Dealer throws the 2♠ onto the 2♣ instead of the 6♦
    (the commentary's what-if). Player 1 holds only the 4♣."""
    hand = LESSONS[3].replay(turn=5)
    play(hand, "draw", "play J♥", "discard 2♠")
    assert hand.hand(0) == cards("4c")
    assert [card for card, _ in hand.discard_pile()[-2:]] == [c("2c"), c("2s")]
    return hand


def test_r3_hand_four_take_two_twos_discard_the_last_card_and_go_out_with_the_pair() -> None:
    hand = hand_four_after_the_dealer_throws_a_second_two()
    assert Move.take_two(c("2s"), c("2c")) in hand.legal_moves
    hand.push_text("take 2♠ 2♣")
    # Neither 2 is playable on the table: they can only be the closing pair.
    assert plays(hand) == []
    assert set(hand.legal_moves) == {
        Move.pair(c("2s"), c("2c"), discard=c("4c")),
        Move.pair(c("2s"), c("2c"), discard=c("4c"), face_down=True),
    }
    refuse(
        hand,
        "discard 4♣",
        "were taken two at a time and must be played this turn",
        "R3",
    )
    refuse(hand, "discard 2♠", "taken two at a time")
    hand.push_text("pair 2♠ 2♣ discard 4♣ down")
    assert hand.hand(0) == CardSet()
    assert table(hand, 0)[-1] == "pair 2♠ 2♣"
    assert (hand.player, hand.last_turn) == (1, True)
    assert list(hand.legal_moves) == [Move.draw()]


# The dealer throws K♠ on the opening turn; Player 1 holds a run of diamonds.
DEALER_THROWS_KS = "Ks 2s 4s 6s 8s 2h 4h 6h 8h 3c 5c"


def test_r3_a_taken_card_may_be_the_discard_that_goes_out() -> None:
    # Player 1: A-10♦ (a run of ten). He takes the K♠, lays the run: the K♠ is his last card.
    hand = deal(DEALER_THROWS_KS, "Ad 2d 3d 4d 5d 6d 7d 8d 9d 10d", "Kc", dealer=1)
    play(hand, "discard K♠", "take K♠")
    refuse(hand, "discard K♠", "every playable card must be played")
    hand.push_text("meld 10♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦ A♦")
    assert hand.hand(0) == cards("Ks")
    assert set(hand.legal_moves) == {
        Move.discard_card(c("Ks")),
        Move.discard_card(c("Ks"), face_down=True),
    }
    hand.push_text("discard K♠")
    assert (hand.player, hand.last_turn) == (1, True)


def pair_and_taken_king() -> HandState:
    # Player 1: 9♠ | 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦ A♦ | 9♣. He takes the K♠ and lays A-8♦:
    # left 9♠ 9♣ K♠.
    hand = deal(DEALER_THROWS_KS, "Ad 2d 3d 4d 5d 6d 7d 8d 9s 9c", "Kc", dealer=1)
    play(hand, "discard K♠", "take K♠", "meld 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦ A♦")
    assert hand.hand(0) == cards("9s 9c Ks")
    return hand


def test_r3_a_taken_card_may_be_the_discard_beside_a_closing_pair() -> None:
    hand = pair_and_taken_king()
    assert set(hand.legal_moves) == {
        Move.discard_card(c("9s")),
        Move.discard_card(c("9c")),
        Move.pair(c("9s"), c("9c"), discard=c("Ks")),
        Move.pair(c("9s"), c("9c"), discard=c("Ks"), face_down=True),
    }
    refuse(
        hand,
        "discard K♠",
        "K♠ was taken from the discard pile this turn and may be discarded only to go out",
    )
    hand.push_text("pair 9♠ 9♣ discard K♠")
    assert hand.hand(0) == CardSet()
    assert hand.discard_pile()[-1] == (c("Ks"), False)
    assert (hand.player, hand.last_turn) == (1, True)


# -- R4 Meld phase -------------------------------------------------------------------------------------
def test_r4_every_playable_card_must_be_played_before_the_discard() -> None:
    # Player 2 has 9♥ 8♥ 7♥ down; Player 1 holds 10♥ and 6♥ (and draws 2♣).
    hand = deal(
        "9h 8h 7h Kc 2d 4d 6s 4c Ac 3c Qh",
        "8d 10h 6h 8c 7s 9s As 3s 5d Kd",
        "2c",
        dealer=1,
    )
    play(hand, "meld 9♥ 8♥ 7♥", "discard K♣", "draw")
    assert MoveKind.DISCARD not in kinds(hand)
    refuse(hand, "discard 2♣", "every playable card must be played before the turn ends (R4)")
    hand.push_text("play 10♥ off 9♥")
    refuse(hand, "discard 2♣", "every playable card must be played")
    hand.push_text("play 6♥ off 7♥")
    assert kinds(hand) == {MoveKind.DISCARD}
    # Played off the opponent's cards, they lie on Player 1's side and score for him.
    assert table(hand, 0) == ["solo 10♥ (off 9♥)", "solo 6♥ (off 7♥)"]
    assert table(hand, 1) == ["sequence 9♥ 8♥ 7♥"]
    assert hand.played_points() == (6, 3)


def test_r4_a_marriage_accepts_nothing() -> None:
    # Player 2 marries K♦ Q♦; Player 1 holds K♠ and Q♣ (and draws 10♠).
    hand = deal(
        "Kd Qd 2s 4s 6s 8s 2h 4h 6h 8h 3c",
        "Ks Qc 9d 7d 5d 3d Ad 9c 7c 5c",
        "10s",
        dealer=1,
    )
    play(hand, "meld K♦ Q♦", "discard 3♣", "draw")
    assert table(hand, 1) == ["marriage K♦ Q♦"]
    assert meld_accepts(cards("Kd Qd").mask) == 0
    assert plays(hand) == []
    refuse(hand, "play K♠ off K♦", "a marriage accepts no additions (R4)")
    refuse(hand, "play Q♣ off Q♦", "a marriage accepts no additions (R4)")
    assert hand.played_points() == (0, 20)


def test_r4_a_sequence_accepts_only_its_ends_and_aces_do_not_wrap() -> None:
    # Player 2 lays 3♥ 2♥ A♥. Player 1 holds 4♥ and K♥ and 2♠ (draws 4♣).
    hand = deal(
        "3h 2h Ah 9s 7s 5s Kc 9d 7d 5d Qs",
        "4h Kh 2s 10c 8c 6c 10d 8d 6d 3s",
        "4c",
        dealer=1,
    )
    play(hand, "meld 3♥ 2♥ A♥", "discard Q♠", "draw")
    assert plays(hand) == [Move.solo(c("4h"), c("3h"))]
    refuse(hand, "play K♥ off A♥", "a sequence takes only the next card of its suit")
    refuse(hand, "play 2♠ off 2♥", "a sequence takes only the next card of its suit")
    refuse(hand, "play 4♣ off 3♥", "a sequence takes only the next card of its suit")


def test_r4_the_rule_three_tens_are_grouped_even_beside_ones_own_jack() -> None:
    hand = deal("Js 10s 10h 10d 2c 4c 6c 8c 2d 4d Kh", "As 3s 5s 7s 9s Ah 3h 5h 7h 9h", dealer=0)
    assert set(plays(hand)) == {Move.solo(c("Js")), Move.meld(cards("10s 10h 10d"))}
    hand.push_text("play J♠")
    assert plays(hand) == [Move.meld(cards("10s 10h 10d"))]
    refuse(hand, "play 10♠ off J♠", "The Rule", "10♠ 10♥ 10♦", "R4")
    hand.push_text("meld 10♠ 10♥ 10♦")
    assert table(hand, 0) == ["solo J♠", "group 10♠ 10♥ 10♦"]


def test_r4_jack_ten_nine_of_a_suit_go_down_one_by_one() -> None:
    hand = deal("Js 10s 9s 2c 4c 6c 8c 2d 4d 6d Kh", "As 3s 5s 7s 9h Ah 3h 5h 7h 9c", dealer=0)
    assert meld_plans(hand.hand(0).mask, 0)[0].melds == ()
    refuse(hand, "meld J♠ 10♠ 9♠", "Jacks are never overlapped")
    assert plays(hand) == [Move.solo(c("Js"))]
    hand.push_text("play J♠")
    assert plays(hand) == [Move.solo(c("10s"), c("Js"))]
    hand.push_text("play 10♠ off J♠")
    assert plays(hand) == [Move.solo(c("9s"), c("10s"))]
    hand.push_text("play 9♠ off 10♠")
    assert plays(hand) == []
    assert table(hand, 0) == ["solo J♠", "solo 10♠ (off J♠)", "solo 9♠ (off 10♠)"]


def test_r4_ten_nine_eight_beside_a_jack_is_a_sequence_that_needs_no_jack() -> None:
    # J♠ 10♠ 9♠ 8♠: the 10-9-8 is a meld made only of cards in hand, so it is overlapped;
    # only the Jack goes down alone.
    hand = deal("Js 10s 9s 8s 2c 4c 6c 2d 4d 6d Kh", "As 3s 5s 7s 9h Ah 3h 5h 7h 9c", dealer=0)
    assert set(plays(hand)) == {Move.solo(c("Js")), Move.meld(cards("10s 9s 8s"))}
    hand.push_text("play J♠")
    refuse(hand, "play 10♠ off J♠", "The Rule", "10♠ 9♠ 8♠")


def test_r4_melds_are_laid_whole() -> None:
    # 6♣ 5♣ 4♣ 3♣ and four 8s.
    hand = deal("6c 5c 4c 3c 8s 8h 8d 8c Kh 2s Ad", "As 3s 5s 7s 9s Ah 3h 5h 7h 9h", dealer=0)
    assert set(plays(hand)) == {Move.meld(cards("6c 5c 4c 3c")), Move.meld(cards("8s 8h 8d 8c"))}
    refuse(hand, "meld 5♣ 4♣ 3♣", "a meld must be laid whole: 6♣ in hand extends it (R4)")
    refuse(hand, "meld 6♣ 5♣ 4♣", "a meld must be laid whole: 3♣ in hand extends it (R4)")
    refuse(hand, "meld 8♠ 8♥ 8♦", "a meld must be laid whole: 8♣ in hand extends it (R4)")
    refuse(hand, "meld 6♣ 5♣", "two cards make a meld only as a marriage")
    play(hand, "meld 6♣ 5♣ 4♣ 3♣", "meld 8♠ 8♥ 8♦ 8♣")
    assert table(hand, 0) == ["sequence 6♣ 5♣ 4♣ 3♣", "group 8♠ 8♥ 8♦ 8♣"]


def test_r4_a_group_of_three_once_the_fourth_card_went_into_a_run() -> None:
    # Four 8s and 7♥ 6♥: the 8♥ may go into the run, and then the other three 8s are whole.
    hand = deal("8s 8h 8d 8c 7h 6h Kc 2s Ad 4d 10c", "As 3s 5s 7s 9s Ah 3h 5h 9h 9d", dealer=0)
    refuse(hand, "meld 8♠ 8♦ 8♣", "8♥ in hand extends it")
    hand.push_text("meld 8♥ 7♥ 6♥")
    assert plays(hand) == [Move.meld(cards("8s 8d 8c"))]
    hand.push_text("meld 8♠ 8♦ 8♣")
    hand.pop()
    hand.pop()
    assert meld_phase_ends(hand) == {
        (
            frozenset({"sequence 8♥ 7♥ 6♥", "group 8♠ 8♦ 8♣"}),
            cards("Kc 2s Ad 4d 10c"),
        ),
        (frozenset({"group 8♠ 8♥ 8♦ 8♣"}), cards("7h 6h Kc 2s Ad 4d 10c")),
    }


def test_r4_the_player_chooses_between_overlapping_melds() -> None:
    # K♣ Q♣ Q♠ Q♦: the marriage K♣ Q♣, or the group of Queens (the book's Hand 4).
    dealt = "Kc Qc Qs Qd 2s 4s 6s 2h 4h 6h 9d"
    hand = deal(dealt, "As 3s 5s 7s 9s Ah 3h 5h 7h 9h", dealer=0)
    assert set(plays(hand)) == {Move.meld(cards("Kc Qc")), Move.meld(cards("Qs Qd Qc"))}
    rest = cards("2s 4s 6s 2h 4h 6h 9d")
    assert meld_phase_ends(hand) == {
        (frozenset({"marriage K♣ Q♣"}), rest | cards("Qs Qd")),
        (frozenset({"group Q♠ Q♦ Q♣"}), rest | cards("Kc")),
    }
    plans = meld_plans(cards(dealt).mask, 0)
    assert [p.points for p in plans] == [20, 15]


def test_r4_a_pair_is_laid_only_to_go_out() -> None:
    hand = deal("9s 9c 2s 4s 6s 2h 4h 6h Kd 3c 7d", "As 3s 5s 7s Ah 3h 5h 7h 9h 9d", dealer=0)
    assert kinds(hand) == {MoveKind.DISCARD}
    refuse(hand, "meld 9♠ 9♣", "a pair can be laid only to go out (R4, R6)")
    refuse(hand, "pair 9♠ 9♣", "a pair goes out only when nothing else is left in hand")
    refuse(hand, "pair 9♠ 9♣ discard K♦", "a pair goes out only when nothing else is left")


# -- R5 and R6 Discard, going out with a pair ---------------------------------------------------------
def test_r5_a_face_down_final_discard_forces_a_stock_draw() -> None:
    hand = deal(DEALER_THROWS_KS, "Ad 2d 3d 4d 5d 6d 7d 8d 9d 10d", "Kc", dealer=1)
    play(hand, "discard K♠", "draw", "meld 10♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦ A♦")
    # Out by discarding the K♣ face up: Player 2 may take it on his last turn ...
    hand.push_text("discard K♣")
    assert (hand.player, hand.last_turn) == (1, True)
    assert set(hand.legal_moves) == {Move.draw(), Move.take(c("Kc"))}
    hand.pop()
    # ... face down, he must draw from the stock.
    hand.push_text("discard K♣ down")
    assert hand.discard_pile()[-1] == (c("Kc"), True)
    assert list(hand.legal_moves) == [Move.draw()]
    refuse(hand, "take K♣", "face down and cannot be drawn")


def test_r5_only_a_discard_that_goes_out_lies_face_down() -> None:
    hand = pair_and_taken_king()
    refuse(hand, "discard 9♠ down", "only a discard that goes out may be laid face down (R5)")
    hand.push_text("discard 9♠")
    assert hand.discard_pile()[-1] == (c("9s"), False)


def test_r6_going_out_with_a_pair_is_optional() -> None:
    hand = pair_and_taken_king()
    assert Move.pair(c("9s"), c("9c"), discard=c("Ks")) in hand.legal_moves
    # He keeps the pair's chances instead: throws the 9♠, and play goes on as usual.
    hand.push_text("discard 9♠")
    assert hand.hand(0) == cards("9c Ks")
    assert (hand.player, hand.phase, hand.last_turn) == (1, Phase.DRAW, False)

    # A hand of exactly a pair: lay it (no discard), or throw one of it.
    hand = deal("9s 8s 7s 6s 5s 4s 3s 2s As Kc Ks", "Kh Kd Qs Qc 2h 4h 6h 2d 4d 6d", dealer=0)
    hand.push_text("meld 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ A♠")
    assert set(hand.legal_moves) == {
        Move.pair(c("Ks"), c("Kc")),
        Move.discard_card(c("Ks")),
        Move.discard_card(c("Kc")),
    }
    refuse(hand, "discard K♠ down", "only a discard that goes out may be laid face down")


def test_r6_the_closing_pair_accepts_cards_of_its_rank() -> None:
    hand = deal("9s 8s 7s 6s 5s 4s 3s 2s As Kc Ks", "Kh Kd Qs Qc 2h 4h 6h 2d 4d 6d", "8h", dealer=0)
    play(hand, "meld 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ A♠", "pair K♠ K♣", "draw")
    assert set(plays(hand)) == {Move.solo(c("Kh"), c("Ks")), Move.solo(c("Kd"), c("Ks"))}


# -- R7 End of hand --------------------------------------------------------------------------------------
def test_r7_no_discard_on_the_last_turn_and_forfeits_score_face_value() -> None:
    # Player 1 lays A-9♠ and goes out with K♠ K♣. Player 2 draws 8♥, plays K♥ K♦ off the
    # pair and is left with Q♠ | 8♥ 6♥ 4♥ 2♥ | 6♦ 4♦ 2♦ | Q♣.
    hand = deal("9s 8s 7s 6s 5s 4s 3s 2s As Kc Ks", "Kh Kd Qs Qc 2h 4h 6h 2d 4d 6d", "8h", dealer=0)
    play(hand, "meld 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ A♠", "pair K♠ K♣", "draw")
    refuse(hand, "forfeit", "every playable card must be played", "R4")
    play(hand, "play K♥ off K♠", "play K♦ off K♠")
    assert list(hand.legal_moves) == [Move.forfeit()]
    refuse(hand, "discard 8♥", "on the last turn a player may discard only to go out", "R7")
    refuse(hand, "discard Q♠", "R7")
    hand.push_text("forfeit")
    assert hand.is_over()
    termination, went_out, forfeited, scores = outcome_of(hand)
    assert (termination, went_out) == (Termination.OUT, (0,))
    assert forfeited == cards("Qs 8h 6h 4h 2h 6d 4d 2d Qc")
    # Player 1: run 9 + pair 10 + forfeits (Q♠ Q♣ 10, seven small cards 7) = 36.
    # Player 2: the two Kings he played, 10.
    assert hand.played_points() == (19, 10)
    assert scores == (36, 10)


def test_r7_the_last_turn_may_go_out_with_a_pair_and_a_discard() -> None:
    # Player 1 goes out on the opening turn (four Jacks, A-7♠). Player 2 holds 9-2♥ and
    # K♦ K♣, draws 4♣, lays the run; he throws the 4♣ and lays the Kings.
    hand = deal(ALL_OUT, "9h 8h 7h 6h 5h 4h 3h 2h Kc Kd", "4c", dealer=0)
    play(hand, *ALL_OUT_MOVES, "draw", "meld 9♥ 8♥ 7♥ 6♥ 5♥ 4♥ 3♥ 2♥")
    assert hand.hand(1) == cards("Kd Kc 4c")
    assert set(hand.legal_moves) == {
        Move.pair(c("Kd"), c("Kc"), discard=c("4c")),
        Move.pair(c("Kd"), c("Kc"), discard=c("4c"), face_down=True),
        Move.forfeit(),
    }
    refuse(hand, "discard 4♣", "on the last turn a player may discard only to go out")
    hand.push_text("pair K♦ K♣ discard 4♣")
    termination, went_out, forfeited, scores = outcome_of(hand)
    assert (termination, went_out, forfeited) == (Termination.OUT, (0, 1), CardSet())
    assert scores == (27, 8 + 10)


# -- R8 Dead hand -----------------------------------------------------------------------------------------
# Nobody can meld anything: each player draws and throws back the card he drew, until the
# Jacks surface at the bottom of the stock. After a Jack a player throws a card of his hand.
DEAD_DEALER = "8s 7s 5s 2s Kd 9d 5d 4d 8c 4c Ac"
DEAD_OTHER = "9s 6s As Kh 8h 4h 7d 2d 9c 7c"
DEAD_STOCK = (
    "5c Qc 5h Ad 6d 10h 10d 9h Ah Qh 10c 6c Ks Kc 3d 6h 4s 3c 2h 10s Qd 7h 3s Qs"
    " Js Jh 8d Jd 2c Jc 3h"
)
DEAD_AFTER_JACK = {"J♠": "7♣", "J♥": "4♣", "J♦": "8♣", "J♣": "4♦"}


def draw_and_throw_back(hand: HandState, after_jack: dict[str, str]) -> None:
    """One turn: draw; a drawn Jack is played (the only play there is), and the player then
    throws the card ``after_jack`` names; any other card is thrown straight back."""
    before = hand.hand(hand.player)
    hand.push_text("draw")
    (card,) = hand.hand(hand.player) - before
    if rank_of(card) == JACK:
        assert plays(hand) == [Move.solo(card)]
        hand.push(Move.solo(card))
        assert plays(hand) == []
        hand.push_text(f"discard {after_jack[card_name(card)]}")
    else:
        assert plays(hand) == []
        hand.push(Move.discard_card(card))


def test_r8_an_empty_stock_ends_the_hand_dead() -> None:
    hand = deal(DEAD_DEALER, DEAD_OTHER, DEAD_STOCK, dealer=1)
    hand.push_text("discard A♣")
    while not hand.is_over():
        draw_and_throw_back(hand, DEAD_AFTER_JACK)
    assert hand.stock_size() == 0
    assert table(hand, 0) == ["solo J♠"]
    assert table(hand, 1) == ["solo J♥", "solo J♦", "solo J♣"]
    termination, went_out, forfeited, scores = outcome_of(hand)
    assert (termination, went_out, forfeited) == (Termination.DEAD_STOCK, (), CardSet())
    # Each scores what he played; the cards still in hand score for nobody.
    assert len(hand.hand(0)) == 9
    assert len(hand.hand(1)) == 7
    assert scores == hand.played_points() == (5, 15)
    assert hand.legal_moves.count() == 0


# Player 1 keeps a chain that the last card of the stock, the J♠, sets off:
#   J♠ > 10♠ > 9♠ > 9♥ > 8♥ > 8♦ > 7♦ > 7♣ > 6♣ > 6♠, and a K♦ to throw.
CHAIN_DEALER = "Ks 5s 7h 6h Ah 9d 6d 3d 5c 4c 2c"
CHAIN_OTHER = "10s 9s 9h 8h 8d 7d 7c 6c 6s Kd"
CHAIN_STOCK = (
    "Qs 3s Qh 2d 10c 8s Ad 3h Qc 4h 3c 9c As 10d 5h Ac Kc 10h 4d 8c 5d Qd 2h 7s 4s"
    " Jh Kh Jd 2s Jc Js"
)
CHAIN_AFTER_JACK = {"J♥": "4♣", "J♦": "5♣", "J♣": "3♦"}
CHAIN = (
    "play J♠",
    "play 10♠ off J♠",
    "play 9♠ off 10♠",
    "play 9♥ off 9♠",
    "play 8♥ off 9♥",
    "play 8♦ off 8♥",
    "play 7♦ off 8♦",
    "play 7♣ off 7♦",
    "play 6♣ off 7♣",
    "play 6♠ off 6♣",
)


def out_on_the_last_card_of_the_stock() -> HandState:
    hand = deal(CHAIN_DEALER, CHAIN_OTHER, CHAIN_STOCK, dealer=1)
    hand.push_text("discard 2♣")
    while hand.stock_size() > 1:
        draw_and_throw_back(hand, CHAIN_AFTER_JACK)
    assert hand.player == 0
    assert hand.hand(0) == cards(CHAIN_OTHER)
    play(hand, "draw", *CHAIN)
    assert hand.hand(0) == cards("Kd")
    assert hand.stock_size() == 0
    return hand


def test_r8_last_turn_on_an_empty_stock_takes_a_face_up_discard() -> None:
    hand = out_on_the_last_card_of_the_stock()
    hand.push_text("discard K♦")
    assert (hand.player, hand.last_turn, hand.phase) == (1, True, Phase.DRAW)
    assert list(hand.legal_moves) == [Move.take(c("Kd"))]
    refuse(hand, "draw", "the stock is empty")


def test_r8_last_turn_on_an_empty_stock_skips_the_draw_after_a_face_down_discard() -> None:
    hand = out_on_the_last_card_of_the_stock()
    hand.push_text("discard K♦ down")
    assert (hand.player, hand.last_turn, hand.phase) == (1, True, Phase.PLAY)
    assert not kinds(hand) & {MoveKind.DRAW, MoveKind.TAKE, MoveKind.TAKE_TWO}
    # Player 1's chain opens plenty: 5♠ off 6♠, for one.
    assert Move.solo(c("5s"), c("6s")) in hand.legal_moves
    assert not hand.is_over()


def test_r8_the_turn_cap_ends_the_hand_dead() -> None:
    # Four turns, then the hand is dead: 9-8-7♥ and 6♠ for Player 2; 10♥, 6♥ and 7♠ (off
    # the opponent's 6♠) for Player 1.
    rules = RuleSet(turn_cap=4)
    hand = deal(
        "9h 8h 7h Kc 2d 4d 6s 4c Ac 3c Qh",
        "8d 10h 6h 8c 7s 9s As 3s 5d Kd",
        "2c Ks Qs",
        dealer=1,
        rules=rules,
    )
    play(hand, "meld 9♥ 8♥ 7♥", "discard K♣")  # turn 1
    play(hand, "draw", "play 10♥ off 9♥", "play 6♥ off 7♥", "discard 2♣")  # turn 2
    play(hand, "draw", "play 6♠ off 6♥", "discard K♠")  # turn 3
    play(hand, "draw")  # turn 4
    assert plays(hand) == [Move.solo(c("7s"), c("6s"))]
    play(hand, "play 7♠ off 6♠", "discard Q♠")
    assert hand.is_over()
    termination, went_out, forfeited, scores = outcome_of(hand)
    assert (termination, went_out, forfeited) == (Termination.TURN_CAP, (), CardSet())
    assert scores == hand.played_points() == (7, 4)
    assert len(hand.hand(0)) == 7
    assert len(hand.hand(1)) == 6

    # Under the standard cap the same hand simply goes on.
    hand = deal(
        "9h 8h 7h Kc 2d 4d 6s 4c Ac 3c Qh",
        "8d 10h 6h 8c 7s 9s As 3s 5d Kd",
        "2c Ks Qs",
        dealer=1,
    )
    play(hand, "meld 9♥ 8♥ 7♥", "discard K♣", "draw", "play 10♥ off 9♥", "play 6♥ off 7♥")
    play(hand, "discard 2♣", "draw", "play 6♠ off 6♥", "discard K♠")
    play(hand, "draw", "play 7♠ off 6♠", "discard Q♠")
    assert (hand.is_over(), hand.player, hand.phase) == (False, 1, Phase.DRAW)


def test_r8_a_last_turn_is_played_even_past_the_turn_cap() -> None:
    rules = RuleSet(turn_cap=2)
    # Turn 2 ends with a discard: the cap ends the hand.
    hand = deal(DEALER_THROWS_KS, "Ad 2d 3d 4d 5d 6d 7d 8d 9s 9c", "Kc", dealer=1, rules=rules)
    play(hand, "discard K♠", "take K♠", "meld 8♦ 7♦ 6♦ 5♦ 4♦ 3♦ 2♦ A♦", "discard 9♠")
    assert outcome_of(hand)[0] is Termination.TURN_CAP
    assert outcome_of(hand)[3] == (8, 0)
    hand.pop()
    # Turn 2 goes out with the pair: Player 2 still gets his last turn, turn 3.
    hand.push_text("pair 9♠ 9♣ discard K♠")
    assert not hand.is_over()
    assert (hand.player, hand.phase, hand.last_turn) == (1, Phase.DRAW, True)
    play(hand, "draw")
    assert plays(hand) == []
    hand.push_text("forfeit")
    termination, went_out, forfeited, scores = outcome_of(hand)
    assert (termination, went_out) == (Termination.OUT, (0,))
    assert forfeited == cards(DEALER_THROWS_KS + " Kc") - cards("Ks")
    assert scores == (8 + 2 + 15, 0)


# -- R9 Scoring ---------------------------------------------------------------------------------------------
def test_r9_card_values() -> None:
    for card in range(52):
        assert card_points(card) == (5 if rank_of(card) in (10, 11, 12, 13) else 1)
    assert cards("Ks Qh Jd 10c").points() == 20
    assert cards("9s 8h 2d Ac").points() == 4


def test_r9_a_marriage_scores_twenty() -> None:
    assert column_points(ColumnKind.MARRIAGE, cards("Kh Qh").mask) == 20
    assert column_points(ColumnKind.GROUP, cards("Ks Kh Kd").mask) == 15
    assert column_points(ColumnKind.PAIR, cards("Ks Kh").mask) == 10
    assert column_points(ColumnKind.SEQUENCE, cards("10h 9h 8h").mask) == 7
    hand = deal("Kd Qd 2s 4s 6s 8s 2h 4h 6h 8h 3c", "Ks Qc 9d 7d 5d 3d Ad 9c 7c 5c", dealer=1)
    hand.push_text("meld K♦ Q♦")
    assert hand.played_points() == (0, 20)


def test_r9_the_higher_score_wins_and_equal_scores_draw() -> None:
    match = Match(kind="hand", first_dealer=0)
    hand = drawn_hand(match)
    outcome = hand.outcome()
    assert outcome is not None
    assert outcome.went_out == (0, 1)
    assert outcome.winner is None
    assert match.is_over()
    assert match.winner() is None


# -- R10 Game and session ------------------------------------------------------------------------------
def play_game(match: Match, winners: list[int | None]) -> None:
    """Four hands: each won by the given player (42 to 0), or drawn (11 all)."""
    for winner in winners:
        if winner is None:
            drawn_hand(match)
        else:
            hand_won_by(match, winner)


def test_r10_a_game_is_four_hands() -> None:
    match = Match(kind="game", first_dealer=1)
    play_game(match, [0, None, 1])
    assert not match.is_over()
    assert match.game_totals() == (42 + 11, 11 + 42)
    play_game(match, [1])
    assert match.is_over()
    assert match.game_totals(0) == (53, 95)
    assert match.game_winners() == [1]
    assert match.winner() == 1
    with pytest.raises(MatchError):
        match.new_hand(stacked_deck(ALL_OUT, DULL, "Kh"))


def test_r10_a_session_goes_to_the_first_player_to_win_two_games() -> None:
    match = Match(kind="session", first_dealer=0)
    play_game(match, [1, 1, 0, 1])  # 126 to 42 for Player 2
    assert match.game_winners() == [1]
    assert not match.is_over()
    play_game(match, [1, 0, 1, 1])
    assert match.is_over()
    assert match.games_won() == (0, 2)
    assert match.winner() == 1
    assert len(match.hands) == 8


def test_r10_drawn_games_count_for_nobody_and_points_do_not_carry() -> None:
    match = Match(kind="session", first_dealer=0)
    play_game(match, [0, 0, 0, 1])  # Player 1, 126 to 42
    # The winner of the last hand of a game deals the first hand of the next.
    assert match.next_dealer() == 1
    play_game(match, [0, 1, 0, 1])  # 84 all: a drawn game
    assert match.hands[4].dealer == 1
    assert match.game_totals(1) == (84, 84)
    play_game(match, [1, 1, 1, 0])  # Player 2
    assert match.game_winners() == [0, None, 1]
    assert match.games_won() == (1, 1)
    assert not match.is_over()
    play_game(match, [0, None, 0, 1])
    assert match.game_totals(3) == (84 + 11, 11 + 42)
    assert match.game_winners() == [0, None, 1, 0]
    assert match.is_over()
    assert match.winner() == 0
    assert len(match.hands) == 16


# -- R11 What each player may see -----------------------------------------------------------------
def lesson_four_after(turns: int, moves: int = 0) -> HandState:
    return LESSONS[3].replay(turn=turns + 1, done=moves)


def test_r11_a_card_taken_from_the_pile_is_known_until_it_is_played() -> None:
    # Lesson hand 4, turn 3: Player 2 takes 3♦ (Player 1's discard) and holds
    #   2♠ K♥ 9♥ 3♠ 9♦ 3♦ 6♦ 4♦ 6♣ 5♣ 3♣   before laying 3♠ 3♦ 3♣.
    hand = lesson_four_after(2, 1)
    view = PlayerView.of(hand, 0)
    assert view.opponent_known == CardSet.parse("3d")
    assert view.opponent_hand_size == 11
    assert view.taken_from_pile == (CardSet.parse("Ah"), CardSet.parse("3d"))
    assert view.stock_size == hand.stock_size()
    assert view.legal == ()  # not his turn
    hand.push_text("meld 3♠ 3♦ 3♣")
    view = PlayerView.of(hand, 0)
    assert view.opponent_known == CardSet(0)  # on the table now, in plain sight
    assert view.taken_from_pile[1] == CardSet.parse("3d")  # the history stays public


def test_r11_what_the_opponent_cannot_hold_after_compulsory_play() -> None:
    # Lesson hand 4, turn 4: Player 1 is to draw. Player 2 ended turn 3 with
    #   2♠ K♥ 9♥ 9♦ 6♦ 6♣ 5♣   and nothing in it playable, as R4 demands. The table then
    # took the A♣ (on Player 1's Aces) and the 3♥ (on Player 2's threes); a Jack is
    # always playable. So Player 2 holds none of those, and no meld.
    hand = lesson_four_after(3)
    view = PlayerView.of(hand, 0)
    unseen = view.unseen().mask
    assert CardSet(view.opponent_excluded.mask & unseen) == CardSet(JACKS_MASK) | cards("Ac 3h")
    assert view.opponent_meld_free
    assert not view.opponent_excluded.mask & hand.hands[1]
    # While Player 2 is in the middle of his turn, nothing is certain of his hand.
    assert lesson_four_after(2, 1).player == 1
    assert PlayerView.of(lesson_four_after(2, 1), 0).opponent_excluded == CardSet(0)
    assert not PlayerView.of(lesson_four_after(2, 1), 0).opponent_meld_free


def test_r11_a_face_down_discard_is_hidden_from_the_opponent_only() -> None:
    # Lesson hand 4, turn 6: Player 1 plays 3♥ and goes out, laying 4♣ face down.
    hand = lesson_four_after(6)
    mine, theirs = PlayerView.of(hand, 0), PlayerView.of(hand, 1)
    assert mine.discard_pile[-1] == c("4c")
    assert mine.history[-1] == (0, "discard 4♣ down")
    assert theirs.discard_pile[-1] is None
    assert theirs.history[-1] == (0, "discard (face down)")
    assert theirs.top_discard() is None
    assert Move.draw() in theirs.legal
    assert not any(m.kind is MoveKind.TAKE for m in theirs.legal)
    # Nothing Player 2 may not know is anywhere in his view, serialised or not.
    hidden = [*hand.stock_cards(), c("4c")]
    public = dict(theirs.to_dict(), opponent_excluded=[])  # Jacks and table openings
    data = json.dumps(public, ensure_ascii=False)
    text = repr(dataclasses.replace(theirs, opponent_excluded=CardSet(0)))
    for card in hidden:
        assert f'"{card_ascii(card)}"' not in data
        assert card_name(card) not in data + text


def test_refusal_off_a_solo_card_reads_cleanly() -> None:
    # Lesson hand 2 after turn 3: Player 1 has a solo Q♠ off Player 2's Q♣.
    # Player 2 holds 9♦ 8♦; 9♦ is no neighbour of Q♠ and not its rank.
    hand = LESSONS[1].replay(turn=4, done=1)  # Player 2 has drawn
    with pytest.raises(IllegalMoveError) as refused:
        hand.push_text("play 9♦ off Q♠")
    assert str(refused.value) == (
        "9♦ cannot be played off Q♠: a solo card takes only a card of its rank or the next"
        " card of its suit (R4)"
    )
    # The same refusal as data, for a front end that words it otherwise.
    why = refused.value.refusal
    assert why is not None
    assert (why.code, why.rules, why.cards, why.player) == (
        "not_proper_addition",
        ("R4",),
        (c("Qs"),),
        1,
    )
    assert why.move == Move.solo(c("9d"), c("Qs"))
    assert why.text() == str(refused.value)
