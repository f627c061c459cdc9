"""``umtali quiz``: the book's twelve self-test questions, asked in the terminal and graded
by the engine.

Every question stands on a real position (see :mod:`umtali.cli.quiz_questions`), and every
right answer is what the engine says about that position: the cards a table card accepts
(:data:`umtali.melds.SOLO_ACCEPTS`, :func:`umtali.melds.meld_accepts`), whether a move is
legal (:class:`umtali.moves.IllegalMoveError` and its reason), what a table scores
(:func:`umtali.melds.column_points`), or how a compulsory meld phase can end
(:func:`umtali.melds.meld_plans`). This module reads the learner's answer, compares it
with the engine's, and says what was wrong.

Four kinds of answer are read (the first three by :mod:`umtali.cli.answers`, as in
``umtali lesson``):

* cards, in any order and spelling: ``5s 5h``, ``5♠, 5♥``, ``Th`` or ``10h``;
* yes or no;
* a whole number;
* a playing surface: groups separated by commas, a group of two or more cards being one
  overlapped column and a single card a solo card, e.g. ``J♠, 10♠, 4♦ 3♦ 2♦, K♣ Q♣``.

>>> parse_surface("J♠, 10s, 4d 3d 2d")
Surface(columns=('4♦ 3♦ 2♦',), solos='10♠ J♠')
>>> parse_yes_no(" Yes "), parse_number("40 points")
(True, 40)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum

from rich.console import RenderableType
from rich.text import Text

from umtali.cards import ALL_CARDS, CardSet, bit, card_name, cards_of, display_key, mask_of
from umtali.cli.answers import (
    MAX_TRIES,
    AnswerError,
    Unanswered,
    ask_until_read,
    parse_card_answer,
    parse_number,
    parse_yes_no,
    read_cards,
)
from umtali.cli.terminal import QuitRequested, Terminal
from umtali.melds import MeldPlan, hand_melds
from umtali.moves import IllegalMoveError, InvalidMoveError, Move, MoveKind, column_order
from umtali.state import HandState

__all__ = [
    "MAX_TRIES",
    "Answer",
    "AnswerKind",
    "Question",
    "Result",
    "Surface",
    "Verdict",
    "ask_question",
    "card_list",
    "column_names",
    "grade_card_set",
    "grade_number",
    "grade_surface",
    "grade_yes_no",
    "parse_surface",
    "play_items",
    "read_ungrouped",
    "run_quiz",
    "surface_answer",
    "surface_solution",
    "surface_text",
]


class AnswerKind(Enum):
    """What a question expects, with the prompt and the format help shown for it."""

    CARDS = ("Cards: ", "Write cards separated by spaces or commas, like 7♠ 7♥ or 7s 7h.")
    YES_NO = ("Yes or no: ", "Answer yes or no (y or n).")
    NUMBER = ("Points: ", "Answer with a whole number, like 17.")
    SURFACE = (
        "Your plays: ",
        "Write your plays as groups separated by commas; the cards of one overlapped column"
        " go together in one group, a solo card is a group of its own, like"
        " 9♠ 8♠ 7♠, J♦, Q♦ (or 'none' if nothing can be played). Without commas, the"
        " cards are read as melds wherever they make one.",
    )

    @property
    def prompt(self) -> str:
        """The prompt the answer is read after."""
        return self.value[0]

    @property
    def expects(self) -> str:
        """What a well-formed answer looks like."""
        return self.value[1]


@dataclass(frozen=True)
class Answer:
    """The right answer to a question, as the engine gives it.

    Attributes:
        text: the answer, as it would be written.
        why: the engine's reasons (refusal messages, acceptance sets, score breakdowns).
    """

    text: str
    why: tuple[str, ...] = ()


@dataclass(frozen=True)
class Verdict:
    """The grade of one answer.

    Attributes:
        correct: whether the answer agrees with the engine.
        answer: the right answer and why.
        mistakes: what was wrong with the learner's answer, most specific first.
        read_as: how plays written without commas were read, to show the learner.
    """

    correct: bool
    answer: Answer
    mistakes: tuple[str, ...] = ()
    read_as: str | None = None


@dataclass(frozen=True)
class Question:
    """One self-test question on a real position.

    Attributes:
        number: 1 to 12, as in the book.
        topic: a few words naming it in the final summary.
        text: the question, in our own words.
        position: what the learner is shown: hands and sides of the table.
        kind: the kind of answer expected.
        grade: reads an answer and grades it against the engine; raises
            :class:`AnswerError` for text that is not an answer of ``kind``.
        solution: the engine's answer, shown after a wrong answer or a skip.
    """

    number: int
    topic: str
    text: str
    position: tuple[RenderableType, ...]
    kind: AnswerKind
    grade: Callable[[str], Verdict]
    solution: Answer


@dataclass(frozen=True)
class Result:
    """How the learner did on one question.

    Attributes:
        question: the question.
        verdict: its grade.
        how: ``"answered"``, ``"skipped"`` or ``"no valid answer"``.
    """

    question: Question
    verdict: Verdict
    how: str = "answered"


# -- card text ------------------------------------------------------------------------------


def card_list(mask: int) -> str:
    """Cards as the book lists them: spades, hearts, diamonds, clubs, high to low.

    >>> card_list(CardSet.parse("4c 6c 5d 5h 5s").mask)
    '5♠ 5♥ 5♦ 6♣ 4♣'
    """
    return " ".join(CardSet(mask).sorted_for_display())


def column_names(mask: int) -> str:
    """An overlapped column's cards top-down, as the engine lays it out."""
    return " ".join(card_name(c) for c in column_order(mask))


