"""The book's four lesson hands, replayed move by move from stacked decks.

After every turn both hands, every column of the mover's side (kind and cards, and the
card each solo was played off) and the top discard must equal the book's.
"""

from __future__ import annotations

import pytest

from umtali import CardSet, HandState, Termination
from umtali.games.umtali.lessons import LESSONS, Lesson
from umtali.games.umtali.match import Match
from umtali.kernel.cards import card_name


def top_of(hand: HandState) -> str | None:
    pile = hand.discard_pile()
    if not pile:
        return None
    card, down = pile[-1]
    return "down" if down else card_name(card)


def play_lesson(lesson: Lesson) -> HandState:
    """The lesson replayed, checked against its figures after every turn."""
    expected_tables: list[list[str]] = [[], []]
    for number, turn in enumerate(lesson.turns, start=1):
        for done, text in enumerate(turn.moves):
            mover = lesson.replay(turn=number, done=done).player
            assert mover == turn.player, f"hand {lesson.number} turn {number}: {text}"
        hand = lesson.replay(turn=number, done=len(turn.moves))
        expected_tables[turn.player].extend(turn.new_columns)
        for p in (0, 1):
            assert hand.hand(p) == CardSet.parse(turn.hands[p]), (lesson.number, number, p)
            assert [str(c) for c in hand.table(p)] == expected_tables[p], (lesson.number, number)
        assert top_of(hand) == turn.top, (lesson.number, number)
    return lesson.replay()


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: f"hand{lesson.number}")
def test_lesson_hand_replays_exactly(lesson: Lesson) -> None:
    hand = play_lesson(lesson)
    assert hand.is_over()
    outcome = hand.outcome()
    assert outcome is not None
    assert outcome.termination is Termination.OUT
    assert outcome.scores == lesson.scores
    assert outcome.winner == lesson.next_dealer


def test_hand_three_forfeits_two_cards_to_player_two() -> None:
    # Player 1 is left holding 7♠ 4♥ on his last turn: 2 points to Player 2.
    outcome = play_lesson(LESSONS[2]).outcome()
    assert outcome is not None
    assert outcome.forfeited == CardSet.parse("7s 4h")
    assert outcome.went_out == (1,)
    assert outcome.played == (33, 50)


def test_hand_four_dealer_forfeits_seven_cards() -> None:
    #   K♥ 9♦ 9♥ 7♦ 6♣ 5♣ 2♠ go to Player 1: 5 + 6 = 11 points
    outcome = play_lesson(LESSONS[3]).outcome()
    assert outcome is not None
    assert outcome.forfeited.points() == 11
    assert outcome.scores == (55, 8)


def test_hand_two_both_players_go_out() -> None:
    outcome = play_lesson(LESSONS[1]).outcome()
    assert outcome is not None
    assert outcome.went_out == (1, 0)
    assert outcome.forfeited == CardSet()


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: f"hand{lesson.number}")
def test_a_lesson_replays_to_any_move(lesson: Lesson) -> None:
    moves = [text for _, text in lesson.moves()]
    assert len(lesson.state_at().moves_played()) == len(moves)
    for number, turn in enumerate(lesson.turns, start=1):
        for done in range(len(turn.moves) + 1):
            rest = lesson.rest(number, done)
            assert len(lesson.state_at(number, done).moves_played()) == len(moves) - len(rest)
            assert moves[len(moves) - len(rest) :] == list(rest)
    with pytest.raises(ValueError, match="no move"):
        lesson.state_at(len(lesson.turns) + 1)
    with pytest.raises(ValueError, match="no move"):
        lesson.state_at(1, len(lesson.turns[0].moves) + 1)


def test_a_lesson_replays_onto_a_fresh_deal_of_its_deck_and_nothing_else() -> None:
    lesson = LESSONS[1]
    game = Match(kind="game", first_dealer=lesson.dealer)
    played = lesson.replay(game.new_hand(lesson.deck()))
    assert played.moves_played() == lesson.state_at().moves_played()
    assert game.hands[-1].outcome() == lesson.state_at().outcome()
    for wrong in (
        HandState(LESSONS[0].deck(), dealer=lesson.dealer),  # another deck
        HandState(lesson.deck(), dealer=1 - lesson.dealer),  # another dealer
        lesson.replay(turn=2),  # moves played already
    ):
        with pytest.raises(ValueError, match="fresh deal of its own deck"):
            lesson.replay(wrong)
