"""umtali.replaying in process: a record told as events, as ``umtali replay`` and
``umtali demo`` print them (their output is tested end to end in test_cli_demo_replay)."""

from __future__ import annotations

import subprocess
import sys

from tests.test_records import lesson_game
from umtali.lessons import LESSONS
from umtali.match import Match
from umtali.replaying import (
    GameTotals,
    HandBegins,
    HandEnds,
    HandStops,
    Heading,
    MatchEnds,
    Moved,
    TurnBegins,
    TurnEnds,
    hand_events,
    match_events,
)
from umtali.session import PlaySession


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
    assert last.state.is_over()
    assert not last.more


def test_the_boards_are_copies_taken_as_the_hand_went() -> None:
    boards = [e.state for e in hand_events(LESSONS[0].state_at()) if isinstance(e, TurnEnds)]
    assert len({len(board.history) for board in boards}) == len(boards)


def test_a_finished_game_has_its_totals_and_its_winner() -> None:
    events = list(match_events(lesson_game()))
    assert events[0] == Heading("Game between Player 1 and Player 2, rules: standard")
    assert [e.number for e in events if isinstance(e, HandBegins)] == [1, 2, 3, 4]
    assert [e.more for e in events if isinstance(e, HandEnds)] == [True, True, True, False]
    totals = [e for e in events if isinstance(e, GameTotals)]
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
