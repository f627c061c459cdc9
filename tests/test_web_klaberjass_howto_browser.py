"""How to play Klaberjass in a real browser: a real ``umtali serve`` process and Debian's
chromium driven by Playwright. The page is reached from the home page's Learn panel, a
refused card and a right one are clicked, and the lesson is walked by clicks to its
score, which is the engine's."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.servers import ServerProcess
from tests.test_web_browser import WAIT_MS, open_home
from umtali.games.klaberjass.learn.howto import page as howto_page


@pytest.fixture
def server(web_server: ServerProcess) -> ServerProcess:
    """The session's server: the lesson changes nothing on it."""
    return web_server


def test_the_klaberjass_lesson_is_walked_by_clicks_to_the_score(
    browser: Browser, server: ServerProcess
) -> None:
    lesson = howto_page(1)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    open_home(page, server)
    page.click(".learn-links a[href='/learn/klaberjass']")
    page.wait_for_selector("#howto-start", timeout=WAIT_MS)
    page.click("#howto-start")
    for step in lesson.steps:
        assert page.inner_text("#howto-progress") == f"Move {step.number} of {len(lesson.steps)}"
        assert page.inner_text("#howto-ask") == step.ask
        refused = next((o for o in step.options if o.kind == "illegal" and o.card), None)
        if refused is not None and step.number in (5, 9):
            # A card the rules forbid is refused with the engine's reason; the move waits.
            page.click(f'#howto-hand-{step.player} button[data-card="{refused.card}"]')
            assert page.inner_text("#howto-verdict") == refused.message
            assert page.is_hidden("#howto-next")
        if step.answer_card is not None:
            page.click(f'#howto-hand-{step.player} button[data-card="{step.answer_card}"]')
        elif step.words:
            page.click(f'#howto-words button[data-move="{step.answer}"]')
        else:  # pragma: no cover - every move is a card or a bid
            page.click("#howto-show")
        assert page.inner_text("#howto-verdict") == f"Right: {step.answer}, the lesson's move."
        assert page.inner_text("#howto-move") == step.told
        # The other hand's cards are shown, never offered.
        assert page.locator(f"#howto-hand-{1 - step.player} button").count() == 0
        page.click("#howto-next")
    page.wait_for_selector("#howto-end", state="visible", timeout=WAIT_MS)
    ending = page.inner_text("#howto-ending")
    assert "Player 2 made trump with 105 against 67 and makes it" in ending
    assert all(line in ending for line in lesson.ending)
    assert page.inner_text("#howto-tally") == (
        f"You chose the lesson's move at {len(lesson.steps)} of {len(lesson.steps)} moves."
    )
    assert errors == []
    page.close()
