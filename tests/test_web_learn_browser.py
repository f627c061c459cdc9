"""The learning pages in a real browser (headless chromium, tests/browser.py) against a
real ``umtali serve`` (tests/servers.py): a lesson completed by clicks, the quiz
answered, a record opened and stepped through, on a phone's width and a desktop's."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, expect

from tests.browser import DESKTOP, PHONE
from tests.scripted import BOOK_ANSWERS
from tests.servers import ServerProcess
from umtali.cli.main import main as umtali
from umtali.games.umtali.lessons import LESSONS
from umtali.games.umtali.match import Match
from umtali.kernel.record import save_file

TIMEOUT_MS = 15_000


@pytest.fixture
def server(web_server: ServerProcess) -> ServerProcess:
    """The tests' shared server (tests/conftest.py): the learning pages keep nothing."""
    return web_server


@pytest.fixture
def errors() -> list[str]:
    """The page's uncaught script errors, which a test expects to stay empty."""
    return []


@pytest.fixture
def contexts() -> Iterator[list[BrowserContext]]:
    """The test's browser contexts, closed when it ends."""
    opened: list[BrowserContext] = []
    yield opened
    for context in opened:
        context.close()


@pytest.fixture
def new_page(
    browser: Browser, errors: list[str], contexts: list[BrowserContext]
) -> Callable[[ViewportSize], Page]:
    """Open a page of the given size in a context of its own; its script errors go to
    ``errors``."""

    def opened(viewport: ViewportSize) -> Page:
        context = browser.new_context(viewport=viewport)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(TIMEOUT_MS)
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    return opened


def _fits(page: Page) -> None:
    """Nothing sticks out sideways: the page scrolls only down, even on a phone."""
    width = page.evaluate("document.documentElement.scrollWidth")
    assert page.viewport_size is not None
    assert width <= page.viewport_size["width"]


# Lesson 3, answered by clicks wherever the page offers them: the cards of the hand, the
# choices; typed where an answer is a word or numbers. The first answer is wrong.
LESSON_3 = [
    ("pick", ["Js", "Jh", "Jd", "Qh"]),  # misses Q♣
    ("type", "none"),
    ("choice", "sequence"),
    ("choice", "b"),
    ("type", "33 52"),
]


def test_a_lesson_is_completed_by_clicks_on_a_phone(
    new_page: Callable[[ViewportSize], Page], server: ServerProcess, errors: list[str]
) -> None:
    page = new_page(PHONE)
    page.goto(f"{server.url}/learn")
    page.get_by_role("button", name="Lesson 3").click()
    expect(page.locator("h2.lesson-title")).to_contain_text("Lesson 3: Three Jacks")
    plan = iter(LESSON_3)
    answered = 0
    while True:
        page.wait_for_selector("button.continue, form.answer-form:not(.answered), section.summary")
        if page.locator("section.summary").count():
            break
        form = page.locator("form.answer-form:not(.answered)")
        if not form.count():
            page.locator("button.continue").click()
            continue
        how, what = next(plan)
        if how == "pick":
            for card in what:
                form.locator(f'button.pick:has(svg[data-card="{card}"])').click()
            expect(form.locator("input")).to_have_value(" ".join(what))
            expect(form.locator(".built-answer")).to_have_text("Your answer: J♠ J♥ J♦ Q♥")
            expect(form.locator(f'button.pick:has(svg[data-card="{what[0]}"])')).to_have_attribute(
                "aria-pressed", "true"
            )
            form.get_by_role("button", name="Answer").click()
        elif how == "choice":
            form.locator("button.choice", has_text=str(what)).first.click()
        else:
            form.locator("input").fill(str(what))
            form.locator("input").press("Enter")
        answered += 1
        expect(page.locator("form.answer-form.answered")).to_have_count(answered)
    assert answered == len(LESSON_3)
    verdicts = page.locator(".question .verdict")
    expect(verdicts.nth(0)).to_have_text("Not quite. The answer: J♦, J♥, Q♥, Q♣, J♠.")
    expect(page.locator(".question .mistakes").first).to_contain_text("missing: Q♣")
    expect(page.locator(".question.right")).to_have_count(4)
    expect(page.locator(".tally")).to_have_text("You answered 4 of 5 questions correctly.")
    expect(page.locator(".scores .result")).to_have_text(
        "Player 2 wins the hand and deals the next one."
    )
    expect(page.get_by_role("button", name="Next: lesson 4")).to_be_focused()
    _fits(page)
    assert errors == []


