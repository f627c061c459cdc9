"""Input from outside the engine: every wrong value is refused with a ValueError that
says what is wrong, and the state is left as it was."""

from __future__ import annotations

from typing import Any

import pytest

from tests.helpers import fingerprint
from umtali.cards import CardSet, InvalidCardError, parse_card, parse_cards
from umtali.deck import InvalidDeckError, seeded_deck
from umtali.moves import IllegalMoveError, InvalidMoveError, Move
from umtali.notation import parse_move
from umtali.state import HandState


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
