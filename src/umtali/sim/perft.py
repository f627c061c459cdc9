"""Perft: the number of distinct legal move sequences of a given length, for the engine
of any game whose hand can take a move back.

Counting every path through the move tree exercises move generation, push and pop at
once; golden counts kept in the tests make any change in move generation show.

>>> from umtali import HandState
>>> perft(HandState.from_seed(1), 3)
19
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

__all__ = ["Searchable", "perft"]


class Searchable(Protocol):
    """A hand an engine plays, with its moves taken back: Umtali's ``HandState``."""

    def is_over(self) -> bool: ...

    def legal_actions(self) -> Sequence[Any]: ...

    def push(self, action: Any, /) -> None: ...

    def pop(self) -> object: ...


def perft(state: Searchable, depth: int) -> int:
    """Leaf count of the move tree ``depth`` moves deep (a finished hand is a leaf)."""
    if depth == 0 or state.is_over():
        return 1
    actions = list(state.legal_actions())
    if depth == 1:
        return len(actions)
    total = 0
    for action in actions:
        state.push(action)
        total += perft(state, depth - 1)
        state.pop()
    return total
