"""Umtali in the browser: the server's storage now, its HTTP server and pages to come.

Everything here needs the ``web`` extra (``pip install 'umtali[web]'``): SQLAlchemy,
Alembic and psycopg. docs/WEB.md tells what is stored and why.
"""
