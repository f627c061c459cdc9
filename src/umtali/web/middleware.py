"""What the application does around its routes: a limit on the size of a request's
body, read before the body is, and a filter that keeps seats' secrets out of the log.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any, Final

__all__ = ["MAX_BODY_BYTES", "BodyLimit", "HideSecrets"]

MAX_BODY_BYTES: Final = 16 * 1024
"""The largest request body read: every message in the protocol is far smaller."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyLimit:
    """Refuse with 413 a request body over ``limit`` bytes, whether its length is
    announced or it comes in chunks, before the application reads it whole."""

    def __init__(
        self,
        app: ASGIApp,
        limit: int = MAX_BODY_BYTES,
        larger: Mapping[str, int] | None = None,
    ) -> None:
        self.app = app
        self.limit = limit
        self.larger = dict(larger or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # A route that takes larger bodies (a record to replay) names its own limit.
        limit = self.larger.get(scope.get("path", ""), self.limit)
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and (not value.isdigit() or int(value) > limit):
                await self._refuse(send, limit)
                return
        # The body is read here, whole, up to the limit (it is small), and handed on.
        body = b""
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before sending it all
            body += message.get("body", b"")
            if len(body) > limit:
                await self._refuse(send, limit)
                return
            if not message.get("more_body", False):
                break
        given = False

        async def replayed() -> Message:
            nonlocal given
            if not given:
                given = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replayed, send)

    async def _refuse(self, send: Send, limit: int) -> None:
        body = json.dumps(
            {"detail": f"the request body is too large: at most {limit:,} bytes are read"}
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})


class HideSecrets(logging.Filter):
    """Cut a seat's secret out of a log record's path: uvicorn logs each WebSocket it
    accepts with its path (``/ws/seat/SECRET``), and whoever reads the log must not
    be able to play the seat.

    >>> record = logging.LogRecord("uvicorn.error", 20, "", 0, '"WebSocket %s"',
    ...                            ("/ws/seat/abcDEF_-123",), None)
    >>> HideSecrets().filter(record), record.getMessage()
    (True, '"WebSocket /ws/seat/…"')
    """

    _SECRET = re.compile(r"(/(?:ws|api)/seat/)[^/\s\"?]+")

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                self._SECRET.sub(r"\1…", arg) if isinstance(arg, str) else arg
                for arg in record.args
            )
        if isinstance(record.msg, str):
            record.msg = self._SECRET.sub(r"\1…", record.msg)
        return True
