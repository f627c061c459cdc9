"""``umtali lesson N``: an interactive walk through one of the rule book's four lesson hands.

The hand is replayed move by move on a real :class:`~umtali.state.HandState` from the
data in :mod:`umtali.lessons`, with both hands face up, our commentary from
:mod:`umtali.cli.lesson_notes`, and questions at chosen moments, graded by
:mod:`umtali.cli.lesson_grading` against the engine.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from umtali.cards import CardSet, card_name, card_points, display_key
from umtali.cli.answers import Unanswered, ask_until_read, normalize
from umtali.cli.describe import describe_move
from umtali.cli.lesson_grading import (
    HINTS,
    Verdict,
    column_line,
    game_totals,
    grade,
    rest_of_hand,
    reveal,
)
from umtali.cli.lesson_notes import LESSON_NOTES, LessonNotes, Moment, Question
from umtali.cli.render import card_text, hand_text, table_side
from umtali.cli.terminal import QUIT_WORDS, QuitRequested, Terminal
from umtali.lessons import LESSONS, Lesson
from umtali.moves import column_order
from umtali.state import HandState, player_name

__all__ = [
    "run_lesson",
    "score_breakdown",
]


# -- rendering -----------------------------------------------------------------------


def _label(player: int, dealer: int) -> str:
    return player_name(player) + (" (dealer)" if player == dealer else "")


def _lesson_board(state: HandState, show_points: bool = True) -> RenderableType:
    """Both hands and both sides of the table: a lesson shows everything."""
    parts: list[RenderableType] = []
    status = Text(f"Stock {state.stock_size()}   Top discard ")
    pile = state.discard_pile()
    if not pile:
        status.append("(none)", style="dim")
    elif pile[-1][1]:
        status.append("(face down)", style="dim")
    else:
        status.append_text(card_text(pile[-1][0]))
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


def score_breakdown(state: HandState) -> RenderableType:
    """The hand's scores column by column (a marriage shown doubled), with the cards handed
    over, from the engine's columns and outcome."""
    outcome = state.outcome()
    if outcome is None:
        raise ValueError("the hand is not over")
    multiplier = state.rules.marriage_multiplier
    parts: list[RenderableType] = []
    for p in (0, 1):
        parts.append(Text(f"{_label(p, state.dealer)}: {outcome.scores[p]}", style="bold"))
        grid = Table.grid(padding=(0, 2))
        grid.add_column()
        grid.add_column()
        grid.add_column(justify="right")
        for column in state.table(p):
            what, names, total = column_line(column, multiplier)
            grid.add_row(f"  {what}", names, total)
        if outcome.forfeited and outcome.went_out and outcome.went_out[0] == p:
            cards = sorted(outcome.forfeited, key=display_key)
            values = " + ".join(str(card_points(c)) for c in cards)
            grid.add_row(
                f"  forfeited by {player_name(1 - p)}",
                " ".join(card_name(c) for c in cards),
                f"{values} = {outcome.forfeited.points()}",
            )
        if state.table(p) or outcome.forfeited:
            parts.append(grid)
        parts.append(Text())
    winner = outcome.winner
    if winner is None:
        parts.append(Text("A drawn hand: the same player deals again."))
    else:
        parts.append(Text(f"{player_name(winner)} wins the hand and deals the next one."))
    return Group(*parts)


# -- the interactive lesson --------------------------------------------------------------


def _sentence(text: str) -> str:
    return text if text.endswith((".", "!", "?")) else text + "."


class _Tally:
    def __init__(self) -> None:
        self.asked = 0
        self.right = 0
        self.skipped = 0

    def line(self) -> str:
        text = f"You answered {self.right} of {self.asked} question(s) correctly"
        if self.skipped:
            text += f" ({self.skipped} skipped)"
        return text + "."


