"""Each rule option changes play on the same engine (variants are options, not forks)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from tests.helpers import play_randomly
from umtali.games.umtali.lessons import LESSONS
from umtali.games.umtali.match import Match
from umtali.games.umtali.moves import IllegalMoveError
from umtali.games.umtali.rules import PRACTICAL, PRESETS, STANDARD, InvalidRulesError, RuleSet
from umtali.games.umtali.state import HandState, Phase, Termination
from umtali.kernel.cards import parse_card


def lesson_hand(number: int, rules: RuleSet, turns: int) -> HandState:
    lesson = LESSONS[number - 1]
    return lesson.replay(HandState(lesson.deck(), lesson.dealer, rules), turn=turns + 1)


def texts(hand: HandState) -> list[str]:
    return [str(m) for m in hand.legal_moves]


def test_standard_is_the_default_preset() -> None:
    assert PRESETS["standard"] == STANDARD == RuleSet()
    assert RuleSet.from_dict({"preset": "standard"}) == STANDARD


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"eleventh_card": "whoever"}, "eleventh_card must be one of"),
        ({"compulsory_play": "yes"}, "compulsory_play must be true or false"),
        ({"marriage_multiplier": 0}, "marriage_multiplier must be an int from 1 to 10"),
        ({"hands_per_game": True}, "hands_per_game must be an int"),
        ({"turn_cap": 1}, "turn_cap must be an int from 2"),
        ({"deep_take": 1}, "deep_take must be true or false"),
        (
            {"face_down_final_discard": False, "final_discard_face_down_only": True},
            "final_discard_face_down_only needs face_down_final_discard",
        ),
        (
            {"discard_taken_to_go_out": False},
            "discard_taken_to_go_out=false needs compulsory_play=false",
        ),
    ],
)
def test_bad_option_values_are_refused(options: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidRulesError, match=message):
        RuleSet.from_dict(options)


def test_rules_recorded_before_an_option_existed_load_as_they_were_played() -> None:
    # A record of the practical preset written before discard_taken_to_go_out: the
    # preset always forbade it (ruling V). House rules then were the standard rule (R3).
    practical = PRACTICAL.to_dict()
    del practical["discard_taken_to_go_out"]
    assert RuleSet.from_dict({**practical, "preset": "practical"}) == PRACTICAL
    house = {**STANDARD.to_dict(), "name": "house", "preset": "house", "take_two": False}
    del house["discard_taken_to_go_out"]
    assert RuleSet.from_dict(house).discard_taken_to_go_out is True


def test_eleventh_card_fixed_to_the_non_dealer_skips_the_choice() -> None:
    rules = RuleSet(eleventh_card="non_dealer")
    hand = HandState(LESSONS[0].deck(), dealer=1, rules=rules)
    assert hand.phase == Phase.PLAY
    assert hand.player == 0
    assert len(hand.hand(0)) == 11
    assert len(hand.hand(1)) == 10


def test_take_two_off() -> None:
    # Hand 1, turn 3: Player 2 could take 6♥ 5♥ under the standard rules.
    assert "take 6♥ 5♥" in texts(lesson_hand(1, STANDARD, 2))
    no_two = lesson_hand(1, RuleSet(take_two=False), 2)
    assert texts(no_two) == ["draw", "take 6♥"]
    with pytest.raises(IllegalMoveError, match="do not allow taking two"):
        no_two.push_text("take 6♥ 5♥")


def test_pair_to_go_out_off() -> None:
    # Hand 1, turn 3 after the sequence and the 10♦: only 9♠ 9♣ are left.
    hand = lesson_hand(1, RuleSet(pair_to_go_out=False), 2)
    for text in ("take 6♥ 5♥", "meld 7♥ 6♥ 5♥", "play 10♦ off J♦"):
        hand.push_text(text)
    assert texts(hand) == ["discard 9♣", "discard 9♠"]


def test_face_down_final_discard_off() -> None:
    # Hand 2, turn 4: Player 2 goes out by discarding A♠; face down is not allowed.
    hand = lesson_hand(2, RuleSet(face_down_final_discard=False), 3)
    for text in LESSONS[1].turns[3].moves[:-1]:
        hand.push_text(text)
    assert texts(hand) == ["discard A♠"]


def test_marriage_multiplier() -> None:
    # Hand 2 scores 40-22 with marriages doubled; at face value K♦ Q♦ scores 10, not 20.
    hand = LESSONS[1].replay(
        HandState(LESSONS[1].deck(), LESSONS[1].dealer, RuleSet(marriage_multiplier=1))
    )
    outcome = hand.outcome()
    assert outcome is not None
    assert outcome.scores == (30, 22)


def test_optional_melding_lets_a_player_stop_early() -> None:
    # Hand 1, opening turn: with compulsory play off, the dealer may discard at once.
    hand = HandState(LESSONS[0].deck(), 1, RuleSet(compulsory_play=False))
    hand.push_text("keep")
    moves = texts(hand)
    assert "meld K♠ K♥ K♣" in moves
    assert "discard 5♥" in moves
    hand.push_text("discard 5♥")
    assert hand.hand(1).mask.bit_count() == 10


def test_compulsory_play_refuses_an_early_discard() -> None:
    hand = HandState(LESSONS[0].deck(), 1)
    hand.push_text("keep")
    with pytest.raises(IllegalMoveError, match="every playable card must be played"):
        hand.push_text("discard 5♥")


def test_turn_cap_option_ends_the_hand() -> None:
    # Hand 1 with a cap of two turns: after Player 1's discard the hand is dead.
    #   Player 1 played J♠ J♦ Q♦ and 7♠ 6♠ 5♠ = 18; Player 2 K♠ K♥ K♣ and 3♥ 2♥ A♥ = 18.
    hand = lesson_hand(1, RuleSet(turn_cap=2), 2)
    outcome = hand.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.TURN_CAP
    assert outcome.scores == outcome.played == (18, 18)
    assert outcome.winner is None


def test_hands_per_game_and_games_per_session() -> None:
    rules = dataclasses.replace(STANDARD, hands_per_game=1, games_to_win_session=3)
    session = Match(rules, kind="session", first_dealer=0)
    rng = random.Random(5)
    from umtali.kernel.deck import shuffled_deck

    while not session.is_over():
        hand = session.new_hand(shuffled_deck(rng))
        play_randomly(hand, rng)
    assert max(session.games_won()) == 3
    assert len(session.game_results()) == len(session.hands)


def test_opening_draw_makes_the_first_player_draw() -> None:
    # Hand 1 with an opening draw: the dealer keeps the 11th card and then draws a 12th.
    hand = HandState(LESSONS[0].deck(), 1, RuleSet(opening_draw=True))
    hand.push_text("keep")
    assert hand.phase == Phase.DRAW
    assert texts(hand) == ["draw"]  # the pile is empty: no upcard in this deal
    hand.push_text("draw")
    assert len(hand.hand(1)) == 12


def test_an_upcard_deal_without_the_opening_draw() -> None:
    # Ten cards each and an upcard; without the opening draw the non-dealer melds and
    # discards at once, as R2's 11-card player does.
    hand = HandState(LESSONS[0].deck(), 1, RuleSet(eleventh_card="upcard"))
    assert (len(hand.hand(0)), len(hand.hand(1)), hand.player) == (10, 10, 0)
    assert hand.phase == Phase.PLAY
    assert [str(m) for m in hand.legal_moves][:3] == ["meld 7♠ 6♠ 5♠", "play J♦", "play J♠"]
    assert hand.discard_pile() == [(parse_card("10d"), False)]  # the 21st card dealt


def test_deep_take_under_compulsory_play() -> None:
    # Hand 1, turn 3, with deep takes beside the take-two: 5♥ lies under 6♥ and may be
    # taken with it (7♥ runs with both); the take-two of the same cards stays on offer.
    hand = lesson_hand(1, RuleSet(deep_take=True), 2)
    assert texts(hand) == ["draw", "take 6♥", "take 5♥", "take 6♥ 5♥"]
    hand.push_text("take 5♥")
    # 5♥, the deepest, must be played; 6♥ lay on top and may not be discarded.
    assert (hand.must_meld, hand.taken_top) == (1 << parse_card("5h"), 1 << parse_card("6h"))


def test_last_turn_discard_off() -> None:
    # Hand 1, turn 4 is Player 1's last turn; with no last-turn discard he still goes out
    # by playing every card, as the book has him do.
    rules = RuleSet(last_turn_discard=False)
    hand = lesson_hand(1, rules, 3)
    assert hand.last_turn
    for text in LESSONS[0].turns[3].moves:
        hand.push_text(text)
    outcome = hand.outcome()
    assert outcome is not None
    assert outcome.scores == (31, 28)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_to_dict_lists_every_option_as_asdict_would(name: str) -> None:
    rules = PRESETS[name]
    assert rules.to_dict() == dataclasses.asdict(rules)
    assert RuleSet.from_dict(rules.to_dict()) == rules
