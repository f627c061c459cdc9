"""Input from outside the engine: every wrong value is refused with a ValueError that
says what is wrong, and the state is left as it was."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import fingerprint
from umtali.games.umtali.describe import explain_illegal
from umtali.games.umtali.moves import IllegalMoveError, InvalidMoveError, Move, MoveKind
from umtali.games.umtali.notation import parse_move
from umtali.games.umtali.state import HandState
from umtali.kernel.cards import CardSet, InvalidCardError, card_name, parse_card, parse_cards
from umtali.kernel.deck import InvalidDeckError, seeded_deck


@pytest.mark.parametrize("value", [None, 5, b"Ks", ["Ks"]])
def test_a_card_must_be_text(value: Any) -> None:
    with pytest.raises(InvalidCardError, match="is not a card"):
        parse_card(value)


@pytest.mark.parametrize("value", [None, 5, ["Ks"]])
def test_cards_must_be_text(value: Any) -> None:
    with pytest.raises(InvalidCardError, match="is not text naming cards"):
        parse_cards(value)
    with pytest.raises(InvalidCardError):
        CardSet.parse(value)


@pytest.mark.parametrize("seed", [None, 1.5, True, (1, 2)])
def test_a_deck_seed_is_a_number_or_text(seed: Any) -> None:
    # None would deal from the OS's entropy: a deal no record could reproduce.
    with pytest.raises(InvalidDeckError, match="a deck seed is a whole number or text"):
        seeded_deck(seed)


@pytest.mark.parametrize(
    "action",
    [
        2**70,  # stray high bits over a valid kind
        -1,
        0xF,  # no move kind
        Move.keep().action | 1 << 20,
    ],
)
def test_an_int_that_packs_no_move_is_refused_as_invalid(action: int) -> None:
    hand = HandState.from_seed(1)
    before = fingerprint(hand)
    with pytest.raises(InvalidMoveError, match="is not a move action"):
        hand.push(action)
    assert fingerprint(hand) == before


def test_every_legal_action_decodes_to_itself() -> None:
    hand = HandState.from_seed(4)
    while not hand.is_over():
        for action in hand.legal_actions():
            assert Move.from_action(action).action == action
        hand.push(hand.legal_actions()[-1])


def test_a_meld_of_eleven_cards_is_named_as_too_long() -> None:
    with pytest.raises(InvalidMoveError, match="a meld has at most 10 cards"):
        parse_move("meld As 2s 3s 4s 5s 6s 7s 8s 9s 10s Js")


def test_an_illegal_push_names_the_rule_and_changes_nothing() -> None:
    hand = HandState.from_seed(2)
    hand.push_text("keep")
    before = fingerprint(hand)
    with pytest.raises(IllegalMoveError, match="is not allowed now"):
        hand.push(Move.draw())
    assert fingerprint(hand) == before


def test_a_refusal_can_speak_to_the_player_and_name_the_move_as_he_saw_it() -> None:
    hand = HandState.from_seed(2)
    dealer = hand.player
    you_deal = ("you", "Computer") if dealer == 0 else ("Computer", "you")
    assert explain_illegal(hand, Move.draw(), names=you_deal) == (
        "You cannot draw from the stock now: you deal and must first choose who receives"
        " the 11th card: keep it or give it."
    )
    hand.push_text("give")  # the other player opens
    opener = hand.player
    spoken = ("You", "Computer") if opener == 0 else ("Computer", "You")
    away = next(c for c in range(52) if not hand.hands[opener] >> c & 1)
    discard = Move.discard_card(away)
    assert explain_illegal(hand, discard, names=spoken) == (
        f"You cannot discard {card_name(away)} now: {card_name(away)} is not in your hand."
    )
    # Unnamed, the players are the book's, as the engine's own refusal has them; the
    # engine's names the move in notation, the player's sentence in words.
    with pytest.raises(IllegalMoveError) as raised:
        hand.push(discard)
    assert str(raised.value).endswith(explain_illegal(hand, discard).split(": ", 1)[1][:-1])
    assert f"Player {opener + 1}'s hand" in str(raised.value)
    # A move named otherwise, when its notation would show a card the reader may not see.
    assert explain_illegal(hand, discard, move_name="that discard").startswith(
        "That discard is not allowed now: "
    )
    # A move as typed, 'take' with no card: explained as the state reads it.
    assert explain_illegal(hand, Move(MoveKind.TAKE, ())) == (
        f"Player {opener + 1} cannot take the top discard now: there is no draw on the"
        " opening turn; the player with 11 cards melds, then discards."
    )
