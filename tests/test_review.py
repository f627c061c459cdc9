"""The game review (umtali.learn.review, Umtali's review hook, ``umtali review FILE``):
its figures, its determinism, that it names no card the player could not see, and the
terminal's command with its refusals."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path
from typing import Any

import pytest

from umtali import games
from umtali.cli.main import main
from umtali.games.umtali.lessons import LESSONS
from umtali.games.umtali.match import Match
from umtali.games.umtali.moves import Move
from umtali.games.umtali.state import HandState
from umtali.games.umtali.view import PlayerView
from umtali.kernel.cards import parse_card
from umtali.kernel.record import dumps, save_file
from umtali.learn.review import (
    HandReview,
    ReviewError,
    Settings,
    accuracy_of,
    mark_of,
)


def book_game() -> Match:
    """The book's four lesson hands as the one game they were."""
    match = Match(kind="game", first_dealer=LESSONS[0].dealer)
    for lesson in LESSONS:
        lesson.replay(match.new_hand(lesson.deck()))
    return match


def reviewed(hand: int, seat: int, playouts: int = 40, seed: int = 0) -> HandReview:
    review = games.get("umtali").hook("review")
    result: HandReview = review.review(
        book_game(), hand, seat, Settings(playouts=playouts, seed=seed)
    )
    return result


def test_marks_and_accuracy() -> None:
    assert mark_of(1.9, 0.1) == ""
    assert mark_of(2.0, 0.5) == "inaccuracy"
    assert mark_of(5.0, 1.0) == "mistake"
    assert mark_of(9.0, 5.0) == ""  # within the noise: not marked
    assert accuracy_of([]) == 100.0
    assert accuracy_of([0.0]) == 100.0
    assert accuracy_of([3.0]) == 50.0
    assert accuracy_of([-0.5]) == 100.0


@pytest.mark.parametrize(
    "settings",
    [
        {"playouts": 0},
        {"playouts": 10**9},
        {"seed": -1},
        {"seconds": 0},
        {"alternatives": 1},
    ],
)
def test_settings_out_of_range_are_refused_with_a_sentence(settings: dict[str, int]) -> None:
    with pytest.raises(ReviewError):
        Settings(**settings)


def test_the_same_seed_gives_the_same_review_and_another_seed_may_not() -> None:
    one = reviewed(0, 1, seed=5).to_dict()
    assert reviewed(0, 1, seed=5).to_dict() == one
    assert one["decisions"]
    assert one["accuracy"] <= 100
    assert reviewed(0, 1, seed=6).to_dict() != one


def test_each_decision_weighs_the_move_made_and_ranks_the_best_first() -> None:
    review = reviewed(3, 1)
    assert [d.played for d in review.decisions][:2] == ["discard A♥", "take 3♦ from the pile"]
    for d in review.decisions:
        expected = [a.expected for a in d.alternatives]
        assert expected == sorted(expected, reverse=True)
        assert d.best.loss == 0
        assert d.made.loss >= 0
        assert d.best.line[0] == d.best.move
        assert d.playouts >= 8 * len(d.alternatives)
    # Hand 4 ends the game: the chance to win it is weighed too.
    assert all(a.wins is not None for d in review.decisions for a in d.alternatives)
    assert all(a.wins is None for d in reviewed(0, 0).decisions for a in d.alternatives)


def test_a_hand_inside_a_game_is_played_out_as_that_hand_of_the_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The book's third hand, with two hands behind it and one to come: the review's
    # playouts show the expert the game's totals so far and the hand still to come, as
    # the game showed its players; the expert plays a game's last hand otherwise.
    from umtali.games.umtali.bots.expert import ExpertBot
    from umtali.games.umtali.learn import review as umtali_review

    seen: set[tuple[tuple[int, int], int]] = set()

    class Witness(ExpertBot):
        def choose(self, view: PlayerView, rng: random.Random, **options: Any) -> Move:
            seen.add((view.game_scores, view.hands_left))
            return super().choose(view, rng, **options)

    monkeypatch.setattr(umtali_review, "_POLICY", Witness())
    game = book_game()
    first, second = (hand.outcome() for hand in game.hands[:2])
    assert first is not None
    assert second is not None
    totals = (first.scores[0] + second.scores[0], first.scores[1] + second.scores[1])
    assert reviewed(2, 0, playouts=8).decisions
    assert seen == {(totals, 1)}


