"""The routes' dependencies (FastAPI's ``Depends``): the server of the application, the
seat a path's secret names, and a seat's allowance of requests; and the errors they
raise, which :func:`install_handlers` answers.

A seat is named by its secret in the path (the link is the seat); a secret the store
did not give out is answered 404, the same for a forged one as for a mistyped one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Annotated, Final

from fastapi import Depends, FastAPI, Path, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from umtali.games import UnknownGameError
from umtali.web.protocol import Problem
from umtali.web.server import (
    GameServer,
    NotNow,
    NotOffered,
    NotYourTurn,
    RecordWithheld,
    ServerFullError,
    TooManyGamesError,
)
from umtali.web.store import SeatRef, StoreError

__all__ = [
    "NO_SEAT",
    "Holder",
    "Limited",
    "NoSeatError",
    "Seat",
    "Server",
    "TooManyError",
    "install_handlers",
    "problem",
]

NO_SEAT: Final = (
    "no seat has this link: check that it was copied whole (a link cannot be guessed,"
    " and a game's links are given out only when it is created)"
)


class NoSeatError(Exception):
    """A secret that names no seat."""


class TooManyError(Exception):
    """A seat over its limit of requests; ``seconds`` until the next is allowed."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.seconds = seconds


@dataclass(frozen=True)
class Holder:
    """Who holds a seat's link: the seat, and the secret it came with (from which a
    rematch's link is worked out)."""

    ref: SeatRef
    secret: str


def _server(request: Request) -> GameServer:
    server: GameServer = request.app.state.server
    return server


Server = Annotated[GameServer, Depends(_server)]
"""The application's :class:`GameServer`."""


async def _holder(server: Server, secret: Annotated[str, Path(max_length=200)]) -> Holder:
    ref = await server.seat(secret)
    if ref is None:
        raise NoSeatError
    await server.seen(ref)
    return Holder(ref, secret)


Seat = Annotated[Holder, Depends(_holder)]
"""The seat a route's ``{secret}`` names (its player is seen now); 404 when it names
none."""


def _limited(server: Server, seat: Seat) -> Holder:
    wait = server.allow(seat.ref)
    if wait is not None:
        raise TooManyError(wait)
    return seat


Limited = Annotated[Holder, Depends(_limited)]
"""The seat, its request counted against its limit of moves, hints and questions: 429
when it is over."""


def problem(status: int, detail: str, headers: dict[str, str] | None = None) -> JSONResponse:
    """A refusal, as a :class:`~umtali.web.protocol.Problem`."""
    return JSONResponse(Problem(detail=detail).model_dump(), status_code=status, headers=headers)


def install_handlers(app: FastAPI) -> None:
    """Answer the errors of the server and of these dependencies as problems."""

    statuses: dict[type[Exception], int] = {
        StoreError: 404,
        UnknownGameError: 404,
        RecordWithheld: 403,
        NotYourTurn: 409,
        NotNow: 409,
        NotOffered: 422,
    }
    for error, status in statuses.items():

        async def answer(_request: Request, e: Exception, status: int = status) -> JSONResponse:
            return problem(status, str(e))

        app.add_exception_handler(error, answer)

    async def no_seat(_request: Request, _error: Exception) -> JSONResponse:
        return problem(404, NO_SEAT)

    async def too_many(request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, TooManyError)
        limit = _server(request).seat_requests
        return problem(
            429,
            f"too many requests for this seat: at most {limit.rate:g} a second"
            f" ({limit.burst:g} at once); try again in {max(error.seconds, 0.1):.1f} seconds",
            headers={"Retry-After": str(max(1, round(error.seconds + 0.5)))},
        )

    async def invalid(_request: Request, error: Exception) -> JSONResponse:
        # FastAPI's own answer echoes each wrong value back, and a value that cannot be
        # encoded (a lone surrogate that got past TextOnly) would turn it into a 500: the
        # answer says where and what is wrong, never the value itself.
        assert isinstance(error, RequestValidationError)
        told = [
            {key: value for key, value in found.items() if key in ("type", "loc", "msg")}
            for found in error.errors()
        ]
        return JSONResponse({"detail": jsonable_encoder(told)}, status_code=422)

    async def refused_game(_request: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, TooManyGamesError | ServerFullError)
        status = 429 if isinstance(error, TooManyGamesError) else 503
        return problem(
            status, str(error), headers={"Retry-After": str(max(1, math.ceil(error.seconds)))}
        )

    app.add_exception_handler(TooManyGamesError, refused_game)
    app.add_exception_handler(ServerFullError, refused_game)
    app.add_exception_handler(NoSeatError, no_seat)
    app.add_exception_handler(TooManyError, too_many)
    app.add_exception_handler(RequestValidationError, invalid)
