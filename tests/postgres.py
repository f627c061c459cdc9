"""A PostgreSQL server of the tests' own: Debian's binaries, a cluster made in a temporary
folder, reached through a Unix socket in that folder (no TCP port, so nothing else on the
machine can reach it or clash with it), removed when the tests end.

PostgreSQL refuses to run as root; run as root (as CI is), the cluster belongs to the
``postgres`` user the Debian package creates, and its commands run through ``runuser``.
``tests/conftest.py`` starts one server for the whole test session, on first use.
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psycopg
from sqlalchemy import URL

USER = "umtali"
"""The cluster's superuser: made by initdb, trusted on the socket, no password."""

OWNER = "postgres"
"""The system user that runs the server when the tests run as root."""


class PostgresMissingError(RuntimeError):
    """No PostgreSQL binaries are installed here."""


def find_binaries() -> Path:
    """The folder of PostgreSQL's server programs: the newest version under
    ``/usr/lib/postgresql`` (where Debian puts them), else the folder of a ``pg_ctl`` on
    the ``PATH``."""
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"),
        key=lambda path: int(path.parts[-3]) if path.parts[-3].isdigit() else 0,
    )
    if versions:
        return versions[-1].parent
    found = shutil.which("pg_ctl")
    if found is None:
        raise PostgresMissingError(
            "PostgreSQL is not installed (apt-get install postgresql; ./dev test does)"
        )
    return Path(found).resolve().parent


class PostgresServer:
    """A running server; :func:`running_postgres` starts and stops one."""

    def __init__(self, root: Path, binaries: Path) -> None:
        self.root = root
        self.binaries = binaries
        self.data = root / "data"
        self.log = root / "server.log"
        self._names = itertools.count()
        self.started_in = 0.0
        """Seconds from ``initdb`` to a server that takes connections."""

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.binaries / program), *args]
        if os.geteuid() == 0:
            command = ["runuser", "-u", OWNER, "--", *command]
        result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
        if result.returncode != 0:
            log = self.log.read_text(errors="replace") if self.log.exists() else ""
            raise RuntimeError(
                f"{program} failed ({result.returncode}):\n{result.stdout}{result.stderr}{log}"
            )

    def start(self) -> None:
        began = time.monotonic()
        self._run(
            "initdb",
            f"--pgdata={self.data}",
            f"--username={USER}",
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",  # the cluster is thrown away: no need to flush it to the disk
        )
        # Settings go in the file rather than through pg_ctl -o, which passes its text
        # through a shell. fsync is off because the tests kill clients, never the server,
        # and the folder is deleted at the end.
        with (self.data / "postgresql.conf").open("a", encoding="utf-8") as conf:
            conf.write(
                f"\nlisten_addresses = ''\nunix_socket_directories = '{self.root}'\nfsync = off\n"
            )
        self._run(
            "pg_ctl", "start", "--wait", "--timeout=60", "-D", str(self.data), "-l", str(self.log)
        )
        self.started_in = time.monotonic() - began

    def stop(self) -> None:
        # "immediate": nothing in the cluster is worth a clean shutdown.
        self._run("pg_ctl", "stop", "--mode=immediate", "-D", str(self.data))

    def url(self, database: str) -> str:
        """The SQLAlchemy URL of ``database`` on this server (psycopg 3, the socket)."""
        return URL.create(
            "postgresql+psycopg", username=USER, database=database, query={"host": str(self.root)}
        ).render_as_string(hide_password=False)

    def create_database(self) -> str:
        """A new, empty database (one per test, so no test sees another's rows); its URL."""
        name = f"test_{next(self._names)}"
        with psycopg.connect(
            host=str(self.root), user=USER, dbname="postgres", autocommit=True
        ) as c:
            c.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def dump(self, url: str) -> str:
        """Everything in the database of ``url``, as ``pg_dump`` writes it."""
        database = url.rsplit("/", 1)[1].split("?", 1)[0]
        result = subprocess.run(
            [str(self.binaries / "pg_dump"), f"--host={self.root}", f"--username={USER}", database],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        return result.stdout


@contextmanager
def running_postgres(binaries: Path | None = None) -> Iterator[PostgresServer]:
    """Start a server (from ``binaries``, else :func:`find_binaries`) in a new temporary
    folder; stop it and delete the folder after.

    Raises :class:`PostgresMissingError` when PostgreSQL is not installed, and
    ``RuntimeError`` (with the server's log) when it is but does not start.
    """
    binaries = find_binaries() if binaries is None else binaries
    # Not pytest's tmp_path: that folder is root's alone, and the server may run as
    # another user. mkdtemp's folder is private too, and is handed to that user.
    root = Path(tempfile.mkdtemp(prefix="umtali-pg-"))
    try:
        if os.geteuid() == 0:
            owner = pwd.getpwnam(OWNER)
            os.chown(root, owner.pw_uid, owner.pw_gid)
        server = PostgresServer(root, binaries)
        server.start()
        try:
            yield server
        finally:
            server.stop()
    finally:
        shutil.rmtree(root, ignore_errors=True)
