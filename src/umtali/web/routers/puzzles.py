"""Puzzles in the browser (:mod:`umtali.learn.puzzles`): ``GET /api/puzzles/{game}``
says how many a game has, ``GET /api/puzzles/{game}/{number}`` gives one (the position
as the player saw it, the moves, the answer and why), and the page ``/puzzles`` asks them.
Nothing here is secret: the puzzles are the ones shipped with the game."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel

from umtali import games
from umtali.games.api import GameSpec, HookError
from umtali.learn.puzzles import Puzzle, PuzzleError, PuzzleMaker
from umtali.web.protocol import Problem
from umtali.web.routers.pages import STATIC_ROOT, file_response

__all__ = ["PuzzleModel", "PuzzlesReply", "router"]


class OptionModel(BaseModel):
    move: str
    cards: list[str]
    expected: float


class PuzzleModel(BaseModel):
    """One puzzle: what the player saw (``facts`` in words, ``position`` to draw), the
    moves, the answer (an index into ``options``) and why."""

    number: int
    source: str
    prompt: str
    facts: list[str]
    position: dict[str, Any]
    options: list[OptionModel]
    answer: int
    gap: float
    error: float
    playouts: int
    explanation: str


class PuzzlesReply(BaseModel):
    """A game's puzzles: its title and how many there are (numbered from 1)."""

    game: str
    title: str
    count: int


def _puzzles(game: str) -> tuple[GameSpec, tuple[Puzzle, ...]]:
    spec = next((s for s in games.games() if s.name == game), None)
    if spec is None:
        raise HTTPException(404, "there is no such game")
    try:
        maker: PuzzleMaker = spec.hook("puzzles")
        return spec, maker.shipped()
    except (HookError, PuzzleError):
        raise HTTPException(404, f"{spec.title} has no puzzles yet") from None


def router() -> APIRouter:
    """The puzzle routes and page."""
    routes = APIRouter()

    @routes.get(
        "/api/puzzles/{game}", response_model=PuzzlesReply, responses={404: {"model": Problem}}
    )
    async def puzzles(game: str) -> PuzzlesReply:
        """How many puzzles a game has."""
        spec, found = _puzzles(game)
        return PuzzlesReply(game=spec.name, title=spec.title, count=len(found))

    @routes.get(
        "/api/puzzles/{game}/{number}",
        response_model=PuzzleModel,
        responses={404: {"model": Problem}},
    )
    async def puzzle(game: str, number: int) -> PuzzleModel:
        """One puzzle, by its number (from 1)."""
        _spec, found = _puzzles(game)
        if not 1 <= number <= len(found):
            raise HTTPException(404, f"there are {len(found)} puzzles: no puzzle {number}")
        return PuzzleModel.model_validate(found[number - 1].to_dict())

    async def page(request: Request) -> Any:
        return file_response(request, STATIC_ROOT / "learn" / "puzzles.html")

    routes.add_api_route("/puzzles", page, methods=["GET"], include_in_schema=False)
    return routes
