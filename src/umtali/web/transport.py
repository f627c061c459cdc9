"""The transport's limits: what one connection may cost the server before a request
reaches the application (docs/WEB.md, "Limits").

:class:`ServerLimits` holds them: the size and time a request head may take, the time
its body may take, how long an idle connection stays open, how many connections are
served at once, a WebSocket's message size and pings, and how many WebSockets one seat
may hold open. uvicorn is given most of them (``umtali serve``);
:mod:`umtali.web.http_guard` enforces the size and time of a request head, which uvicorn
does not, :class:`umtali.web.middleware.BodyLimit` the time of its body, and
:class:`SocketCount` counts each seat's open WebSockets. This module imports nothing
from outside the standard library, so that the command's options can be checked without
the ``web`` extra.

>>> count = SocketCount(2)
>>> count.enter("a"), count.enter("a"), count.enter("a")
(True, True, False)
>>> count.leave("a"); count.enter("a")
True
>>> count.leave("a"); count.leave("a"); len(count)
0
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, fields
from typing import Final

__all__ = [
    "BOUNDS",
    "TOO_MANY_SOCKETS_CODE",
    "ServerLimits",
    "SocketCount",
]

TOO_MANY_SOCKETS_CODE: Final = 4429
"""The close code of a seat's WebSocket opened while the seat holds
:attr:`ServerLimits.sockets_per_seat` open already (the page stops retrying on it)."""


@dataclass(frozen=True)
class ServerLimits:
    """The transport's limits, each with its default (docs/WEB.md, "Limits").

    >>> ServerLimits().header_bytes
    32768
    >>> ServerLimits(header_seconds=0)
    Traceback (most recent call last):
    ...
    ValueError: header_seconds: give from 0.1 to 3600 seconds, not 0
    """

    header_bytes: int = 32 * 1024
    """The most bytes a request's head (its request line and headers) may take: a
    larger one is refused with 431 and the connection closed."""
    header_seconds: float = 10.0
    """Seconds a connection has to send a whole request head, from its first byte (or
    from its opening): a slower one is closed."""
    body_seconds: float = 10.0
    """Seconds a request has, once its head is whole, to send its whole body: a slower
    one is answered 408 and its connection closed (:class:`umtali.web.middleware.BodyLimit`)."""
    keep_alive_seconds: float = 5.0
    """Seconds an idle connection stays open between two requests."""
    max_connections: int = 1000
    """Connections (WebSockets included) and requests served at once: a request over
    it is answered 503."""
    socket_message_bytes: int = 64 * 1024
    """The largest WebSocket message a client may send: a larger one closes the socket
    (code 1009)."""
    ping_seconds: float = 20.0
    """Seconds between the server's WebSocket pings."""
    ping_timeout_seconds: float = 20.0
    """Seconds a WebSocket client has to answer a ping before it is closed."""
    sockets_per_seat: int = 4
    """WebSockets one seat may hold open at once (per process): the next is closed
    with code 4429."""

    def __post_init__(self) -> None:
        for field in fields(self):
            low, high = BOUNDS[field.name]
            value = getattr(self, field.name)
            if not low <= value <= high:  # also refuses nan
                unit = next((u for u in ("bytes", "seconds") if field.name.endswith(u)), "")
                raise ValueError(
                    f"{field.name}: give from {low:g} to {high:g}{' ' + unit if unit else ''},"
                    f" not {value!r}"
                )


BOUNDS: Final[dict[str, tuple[float, float]]] = {
    "header_bytes": (1024, 1024 * 1024),
    "header_seconds": (0.1, 3600),
    "body_seconds": (0.1, 3600),
    "keep_alive_seconds": (0.1, 3600),
    "max_connections": (1, 1_000_000),
    "socket_message_bytes": (1024, 16 * 1024 * 1024),
    "ping_seconds": (0.1, 3600),
    "ping_timeout_seconds": (0.1, 3600),
    "sockets_per_seat": (1, 1000),
}
"""The values each of :class:`ServerLimits` may take (the options of ``umtali serve``
say the same)."""


class SocketCount:
    """How many WebSockets each key (a seat) holds open, up to ``most`` at once; a key
    with none open costs nothing."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._open: dict[Hashable, int] = {}

    def enter(self, key: Hashable) -> bool:
        """Count one more socket for ``key``, unless it holds ``most`` already."""
        held = self._open.get(key, 0)
        if held >= self.most:
            return False
        self._open[key] = held + 1
        return True

    def leave(self, key: Hashable) -> None:
        """One socket of ``key`` closed."""
        held = self._open.get(key, 0) - 1
        if held > 0:
            self._open[key] = held
        else:
            self._open.pop(key, None)

    def __len__(self) -> int:
        return len(self._open)
