"""What the application does around its routes: a limit on the size of a request's
body, read before the body is, and on the time it takes to arrive; a refusal of JSON that holds a lone surrogate, which no
answer could quote; and a filter that keeps seats' secrets out of the log.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable, Mapping, MutableMapping
from typing import Any, Final

from umtali.web.transport import ServerLimits

__all__ = [
    "MAX_BODY_BYTES",
    "BodyLimit",
    "HideSecrets",
    "TextOnly",
    "lone_surrogate",
    "surrogate_refusal",
]

MAX_BODY_BYTES: Final = 16 * 1024
"""The largest request body read: every message in the protocol is far smaller."""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class BodyLimit:
    """Refuse with 413 a request body over ``limit`` bytes, whether its length is
    announced or it comes in chunks, before the application reads it whole; and with
    408, closing the connection, a body not whole within ``seconds`` of the start of its
    reading (a client that sends its head, then its body a byte a second)."""

    def __init__(
        self,
        app: ASGIApp,
        limit: int = MAX_BODY_BYTES,
        larger: Mapping[str, int] | None = None,
        seconds: float = ServerLimits.body_seconds,
    ) -> None:
        self.app = app
        self.limit = limit
        self.larger = dict(larger or {})
        self.seconds = seconds

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
        try:
            body = await _whole_body(receive, limit, self.seconds)
        except _TooLargeError:
            await self._refuse(send, limit)
            return
        except _TooSlowError:
            await _answer(
                send,
                408,
                f"the request body did not arrive within the time allowed ({self.seconds:g} s)",
                close=True,
            )
            return
        if body is None:
            return  # the client went away before sending it all
        await self.app(scope, _replay(body, receive), send)

    async def _refuse(self, send: Send, limit: int) -> None:
        await _answer(send, 413, f"the request body is too large: at most {limit:,} bytes are read")


_MAYBE_SURROGATE: Final = re.compile(rb"\\u[dD][89a-fA-F]|\xed[\xa0-\xbf]")
"""What a JSON text holding a surrogate must contain: an escape ``\\ud800`` to
``\\udfff``, or those code points' UTF-8-like bytes (which Python's JSON reader lets
through). Most bodies have neither, and are not read twice."""

MAX_SHOWN_PLACE: Final = 60
"""The most characters of where a lone surrogate was found that a refusal quotes."""


def lone_surrogate(data: object) -> str | None:
    """Where in ``data`` (read from JSON) a string holds a lone surrogate, as a dotted
    path (``rules``, ``invite.0``; ``a key`` when a key holds it), or ``None`` when none
    does. Such a string is no text: it cannot be written as UTF-8, so no answer could
    quote it, nor could any table store it. (A pair of surrogate escapes, as JSON writes
    a character beyond U+FFFF, is read as that one character, and is fine.)

    >>> import json
    >>> lone_surrogate(json.loads('{"rules": "standard", "invite": [1, "\\\\ud800"]}'))
    'invite.1'
    >>> lone_surrogate(json.loads('{"move": "\\\\ud83c\\\\udca1"}')) is None
    True
    """
    todo: list[tuple[str, object]] = [("", data)]
    while todo:  # not recursive: JSON may nest deeper than Python's stack
        place, value = todo.pop()
        if isinstance(value, str):
            try:
                value.encode()
            except UnicodeEncodeError:
                return place or "the message"
        elif isinstance(value, dict):
            for key, item in value.items():
                try:
                    key.encode()
                except UnicodeEncodeError:
                    return "a key" + (f" in {place}" if place else "")
                todo.append((f"{place}.{key}" if place else key, item))
        elif isinstance(value, list):
            todo.extend(
                (f"{place}.{index}" if place else str(index), item)
                for index, item in enumerate(value)
            )
    return None


def surrogate_refusal(place: str) -> str:
    """What is wrong with a JSON text that holds a lone surrogate at ``place``."""
    if len(place) > MAX_SHOWN_PLACE:
        place = place[:MAX_SHOWN_PLACE] + "…"
    return (
        f"the JSON holds a lone surrogate ({place}): an escape \\ud800 to \\udfff"
        " without its pair is no character; send text as UTF-8, or escape a character"
        " beyond U+FFFF as its pair of surrogates"
    )


class TextOnly:
    """Refuse with 400 a request whose body is JSON holding a lone surrogate
    (:func:`lone_surrogate`), whatever its route: such a string would reach the routes
    as text that cannot be encoded, and the answer quoting it (a validation error
    echoes what it was given) would fail with 500. Every body is checked, whatever
    its content type says; one that is not JSON goes on, for its route to refuse."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        # The body has been read whole, within its limit, by BodyLimit, outside this.
        body = await _whole_body(receive)
        if body is None:
            return  # the client went away before sending it all
        place = _surrogate_in(body)
        if place is not None:
            await _answer(send, 400, surrogate_refusal(place))
            return
        await self.app(scope, _replay(body, receive), send)


def _surrogate_in(body: bytes) -> str | None:
    """Where the JSON ``body`` holds a lone surrogate, if it is JSON and does."""
    if _MAYBE_SURROGATE.search(body) is None:
        return None
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return None  # no JSON: its route refuses it
    return lone_surrogate(data)


class _TooLargeError(Exception):
    """A request body past the limit :func:`_whole_body` was given."""


class _TooSlowError(Exception):
    """A request body not whole within the time :func:`_whole_body` was given."""


async def _whole_body(
    receive: Receive, limit: int | None = None, seconds: float | None = None
) -> bytes | None:
    """The request's body, read whole; ``None`` if the client went away before sending
    it all; :class:`_TooLargeError` as soon as it passes ``limit`` bytes;
    :class:`_TooSlowError` if it is not whole within ``seconds``."""
    body = b""
    try:
        async with asyncio.timeout(seconds):
            while True:
                message = await receive()
                if message["type"] != "http.request":
                    return None
                part: bytes = message.get("body", b"")
                body += part
                if limit is not None and len(body) > limit:
                    raise _TooLargeError
                if not message.get("more_body", False):
                    return body
    except TimeoutError:
        raise _TooSlowError from None


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives ``body`` first, whole, then what ``receive`` gives."""
    given = False

    async def replayed() -> Message:
        nonlocal given
        if not given:
            given = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


async def _answer(send: Send, status: int, detail: str, *, close: bool = False) -> None:
    """Answer ``status`` with a problem saying ``detail``; ``close``: and close the
    connection after it (what is left of the request is not read)."""
    body = json.dumps({"detail": detail}).encode()
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers})
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
