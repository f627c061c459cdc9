"""A lesson as a script of events, for any front end to render.

:func:`steps` replays one of the book's lesson hands (:mod:`umtali.games.umtali.lessons`) move by move
on a real :class:`~umtali.games.umtali.state.HandState`, both hands face up, and yields what there is
to show or ask, in order: the opening, each turn's start, each move as a sentence, the
board, our commentary (:mod:`umtali.games.umtali.learn.notes`), the questions (graded by
:mod:`umtali.games.umtali.learn.lesson_grading`), the score and the summary. A front end renders each
event and reads the answers; it decides nothing about the lesson.

>>> events = list(steps(1))
>>> type(events[0]).__name__, events[0].title
('Opening', 'Laying cards down, Jacks, building on the table, going out')
>>> [e.sentence for e in events if isinstance(e, Play)][:2]
['Player 2 deals and keeps the 11th card', 'Player 2 lays the group K♠ K♥ K♣']
>>> sum(isinstance(e, Ask) for e in events), type(events[-1]).__name__
(5, 'Summary')
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from umtali.games.umtali.describe import describe_move
from umtali.games.umtali.learn.breakdown import ScoreLine, cards_line, score_line
from umtali.games.umtali.learn.lesson_grading import ask, game_totals, moves_done
from umtali.games.umtali.learn.notes import LessonNotes, Moment, lesson_notes
from umtali.games.umtali.learn.question import Question
from umtali.games.umtali.lessons import LESSONS, Lesson
from umtali.games.umtali.moves import Move
from umtali.games.umtali.state import HandState, player_name
from umtali.kernel.cards import CardSet, display_key
from umtali.learn.answers import counted

__all__ = [
    "Ask",
    "Board",
    "HandOver",
    "Holds",
    "Narrate",
    "Opening",
    "Pause",
    "Play",
    "ScoreLine",
    "Scores",
    "SideScore",
    "Step",
    "Summary",
    "Tally",
    "TurnStart",
    "player_label",
    "score_breakdown",
    "steps",
]


def player_label(player: int, dealer: int) -> str:
    """A player's name, marked when he deals.

    >>> player_label(1, dealer=1), player_label(0, dealer=1)
    ('Player 2 (dealer)', 'Player 1')
    """
    return player_name(player) + (" (dealer)" if player == dealer else "")


# -- the events ------------------------------------------------------------------------


@dataclass(frozen=True)
class Opening:
    """The lesson begins: its number, title, and what it is about."""

    number: int
    title: str
    intro: str


@dataclass(frozen=True)
class TurnStart:
    """A turn begins: its number (1 = the opening turn), who moves, and our note on the
    situation."""

    number: int
    player: int
    label: str
    note: str


@dataclass(frozen=True)
class Play:
    """A move of the hand, and the sentence that tells it."""

    move: Move
    sentence: str


@dataclass(frozen=True)
class Holds:
    """What the player to move holds after his draw, shown before a question on it."""

    player: int
    hand: CardSet


@dataclass(frozen=True)
class Board:
    """Both hands and both sides of the table.

    Attributes:
        state: a copy of the hand at this moment.
        show_points: whether to show the points on the table (not while a question asks
            for them, nor once the hand is over, when the score follows).
        caption: a heading (``""``: none).
    """

    state: HandState
    show_points: bool = True
    caption: str = ""


@dataclass(frozen=True)
class Ask:
    """A question, to be asked and graded (see :class:`~umtali.games.umtali.learn.question.Question`)."""

    question: Question


@dataclass(frozen=True)
class Narrate:
    """Our commentary on the turn just played, one point a line."""

    points: tuple[str, ...]


@dataclass(frozen=True)
class Pause:
    """A turn is over and another follows: the learner says when to go on."""


@dataclass(frozen=True)
class HandOver:
    """The last move is played."""


@dataclass(frozen=True)
class SideScore:
    """One player's score for the hand, column by column.

    Attributes:
        player: whose score.
        label: his name, marked if he dealt.
        score: his score for the hand.
        lines: his columns, and the cards forfeited to him if any.
    """

    player: int
    label: str
    score: int
    lines: tuple[ScoreLine, ...]


@dataclass(frozen=True)
class Scores:
    """The hand's score, column by column, and who deals next.

    Attributes:
        sides: Player 1's score, then Player 2's.
        result: who won and what follows, in a sentence.
    """

    sides: tuple[SideScore, SideScore]
    result: str


@dataclass(frozen=True)
class Summary:
    """The end of the lesson.

    Attributes:
        number: the lesson.
        totals: the game's totals after this hand, Player 1 first.
        points: what to remember, one point a line.
        next_lesson: the number of the next lesson, ``None`` after the last.
    """

    number: int
    totals: tuple[int, int]
    points: tuple[str, ...]
    next_lesson: int | None


Step = (
    Opening | TurnStart | Play | Holds | Board | Ask | Narrate | Pause | HandOver | Scores | Summary
)
"""One event of a lesson's script."""


# -- the tally ---------------------------------------------------------------------------


@dataclass
class Tally:
    """How the learner is doing: questions asked, answered right, skipped.

    >>> Tally(asked=3, right=1, skipped=1).line()
    'You answered 1 of 3 questions correctly (1 skipped).'
    >>> Tally(asked=1, right=1).line()
    'You answered 1 of 1 question correctly.'
    """

    asked: int = 0
    right: int = 0
    skipped: int = 0

    def line(self) -> str:
        """The tally in a sentence."""
        text = f"You answered {self.right} of {counted(self.asked, 'question')} correctly"
        if self.skipped:
            text += f" ({self.skipped} skipped)"
        return text + "."


