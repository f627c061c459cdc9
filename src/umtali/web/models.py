"""The tables of the server's database, as SQLAlchemy 2 typed models.

A game is stored as what replays it, the same facts a record holds (docs/RULES.md
Part 5): which game it is (any registered game: a new game needs no change here), its
rules, players, first dealer or party and meta; each hand's deck order and dealer; each
move's text. Everything else (hands in hand, the table, scores) is the engine's to
work out again. Beside those facts are what the server alone needs: a hash of each
seat's secret, each deck's salt and commitment, when each seat's player was last seen
and whether the computer plays his seat for him, which game is the rematch of which, and
timestamps. A game opened to anyone (an open table) keeps, beside it, its seat that waits for
whoever sits down and until when it waits (``open_tables``). A game with a party (three or four players, each hand at a table of two)
keeps its party (``games.party``) and who sits at each of its hands (``hands.seats``).

The migrations in ``umtali.web.migrations`` create these tables; a test checks that the
two agree, so a change here comes with a new revision there.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    CheckConstraint,
    DateTime,
    ForeignKey,
    ForeignKeyConstraint,
    Integer,
    MetaData,
    String,
    Text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

__all__ = ["Base", "GameRow", "HandRow", "MoveRow", "OpenTableRow", "SeatRow"]

# Named constraints: Alembic can then alter or drop them by name on every database
# (SQLite's batch mode needs the names to rebuild a table).
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """The models' common base, holding their metadata."""

    metadata = MetaData(naming_convention=NAMING)


class GameRow(Base):
    """A hand, game or session: the facts a record starts with."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game: Mapped[str] = mapped_column(String(16), server_default="umtali")
    """Which game, by its registered name, as a record's ``game`` names it. The games
    stored before there was a choice are Umtali's, hence the default."""
    kind: Mapped[str] = mapped_column(String(16))
    """How long the match is: its record's ``match`` (``hand``, ``game`` or ``session``);
    a game whose records have none is a ``game``, played to its rules' end."""
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The record's ``rules`` object: ``preset`` and every option of its game's rules."""
    players: Mapped[list[str]] = mapped_column(JSON)
    first_dealer: Mapped[int] = mapped_column(Integer)
    meta: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When the server closed the game (over, or abandoned); ``None`` while in play."""
    rematch_of: Mapped[int | None] = mapped_column(ForeignKey("games.id"), unique=True)
    """The finished game this one is the rematch of (the same seats, level and kind), or
    ``None``. Unique: a game has one rematch, whichever of its players asks first."""
    party: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    """A game with a party: its record's ``party`` (in three- or four-hand Gin Rummy its
    ``size``, and the cards ``drawn`` for places or the ``first_dealing_team``);
    ``None`` otherwise. A party game's ``first_dealer`` is 0 and means nothing: its
    hands' dealers follow from ``party``."""

    __table_args__ = (
        CheckConstraint("first_dealer BETWEEN 0 AND 3", name="first_dealer"),
        CheckConstraint("kind IN ('hand', 'game', 'session')", name="kind"),
    )


class SeatRow(Base):
    """A seat that is played through a link: the link's secret, as its hash only."""

    __tablename__ = "seats"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    secret_hash: Mapped[str | None] = mapped_column(String(64), unique=True)
    """SHA-256 of the secret, in hex. The secret itself is given out once and never kept.
    ``None`` for a seat of a rematch whose player has not yet come back with his link to
    the game before, from which his new one is worked out (``store.rematch_secret``)."""
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    last_seen_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When the seat's player was last seen: a request by the link, or the heartbeat of
    its open WebSocket. What presence and the hand-over to the computer go by."""
    handed_over_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """Since when the computer plays this seat, handed over by the other player while
    this one was away; ``None`` while its person plays it (or has reclaimed it)."""

    __table_args__ = (CheckConstraint("seat BETWEEN 0 AND 3", name="seat"),)


class HandRow(Base):
    """One hand: its deck order (the server's secret until the hand ends) and the
    commitment to it that the players see from the deal."""

    __tablename__ = "hands"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    hand_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    """Counted from 0 across the whole match, as a record's ``hands`` list is."""
    dealer: Mapped[int] = mapped_column(Integer)
    """The player who deals (a seat of the game; in a party game, the party's player)."""
    seats: Mapped[list[int] | None] = mapped_column(JSON)
    """In a party game, the party's players at the hand's seats; ``None`` otherwise,
    where they are the game's players in their own seats."""
    deck: Mapped[str] = mapped_column(Text)
    """The game's deck (52 cards for the whole pack) in deal order, ASCII names separated
    by single spaces (``Js Ks …``)."""
    salt: Mapped[str] = mapped_column(String(128))
    """The commitment's salt, in hex."""
    commitment: Mapped[str] = mapped_column(String(64))
    """SHA-256 of the salt's bytes followed by ``deck`` in ASCII, in hex."""
    score_0: Mapped[int | None] = mapped_column(Integer)
    score_1: Mapped[int | None] = mapped_column(Integer)
    """The hand's scores, set with the move that ends it (a record needs them)."""
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        CheckConstraint("dealer BETWEEN 0 AND 3", name="dealer"),
        CheckConstraint("hand_index >= 0", name="hand_index"),
    )


class MoveRow(Base):
    """One move, in notation. Its primary key (game, hand, move index) is what settles a
    race between server processes: only one row can take an index."""

    __tablename__ = "moves"

    game_id: Mapped[int] = mapped_column(Integer, primary_key=True)
    hand_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    move_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    """Counted from 0 within the hand."""
    text: Mapped[str] = mapped_column(String(64))
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (
        ForeignKeyConstraint(["game_id", "hand_index"], ["hands.game_id", "hands.hand_index"]),
        CheckConstraint("move_index >= 0", name="move_index"),
    )


class OpenTableRow(Base):
    """A game between people opened to anyone: its opener holds seat 0, and ``seat``
    waits (its ``seats`` row has no secret) for whoever sits down first, until
    ``wait_until``. Listed while nobody sat, the opener did not close it and the wait
    is not over."""

    __tablename__ = "open_tables"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    """The seat that waits for whoever sits down."""
    address: Mapped[str] = mapped_column(String(64), index=True)
    """SHA-256 of the opener's client address, in hex: what the limit of open tables per
    address counts (the address itself is not kept)."""
    opened_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    wait_until: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    """When the table stops waiting and leaves the list, if nobody sat down."""
    sat_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When someone sat down at ``seat``; ``None`` while it waits."""
    closed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    """When the opener gave the waiting seat to the computer instead; ``None`` if not."""

    __table_args__ = (CheckConstraint("seat BETWEEN 1 AND 3", name="seat"),)
