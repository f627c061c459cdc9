"""A quiz of typed answers at the terminal (``umtali quiz`` for a game whose quiz is a
:class:`~umtali.learn.quizzing.Quiz`, Klaberjass's): each question asked until its
answer can be read, graded by the game, and the score with what was missed at the end.
This module names no game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text

from umtali.cli.answers import ask_until_read, bullet
from umtali.cli.terminal import QuitRequested, Terminal
from umtali.learn.answers import MAX_TRIES, Unanswered, counted
from umtali.learn.quizzing import Quiz, TypedQuestion
from umtali.learn.verdict import Verdict

__all__ = ["quizzer", "run_typed_quiz"]


def _points(term: Terminal, lines: Sequence[str], indent: int = 2) -> None:
    for line in lines:
        term.say(bullet(term, "-", line, indent=indent))


def _ask(term: Terminal, question: TypedQuestion, total: int) -> tuple[Verdict, str]:
    term.blank()
    term.say(Text(f"Question {question.number} of {total} · {question.topic}", style="bold"))
    term.say(Text(question.prompt))
    got = ask_until_read(term, question.answer_prompt, question.grade, question.expects)
    if isinstance(got, Unanswered):
        verdict, how = question.reveal(), got.value
    else:
        verdict, how = got, "answered"
    if verdict.correct:
        term.say(Text("Right.", style="bold green"))
    else:
        if how == "skipped":
            term.say(Text("Skipped (counted as wrong).", style="bold yellow"))
        elif how == "answered":
            term.say(Text("Wrong.", style="bold red"))
            _points(term, verdict.mistakes)
        else:
            term.say(
                Text(
                    f"No answer in the expected form after {MAX_TRIES} tries (counted as wrong).",
                    style="bold yellow",
                )
            )
        term.say(Text(f"The answer: {verdict.answer}", style="bold"))
    if question.why:
        term.say(Text(question.why, style="italic"))
    return verdict, how


def run_typed_quiz(term: Terminal, quiz: Quiz) -> int:
    """Ask ``quiz``'s questions in order and end with the score and what was missed;
    ``quit`` (or the end of input) stops after the score so far
    (:class:`QuitRequested` goes on to the caller). Returns the exit status, 0."""
    total = len(quiz.questions)
    term.say(Text(quiz.title, style="bold underline"))
    term.say(Text(f"{quiz.intro} Type 'quit' to stop."))
    missed: list[tuple[TypedQuestion, Verdict, str]] = []
    right = 0
    asked = 0
    try:
        for question in quiz.questions:
            verdict, how = _ask(term, question, total)
            asked += 1
            if verdict.correct:
                right += 1
            else:
                missed.append((question, verdict, how))
    except QuitRequested:
        term.blank()
        term.say(
            Text(
                f"Stopped after {counted(asked, 'question')} of {total}: {right} right so far.",
                style="bold",
            )
        )
        raise
    term.blank()
    term.say(Text(f"Score: {right}/{total}", style="bold"))
    if missed:
        term.say(Text("Questions missed:"))
        for question, verdict, how in missed:
            note = "" if how == "answered" else f" ({how})"
            term.say(
                bullet(
                    term,
                    f"{question.number}.",
                    f"{question.topic}{note} — answer: {verdict.answer}",
                )
            )
    return 0


def quizzer(build: Callable[[], Quiz]) -> Callable[[Terminal], int]:
    """What :class:`~umtali.cli.hook.Teaching` runs for the quiz: ``build()`` asked."""

    def run(term: Terminal) -> int:
        return run_typed_quiz(term, build())

    return run
