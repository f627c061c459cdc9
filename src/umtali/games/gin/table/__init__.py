"""Gin Rummy's table in the browser (layer 7): the registry's ``table`` hook
(``umtali.games.gin.table:TABLE``), as :class:`umtali.web.tables.GameTable` reads it.
What a seat is sent, for two (:mod:`.seat`) or three and four (:mod:`.party_seat`), and
a record told for the replay page (:mod:`.replay`); its browser code is
``umtali/web/static/games/gin/``.
"""

from __future__ import annotations

from typing import Any, Final

from umtali.games.gin.match import GinMatch, GinPartyMatch
from umtali.games.gin.party_session import GinPartySession
from umtali.games.gin.session import GinPlaySession
from umtali.games.gin.table.models import GinReplay, GinSeatState
from umtali.games.gin.table.party_seat import hands_counted, party_seat_table
from umtali.games.gin.table.replay import told
from umtali.games.gin.table.seat import seat_table
from umtali.web.tables import SeatContext, Table

__all__ = ["TABLE", "GinRummyTable"]


class GinRummyTable(Table):
    """Gin Rummy's :class:`~umtali.web.tables.GameTable`, for two, three or four."""

    state = GinSeatState
    replay = GinReplay

    def seat_table(self, session: Any, seat: int, context: SeatContext) -> dict[str, Any]:
        if isinstance(session, GinPartySession):
            return party_seat_table(session, seat, context.persons, context.told)
        assert isinstance(session, GinPlaySession)
        return seat_table(session, seat, context.told)

    def hands_told(self, session: Any) -> int:
        """The hands over (for three or four, of the deals counted: a four-hand deal's
        two hands are told together)."""
        if isinstance(session, GinPartySession):
            return hands_counted(session)
        return super().hands_told(session)

    def tell(self, match: Any) -> GinReplay:
        assert isinstance(match, GinMatch | GinPartyMatch)
        return told(match)


TABLE: Final = GinRummyTable()
"""Gin Rummy's browser table."""
