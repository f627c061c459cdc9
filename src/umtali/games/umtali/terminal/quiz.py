"""``umtali quiz``: the book's twelve self-test questions, in the terminal.

The questions, their positions and their grading are
:mod:`umtali.games.umtali.learn.quiz`'s; this module draws each position with rich, reads
the answers, shows the verdicts and ends with the score and the reasons for every miss.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import RenderableType
from rich.text import Text

from umtali.cli.answers import ask_until_read, bullet
from umtali.cli.cards import hand_text, pile_text
from umtali.cli.terminal import QuitRequested, Terminal
from umtali.games.umtali.learn.question import Position, Question
from umtali.games.umtali.learn.quiz import Result, build_questions, quiz_intro
from umtali.games.umtali.terminal.render import table_side
from umtali.learn.answers import MAX_TRIES, Unanswered, counted
from umtali.learn.verdict import Verdict

__all__ = ["ask_question", "position_parts", "run_quiz"]


def position_parts(position: Position) -> tuple[RenderableType, ...]:
    """What the learner is shown, top to bottom, for the terminal."""
    parts: list[RenderableType] = []
    if position.note:
        parts.append(Text(position.note, style="dim"))
    for side in position.sides:
        parts.append(table_side(side.columns, side.caption))
    if position.hand is not None:
        hand = Text(f"{position.hand_caption}: ", style="bold")
        hand.append_text(hand_text(position.hand))
        parts.append(hand)
    if position.pile is not None:
        pile = Text(f"{position.pile_caption}: ")
        pile.append_text(pile_text(position.pile, face_down="[face down]"))
        parts.append(pile)
    return tuple(parts)


def _bullets(term: Terminal, lines: Sequence[str], indent: int = 2) -> None:
    for line in lines:
        term.say(bullet(term, "-", line, indent=indent))


def _show_verdict(term: Terminal, verdict: Verdict, how: str) -> None:
    if verdict.correct:
        term.say(Text("Right.", style="bold green"))
        return
    if how == "skipped":
        term.say(Text("Skipped (counted as wrong).", style="bold yellow"))
    elif how == "no valid answer":
        term.say(
            Text(
                f"No answer in the expected form after {MAX_TRIES} tries (counted as wrong).",
                style="bold yellow",
            )
        )
    else:
        term.say(Text("Wrong.", style="bold red"))
        _bullets(term, verdict.mistakes)
    term.say(Text(f"The answer: {verdict.answer}", style="bold"))
    if verdict.reasons:
        term.say(Text("Why:"))
        _bullets(term, verdict.reasons)


def ask_question(term: Terminal, question: Question, total: int) -> Result:
    """Show ``question``, read answers until one is well formed (at most :data:`MAX_TRIES`),
    grade it and show the verdict. ``skip`` counts as wrong, ``quit`` stops the quiz."""
    term.blank()
    term.say(Text(f"Question {question.number} of {total} · {question.topic}", style="bold"))
    term.say(Text(question.prompt))
    if question.position is not None:
        for part in position_parts(question.position):
            term.say(part)
    if question.format_first:
        term.say(Text(question.expects, style="dim"))
    verdict = ask_until_read(term, question.answer_prompt, question.grade, question.expects)
    if isinstance(verdict, Unanswered):
        result = Result(question, question.reveal(), verdict.value)
    else:
        result = Result(question, verdict)
        if verdict.read_as is not None:
            term.say(Text(f"Read as: {verdict.read_as}", style="dim"))
    _show_verdict(term, result.verdict, result.how)
    return result


def _summary(term: Terminal, results: Sequence[Result], total: int, stopped: bool) -> None:
    right = sum(r.verdict.correct for r in results)
    term.blank()
    if stopped:
        term.say(
            Text(
                f"Stopped after {len(results)} of {counted(total, 'question')}:"
                f" {right} right so far.",
                style="bold",
            )
        )
    else:
        term.say(Text(f"Score: {right}/{total}", style="bold"))
    missed = [r for r in results if not r.verdict.correct]
    if not missed:
        return
    term.say(Text("Questions missed:"))
    width = len(str(max(r.question.number for r in missed)))
    for r in missed:
        how = "" if r.how == "answered" else f" ({r.how})"
        answer = r.verdict.answer
        number = f"{r.question.number:>{width}}."
        term.say(bullet(term, number, f"{r.question.topic}{how} — answer: {answer}"))
        _bullets(term, (*r.verdict.mistakes, *r.verdict.reasons), indent=width + 4)


def run_quiz(term: Terminal, questions: Sequence[Question] | None = None) -> int:
    """Ask the self-test questions (the book's twelve unless ``questions`` is given), grade
    each with the engine, and end with the score and the reasons for every miss.

    End of input stops the quiz after a summary of the answers so far
    (:class:`QuitRequested` propagates to the caller). Returns the exit status, 0.
    """
    if questions is None:
        questions = build_questions()
    total = len(questions)
    title, intro = quiz_intro(total)
    term.say(Text(title, style="bold underline"))
    term.say(Text(intro))
    results: list[Result] = []
    try:
        for question in questions:
            results.append(ask_question(term, question, total))
    except QuitRequested:
        _summary(term, results, total, stopped=True)
        raise
    _summary(term, results, total, stopped=False)
    return 0