class _Lesson:
    """One run of one lesson: the hand, the terminal, the tally."""

    def __init__(self, term: Terminal, lesson: Lesson, notes: LessonNotes) -> None:
        self.term = term
        self.lesson = lesson
        self.notes = notes
        self.state = HandState(lesson.deck(), dealer=lesson.dealer)
        self.tally = _Tally()
        self.board_shown = False  # the board on screen shows the state as it is

    # output helpers
    def say(self, text: str | Text, style: str | None = None) -> None:
        self.term.say(text if isinstance(text, Text) else Text(text), style=style)

    def bullet(self, text: str) -> None:
        line = Text("  • ")
        line.append(text)
        self.term.say(line)

    def questions(self, turn: int, moment: Moment, rest: Sequence[str]) -> None:
        for question in self.notes.questions:
            if question.turn == turn and question.moment == moment:
                self.ask(question, rest)

    def ask(self, question: Question, rest: Sequence[str]) -> None:
        """Put one question, read answers until one can be graded, and explain."""
        self.tally.asked += 1
        self.term.blank()
        head = Text(f"Question {self.tally.asked}: ", style="bold magenta")
        head.append(question.prompt)
        self.term.say(head)
        for key, text in question.options:
            if question.kind == "meld_choice":
                cards = " ".join(card_name(c) for c in column_order(CardSet.parse(text).mask))
                self.say(f"   {key}: {cards}")
            else:
                self.say(f"   {key}) {text}")
        hint = HINTS[question.kind]
        number = self.lesson.number
        verdict = ask_until_read(
            self.term,
            f"{hint} (or skip): ",
            lambda text: grade(question, self.state, text, lesson=number, rest=rest),
            f"Expected: {hint}.",
        )
        if verdict is Unanswered.SKIPPED:
            self.tally.skipped += 1
            self.say("Skipped.", style="dim")
        elif verdict is Unanswered.NO_VALID_ANSWER:
            self.say("Here is the answer.", style="dim")
        if isinstance(verdict, Unanswered):
            self.explain(reveal(question, self.state, lesson=number, rest=rest), question)
            return
        if verdict.correct:
            self.tally.right += 1
            self.say(f"Right: {_sentence(verdict.answer)}", style="bold green")
        else:
            self.say(f"Not quite. The answer: {_sentence(verdict.answer)}", style="bold red")
        self.explain(verdict, question, header=False)

    def explain(self, verdict: Verdict, question: Question, header: bool = True) -> None:
        if header:
            self.say(f"The answer: {_sentence(verdict.answer)}", style="bold")
        for reason in verdict.reasons:
            self.bullet(_sentence(reason))
        if question.why:
            self.bullet(question.why)

    def play(self, text: str) -> None:
        move = self.state.parse_move(text)
        line = Text("  ▸ ")
        line.append(describe_move(self.state, move))
        self.term.say(line)
        self.state.push(move)
        self.board_shown = False

    def board(self, show_points: bool = True) -> None:
        self.term.say(_lesson_board(self.state, show_points=show_points))
        self.board_shown = True

    def pause(self) -> None:
        reply = self.term.ask("Press Enter for the next turn (or type quit): ")
        if normalize(reply) in QUIT_WORDS:
            raise QuitRequested

    def run(self) -> int:
        lesson, notes = self.lesson, self.notes
        self.say(f"Lesson {lesson.number}: {notes.title}", style="bold underline")
        self.say(notes.intro)
        last = len(lesson.turns)
        for index, turn in enumerate(lesson.turns, start=1):
            self.term.blank()
            self.say(f"Turn {index} · {_label(turn.player, lesson.dealer)}", style="bold cyan")
            self.say(notes.turns[index - 1].before)
            moves = turn.moves
            if index == 1:
                self.play(moves[0])
                self.term.blank()
                self.say("The deal:", style="bold")
                self.board()
            else:
                self.questions(index, "start", rest_of_hand(lesson, index, 0))
                self.play(moves[0])
                if self._has(index, "after_draw"):
                    line = Text(f"{player_name(turn.player)} now holds: ")
                    line.append_text(hand_text(self.state.hand(turn.player)))
                    self.term.say(line)
            self.questions(index, "after_draw", rest_of_hand(lesson, index, 1))
            for text in moves[1:-1]:
                self.play(text)
            if self._has(index, "before_end"):
                if not self.board_shown:
                    self.term.blank()
                    self.board(show_points=not self._asks_points(index))
                self.questions(index, "before_end", rest_of_hand(lesson, index, len(moves) - 1))
                self.term.blank()
            self.play(moves[-1])
            self.term.blank()
            for point in notes.turns[index - 1].after:
                self.bullet(point)
            self.questions(index, "after_turn", rest_of_hand(lesson, index, len(moves)))
            self.term.blank()
            self.board(show_points=index != last)
            if index != last:
                self.term.blank()
                self.pause()
        self.finish()
        return 0

    def _asks_points(self, turn: int) -> bool:
        return any(
            q.turn == turn and q.moment == "before_end" and q.kind == "table_points"
            for q in self.notes.questions
        )

    def _has(self, turn: int, moment: Moment) -> bool:
        return any(q.turn == turn and q.moment == moment for q in self.notes.questions)

    def finish(self) -> None:
        self.term.blank()
        self.say("The hand is over.", style="bold cyan")
        ends = [q for q in self.notes.questions if q.moment == "end"]
        for question in ends:
            if question.kind == "hand_score":
                self.ask(question, ())
        self.term.blank()
        self.say("The score, column by column:", style="bold")
        self.term.say(score_breakdown(self.state))
        for question in ends:
            if question.kind != "hand_score":
                self.ask(question, ())
        totals = game_totals(self.lesson.number)
        self.term.blank()
        self.say(
            f"The game after hand {self.lesson.number}: Player 1 {totals[0]}, Player 2 {totals[1]}."
        )
        self.term.blank()
        self.say("What to remember:", style="bold")
        for point in self.notes.summary:
            self.bullet(point)
        self.term.blank()
        self.say(self.tally.line(), style="bold")
        if self.lesson.number < len(LESSONS):
            self.say(f"Next: umtali lesson {self.lesson.number + 1}")


def run_lesson(term: Terminal, number: int) -> int:
    """Walk the learner through lesson hand ``number`` (1 to 4) on ``term``; return 0.

    ``quit`` at any prompt, or the end of input, raises :class:`QuitRequested` after the
    tally of the questions so far is shown.
    """
    if not 1 <= number <= len(LESSONS):
        raise ValueError(f"there are {len(LESSONS)} lessons, not {number}")
    run = _Lesson(term, LESSONS[number - 1], LESSON_NOTES[number - 1])
    try:
        return run.run()
    except QuitRequested:
        if run.tally.asked:
            term.blank()
            term.say(Text(run.tally.line()))
        raise
