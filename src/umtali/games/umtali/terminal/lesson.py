"""``umtali lesson N``: one of the rule book's four lesson hands, in the terminal.

The lesson itself is :func:`umtali.games.umtali.learn.lesson.steps`, a script of events;
this module draws each event with rich, asks the questions and prints the verdicts.
"""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from umtali.cli.answers import ask_until_read, bullet
from umtali.cli.cards import hand_text, top_discard_text
from umtali.cli.terminal import QUIT_WORDS, QuitRequested, Terminal
from umtali.games.umtali.learn.lesson import (
    Ask,
    Board,
    HandOver,
    Holds,
    Narrate,
    Opening,
    Pause,
    Play,
    Scores,
    Step,
    Summary,
    Tally,
    TurnStart,
    steps,
)
from umtali.games.umtali.learn.question import Question
from umtali.games.umtali.state import HandState, player_name
from umtali.games.umtali.terminal.render import table_side
from umtali.learn.answers import Unanswered, normalize
from umtali.learn.verdict import Verdict

__all__ = ["run_lesson", "score_table"]


def _board(state: HandState, show_points: bool = True) -> RenderableType:
    """Both hands and both sides of the table: a lesson shows everything."""
    parts: list[RenderableType] = []
    status = Text(f"Stock {state.stock_size()}   Top discard ")
    pile = [None if face_down else card for card, face_down in state.discard_pile()]
    status.append_text(top_discard_text(pile))
    status.append(f"   Dealer: {player_name(state.dealer)}")
    parts.append(status)
    for p in (0, 1):
        label = player_name(p)
        parts.append(Text())
        hand = state.hand(p)
        line = Text(f"{label}'s hand ({len(hand)}): ", style="bold")
        if hand:
            line.append_text(hand_text(hand))
        else:
            line.append("(empty)", style="dim")
        parts.append(line)
        parts.append(table_side(state.table(p), f"{label}'s side"))
    if show_points:
        parts.append(Text())
        parts.append(
            Text(f"Points on the table: Player 1 {state.points[0]}, Player 2 {state.points[1]}")
        )
    return Group(*parts)


def score_table(scores: Scores) -> RenderableType:
    """The hand's scores column by column, a grid for each player, the two grids of the
    same widths so that they line up: the sums are set right, so that their ``=`` signs
    line up, and so are the points."""
    lines = [line for side in scores.sides for line in side.lines]
    widths = (
        max((len(line.what) for line in lines), default=0) + 3,  # two spaces in, one after
        max((len(line.cards) for line in lines), default=0) + 1,
        max((len(line.values) for line in lines), default=0),
        1,
        max((len(str(line.points)) for line in lines), default=0),
    )
    parts: list[RenderableType] = []
    for side in scores.sides:
        parts.append(Text(f"{side.label}: {side.score}", style="bold"))
        if side.lines:
            grid = Table.grid(padding=(0, 1))
            for i, width in enumerate(widths):
                grid.add_column(width=width, justify="right" if i in (2, 4) else "left")
            for line in side.lines:
                grid.add_row(
                    f"  {line.what}",
                    line.cards,
                    line.values,
                    "=" if line.values else "",
                    str(line.points),
                )
            parts.append(grid)
        parts.append(Text())
    parts.append(Text(scores.result))
    return Group(*parts)


def _sentence(text: str) -> str:
    return text if text.endswith((".", "!", "?")) else text + "."


