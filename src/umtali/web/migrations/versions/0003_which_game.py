"""Which game a stored game is: ``games.game``, ``umtali`` or ``gin`` (Gin Rummy).

Every game stored before this revision is Umtali's, so the column is added with that
as its default and no row needs to be rewritten.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Batch mode: SQLite adds a constraint to a table by copying it; PostgreSQL alters it.
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("game", sa.String(16), nullable=False, server_default="umtali"))
        games.create_check_constraint(op.f("ck_games_game"), "game IN ('umtali', 'gin')")


def downgrade() -> None:
    # A Gin Rummy game cannot be kept by a schema that knows only Umtali.
    op.execute("DELETE FROM moves WHERE game_id IN (SELECT id FROM games WHERE game = 'gin')")
    op.execute("DELETE FROM hands WHERE game_id IN (SELECT id FROM games WHERE game = 'gin')")
    op.execute("DELETE FROM seats WHERE game_id IN (SELECT id FROM games WHERE game = 'gin')")
    op.execute(
        "UPDATE games SET rematch_of = NULL WHERE rematch_of IN"
        " (SELECT id FROM games WHERE game = 'gin')"
    )
    op.execute("DELETE FROM games WHERE game = 'gin'")
    with op.batch_alter_table("games") as games:
        games.drop_constraint(op.f("ck_games_game"), type_="check")
        games.drop_column("game")
