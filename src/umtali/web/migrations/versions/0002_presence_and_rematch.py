"""Presence, the hand-over to the computer, and rematches.

``seats.handed_over_at``: since when the computer plays a seat whose person was away.
``games.rematch_of``: the finished game a game is the rematch of (one per game).
``seats.secret_hash`` may be null: a rematch's seat whose player has not come back yet.

Revision ID: 0002
Revises: 0001
Create Date: 2026-05-22
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Batch mode: SQLite adds a constraint to a table by copying it; PostgreSQL alters it.
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("handed_over_at", sa.DateTime(timezone=True), nullable=True))
        seats.alter_column("secret_hash", existing_type=sa.String(64), nullable=True)
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("rematch_of", sa.Integer(), nullable=True))
        games.create_unique_constraint(op.f("uq_games_rematch_of"), ["rematch_of"])
        games.create_foreign_key(op.f("fk_games_rematch_of_games"), "games", ["rematch_of"], ["id"])


def downgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.drop_constraint(op.f("fk_games_rematch_of_games"), type_="foreignkey")
        games.drop_constraint(op.f("uq_games_rematch_of"), type_="unique")
        games.drop_column("rematch_of")
    op.execute("DELETE FROM seats WHERE secret_hash IS NULL")
    with op.batch_alter_table("seats") as seats:
        seats.alter_column("secret_hash", existing_type=sa.String(64), nullable=False)
        seats.drop_column("handed_over_at")
