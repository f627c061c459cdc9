"""The book's twelve self-test questions, set up on the engine from ``content/quiz.toml``.

Each question in the content file is a declarative spec: a position (a stacked deal and
the moves that lead to the moment of the question, or a bare table as the book draws it)
and what is asked about it (see the file's header). :func:`build_questions` sets up every
position on a real :class:`~umtali.games.umtali.state.HandState` and asks the engine for every answer
there and then; :mod:`umtali.games.umtali.learn.quiz_grading` grades the learner's against it. The
book's facts are kept; the wording is ours. Nothing here decides a rule.

>>> questions = build_questions()
>>> [q.number for q in questions] == list(range(1, 13))
True
>>> questions[6].reveal().answer, questions[6].position.sides[0].caption
('40', 'The table to score')
>>> questions[1].grade("no").correct
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache, partial

from umtali.games.umtali.deal import stacked_deck
from umtali.games.umtali.describe import explain_illegal
from umtali.games.umtali.learn.breakdown import aligned, score_line
from umtali.games.umtali.learn.help import CONTENT
from umtali.games.umtali.learn.question import Position, Question, Side
from umtali.games.umtali.learn.quiz_grading import (
    engine_refusal,
    grade_card_set,
    grade_number,
    grade_surface,
    grade_yes_no,
    play_items,
    surface_solution,
)
from umtali.games.umtali.learn.surface import card_list, column_names
from umtali.games.umtali.melds import SOLO_ACCEPTS, ColumnKind, meld_accepts, meld_plans
from umtali.games.umtali.moves import IllegalMoveError, InvalidMoveError, Move
from umtali.games.umtali.notation import parse_move
from umtali.games.umtali.rules import STANDARD
from umtali.games.umtali.state import Column, HandState, Phase
from umtali.kernel.cards import (
    CardSet,
    InvalidCardError,
    card_name,
    make_card,
    rank_of,
    suit_of,
)
from umtali.learn.answers import counted
from umtali.learn.content import Table, load
from umtali.learn.verdict import Verdict

__all__ = [
    "YOU",
    "AnswerKind",
    "Result",
    "accepted_off",
    "build_questions",
    "near",
    "quiz_intro",
    "try_moves",
    "try_solo_off",
    "what_if",
]

YOU = 0
"""In every position the learner is Player 1 (player 0) and the opponent Player 2."""
THEM = 1

_FILE = f"{CONTENT}/quiz.toml"


@cache
def _content() -> Table:
    return load(_FILE)


class AnswerKind(Enum):
    """What a question expects; its prompt and format help come from the content file."""

    SURFACE = "surface"
    YES_NO = "yes_no"
    CARDS = "cards"
    NUMBER = "number"

    def _words(self) -> Table:
        table = _content().table("answers").table(self.value)
        table.only({"prompt", "expects", "choices"})
        return table

    @property
    def prompt(self) -> str:
        """The prompt the answer is read after."""
        return self._words().text("prompt")

    @property
    def expects(self) -> str:
        """What a well-formed answer looks like."""
        return self._words().text("expects")

    @property
    def choices(self) -> tuple[tuple[str, str], ...]:
        """The answers offered to choose from, each a key with no more words (none for an
        open answer)."""
        return tuple((key, "") for key in self._words().texts("choices", ()))


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


def quiz_intro(count: int, *, can_quit: bool = True) -> tuple[str, str]:
    """The quiz's title and its opening words, for ``count`` questions; ``can_quit``
    where typing 'quit' stops the quiz (the terminal), to say so.

    >>> quiz_intro(1)[1].split(";")[0], quiz_intro(12)[1].split(";")[0]
    ('1 question', '12 questions')
    >>> quiz_intro(12)[1].endswith("'quit' to stop."), "quit" in quiz_intro(12, can_quit=False)[1]
    (True, False)
    """
    content = _content()
    intro = content.text("intro").format(questions=counted(count, "question"))
    if can_quit:
        intro += " " + content.text("quit")
    return content.text("title"), intro


# -- asking the engine ---------------------------------------------------------------------


def what_if(tables: Sequence[Sequence[Column]], mover: int, hand: CardSet) -> HandState:
    """A position in the meld phase of ``mover``, who holds ``hand``, with ``tables`` on the
    table (index = player) and every other card in the stock."""
    on_table = 0
    for side in tables:
        for column in side:
            on_table |= column.cards.mask
    rest = CardSet(((1 << 52) - 1) & ~on_table & ~hand.mask)
    hands = (hand.mask, 0) if mover == 0 else (0, hand.mask)
    return HandState.from_parts(
        rules=STANDARD,
        dealer=1 - mover,
        eleventh=1 - mover,
        phase=Phase.PLAY,
        player=mover,
        hands=hands,
        stock=list(rest),
        pile=[],
        tables=tables,
        turn=2,
    )


def try_solo_off(
    tables: Sequence[Sequence[Column]], mover: int, card: int, target: int
) -> str | None:
    """Ask the engine whether ``mover``, holding ``card``, may play it off the table card
    ``target``: ``None`` if he may, else the engine's refusal."""
    state = what_if(tables, mover, CardSet([card]))
    return engine_refusal(state, Move.solo(card, target))


