"""Answers typed to the lessons and the quiz, shared by the tests of the learn layer and
of the terminal commands, and a terminal that reads them."""

from __future__ import annotations

import io
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from umtali.cli.terminal import Terminal


def typed_terminal(
    lines: list[str], width: int = 200, wraps: bool = False
) -> tuple[Terminal, io.StringIO]:
    """A plain terminal ``width`` columns wide that reads ``lines`` one by one, then the
    end of input, and the text it writes; with ``wraps``, it wraps long lines at its
    width, as a real terminal does (a file or a pipe keeps them whole)."""
    # Imported here: the learn layer's tests share the answers, not the terminal.
    from umtali.cli.terminal import Terminal

    out = io.StringIO()
    feed: Iterator[str] = iter(lines)

    def read(_prompt: str) -> str:
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    term = Terminal(out, read, color=False, width=width)
    term.console.soft_wrap = not wraps
    return term, out


def wrapped_bullets(
    whole: str, wrapped: str, markers: tuple[str, ...], width: int
) -> dict[str, str]:
    """For each bullet point of ``whole`` (lines kept whole) that starts with one of
    ``markers`` and is too long for ``width``, the line that continues it in ``wrapped``
    (the same text wrapped at that width), by the bullet's first line."""
    lines = [line.rstrip() for line in wrapped.splitlines()]
    found = {}
    for line in whole.splitlines():
        line = line.rstrip()
        if len(line) <= width or not line.lstrip().startswith(markers):
            continue
        for i, first in enumerate(lines[:-1]):
            # The first line of the point, wrapped: a good part of it, a word short.
            if len(first) > width // 2 and line.startswith(first + " "):
                found[first] = lines[i + 1]
    return found


# Right answers, and Enter between turns, for the whole of each lesson.
LESSON_RIGHT: dict[int, list[str]] = {
    1: ["Ks Kh Kc 3h 2h Ah", "", "js jd qd 7s 6s 5s", "", "yes", "", "no", "31 28"],
    2: ["Kd Qd", "20", "", "", "5c 4c 3c 10c 10d Qs", "", "", "no", "40 22"],
    3: ["Js Jh Jd Qh Qc", "none", "", "sequence", "", "b", "33 52"],
    4: [
        "none",
        "Ah",
        "",
        "Kc Qc As Ah Ad",
        "",
        "no",
        "",
        "2c",
        "",
        "no",
        "",
        "",
        "no",
        "55 8",
        "159 110",
    ],
}
LESSON_QUESTIONS = {1: 5, 2: 5, 3: 5, 4: 9}

# The book's answers to its self-test, typed the way the book prints them.
BOOK_ANSWERS = (
    "J♠, 10♠, 10♥, 4♦ 3♦ 2♦, K♣ Q♣",
    "no",
    "yes",
    "5♠ 5♥ 5♦ 6♣ 4♣",
    "K♥ K♦",
    "no",
    "40",
    "no",
    "no",
    "yes",
    "no",
    "J♠, 10♠, 9♠, 10♦, 7♥ 7♦ 7♣",
)

# The same answers in other spellings, cases and orders.
OTHER_SPELLINGS = (
    "10h, js, TS, 2d 3d 4D, qc kc",
    "N",
    "Y",
    "4c, 6c, 5d, 5h, 5s",
    "kd and kh",
    "No.",
    "40 points",
    "n",
    "NO",
    "yes",
    "no",
    "7c 7d 7h; 10d, 9s, Ts, J♠",
)

# Wrong answers to the quiz, and what the engine says about each.
QUIZ_WRONG = {
    1: (
        "J♠, 10♠ 10♥, 4♦ 3♦ 2♦",
        [
            "10♠ must be played solo, not overlapped",
            "10♥ must be played solo, not overlapped",
            "a pair can be laid only to go out",
            "You missed K♣ Q♣",
            "every playable card must be played before the turn ends",
        ],
    ),
    2: (
        "yes",
        [
            "8♦ cannot be played: a sequence takes only the next card of its suit at either end",
            "accepts: 10♥ 6♥",
        ],
    ),
    4: (
        "5♠ 5♥ 5♦ 6♣ 7♣",
        [
            "a solo card takes only a card of its rank or the next card of its suit",
            "You missed 4♣",
        ],
    ),
    6: ("yes", ["nothing was discarded"]),
    7: ("30", ["30 is too low", "(5 + 5) × 2 = 20"]),
    9: ("yes", ["the top discard lies face down and cannot be drawn"]),
    10: ("no", ["a group takes only cards of its own rank", "accepts: 3♦"]),
    11: ("yes", ["The Rule says it must be overlapped in the meld 10♠ 10♥ 10♦"]),
    12: (
        "J♠ 10♠ 9♠, 10♦, 7♥ 7♦ 7♣",
        ["Jacks are never overlapped", "J♠ must be played solo", "9♠ must be played solo"],
    ),
}