class _Lesson:
    """One run of one lesson in the terminal: the events drawn, the answers tallied."""

    def __init__(self, term: Terminal) -> None:
        self.term = term
        self.tally = Tally()
        self.asked_last = False  # a question's verdict is on screen, the story resumes

    def say(self, text: str, style: str | None = None) -> None:
        self.term.say(Text(text), style=style)

    def bullet(self, text: str | Text, marker: str = "•") -> None:
        self.term.say(bullet(self.term, marker, text))

    def ask(self, question: Question) -> None:
        """Put one question, read answers until one can be graded, and explain."""
        self.tally.asked += 1
        self.term.blank()
        head = Text(f"Question {self.tally.asked}: ", style="bold magenta")
        head.append(question.prompt)
        self.term.say(head)
        mark = ":" if question.kind == "meld_choice" else ")"
        for key, text in question.choices:
            self.say(f"   {key}{mark} {text}")
        verdict = ask_until_read(
            self.term, question.answer_prompt, question.grade, question.expects
        )
        if verdict is Unanswered.SKIPPED:
            self.tally.skipped += 1
            self.say("Skipped.", style="dim")
        elif verdict is Unanswered.NO_VALID_ANSWER:
            self.say("Here is the answer.", style="dim")
        if isinstance(verdict, Unanswered):
            self.explain(question.reveal(), question)
            return
        if verdict.correct:
            self.tally.right += 1
            self.say(f"Right: {_sentence(verdict.answer)}", style="bold green")
        else:
            self.say(f"Not quite. The answer: {_sentence(verdict.answer)}", style="bold red")
            for mistake in verdict.mistakes:
                self.bullet(Text(_sentence(mistake), style="yellow"))
        self.explain(verdict, question, header=False)

    def explain(self, verdict: Verdict, question: Question, header: bool = True) -> None:
        if header:
            self.say(f"The answer: {_sentence(verdict.answer)}", style="bold")
        for reason in verdict.reasons:
            self.bullet(_sentence(reason))
        if question.why:
            self.bullet(question.why)

    def show(self, step: Step) -> None:
        """Draw one event of the lesson (asking it, for a question)."""
        if self.asked_last and isinstance(step, Play):
            self.term.blank()
        self.asked_last = isinstance(step, Ask)
        if isinstance(step, Opening):
            self.say(f"Lesson {step.number}: {step.title}", style="bold underline")
            self.say(step.intro)
        elif isinstance(step, TurnStart):
            self.term.blank()
            self.say(f"Turn {step.number} · {step.label}", style="bold cyan")
            self.say(step.note)
        elif isinstance(step, Play):
            self.bullet(step.sentence, marker="▸")
        elif isinstance(step, Holds):
            line = Text(f"{player_name(step.player)} now holds: ")
            line.append_text(hand_text(step.hand))
            self.term.say(line)
        elif isinstance(step, Board):
            self.term.blank()
            if step.caption:
                self.say(f"{step.caption}:", style="bold")
            self.term.say(_board(step.state, show_points=step.show_points))
        elif isinstance(step, Ask):
            self.ask(step.question)
        elif isinstance(step, Narrate):
            self.term.blank()
            for point in step.points:
                self.bullet(point)
        elif isinstance(step, Pause):
            self.term.blank()
            reply = self.term.ask("Press Enter for the next turn (or type quit): ")
            if normalize(reply) in QUIT_WORDS:
                raise QuitRequested
        elif isinstance(step, HandOver):
            self.term.blank()
            self.say("The hand is over.", style="bold cyan")
        elif isinstance(step, Scores):
            self.term.blank()
            self.say("The score, column by column:", style="bold")
            self.term.say(score_table(step))
        else:
            self.summary(step)

    def summary(self, step: Summary) -> None:
        totals = step.totals
        self.term.blank()
        self.say(f"The game after hand {step.number}: Player 1 {totals[0]}, Player 2 {totals[1]}.")
        self.term.blank()
        self.say("What to remember:", style="bold")
        for point in step.points:
            self.bullet(point)
        self.term.blank()
        self.say(self.tally.line(), style="bold")
        if step.next_lesson is not None:
            self.say(f"Next: umtali lesson {step.next_lesson}")


def run_lesson(term: Terminal, number: int) -> int:
    """Walk the learner through lesson hand ``number`` (1 to 4) on ``term``; return 0.

    ``quit`` at any prompt, or the end of input, raises :class:`QuitRequested` after the
    tally of the questions so far is shown.
    """
    script = steps(number)
    run = _Lesson(term)
    try:
        for step in script:
            run.show(step)
    except QuitRequested:
        if run.tally.asked:
            term.blank()
            term.say(Text(run.tally.line()))
        raise
    return 0
