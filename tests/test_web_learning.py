"""The learning API (umtali.web.routers.learning, and Umtali's teaching routes): lessons, the quiz and replays, through
FastAPI's test client, checked against what the terminal prints for the same answers
and the same records (``umtali lesson``, ``umtali quiz``, ``umtali replay``)."""

from __future__ import annotations

import io
import json
import random
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.scripted import BOOK_ANSWERS, LESSON_QUESTIONS, LESSON_RIGHT, QUIZ_WRONG, typed_terminal
from umtali.cli.main import main as umtali
from umtali.cli.terminal import QuitRequested
from umtali.games.umtali.learn import steps
from umtali.games.umtali.learn.lesson import Ask
from umtali.games.umtali.lessons import LESSONS
from umtali.games.umtali.match import Match
from umtali.games.umtali.session import PlaySession
from umtali.games.umtali.terminal.lesson import run_lesson
from umtali.games.umtali.terminal.quiz import run_quiz
from umtali.kernel.cards import card_name, parse_card
from umtali.kernel.record import save_file
from umtali.learn.answers import MAX_TRIES, Attempts
from umtali.web.app import create_app
from umtali.web.routers.learning import REPLAY_MAX_BYTES, REPLAY_PATH
from umtali.web.server import RateLimit

# Wrong answers to every lesson question, in the order asked: each one readable, and
# graded wrong (tests/scripted.py has the right ones).
LESSON_WRONG: dict[int, list[str]] = {
    1: ["Ks Kh Kc", "js jd", "no", "yes", "28 31"],
    2: ["Kd", "10", "5c 4c 3c", "yes", "22 40"],
    3: ["Js Jh Jd", "Js Jh Jd", "group", "a", "52 33"],
    4: ["3s", "3s", "Kc Qc", "yes", "4c", "yes", "yes", "8 55", "110 159"],
}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    # The browser game's record below is played by a script, faster than any person:
    # no limit on a seat's requests.
    unlimited = RateLimit(rate=1e6, burst=1e6)
    app = create_app(f"sqlite:///{tmp_path / 'umtali.db'}", seat_requests=unlimited)
    with TestClient(app) as test_client:
        yield test_client


def _sentence(text: str) -> str:
    return text if text.endswith((".", "!", "?")) else text + "."


def _in_order(text: str, lines: Sequence[str]) -> None:
    """Every one of ``lines`` is in ``text``, each after the one before."""
    at = 0
    for line in lines:
        found = text.find(line, at)
        assert found >= 0, f"not printed (after character {at}): {line!r}"
        at = found + len(line)


def _answers(typed: list[str]) -> list[str]:
    """The answers among the lines typed to a lesson (the rest are Enters between turns)."""
    return [line for line in typed if line]


def _lesson_lines(reply: dict[str, Any]) -> list[str]:
    """What the terminal prints for a graded lesson answer, from the API's reply."""
    verdict = reply["verdict"]
    if verdict["correct"]:
        lines = [f"Right: {_sentence(verdict['answer'])}"]
    else:
        lines = [f"Not quite. The answer: {_sentence(verdict['answer'])}"]
        lines += [_sentence(m) for m in verdict["mistakes"]]
    lines += [_sentence(r) for r in verdict["reasons"]]
    return [*lines, reply["why"]] if reply["why"] else lines


# -- lessons --------------------------------------------------------------------------------


def test_the_four_lessons_are_listed(client: TestClient) -> None:
    lessons = client.get("/api/lessons").json()["lessons"]
    assert [lesson["number"] for lesson in lessons] == [1, 2, 3, 4]
    assert [lesson["questions"] for lesson in lessons] == [
        LESSON_QUESTIONS[n] for n in (1, 2, 3, 4)
    ]
    assert lessons[0]["title"] == "Laying cards down, Jacks, building on the table, going out"


