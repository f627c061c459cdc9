"""Invariants over random deals and random legal play (hypothesis picks the seeds)."""

from __future__ import annotations

import contextlib
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import all_cards_accounted_for, fingerprint, play_randomly, random_hand
from umtali.games.umtali.describe import explain_illegal
from umtali.games.umtali.match import Match
from umtali.games.umtali.melds import (
    card_reach,
    end_is_acceptable,
    hand_melds,
    meld_plans,
    plays_reach,
)
from umtali.games.umtali.moves import IllegalMoveError, Move, MoveKind
from umtali.games.umtali.record import loads
from umtali.games.umtali.state import HandState, Phase
from umtali.games.umtali.view import PlayerView, determinize
from umtali.kernel.cards import cards_of, parse_card
from umtali.kernel.deck import shuffle
from umtali.kernel.record import dumps

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def random_move(rng: random.Random) -> Move:
    """Any well-formed move at all, legal or not."""
    kind = rng.choice(list(MoveKind))
    c = [rng.randrange(52) for _ in range(4)]
    if kind is MoveKind.TAKE:
        return Move.take(c[0])
    if kind is MoveKind.TAKE_TWO:
        return Move.take_two(c[0], c[1]) if c[0] != c[1] else Move.take(c[0])
    if kind is MoveKind.MELD:
        meld = set(c[: rng.randint(2, 4)])
        return Move.meld(meld) if len(meld) >= 2 else Move.take(c[0])
    if kind is MoveKind.SOLO:
        return Move.solo(c[0], None if rng.random() < 0.3 or c[1] == c[0] else c[1])
    if kind is MoveKind.DISCARD:
        return Move.discard_card(c[0], face_down=rng.random() < 0.5)
    if kind is MoveKind.PAIR:
        if c[0] == c[1]:
            return Move.draw()
        discard = c[2] if c[2] not in c[:2] and rng.random() < 0.5 else None
        return Move.pair(c[0], c[1], discard=discard, face_down=rng.random() < 0.3)
    return Move(kind)


@settings(max_examples=60, deadline=None)
@given(seeds)
def test_random_play_keeps_every_invariant(seed: int) -> None:
    rng = random.Random(seed)
    state = random_hand(seed)
    while not state.is_over():
        assert all_cards_accounted_for(state)
        assert state.points == state.recount()
        legal = state.legal_actions()
        assert legal, "a live hand always has a legal move"
        assert len(set(legal)) == len(legal), "legal moves are distinct"
        before = fingerprint(state)
        # Every legal move applies, and pop restores the state exactly.
        for action in legal:
            state.push(action)
            assert all_cards_accounted_for(state)
            state.pop()
            assert fingerprint(state) == before
            assert state.legal_actions() == legal
        # A random well-formed move that is not legal is refused and changes nothing.
        for _ in range(3):
            move = random_move(rng)
            if state.complete(move).action in legal:
                continue  # a legal move, or one written as it (a solo off a group's card)
            with pytest.raises(IllegalMoveError, match=r"\S") as refused:
                state.push(move)
            assert fingerprint(state) == before
            # The refusal as data says what the message says, and names a reason.
            why = refused.value.refusal
            assert why is not None
            assert why.text() == str(refused.value)
            assert why.code != "not_legal", why
            assert not why.rules or f"({', '.join(why.rules)})" in why.text()
            assert "Player" not in explain_illegal(state, move, names=("you", "You"))
        state.push(legal[rng.randrange(len(legal))])
    assert all_cards_accounted_for(state)
    assert state.turn <= state.rules.turn_cap + 1
    outcome = state.outcome()
    assert outcome is not None
    forfeits = sum(c.bit_count() for c in [outcome.forfeited.mask])
    assert outcome.played == state.recount()
    assert sum(outcome.scores) == sum(outcome.played) + outcome.forfeited.points()
    assert forfeits == len(outcome.forfeited)