# -- reading a playing surface (cards, yes or no and numbers: umtali.cli.answers) ------------


@dataclass(frozen=True)
class Surface:
    """A playing surface as the learner wrote it.

    Attributes:
        columns: the overlapped columns (groups of two or more cards), as masks.
        solos: the solo cards, as a mask.
        read_without_commas: whether the groups were read from cards written without
            commas (see :func:`read_ungrouped`).
    """

    columns: tuple[int, ...]
    solos: int
    read_without_commas: bool = field(default=False, compare=False)

    @property
    def cards(self) -> int:
        """Every card written."""
        m = self.solos
        for c in self.columns:
            m |= c
        return m

    def __repr__(self) -> str:
        columns = tuple(column_names(c) for c in self.columns)
        return f"Surface(columns={columns!r}, solos={str(CardSet(self.solos))!r})"


def parse_surface(text: str, hand: int = ALL_CARDS) -> Surface:
    """Read plays written as comma-separated groups: a group of two or more cards is an
    overlapped column, a single card a solo card. ``none`` means nothing is played.

    Written without commas, the cards (which must all be in ``hand``) are read as melds
    wherever they make one, if that can be done in one way only (see
    :func:`read_ungrouped`).

    >>> parse_surface("K♣ Q♣, J♠ , js")
    Traceback (most recent call last):
    ...
    umtali.cli.answers.AnswerError: J♠ is written twice
    >>> parse_surface("kc qc 4d 3d 2d 10h 10s js")
    Surface(columns=('4♦ 3♦ 2♦', 'K♣ Q♣'), solos='10♥ 10♠ J♠')
    """
    if not text.strip():
        raise AnswerError("nothing was typed")
    if text.strip().lower() in ("none", "nothing"):
        return Surface((), 0)
    columns: list[int] = []
    solos = 0
    seen = 0
    parts = text.replace(";", ",").split(",")
    for part in parts:
        cards = read_cards(part)
        for c in cards:
            if seen & bit(c):
                raise AnswerError(f"{card_name(c)} is written twice")
            seen |= bit(c)
        if len(cards) == 1:
            solos |= bit(cards[0])
        elif cards:
            columns.append(mask_of(cards))
    if not seen:
        raise AnswerError("no cards were given")
    if len(parts) == 1 and len(columns) == 1:
        return read_ungrouped(columns[0], hand)
    return Surface(tuple(columns), solos)


