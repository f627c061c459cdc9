"""The practical preset: seed 003's looser Umtali (ruling V) as options of the one engine.

Every difference from the standard rules is an option of :class:`umtali.games.umtali.rules.RuleSet`
that :class:`umtali.games.umtali.state.HandState` reads (docs/RULES.md Part 3b). These tests play the
preset as the standard rules are played elsewhere: a whole hand move by move, each new
refusal with its reason, perft counts, random-play invariants, views, records and bots.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import all_cards_accounted_for, fingerprint, snapshot
from tests.test_properties import random_move
from umtali.games.umtali.bots import BOTS, SearchBot
from umtali.games.umtali.deal import UPCARD_INDEX, stacked_deck
from umtali.games.umtali.describe import describe_move, describe_seen, explain_illegal
from umtali.games.umtali.match import Match
from umtali.games.umtali.melds import ColumnKind
from umtali.games.umtali.moves import KIND_MASK, IllegalMoveError, MoveKind
from umtali.games.umtali.record import loads
from umtali.games.umtali.rules import PRACTICAL, PRESETS, STANDARD, RuleSet
from umtali.games.umtali.state import Column, HandState, Phase, Termination
from umtali.games.umtali.terms import FACE_DOWN
from umtali.games.umtali.view import PlayerView, determinize
from umtali.kernel.cards import CardSet, cards_of, parse_card
from umtali.kernel.deck import seeded_deck, shuffled_deck
from umtali.kernel.record import dumps
from umtali.sim.perft import perft

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def practical_hand(seed: int) -> HandState:
    return HandState.from_seed(seed, random.Random(seed).randrange(2), PRACTICAL)


def texts(hand: HandState) -> list[str]:
    return [str(m) for m in hand.legal_moves]


def play(hand: HandState, *moves: str) -> None:
    for text in moves:
        hand.push_text(text)


def refused(hand: HandState, text: str, code: str) -> str:
    """Push ``text``, expect the refusal ``code``, check nothing changed; its message."""
    before = snapshot(hand)
    with pytest.raises(IllegalMoveError) as info:
        hand.push_text(text)
    assert snapshot(hand) == before
    why = info.value.refusal
    assert why is not None
    assert why.code == code, why.text()
    return str(info.value)


# -- the preset ----------------------------------------------------------------------------


def test_practical_is_a_preset_of_options() -> None:
    assert PRESETS["practical"] is PRACTICAL
    assert RuleSet.from_dict({"preset": "practical"}) == PRACTICAL
    assert RuleSet.from_dict(PRACTICAL.to_dict()) == PRACTICAL
    changed = {
        key
        for key, value in PRACTICAL.to_dict().items()
        if value != getattr(STANDARD, key) and key != "name"
    }
    assert changed == {
        "eleventh_card",
        "opening_draw",
        "compulsory_play",
        "discard_taken_to_go_out",
        "take_two",
        "deep_take",
        "final_discard_face_down_only",
        "pair_to_go_out",
        "last_turn_short_melds",
        "last_turn_discard",
    }
    # Marriages at 10 a card, four hands a game and the session stay standard.
    assert (PRACTICAL.marriage_multiplier, PRACTICAL.hands_per_game) == (2, 4)
    assert PRACTICAL.games_to_win_session == STANDARD.games_to_win_session


def test_the_deal_is_ten_each_and_an_upcard_and_the_non_dealer_draws_first() -> None:
    deck = seeded_deck(9)
    hand = HandState(deck, dealer=1, rules=PRACTICAL)
    assert (len(hand.hand(0)), len(hand.hand(1))) == (10, 10)
    assert hand.discard_pile() == [(deck[UPCARD_INDEX], False)]
    assert hand.stock_size() == 31
    assert (hand.player, hand.phase, hand.turn) == (0, Phase.DRAW, 1)
    assert [m.kind for m in hand.legal_moves] == [MoveKind.DRAW, MoveKind.TAKE]


# -- one whole hand --------------------------------------------------------------------------

# Player 2 deals. Player 1 (10): 7♥ 6♥ 5♥ · K♠ Q♠ K♥ · 4♦ 2♦ A♦ · 8♠
#                 Player 2 (10): Q♦ 10♦ 10♣ · 7♦ 6♦ · 5♠ 3♠ · 3♥ 2♥ · A♣
# Upcard K♣. Stock from the top: J♦ 8♣ 4♠ 3♦ A♥ …
PRACTICAL_DECK = stacked_deck(
    "3s 3h 10c 10d 7d 6d Ac 5s Qd 2h",
    "5h 6h 7h Ks Qs Kh 4d 2d 8s Ad",
    "Jd 8c 4s 3d Ah",
    upcard="Kc",
)

HAND_TURNS = (
    # 1 P1 draws J♦ (the opening turn draws); melding is optional: K♠ Q♠ stay in hand.
    ("draw", "meld 7♥ 6♥ 5♥", "play J♦", "discard 8♠"),
    # 2 P2 plays off P1's J♦, then off his own 10♦.
    ("draw", "play Q♦ off J♦", "play 10♦ off J♦", "play 10♣ off 10♦", "discard 2♥"),
    # 3 P1 reaches under 8♠ and 2♥ for K♣, which must be melded this turn: the group of
    #   Kings, not the marriage. 8♠ came with it and may go back; 2♥ was on top and may not.
    ("take K♣", "meld K♠ K♥ K♣", "play Q♠ off Q♦", "discard 8♠"),
    # 4
    ("draw", "meld 5♠ 4♠ 3♠", "discard 8♣"),
    # 5 P1 goes out; his last discard must lie face down.
    ("draw", "meld 4♦ 3♦ 2♦ A♦", "discard 2♥ down"),
    # 6 P2's last turn: stock only; two-card melds; no discard, so 3♥ is forfeited.
    ("draw", "meld A♥ A♣", "meld 7♦ 6♦", "forfeit"),
)


def test_a_practical_hand_move_by_move() -> None:
    hand = HandState(PRACTICAL_DECK, dealer=1, rules=PRACTICAL)
    assert texts(hand) == ["draw", "take K♣"]
    play(hand, *HAND_TURNS[0])
    assert str(hand.hand(0)) == "A♦ 2♦ 4♦ K♥ Q♠ K♠"
    play(hand, *HAND_TURNS[1])
    # The pile, bottom to top: K♣ 8♠ 2♥. Only K♣ can be played by Player 1 (three
    # Kings); 8♠ could not, so it is no deep take.
    assert texts(hand) == ["draw", "take 2♥", "take K♣"]
    hand.push_text("take K♣")
    assert hand.taken_this_turn() == CardSet.parse("Kc 8s 2h")
    assert hand.must_meld == 1 << parse_card("Kc")
    assert "meld K♠ Q♠" not in texts(hand)  # the marriage would strand K♣
    play(hand, *HAND_TURNS[2][1:3])
    assert "discard 8♠" in texts(hand)
    assert "discard 2♥" not in texts(hand)
    play(hand, HAND_TURNS[2][3], *HAND_TURNS[3])
    hand.push_text(HAND_TURNS[4][0])
    # 2♥, taken two turns ago, is free to go now.
    assert "discard 2♥" in texts(hand)
    hand.push_text(HAND_TURNS[4][1])
    assert texts(hand) == ["discard 2♥ down"]
    hand.push_text(HAND_TURNS[4][2])
    assert (hand.out, hand.last_turn, hand.player) == (0, True, 1)
    assert texts(hand) == ["draw"]  # the face-down 2♥ cannot be taken
    hand.push_text("draw")
    # A♥ drawn: the pair of Aces and the run 7♦ 6♦ are melds on the last turn.
    assert texts(hand) == ["meld A♥ A♣", "meld 7♦ 6♦", "forfeit"]
    play(hand, *HAND_TURNS[5][1:])
    assert [str(c) for c in hand.table(1)][-2:] == ["pair A♥ A♣", "sequence 7♦ 6♦"]
    outcome = hand.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.OUT
    assert outcome.went_out == (0,)
    assert outcome.forfeited == CardSet.parse("3h")
    # P1: 7♥ 6♥ 5♥ 3 · J♦ 5 · K♠ K♥ K♣ 15 · Q♠ 5 · 4♦ 3♦ 2♦ A♦ 4 = 32, and 3♥ forfeited.
    # P2: Q♦ 10♦ 10♣ 15 · 5♠ 4♠ 3♠ 3 · A♥ A♣ 2 · 7♦ 6♦ 2 = 22.
    assert outcome.played == (32, 22)
    assert outcome.scores == (33, 22)
    assert hand.recount() == hand.points


def test_the_deep_take_is_told_with_the_cards_above_it() -> None:
    hand = HandState(PRACTICAL_DECK, dealer=1, rules=PRACTICAL)
    play(hand, *HAND_TURNS[0], *HAND_TURNS[1])
    take = hand.parse_move("take K♣")
    assert describe_move(hand, take) == (
        "Player 1 takes K♣ with the 2 cards above it (8♠ 2♥) from the discard pile"
    )
    hand.push(take)
    seen = PlayerView.of(hand, 1)
    assert describe_seen(seen, len(seen.history) - 1, ("Ann", "You")) == (
        "Ann takes the discard pile from the top down to K♣"
    )


# -- each new rule's refusal -------------------------------------------------------------------


def test_refusals_of_the_practical_rules() -> None:
    hand = HandState(PRACTICAL_DECK, dealer=1, rules=PRACTICAL)
    # The opening turn draws first, like any other.
    refused(hand, "meld 7♥ 6♥ 5♥", "draw_first")
    play(hand, *HAND_TURNS[0], *HAND_TURNS[1])
    message = refused(hand, "take 8♠", "take_deep_unplayable")
    assert "8♠ may be taken from under other discards only if it can be played" in message
    assert "(V)" in message
    refused(hand, "take 9♣", "not_in_pile")
    # Two at a time is R3's take; here a take names the deepest card it reaches.
    assert "take 8♠ instead" in refused(hand, "take 2♥ 8♠", "take_two_off")
    hand.push_text("take K♣")
    refused(hand, "meld K♠ Q♠", "taken_deep_stranded")
    refused(hand, "discard 8♠", "taken_deep_unplayed")
    play(hand, "meld K♠ K♥ K♣", "play Q♠ off Q♦")
    # Two cards make no meld before the last turn.
    refused(hand, "meld 2♥ 2♦", "short_meld_not_now")
    refused(hand, "discard 2♥", "taken_discard")
    play(hand, "discard 8♠", *HAND_TURNS[3], *HAND_TURNS[4][:2])
    assert "discard 2♥ face down" in refused(hand, "discard 2♥", "face_up_out")
    hand.push_text("discard 2♥ down")
    refused(hand, "take", "no_face_up_discard")
    play(hand, "draw", "meld A♥ A♣", "meld 7♦ 6♦")
    refused(hand, "discard 3♥ down", "last_turn_no_discard")
    refused(hand, "discard 3♥", "last_turn_no_discard")


def test_a_closing_run_and_its_refusals() -> None:
    # Player 1 holds 6♥ 5♥ 9♣ after his plays: he may go out with the run 6♥ 5♥,
    # throwing 9♣ face down; on the last turn two cards are a meld instead.
    hand = HandState.from_parts(
        rules=PRACTICAL,
        dealer=1,
        eleventh=-1,
        phase=Phase.PLAY,
        player=0,
        hands=(CardSet.parse("6h 5h 9c").mask, CardSet.parse("Ks Qs 2c").mask),
        stock=[c for c in range(52) if c not in CardSet.parse("6h 5h 9c Ks Qs 2c 4d")],
        pile=[(parse_card("4d"), False)],
        tables=[[], []],
        turn=5,
    )
    assert texts(hand) == ["discard 9♣", "discard 5♥", "discard 6♥", "run 6♥ 5♥ discard 9♣ down"]
    refused(hand, "run 6h 5h discard 9c", "face_up_out")
    refused(hand, "pair 6h 9c discard 5h down", "not_a_pair")
    hand.push_text("run 6♥ 5♥ discard 9♣ down")
    assert [str(c) for c in hand.table(0)] == ["sequence 6♥ 5♥"]
    assert hand.table_accepts() & CardSet.parse("7h 4h").mask == CardSet.parse("7h 4h").mask
    assert hand.last_turn
    assert hand.player == 1
    hand.push_text("draw")
    refused(hand, "pair K♠ Q♠", "not_a_pair")


def test_the_rule_stands_where_the_seed_is_silent() -> None:
    # Player 1 holds 10♥ 9♥ 8♥ 3♣ with Player 2's J♥ on the table. The J♥ accepts 10♥,
    # but The Rule (R4) keeps 10♥ in the run it makes; melding the run stays optional.
    hand = HandState.from_parts(
        rules=PRACTICAL,
        dealer=1,
        eleventh=-1,
        phase=Phase.PLAY,
        player=0,
        hands=(CardSet.parse("10h 9h 8h 3c").mask, CardSet.parse("Ks Qs 2c").mask),
        stock=[c for c in range(52) if c not in CardSet.parse("10h 9h 8h 3c Ks Qs 2c 4d Jh")],
        pile=[(parse_card("4d"), False)],
        tables=[[], [Column(ColumnKind.SOLO, CardSet.parse("Jh"))]],
        turn=5,
    )
    assert "must be overlapped" in refused(hand, "play 10♥ off J♥", "must_overlap")
    refused(hand, "meld 10♥ 9♥", "meld_not_whole")
    assert texts(hand)[:2] == ["meld 10♥ 9♥ 8♥", "discard 3♣"]


# -- the card taken from the top is never discarded in its turn (ruling V) ---------------------


def position(
    hand: str,
    *,
    phase: Phase,
    pile: str = "",
    taken: str = "",
    mine: tuple[tuple[ColumnKind, str], ...] = (),
    theirs: tuple[tuple[ColumnKind, str], ...] = (),
    rules: RuleSet = PRACTICAL,
) -> HandState:
    """Player 1 to move at turn 20 holding ``hand``; the other player holds ten cards of
    what is left and the stock the rest. ``taken``: what Player 1 took from the top of
    the pile this turn (in ``hand`` already)."""
    masks = {name: CardSet.parse(text).mask for name, text in (("hand", hand), ("taken", taken))}
    piled = [parse_card(c) for c in pile.split()]
    sides = tuple(
        tuple((int(kind), CardSet.parse(cards).mask, -1) for kind, cards in side)
        for side in (theirs, mine)
    )
    used = masks["hand"] | sum(1 << c for c in piled)
    for side in sides:
        for _, mask, _ in side:
            used |= mask
    rest = [c for c in range(52) if not used >> c & 1]
    other = sum(1 << c for c in rest[:10])
    return HandState.from_raw(
        rules=rules,
        dealer=0,
        eleventh=1,
        phase=phase,
        player=1,
        hands=(other, masks["hand"]),
        stock=tuple(rest[10:]),
        pile=tuple(piled),
        tables=(sides[0], sides[1]),
        turn=20,
        taken=masks["taken"],
        took_two=False,
        ever_taken=(0, masks["taken"]),
        out=-1,
        last_turn=False,
        must_meld=0,
        taken_top=masks["taken"],
    )


def test_a_deep_take_cannot_count_on_discarding_the_top_card_to_go_out() -> None:
    # Player 1 holds K♣ 2♦; the pile is K♠ A♦ Q♣ (Q♣ on top). Taking K♠ brings A♦ and Q♣
    # too: A♦ and 2♦ go off A♥, but K♠ would reach the table only as the pair K♠ K♣
    # beside Q♣ discarded face down, and Q♣, taken from the top, may not be discarded
    # this turn, not even to go out (a random game found this, seed 1588550).
    def at(rules: RuleSet) -> HandState:
        return position(
            "Kc 2d",
            phase=Phase.DRAW,
            pile="Ks Ad Qc",
            theirs=((ColumnKind.SOLO, "Ah"),),
            mine=((ColumnKind.MARRIAGE, "Qh Kh"),),
            rules=rules,
        )

    hand = at(PRACTICAL)
    assert [t for t in texts(hand) if t.startswith("take")] == ["take Q♣", "take A♦"]
    refused(hand, "take K♠", "take_deep_unplayable")
    # Under R3's exception (a taken card may be the discard that goes out), it may.
    lenient = dataclasses.replace(PRACTICAL, discard_taken_to_go_out=True)
    hand = at(lenient)
    assert "take K♠" in texts(hand)
    play(hand, "take K♠", "play A♦ off A♥", "play 2♦ off A♦", "pair K♠ K♣ discard Q♣ down")
    assert hand.out == 1


def test_the_top_card_taken_is_no_odd_card_beside_a_closing_pair() -> None:
    # Player 1 took Q♣ from the top and holds K♠ K♣ Q♣.
    hand = position("Ks Kc Qc", phase=Phase.PLAY, taken="Qc")
    assert texts(hand) == ["meld K♣ Q♣", "discard K♣", "discard K♠"]
    message = refused(hand, "pair K♠ K♣ discard Q♣ down", "taken_top_kept")
    assert message.endswith(
        "Q♣ was taken from the top of the pile this turn and may not be discarded,"
        " not even to go out (V)"
    )
    # With R3's exception the pair goes out.
    lenient = dataclasses.replace(PRACTICAL, discard_taken_to_go_out=True)
    hand = position("Ks Kc Qc", phase=Phase.PLAY, taken="Qc", rules=lenient)
    assert "pair K♠ K♣ discard Q♣ down" in texts(hand)


def test_no_play_leaves_the_top_card_taken_alone_in_hand() -> None:
    # Player 1 took Q♣ from the top and holds 5♦ Q♣; 4♦ lies on the table. Playing 5♦
    # would leave Q♣ alone, which he may neither play nor discard: he discards 5♦.
    hand = position("5d Qc", phase=Phase.PLAY, taken="Qc", theirs=((ColumnKind.SOLO, "4d"),))
    assert texts(hand) == ["discard 5♦"]
    message = refused(hand, "play 5♦ off 4♦", "taken_top_stranded")
    assert "only Q♣ would be left in hand" in message
    # Had Q♣ somewhere to go, both would be played and he would go out.
    hand = position(
        "5d Qc",
        phase=Phase.PLAY,
        taken="Qc",
        theirs=((ColumnKind.SOLO, "4d"), (ColumnKind.SOLO, "Kc")),
    )
    play(hand, "play 5♦ off 4♦", "play Q♣ off K♣")
    assert hand.out == 1


# -- perft ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("seed", "depth", "count"), [(1, 7, 81119), (2, 7, 75214), (3, 6, 16227)])
def test_perft_from_practical_deals(seed: int, depth: int, count: int) -> None:
    assert perft(HandState.from_seed(seed, 0, PRACTICAL), depth) == count


def perft_by_copy(state: HandState, depth: int) -> int:
    """Perft by brute force: every branch on a copy, no push/pop undo."""
    if depth == 0 or state.is_over():
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.push(action)
        total += perft_by_copy(child, depth - 1)
    return total


def test_perft_from_a_deep_take_position() -> None:
    # Turn 3 of the hand above: the pile is K♣ 8♠ 2♥, and K♣ may be taken from under.
    hand = HandState(PRACTICAL_DECK, dealer=1, rules=PRACTICAL)
    play(hand, *HAND_TURNS[0], *HAND_TURNS[1])
    assert perft(hand, 6) == perft_by_copy(hand, 6) == 4016


def test_perft_agrees_with_a_count_on_copies() -> None:
    hand = HandState.from_seed(1, 0, PRACTICAL)
    assert perft(hand, 5) == perft_by_copy(hand, 5) == 2424


def places(state: HandState, card: int, seen: set[tuple[int, int]]) -> bool:
    """Whether some sequence of the plays legal from ``state`` lays ``card`` on the table:
    an exhaustive search over the engine's own moves, with no obligation on the hand."""
    key = (state.hands[state.player], state.open_mask)
    if key in seen:
        return False
    seen.add(key)
    for action in state.legal_actions():
        kind = action & KIND_MASK
        if kind not in (MoveKind.MELD, MoveKind.SOLO, MoveKind.PAIR):
            continue
        mover = state.player
        state.push(action)
        try:
            if any(card in column.cards for column in state.table(mover)):
                return True
            if state.player == mover and state.phase == Phase.PLAY and places(state, card, seen):
                return True
        finally:
            state.pop()
    return False


