"""Any registered game: ``games.game`` no longer lists the games, and a first dealer may
be any of four players.

Revision 0003 let ``games.game`` name Umtali or Gin Rummy only, and 0001 let
``games.first_dealer`` be 0 or 1. A game is now any game of the registry
(``umtali.games``), checked by the program when a game is made and read back, so
adding one needs no change to the schema; and a game of three or four may deal first
from any seat. No row is rewritten: every value stored stays as it was.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-28
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_BEFORE: tuple[str, ...] = ("umtali", "gin")
"""The games 0003 knew: a schema of 0004 keeps no other."""


def upgrade() -> None:
    # Batch mode: SQLite changes a constraint by copying the table; PostgreSQL alters it.
    with op.batch_alter_table("games") as games:
        games.drop_constraint(op.f("ck_games_game"), type_="check")
        games.drop_constraint(op.f("ck_games_first_dealer"), type_="check")
        games.create_check_constraint(op.f("ck_games_first_dealer"), "first_dealer BETWEEN 0 AND 3")


def downgrade() -> None:
    # The games 0004 does not know, and any dealing first from a seat beyond the second,
    # cannot be kept by its schema.
    known = ", ".join(f"'{name}'" for name in _BEFORE)
    others = f"SELECT id FROM games WHERE game NOT IN ({known}) OR first_dealer > 1"
    op.execute(f"DELETE FROM moves WHERE game_id IN ({others})")
    op.execute(f"DELETE FROM hands WHERE game_id IN ({others})")
    op.execute(f"DELETE FROM seats WHERE game_id IN ({others})")
    op.execute(f"UPDATE games SET rematch_of = NULL WHERE rematch_of IN ({others})")
    op.execute(f"DELETE FROM games WHERE game NOT IN ({known}) OR first_dealer > 1")
    with op.batch_alter_table("games") as games:
        games.drop_constraint(op.f("ck_games_first_dealer"), type_="check")
        games.create_check_constraint(op.f("ck_games_first_dealer"), "first_dealer IN (0, 1)")
        games.create_check_constraint(op.f("ck_games_game"), f"game IN ({known})")
