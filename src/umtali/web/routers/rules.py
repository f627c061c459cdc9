"""Each game's rules page, ``GET /rules/<game>``: its ``RULES.md`` as HTML
(:mod:`umtali.web.rules_page`), with an anchor for every rule a refusal links to. No
script; the pages' security headers."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, JSONResponse, Response

from umtali import games
from umtali.web.routers.pages import SECURITY_HEADERS
from umtali.web.rules_page import page_html, rules_page

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


@router.api_route("/rules/{game}", methods=["GET", "HEAD"])
async def rules(game: Annotated[str, PathParam(max_length=40)]) -> Response:
    """The rules of ``game``; 404 naming the games with a rules page when it is none."""
    have = [spec.name for spec in games.games() if spec.rules_text]
    if game not in have:
        return JSONResponse(
            {"detail": f"there are rules pages for {', '.join(have)}, not for that name"},
            status_code=404,
            headers=SECURITY_HEADERS | {"Cache-Control": "no-store"},
        )
    return HTMLResponse(
        page_html(rules_page(game)), headers=SECURITY_HEADERS | {"Cache-Control": "no-cache"}
    )
