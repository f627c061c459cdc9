"""Records and deck commitments: a seat's record while its game is played, the whole
record once it is over, and each hand's commitment with, once the hand is over, the
salt and deck that prove it.
"""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import Response

from umtali.web.deps import Seat, Server
from umtali.web.protocol import Problem, VerifyReply

__all__ = ["router"]

router = APIRouter()


@router.get("/api/seat/{secret}/record", responses={404: {"model": Problem}})
async def seat_record(server: Server, seat: Seat) -> Response:
    """The game's record for its player: the hands whose results everyone was told,
    while it is played."""
    text = await server.record(seat.ref.game_id, seat.ref)
    return Response(text, media_type="application/json")


@router.get("/api/games/{game_id}/record", responses={403: {"model": Problem}})
async def record(server: Server, game_id: int) -> Response:
    """The record ``umtali replay`` reads, once the game is over."""
    text = await server.record(game_id)
    return Response(text, media_type="application/json")


@router.get("/api/games/{game_id}/hands/{hand_index}/verify")
async def verify(server: Server, game_id: int, hand_index: int) -> VerifyReply:
    """A hand's deck commitment; with the salt and the deck once the hand is over."""
    return await server.verify(game_id, hand_index)