def accepted_off(column: Column, on_table: CardSet) -> CardSet:
    """The cards not yet on the table that ``column`` accepts as solo cards, from the
    engine's tables (:data:`SOLO_ACCEPTS` for a solo card, :func:`meld_accepts` for an
    overlapped column)."""
    if column.kind is ColumnKind.SOLO:
        accepts = SOLO_ACCEPTS[column.cards.mask.bit_length() - 1]
    else:
        accepts = meld_accepts(column.cards.mask)
    return CardSet(accepts) - on_table


def try_moves(state: HandState, moves: Sequence[str]) -> tuple[bool, str]:
    """Play ``moves`` in turn on a copy of ``state``: ``(True, "")`` if the engine allows
    them all, else ``(False, its refusal of the first it forbids)``."""
    board = state.clone()
    for text in moves:
        try:
            board.push_text(text)
        except IllegalMoveError:
            return False, engine_refusal(board, parse_move(text)) or text
    return True, ""


def near(column: Column, on_table: CardSet) -> CardSet:
    """The cards offered to click for a question about what ``column`` accepts (whose
    position shows no hand): every card not on the table of a rank of the column's or
    next to one, whatever its suit. They hold every card it could accept, and as many it
    could not, so that clicking tells nothing.

    >>> card_list(near(Column(ColumnKind.SOLO, CardSet.parse("5c")), CardSet.parse("5c")).mask)
    '6♠ 5♠ 4♠ 6♥ 5♥ 4♥ 6♦ 5♦ 4♦ 6♣ 4♣'
    """
    ranks = {
        r for card in column.cards for r in (rank_of(card) - 1, rank_of(card), rank_of(card) + 1)
    }
    return (
        CardSet(
            [
                make_card(rank, suit)
                for rank in sorted(ranks)
                if 1 <= rank <= 13
                for suit in range(4)
            ]
        )
        - on_table
    )


def _on_table(tables: Sequence[Sequence[Column]]) -> CardSet:
    cards = CardSet()
    for side in tables:
        for column in side:
            cards |= column.cards
    return cards


def _accepts_line(column: Column, on_table: CardSet, *, kind: bool = False) -> str:
    """The engine's acceptance list of ``column``, in a sentence (``kind``: named too)."""
    what = f"{column.kind.label} " if kind else ""
    accepted = card_list(accepted_off(column, on_table).mask) or "none"
    return f"the engine's list of cards that {what}{column_names(column.cards.mask)} accepts: {accepted}"


# -- a question's spec, read from the content file ---------------------------------------------


_ASKS = ("plays", "legal", "take_top", "accepts", "only_card", "score", "discard_to_go_out")
_COMMON = {"topic", "text", "ask", "deal", "table", "moves", "show", "captions"}
_EXTRA = {
    "plays": set(),
    "legal": {"try", "allowed", "yes_if", "list_accepts"},
    "take_top": {"move_name", "allowed"},
    "accepts": {"column"},
    "only_card": {"column", "card"},
    "score": set(),
    "discard_to_go_out": {"out", "not_out"},
}
_SHOWN = ("empty", "opponent", "you", "hand", "pile")