def _column_key(mask: int) -> tuple[int, int]:
    """Columns are listed by their top cards, in the order of a hand."""
    return display_key(column_order(mask)[0])


def _meld_readings(cards: int, enough: int = 2) -> list[Surface]:
    """Ways to read ``cards`` as overlapped melds and solo cards, at most ``enough`` of
    them (whether there is exactly one is all that matters).

    A reading lays melds one after another as the engine offers them to a hand of these
    cards (:func:`umtali.melds.hand_melds`: each laid whole, R4), until the cards left, the
    solo cards, make no meld. A meld that shares no card with any other offered is in
    every reading, so all such are laid at once; only melds that share cards are choices.
    """
    found: list[Surface] = []

    def lay(left: int, laid: tuple[int, ...]) -> None:
        melds = hand_melds(left)
        if not melds:
            reading = Surface(tuple(sorted(laid, key=_column_key)), left, True)
            if reading not in found:
                found.append(reading)
            return
        alone = [m for m in melds if not any(m & other for other in melds if other != m)]
        if alone:
            lay(left & ~mask_of(c for m in alone for c in cards_of(m)), (*laid, *alone))
            return
        for meld in melds:
            if len(found) >= enough:
                return
            lay(left & ~meld, (*laid, meld))

    lay(cards, ())
    return sorted(found, key=lambda s: [_column_key(c) for c in s.columns])


def _plays_text(solos: Sequence[int], columns: Sequence[int]) -> str:
    """Plays written the way the learner is asked to write them: the solo cards, then
    the overlapped columns, separated by commas."""
    return ", ".join([card_name(c) for c in solos] + [column_names(m) for m in columns]) or "none"


def surface_text(surface: Surface) -> str:
    """A surface written the way the learner is asked to write one."""
    return _plays_text(sorted(cards_of(surface.solos), key=display_key), surface.columns)


def read_ungrouped(cards: int, hand: int = ALL_CARDS) -> Surface:
    """Cards written without commas, read as melds wherever they make one: accepted when
    there is exactly one such reading, else refused with the readings and the format.
    Cards not in ``hand`` are refused before any reading.

    >>> read_ungrouped(CardSet.parse("5s 5h 5c 4c 3c").mask)
    Traceback (most recent call last):
    ...
    umtali.cli.answers.AnswerError: without commas these cards can be read in more than one way (4♣, 3♣, 5♠ 5♥ 5♣ or 5♠, 5♥, 5♣ 4♣ 3♣): put a comma between the groups, like 9♠ 8♠ 7♠, J♦, Q♦
    >>> read_ungrouped(CardSet.parse("5s 5h 5c").mask, hand=CardSet.parse("5s 5h 9d").mask)
    Traceback (most recent call last):
    ...
    umtali.cli.answers.AnswerError: 5♣ is not in your hand
    """
    foreign = cards_of(cards & ~hand)
    if foreign:
        names = " ".join(card_name(c) for c in sorted(foreign, key=display_key))
        raise AnswerError(f"{names} {'is' if len(foreign) == 1 else 'are'} not in your hand")
    readings = _meld_readings(cards)
    if len(readings) == 1:
        return readings[0]
    shown = " or ".join(surface_text(r) for r in readings)
    raise AnswerError(
        f"without commas these cards can be read in more than one way ({shown}): put a"
        " comma between the groups, like 9♠ 8♠ 7♠, J♦, Q♦"
    )


# -- grading -----------------------------------------------------------------------------------


def _yes_no(truth: bool) -> str:
    return "yes" if truth else "no"


