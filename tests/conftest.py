"""The fixtures shared across test modules, each started at its first use and stopped
when the test session ends: a PostgreSQL server (tests/postgres.py) and a headless
chromium (tests/browser.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.browser import chromium
from tests.postgres import PostgresMissingError, PostgresServer, find_binaries, running_postgres


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A running PostgreSQL server of the tests' own.

    Where PostgreSQL is not installed, its tests are skipped on a developer's machine but
    fail in CI (``CI`` set), so that a missing install can never pass for a green run.
    """
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
    with chromium() as launched:
        yield launched
