"""The one fixture shared across test modules: a PostgreSQL server (tests/postgres.py),
started at its first use and stopped when the test session ends."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

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
