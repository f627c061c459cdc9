"""A game review in the browser (:mod:`umtali.learn.review`): a seat's own finished
hands (``POST /api/seat/{secret}/review``) or a record the replay page was given
(``POST /api/review``), each decision of the player weighed by playouts from what he
could see, and the page ``/review`` that shows it.

A seat's review reads the record its holder may download (the hands whose results
everyone was told: :meth:`umtali.web.server.GameServer.record`), so it shows nothing
that record does not; and each decision is weighed from the player's own view of the
hand, so even of that it shows only his own cards and what lay on the table. The work is
bounded: :data:`REVIEW_PLAYOUTS` a decision at most, :data:`REVIEW_SECONDS` a decision,
one review at a time for each client address and :data:`AT_ONCE` on the whole server.
"""

from __future__ import annotations

import json
from typing import Any, Final

import anyio
from fastapi import APIRouter, HTTPException, Request
from pydantic import Field

from umtali import games
from umtali.games.api import HookError
from umtali.kernel.record import RecordError, load_any_bytes
from umtali.learn.review import Reviewer, ReviewError, Settings
from umtali.web.deps import Seat, Server
from umtali.web.protocol import Message, Problem
from umtali.web.routers.pages import STATIC_ROOT, file_response

__all__ = ["REVIEW_PATH", "REVIEW_PLAYOUTS", "ReviewReply", "ReviewRequest", "router"]

REVIEW_PATH: Final = "/api/review"
"""Where a record is sent to be reviewed (its body may be as large as a replay's)."""
REVIEW_PLAYOUTS: Final = 400
"""The most playouts a decision the server spends (and its default)."""
REVIEW_SECONDS: Final = 1.5
"""The most time a decision may take on the server."""
AT_ONCE: Final = 2
"""Reviews worked out at once on the whole server; others wait their turn."""

_busy: set[str] = set()
_limiter: anyio.CapacityLimiter | None = None


class ReviewRequest(Message):
    """Which finished hand to review (from 0; none: the last), and how many playouts a
    decision (at most :data:`REVIEW_PLAYOUTS`)."""

    hand: int | None = Field(default=None, ge=0, le=10_000)
    playouts: int = Field(default=REVIEW_PLAYOUTS, ge=8, le=REVIEW_PLAYOUTS)
    seed: int = Field(default=0, ge=0, le=2**31)


class AlternativeModel(Message):
    """One move the player could have made: expected points (his score minus his
    opponent's at the hand's end, on average), how many fewer than the best (with its
    standard error), the rest of his turn after it (the "show me"), and in a hand that
    ends a game the share of playouts in which he wins the game."""

    move: str
    expected: float
    loss: float
    error: float
    line: list[str]
    wins: float | None


class DecisionModel(Message):
    """One decision: where it stood, the move made, its loss and mark, the alternatives
    best first."""

    move_index: int
    turn: int
    where: str
    played: str
    loss: float
    mark: str
    playouts: int
    alternatives: list[AlternativeModel]


class ReviewReply(Message):
    """A hand reviewed for one player, and the finished hands he may review."""

    game: str
    title: str
    hand_index: int
    seat: int
    player: str
    result: str
    accuracy: float
    lost: float
    playouts: int
    seed: int
    marks: dict[str, float]
    decisions: list[DecisionModel]
    hands: list[int]


def reviewed(raw: bytes, seat: int, request: ReviewRequest) -> ReviewReply:
    """The record in ``raw`` read (:class:`RecordError` as ``umtali replay`` refuses it)
    and hand ``request.hand`` reviewed for ``seat`` (:class:`ReviewError` when it cannot
    be)."""
    match = load_any_bytes(raw)
    spec = games.spec_of(match)
    try:
        reviewer: Reviewer = spec.hook("review")
    except HookError:
        raise ReviewError(f"{spec.title} has no game review yet") from None
    if not 0 <= seat < len(match.players):
        raise ReviewError(f"the record has {len(match.players)} players: no player {seat + 1}")
    hands = [index for index, seats in reviewer.hands(match) if seat in seats]
    if not hands:
        raise ReviewError("there is no finished hand of yours to review yet")
    hand = hands[-1] if request.hand is None else request.hand
    if hand not in hands:
        raise ReviewError(f"hand {hand + 1} is not a finished hand of yours")
    settings = Settings(playouts=request.playouts, seed=request.seed, seconds=REVIEW_SECONDS)
    done = reviewer.review(match, hand, seat, settings).to_dict()
    return ReviewReply(**done, title=spec.title, hands=hands)


async def _work(request: Request, raw: bytes, seat: int, asked: ReviewRequest) -> ReviewReply:
    """One review, off the event loop: one at a time a client address."""
    global _limiter
    address = request.client.host if request.client is not None else "?"
    if address in _busy:
        raise HTTPException(
            429, "a review of yours is still being worked out: wait for it, then ask again"
        )
    if _limiter is None:
        _limiter = anyio.CapacityLimiter(AT_ONCE)
    _busy.add(address)
    try:
        return await anyio.to_thread.run_sync(reviewed, raw, seat, asked, limiter=_limiter)
    except (RecordError, ReviewError) as e:
        raise HTTPException(422, f"cannot review this: {e}") from None
    finally:
        _busy.discard(address)


def router(max_bytes: int) -> APIRouter:
    """The review routes and page; an uploaded record may take ``max_bytes``."""
    routes = APIRouter()

    @routes.post(
        "/api/seat/{secret}/review",
        response_model=ReviewReply,
        responses={404: {"model": Problem}, 422: {"model": Problem}, 429: {"model": Problem}},
    )
    async def seat_review(
        request: Request, server: Server, seat: Seat, asked: ReviewRequest
    ) -> ReviewReply:
        """Review one of the seat's finished hands (the last unless ``hand`` is given),
        from the record its holder may download."""
        text = await server.record(seat.ref.game_id, seat.ref)
        return await _work(request, text.encode(), seat.ref.seat, asked)

    @routes.post(
        REVIEW_PATH,
        response_model=ReviewReply,
        responses={413: {"model": Problem}, 422: {"model": Problem}, 429: {"model": Problem}},
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {"application/json": {"schema": {"type": "object"}}},
                "description": "{'record': a game record as `umtali replay` reads it,"
                " 'player': from 0, 'hand': from 0, 'playouts': at most"
                f" {REVIEW_PLAYOUTS}}}",
            }
        },
    )
    async def record_review(request: Request) -> ReviewReply:
        """Review a player's hand in a record sent from the replay page."""
        raw = bytearray()
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > max_bytes:
                raise HTTPException(413, "the record is too large to review")
        try:
            body: Any = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            raise HTTPException(422, "cannot review this: it is not JSON") from None
        if not isinstance(body, dict) or not isinstance(body.get("record"), dict):
            raise HTTPException(422, "cannot review this: send the record and the player")
        player = body.get("player", 0)
        if type(player) is not int or not 0 <= player < 4:
            raise HTTPException(422, "cannot review this: the player is a number from 0")
        try:
            asked = ReviewRequest.model_validate(
                {k: body[k] for k in ("hand", "playouts", "seed") if k in body}
            )
        except ValueError:
            raise HTTPException(
                422,
                f"cannot review this: the hand is a number from 0 and playouts from 8 to"
                f" {REVIEW_PLAYOUTS}",
            ) from None
        return await _work(request, json.dumps(body["record"]).encode(), player, asked)

    async def page(request: Request) -> Any:
        return file_response(request, STATIC_ROOT / "learn" / "review.html")

    routes.add_api_route("/review", page, methods=["GET"], include_in_schema=False)
    return routes
