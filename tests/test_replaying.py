"""A record told as events, in the one vocabulary of every game (umtali.games.events), as
``umtali replay`` and ``umtali demo`` print them (their output is tested end to end in
test_cli_demo_replay)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.test_gin import GIN_CARDS, SIXTY, gin_deck
from tests.test_gin_records import GIN_TEN, OTHER, three_hand_in_three
from tests.test_records import lesson_game
from umtali.games.events import (
    GameEnds,
    HandBegins,
    HandEnds,
    HandStops,
    Heading,
    MatchEnds,
    Moved,
    Totals,
    TurnBegins,
    TurnEnds,
)
from umtali.games.gin.match import GinMatch, GinPartyMatch
from umtali.games.gin.party import FourHandGame
from umtali.games.gin.replay import GinBoard, gin_match_events, party_match_events
from umtali.games.gin.session import GinPlaySession, summarize_gin_hand
from umtali.games.umtali.lessons import LESSONS
from umtali.games.umtali.match import Match
from umtali.games.umtali.replay import hand_events, match_events
from umtali.games.umtali.session import PlaySession
from umtali.games.umtali.state import HandState
from umtali.kernel.record import load_any_file, save_file
from umtali.replaying import events as any_match_events


def test_a_hand_is_told_turn_by_turn_with_its_result() -> None:
    hand = LESSONS[0].state_at()
    events = list(hand_events(hand))
    assert events[0] == HandBegins(None, 1, "Player 2 deals")
    moves = [e for e in events if isinstance(e, Moved)]
    assert [e.move for e in moves] == list(hand.moves_played())
    turns = [e for e in events if isinstance(e, TurnBegins)]
    assert [e.turn for e in turns] == list(range(1, len(turns) + 1))
    assert turns[0].title == "turn 1 · Player 2"
    # A board after the deal and after every turn but the last, which ends the hand.
    assert sum(isinstance(e, TurnEnds) for e in events) == len(turns)  # the deal's too
    last = events[-1]
    assert isinstance(last, HandEnds)
    assert last.result == "Player 1 wins the hand, 31 to 28."
    assert isinstance(last.board, HandState)
    assert last.board.is_over()
    assert last.summary is None
    assert not last.more


def test_the_boards_are_copies_taken_as_the_hand_went() -> None:
    boards = [e.board for e in hand_events(LESSONS[0].state_at()) if isinstance(e, TurnEnds)]
    assert len({len(board.history) for board in boards}) == len(boards)


def test_a_finished_game_has_its_totals_and_its_winner() -> None:
    events = list(match_events(lesson_game()))
    assert events[0] == Heading("Game between Player 1 and Player 2, rules: standard")
    assert [e.number for e in events if isinstance(e, HandBegins)] == [1, 2, 3, 4]
    assert [e.more for e in events if isinstance(e, HandEnds)] == [True, True, True, False]
    totals = [e for e in events if isinstance(e, Totals)]
    assert len(totals) == 1
    assert totals[0].game == 1
    assert totals[0].text == f"game 1 totals: {totals[0].totals[0]}–{totals[0].totals[1]}"
    assert events[-1] == MatchEnds(True, "The game is over: won by Player 1.")


def test_a_record_stopped_mid_hand_says_where_and_who_is_to_move() -> None:
    match = Match(kind="game", first_dealer=1, players=("Ann", "Player 2"))
    hand = match.new_hand(LESSONS[0].deck())
    for text in [*LESSONS[0].turns[0].moves, "draw"]:
        hand.push_text(text)
    events = list(match_events(match, names=("Ann", "Player 2")))
    assert events[0].text == "Game between Ann (Player 1) and Player 2, rules: standard"  # type: ignore[union-attr]
    assert isinstance(events[-2], HandStops)
    assert events[-1] == MatchEnds(
        False, "The game is unfinished: hand 1 stops at turn 2, with Ann (Player 1) to move."
    )


def test_a_record_stopped_between_hands_names_the_next_dealer() -> None:
    match = Match(kind="session", first_dealer=1)
    LESSONS[0].replay(match.new_hand(LESSONS[0].deck()))
    assert list(match_events(match))[-1] == MatchEnds(
        False, "The session is unfinished after hand 1, with Player 1 to deal the next hand."
    )


def test_a_single_finished_hand_has_no_last_word_beyond_its_result() -> None:
    session = PlaySession.between_bots(("random", "random"), 3, kind="hand")
    session.play_out()
    events = list(match_events(session.match))
    assert isinstance(events[-1], HandEnds)


def test_the_names_shown_are_the_front_ends() -> None:
    session = PlaySession.between_bots(("greedy", "random"), 1, kind="game")
    session.play_out()
    names = ("A\\x1b", "B")
    events = list(match_events(session.match, names))
    assert events[0].text.startswith("Game between A\\x1b (Player 1) and B (Player 2)")  # type: ignore[union-attr]
    assert isinstance(events[-1], MatchEnds)
    assert events[-1].text.startswith("The game is over: ")
    winner = session.match.winner()
    assert winner is not None
    assert events[-1].text.endswith(f"won by {names[winner]}.")


def test_importing_replaying_loads_neither_rich_nor_the_cli() -> None:
    code = (
        "import umtali.replaying, sys; assert 'rich' not in sys.modules, 'rich';"
        " assert not [m for m in sys.modules if m.startswith('umtali.cli')], 'cli'"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=60)


# -- Gin Rummy -----------------------------------------------------------------------------------


def gin_game_of_three_gins() -> GinMatch:
    """A finished game of Gin Rummy: Bob deals first, and each hand the non-dealer
    takes the 4♠ upcard to go gin against 60 points of deadwood, 85 points a hand:

        non-dealer  A♠ 2♠ 3♠ (4♠) | 5♣ 5♦ 5♥ | 9♥ 10♥ J♥ | K♦ thrown face down
        dealer      2♣ 3♣ 7♦ 8♦ Q♣ Q♥ 6♠ 9♣ A♥ 4♦, no meld: 60

    Ann wins hands 1 and 3 (170), Bob hand 2 (85)."""
    match = GinMatch(first_dealer=1, players=("Ann", "Bob"))
    for _ in range(3):
        hand = match.new_hand(gin_deck(GIN_CARDS, SIXTY, "4s"))
        hand.push_text("take")
        hand.push_text("knock Kd")
    return match


def test_a_gin_record_is_told_move_by_move_with_every_hands_end_and_the_bonuses(
    tmp_path: Path,
) -> None:
    save_file(gin_game_of_three_gins(), tmp_path / "gin.json")
    match = load_any_file(tmp_path / "gin.json")  # a real record, read back
    assert isinstance(match, GinMatch)
    events = list(any_match_events(match))
    assert events[0] == Heading("Gin Rummy between Ann (Player 1) and Bob (Player 2), to 100")
    begins = [e for e in events if isinstance(e, HandBegins)]
    assert [(e.number, e.title) for e in begins] == [
        (1, "Hand 1 · Player 2 deals"),
        (2, "Hand 2 · Player 1 deals"),
        (3, "Hand 3 · Player 2 deals"),
    ]
    moves = [e.sentence for e in events if isinstance(e, Moved)]
    assert moves[:2] == [
        "Player 1 takes 4♠ from the pile",
        "Player 1 knocks, discarding K♦ face down",
    ]
    assert moves[2] == "Player 2 takes 4♠ from the pile"
    ends = [e for e in events if isinstance(e, HandEnds)]
    assert [e.summary.how for e in ends] == ["gin", "gin", "gin"]
    assert [tuple(side.score for side in e.summary.sides) for e in ends] == [
        (85, 0),
        (0, 85),
        (85, 0),
    ]
    assert [e.more for e in ends] == [True, True, False]
    first = ends[0].summary
    assert first.sides[0].knocked
    assert first.sides[0].deadwood_points == 0
    assert first.sides[1].deadwood_points == 60
    assert first.result == (
        "Player 1 goes gin, and Player 2 has 60 points of deadwood: Player 1 scores 60,"
        " and 25 for gin: 85 points."
    )
    assert isinstance(ends[0].board, GinBoard)
    assert ends[0].board.hands[1] == match.hands[0].hand(1)  # nothing is hidden
    assert ends[0].result == first.result
    game_ends = [e for e in events if isinstance(e, GameEnds)]
    assert len(game_ends) == 1
    sheet = game_ends[0].sheet
    assert sheet.totals == (170, 85)
    assert sheet.result is not None
    assert sheet.result.final == (170 + 50 + 100, 85)  # the line bonus is the winner's
    assert game_ends[0].text == (
        "Ann wins the game, 320 to 85: points from the hands 170 and 85, line bonuses 50"
        " and 0, and 100 for the game to Ann."
    )
    assert events[-1] == MatchEnds(True, "The game is over: won by Ann.")


def test_a_gin_hand_s_end_is_told_to_each_seat_in_its_own_person() -> None:
    hand = gin_game_of_three_gins().hands[0]  # Ann (seat 0) goes gin against Bob's 60
    told = {
        names: summarize_gin_hand(hand, names).result for names in [("Ann", "You"), ("You", "Bob")]
    }
    assert told == {
        ("Ann", "You"): (
            "Ann goes gin, and you have 60 points of deadwood: Ann scores 60,"
            " and 25 for gin: 85 points."
        ),
        ("You", "Bob"): (
            "You go gin, and Bob has 60 points of deadwood: you score 60,"
            " and 25 for gin: 85 points."
        ),
    }


def test_a_gin_record_stopped_mid_hand_says_whose_turn_it_was() -> None:
    session = GinPlaySession.between_bots(("greedy", "random"), "4/0", players=("Ann", "Bob"))
    session.deal()
    for _ in range(7):
        session.bot_move()
    hand = session.match.hands[0]
    events = list(gin_match_events(session.match))
    assert sum(isinstance(e, Moved) for e in events) == 7
    assert isinstance(events[-2], HandStops)
    assert isinstance(events[-2].board, GinBoard)
    assert events[-2].board.pile == hand.pile
    turns = [e for e in events if isinstance(e, TurnBegins)]
    mover = hand.to_move()
    assert mover is not None
    # The next turn is a new one when the last move gave the turn away.
    next_turn = turns[-1].turn + (hand.history[-1][0] != mover)
    seat = ("Ann (Player 1)", "Bob (Player 2)")[mover]
    assert events[-1] == MatchEnds(
        False, f"The game is unfinished: hand 1 stops at turn {next_turn}, with {seat} to move."
    )


def test_a_gin_record_between_hands_names_the_next_dealer() -> None:
    match = gin_game_of_three_gins()
    del match.hands[1:]
    assert list(gin_match_events(match))[-1] == MatchEnds(
        False,
        "The game is unfinished after hand 1, with Ann (Player 1) to deal the next hand.",
    )


def test_any_record_is_told_by_its_own_game() -> None:
    # (a board is a HandState, equal to another only as itself: compared by repr)
    told = [repr(event) for event in any_match_events(lesson_game())]
    assert told == [repr(event) for event in match_events(lesson_game())]
    party = three_hand_in_three()
    assert [repr(e) for e in any_match_events(party)] == [
        repr(e) for e in party_match_events(party)
    ]


# -- three- and four-hand ------------------------------------------------------------------------


def test_a_three_hand_game_is_told_table_by_table_with_the_totals() -> None:
    # Ann, Bob and Cy drew 4♥, K♣ and 9♠; three gins of 72 (see three_hand_in_three).
    match = three_hand_in_three()
    events = list(party_match_events(match))
    headings = [e.text for e in events if isinstance(e, Heading)]
    assert headings == [
        "Three-hand Gin Rummy between Ann, Bob and Cy, to 100",
        "Bob drew K♣ and plays alone first; Cy drew 9♠ and sits out; Ann drew 4♥ and plays"
        " for the team.",
    ]
    tables = [e for e in events if isinstance(e, HandBegins)]
    assert [(e.number, e.names, e.players, e.dealer, e.title) for e in tables] == [
        (1, ("Bob", "Ann"), (1, 0), 1, "Hand 1: Bob alone against Ann, Ann to deal; Cy sits out"),
        (2, ("Bob", "Ann"), (1, 0), 0, "Hand 2: Bob alone against Ann, Bob to deal; Cy sits out"),
        (3, ("Cy", "Bob"), (2, 1), 1, "Hand 3: Cy alone against Bob, Bob to deal; Ann sits out"),
    ]
    # Each hand's moves and end name the two players at it.
    moved = [e.sentence for e in events if isinstance(e, Moved)]
    assert moved[:2] == ["Bob takes 10♠ from the pile", "Bob knocks, discarding K♦ face down"]
    assert moved[2] == "Ann takes 10♠ from the pile"
    ends = [e.summary for e in events if isinstance(e, HandEnds)]
    assert [(e.how, e.sides[0].name, e.sides[0].score, e.sides[1].score) for e in ends] == [
        ("gin", "Bob", 72, 0),
        ("gin", "Bob", 0, 72),
        ("gin", "Cy", 72, 0),
    ]
    totals = [e for e in events if isinstance(e, Totals)]
    assert [e.totals for e in totals] == [(0, 72, 0), (72, 72, 72), (72, 72, 144)]
    assert totals[-1].text == "Totals: Ann 72, Bob 72, Cy 144 (to 100)."
    assert events[-1] == MatchEnds(
        True,
        "Cy wins the game. With 25 for each hand he won and 100 for the game: Ann 72, Bob 72,"
        " Cy 294.",
    )


def test_an_unfinished_four_hand_deal_says_where_each_table_stops() -> None:
    match = GinPartyMatch(FourHandGame(first_dealers=1), players=("Ann", "Bob", "Cy", "Di"))
    # Deal 1: Ann against Bob, Bob deals; Cy against Di, Di deals. Ann passes the
    # upcard; the other table has not begun.
    match.deal_next(gin_deck(GIN_TEN, OTHER, "10s")).hand.push_text("pass")
    match.deal_next(gin_deck(GIN_TEN, OTHER, "10s"))
    events = list(any_match_events(match))
    assert [e.title for e in events if isinstance(e, HandBegins)] == [
        "Hand 1 · deal 1, table 1: Ann against Bob, Bob to deal",
        "Hand 2 · deal 1, table 2: Cy against Di, Di to deal",
    ]
    assert not any(isinstance(e, Totals) for e in events)
    assert events[-1] == MatchEnds(
        False,
        "The game is unfinished: hand 1 stops at turn 2, with Bob to move; hand 2 stops"
        " at turn 1, with Cy to move.",
    )