def test_the_quiz_is_answered_and_scored(
    new_page: Callable[[ViewportSize], Page], server: ServerProcess, errors: list[str]
) -> None:
    page = new_page(DESKTOP)
    page.goto(f"{server.url}/quiz")
    expect(page.locator("h1")).to_have_text("Umtali self-test")
    page.get_by_role("button", name="Begin").click()
    for number, answer in enumerate(BOOK_ANSWERS, start=1):
        question = page.locator("section.question")
        expect(question.locator(".quiz-progress")).to_contain_text(f"Question {number} of 12")
        box = question.locator("input.answer-input")
        # Question 2 is answered wrong, after one answer that cannot be read.
        if number == 2:
            box.fill("perhaps")
            box.press("Enter")
            expect(question.locator(".form-message")).to_contain_text("is neither yes nor no")
            box.fill("yes")
        else:
            box.fill(answer)
        box.press("Enter")
        verdict = question.locator(".verdict")
        expect(verdict).to_have_text("Wrong." if number == 2 else "Right.")
        if number == 2:
            expect(question.locator(".reasons")).to_contain_text("accepts: 10♥ 6♥")
        last = "See your score" if number == 12 else "Next question"
        expect(page.get_by_role("button", name=last)).to_be_focused()
        page.keyboard.press("Enter")
    expect(page.locator(".score-line")).to_have_text("Score: 11/12")
    missed = page.locator(".missed > li")
    expect(missed).to_have_count(1)
    expect(missed).to_contain_text("answer: no")
    _fits(page)
    assert errors == []


# The quiz answered by clicks where the page offers them: question 1's plays group by
# group, question 4 wrong (4♣ left out), 5 right, the yes-or-no questions by their
# buttons; question 7's number typed. (None: typed from the book's answers.)
QUIZ_CLICKS: dict[int, list[list[str]] | str] = {
    1: [["Js"], ["10s"], ["10h"], ["4d", "3d", "2d"], ["Kc", "Qc"]],
    2: "no",
    3: "yes",
    4: [["5s", "5h", "5d", "6c"]],
    5: [["Kh", "Kd"]],
    6: "no",
}


def test_the_quiz_is_answered_by_clicks_on_a_phone(
    new_page: Callable[[ViewportSize], Page], server: ServerProcess, errors: list[str]
) -> None:
    page = new_page(PHONE)
    page.goto(f"{server.url}/quiz")
    page.get_by_role("button", name="Begin").click()
    for number, answer in enumerate(BOOK_ANSWERS, start=1):
        question = page.locator("section.question")
        expect(question.locator(".quiz-progress")).to_contain_text(f"Question {number} of 12")
        form = question.locator("form.answer-form")
        clicks = QUIZ_CLICKS.get(number)
        if isinstance(clicks, str):
            expect(form.locator("button.pick")).to_have_count(0)
            form.get_by_role("button", name=clicks, exact=True).click()
        elif clicks is not None:
            expect(form.locator("button.choice")).to_have_count(0)
            pick = form.locator("button.pick")
            if number == 1:
                # A card clicked twice is taken back.
                pick.and_(page.get_by_label("9♣")).click()
                expect(pick.and_(page.get_by_label("9♣"))).to_have_attribute("aria-pressed", "true")
                pick.and_(page.get_by_label("9♣")).click()
                expect(pick.and_(page.get_by_label("9♣"))).to_have_attribute(
                    "aria-pressed", "false"
                )
            for i, group in enumerate(clicks):
                if i:
                    form.get_by_role("button", name="Next group").click()
                for card in group:
                    form.locator(f'button.pick:has(svg[data-card="{card}"])').click()
            expect(form.locator("input")).to_have_value(", ".join(" ".join(g) for g in clicks))
            if number == 1:
                expect(form.locator(".built-answer")).to_have_text(
                    "Your answer: J♠, 10♠, 10♥, 4♦ 3♦ 2♦, K♣ Q♣"
                )
            else:
                expect(form.get_by_role("button", name="Next group")).to_have_count(0)
            form.get_by_role("button", name="Answer").click()
        else:
            form.locator("input").fill(answer)
            form.locator("input").press("Enter")
        wrong = number == 4
        expect(question.locator(".verdict")).to_have_text("Wrong." if wrong else "Right.")
        if wrong:
            expect(question.locator(".mistakes")).to_contain_text("You missed 4♣")
            expect(question.locator(".answer")).to_contain_text("5♠ 5♥ 5♦ 6♣ 4♣")
        last = "See your score" if number == 12 else "Next question"
        page.get_by_role("button", name=last).click()
    expect(page.locator(".score-line")).to_have_text("Score: 11/12")
    expect(page.locator(".missed > li")).to_contain_text("answer: 5♠ 5♥ 5♦ 6♣ 4♣")
    _fits(page)
    assert errors == []