class _Spec:
    """One question's entry in the content file, with its position set up on the engine."""

    def __init__(self, table: Table, number: int) -> None:
        self.table = table
        self.number = number
        self.ask = table.choice("ask", _ASKS)
        table.only(_COMMON | _EXTRA[self.ask])
        self.state = self._position()
        self.tables: tuple[tuple[Column, ...], tuple[Column, ...]] = (
            (tuple(self.state.table(YOU)), tuple(self.state.table(THEM)))
            if self.state is not None
            else self._bare_table()
        )

    def cards(self, key: str, text: str | None = None) -> CardSet:
        """The cards written at ``key`` (or ``text``, found there)."""
        try:
            return CardSet.parse(self.table.text(key) if text is None else text)
        except InvalidCardError as e:
            raise self.table.error(key, str(e)) from None

    def card(self, key: str) -> int:
        cards = self.cards(key)
        if len(cards) != 1:
            raise self.table.error(key, "name one card")
        return next(iter(cards))

    def _position(self) -> HandState | None:
        if "table" in self.table.data:
            if "deal" in self.table.data or "moves" in self.table.data:
                raise self.table.error("table", "a bare table takes no deal and no moves")
            return None
        deal = self.table.table("deal")
        deal.only({"dealer", "dealer_hand", "other_hand", "stock"})
        dealer = YOU if deal.choice("dealer", ("you", "opponent")) == "you" else THEM
        try:
            state = HandState(
                stacked_deck(
                    deal.text("dealer_hand"), deal.text("other_hand"), deal.text("stock", "")
                ),
                dealer=dealer,
            )
            state.push_text("keep")
        except (ValueError, InvalidCardError) as e:
            raise self.table.error("deal", str(e)) from None
        for i, text in enumerate(self.table.texts("moves", ())):
            try:
                state.push_text(text)
            except (IllegalMoveError, InvalidMoveError, ValueError) as e:
                raise self.table.error(f"moves[{i}]", str(e)) from None
        return state

    def _bare_table(self) -> tuple[tuple[Column, ...], tuple[Column, ...]]:
        table = self.table.table("table")
        table.only({"you", "opponent"})
        sides = []
        for who in ("you", "opponent"):
            columns = []
            for i, text in enumerate(table.texts(who, ())):
                kind, _, cards = text.partition(" ")
                try:
                    column = Column(ColumnKind[kind.upper()], CardSet.parse(cards))
                except (KeyError, InvalidCardError):
                    raise table.error(f"{who}[{i}]", f"{text!r} is not a column") from None
                columns.append(column)
            sides.append(tuple(columns))
        return sides[0], sides[1]

    def column(self) -> Column:
        """The opponent's column holding the card named at ``column``."""
        card = self.card("column")
        for column in self.tables[THEM]:
            if card in column.cards:
                return column
        raise self.table.error(
            "column", f"no column on the opponent's side holds {card_name(card)}"
        )

    def to_move(self) -> HandState:
        """The position, with the learner to move (the question is about his move)."""
        if self.state is None or self.state.player != YOU:
            raise self.table.error("moves", "the position must leave you to move")
        return self.state

    def position(self) -> Position:
        captions = _content().table("captions")
        own = self.table.table("captions", {})
        own.only(_SHOWN)
        shown = self.table.texts("show")

        def caption(what: str) -> str:
            return own.text(what, captions.text(what))

        for i, what in enumerate(shown):
            if what not in _SHOWN:
                raise self.table.error(f"show[{i}]", f"{what!r} is not one of {', '.join(_SHOWN)}")
        sides = tuple(
            Side(caption(what), self.tables[YOU if what == "you" else THEM])
            for what in shown
            if what in ("opponent", "you")
        )
        hand = pile = None
        if "hand" in shown or "pile" in shown:
            state = self.to_move()
            hand = state.hand(YOU) if "hand" in shown else None
            if "pile" in shown:
                pile = tuple(None if down else card for card, down in state.discard_pile())
        return Position(
            note=caption("empty") if "empty" in shown else "",
            sides=sides,
            hand=hand,
            hand_caption=caption("hand"),
            pile=pile,
            pile_caption=caption("pile"),
        )

    def question(
        self,
        kind: AnswerKind,
        grade: Callable[[str], Verdict],
        solution: Verdict,
        picks: CardSet | None = None,
    ) -> Question:
        return Question(
            prompt=self.table.text("text"),
            kind=kind.value,
            answer_prompt=kind.prompt,
            expects=kind.expects,
            choices=kind.choices,
            grade=grade,
            reveal=lambda: solution,
            position=self.position(),
            number=self.number,
            topic=self.table.text("topic"),
            picks=picks,
        )

    def yes_no(self, truth: bool, why: Sequence[str]) -> Question:
        answer = Verdict(False, "yes" if truth else "no", tuple(why))
        return self.question(
            AnswerKind.YES_NO, partial(grade_yes_no, truth=truth, why=tuple(why)), answer
        )


# -- the kinds of question ------------------------------------------------------------------


def _plays(spec: _Spec) -> Question:
    """Which cards go down from this hand, and which of them overlapped."""
    state = spec.to_move()
    plans = meld_plans(state.hands[YOU], state.table_accepts(), STANDARD.marriage_multiplier)
    grade = partial(grade_surface, state=state, plans=plans)
    solution = surface_solution(state, plans)
    return spec.question(AnswerKind.SURFACE, grade, solution, picks=state.hand(YOU))