@settings(max_examples=25, deadline=None)
@given(seeds)
def test_deep_takes_are_exactly_the_playable_ones(seed: int) -> None:
    # At every draw, 'take X' from under the top is offered exactly when an exhaustive
    # search over the plays after taking (with no obligation) can lay X on the table.
    rng = random.Random(seed)
    state = practical_hand(seed)
    while not state.is_over():
        if state.phase == Phase.DRAW and state.top_discard() is not None:
            offered = {
                m.cards[0]
                for m in state.legal_moves
                if m.kind is MoveKind.TAKE and m.cards[0] != state.top_discard()
            }
            p = state.player
            expected = set()
            got = 0
            for depth in range(1, len(state.pile) + 1):
                card = state.pile[-depth]
                got |= 1 << card
                if depth == 1:
                    continue
                hands = (
                    (state.hands[0] | got, state.hands[1])
                    if p == 0
                    else (
                        state.hands[0],
                        state.hands[1] | got,
                    )
                )
                free = HandState.from_raw(
                    rules=state.rules,
                    dealer=state.dealer,
                    eleventh=state.eleventh,
                    phase=Phase.PLAY,
                    player=p,
                    hands=hands,
                    stock=tuple(state.stock_cards()),
                    pile=state.pile[:-depth],
                    tables=state.tables,
                    turn=state.turn,
                    taken=got,
                    took_two=False,
                    ever_taken=state.ever_taken,
                    out=state.out,
                    last_turn=state.last_turn,
                    must_meld=0,
                    taken_top=1 << state.pile[-1],
                )
                if places(free, card, set()):
                    expected.add(card)
            assert offered == expected, (seed, state.turn)
        legal = state.legal_actions()
        state.push(legal[rng.randrange(len(legal))])


