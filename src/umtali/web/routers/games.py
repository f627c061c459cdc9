"""New games, and what the server offers: ``POST /api/games``, ``GET
/api/games-offered`` and each game's computer levels (``GET /api/games/{name}/levels``;
``GET /api/levels`` answers the default game's, or ``?game=``'s). Every game comes
from the registry (:mod:`umtali.games`), those with a browser table: nothing here names
one.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request

from umtali import games
from umtali.games import UnknownGameError
from umtali.games.api import GameSpec
from umtali.web.deps import Server
from umtali.web.protocol import (
    GameCreated,
    GamesOffered,
    Levels,
    NewGameRequest,
    Problem,
    offered,
    served,
)

__all__ = ["router"]

router = APIRouter()


@router.post(
    "/api/games",
    status_code=201,
    responses={422: {"model": Problem}, 429: {"model": Problem}, 503: {"model": Problem}},
)
async def new_game(server: Server, request: NewGameRequest, http: Request) -> GameCreated:
    """A new game against the computer, or between people by link: 429 when the
    client's address has made too many lately, 503 when the server plays as many games
    as it may (each with ``Retry-After``)."""
    address = http.client.host if http.client is not None else None
    return await server.create(request, address=address)


@router.get("/api/games-offered")
async def games_offered() -> GamesOffered:
    """The games a new game may be, each with its computer's levels, its rules
    variants, the lengths of match it may have and how many may play it."""
    return offered()


@router.get("/api/levels", responses={404: {"model": Problem}})
async def levels(
    game: Annotated[str | None, Query(max_length=40, description="which game")] = None,
) -> Levels:
    """A game's computer levels, weakest first, and the one a new game gets unless told:
    the default game's (Umtali's), or ``game``'s."""
    return Levels.of(_served(game or games.DEFAULT_GAME))


@router.get("/api/games/{name}/levels", responses={404: {"model": Problem}})
async def game_levels(name: str) -> Levels:
    """The game ``name``'s computer levels, weakest first, and its default."""
    return Levels.of(_served(name))


def _served(name: str) -> GameSpec:
    """The game ``name`` if the server plays it (404 otherwise)."""
    spec = games.get(name)
    if spec not in served():
        raise UnknownGameError(f"this server does not play {spec.title}: it has no table")
    return spec
