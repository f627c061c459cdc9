"""The Alembic migrations of the server's database; ``Store.open`` applies them.

To add a revision after changing ``umtali.web.models``: write it in ``versions/``, after
the pattern of the first (``script.py.mako`` is the template of Alembic's ``revision``
command), then run the store's tests, which check that the migrated tables match the
models.
"""
