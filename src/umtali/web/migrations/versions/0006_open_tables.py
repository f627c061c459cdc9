"""Open tables: a game between people whose second seat waits for whoever sits down.

``open_tables``: for each such game, the seat that waits, a hash of its opener's
address (what the limit per address counts), when it was opened, until when it waits,
and when someone sat down or the opener gave the seat to the computer instead. No
other table changes, and no row is rewritten.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "open_tables",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("wait_until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("sat_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint("seat BETWEEN 1 AND 3", name=op.f("ck_open_tables_seat")),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_open_tables_game_id_games")
        ),
        sa.PrimaryKeyConstraint("game_id", name=op.f("pk_open_tables")),
    )
    op.create_index(op.f("ix_open_tables_address"), "open_tables", ["address"])
    op.create_index(op.f("ix_open_tables_wait_until"), "open_tables", ["wait_until"])


def downgrade() -> None:
    # The games stay, as games between people; the seat nobody sat down at stays
    # without a link, as a rematch's seat whose player never came back.
    op.drop_index(op.f("ix_open_tables_wait_until"), table_name="open_tables")
    op.drop_index(op.f("ix_open_tables_address"), table_name="open_tables")
    op.drop_table("open_tables")