# -- the score breakdown ------------------------------------------------------------------


def score_breakdown(state: HandState) -> Scores:
    """The hand's scores column by column (a marriage shown doubled), with the cards handed
    over, from the engine's columns and outcome.

    >>> scores = score_breakdown(LESSONS[2].state_at())
    >>> scores.sides[1].lines[-1]
    ScoreLine(what='forfeited by Player 1', cards='7♠ 4♥', values='1 + 1', points=2)
    >>> scores.result
    'Player 2 wins the hand and deals the next one.'
    """
    outcome = state.outcome()
    if outcome is None:
        raise ValueError("the hand is not over")
    multiplier = state.rules.marriage_multiplier
    sides = []
    for p in (0, 1):
        lines = [score_line(column, multiplier) for column in state.table(p)]
        if outcome.forfeited and outcome.went_out and outcome.went_out[0] == p:
            cards = sorted(outcome.forfeited, key=display_key)
            lines.append(cards_line(f"forfeited by {player_name(1 - p)}", cards))
        label = player_label(p, state.dealer)
        sides.append(SideScore(p, label, outcome.scores[p], tuple(lines)))
    winner = outcome.winner
    if winner is None:
        result = "A drawn hand: the same player deals again."
    else:
        result = f"{player_name(winner)} wins the hand and deals the next one."
    return Scores((sides[0], sides[1]), result)


# -- the script ----------------------------------------------------------------------------


class _Script:
    """One lesson replayed: the hand as it stands, and the events it makes."""

    def __init__(self, lesson: Lesson, notes: LessonNotes) -> None:
        self.lesson = lesson
        self.notes = notes
        self.state = HandState(lesson.deck(), dealer=lesson.dealer)
        self.board_shown = False  # the last board shows the hand as it stands

    def play(self, text: str) -> Play:
        move = self.state.parse_move(text)
        sentence = describe_move(self.state, move)
        self.state.push(move)
        self.board_shown = False
        return Play(move, sentence)

    def board(self, show_points: bool = True, caption: str = "") -> Board:
        self.board_shown = True
        return Board(self.state.clone(), show_points, caption)

    def asks(self, turn: int, moment: Moment) -> Iterator[Ask]:
        """The questions of ``moment`` in turn ``turn``, put on the hand as it stands."""
        for question in self.notes.questions:
            if question.turn == turn and question.moment == moment:
                rest = (
                    ()
                    if turn == 0
                    else self.lesson.rest(turn, moves_done(self.lesson, turn, moment))
                )
                yield Ask(ask(question, self.state, lesson=self.lesson.number, rest=rest))

    def has(self, turn: int, moment: Moment, kind: str | None = None) -> bool:
        return any(
            q.turn == turn and q.moment == moment and kind in (None, q.kind)
            for q in self.notes.questions
        )

    def turn(self, index: int) -> Iterator[Step]:
        lesson, notes = self.lesson, self.notes
        data = lesson.turns[index - 1]
        moves = data.moves
        last = index == len(lesson.turns)
        yield TurnStart(
            index,
            data.player,
            player_label(data.player, lesson.dealer),
            notes.turns[index - 1].before,
        )
        if index == 1:
            yield self.play(moves[0])
            yield self.board(caption="The deal")
        else:
            yield from self.asks(index, "start")
            yield self.play(moves[0])
            if self.has(index, "after_draw"):
                yield Holds(data.player, self.state.hand(data.player))
        yield from self.asks(index, "after_draw")
        for text in moves[1:-1]:
            yield self.play(text)
        if self.has(index, "before_end"):
            if not self.board_shown:
                # The points stay hidden while a question asks for them.
                yield self.board(show_points=not self.has(index, "before_end", "table_points"))
            yield from self.asks(index, "before_end")
        yield self.play(moves[-1])
        yield Narrate(notes.turns[index - 1].after)
        yield from self.asks(index, "after_turn")
        yield self.board(show_points=not last)
        if not last:
            yield Pause()

    def events(self) -> Iterator[Step]:
        yield Opening(self.lesson.number, self.notes.title, self.notes.intro)
        for index in range(1, len(self.lesson.turns) + 1):
            yield from self.turn(index)
        yield from self.finish()

    def finish(self) -> Iterator[Step]:
        yield HandOver()
        # The hand's score is asked before the breakdown gives it away.
        yield from (a for a in self.asks(0, "end") if a.question.kind == "hand_score")
        yield score_breakdown(self.state)
        yield from (a for a in self.asks(0, "end") if a.question.kind != "hand_score")
        number = self.lesson.number
        yield Summary(
            number,
            game_totals(number),
            self.notes.summary,
            number + 1 if number < len(LESSONS) else None,
        )


def steps(number: int) -> Iterator[Step]:
    """The script of lesson hand ``number`` (1 to 4), event by event.

    Each :class:`Ask` holds a question on the hand as it stands when it is yielded; the
    answers change nothing that follows.
    """
    if not 1 <= number <= len(LESSONS):
        raise ValueError(f"there are {len(LESSONS)} lessons, not {number}")
    return _Script(LESSONS[number - 1], lesson_notes()[number - 1]).events()