def _legal(spec: _Spec) -> Question:
    """May these moves be played, one after another?"""
    state = spec.to_move()
    tried = spec.table.texts("try")
    legal, refusal = try_moves(state, tried)
    why = [refusal]
    if legal:
        board = state.clone()
        for text in tried[:-1]:
            board.push_text(text)
        why = [spec.table.text("allowed").format(move=board.parse_move(tried[-1]))]
    if "list_accepts" in spec.table.data:
        card = spec.card("list_accepts")
        column = next(c for side in spec.tables for c in side if card in c.cards)
        why.append(_accepts_line(column, _on_table(spec.tables)))
    refused = spec.table.choice("yes_if", ("allowed", "refused"), "allowed") == "refused"
    return spec.yes_no(legal != refused, why)


def _take_top(spec: _Spec) -> Question:
    """May the top discard be taken? The learner never saw a face-down card: the engine
    names the move without it."""
    state = spec.to_move()
    pile = state.discard_pile()
    if not pile:
        raise spec.table.error("moves", "the position has no discard to take")
    take = Move.take(pile[-1][0])
    legal = take in state.legal_moves
    why = spec.table.text("allowed")
    if not legal:
        why = explain_illegal(state, take, move_name=spec.table.text("move_name"))
    return spec.yes_no(legal, [why])


def _accepts(spec: _Spec) -> Question:
    """Which cards could be played off this column?"""
    column = spec.column()
    on_table = _on_table(spec.tables)
    expected = accepted_off(column, on_table)
    target = column.cards.mask.bit_length() - 1
    why = (_accepts_line(column, on_table, kind=True),)
    grade = partial(
        grade_card_set,
        expected=expected,
        target=target,
        on_table=on_table,
        check=partial(try_solo_off, spec.tables, YOU, target=target),
        why=why,
    )
    solution = Verdict(False, card_list(expected.mask), why)
    return spec.question(AnswerKind.CARDS, grade, solution, picks=near(column, on_table))


def _only_card(spec: _Spec) -> Question:
    """Is this card the only one the column accepts?"""
    state = spec.to_move()
    column = spec.column()
    accepted = accepted_off(column, _on_table(spec.tables))
    top = column.cards.mask.bit_length() - 1
    refusals = []
    # Illustrate with the cards nearest the column's rank: the likeliest to be tried.
    nearest = sorted(
        state.hand(YOU), key=lambda c: (abs(rank_of(c) - rank_of(top)), -suit_of(c), -rank_of(c))
    )
    for card in nearest:
        if card not in accepted:
            legal, refusal = try_moves(state, [f"play {card_name(card)} off {card_name(top)}"])
            if not legal:
                refusals.append(refusal)
    why = [_accepts_line(column, _on_table(spec.tables)), *refusals[:2]]
    return spec.yes_no(accepted == spec.cards("card"), why)


def _score(spec: _Spec) -> Question:
    """What does your side of the table score?"""
    if spec.state is None:
        raise spec.table.error("table", "a score question needs a deal")
    lines = [score_line(column, STANDARD.marriage_multiplier) for column in spec.tables[YOU]]
    total = sum(line.points for line in lines)
    why = [*aligned(lines)]
    why.append(f"total {total}, as the engine's running score has it: {spec.state.points[YOU]}")
    grade = partial(grade_number, value=total, why=tuple(why))
    return spec.question(AnswerKind.NUMBER, grade, Verdict(False, str(total), tuple(why)))


def _discard_to_go_out(spec: _Spec) -> Question:
    """Once every card is down, is a discard still needed to go out? The engine plays the
    hand's meld plan and says whether the turn ended with nothing discarded."""
    state = spec.to_move()
    plan = meld_plans(state.hands[YOU], state.table_accepts())[0]
    pile = len(state.discard_pile())
    after, moves, _ = play_items(state, plan.melds, plan.solos)
    out = not after.hands[YOU] and after.player != YOU and len(after.discard_pile()) == pile
    if out:
        why = spec.table.text("out").format(moves="; ".join(m.text() for m in moves))
    else:
        why = spec.table.text("not_out")
    return spec.yes_no(not out, [why])


_BUILDERS: dict[str, Callable[[_Spec], Question]] = {
    "plays": _plays,
    "legal": _legal,
    "take_top": _take_top,
    "accepts": _accepts,
    "only_card": _only_card,
    "score": _score,
    "discard_to_go_out": _discard_to_go_out,
}


def build_questions() -> list[Question]:
    """The twelve questions of the book's self-test, in its order, each on a fresh
    position, every answer asked of the engine now.

    Raises :class:`~umtali.learn.content.ContentError` (naming the file and the key) for
    a spec that does not fit.
    """
    content = _content()
    content.only({"title", "intro", "quit", "captions", "answers", "questions"})
    questions = []
    for number, table in enumerate(content.tables("questions"), start=1):
        spec = _Spec(table, number)
        questions.append(_BUILDERS[spec.ask](spec))
    return questions
