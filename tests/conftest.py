"""The fixtures shared across test modules, each started at its first use and stopped
when the test session ends: a PostgreSQL server (tests/postgres.py), a headless
chromium (tests/browser.py) and an ``umtali serve`` process (tests/servers.py). Each
imports its helpers (Playwright, psycopg, httpx) when it starts, so that collecting the
tests does not."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from tests.postgres import PostgresServer
    from tests.servers import ServerProcess

EXPECT_MS = 20_000
"""How long a browser test's expectation waits for the page to come to it."""


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A running PostgreSQL server of the tests' own.

    Where PostgreSQL is not installed, its tests are skipped on a developer's machine but
    fail in CI (``CI`` set), so that a missing install can never pass for a green run.
    """
    from tests.postgres import PostgresMissingError, find_binaries, running_postgres

    try:
        binaries = find_binaries()
    except PostgresMissingError as e:
        if os.environ.get("CI"):
            pytest.fail(f"{e}: CI must run the PostgreSQL tests")
        pytest.skip(str(e))
    with running_postgres(binaries) as server:
        yield server


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """A headless chromium for the whole test session (tests/browser.py)."""
    from playwright.sync_api import expect

    from tests.browser import chromium

    # Playwright's expectations give up after 5 s by default: too soon for a page that
    # waits on the server of a machine running other tests beside it.
    expect.set_options(timeout=EXPECT_MS)
    with chromium() as launched:
        yield launched


@pytest.fixture(scope="session")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One ``umtali serve`` process over an SQLite file, for every test that only makes
    games of its own on it (a test that needs other options, or kills the server,
    starts its own with ``running_server``)."""
    from tests.servers import running_server

    folder = tmp_path_factory.mktemp("web-server")
    with running_server(f"sqlite:///{folder / 'umtali.db'}", folder) as process:
        yield process


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty database for one test, once on an SQLite file and once on the
    session's PostgreSQL server: the tests that take it run on both."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'umtali.db'}"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.create_database()