# -- properties ----------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(seeds)
def test_random_practical_play_keeps_every_invariant(seed: int) -> None:
    rng = random.Random(seed)
    state = practical_hand(seed)
    while not state.is_over():
        assert all_cards_accounted_for(state)
        assert state.points == state.recount()
        legal = state.legal_actions()
        assert legal, "a live hand always has a legal move"
        assert len(set(legal)) == len(legal)
        before = fingerprint(state)
        for action in legal:
            state.push(action)
            assert all_cards_accounted_for(state)
            state.pop()
            assert fingerprint(state) == before
            assert state.legal_actions() == legal
        for _ in range(3):
            move = random_move(rng)
            if state.complete(move).action in legal:
                continue  # a legal move, or one written as it (a solo off a group's card)
            with pytest.raises(IllegalMoveError) as info:
                state.push(move)
            assert fingerprint(state) == before
            why = info.value.refusal
            assert why is not None
            assert why.code != "not_legal", why
            assert not why.rules or f"({', '.join(why.rules)})" in why.text()
            assert "Player" not in explain_illegal(state, move, names=("you", "You"))
        state.push(legal[rng.randrange(len(legal))])
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.played == state.recount()
    assert sum(outcome.scores) == sum(outcome.played) + outcome.forfeited.points()
    assert state.turn <= state.rules.turn_cap + 1