@pytest.mark.parametrize("number", [1, 2, 3, 4])
def test_a_lesson_is_its_script_event_by_event(client: TestClient, number: int) -> None:
    events = client.get(f"/api/lessons/{number}").json()["events"]
    script = list(steps(number))
    assert len(events) == len(script)
    assert events[0]["type"] == "opening"
    assert events[-1]["type"] == "summary"
    assert [e["index"] for e in events if e["type"] == "ask"] == list(
        range(1, LESSON_QUESTIONS[number] + 1)
    )
    # The moves are the lesson's, in notation and as the engine tells them.
    plays = [e for e in events if e["type"] == "play"]
    assert [p["move"] for p in plays] == [
        move.text(ascii=True) for move in LESSONS[number - 1].state_at().moves_played()
    ]
    # The last board is the hand as it ended, every card in its place.
    board = [e for e in events if e["type"] == "board"][-1]["board"]
    end = LESSONS[number - 1].state_at()
    for player in (0, 1):
        assert {parse_card(c) for c in board["hands"][player]} == set(end.hand(player))
        shown = {parse_card(c) for column in board["tables"][player] for c in column["cards"]}
        assert shown == {c for column in end.table(player) for c in column.cards}
    assert board["stock"] == end.stock_size()
    # A question's answer is not given away before it is answered.
    for event in events:
        if event["type"] == "ask":
            assert set(event["question"]) == {
                "prompt",
                "kind",
                "answer_prompt",
                "expects",
                "format_first",
                "choices",
                "position",
                "number",
                "topic",
                "picks",
            }


def test_the_deal_shows_both_hands_and_a_question_can_hide_the_points(client: TestClient) -> None:
    events = client.get("/api/lessons/1").json()["events"]
    deal = next(e for e in events if e["type"] == "board")
    assert deal["caption"] == "The deal"
    hands = deal["board"]["hands"]
    assert [card_name(parse_card(c)) for c in hands[1]] == [
        "K♠",
        "9♠",
        "K♥",
        "7♥",
        "5♥",
        "3♥",
        "2♥",
        "A♥",
        "10♦",
        "K♣",
        "9♣",
    ]
    assert len(hands[0]) == 10
    lesson2 = client.get("/api/lessons/2").json()["events"]
    hidden = [e for e in lesson2 if e["type"] == "board" and e["board"]["points"] is None]
    assert hidden, "lesson 2 asks for the points on the table, and hides them meanwhile"


@pytest.mark.parametrize("number", [1, 2, 3, 4])
@pytest.mark.parametrize("right", [True, False], ids=["right", "wrong"])
def test_a_lesson_is_graded_as_the_terminal_grades_it(
    client: TestClient, number: int, right: bool
) -> None:
    typed = LESSON_RIGHT[number]
    answers = _answers(typed) if right else LESSON_WRONG[number]
    assert len(answers) == LESSON_QUESTIONS[number]
    replies = [
        client.post(
            f"/api/lessons/{number}/questions/{index}/answer", json={"answer": answer}
        ).json()
        for index, answer in enumerate(answers, start=1)
    ]
    assert all(reply["status"] == "graded" for reply in replies)
    assert [reply["verdict"]["correct"] for reply in replies] == [right] * len(answers)
    # The terminal, given the same answers (and Enter between turns), prints the same
    # verdicts, mistakes, reasons and explanations, question after question.
    feed = iter(answers)
    term, out = typed_terminal([next(feed) if line else "" for line in typed])
    run_lesson(term, number)
    printed = out.getvalue()
    _in_order(printed, [line for reply in replies for line in _lesson_lines(reply)])
    count = len(answers)
    tally = f"You answered {count if right else 0} of {count} questions correctly."
    assert tally in printed


