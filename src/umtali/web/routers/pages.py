"""The browser game's pages: the static files (HTML, ES modules, CSS) and the paths
that open them. Everything here is served as it is stored; the game itself comes from
the API (:mod:`umtali.web.app`).

- ``/`` (the home page: a new game, an invitation) and ``/seat/{secret}`` (a seat's
  table) both answer ``static/index.html``; its script reads the path and asks the API
  for the rest, so a reload resumes the seat from its link.
- ``/static/{path}`` answers the files under ``static/`` (the learning pages' files
  among them): only regular files with a known type, none hidden, nothing outside the
  folder.

Every answer forbids what the pages never need. The Content-Security-Policy allows
scripts, styles, images and connections from this server only, and no inline script or
style at all. ``Referrer-Policy: no-referrer`` matters most: a seat's path is its
secret, and a browser would otherwise send that path to whatever it loads next. The
files carry an ``ETag`` and ``Cache-Control: no-cache``: a browser keeps them and asks
each time whether they changed (a ``304`` when not), since their names carry no
version that a longer cache could rely on.

>>> import tempfile, os
>>> from fastapi.testclient import TestClient
>>> from umtali.web.app import create_app
>>> folder = tempfile.TemporaryDirectory()
>>> with TestClient(create_app(f"sqlite:///{folder.name}/u.db")) as client:
...     page = client.get("/")
...     script = client.get("/static/js/cards.js")
>>> page.status_code, page.headers["content-type"], page.headers["referrer-policy"]
(200, 'text/html; charset=utf-8', 'no-referrer')
>>> script.headers["content-type"], "unsafe-inline" in script.headers["content-security-policy"]
('text/javascript; charset=utf-8', False)
>>> folder.cleanup()
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Final

from fastapi import APIRouter, Request
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse, Response

__all__ = [
    "CONTENT_SECURITY_POLICY",
    "MEDIA_TYPES",
    "SECURITY_HEADERS",
    "STATIC_ROOT",
    "file_response",
    "router",
]

STATIC_ROOT: Final = Path(__file__).resolve().parent.parent / "static"
"""The folder the pages are served from (installed with the package as package data)."""

CONTENT_SECURITY_POLICY: Final = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        # 'self' covers the WebSocket to this same host (ws: and wss:) as well.
        "connect-src 'self'",
        "manifest-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    )
)
"""What a page may load: its own server's files and API, nothing inline, no frames."""

SECURITY_HEADERS: Final = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
"""Headers on every page and static file."""

MEDIA_TYPES: Final = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".toml": "text/plain; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".woff2": "font/woff2",
}
"""The types of file served; a file of any other type is answered 404, so nothing that
happens to lie in the folder (a backup, an editor's swap file) is given out by accident."""

MAX_PATH_CHARS: Final = 300
"""The longest static path looked up; every real one is far shorter."""

router = APIRouter(include_in_schema=False)


@dataclass(frozen=True)
class _Stored:
    """One file as last read: its bytes and their entity tag, kept until it (or a file
    it includes) changes."""

    stamp: tuple[tuple[int, int], ...]
    body: bytes
    etag: str
    parts: tuple[Path, ...] = ()
    """The files its ``include`` lines took in (:func:`_included`)."""


_read: dict[Path, _Stored] = {}

_INCLUDE: Final = re.compile(
    rb'^<!--#include (?P<name>[a-z][a-z0-9/_-]*\.html)(?: current="(?P<current>/[a-z]*)")?-->\n',
    re.MULTILINE,
)
"""A line of an HTML page that stands for a file the pages share (their head's lines,
the learning pages' header): ``<!--#include learn/site-header.html current="/quiz"-->``,
the path under ``STATIC_ROOT``, and the link of the page itself, marked as the current
one."""


def _stamp(path: Path) -> tuple[int, int]:
    info = path.stat()
    return (info.st_mtime_ns, info.st_size)


