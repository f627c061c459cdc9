"""The book's UMTALI SELF-TEST: twelve questions, each put to the engine.

Every question is set up as a real position (a stacked deck, the moves that lead there) and
the engine is asked what the book asks: which plays are legal, what a column accepts, what a
table scores. The book's answers (last page of the seed text) are what the tests assert.

Players are 0 (the book's Player 1) and 1 (Player 2). Hands are drawn the way the book does:
spades, hearts, diamonds, clubs, high to low.
"""

from __future__ import annotations

import pytest

from tests.helpers import c, cards, deal, play, snapshot
from umtali import CardSet, HandState, IllegalMoveError, Move, MoveKind, Phase
from umtali.games.umtali.melds import SOLO_ACCEPTS, column_points, meld_accepts, meld_plans
from umtali.kernel.cards import bit, card_points

Snapshot = tuple[object, ...]
EndState = tuple[frozenset[str], CardSet]


# -- helpers ----------------------------------------------------------------------------------
def refuse(hand: HandState, text: str, *why: str) -> str:
    """Push ``text``, expect IllegalMoveError naming ``why``, and check nothing changed."""
    before = snapshot(hand)
    with pytest.raises(IllegalMoveError) as info:
        hand.push_text(text)
    message = str(info.value)
    for fragment in why:
        assert fragment in message, message
    assert snapshot(hand) == before
    return message


def plays(hand: HandState) -> list[Move]:
    """The meld-phase plays legal now (overlapped melds and solo cards)."""
    return [m for m in hand.legal_moves if m.kind in (MoveKind.MELD, MoveKind.SOLO)]


def solos_off(hand: HandState, target: str) -> CardSet:
    """The cards the player to move may play solo off the table card ``target``."""
    return CardSet(
        m.cards[0] for m in plays(hand) if m.kind is MoveKind.SOLO and m.target == c(target)
    )


def meld_phase_ends(hand: HandState) -> set[EndState]:
    """Every end state of the meld phase reachable through legal moves: the mover's side of
    the table (as the columns print) and what is left in his hand. The hand is restored."""
    mover = hand.player
    before = snapshot(hand)
    ends: set[EndState] = set()
    seen: set[frozenset[str]] = set()

    def explore() -> None:
        table = frozenset(str(col) for col in hand.table(mover))
        if table in seen:
            return
        seen.add(table)
        options = plays(hand) if hand.player == mover else []
        if not options:
            ends.add((table, hand.hand(mover)))
            return
        for move in options:
            hand.push(move)
            explore()
            hand.pop()

    explore()
    assert snapshot(hand) == before
    return ends


# -- 1 -------------------------------------------------------------------------------------------
def test_q1_dealers_own_hand_playing_surface() -> None:
    # You deal yourself:          Playing surface (the book's answer):
    #   Hearts:   10                J♠  10♠  10♥  4♦  K♣
    #   Spades:   J 10                             3♦  Q♣
    #   Diamonds: 6 4 3 2                          2♦
    #   Clubs:    K Q 9 2
    dealer_hand = "10h Js 10s 6d 4d 3d 2d Kc Qc 9c 2c"
    hand = deal(dealer_hand, "As 3s 5s 7s 9s Ah 3h 5h 7h 9h", dealer=0)

    (plan,) = meld_plans(cards(dealer_hand).mask, 0)
    assert {CardSet(m) for m in plan.melds} == {cards("4d 3d 2d"), cards("Kc Qc")}
    assert CardSet(plan.solos) == cards("Js 10s 10h")
    assert CardSet(plan.left) == cards("6d 9c 2c")

    # However the plays are ordered, the meld phase ends with the book's surface.
    assert meld_phase_ends(hand) == {
        (
            frozenset(
                {
                    "solo J♠",
                    "solo 10♠ (off J♠)",
                    "solo 10♥ (off 10♠)",
                    "sequence 4♦ 3♦ 2♦",
                    "marriage K♣ Q♣",
                }
            ),
            cards("6d 9c 2c"),
        )
    }
    # 10♥ and 10♠ are never overlapped, and 10♠ waits for the Jack.
    assert Move.solo(c("10s"), c("Js")) not in hand.legal_moves
    assert Move.solo(c("Js")) in hand.legal_moves