def test_a_lesson_answer_can_be_skipped_or_given_up_after_the_tries(client: TestClient) -> None:
    route = "/api/lessons/1/questions/1/answer"
    question = next(e.question for e in steps(1) if isinstance(e, Ask))
    skipped = client.post(route, json={"answer": "skip"}).json()
    assert skipped["status"] == "skipped"
    assert skipped["verdict"]["answer"] == question.reveal().answer == "3♥ 2♥ A♥, K♠ K♥ K♣"
    assert not skipped["verdict"]["correct"]
    assert skipped["why"] == question.why
    # Unreadable answers use up the tries the terminal allows, with its messages.
    attempts = Attempts(question.grade, question.expects)
    tries = 0
    for _ in range(MAX_TRIES - 1):
        reply = client.post(route, json={"answer": "kings", "tries": tries}).json()
        assert reply["status"] == "unreadable"
        assert reply["verdict"] is None
        assert reply["message"] == attempts.offer("kings").message
        assert "'kings' is not a card" in reply["message"]
        tries = reply["tries"]
    last = client.post(route, json={"answer": "kings", "tries": tries}).json()
    assert last["status"] == "no_valid_answer"
    assert last["message"] == attempts.offer("kings").message
    assert last["verdict"]["answer"] == question.reveal().answer
    # An empty answer uses no try.
    empty = client.post(route, json={"answer": "", "tries": 1}).json()
    assert (empty["status"], empty["tries"]) == ("unreadable", 1)
    assert empty["message"].startswith("No answer given.")


@pytest.mark.parametrize(
    ("path", "body", "status", "words"),
    [
        ("/api/lessons/5", None, 404, "there is no lesson 5: the lessons are numbered 1 to 4"),
        ("/api/lessons/0/questions/1/answer", {"answer": "x"}, 404, "there is no lesson 0"),
        ("/api/lessons/1/questions/6/answer", {"answer": "x"}, 404, "numbered 1 to 5"),
        ("/api/quiz/13/answer", {"answer": "x"}, 404, "numbered 1 to 12"),
        ("/api/quiz/1/answer", {"answer": "x", "tries": MAX_TRIES}, 422, "less than 3"),
        ("/api/quiz/1/answer", {"answer": "x" * 501}, 422, "at most 500 characters"),
        ("/api/quiz/1/answer", {"answer": "x", "extra": 1}, 422, "Extra inputs"),
    ],
)
def test_requests_that_name_nothing_are_refused_with_the_reason(
    client: TestClient, path: str, body: dict[str, Any] | None, status: int, words: str
) -> None:
    reply = client.get(path) if body is None else client.post(path, json=body)
    assert reply.status_code == status
    assert words in json.dumps(reply.json()["detail"])


# -- the quiz -------------------------------------------------------------------------------


def _quiz_lines(reply: dict[str, Any]) -> list[str]:
    """What ``umtali quiz`` prints for a graded answer, from the API's reply."""
    verdict = reply["verdict"]
    if verdict["correct"]:
        return ["Right."]
    return ["Wrong.", *verdict["mistakes"], f"The answer: {verdict['answer']}", *verdict["reasons"]]


def test_the_quiz_has_twelve_questions_with_their_positions(client: TestClient) -> None:
    quiz = client.get("/api/quiz").json()
    assert quiz["title"] == "Umtali self-test"
    assert [q["number"] for q in quiz["questions"]] == list(range(1, 13))
    first = quiz["questions"][0]
    assert first["kind"] == "surface"
    assert first["format_first"]
    assert len(first["position"]["hand"]) == 11
    scored = quiz["questions"][6]["position"]["sides"][0]
    assert scored["caption"] == "The table to score"
    assert {"kind": "solo", "cards": ["10s"], "played_off": "Js"} in scored["columns"]
    pile = quiz["questions"][8]["position"]["pile"]
    assert pile == ["Kd", "Kc", None]  # the face-down card is not named
    # The cards to click: the hand, or the cards near the column when no hand is shown.
    assert first["picks"] == first["position"]["hand"]
    assert quiz["questions"][4]["picks"] == ["Qs", "Kh", "Qh", "Kd", "Qd", "Qc"]
    assert quiz["questions"][1]["picks"] == []
    # A yes-or-no question offers its two answers to choose; a number is typed.
    assert quiz["questions"][1]["choices"] == [["yes", ""], ["no", ""]]
    assert quiz["questions"][6]["choices"] == []