def grade_yes_no(text: str, truth: bool, why: Sequence[str]) -> Verdict:
    """Grade a yes/no answer against the engine's verdict ``truth`` (``why``: its reasons).

    >>> grade_yes_no("no", False, ["illegal"]).correct
    True
    """
    given = parse_yes_no(text)
    answer = Answer(_yes_no(truth), tuple(why))
    if given == truth:
        return Verdict(True, answer)
    return Verdict(False, answer, (f"the answer is {_yes_no(truth)}, not {_yes_no(given)}",))


def grade_number(text: str, value: int, why: Sequence[str]) -> Verdict:
    """Grade a number against the engine's ``value``."""
    given = parse_number(text)
    answer = Answer(str(value), tuple(why))
    if given == value:
        return Verdict(True, answer)
    return Verdict(False, answer, (f"{given} is {'too high' if given > value else 'too low'}",))


def grade_card_set(
    text: str,
    expected: CardSet,
    target: int,
    on_table: CardSet,
    check: Callable[[int], str | None],
    why: Sequence[str] = (),
) -> Verdict:
    """Grade a list of cards against the engine's acceptance set ``expected`` of the table
    card ``target``.

    ``check(card)`` asks the engine whether ``card`` may be played off ``target`` (``None``:
    it may; else the refusal message); it explains each card answered wrongly.
    """
    given = parse_card_answer(text)
    answer = Answer(card_list(expected.mask) or "none", tuple(why))
    if given == expected:
        return Verdict(True, answer)
    mistakes: list[str] = []
    off = card_name(target)
    for c in sorted(given - expected, key=display_key):
        if c in on_table:
            mistakes.append(f"{card_name(c)} is already on the table")
            continue
        refusal = check(c)
        mistakes.append(
            refusal
            if refusal is not None
            else f"{card_name(c)} is not in the engine's list for {off}"
        )
    for c in sorted(expected - given, key=display_key):
        mistakes.append(
            f"you missed {card_name(c)}: the engine allows 'play {card_name(c)} off {off}'"
            if check(c) is None
            else f"you missed {card_name(c)}"
        )
    return Verdict(False, answer, tuple(mistakes))


def _solo_moves(state: HandState, card: int) -> list[Move]:
    return [m for m in state.legal_moves if m.kind is MoveKind.SOLO and m.cards[0] == card]


def play_items(
    state: HandState, melds: Sequence[int], solos: int
) -> tuple[HandState, list[Move], int]:
    """Play the given overlapped columns and solo cards on a copy of ``state``, in whatever
    order the engine allows them (a solo off the first table card it may go off).

    Returns the copy, the moves played, and the cards that could not be played. Solos that
    become playable together go down in the book's order: spades first, high to low.
    """
    board = state.clone()
    me = board.player
    todo = list(melds)
    left = solos
    moves: list[Move] = []
    progress = True
    while (todo or left) and progress and board.player == me and not board.is_over():
        progress = False
        for meld in list(todo):
            move = Move.meld(cards_of(meld))
            if board.player == me and move in board.legal_moves:
                board.push(move)
                moves.append(move)
                todo.remove(meld)
                progress = True
        ready = sorted((c for c in cards_of(left) if _solo_moves(board, c)), key=display_key)
        for c in ready:
            options = _solo_moves(board, c) if board.player == me else []
            if options:
                board.push(options[0])
                moves.append(options[0])
                left &= ~bit(c)
                progress = True
    for meld in todo:
        left |= meld
    return board, moves, left


def surface_answer(state: HandState, plan: MeldPlan) -> str:
    """A meld plan written the way the learner is asked to write it: solo cards in an
    order the engine plays them, then the overlapped columns, then what stays in hand."""
    _, moves, _ = play_items(state, plan.melds, plan.solos)
    solos = [m.cards[0] for m in moves if m.kind is MoveKind.SOLO]
    melds = [mask_of(m.cards) for m in moves if m.kind is MoveKind.MELD]
    text = _plays_text(solos, sorted(melds, key=_column_key))
    if plan.left:
        text += f" (left in hand: {card_list(plan.left)})"
    return text


