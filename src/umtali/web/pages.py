"""The browser game's pages: the static files (HTML, ES modules, CSS) and the paths
that open them. Everything here is served as it is stored; the game itself comes from
the API (:mod:`umtali.web.app`)."""

from __future__ import annotations

from fastapi import APIRouter

__all__ = ["router"]

router = APIRouter()