def test_the_page_is_not_told_to_type_quit(client: TestClient) -> None:
    # 'quit' stops the terminal's quiz; a page is simply left, so it is not offered there.
    assert "'skip'" in client.get("/api/quiz").json()["intro"]
    assert "quit" not in client.get("/api/quiz").json()["intro"]
    empty = client.post("/api/quiz/1/answer", json={"answer": ""}).json()
    assert empty["status"] == "unreadable"
    assert "'skip'" in empty["message"]
    assert "quit" not in empty["message"]
    term, out = typed_terminal(["", "quit"])
    with pytest.raises(QuitRequested):
        run_quiz(term)
    assert "'quit' to stop." in out.getvalue()
    assert "'quit' stops" in out.getvalue()


def test_the_book_answers_score_twelve_out_of_twelve(client: TestClient) -> None:
    replies = [
        client.post(f"/api/quiz/{number}/answer", json={"answer": answer}).json()
        for number, answer in enumerate(BOOK_ANSWERS, start=1)
    ]
    assert [r["status"] for r in replies] == ["graded"] * 12
    assert sum(r["verdict"]["correct"] for r in replies) == 12
    term, out = typed_terminal(list(BOOK_ANSWERS))
    run_quiz(term)
    assert "Score: 12/12" in out.getvalue()
    assert out.getvalue().count("Right.") == 12


def test_wrong_quiz_answers_are_marked_wrong_with_the_terminals_reasons(
    client: TestClient,
) -> None:
    typed = list(BOOK_ANSWERS)
    expected: list[str] = []
    for number, (answer, reasons) in sorted(QUIZ_WRONG.items()):
        reply = client.post(f"/api/quiz/{number}/answer", json={"answer": answer}).json()
        assert reply["status"] == "graded"
        assert not reply["verdict"]["correct"]
        said = " ".join(reply["verdict"]["mistakes"] + reply["verdict"]["reasons"])
        for reason in reasons:
            assert reason in said
        typed[number - 1] = answer
        expected += [f"Question {number} of 12", *_quiz_lines(reply)]
    term, out = typed_terminal(typed)
    run_quiz(term)
    _in_order(out.getvalue(), expected)
    assert f"Score: {12 - len(QUIZ_WRONG)}/12" in out.getvalue()


def test_a_surface_answer_says_how_it_was_read(client: TestClient) -> None:
    reply = client.post("/api/quiz/1/answer", json={"answer": "Js 10s 10h 4d 3d 2d Kc Qc"}).json()
    assert reply["status"] == "graded"
    assert reply["verdict"]["read_as"] is not None


# -- replays --------------------------------------------------------------------------------


def _terminal_replay(path: Path) -> str:
    out = io.StringIO()
    assert umtali(["replay", str(path)], out=out) == 0
    return out.getvalue()


_BOARD = re.compile(
    r"  stock +(\d+)   top discard (.+)\n"
    r"  Player 1  hand: (.*?)   points (\d+)\n.*\n"
    r"  Player 2  hand: (.*?)   points (\d+)\n"
)


def _terminal_positions(text: str) -> list[tuple[object, ...]]:
    """Each board ``umtali replay`` prints: stock, top discard, both hands and points."""
    return [(int(m[1]), m[2], m[3], int(m[4]), m[5], int(m[6])) for m in _BOARD.finditer(text)]


def _api_positions(reply: dict[str, Any]) -> list[tuple[object, ...]]:
    def top(board: dict[str, Any]) -> str:
        if not board["pile"]:
            return "(none)"
        last = board["pile"][-1]
        return "(face down)" if last["face_down"] else card_name(parse_card(last["card"]))

    def hand(cards: list[str]) -> str:
        return " ".join(card_name(parse_card(c)) for c in cards) or "(empty)"

    return [
        (
            b["stock"],
            top(b),
            hand(b["hands"][0]),
            b["points"][0],
            hand(b["hands"][1]),
            b["points"][1],
        )
        for h in reply["hands"]
        for b in (step["board"] for step in h["steps"])
    ]