def surface_solution(
    state: HandState, plans: Sequence[MeldPlan], best: MeldPlan | None = None
) -> Answer:
    """The engine's answer for a surface question: ``best`` (the first plan unless given),
    with any other plan the engine allows named in ``why``."""
    first = plans[0] if best is None else best
    why = tuple(
        f"the engine also allows: {surface_answer(state, p)}" for p in plans if p is not first
    )
    if len(plans) == 1:
        why = ("the engine finds no other way to end the meld phase from this hand",)
    return Answer(surface_answer(state, first), why)


def _refusal(state: HandState, move: Move) -> str | None:
    """The engine's message refusing ``move`` now, or ``None`` if it is legal."""
    try:
        state.resolve(move)
    except (IllegalMoveError, InvalidMoveError) as e:
        return str(e)
    return None


def _plan_distance(plan: MeldPlan, surface: Surface) -> int:
    columns = set(surface.columns)
    melds = set(plan.melds)
    return len(columns ^ melds) + (plan.solos ^ surface.solos).bit_count()


def grade_surface(text: str, state: HandState, plans: Sequence[MeldPlan]) -> Verdict:
    """Grade a playing surface against the engine's meld plans for the player to move in
    ``state``: right when its overlapped columns and its solo cards are those of a plan.

    Mistakes are explained by the engine: the refusal of a wrongly overlapped column or of
    a card played solo that The Rule keeps for a meld, and the compulsory-play refusal when
    playable cards were left out.
    """
    me = state.player
    hand = state.hands[me]
    given = parse_surface(text, hand)
    read_as = surface_text(given) if given.read_without_commas else None
    best = min(plans, key=lambda p: _plan_distance(p, given))
    answer = surface_solution(state, plans, best)
    if any(set(p.melds) == set(given.columns) and p.solos == given.solos for p in plans):
        return Verdict(True, answer, read_as=read_as)

    end, _, _ = play_items(state, best.melds, best.solos)
    mistakes: list[str] = []

    def meld_of(card: int) -> int:
        return next((m for m in best.melds if m & bit(card)), 0)

    def stays(card: int) -> str:
        if end.player == me and _solo_moves(end, card):  # pragma: no cover - engine disagrees
            return f"{card_name(card)} is left in hand by the engine's plan"
        return (
            f"{card_name(card)} cannot be played: once everything else is down, the engine"
            " has no legal play for it"
        )

    foreign = given.cards & ~hand
    for c in sorted(cards_of(foreign), key=display_key):
        mistakes.append(f"{card_name(c)} is not in your hand")
    for column in given.columns:
        if column in best.melds:
            continue
        if not column & foreign:
            refusal = _refusal(state, Move.meld(cards_of(column)))
            mistakes.append(
                f"{column_names(column)} as one column: {refusal}"
                if refusal is not None
                else f"{column_names(column)} may be overlapped, but not with the rest of"
                " your plays"
            )
        for c in sorted(cards_of(column & hand), key=display_key):
            if best.solos & bit(c):
                mistakes.append(f"{card_name(c)} must be played solo, not overlapped")
            elif meld_of(c):
                mistakes.append(
                    f"{card_name(c)} belongs in the overlapped column {column_names(meld_of(c))}"
                )
            else:
                mistakes.append(stays(c))
    for c in sorted(cards_of(given.solos & hand & ~best.solos), key=display_key):
        meld = meld_of(c)
        if meld:
            refusal = _refusal(state, Move.solo(c))
            mistakes.append(
                f"{card_name(c)} must be overlapped in {column_names(meld)}"
                + (f": {refusal}" if refusal is not None else "")
            )
        else:
            mistakes.append(stays(c))
    missed_any = False
    for meld in best.melds:
        if not meld & given.cards:
            mistakes.append(f"you missed {column_names(meld)} (an overlapped column)")
            missed_any = True
        elif meld & ~given.cards:
            for c in sorted(cards_of(meld & ~given.cards), key=display_key):
                mistakes.append(f"you missed {card_name(c)} (in {column_names(meld)})")
                missed_any = True
    for c in sorted(cards_of(best.solos & ~given.cards), key=display_key):
        mistakes.append(f"you missed {card_name(c)} (a solo card)")
        missed_any = True
    if missed_any:
        learner_melds = [m for m in given.columns if not m & foreign]
        after, _, _ = play_items(state, learner_melds, given.solos & hand)
        rest = after.hands[me]
        if after.player == me and rest:
            refusal = _refusal(after, Move.discard_card(cards_of(rest)[0]))
            if refusal is not None:
                mistakes.append(refusal)
    return Verdict(False, answer, tuple(mistakes), read_as)


