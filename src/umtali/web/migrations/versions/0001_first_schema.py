"""The first schema: games, seats, hands and moves.

Revision ID: 0001
Revises:
Create Date: 2026-05-20
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    stamp = sa.DateTime(timezone=True)
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("first_dealer", sa.Integer(), nullable=False),
        sa.Column("meta", sa.JSON(), nullable=False),
        sa.Column("created_at", stamp, nullable=False),
        sa.Column("finished_at", stamp, nullable=True),
        sa.CheckConstraint("first_dealer IN (0, 1)", name=op.f("ck_games_first_dealer")),
        sa.CheckConstraint("kind IN ('hand', 'game', 'session')", name=op.f("ck_games_kind")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
    )
    op.create_table(
        "seats",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("secret_hash", sa.String(64), nullable=False),
        sa.Column("created_at", stamp, nullable=False),
        sa.Column("last_seen_at", stamp, nullable=True),
        sa.CheckConstraint("seat IN (0, 1)", name=op.f("ck_seats_seat")),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_seats_game_id_games")),
        sa.PrimaryKeyConstraint("game_id", "seat", name=op.f("pk_seats")),
        sa.UniqueConstraint("secret_hash", name=op.f("uq_seats_secret_hash")),
    )
    op.create_table(
        "hands",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("hand_index", sa.Integer(), nullable=False),
        sa.Column("dealer", sa.Integer(), nullable=False),
        sa.Column("deck", sa.Text(), nullable=False),
        sa.Column("salt", sa.String(128), nullable=False),
        sa.Column("commitment", sa.String(64), nullable=False),
        sa.Column("score_0", sa.Integer(), nullable=True),
        sa.Column("score_1", sa.Integer(), nullable=True),
        sa.Column("started_at", stamp, nullable=False),
        sa.Column("ended_at", stamp, nullable=True),
        sa.CheckConstraint("dealer IN (0, 1)", name=op.f("ck_hands_dealer")),
        sa.CheckConstraint("hand_index >= 0", name=op.f("ck_hands_hand_index")),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], name=op.f("fk_hands_game_id_games")),
        sa.PrimaryKeyConstraint("game_id", "hand_index", name=op.f("pk_hands")),
    )
    op.create_table(
        "moves",
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("hand_index", sa.Integer(), nullable=False),
        sa.Column("move_index", sa.Integer(), nullable=False),
        sa.Column("text", sa.String(64), nullable=False),
        sa.Column("created_at", stamp, nullable=False),
        sa.CheckConstraint("move_index >= 0", name=op.f("ck_moves_move_index")),
        sa.ForeignKeyConstraint(
            ["game_id", "hand_index"],
            ["hands.game_id", "hands.hand_index"],
            name=op.f("fk_moves_game_id_hands"),
        ),
        sa.PrimaryKeyConstraint("game_id", "hand_index", "move_index", name=op.f("pk_moves")),
    )


def downgrade() -> None:
    for table in ("moves", "hands", "seats", "games"):
        op.drop_table(table)