def _check_replay(reply: dict[str, Any], printed: str) -> None:
    """The API's replay shows what ``umtali replay`` prints: the heading, every hand's
    title, every turn and move, every board, every result and total, the last word."""
    assert printed.startswith(reply["heading"] + "\n")
    _in_order(printed, [f"== {h['title']} ==" for h in reply["hands"]])
    sentences = [s for h in reply["hands"] for step in h["steps"] for s in step["sentences"]]
    assert sentences == [
        # A move is told four spaces in; a board's table line is further in.
        line[4:]
        for line in printed.splitlines()
        if line.startswith("    ") and line[4] != " "
    ]
    titles = [
        step["title"] for h in reply["hands"] for step in h["steps"] if step["player"] is not None
    ]
    assert titles == ["T" + line[1:] for line in printed.splitlines() if line.startswith("turn ")]
    assert _api_positions(reply) == _terminal_positions(printed)
    for hand in reply["hands"]:
        if hand["result"] is not None:
            assert f"\n{hand['result']}\n" in printed
            sides = hand["scores"]["sides"]
            assert hand["result"].endswith(
                f"{max(s['score'] for s in sides)} to {min(s['score'] for s in sides)}."
            )
        if hand["totals"] is not None:
            assert f"  {hand['totals']}\n" in printed
    assert reply["end"] is None or printed.endswith(f"\n{reply['end']}\n")


def test_a_terminal_demo_record_replays_as_umtali_replay_shows_it(
    client: TestClient, tmp_path: Path
) -> None:
    path = tmp_path / "demo.json"
    assert umtali(["demo", "--seed", "7", "--save", str(path)], out=io.StringIO()) == 0
    reply = client.post(REPLAY_PATH, content=path.read_bytes())
    assert reply.status_code == 200, reply.text
    data = reply.json()
    assert len(data["hands"]) == 1
    assert data["hands"][0]["steps"][0]["title"] == "The deal"
    _check_replay(data, _terminal_replay(path))


def test_a_saved_game_of_the_four_lessons_replays_with_its_totals(
    client: TestClient, tmp_path: Path
) -> None:
    game = Match(kind="game", first_dealer=1, players=("Ann", "Ben"))
    for lesson in LESSONS:
        lesson.replay(game.new_hand(lesson.deck()))
    path = tmp_path / "lessons.json"
    save_file(game, path)
    data = client.post(REPLAY_PATH, content=path.read_bytes()).json()
    assert data["names"] == ["Ann", "Ben"]
    assert data["hands"][0]["result"] == "Player 1 wins the hand, 31 to 28."
    assert data["hands"][-1]["totals"] == "game 1 totals: 159–110"
    assert data["end"] == "The game is over: won by Ann."
    _check_replay(data, _terminal_replay(path))


def test_an_unfinished_record_stops_where_it_stops(client: TestClient, tmp_path: Path) -> None:
    game = Match(kind="game", first_dealer=1)
    hand = game.new_hand(LESSONS[0].deck())
    for move in LESSONS[0].state_at().moves_played()[:5]:
        hand.push(move)
    path = tmp_path / "unfinished.json"
    save_file(game, path)
    data = client.post(REPLAY_PATH, content=path.read_bytes()).json()
    assert data["hands"][0]["stopped"]
    assert data["hands"][0]["result"] is None
    assert data["end"].startswith("The game is unfinished: hand 1 stops at turn")
    _check_replay(data, _terminal_replay(path))


