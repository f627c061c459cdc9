"""Umtali drawn for the browser's learning pages (layer 7): a hand as it stands, a
question's position and a hand's score, as the models of
:mod:`umtali.games.umtali.table.models`. The lessons, the quiz and the replay all
draw with these; nothing here is judged, only written out.

>>> from umtali.games.umtali.lessons import LESSONS
>>> board = board_model(LESSONS[0].state_at())
>>> board.game, len(board.hands[0]), board.points is not None
('umtali', 0, True)
"""

from __future__ import annotations

from collections.abc import Iterable

from umtali.games.umtali.learn import lesson as script
from umtali.games.umtali.learn.question import Position, Question
from umtali.games.umtali.state import Column, HandState
from umtali.games.umtali.table.models import (
    BoardModel,
    ColumnModel,
    PileCard,
    PositionModel,
    QuestionModel,
    ScoreLineModel,
    ScoresModel,
    SideModel,
    SideScoreModel,
)
from umtali.kernel.cards import card_ascii, display_key

__all__ = ["board_model", "cards", "question_model", "scores_model"]


def cards(held: Iterable[int]) -> list[str]:
    """Cards in ASCII, in the order of a hand (spades, hearts, diamonds, clubs; high first)."""
    return [card_ascii(c) for c in sorted(held, key=display_key)]


def _column(column: Column) -> ColumnModel:
    return ColumnModel(
        kind=column.kind.label,
        cards=[card_ascii(c) for c in column.top_down()],
        played_off=None if column.played_off is None else card_ascii(column.played_off),
    )


def board_model(state: HandState, show_points: bool = True) -> BoardModel:
    """The hand ``state`` as it stands, every card face up."""
    return BoardModel(
        dealer=state.dealer,
        to_move=None if state.is_over() else state.player,
        turn=state.turn,
        stock=state.stock_size(),
        pile=[PileCard(card=card_ascii(c), face_down=down) for c, down in state.discard_pile()],
        hands=(cards(state.hand(0)), cards(state.hand(1))),
        tables=(
            [_column(c) for c in state.table(0)],
            [_column(c) for c in state.table(1)],
        ),
        points=(state.points[0], state.points[1]) if show_points else None,
    )


def _position(position: Position) -> PositionModel:
    return PositionModel(
        note=position.note,
        sides=[
            SideModel(caption=side.caption, columns=[_column(c) for c in side.columns])
            for side in position.sides
        ],
        hand=None if position.hand is None else cards(position.hand),
        hand_caption=position.hand_caption,
        pile=None
        if position.pile is None
        else [None if c is None else card_ascii(c) for c in position.pile],
        pile_caption=position.pile_caption,
    )


def question_model(question: Question) -> QuestionModel:
    """What a page needs to put ``question``: not its answer, nor its explanation."""
    return QuestionModel(
        prompt=question.prompt,
        kind=question.kind,
        answer_prompt=question.answer_prompt,
        expects=question.expects,
        format_first=question.format_first,
        choices=list(question.choices),
        position=None if question.position is None else _position(question.position),
        number=question.number,
        topic=question.topic,
        picks=[] if question.picks is None else cards(question.picks),
    )


def scores_model(scores: script.Scores) -> ScoresModel:
    """A finished hand's score, column by column (the lessons' and the replay's)."""
    first, second = (
        SideScoreModel(
            player=side.player,
            label=side.label,
            score=side.score,
            lines=[
                ScoreLineModel(what=x.what, cards=x.cards, values=x.values, points=x.points)
                for x in side.lines
            ],
        )
        for side in scores.sides
    )
    return ScoresModel(sides=(first, second), result=scores.result)