# -- 2 -------------------------------------------------------------------------------------------
def sequence_on_opponents_side() -> HandState:
    # Player 2 deals and melds 9♥ 8♥ 7♥ (overlapped); Player 1 holds the 8♦.
    #   Player 1: 9♠ 7♠ 3♠ A♠ | 10♥ 6♥ | K♦ 8♦ 5♦ | 8♣        Player 2: 9-8-7♥ on the table
    hand = deal(
        "9h 8h 7h Kc 2d 4d 6s 4c Ac 3c Qh",
        "8d 10h 6h 8c 7s 9s As 3s 5d Kd",
        "2c Ks 5s",
        dealer=1,
    )
    play(hand, "meld 9♥ 8♥ 7♥", "discard K♣", "draw")
    assert hand.player == 0
    assert [str(col) for col in hand.table(1)] == ["sequence 9♥ 8♥ 7♥"]
    return hand


def test_q2_eight_of_diamonds_is_not_playable_off_the_sequence() -> None:
    hand = sequence_on_opponents_side()
    refuse(
        hand,
        "play 8♦ off 8♥",
        "8♦ cannot be played",
        "a sequence takes only the next card of its suit at either end",
    )
    refuse(hand, "play 8♣ off 8♥", "a sequence takes only the next card")
    # Only 10♥ and 6♥ are proper additions to 9-8-7♥ ...
    assert CardSet(meld_accepts(cards("9h 8h 7h").mask)) == cards("10h 6h")
    # ... and they are exactly the plays the engine offers off it.
    offered = {(m.cards[0], m.target) for m in plays(hand)}
    assert offered == {(c("10h"), c("9h")), (c("6h"), c("7h"))}
    assert not any(m.cards[0] == c("8d") for m in plays(hand))


# -- 3 -------------------------------------------------------------------------------------------
def test_q3_a_jack_is_always_playable() -> None:
    # Player 2 has melded 10♠ 9♠ 8♠; Player 1 holds J♥ with nothing else playable.
    hand = deal(
        "10s 9s 8s Kc 2d 4d 6h 4c Ac 3c Qh",
        "Jh 5h 2h Kd 7d As 3s 5c 7c 9c",
        "6d",
        dealer=1,
    )
    play(hand, "meld 10♠ 9♠ 8♠", "discard K♣", "draw")
    assert plays(hand) == [Move.solo(c("Jh"))]
    hand.push_text("play J♥")
    assert str(hand.table(0)[-1]) == "solo J♥"


# -- 4 -------------------------------------------------------------------------------------------
def test_q4_cards_playable_off_a_solo_five_of_clubs() -> None:
    # Book's answer: 5♠ 5♥ 5♦ 6♣ 4♣ (every other 5, and the clubs either side).
    five = c("5c")
    assert CardSet(SOLO_ACCEPTS[five] & ~bit(five)) == cards("5s 5h 5d 6c 4c")

    # A real table: Player 2 melds 8♣ 7♣ 6♣, later draws 5♣ and plays it off his 6♣.
    #   Player 1 then holds 5♥ 4♥ A♥ | 6♦ 5♦ 9♦ 2♦ | K♣ 4♣ 3♣ | 2♠, draws 10♠.
    hand = deal(
        "8c 7c 6c Ks Qh 2h 3s 7d 9s Ad 10h",
        "5h 5d 4c 3c 6d 4h Kc 2s 9d Ah",
        "2d 5c 10s",
        dealer=1,
    )
    play(hand, "meld 8♣ 7♣ 6♣", "discard 10♥", "draw")
    assert plays(hand) == []
    play(hand, "discard 2♦", "draw", "play 5♣ off 6♣", "discard 9♠", "draw")
    assert str(hand.table(1)[-1]) == "solo 5♣ (off 6♣)"
    # Of Player 1's cards, the solo 5♣ takes the other 5s and the 4♣, nothing else.
    assert solos_off(hand, "5c") == cards("5h 5d 4c")
    why = "a solo card takes only a card of its rank or the next card of its suit"
    for text in ("play 3♣ off 5♣", "play 6♦ off 5♣", "play 4♥ off 5♣", "play K♣ off 5♣"):
        refuse(hand, text, why)


# -- 5 -------------------------------------------------------------------------------------------
def opponent_out_with_pair_of_kings() -> HandState:
    # Player 1 deals himself A-9♠ and K♠ K♣: he lays the run and goes out with the pair.
    # Player 2 (one more turn) holds:  Q♠ | K♥ 6♥ 4♥ 2♥ | K♦ 6♦ 4♦ 2♦ | Q♣, and draws 8♥.
    hand = deal(
        "9s 8s 7s 6s 5s 4s 3s 2s As Kc Ks",
        "Kh Kd Qs Qc 2h 4h 6h 2d 4d 6d",
        "8h",
        dealer=0,
    )
    play(hand, "meld 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ A♠", "pair K♠ K♣", "draw")
    assert hand.player == 1
    assert hand.last_turn
    assert str(hand.table(0)[-1]) == "pair K♠ K♣"
    return hand


