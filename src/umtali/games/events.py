"""A record told turn by turn: the one vocabulary of events every game's replay speaks
(layer 3).

``umtali replay``, ``umtali demo`` and the browser's replay page show a game with every
hand visible: what is played, each hand's dealer, each turn and who plays it, every move
as a sentence, the board after each turn, each hand's end, the totals, and the last word
(who won, or where an unfinished record stops). A game's ``events`` hook
(:attr:`umtali.games.api.GameSpec.events`) works that out from a record; a front end
draws each event, and asks the game's own screen or table to draw what only the game
knows: a ``board`` and a hand's ``summary``.

>>> event = HandBegins(number=2, dealer=0, title="Hand 2 · Ann deals")
>>> event.players is None  # a hand of the game's players, in their seats
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from umtali.kernel.players import player_name

__all__ = [
    "Event",
    "GameEnds",
    "HandBegins",
    "HandEnds",
    "HandStops",
    "Heading",
    "MatchEnds",
    "Moved",
    "Totals",
    "TurnBegins",
    "TurnEnds",
    "between_hands",
    "seat_labels",
]


@dataclass(frozen=True)
class Heading:
    """What the record holds, or how its players are placed: a line of its own."""

    text: str


@dataclass(frozen=True)
class HandBegins:
    """A hand begins: its number in the match (``None`` for a hand told alone), its
    dealer (a seat of the hand), a title naming them, and, in a game of three or four,
    the game's ``players`` at the hand's seats and their ``names``."""

    number: int | None
    dealer: int
    title: str
    players: tuple[int, ...] | None = None
    names: tuple[str, ...] | None = None


@dataclass(frozen=True)
class TurnBegins:
    """A turn begins: its number in the hand, who plays it (a seat of the hand), and a
    title (``"turn 3 · Player 2"``)."""

    turn: int
    player: int
    title: str


@dataclass(frozen=True)
class Moved:
    """A move, told as a sentence with every card named (a replay hides nothing): who
    played it (a seat of the hand) and the game's move (it writes itself with
    ``text()``)."""

    player: int
    move: Any
    sentence: str


@dataclass(frozen=True)
class TurnEnds:
    """A move passed the turn; ``board`` is the hand at that moment, as the game's own
    screen draws it."""

    board: Any


@dataclass(frozen=True)
class HandEnds:
    """The hand is over: ``board`` as it ended, ``result`` who won it and the score,
    ``summary`` the game's own account of the end (both sides' cards and points; ``None``
    where the board says it all), and ``more`` whether other hands follow it."""

    board: Any
    result: str
    summary: Any
    more: bool


@dataclass(frozen=True)
class HandStops:
    """The record stops in the middle of this hand; ``board`` is the hand there."""

    board: Any


@dataclass(frozen=True)
class Totals:
    """Points counted along the way: a game of a match ended (``game``, from 1), or a
    hand or deal of a game of three or four counted. ``totals`` are by player (or by
    team), ``text`` says it in words."""

    totals: tuple[int, ...]
    text: str
    game: int | None = None


@dataclass(frozen=True)
class GameEnds:
    """The game is over: its score sheet (the game's own, with any bonuses) and the
    sentence that tells who won."""

    sheet: Any
    text: str


@dataclass(frozen=True)
class MatchEnds:
    """The last word on the match: who won it (``over``), or where an unfinished record
    stops and who is to move there."""

    over: bool
    text: str


Event = (
    Heading
    | HandBegins
    | TurnBegins
    | Moved
    | TurnEnds
    | HandEnds
    | HandStops
    | Totals
    | GameEnds
    | MatchEnds
)
"""Any event of a replay, of any game."""


# -- what every game's replay says alike ------------------------------------------------------


def seat_labels(names: Sequence[str]) -> tuple[str, ...]:
    """The players as a replay names them: by name, with the seat after a name that is
    not the seat's own (the moves are told by seat).

    >>> seat_labels(("Ann", "Player 2"))
    ('Ann (Player 1)', 'Player 2')
    """
    return tuple(
        name if name == player_name(seat) else f"{name} ({player_name(seat)})"
        for seat, name in enumerate(names)
    )


class _Dealing(Protocol):
    @property
    def hands(self) -> Sequence[object]: ...
    def next_dealer(self) -> int: ...


def between_hands(what: str, match: _Dealing, seats: Sequence[str]) -> str:
    """Where the record of a match stops between two hands (or before the first):
    ``what`` is unfinished, and who deals next."""
    done = f" after hand {len(match.hands)}" if match.hands else ""
    return f"{what}{done}, with {seats[match.next_dealer()]} to deal the next hand."