def test_a_review_names_no_card_the_player_could_not_see() -> None:
    """Every card named at a decision (where it stood, every alternative, every line
    that shows a better move) is in the player's hand or in sight on the table or the
    pile at that moment."""
    match = book_game()
    for hand_index, lesson in enumerate(LESSONS):
        for seat in (0, 1):
            review = (
                games.get("umtali")
                .hook("review")
                .review(match, hand_index, seat, Settings(playouts=8))
            )
            state = HandState(lesson.deck(), lesson.dealer)
            moves = match.hands[hand_index].moves_played()
            at = 0
            for d in review.decisions:
                while at < d.move_index:
                    state.push(moves[at])
                    at += 1
                view = PlayerView.of(state, seat)
                seen = view.hand.mask | _table(view) | _pile(view)
                words = [d.where, *(w for a in d.alternatives for w in (a.move, *a.line))]
                for word in " ".join(words).replace(";", " ").replace(".", " ").split():
                    card = _card(word)
                    assert card is None or seen >> card & 1, (hand_index, seat, d.where, word)


def _table(view: PlayerView) -> int:
    return sum(column.cards.mask for side in view.tables for column in side)


def _pile(view: PlayerView) -> int:
    mask = 0
    for card in view.discard_pile:
        if card is not None:
            mask |= 1 << card
    return mask


def _card(word: str) -> int | None:
    if not any(suit in word for suit in "♠♥♦♣"):
        return None
    return parse_card(word)


def test_a_hand_not_finished_or_a_seat_that_is_none_is_refused() -> None:
    match = book_game()
    review = games.get("umtali").hook("review")
    with pytest.raises(ReviewError, match="no hand 9"):
        review.review(match, 8, 0, Settings())
    with pytest.raises(ReviewError, match="two players"):
        review.review(match, 0, 2, Settings())
    unfinished = Match(kind="hand", first_dealer=1)
    hand = unfinished.new_hand(LESSONS[0].deck())
    hand.push(Move.keep())
    with pytest.raises(ReviewError, match="not finished"):
        review.review(unfinished, 0, 0, Settings())
    assert review.hands(unfinished) == ()


# -- umtali review FILE -----------------------------------------------------------------------


def umtali(*args: str) -> str:
    out = io.StringIO()
    assert main(list(args), out) == 0
    return out.getvalue()


