"""uvicorn's HTTP protocol with the two limits of :class:`ServerLimits` that uvicorn
does not enforce on its own (docs/WEB.md, "Limits"): a request head over
``header_bytes`` is refused with 431 and its connection closed, and a connection whose
request head is not whole within ``header_seconds`` of its first byte (or of the
connection's opening) is closed, so that a client sending a header line a second
(slowloris) holds nothing for long.

uvicorn's httptools implementation, which ``uvicorn[standard]`` installs and uvicorn
picks by default, bounds neither (a 20 MB head was read whole); its h11 implementation
bounds the size (``h11_max_incomplete_event_size``) but not the time, and is slower.
So ``umtali serve`` runs :func:`guarded_http`, the httptools protocol with both.

The timer is the server's, and a busy server can be late: uvloop runs its due timers
before it reads its sockets, so a loop held up past the deadline found a request that
came in time still unread, and closed it unanswered. A head whose time is up while
bytes wait unread on its socket is given one more ``header_seconds``.
"""

from __future__ import annotations

import asyncio
import select
from typing import Any, Final

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from umtali.web.transport import ServerLimits

__all__ = ["WorkerGuardedHttp", "guarded_http"]


class _HeadTooLargeError(Exception):
    """Raised from a parser callback to stop reading an oversize head."""


_REFUSAL: Final = b"request headers too large"


def _unread_bytes_wait(transport: asyncio.BaseTransport) -> bool:
    """Whether the connection's socket holds bytes (or the client's end) the event loop
    has not read yet."""
    sock = transport.get_extra_info("socket")
    if sock is None or not hasattr(select, "poll"):
        return False
    poller = select.poll()
    poller.register(sock.fileno(), select.POLLIN)
    return bool(poller.poll(0))


class _GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol, with a bound on each request head's size and on
    the time it takes to arrive. httptools keeps what it has read of a header until
    the header is whole, so besides the lengths the parser reports, the bytes read
    while a head is incomplete are counted: a head never holds more than
    ``header_bytes`` and one read."""

    limits: ServerLimits = ServerLimits()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._head_timer: asyncio.TimerHandle | None = None
        self._in_head = False
        self._head_bytes = 0
        self._oversize = False
        self._given_more_time = False

    # The timer: armed when the connection opens and when a request begins, stopped
    # when its head is whole.
    def _arm(self) -> None:
        if self._head_timer is None:
            self._head_timer = self.loop.call_later(self.limits.header_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _too_slow(self) -> None:
        self._head_timer = None
        if self.transport.is_closing():
            return
        if not self._given_more_time and _unread_bytes_wait(self.transport):
            # The server, not the client, is late (see the module's docstring).
            self._given_more_time = True
            self._arm()
            return
        self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing():
            return
        super().data_received(data)
        if self._in_head and not self.transport.is_closing():
            self._head_bytes += len(data)
            if self._head_bytes > self.limits.header_bytes:
                self._oversize = True
                self.send_400_response("")

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._in_head = True
        self._head_bytes = 0
        self._arm()

    def _count(self, size: int) -> None:
        self._head_bytes += size
        if self._head_bytes > self.limits.header_bytes:
            self._oversize = True
            raise _HeadTooLargeError

    def on_url(self, url: bytes) -> None:
        self._count(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count(len(name) + len(value) + 4)
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._in_head = False
        self._given_more_time = False
        self._disarm()
        super().on_headers_complete()

    def send_400_response(self, msg: str) -> None:
        if not self._oversize:
            super().send_400_response(msg)
            return
        self._disarm()
        self.transport.write(
            b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
            b"content-type: text/plain; charset=utf-8\r\n"
            b"content-length: " + str(len(_REFUSAL)).encode() + b"\r\n"
            b"connection: close\r\n\r\n" + _REFUSAL
        )
        self.transport.close()


def guarded_http(limits: ServerLimits) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol class (its ``http`` setting) bounded by ``limits``'s
    ``header_bytes`` and ``header_seconds``."""
    return type("GuardedHttp", (_GuardedHttp,), {"limits": limits})


class WorkerGuardedHttp(_GuardedHttp):
    """The guarded protocol of a worker of ``umtali serve --workers N``, which uvicorn
    imports by name in each worker: its limits are set when the worker makes its
    application (:func:`umtali.web.workers.app_from_environment`), before any connection
    comes."""