def test_q5_a_pair_of_kings_takes_only_the_other_kings() -> None:
    hand = opponent_out_with_pair_of_kings()
    assert CardSet(meld_accepts(cards("Kc Ks").mask) & ~cards("Kc Ks").mask) == cards("Kh Kd")
    assert solos_off(hand, "Ks") == cards("Kh Kd")
    refuse(hand, "play Q♠ off K♠", "a pair takes only cards of its own rank")
    refuse(hand, "play Q♣ off K♣", "a pair takes only cards of its own rank")
    # Either King of the pair may be named; the K♦ then goes down too.
    assert hand.push_text("play K♥ off K♣") == Move.solo(c("Kh"), c("Ks"))
    hand.push_text("play K♦ off K♠")
    assert [str(col) for col in hand.table(1)] == ["solo K♥ (off K♠)", "solo K♦ (off K♠)"]


# -- 6 -------------------------------------------------------------------------------------------
def test_q6_going_out_needs_no_discard() -> None:
    # The dealer holds J♠ J♥ J♦ J♣ and A-7♠: everything is played, nothing is discarded.
    hand = deal(
        "Js Jh Jd Jc 7s 6s 5s 4s 3s 2s As",
        "2h 4h 6h 2d 4d 6d 3c 5c 7c 9c",
        "Kh",
        dealer=0,
    )
    play(hand, "play J♠", "play J♥", "play J♦", "play J♣")
    assert [m.kind for m in hand.legal_moves] == [MoveKind.MELD]
    hand.push_text("meld 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ A♠")
    assert hand.hand(0) == CardSet()
    assert hand.discard_pile() == []
    # He is out: Player 2 takes his one more turn.
    assert (hand.player, hand.phase, hand.last_turn) == (1, Phase.DRAW, True)
    play(hand, "draw", "forfeit")
    outcome = hand.outcome()
    assert outcome is not None
    assert outcome.went_out == (0,)


# -- 7 -------------------------------------------------------------------------------------------
def test_q7_score_of_the_table_is_40() -> None:
    #   J♥  J♠  10♠  9♠  4♣  K♣
    #                    3♣  Q♣
    #                    2♣
    #                    A♣
    hand = deal(
        "Jh Js 10s 9s 4c 3c 2c Ac Kc Qc 6d",
        "2h 4h 6h 2d 4d 5d 3s 5s 7s 9h",
        dealer=0,
    )
    play(
        hand,
        "play J♥",
        "play J♠",
        "play 10♠ off J♠",
        "play 9♠ off 10♠",
        "meld 4♣ 3♣ 2♣ A♣",
        "meld K♣ Q♣",
    )
    table = hand.table(0)
    assert [str(col) for col in table] == [
        "solo J♥",
        "solo J♠",
        "solo 10♠ (off J♠)",
        "solo 9♠ (off 10♠)",
        "sequence 4♣ 3♣ 2♣ A♣",
        "marriage K♣ Q♣",
    ]
    assert hand.played_points() == (40, 0)
    assert sum(column_points(col.kind, col.cards.mask) for col in table) == 40
    # Without the marriage's doubling it would be 30.
    assert sum(card_points(x) for col in table for x in col.cards) == 30


# -- 8 -------------------------------------------------------------------------------------------
def test_q8_going_out_with_a_pair_needs_no_discard() -> None:
    hand = deal(
        "9s 8s 7s 6s 5s 4s 3s 2s As Kc Ks",
        "Kh Kd Qs Qc 2h 4h 6h 2d 4d 6d",
        "8h",
        dealer=0,
    )
    hand.push_text("meld 9♠ 8♠ 7♠ 6♠ 5♠ 4♠ 3♠ 2♠ A♠")
    assert hand.hand(0) == cards("Ks Kc")
    assert Move.pair(c("Ks"), c("Kc")) in hand.legal_moves
    hand.push_text("pair K♠ K♣")
    assert hand.hand(0) == CardSet()
    assert hand.discard_pile() == []
    assert (hand.player, hand.last_turn) == (1, True)


