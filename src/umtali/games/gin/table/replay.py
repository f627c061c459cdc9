"""A record of Gin Rummy as the browser's replay page shows it (layer 7): every board
with both hands laid out in melds, the deal shown first (the events begin a hand with
its first turn), each hand's end as it was laid, and for a game of two its score sheet
and the sentence that ends it with the bonuses. :func:`umtali.web.replays.tell` walks
the events.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from umtali.games.gin.match import GinMatch, GinPartyMatch
from umtali.games.gin.replay import GinBoard
from umtali.games.gin.session import GinHandSummary
from umtali.games.gin.table.boards import board_model, deal_board, hand_end, sheet
from umtali.games.gin.table.models import GinBoardModel, GinReplay
from umtali.replaying import GameEnds, HandEnds
from umtali.web.replays import tell

__all__ = ["DRAWING", "GinDrawing", "told"]


class GinDrawing:
    """How Gin Rummy's replay draws (:class:`umtali.web.replays.Drawing`)."""

    def deals(self, match: GinMatch | GinPartyMatch) -> Iterator[GinBoardModel]:
        if isinstance(match, GinPartyMatch):
            hands = [seated.hand for seated in match.hands]
        else:
            hands = list(match.hands)
        for hand in hands:
            yield deal_board(hand)

    def board(self, board: GinBoard) -> GinBoardModel:
        return board_model(board)

    def hand_end(self, ended: HandEnds, hand_index: int) -> dict[str, Any]:
        summary = ended.summary
        assert isinstance(summary, GinHandSummary)
        return {"gin_end": hand_end(summary, hand_index)}

    def ending(self, match: GinMatch | GinPartyMatch, ended: GameEnds | None) -> dict[str, Any]:
        return {
            "gin_sheet": sheet(match) if isinstance(match, GinMatch) else None,
            "gin_result": None if ended is None else ended.text,
        }


DRAWING = GinDrawing()


def told(match: GinMatch | GinPartyMatch) -> GinReplay:
    """The record ``match`` told step by step for the replay page."""
    return tell(match, DRAWING, GinReplay)
