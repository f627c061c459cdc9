"""Alembic's environment for the server's database.

``Store.open`` runs the migrations through Alembic's command API with a configuration
built in code, handing over an open connection in ``config.attributes["connection"]``:
the migrations then run inside the store's own transaction (which, on PostgreSQL, holds
the lock that keeps two starting servers from migrating at once).
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection

from umtali.web.models import Base


def run_migrations(connection: Connection) -> None:
    """Bring the database on ``connection`` up to the revision asked for."""
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        # SQLite alters a table by copying it: Alembic's batch mode does that.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


# Alembic executes this file with ``context`` set up. Anything else that imports it (the
# doctest collection imports every module of the package) finds no migration under way,
# and only the function above.
if hasattr(context, "config"):
    run_migrations(context.config.attributes["connection"])