# -- 9 -------------------------------------------------------------------------------------------
def test_q9_a_face_down_discard_cannot_be_drawn() -> None:
    # Player 2 deals himself A-7♥, 9♠ 9♣, K♦ Q♠. He melds the run and throws Q♠; later he
    # plays the 8♥ he draws off his run, discards K♦ face down and goes out with the 9s.
    hand = deal(
        "7h 6h 5h 4h 3h 2h Ah 9s 9c Kd Qs",
        "2s 4s 6s 2d 4d 6d 3c 5c 7c 10c",
        "Kc 8h 5s",
        dealer=1,
    )
    play(hand, "meld 7♥ 6♥ 5♥ 4♥ 3♥ 2♥ A♥", "discard Q♠")
    play(hand, "draw", "discard K♣")
    play(hand, "draw", "play 8♥ off 7♥", "pair 9♠ 9♣ discard K♦ down")
    assert hand.discard_pile() == [(c("Qs"), False), (c("Kc"), False), (c("Kd"), True)]
    assert (hand.player, hand.last_turn) == (0, True)
    # Player 1's last turn: the stock is the only source.
    assert list(hand.legal_moves) == [Move.draw()]
    refuse(hand, "take", "no face-up card on the discard pile")
    refuse(hand, "take K♦", "the top discard lies face down and cannot be drawn")
    refuse(hand, "take K♦ K♣", "the top discard lies face down and cannot be drawn")
    hand.push_text("draw")
    assert c("5s") in hand.hand(0)


# -- 10 ------------------------------------------------------------------------------------------
def test_q10_only_the_three_of_diamonds_plays_off_the_group_of_threes() -> None:
    #   Opponent:  3♠        Player 1: 6♠ 4♠ | K♥ 4♥ 2♥ | 10♦ 3♦ | 6♣ 2♣, draws 9♥
    #              3♥
    #              3♣
    group = cards("3s 3h 3c")
    assert CardSet(meld_accepts(group.mask) & ~group.mask) == cards("3d")

    hand = deal(
        "3s 3h 3c Kc 9d 7d 5s Qh 10h 8c Ad",
        "3d 2c 4s 4h 2h 6s 8s 10d Kh 6c",
        "9h",
        dealer=1,
    )
    play(hand, "meld 3♠ 3♥ 3♣", "discard K♣", "draw")
    assert str(hand.table(1)[0]) == "group 3♠ 3♥ 3♣"
    assert plays(hand) == [Move.solo(c("3d"), c("3s"))]
    refuse(hand, "play 4♠ off 3♠", "a group takes only cards of its own rank")
    refuse(hand, "play 2♣ off 3♣", "a group takes only cards of its own rank")
    refuse(hand, "play 4♥ off 3♥", "a group takes only cards of its own rank")


# -- 11 ------------------------------------------------------------------------------------------
def test_q11_three_tens_must_be_grouped_even_beside_a_jack() -> None:
    # The dealer (Player 2) opens with the J♠. Player 1 holds 10♠ 10♥ 10♦ and draws 7♠.
    hand = deal(
        "Js Kc 9d 7d 5s Qh 2h 8c Ad 4c 6h",
        "10s 10d 10h 3s 5d 2c 6c 9h Kh 4s",
        "7s",
        dealer=1,
    )
    play(hand, "play J♠", "discard K♣", "draw")
    # "The 10♠ is played off your Jack ..." - no: The Rule.
    message = refuse(hand, "play 10♠ off J♠", "The Rule", "10♠ 10♥ 10♦")
    assert message.startswith("10♠ cannot be played")
    assert plays(hand) == [Move.meld(cards("10s 10h 10d"))]
    hand.push_text("meld 10♠ 10♥ 10♦")
    assert str(hand.table(0)[-1]) == "group 10♠ 10♥ 10♦"


# -- 12 ------------------------------------------------------------------------------------------
def test_q12_hand_playing_surface() -> None:
    # Your hand:                     Playing surface (the book's answer):
    #   Hearts:   K 8 7                J♠  10♠  9♠  10♦  7♥
    #   Spades:   J 10 9                                 7♦
    #   Diamonds: 10 7 A                                 7♣
    #   Clubs:    7 6
    dealer_hand = "Kh 8h 7h Js 10s 9s 10d 7d Ad 7c 6c"
    hand = deal(dealer_hand, "As 3s 5s 2h 4h 6h 2d 4d 8c 9c", dealer=0)

    (plan,) = meld_plans(cards(dealer_hand).mask, 0)
    assert [CardSet(m) for m in plan.melds] == [cards("7h 7d 7c")]
    assert CardSet(plan.solos) == cards("Js 10s 9s 10d")

    # J-10-9♠ is no sequence (it needs the Jack): all three go down one by one.
    assert Move.meld(cards("Js 10s 9s")) not in hand.legal_moves
    assert meld_phase_ends(hand) == {
        (
            frozenset(
                {
                    "solo J♠",
                    "solo 10♠ (off J♠)",
                    "solo 9♠ (off 10♠)",
                    "solo 10♦ (off 10♠)",
                    "group 7♥ 7♦ 7♣",
                }
            ),
            cards("Kh 8h Ad 6c"),
        )
    }
