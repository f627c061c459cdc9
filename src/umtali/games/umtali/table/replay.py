"""A record of Umtali as the browser's replay page shows it (layer 7): its boards as
:class:`~umtali.games.umtali.table.models.BoardModel`, the deal shown before the first
turn when the practical rules' upcard begins turn 1 at the deal, and each finished
hand's score column by column. :func:`umtali.web.replays.tell` walks the events.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from umtali.games.umtali.learn import lesson as script
from umtali.games.umtali.match import Match
from umtali.games.umtali.state import HandState
from umtali.games.umtali.table.boards import board_model, scores_model
from umtali.games.umtali.table.models import BoardModel, UmtaliReplay
from umtali.replaying import GameEnds, HandEnds
from umtali.web.replays import tell

__all__ = ["DRAWING", "UmtaliDrawing", "told"]


class UmtaliDrawing:
    """How Umtali's replay draws (:class:`umtali.web.replays.Drawing`)."""

    def deals(self, match: Match) -> Iterator[BoardModel | None]:
        for dealt in match.hands:
            fresh = HandState(dealt.deck, dealt.dealer, dealt.rules)
            # With no dealer's choice (the practical rules' upcard), turn 1 begins at the
            # deal: its board is shown as the deal, before the events begin turn 1.
            yield board_model(fresh) if fresh.turn else None

    def board(self, board: HandState) -> BoardModel:
        return board_model(board)

    def hand_end(self, ended: HandEnds, hand_index: int) -> dict[str, Any]:
        return {"scores": scores_model(script.score_breakdown(ended.board))}

    def ending(self, match: Match, ended: GameEnds | None) -> dict[str, Any]:
        return {}


DRAWING = UmtaliDrawing()


def told(match: Match) -> UmtaliReplay:
    """The record ``match`` told step by step for the replay page."""
    return tell(match, DRAWING, UmtaliReplay)
