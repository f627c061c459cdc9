"""How to play Klaberjass (:mod:`umtali.games.klaberjass.learn`): the lessons' content is
exact (replayed on the engine, every move legal, every figure the engine's), the
terminal lesson and quiz run through the real ``umtali`` entry point, and the browser's
lesson is the same content, served by the table's routes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.test_cli_rules import run_main
from umtali.games.klaberjass.describe import hand_result, tell_move
from umtali.games.klaberjass.learn.howto import NAMES, page, scripts, walkthrough
from umtali.games.klaberjass.learn.quiz import build_quiz
from umtali.games.klaberjass.state import KlaberjassHand
from umtali.web.app import create_app

LESSONS = [scripted.number for scripted in scripts()]


def played(number: int) -> KlaberjassHand:
    """Lesson ``number``'s hand, replayed on the engine from its deal to its end."""
    scripted = scripts()[number - 1]
    hand = KlaberjassHand(scripted.deck, scripted.dealer)
    for step in scripted.steps:
        assert step.move.action in hand.legal_actions(), (step.move.text(), hand.phase)
        hand.push(step.move)
    return hand


# -- the content is exact ---------------------------------------------------------------------


@pytest.mark.parametrize("number", LESSONS)
def test_every_scripted_move_is_legal_and_ends_the_hand(number: int) -> None:
    hand = played(number)
    assert hand.is_over()
    assert hand.outcome() is not None


def test_the_first_lesson_shows_what_it_promises() -> None:
    """A take, the exchange of the 7 of trump, a sequence that scores, bella, a trump
    lead headed, the last trick, and the maker's rule."""
    hand = played(1)
    kinds = [tell_move(hand, i, NAMES) for i in range(len(hand.history))]
    assert "Player 2 takes: hearts are trump" in kinds[1]
    assert kinds[2].startswith("Player 2 exchanges the 7♥ for the 9♥")
    assert hand.exchanged
    assert hand.sequence_points() == (20, 0)
    assert hand.bella() == (0, 20)
    assert any("bella, 20 to Player 2" in told for told in kinds)
    assert any("wins the last trick" in told for told in kinds)
    score = hand.outcome()
    assert score is not None
    assert (score.totals, score.maker, score.result, score.scores) == (
        (67, 105),
        1,
        "made",
        (67, 105),
    )


@pytest.mark.parametrize("number", LESSONS)
def test_the_narrated_score_is_the_engines(number: int) -> None:
    hand = played(number)
    score = hand.outcome()
    assert score is not None
    lesson = walkthrough(number)
    ending = "\n".join(lesson.ending)
    for player in (0, 1):
        line = next(line for line in lesson.ending if line.startswith(f"{NAMES[player]}: "))
        assert line.endswith(f"= {score.totals[player]}")
        assert f"{hand.points[player]} in tricks" in line
        parts = [int(n) for n in re.findall(r"(\d+) (?:in tricks|for sequences|for bella)", line)]
        assert sum(parts) == score.totals[player]
    assert hand_result(hand, NAMES).split(". ")[-1] in ending  # the maker's rule as told


def test_the_narration_figures_agree_with_the_engine() -> None:
    """The figures a step's words give are the rules' own: the points of the cards named,
    bella's 20, the sequences' 20, the trick's worth as the engine counted it."""
    lesson = walkthrough(1)
    hand = played(1)
    words = " ".join(" ".join(step.why) for step in lesson.steps)
    assert "bella, 20" in words
    assert hand.bella()[1] == 20
    assert "both worth 20" in words
    assert hand.sequence_points()[0] == 20
    # "The trick is worth 20 and 10 to Player 2": the J♥ led and the 10♥ headed under it.
    told = next(step.told for step in lesson.steps if step.answer == "play 10♥")
    assert "Player 2 wins the trick, 30 points" in told
    assert "11, and 10 for the last" in words
    last = lesson.steps[-1].told
    assert "wins the last trick, 21 points with the 10 for the last" in last


def test_the_steps_tell_the_moves_as_the_table_does_and_judge_choices() -> None:
    lesson = walkthrough(1)
    hand = played(1)
    assert [step.told for step in lesson.steps] == [
        tell_move(hand, i, NAMES) + "." for i in range(len(hand.history))
    ]
    heading = next(step for step in lesson.steps if step.answer == "play A♥")
    assert heading.judge("Ah").kind == "same"
    refused = heading.judge("10h")
    assert refused.kind == "illegal"
    assert "higher trump than K♥" in refused.message
    assert (
        heading.judge("Jh").message == "Not allowed: the J♥ is Player 2's, and Player 1 is to move."
    )
    assert heading.judge("xyz").kind == "unreadable"
    assert heading.judge("").kind == "shown"
    first = lesson.steps[0]
    assert first.judge("take").kind == "other"
    assert "the lesson plays pass" in first.judge("take").message