@settings(max_examples=200, deadline=None)
@given(seeds)
def test_every_hand_ends_within_the_turn_cap(seed: int) -> None:
    state = random_hand(seed)
    moves = play_randomly(state, random.Random(seed))
    assert state.is_over(), f"not over after {moves} moves"
    assert state.turn <= state.rules.turn_cap + 1


@settings(max_examples=40, deadline=None)
@given(seeds)
def test_record_round_trip_replays_identically(seed: int) -> None:
    rng = random.Random(seed)
    match = Match(kind="game", first_dealer=rng.randrange(2))
    from umtali.kernel.deck import shuffled_deck

    while not match.is_over():
        hand = match.new_hand(shuffled_deck(rng))
        play_randomly(hand, rng)
    text = dumps(match)
    again = loads(text)
    assert [fingerprint(h) for h in again.hands] == [fingerprint(h) for h in match.hands]
    assert again.game_totals(0) == match.game_totals(0)
    assert dumps(again) == text
    json.loads(text)  # plain JSON


@settings(max_examples=40, deadline=None)
@given(seeds)
def test_a_view_never_leaks_hidden_cards(seed: int) -> None:
    rng = random.Random(seed)
    state = random_hand(seed)
    while not state.is_over():
        for viewer in (0, 1):
            view = PlayerView.of(state, viewer)
            opponent = 1 - viewer
            # What the opponent took from the pile was public when he took it.
            hidden = state.hands[opponent] & ~view.taken_from_pile[opponent].mask
            for c in state.stock_cards():
                hidden |= 1 << c
            for (card, down), shown in zip(state.discard_pile(), view.discard_pile, strict=True):
                if down and shown is None:
                    hidden |= 1 << card & ~view.taken_from_pile[opponent].mask
            # What the rules say the opponent cannot hold is public (Jacks, and what the
            # table accepted when the turn began), and true of his real hand.
            assert not view.opponent_excluded.mask & state.hands[opponent]
            if view.opponent_meld_free:
                assert not hand_melds(state.hands[opponent])
            data = view.to_dict()
            del data["opponent_excluded"]
            text = json.dumps(data)
            mentioned = 0
            for token in text.replace('"', " ").replace(",", " ").replace("]", " ").split():
                with contextlib.suppress(ValueError):
                    mentioned |= 1 << parse_card(token)
            assert not mentioned & hidden, [str(c) for c in cards_of(mentioned & hidden)]
            assert view.hand.mask == state.hands[viewer]
            assert view.stock_size == state.stock_size()
        legal = state.legal_actions()
        state.push(legal[rng.randrange(len(legal))])


@settings(max_examples=40, deadline=None)
@given(seeds)
def test_determinize_agrees_with_the_view(seed: int) -> None:
    rng = random.Random(seed)
    state = random_hand(seed)
    steps = 0
    while not state.is_over():
        viewer = state.player
        view = PlayerView.of(state, viewer)
        guess = determinize(view, random.Random(steps))
        if view.phase != Phase.CHOOSE:
            # The same RNG deals the same world whether the view came from a state (which
            # hands determinize the table's indexes) or from JSON (rebuilt and checked),
            # and whether or not the world keeps undo.
            plain = PlayerView.from_dict(json.loads(json.dumps(view.to_dict())))
            assert plain.open_mask() == view.open_mask()
            assert fingerprint(determinize(plain, random.Random(steps))) == fingerprint(guess)
            light = determinize(view, random.Random(steps), undo=False)
            assert fingerprint(light) == fingerprint(guess)
            again = PlayerView.of(guess, viewer)
            assert again.hand == view.hand
            assert again.tables == view.tables
            assert again.discard_pile == view.discard_pile
            assert again.stock_size == view.stock_size
            assert again.opponent_hand_size == view.opponent_hand_size
            assert again.opponent_known == view.opponent_known
            assert again.legal == view.legal
            assert again.opponent_excluded == view.opponent_excluded
            # The opponent is dealt only what the rules let him hold.
            dealt = guess.hands[1 - viewer]
            assert not view.opponent_excluded.mask & dealt
            if view.opponent_meld_free:
                assert not hand_melds(dealt)
            assert all_cards_accounted_for(guess)
            # The guess plays on to the end, with or without undo alike.
            play_randomly(guess, random.Random(steps))
            play_randomly(light, random.Random(steps))
            assert guess.is_over()
            assert fingerprint(light) == fingerprint(guess)
        legal = state.legal_actions()
        state.push(legal[rng.randrange(len(legal))])
        steps += 1


