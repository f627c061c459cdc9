"""Open tables, for players without a friend at hand: ``POST /api/open-tables`` opens a
game of two to anyone, ``GET /api/open-tables`` lists the tables waiting for a player,
and ``POST /api/open-tables/{id}/sit`` takes one's empty seat (docs/WEB.md, "Open
tables"). Nothing here names a game.
"""

from __future__ import annotations

from fastapi import APIRouter, Request

from umtali.web.deps import Server
from umtali.web.protocol import GameCreated, OpenTableRequest, OpenTables, Problem, SitRequest

__all__ = ["router"]

router = APIRouter()


@router.post(
    "/api/open-tables",
    status_code=201,
    responses={422: {"model": Problem}, 429: {"model": Problem}, 503: {"model": Problem}},
)
async def open_table(server: Server, request: OpenTableRequest, http: Request) -> GameCreated:
    """Open a game of two to anyone: the opener's link (seat 0). 429 when the client's
    address has made too many games lately or has as many tables waiting as it may, 503
    when the server has as many as it may (each with ``Retry-After``)."""
    address = http.client.host if http.client is not None else None
    return await server.open_table(request, address=address)


@router.get("/api/open-tables")
async def open_tables(server: Server) -> OpenTables:
    """The tables waiting for a player, the longest waiting first: no link in it."""
    return await server.open_tables()


@router.post(
    "/api/open-tables/{table_id}/sit",
    responses={404: {"model": Problem}, 409: {"model": Problem}, 422: {"model": Problem}},
)
async def sit(server: Server, table_id: int, request: SitRequest) -> GameCreated:
    """Sit down at an open table: the link of its empty seat. 409 "someone sat down at
    this table first" to whoever comes second, and to the table's opener (one of the
    request's ``seats`` is a seat of it); 404 when the table is not open (any more)."""
    return await server.sit(table_id, request.name, held=request.seats)
