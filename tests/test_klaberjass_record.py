"""Klaberjass's records, replays and sentences: a game written and read back is the same
game, a changed move is refused by name, and a replay tells a whole game to its end.

The game is not registered yet, so its body is tested alone (``BODY.write`` and
``BODY.read``), without the envelope and its digest."""

from __future__ import annotations

import copy
import random

import pytest

from umtali.games.events import GameEnds, HandEnds, Heading, MatchEnds, Moved, Totals
from umtali.games.klaberjass.describe import (
    game_result,
    hand_result,
    result_sentence,
    tell_move,
)
from umtali.games.klaberjass.match import KlaberjassMatch
from umtali.games.klaberjass.moves import PLAY, KlaberjassMove
from umtali.games.klaberjass.record import BODY
from umtali.games.klaberjass.replay import match_events
from umtali.games.klaberjass.rules import CLASSIC, KlaberjassRules
from umtali.games.klaberjass.state import HandScore, KlaberjassHand, maker_rule
from umtali.games.klaberjass.terms import DECK
from umtali.kernel.deck import seeded_deck
from umtali.kernel.record import RecordError

NAMES = ("Ann", "Bob")


def played_game(
    seed: int, rules: KlaberjassRules = CLASSIC, stop_after: int | None = None
) -> KlaberjassMatch:
    """A game of random legal moves, hand ``i`` dealt from ``seeded_deck(seed * 1000 + i)``;
    with ``stop_after``, it stops after that many moves in all, mid-hand if so."""
    match = KlaberjassMatch(rules, first_dealer=seed % 2, players=NAMES, meta={"seed": seed})
    rng = random.Random(seed)
    moves = 0
    while not match.is_over():
        hand = match.new_hand(seeded_deck(seed * 1000 + len(match.hands), DECK))
        while not hand.is_over():
            if stop_after is not None and moves == stop_after:
                return match
            hand.push(rng.choice(hand.legal_actions()))
            moves += 1
    return match


def same_game(a: KlaberjassMatch, b: KlaberjassMatch) -> None:
    assert a.rules == b.rules
    assert a.players == b.players
    assert a.first_dealer == b.first_dealer
    assert a.meta == b.meta
    assert [(h.dealer, h.deck, h.history) for h in a.hands] == [
        (h.dealer, h.deck, h.history) for h in b.hands
    ]
    assert a.standing() == b.standing()
    assert a.is_over() == b.is_over()
    assert a.winner() == b.winner()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_finished_game_reads_back_the_same(seed: int) -> None:
    game = played_game(seed)
    assert game.is_over()
    data = BODY.write(game)
    assert data["rules"] == {
        "preset": "classic",
        "name": "classic",
        "ranking": "classic",
        "schmeiss": False,
        "game_target": 500,
    }
    assert all("scores" in hand for hand in data["hands"])
    again = BODY.read(copy.deepcopy(data))
    same_game(game, again)
    assert BODY.owns(again)
    assert not BODY.owns(object())
    assert BODY.write(again) == data


def test_an_unfinished_game_reads_back_the_same() -> None:
    game = played_game(4, stop_after=40)
    assert game.current is not None
    data = BODY.write(game)
    assert "scores" not in data["hands"][-1]
    again = BODY.read(copy.deepcopy(data))
    same_game(game, again)
    assert again.current is not None
    assert again.current.history == game.current.history


def test_a_game_with_schmeiss_reads_back_the_same() -> None:
    rules = KlaberjassRules(name="book", schmeiss=True)
    game = played_game(5, rules)
    again = BODY.read(BODY.write(game))
    same_game(game, again)
    assert again.rules.schmeiss


def test_a_changed_move_is_refused_by_name() -> None:
    game = played_game(6)
    data = BODY.write(game)
    hand = data["hands"][0]
    # the first card played, replaced by one its player does not hold (the other's)
    first_play = next(i for i, text in enumerate(hand["moves"]) if text.startswith("play"))
    recorded = game.hands[0]
    mover = recorded.history[first_play][0]
    card = next(
        c
        for c in range(52)
        if recorded.held(1 - mover) >> c & 1 and not recorded.held(mover) >> c & 1
    )
    changed = KlaberjassMove(PLAY, card).text()
    hand["moves"][first_play] = changed
    with pytest.raises(RecordError, match=rf"^hand 1, move {first_play + 1} '{changed}': "):
        BODY.read(data)


def test_wrong_scores_and_dealer_and_rules_are_refused() -> None:
    game = played_game(7)
    data = BODY.write(game)
    data["hands"][0]["scores"] = [1, 2]
    with pytest.raises(RecordError, match="the record says"):
        BODY.read(data)
    data = BODY.write(game)
    data["hands"][1]["dealer"] = data["hands"][0]["dealer"]
    with pytest.raises(RecordError, match="the deal alternates every hand, a thrown-in hand too"):
        BODY.read(data)
    data = BODY.write(game)
    data["rules"]["ranking"] = "french"
    with pytest.raises(RecordError, match="rules: ranking must be one of"):
        BODY.read(data)
    data = BODY.write(game)
    data["rules"]["preset"] = "pinochle"
    with pytest.raises(RecordError, match="no variant 'pinochle'"):
        BODY.read(data)