@settings(max_examples=30, deadline=None)
@given(seeds)
def test_play_out_is_the_random_loop_it_stands_for(seed: int) -> None:
    # play_out picks legal[int(random() * n)] and skips push's check: the same picks
    # through push (which checks every move) end the hand identically.
    fast = random_hand(seed).forget_undo()
    checked = random_hand(seed)
    outcome = fast.play_out(random.Random(seed))
    rng = random.Random(seed)
    while not checked.is_over():
        legal = checked.legal_actions()
        checked.push(legal[int(rng.random() * len(legal))])
    assert outcome == checked.outcome()
    assert fingerprint(fast) == fingerprint(checked)
    assert fast.history == checked.history


def test_view_round_trips_through_plain_data() -> None:
    state = HandState.from_seed(11)
    rng = random.Random(11)
    for _ in range(25):
        legal = state.legal_actions()
        state.push(legal[rng.randrange(len(legal))])
    for viewer in (0, 1):
        view = PlayerView.of(state, viewer)
        assert PlayerView.from_dict(json.loads(json.dumps(view.to_dict()))) == view


@settings(max_examples=40, deadline=None)
@given(seeds)
def test_notation_round_trips_for_every_legal_move(seed: int) -> None:
    from umtali.games.umtali.notation import format_move, parse_move

    rng = random.Random(seed)
    state = random_hand(seed)
    while not state.is_over():
        for move in state.legal_moves:
            for ascii_form in (False, True):
                text = format_move(move, ascii=ascii_form)
                assert parse_move(text) == move
                assert state.parse_move(text) == move
            assert Move.from_action(move.action) == move
        legal = state.legal_actions()
        state.push(legal[rng.randrange(len(legal))])


@settings(max_examples=200, deadline=None)
@given(seeds, st.integers(min_value=0, max_value=52))
def test_our_shuffle_is_random_shuffle(seed: int, length: int) -> None:
    # Deals and determinizations use umtali.kernel.deck.shuffle for speed; recorded seeds and
    # arena runs rely on it drawing exactly as random.Random.shuffle does.
    ours, theirs = random.Random(seed), random.Random(seed)
    a, b = list(range(length)), list(range(length))
    shuffle(a, ours)
    theirs.shuffle(b)
    assert a == b
    assert ours.random() == theirs.random()


@settings(max_examples=300, deadline=None)
@given(seeds)
def test_the_take_two_search_agrees_with_every_end_of_the_meld_phase(seed: int) -> None:
    """R3's test (:func:`plays_reach`) against the end states a compulsory meld phase can
    reach (:func:`meld_plans`): a take is allowed exactly when one of them has played
    the taken cards, or keeps them for the closing pair. The hands come from three suits
    of seven ranks, where melds overlap often, which the search's shortcuts must not
    misjudge."""
    rng = random.Random(seed)
    pool = [13 * suit + rank for suit in rng.sample(range(4), 3) for rank in range(5, 12)]
    hand = sum(1 << card for card in rng.sample(pool, rng.randint(3, 11)))
    table = sum(1 << card for card in rng.sample(range(52), rng.randint(0, 4)))
    open_mask = card_reach(table) & ~hand if rng.random() < 0.7 else 0
    held = list(cards_of(hand))
    taken = sum(1 << card for card in rng.sample(held, min(len(held), rng.randint(1, 2))))
    ends = [plan.left for plan in meld_plans(hand, open_mask)]
    for closing in (True, False):
        expected = any(end_is_acceptable(left, taken, closing) for left in ends)
        found = plays_reach(hand, open_mask, taken, pair_to_go_out=closing, stop_anywhere=False)
        assert found == expected, (hex(hand), hex(open_mask), hex(taken), closing)
