"""The fixed action space (:mod:`umtali.rl.actions`): every move the engine offers in
play has exactly one index, every index one move, and the documented table is the one
the code builds."""

from __future__ import annotations

import doctest
import random
from pathlib import Path

import numpy as np
import pytest

from tests.helpers import c, play
from umtali.games.umtali.deal import stacked_deck
from umtali.games.umtali.moves import Move, MoveKind
from umtali.games.umtali.research import actions
from umtali.games.umtali.research.actions import (
    ACTION_BLOCKS,
    DISCARD,
    DISCARD_DOWN,
    DRAW,
    ENGINE_ACTIONS,
    GIVE,
    KEEP,
    MELD,
    NUM_ACTIONS,
    PAIR,
    PAIR_COLUMNS,
    SOLO,
    TAKE,
    TAKE_TWO,
    ActionSpaceError,
    block_of,
    engine_action,
    index_of,
    indices_of_actions,
    legal_indices,
    legal_mask,
    mask_of_view,
    move_of,
    table_markdown,
)
from umtali.games.umtali.rules import PRESETS
from umtali.games.umtali.state import HandState
from umtali.games.umtali.view import PlayerView
from umtali.kernel.deck import shuffled_deck

RESEARCH = Path(__file__).resolve().parent.parent / "docs" / "RESEARCH.md"


def test_the_blocks_tile_the_space_with_the_documented_counts() -> None:
    counts = {b.name: b.count for b in ACTION_BLOCKS}
    assert counts == {
        "KEEP": 1,
        "GIVE": 1,
        "DRAW": 1,
        "FORFEIT": 1,
        "TAKE": 52,
        "TAKE_TWO": 52 * 51,
        # Runs of 3..10 in A..10; 3 or 4 of a rank; K+Q; and the last turns' short melds.
        "MELD": 4 * 36 + 12 * 5 + 4 + 72 + 36,
        "SOLO": 4 + 8 * 4 + 40 * 5,  # Jacks; aces and kings have one suit neighbour
        "DISCARD": 52,
        "DISCARD_DOWN": 52,
        "PAIR": (72 + 36) * (1 + 50 + 50),  # pairs and two-card runs; their discards
    }
    start = 0
    for block in ACTION_BLOCKS:
        assert block.base == start
        start += block.count
    assert start == NUM_ACTIONS == 14_272
    assert len(PAIR_COLUMNS) == 108


def test_every_index_round_trips_through_its_move() -> None:
    packed = set()
    for index in range(NUM_ACTIONS):
        move = move_of(index)
        assert index_of(move) == index
        assert index_of(move.action) == index
        assert engine_action(index) == move.action
        assert index in block_of(index)
        packed.add(move.action)
    assert len(packed) == NUM_ACTIONS  # no two indices share a move


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_legal_move_of_random_play_has_its_own_index(preset: str) -> None:
    rules = PRESETS[preset]
    rng = random.Random(15)
    states = 0
    for _ in range(300):
        hand = HandState(shuffled_deck(rng), rng.randrange(2), rules).forget_undo()
        while not hand.is_over():
            legal = hand.legal_actions()
            indices = legal_indices(hand)
            assert len(set(indices)) == len(indices) == len(legal)
            assert all(0 <= i < NUM_ACTIONS for i in indices)
            assert [engine_action(i) for i in indices] == legal
            mask = legal_mask(hand)
            assert mask.dtype == np.dtype(np.bool_)
            assert mask.shape == (NUM_ACTIONS,)
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(indices)
            MET_KINDS.update(MoveKind(a & 0xF) for a in legal)
            states += 1
            hand.push(legal[rng.randrange(len(legal))])
    assert states > 8_000


MET_KINDS: set[MoveKind] = set()
"""The kinds of move the random hands above met, under every preset."""


def test_random_play_met_every_kind_of_move() -> None:
    # Pairs to go out and forfeits too: the hands above covered the whole vocabulary.
    if len(MET_KINDS) < len(MoveKind):  # run on its own: play the hands first
        for preset in PRESETS:
            test_every_legal_move_of_random_play_has_its_own_index(preset)
    assert set(MoveKind) == MET_KINDS