@settings(max_examples=200, deadline=None)
@given(seeds)
def test_every_practical_hand_ends_and_scores(seed: int) -> None:
    state = practical_hand(seed).forget_undo()
    outcome = state.play_out(random.Random(seed))
    assert state.is_over()
    assert outcome.played == state.recount()
    # Nobody discards on the last turn: a hand that ends with two players out ended
    # with the last-turn player melding every card.
    last = state.history[-1]
    assert not (last[1] & KIND_MASK == MoveKind.DISCARD and state.last_turn)
    for entry in state.pile[:-1]:
        assert not entry & FACE_DOWN, "only the last discard can lie face down"


@settings(max_examples=12, deadline=None)
@given(seeds)
def test_a_practical_view_never_leaks_and_determinizes(seed: int) -> None:
    rng = random.Random(seed)
    state = practical_hand(seed)
    steps = 0
    while not state.is_over():
        for viewer in (0, 1):
            view = PlayerView.of(state, viewer)
            opponent = 1 - viewer
            hidden = state.hands[opponent] & ~view.taken_from_pile[opponent].mask
            for c in state.stock_cards():
                hidden |= 1 << c
            for (card, down), shown in zip(state.discard_pile(), view.discard_pile, strict=True):
                if down and shown is None:
                    hidden |= 1 << card & ~view.taken_from_pile[opponent].mask
            mentioned = 0
            text = json.dumps(view.to_dict())
            for token in text.replace('"', " ").replace(",", " ").replace("]", " ").split():
                with contextlib.suppress(ValueError):
                    mentioned |= 1 << parse_card(token)
            assert not mentioned & hidden, [str(c) for c in cards_of(mentioned & hidden)]
            assert PlayerView.from_dict(json.loads(text)) == view
        view = PlayerView.of(state, state.player)
        world = determinize(view, random.Random(steps))
        again = PlayerView.of(world, state.player)
        assert (again.hand, again.tables, again.discard_pile) == (
            view.hand,
            view.tables,
            view.discard_pile,
        )
        assert again.legal == view.legal
        assert (again.must_meld, again.taken_top) == (view.must_meld, view.taken_top)
        legal = state.legal_actions()
        state.push(legal[rng.randrange(len(legal))])
        steps += 1


