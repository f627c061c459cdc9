"""A hand walked through at the terminal (``umtali lesson N`` for a game whose lessons
are :class:`~umtali.learn.walkthrough.Walkthrough` s, Klaberjass's "how to play"): the
table shown with both hands open, the learner asked each move, his choice judged by the
lesson, the move told and explained, and the score at the end. This module names no
game: it draws what the lesson gives.

>>> import io
>>> from umtali.learn.walkthrough import Cards, Judgement, WalkStep, Walkthrough
>>> step = WalkStep(1, (("Your cards: ", Cards((0,))),), "Your move?", "Think.", "pass",
...     "You pass.", ("Nothing to take.",), lambda text: Judgement("shown", "The lesson plays: pass."))
>>> lesson = Walkthrough(1, "A test", ("A hand.",), (step,), (), ("You score 0.",), ("Pass.",))
>>> out = io.StringIO()
>>> walk(Terminal(out, color=False, width=60, read=lambda prompt: ""), lesson)
0
>>> "You pass." in out.getvalue() and "You chose the lesson's move" in out.getvalue()
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text

from umtali.cli.answers import bullet
from umtali.cli.cards import cards_text
from umtali.cli.terminal import QUIT_WORDS, QuitRequested, Terminal
from umtali.learn.answers import counted, normalize
from umtali.learn.walkthrough import Cards, Line, Walkthrough

__all__ = ["walk", "walker"]

_STYLES = {
    "same": "bold green",
    "other": "yellow",
    "illegal": "red",
    "unreadable": "red",
    "shown": "",
}


def _line(line: Line) -> Text:
    text = Text()
    for part in line:
        if isinstance(part, Cards):
            text.append_text(cards_text(part.cards))
        else:
            text.append(part)
    return text


def _table(term: Terminal, lines: Sequence[Line]) -> None:
    for line in lines:
        term.say(_line(line))


def _points(term: Terminal, lines: Sequence[str]) -> None:
    for line in lines:
        term.say(bullet(term, "-", line))


def walk(term: Terminal, lesson: Walkthrough) -> int:
    """Walk ``lesson`` at ``term``: a choice for every move (Enter shows the lesson's),
    ``quit`` stops (:class:`QuitRequested`). Returns the exit status, 0."""
    term.say(Text(f"Lesson {lesson.number}: {lesson.title}", style="bold underline"))
    for paragraph in lesson.intro:
        term.say(Text(paragraph))
    total = len(lesson.steps)
    same = 0
    for step in lesson.steps:
        term.blank()
        term.say(Text(f"Move {step.number} of {total}", style="bold"))
        _table(term, step.table)
        if step.before:
            term.say(Text(step.before, style="italic"))
        while True:
            text = term.ask(f"{step.ask} ")
            if normalize(text) in QUIT_WORDS:
                raise QuitRequested
            judgement = step.judge(text)
            term.say(Text(judgement.message, style=_STYLES[judgement.kind]))
            if judgement.settled:
                same += judgement.kind == "same"
                break
        term.say(Text(step.told, style="bold"))
        _points(term, step.why)
    term.blank()
    term.say(Text("The hand is over.", style="bold"))
    _table(term, lesson.end_table)
    _points(term, lesson.ending)
    term.blank()
    term.say(Text("To remember:", style="bold"))
    _points(term, lesson.summary)
    term.say(Text(f"You chose the lesson's move at {same} of {counted(total, 'move')}."))
    return 0


def walker(lessons: Callable[[int], Walkthrough]) -> Callable[[Terminal, int], int]:
    """What :class:`~umtali.cli.hook.Teaching` runs for lesson N: ``lessons(N)`` walked."""

    def run(term: Terminal, number: int) -> int:
        return walk(term, lessons(number))

    return run
