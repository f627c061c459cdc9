"""Three- and four-hand Gin Rummy: ``games.party`` and ``hands.seats``.

A party game keeps what its record's ``"party"`` holds (its size, and the cards drawn
for places in three-hand or the team that deals first in four-hand) in
``games.party``, left empty for a game of two. Each of its hands keeps the two players
who sit at it (``hands.seats``), and its dealer is the party's player who deals, as
the record has them. So a seat, a hand's dealer, may now be any of four players.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Batch mode: SQLite changes a constraint by copying the table; PostgreSQL alters it.
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("party", sa.JSON(), nullable=True))
    with op.batch_alter_table("seats") as seats:
        seats.drop_constraint(op.f("ck_seats_seat"), type_="check")
        seats.create_check_constraint(op.f("ck_seats_seat"), "seat BETWEEN 0 AND 3")
    with op.batch_alter_table("hands") as hands:
        hands.add_column(sa.Column("seats", sa.JSON(), nullable=True))
        hands.drop_constraint(op.f("ck_hands_dealer"), type_="check")
        hands.create_check_constraint(op.f("ck_hands_dealer"), "dealer BETWEEN 0 AND 3")


def downgrade() -> None:
    # A party game cannot be kept by a schema of two-player games only.
    party_games = "SELECT id FROM games WHERE party IS NOT NULL"
    op.execute(f"DELETE FROM moves WHERE game_id IN ({party_games})")
    op.execute(f"DELETE FROM hands WHERE game_id IN ({party_games})")
    op.execute(f"DELETE FROM seats WHERE game_id IN ({party_games})")
    op.execute(f"UPDATE games SET rematch_of = NULL WHERE rematch_of IN ({party_games})")
    op.execute("DELETE FROM games WHERE party IS NOT NULL")
    with op.batch_alter_table("hands") as hands:
        hands.drop_constraint(op.f("ck_hands_dealer"), type_="check")
        hands.create_check_constraint(op.f("ck_hands_dealer"), "dealer IN (0, 1)")
        hands.drop_column("seats")
    with op.batch_alter_table("seats") as seats:
        seats.drop_constraint(op.f("ck_seats_seat"), type_="check")
        seats.create_check_constraint(op.f("ck_seats_seat"), "seat IN (0, 1)")
    with op.batch_alter_table("games") as games:
        games.drop_column("party")