@settings(max_examples=30, deadline=None)
@given(seeds)
def test_practical_notation_round_trips(seed: int) -> None:
    from umtali.games.umtali.notation import format_move, parse_move

    rng = random.Random(seed)
    state = practical_hand(seed)
    while not state.is_over():
        for move in state.legal_moves:
            for ascii_form in (False, True):
                text = format_move(move, ascii=ascii_form)
                assert parse_move(text) == move
                assert state.parse_move(text) == move
        legal = state.legal_actions()
        state.push(legal[rng.randrange(len(legal))])


# -- records and bots ------------------------------------------------------------------------


def test_a_practical_game_record_round_trips() -> None:
    rng = random.Random(3)
    match = Match(PRACTICAL, kind="game", first_dealer=0)
    bot = BOTS["greedy"]()
    while not match.is_over():
        hand = match.new_hand(shuffled_deck(rng))
        while not hand.is_over():
            hand.push(bot.choose(match.view(hand.player), rng))
    assert len(match.hands) == 4
    text = dumps(match)
    assert json.loads(text)["rules"]["preset"] == "practical"
    again = loads(text)
    assert again.rules == PRACTICAL
    assert [fingerprint(h) for h in again.hands] == [fingerprint(h) for h in match.hands]
    assert dumps(again) == text


