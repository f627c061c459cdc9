"""Rate limits: how often a seat, or a WebSocket connection, may ask the server for work
(a move, a hint, a question), as token buckets kept in each process.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

__all__ = ["SEAT_REQUESTS", "RateLimit", "TokenBucket"]


@dataclass(frozen=True)
class RateLimit:
    """At most ``rate`` requests a second on average, and ``burst`` at once."""

    rate: float
    burst: float


class TokenBucket:
    """A token bucket: :meth:`take` spends a token if one is left; tokens come back at
    ``limit.rate`` a second, up to ``limit.burst``.

    >>> now = [0.0]
    >>> bucket = TokenBucket(RateLimit(rate=2, burst=3), clock=lambda: now[0])
    >>> [bucket.take() for _ in range(4)]
    [True, True, True, False]
    >>> bucket.wait()
    0.5
    >>> now[0] = 0.5
    >>> bucket.take(), bucket.take()
    (True, False)
    """

    def __init__(self, limit: RateLimit, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self._clock = clock
        self._tokens = limit.burst
        self._stamp = clock()

    def _fill(self) -> None:
        now = self._clock()
        self._tokens = min(self.limit.burst, self._tokens + (now - self._stamp) * self.limit.rate)
        self._stamp = now

    def take(self) -> bool:
        """Spend a token, if there is one."""
        self._fill()
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        return False

    def give_back(self) -> None:
        """Return a token spent on something that was then refused (never past ``burst``).

        >>> bucket = TokenBucket(RateLimit(rate=1, burst=1), clock=lambda: 0.0)
        >>> bucket.take(), bucket.take(), bucket.give_back(), bucket.take()
        (True, False, None, True)
        """
        self._fill()
        self._tokens = min(self.limit.burst, self._tokens + 1)

    def wait(self) -> float:
        """Seconds until the next token."""
        self._fill()
        return max(0.0, (1 - self._tokens) / self.limit.rate)

    @property
    def full(self) -> bool:
        """Whether the bucket is full again (nothing spent lately)."""
        self._fill()
        return self._tokens >= self.limit.burst


SEAT_REQUESTS: Final = RateLimit(rate=10, burst=20)
"""The default limit on a seat's moves, hints and questions over HTTP."""