def test_the_command_prints_each_decision_its_alternatives_and_the_accuracy(
    tmp_path: Path,
) -> None:
    path = tmp_path / "book.json"
    save_file(book_game(), path)
    text = umtali("review", str(path), "--hand", "4", "--player", "2", "--playouts", "8")
    assert "Review of Player 2's play (Umtali): 8 playouts a decision, seed 0." in text
    assert "== Hand 4 ==" in text
    assert "== Hand 1 ==" not in text
    assert "you discard A♥" in text
    assert "you take 3♦ from the pile" in text
    assert "Accuracy " in text
    assert "% over " in text
    assert "Turn 1. You held 3♣ 5♣ 6♣ 4♦ 6♦ 9♦ A♥ 9♥ K♥ 2♠ 3♠; the pile was empty" in text
    # The same seed, the same review; every finished hand without --hand.
    again = umtali("review", str(path), "--hand", "4", "--player", "2", "--playouts", "8")
    assert again == text
    assert umtali("review", str(path), "--playouts", "8", "--hand", "1").count("== Hand ") == 1


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["missing.json"], "cannot review missing.json"),
        (["not-json.json"], "cannot review not-json.json"),
        (["book.json", "--hand", "7"], "hand 7 of book.json is not a finished hand"),
        (["book.json", "--player", "3"], "the record has 2 players"),
        (["book.json", "--playouts", "0"], "give from 8"),
        (["book.json", "--seconds", "nan"], "seconds"),
    ],
)
def test_the_command_refuses_with_a_sentence(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    words: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    save_file(book_game(), tmp_path / "book.json")
    (tmp_path / "not-json.json").write_text("{not json", encoding="utf-8")
    out = io.StringIO()
    try:
        code = main(["review", *args], out)
    except SystemExit as e:
        code = int(e.code or 0)
    told = out.getvalue() + capsys.readouterr().err
    assert code != 0
    assert words in told
    assert "Traceback" not in told


def test_a_record_of_a_game_without_a_review_is_refused_by_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    without = [spec for spec in games.games() if not spec.has("review")]
    if not without:
        pytest.skip("every game has a review")
    spec = without[0]
    session = spec.maker().between_bots(list(spec.levels[:1]) * spec.seat_counts[0], 1)
    session.deal()
    while session.computer_to_move() is not None:
        session.bot_move()
    path = tmp_path / "gin.json"
    path.write_text(session.record(), encoding="utf-8")
    assert main(["review", str(path)], io.StringIO()) == 2
    assert f"{spec.title} has no game review yet" in capsys.readouterr().err


def test_record_round_trip_keeps_what_a_review_reads(tmp_path: Path) -> None:
    data = json.loads(dumps(book_game()))
    assert len(data["hands"]) == 4


# -- Gin Rummy --------------------------------------------------------------------------------


def gin_game() -> Any:
    from umtali.games.gin.session import GinPlaySession

    session = GinPlaySession.between_bots(("greedy", "expert"), "4/0", players=("Ann", "Bob"))
    session.play_out()
    return session.match


def test_a_gin_deal_from_the_view_shows_the_player_the_same_view() -> None:
    """Dealt again from a player's view at each of his decisions, the hand shows him
    exactly what he saw: the same hand, pile, counts, known cards and moves allowed."""
    from umtali.games.gin.learn import deal_from_view
    from umtali.games.gin.state import UPCARD_INDEX, GinHand
    from umtali.games.gin.view import GinView

    match = gin_game()
    checked = 0
    for played in match.hands:
        state = GinHand(played.deck, played.dealer, played.rules)
        for actor, action in played.history:
            if len(state.legal_actions()) > 1:
                view = GinView.of(state, actor)
                for seed in range(3):
                    dealt = deal_from_view(
                        view, played.deck[UPCARD_INDEX], played.rules, random.Random(seed)
                    )
                    assert GinView.of(dealt, actor) == view
                    assert dealt.hand(actor) == state.hand(actor)
                checked += 1
            state.push(action)
    assert checked > 50


def test_a_gin_hand_is_reviewed_from_the_players_view(tmp_path: Path) -> None:
    match = gin_game()
    review = games.get("gin").hook("review")
    # Two alternatives a decision (the move made and the computer's likeliest other)
    # keep the test quick; how many are weighed is the Umtali tests' business.
    settings = Settings(playouts=8, seed=2, alternatives=2)
    one = review.review(match, 0, 0, settings)
    assert one.to_dict() == review.review(match, 0, 0, settings).to_dict()
    assert one.decisions
    assert one.game == "gin"
    assert one.decisions[0].played in ("pass", "take the upcard")
    for d in one.decisions:
        assert d.played in [a.move for a in d.alternatives]
    path = tmp_path / "gin.json"
    save_file(match, path)
    # Two deals an alternative: the command's text, not the figures, is checked here.
    text = umtali("review", str(path), "--hand", "1", "--playouts", "8", "--seconds", "0.01")
    assert "Review of Ann's play (Gin Rummy)" in text
    # Hand 1 of this game: Ann (greedy) knocks with 6 against Bob's 7 and wins by 1.
    assert "== Hand 1 == Ann won by a knock, scoring 1." in text