@pytest.mark.parametrize(("first", "second"), [("random", "greedy"), ("expert", "greedy")])
def test_bots_play_practical_hands(first: str, second: str) -> None:
    bots = (BOTS[first](), BOTS[second]())
    rng = random.Random(first + second)
    deep_takes = 0
    for number in range(150):
        hand = HandState(shuffled_deck(rng), number % 2, PRACTICAL)
        while not hand.is_over():
            move = bots[hand.player].choose(PlayerView.of(hand, hand.player), rng)
            deep = move.kind is MoveKind.TAKE and move.cards[0] != hand.top_discard()
            hand.push(move)
            deep_takes += deep
        assert hand.outcome() is not None
    assert deep_takes > 0


def test_the_search_bot_plays_a_practical_hand() -> None:
    bot = SearchBot(playouts=24, max_ms=float("inf"), min_deals=4)
    rng = random.Random(7)
    hand = HandState.from_seed(7, 0, PRACTICAL)
    while not hand.is_over():
        hand.push(bot.choose(PlayerView.of(hand, hand.player), rng))
    assert hand.outcome() is not None


def test_each_option_plays_on_its_own() -> None:
    # Every seed-003 option, switched on alone in the standard rules, plays random hands
    # to an end with the engine's invariants.
    flips: dict[str, object] = {
        "eleventh_card": "upcard",
        "opening_draw": True,
        "compulsory_play": False,
        "take_two": False,
        "deep_take": True,
        "final_discard_face_down_only": True,
        "pair_to_go_out": False,
        "last_turn_short_melds": True,
        "last_turn_discard": False,
    }
    for key, value in flips.items():
        rules = RuleSet.from_dict(
            {**STANDARD.to_dict(), "name": "house", "preset": "house", key: value}
        )
        for seed in range(12):
            state = HandState.from_seed(seed, seed % 2, rules)
            rng = random.Random(seed)
            while not state.is_over():
                legal = state.legal_actions()
                assert legal, (key, seed)
                action = legal[rng.randrange(len(legal))]
                before = fingerprint(state)
                state.push(action)
                state.pop()
                assert fingerprint(state) == before
                state.push(action)
            assert state.points == state.recount()


def test_two_card_columns_score_and_accept() -> None:
    # A two-card run on the table takes the next card at either end.
    hand = HandState(PRACTICAL_DECK, dealer=1, rules=PRACTICAL)
    for turn in HAND_TURNS[:5]:
        play(hand, *turn)
    play(hand, "draw", "meld 7♦ 6♦")
    kinds = [c.kind for c in hand.table(1)]
    assert kinds[-1] is ColumnKind.SEQUENCE
    assert hand.table_accepts() >> parse_card("8d") & 1
    assert hand.table_accepts() >> parse_card("5d") & 1
