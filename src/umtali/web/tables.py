"""A game's table in the browser: what its ``table`` hook
(:attr:`umtali.games.api.GameSpec.table`) gives the server, which names no game.

A game's table is an object with the attributes of :class:`GameTable`, kept in the
game's own folder (``umtali.games.<game>.table:TABLE``):

* ``state``: its :class:`~umtali.web.protocol.SeatState` model: the fields every game
  has, its ``game`` fixed, and the keys that are its own (Gin Rummy's table and its
  party of three or four). The server builds each state through it, so a state that does not fit its
  game's model is never sent, and the application publishes the union of the games'
  models as the schema.
* ``seat_table(session, seat, context)``: what ``seat`` is shown now, as the state's
  fields but those the server fills in itself (``game``, ``game_id``, ``seat``,
  ``version``, ``commitment``, ``opponent``, ``handed_over``, ``rematch``). It is
  built from the seat's view of the game (``session.view(seat)``), the moves as the
  seat saw them and the session's sentences, and nothing else about a hand in play:
  no card the seat may not see can reach it.
* ``hands_told(session)``: how many of the match's hands, from the first, a player may
  download while the game is played (the hands over whose results everyone was told;
  :class:`Table` answers the hands over).
* ``replay`` and ``tell(match)``: its replay page's model and a record told in it, step
  by step (:mod:`umtali.web.replays` walks the events of :mod:`umtali.replaying`; the
  game draws its boards and its hands' ends).
* ``routes``: more routes of its own (an :class:`fastapi.APIRouter`), or ``None`` (as
  :class:`Table` has): Umtali's lessons and quiz (``/api/lessons``, ``/api/quiz``) come
  this way.

Its browser code lives under ``static/games/<game>/`` (:attr:`GameSpec.static`):
docs/WEB.md, "Adding a game's table".
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from functools import reduce
from operator import or_
from typing import Annotated, Any, Protocol

from fastapi import APIRouter
from pydantic import Field

from umtali import games
from umtali.games.api import GameSpec, Session
from umtali.kernel.record import record_of
from umtali.web.learning_protocol import ReplayReply
from umtali.web.protocol import SeatState

__all__ = [
    "GameTable",
    "SeatContext",
    "Table",
    "replay_type",
    "state_type",
    "table_of",
    "tables",
]


@dataclass
class SeatContext:
    """What the server knows of a game beside its session, for its table: the seats
    ``persons`` play by link (the others are the computer's), and ``told``, where the
    table keeps what it worked out of finished hands (a hand over never changes, so it
    is told once) for as long as the game is in memory."""

    persons: frozenset[int]
    told: dict[Hashable, Any] = field(default_factory=dict)


class GameTable(Protocol):
    """A game's browser table, as the server reads it (see the module)."""

    @property
    def state(self) -> type[SeatState]:
        """The game's seat state model."""

    @property
    def replay(self) -> type[ReplayReply]:
        """The game's replay model."""

    @property
    def routes(self) -> APIRouter | None:
        """Routes of the game's own, or ``None``."""

    def seat_table(self, session: Session, seat: int, context: SeatContext) -> dict[str, Any]:
        """What ``seat`` is shown now, but the fields the server fills in."""

    def hands_told(self, session: Session) -> int:
        """How many hands, from the first, a player's record holds while it is played."""

    def tell(self, match: Any) -> ReplayReply:
        """The record ``match`` told step by step, for the replay page."""


class Table:
    """What most games' tables answer alike, for a game's table to build on: no routes of
    its own, and a hand's result told as soon as it ends."""

    routes: APIRouter | None = None

    def hands_told(self, session: Session) -> int:
        """The hands over, from the first (a game whose hands at several tables are told
        together says otherwise)."""
        hands = record_of(session.match)["hands"]
        return next((i for i, hand in enumerate(hands) if "scores" not in hand), len(hands))


def table_of(spec: GameSpec) -> GameTable:
    """The browser table of ``spec`` (:class:`~umtali.games.api.HookError` if it has
    none: the server cannot play it)."""
    table: GameTable = spec.hook("table")
    return table


def tables() -> tuple[tuple[GameSpec, GameTable], ...]:
    """Every registered game that has a browser table, with its table."""
    return tuple((spec, table_of(spec)) for spec in games.games() if spec.has("table"))


def _union(models: list[type[Any]]) -> Any:
    """One of ``models``, told apart by ``game`` (a single model stands alone)."""
    if len(models) == 1:
        return models[0]
    return Annotated[reduce(or_, models), Field(discriminator="game")]


def state_type() -> Any:
    """The type of a seat's state in this server: one of its games' state models."""
    return _union([table.state for _spec, table in tables()])


def replay_type() -> Any:
    """The type of a replay in this server: one of its games' replay models."""
    return _union([table.replay for _spec, table in tables()])