def _included(body: bytes) -> tuple[bytes, tuple[Path, ...]]:
    """``body`` with each :data:`_INCLUDE` line replaced by the file it names, and those
    files. Written once, served by every page that includes it: no build step.

    >>> page, parts = _included(b'<body>\\n<!--#include learn/site-header.html current="/quiz"-->\\n')
    >>> b'<a href="/quiz" aria-current="page">Quiz</a>' in page, [p.name for p in parts]
    (True, ['site-header.html'])
    """
    parts: list[Path] = []

    def part(found: re.Match[bytes]) -> bytes:
        path = STATIC_ROOT / found["name"].decode()
        parts.append(path)
        text = path.read_bytes()
        current = found["current"]
        if current is not None:
            link = b'<a href="' + current + b'"'
            text = text.replace(link + b">", link + b' aria-current="page">', 1)
        return text

    return _INCLUDE.sub(part, body), tuple(parts)


def _load(path: Path) -> _Stored:
    """The file's bytes (an HTML page's with its ``include`` lines filled in) and ETag,
    read again only when its size or time, or one of the files it includes, has
    changed."""
    known = _read.get(path)
    if known is not None and known.stamp == tuple(map(_stamp, (path, *known.parts))):
        return known
    stamp = _stamp(path)
    body = path.read_bytes()
    parts: tuple[Path, ...] = ()
    if path.suffix == ".html":
        body, parts = _included(body)
    stamps = (stamp, *map(_stamp, parts))
    stored = _Stored(stamps, body, '"' + hashlib.sha256(body).hexdigest()[:32] + '"', parts)
    _read[path] = stored
    return stored


def _not_found(what: str) -> JSONResponse:
    return JSONResponse(
        {"detail": what}, status_code=404, headers=SECURITY_HEADERS | {"Cache-Control": "no-store"}
    )


def file_response(request: Request, path: Path) -> Response:
    """The file at ``path`` with the pages' headers (the security headers, an ETag,
    ``Cache-Control: no-cache``), or 304 when the browser's copy is current. ``path``
    must be a file of a type in :data:`MEDIA_TYPES`; other routers that serve a page
    (the learning pages) may answer through this to carry the same headers."""
    stored = _load(path)
    headers = SECURITY_HEADERS | {"Cache-Control": "no-cache", "ETag": stored.etag}
    asked = request.headers.get("if-none-match", "")
    if stored.etag in (tag.strip().removeprefix("W/") for tag in asked.split(",")):
        return Response(status_code=304, headers=headers)
    body = b"" if request.method == "HEAD" else stored.body
    response = Response(body, media_type=MEDIA_TYPES[path.suffix], headers=headers)
    if request.method == "HEAD":
        response.headers["content-length"] = str(len(stored.body))
    return response


def _served(relative: str) -> Path | None:
    """The file under ``STATIC_ROOT`` that ``relative`` names, or ``None`` when it names
    no file served: none there, a folder, a hidden name, an unknown type, or a path that
    leads out of the folder (``..``, a link pointing elsewhere)."""
    if len(relative) > MAX_PATH_CHARS or "\\" in relative or "\x00" in relative:
        return None
    parts = relative.split("/")
    if any(part == "" or part.startswith(".") for part in parts):
        return None
    candidate = STATIC_ROOT.joinpath(*parts)
    try:
        resolved = candidate.resolve(strict=True)
    except (OSError, RuntimeError):
        return None
    if not resolved.is_relative_to(STATIC_ROOT) or not resolved.is_file():
        return None
    if resolved.suffix not in MEDIA_TYPES:
        return None
    return resolved


@router.api_route("/", methods=["GET", "HEAD"])
async def home(request: Request) -> Response:
    """The home page: a new game against the computer, or an invitation."""
    return file_response(request, STATIC_ROOT / "index.html")


@router.api_route("/seat/{secret}", methods=["GET", "HEAD"])
async def seat_page(
    request: Request, secret: Annotated[str, PathParam(max_length=200)]
) -> Response:
    """A seat's table. The same page as ``/``: its script reads the secret from the
    path and asks the API for the seat, which answers 404 for a link that names none.
    ``secret`` is not looked at here, so this answer tells nothing about it."""
    del secret  # the page's script reads it from its own address
    return file_response(request, STATIC_ROOT / "index.html")


@router.api_route("/static/{relative:path}", methods=["GET", "HEAD"])
async def static_file(request: Request, relative: str) -> Response:
    """A file of the pages: HTML, ES modules, CSS, SVG."""
    path = _served(relative)
    if path is None:
        return _not_found(
            "no page file has this path: the pages' files are under /static/"
            " (for example /static/js/cards.js)"
        )
    return file_response(request, path)