# -- the session ---------------------------------------------------------------------------------


def _bullets(term: Terminal, lines: Sequence[str], style: str | None = None) -> None:
    for line in lines:
        term.say(Text(f"  - {line}", style=style or ""))


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
    term.say(Text(f"The answer: {verdict.answer.text}", style="bold"))
    if verdict.answer.why:
        term.say(Text("Why:"))
        _bullets(term, verdict.answer.why)


def ask_question(term: Terminal, question: Question, total: int) -> Result:
    """Show ``question``, read answers until one is well formed (at most :data:`MAX_TRIES`),
    grade it and show the verdict. ``skip`` counts as wrong, ``quit`` stops the quiz."""
    term.blank()
    term.say(Text(f"Question {question.number} of {total} · {question.topic}", style="bold"))
    term.say(Text(question.text))
    for part in question.position:
        term.say(part)
    if question.kind is AnswerKind.SURFACE:
        # Said before the first answer: how a column differs from solo cards in writing.
        term.say(Text(question.kind.expects, style="dim"))
    verdict = ask_until_read(term, question.kind.prompt, question.grade, question.kind.expects)
    if isinstance(verdict, Unanswered):
        result = Result(question, Verdict(False, question.solution), verdict.value)
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
                f"Stopped after {len(results)} of {total} questions: {right} right so far.",
                style="bold",
            )
        )
    else:
        term.say(Text(f"Score: {right}/{total}", style="bold"))
    missed = [r for r in results if not r.verdict.correct]
    if not missed:
        return
    term.say(Text("Questions missed:"))
    for r in missed:
        how = "" if r.how == "answered" else f" ({r.how})"
        answer = r.verdict.answer.text
        term.say(Text(f"  {r.question.number}. {r.question.topic}{how} — answer: {answer}"))
        for line in (*r.verdict.mistakes, *r.verdict.answer.why):
            term.say(Text(f"       {line}"))


def run_quiz(term: Terminal, questions: Sequence[Question] | None = None) -> int:
    """Ask the self-test questions (the book's twelve unless ``questions`` is given), grade
    each with the engine, and end with the score and the reasons for every miss.

    End of input stops the quiz after a summary of the answers so far
    (:class:`QuitRequested` propagates to the caller). Returns the exit status, 0.
    """
    if questions is None:
        from umtali.cli.quiz_questions import build_questions

        questions = build_questions()
    total = len(questions)
    term.say(Text("Umtali self-test", style="bold underline"))
    term.say(
        Text(
            f"{total} questions; the engine grades every answer. Cards may be written K♠, Ks,"
            " 10h or Th, in any order and case. Type 'skip' to pass over a question (it counts"
            " as wrong) and 'quit' to stop."
        )
    )
    results: list[Result] = []
    try:
        for question in questions:
            results.append(ask_question(term, question, total))
    except QuitRequested:
        _summary(term, results, total, stopped=True)
        raise
    _summary(term, results, total, stopped=False)
    return 0
