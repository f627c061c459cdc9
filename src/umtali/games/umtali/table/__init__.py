"""Umtali's table in the browser (layer 7): the registry's ``table`` hook
(``umtali.games.umtali.table:TABLE``), as :class:`umtali.web.tables.GameTable` reads
it. What a seat is sent (:mod:`.seat`), a record told for the replay page
(:mod:`.replay`) and the lessons and quiz (:mod:`.teaching`); its browser code is
``umtali/web/static/games/umtali/``.
"""

from __future__ import annotations

from typing import Any, Final

from fastapi import APIRouter

from umtali.games.umtali.match import Match
from umtali.games.umtali.session import PlaySession
from umtali.games.umtali.table.models import UmtaliReplay, UmtaliSeatState
from umtali.games.umtali.table.replay import told
from umtali.games.umtali.table.seat import seat_table
from umtali.games.umtali.table.teaching import router
from umtali.web.tables import SeatContext, Table

__all__ = ["TABLE", "UmtaliTable"]


class UmtaliTable(Table):
    """Umtali's :class:`~umtali.web.tables.GameTable`."""

    state = UmtaliSeatState
    replay = UmtaliReplay
    routes: APIRouter | None = router

    def seat_table(self, session: Any, seat: int, context: SeatContext) -> dict[str, Any]:
        assert isinstance(session, PlaySession)
        return seat_table(session, seat, context)

    def tell(self, match: Any) -> UmtaliReplay:
        assert isinstance(match, Match)
        return told(match)


TABLE: Final = UmtaliTable()
"""Umtali's browser table."""