def test_the_page_is_the_same_lesson_with_every_choice_judged() -> None:
    lesson = walkthrough(1)
    shown = page(1)
    assert [s.told for s in shown.steps] == [s.told for s in lesson.steps]
    assert shown.ending == lesson.ending
    for step, walked in zip(shown.steps, lesson.steps, strict=True):
        mover = step.board.hands[step.player]
        assert [o.card for o in step.options if o.card is not None] == list(mover)
        for option in step.options:
            assert walked.judge(option.move).message == option.message
        assert sum(o.kind == "same" for o in step.options) == 1
    assert shown.steps[2].words == ("exchange", "keep")
    assert shown.steps[8].answer == "play A♥"
    assert shown.steps[8].answer_card == "Ah"


def test_the_api_sends_the_lesson_and_refuses_a_lesson_that_is_not(tmp_path: Path) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'u.db'}")) as client:
        listed = client.get("/api/klaberjass/howto").json()
        assert [number for number, _title in listed["lessons"]] == LESSONS
        sent = client.get("/api/klaberjass/howto/1").json()
        assert len(sent["steps"]) == len(scripts()[0].steps)
        assert sent["ending"] == list(walkthrough(1).ending)
        missing = client.get("/api/klaberjass/howto/9")
        assert missing.status_code == 404
        assert "numbered 1 to" in missing.json()["detail"]
        page_reply = client.get("/learn/klaberjass")
        assert page_reply.status_code == 200
        assert 'src="/static/games/klaberjass/howto.js"' in page_reply.text


# -- the terminal --------------------------------------------------------------------------------


def test_the_terminal_lesson_runs_to_the_score(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lesson = walkthrough(1)
    # The first move right, the second refused then another legal move, the rest by Enter.
    lines = iter(["pass", "play Jh", "pass", *[""] * (len(lesson.steps) - 2)])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    status, out, err = run_main("lesson", "1", "--game", "klaberjass", cwd=tmp_path)
    assert status == 0, err
    assert "Lesson 1: A whole hand" in out
    assert "Right: pass, the lesson's move." in out
    assert "Not allowed: no card is played before the bidding" in out
    assert "Pass is allowed, but the lesson plays take." in out
    assert "Player 2 made trump with 105 against 67 and makes it" in out
    assert "You chose the lesson's move at 1 of 21 moves." in out
    assert "Traceback" not in out + err


def test_the_terminal_lesson_stops_on_quit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = iter(["", "quit"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(lines))
    status, out, _err = run_main("lesson", "1", "--game", "klaberjass", cwd=tmp_path)
    assert status == 0
    assert out.rstrip().endswith("Come back any time with: umtali lesson 1 --game klaberjass")


def test_there_is_no_second_lesson_at_the_terminal(tmp_path: Path) -> None:
    status, _out, err = run_main("lesson", "2", "--game", "klaberjass", cwd=tmp_path)
    assert status == 2
    assert "there is one lesson, lesson 1; there is no lesson 2" in err


def test_the_quiz_is_graded_by_the_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    quiz = build_quiz()
    assert 6 <= len(quiz.questions) <= 8
    right = ["20", "9h", "10s", "Ah", "no", "no", "0 125", "62"]
    assert [q.grade(answer).correct for q, answer in zip(quiz.questions, right, strict=True)] == [
        True
    ] * 8
    answers = iter(["twenty", "20", "Ah", "10s", "ah 10h", "no", "yes", "125 0", "skip"])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    status, out, err = run_main("quiz", "--game", "klaberjass", cwd=tmp_path)
    assert status == 0, err
    assert "'twenty' is not a whole number" in out
    assert "Score: 3/8" in out
    assert "the 10♥ may not be played" in out
    assert "the maker scores 0 and the other player 125, not 125 and 0" in out
    assert "8. The maker's rule: 80 against 62 (skipped) — answer: 62" in out


def test_the_help_offers_both_games_lessons(tmp_path: Path) -> None:
    status, out, _err = run_main("--help", cwd=tmp_path)
    assert status == 0
    text = " ".join(out.split())
    assert "a hand played with both hands open, to learn the game (klaberjass)" in text
    assert "eight questions on the rules, graded (klaberjass)" in text
    status, out, _err = run_main("lesson", "--help", cwd=tmp_path)
    assert "umtali or klaberjass (default umtali)" in " ".join(out.split())