def save_lesson_game(folder: Path) -> Path:
    """The four lesson hands saved as one game in ``folder``, as ``umtali play`` saves
    a game: its file."""
    game = Match(kind="game", first_dealer=1, players=("Ann", "Ben"))
    for lesson in LESSONS:
        lesson.replay(game.new_hand(lesson.deck()))
    path = folder / "lessons-game.json"
    save_file(game, path)
    return path


@pytest.fixture(scope="module")
def lesson_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The four lesson hands saved as one game, as ``umtali play`` saves a game."""
    return save_lesson_game(tmp_path_factory.mktemp("records"))


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_record_is_opened_and_stepped_through(
    new_page: Callable[[ViewportSize], Page],
    server: ServerProcess,
    errors: list[str],
    lesson_game: Path,
    viewport: ViewportSize,
) -> None:
    page = new_page(viewport)
    page.goto(f"{server.url}/replay")
    page.set_input_files("#record-file", str(lesson_game))
    expect(page.locator("#heading")).to_have_text(
        "Game between Ann (Player 1) and Ben (Player 2), rules: standard"
    )
    count = page.locator("#count")
    expect(count).to_contain_text("Step 1 of ")
    total = int(count.inner_text().split(" of ")[1].split(" ")[0])
    expect(page.locator("#view h2")).to_have_text("The deal")
    expect(page.locator("#view .moves")).to_have_text("Player 2 deals and keeps the 11th card")
    # Both hands face up: Ben dealt and kept the eleventh card.
    hands = page.locator("#view .seat .hand svg.card")
    expect(hands).to_have_count(21)
    page.keyboard.press("ArrowRight")
    expect(count).to_contain_text("Step 2 of ")
    expect(page.locator("#view h2")).to_have_text("Turn 1 · Player 2")
    expect(page.locator("#view .moves li").first).to_have_text("Player 2 lays the group K♠ K♥ K♣")
    page.get_by_role("button", name="Next ▶").click()
    page.keyboard.press("ArrowLeft")
    expect(count).to_contain_text("Step 2 of ")
    # The hand's last step: its result and its score, column by column.
    page.keyboard.press("End")
    expect(page.locator("#view .hand-end h3")).to_have_text("Player 1 wins the hand, 31 to 28.")
    expect(page.locator("#view .score-table caption").first).to_have_text("Player 1: 31")
    # Jump to the last hand, then to the very end: the game's totals and its winner.
    page.get_by_role("button", name="Hand 4").click()
    expect(page.get_by_role("button", name="Hand 4")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#view h2")).to_have_text("The deal")
    page.get_by_role("button", name="Last »").click()
    expect(count).to_contain_text(f"Step {total} of {total}")
    expect(page.get_by_role("button", name="Next ▶")).to_be_disabled()
    expect(page.locator("#view .hand-end")).to_contain_text("Game 1 totals: 159–110.")
    expect(page.locator("#view .hand-end")).to_contain_text("The game is over: won by Ann.")
    page.keyboard.press("PageUp")
    expect(page.get_by_role("button", name="Hand 3")).to_have_attribute("aria-pressed", "true")
    _fits(page)
    assert errors == []


def test_a_bad_record_is_refused_on_the_page(
    new_page: Callable[[ViewportSize], Page],
    server: ServerProcess,
    errors: list[str],
    tmp_path: Path,
) -> None:
    demo = tmp_path / "demo.json"
    assert umtali(["demo", "--seed", "3", "--save", str(demo)], out=io.StringIO()) == 0
    cut = tmp_path / "cut.json"
    cut.write_bytes(demo.read_bytes()[:200])
    page = new_page(DESKTOP)
    page.goto(f"{server.url}/replay")
    page.set_input_files("#record-file", str(cut))
    expect(page.locator("#status")).to_have_text(
        "cut.json: cannot replay this record: the record is cut short (byte 200):"
        " its text stops before the record is complete"
    )
    expect(page.locator("#replay")).to_be_hidden()
    page.set_input_files("#record-file", str(demo))
    expect(page.locator("#heading")).to_have_text(
        "Hand between Player 1 and Player 2, rules: standard"
    )
    assert errors == []
