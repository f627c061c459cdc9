"""``GET /healthz``: the server answers."""

from __future__ import annotations

from fastapi import APIRouter

from umtali.web.protocol import Health

__all__ = ["router"]

router = APIRouter()


@router.get("/healthz")
async def healthz() -> Health:
    """The server is up."""
    return Health()
