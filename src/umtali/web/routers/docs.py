"""The API's documentation pages, ``/docs`` (Swagger UI) and ``/redoc``: served only when
asked for (``umtali serve --api-docs``, ``create_app(..., api_docs=True)``), for
development. FastAPI's pages load their scripts and styles from a public CDN and run an
inline script; here they carry the same security headers as every page
(:data:`~umtali.web.routers.pages.SECURITY_HEADERS`), whose policy allows neither, so a
browser that keeps the policy shows them blank. ``/openapi.json``, the schema they
read, is always served: tools read it directly (docs/WEB.md, "The API").
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse

from umtali.web.routers.pages import SECURITY_HEADERS

__all__ = ["router"]

router = APIRouter(include_in_schema=False)


def _guarded(page: HTMLResponse) -> HTMLResponse:
    page.headers.update(SECURITY_HEADERS | {"Cache-Control": "no-cache"})
    return page


@router.get("/docs")
async def swagger(request: Request) -> HTMLResponse:
    """Swagger UI over the schema."""
    return _guarded(get_swagger_ui_html(openapi_url=request.app.openapi_url, title="Umtali - API"))


@router.get("/redoc")
async def redoc(request: Request) -> HTMLResponse:
    """ReDoc over the schema."""
    return _guarded(get_redoc_html(openapi_url=request.app.openapi_url, title="Umtali - API"))
