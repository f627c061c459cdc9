"""The games in the browser (layer 7): the server that plays every game of the registry
that has a browser table, its API and pages, and its storage.

Everything here needs the ``web`` extra (``pip install 'umtali[web]'``): FastAPI,
uvicorn, SQLAlchemy, Alembic and psycopg. docs/WEB.md tells how it is laid out, what is
sent and stored, and why.
"""