def test_a_replay_tells_a_whole_game_to_its_end() -> None:
    game = played_game(8)
    events = list(match_events(game, NAMES))
    assert isinstance(events[0], Heading)
    assert (
        events[0].text
        == "Klaberjass between Ann (Player 1) and Bob (Player 2), to 500 (classic ranking)"
    )
    moved = [e for e in events if isinstance(e, Moved)]
    assert len(moved) == sum(len(h.history) for h in game.hands)
    ends = [e for e in events if isinstance(e, HandEnds)]
    assert len(ends) == len(game.hands)
    assert [e.more for e in ends] == [True] * (len(ends) - 1) + [False]
    totals = [e for e in events if isinstance(e, Totals)]
    assert totals[-1].totals == game.totals()
    assert isinstance(events[-2], GameEnds)
    assert isinstance(events[-1], MatchEnds)
    assert events[-1].over
    winner = game.winner()
    assert winner is not None
    assert events[-1].text == f"The game is over: won by {NAMES[winner]}."


def test_a_replay_of_an_unfinished_game_says_where_it_stops() -> None:
    game = played_game(9, stop_after=30)
    last = list(match_events(game))[-1]
    assert isinstance(last, MatchEnds)
    assert not last.over
    assert last.text.startswith(f"The game is unfinished: hand {len(game.hands)} stops at move")


def first_hand_with(game: KlaberjassMatch, kind: int) -> KlaberjassHand:
    return next(h for h in game.hands if any(a & 0xF == kind for _, a in h.history))


def test_moves_are_told_as_sentences() -> None:
    game = played_game(10)
    hand = next(h for h in game.hands if h.maker >= 0)
    sentences = [tell_move(hand, i, NAMES) for i in range(len(hand.history))]
    bids = [s for s, (_, a) in zip(sentences, hand.history, strict=True) if a & 0xF != PLAY]
    assert any(" takes: " in s or " names " in s for s in bids)
    plays = [s for s, (_, a) in zip(sentences, hand.history, strict=True) if a & 0xF == PLAY]
    assert len(plays) == 18
    assert all(s.startswith(("Ann plays the ", "Bob plays the ")) for s in plays)
    assert sum(" wins the trick, " in s for s in plays) == 8
    assert sum(" wins the last trick, " in s for s in plays) == 1
    # the move that begins the play shows the bottom card of the stock
    assert sum("the last card of the stock is the " in s for s in sentences) == 1
    # "You", as a session addresses its reader
    you = tell_move(hand, len(hand.history) - 1, ("You", "Bob"), reader=0)
    assert you.startswith(("You play the ", "Bob plays the "))


def test_a_losing_or_undeclared_sequence_is_not_named_to_a_player() -> None:
    # Over seeds, find a hand where a sequence scores: before the first trick the reader
    # hears only its value; a replay names its cards at once.
    for seed in range(11, 60):
        game = played_game(seed)
        for hand in game.hands:
            if hand.sequence_points() == (0, 0):
                continue
            start = next(i for i, (_, a) in enumerate(hand.history) if a & 0xF == PLAY) - 1
            to_player = tell_move(hand, start, NAMES, reader=0)
            to_replay = tell_move(hand, start, NAMES)
            assert " for sequences" in to_player
            assert " for sequences (" not in to_player
            assert " for sequences (" in to_replay
            first_trick_done = start + 2
            assert "the sequence" in tell_move(hand, first_trick_done, NAMES, reader=1)
            return
    pytest.fail("no hand with a scoring sequence in these seeds")


def test_the_books_example_and_a_hand_result() -> None:
    assert maker_rule((55, 70), 0) == ("failed", (0, 125), 0)
    score = HandScore((55, 70), 0, "failed", (0, 125), 0)
    assert (
        result_sentence(score, NAMES)
        == "Ann made trump with 55 against 70 and fails: Bob scores both, 125"
    )
    game = played_game(12)
    hand = next(h for h in game.hands if h.maker >= 0)
    outcome = hand.outcome()
    assert outcome is not None
    told = hand_result(hand, NAMES)
    assert f"The totals: Ann {outcome.totals[0]}, Bob {outcome.totals[1]}" in told
    assert " the last trick, 10" in told
    assert told.endswith(result_sentence(outcome, NAMES) + ".")


def test_the_games_result() -> None:
    game = played_game(13)
    winner = game.winner()
    assert winner is not None
    totals = game.totals()
    told = game_result(game, NAMES)
    assert told.startswith(
        f"{NAMES[winner]} wins the game, {totals[winner]} to {totals[1 - winner]}"
    )
    assert ("The pot of" in told) == (game.standing().pot > 0)