def _browser_game_record(client: TestClient, seed: int) -> bytes:
    """A whole game against the computer played by the API with random legal moves, and
    its record as the browser game downloads it."""
    rng = random.Random(seed)
    created = client.post("/api/games", json={"level": "random", "kind": "game"}).json()
    seat = created["seats"][0]["state"]
    state = client.get(seat).json()
    while not state["over"]:
        reply = client.post(f"{seat}/move", json={"move": rng.choice(state["legal"])})
        assert reply.status_code == 200, reply.text
        state = reply.json()["state"]
    record = client.get(f"/api/games/{created['game_id']}/record")
    assert record.status_code == 200
    content: bytes = record.content
    return content


def test_a_browser_game_record_replays_as_umtali_replay_shows_it(
    client: TestClient, tmp_path: Path
) -> None:
    content = _browser_game_record(client, seed=11)
    path = tmp_path / "browser.json"
    path.write_bytes(content)
    reply = client.post(REPLAY_PATH, content=content, headers={"content-type": "application/json"})
    assert reply.status_code == 200, reply.text
    data = reply.json()
    assert data["names"] == ["Player 1", "Computer (Beginner)"]  # a person who gave no name
    assert len(data["hands"]) == 4
    assert data["end"].startswith("The game is over")
    _check_replay(data, _terminal_replay(path))


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"", "the record is empty"),
        (b'{"format": "umtali-record", "players": ["Ann"', "the record is cut short (byte 45)"),
        (b"[1, 2", "the record is not valid JSON"),
        (b"hello", "the record is not valid JSON"),
        (b"\xff\xfe\x00", "it is not UTF-8 text (byte 0 is not)"),
        (b'{"format": "chess"}', "format"),
    ],
)
def test_a_bad_record_is_refused_with_what_is_wrong(
    client: TestClient, content: bytes, words: str
) -> None:
    reply = client.post(REPLAY_PATH, content=content)
    assert reply.status_code == 422
    detail = reply.json()["detail"]
    assert detail.startswith("cannot replay this record: ")
    assert words in detail


def test_an_edited_record_is_refused_as_the_terminal_refuses_it(
    client: TestClient, tmp_path: Path
) -> None:
    game = Match(kind="game", first_dealer=1)
    LESSONS[0].replay(game.new_hand(LESSONS[0].deck()))
    path = tmp_path / "edited.json"
    save_file(game, path)
    path.write_text(path.read_text().replace("play 10♦ off J♦", "play 8♦ off J♦", 1))
    reply = client.post(REPLAY_PATH, content=path.read_bytes())
    assert reply.status_code == 422
    assert "the record was changed after it was saved" in reply.json()["detail"]
    out = io.StringIO()
    assert umtali(["replay", str(path)], out=out) == 2
    data = json.loads(path.read_text())
    del data["digest"]
    reply = client.post(REPLAY_PATH, content=json.dumps(data).encode())
    assert reply.json()["detail"] == (
        "cannot replay this record: hand 1, move 13 'play 8♦ off J♦': 8♦ is not in Player 2's hand"
    )


def test_a_record_over_the_cap_is_refused_before_it_is_read(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'umtali.db'}", max_body=4 * REPLAY_MAX_BYTES)
    with TestClient(app) as client:
        reply = client.post(REPLAY_PATH, content=b" " * (REPLAY_MAX_BYTES + 1))
    assert reply.status_code == 413
    # Refused by the route, or by the application's limit for this route: either way
    # the reason names the cap.
    detail = reply.json()["detail"]
    assert "at most 2 MiB" in detail or f"at most {REPLAY_MAX_BYTES:,} bytes" in detail


def _session_record(tmp_path: Path) -> bytes:
    """A valid record well over 16 KiB: a whole session between two random players."""
    session = PlaySession.between_bots(("random", "random"), 5, kind="session")
    session.play_out()
    path = tmp_path / "session.json"
    save_file(session.match, path)
    return path.read_bytes()


def test_a_record_over_16_kib_is_replayed_by_the_served_app(
    client: TestClient, tmp_path: Path
) -> None:
    content = _session_record(tmp_path)
    assert len(content) > 16 * 1024
    reply = client.post(REPLAY_PATH, content=content)
    assert reply.status_code == 200, reply.text