def test_a_view_gives_the_same_mask_as_the_state() -> None:
    rng = random.Random(3)
    hand = HandState(shuffled_deck(rng), 0)
    while not hand.is_over():
        for seat in (0, 1):
            view_mask = mask_of_view(PlayerView.of(hand, seat))
            if seat == hand.player:
                assert (view_mask == legal_mask(hand)).all()
            else:
                assert not view_mask.any()
        legal = hand.legal_actions()
        hand.push(legal[rng.randrange(len(legal))])


def test_a_drawn_hand_names_its_moves_by_block() -> None:
    # Player 2 deals and keeps the 11th card:
    #   Player 2: K♠ 9♠ K♥ 7♥ 5♥ 3♥ 2♥ A♥ K♣ 9♣ 10♦   Player 1: J♠ 7♠ 6♠ 5♠ 10♥ 6♥ 10♣ 5♣ Q♦ J♦
    hand = HandState(
        stacked_deck(
            "Ks 9s Kh 7h 5h 3h 2h Ah Kc 9c 10d", "Js 7s 6s 5s 10h 6h 10c 5c Qd Jd", "4c 4h"
        ),
        dealer=1,
    )
    assert legal_indices(hand) == [KEEP, GIVE]
    play(hand, "keep")
    melds = sorted(i - MELD for i in legal_indices(hand))
    # A♥ 2♥ 3♥ is the first run of hearts (suit 2): 36 runs per suit before it; the three
    # kings lacking diamonds are the twelfth rank's (K, after eleven others) second group.
    assert melds == [2 * 36, 4 * 36 + 11 * 5 + 1]
    play(hand, "meld K♠ K♥ K♣", "meld 3♥ 2♥ A♥", "discard 5♥")
    assert legal_indices(hand) == [DRAW, TAKE + c("5h")]
    play(hand, "draw")  # 4♣; Player 1 must lay 7♠ 6♠ 5♠ (The Rule) and may play his Jacks
    # Spades' runs from A, 2, 3 and 4 (8 + 7 + 6 + 5 of them) come before 5♠ 6♠ 7♠; the
    # solos begin with the four Jacks, clubs first.
    assert legal_indices(hand) == [MELD + 3 * 36 + 26, SOLO + 1, SOLO + 3]
    play(hand, "meld 7♠ 6♠ 5♠", "play J♦", "play J♠", "play Q♦ off J♦")
    assert DISCARD + c("5c") in legal_indices(hand)
    assert move_of(DISCARD_DOWN + c("Qd")).text() == "discard Q♦ down"
    assert move_of(SOLO).text() == "play J♣"  # the first solo is the first Jack's
    assert move_of(TAKE_TWO).text() == "take A♣ 2♣"  # A♣ on top, 2♣ below it
    assert move_of(PAIR).text() == "pair A♦ A♣"


def test_moves_outside_the_space_and_indices_outside_it_are_refused() -> None:
    with pytest.raises(ActionSpaceError, match="'meld 7♠ 2♣' is no move the rules"):
        index_of(Move.meld([c("7s"), c("2c")]))
    with pytest.raises(ActionSpaceError, match="'take' is no move"):
        index_of(Move.take())  # take as typed: the state names the card
    with pytest.raises(ActionSpaceError, match="'play 9♦ off Q♠' is no move"):
        index_of(Move.solo(c("9d"), c("Qs")))
    for bad in (-1, NUM_ACTIONS, True, "3", 2.0):
        with pytest.raises(ActionSpaceError, match=r"is not an action index: an index is an int"):
            move_of(bad)  # type: ignore[arg-type]
    assert move_of(np.int64(DRAW)) == Move.draw()  # type: ignore[arg-type]  # numpy's ints too


def test_the_research_doc_shows_the_table_the_code_builds() -> None:
    text = RESEARCH.read_text(encoding="utf-8")
    assert table_markdown() in text


def test_the_research_doc_examples_run() -> None:
    results = doctest.testfile(str(RESEARCH), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert results.attempted > 10
    assert results.failed == 0


def test_the_module_lists_what_it_exports() -> None:
    assert all(hasattr(actions, name) for name in actions.__all__)


def test_an_array_of_packed_actions_maps_to_the_indices_one_by_one() -> None:
    # Every action of the space at once, shuffled: the table's and the search's alike.
    order = np.random.default_rng(5).permutation(NUM_ACTIONS)
    packed = np.array([ENGINE_ACTIONS[i] for i in order], np.int64)
    assert indices_of_actions(packed).tolist() == order.tolist()
    assert indices_of_actions(packed[:0]).tolist() == []
