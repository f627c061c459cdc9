"""The fixtures shared across test modules, and the tiers of the tests.

The fixtures start at their first use and stop when the test session ends: a
PostgreSQL server (tests/postgres.py), a headless chromium (tests/browser.py) and an
``umtali serve`` process (tests/servers.py). Each imports its helpers (Playwright,
psycopg, httpx) when it starts, so that collecting the tests does not.

Every test is marked with the tiers it belongs to, at collection (see :data:`TIERS`
and ``pytest_collection_modifyitems``): ``./dev test --quick`` runs the tests that are
in none of them. A test that starts a process, or sets up a tier's fixture, without
its tier's marker fails, so that the quick tier keeps its promise.
"""

from __future__ import annotations

import dis
import functools
import inspect
import os
import subprocess
import sys
import types
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser

    from tests.postgres import PostgresServer
    from tests.servers import ServerProcess

EXPECT_MS = 60_000
"""How long a browser test's expectation waits for the page to come to it: only a
hang takes this long, even on a loaded machine."""


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
def desktop_browser(browser: Browser) -> Iterator[Browser]:
    """A second headless chromium, whose pages show scroll bars as a desktop's do: a
    layout at a desktop's width must fit beside them."""
    from tests.browser import launch

    launched = launch(browser.browser_type, scroll_bars=True)
    try:
        yield launched
    finally:
        launched.close()


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


# -- tiers ------------------------------------------------------------------------------------

TIERS = {
    "browser": "drives a headless chromium (the browser fixture)",
    "postgres": "runs on the session's PostgreSQL server",
    "tmux": "drives a real terminal through tmux",
    "process": "starts a real umtali serve, umtali command or other program",
    "slow": "took over 0.3 s in a full run (tests/slow_tests.txt)",
}
"""The markers that put a test out of the quick tier (registered in pyproject.toml)."""

SLOW_SECONDS = 0.3
"""A test whose setup and call take longer than this in a full run is slow: out of the
quick tier, which must run in under a minute on two cores."""

SLOW_FILE = Path(__file__).with_name("slow_tests.txt")
"""The tests measured slow (:data:`SLOW_SECONDS`), one a line: the test's id without
its parameters covers every parametrization, with them that one only. ``./dev test
--update-slow`` adds those of its run that took longer."""


def _read_slow(path: Path) -> frozenset[str]:
    lines = (line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    return frozenset(line for line in lines if line and not line.startswith("#"))


SLOW = _read_slow(SLOW_FILE)
"""The tests of :data:`SLOW_FILE`."""

FIXTURE_TIERS = {
    "browser": "browser",
    "desktop_browser": "browser",
    "postgres_server": "postgres",
    "web_server": "process",
    "local_ray": "process",  # Ray starts processes of its own, which no rule can see
}
"""A test that uses one of these fixtures is in its tier."""


@pytest.hookimpl(tryfirst=True)  # before -m reads the markers
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test with its tiers (see :func:`tiers_of`)."""
    for item in items:
        for tier in sorted(tiers_of(item)):
            item.add_marker(tier)


def tiers_of(item: pytest.Item) -> set[str]:
    """The tiers of a test, by these rules:

    - the fixtures it uses (:data:`FIXTURE_TIERS`), and a parameter ``postgresql``
      (``db_url`` and its kind fetch the PostgreSQL server for it);
    - what its code reaches: the test, its fixtures, and the functions and classes of
      ``tests`` they call, in turn. The module ``subprocess`` makes it ``process``, and
      the word ``"tmux"`` makes it ``tmux``;
    - the tests measured slow (:data:`SLOW`).
    """
    tiers: set[str] = set()
    names = set(getattr(item, "fixturenames", ()))
    tiers.update(tier for name, tier in FIXTURE_TIERS.items() if name in names)
    callspec = getattr(item, "callspec", None)
    if callspec is not None and "postgresql" in callspec.params.values():
        tiers.add("postgres")
    if isinstance(item, pytest.Function):
        start: list[object] = [item.function]
        fixtures = item._fixtureinfo.name2fixturedefs
        for name, definitions in fixtures.items():
            if name not in FIXTURE_TIERS:
                start.extend(d.func for d in definitions if _ours(d.func))
        tiers.update(_reached(start))
    if item.nodeid in SLOW or _without_parameters(item.nodeid) in SLOW:
        tiers.add("slow")
    return tiers


def _ours(value: object) -> bool:
    """Whether ``value`` is a function or class of the tests' own code."""
    if not isinstance(value, (types.FunctionType, type)):
        return False
    module = getattr(value, "__module__", "") or ""
    return module == "conftest" or module.split(".")[0] == "tests"


_LOAD_GLOBAL = dis.opmap["LOAD_GLOBAL"]
_LOAD_NAME = dis.opmap["LOAD_NAME"]
_EXTENDED_ARG = dis.opmap["EXTENDED_ARG"]


@functools.cache
def _code_facts(code: types.CodeType) -> tuple[bool, frozenset[str]]:
    """Whether ``code`` (or code nested in it) names ``"tmux"``, and the global names it
    loads. (The bytecode is read directly: ``dis`` would take a second.)"""
    tmux = False
    loaded: set[str] = set()
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            inner_tmux, inner = _code_facts(const)
            tmux |= inner_tmux
            loaded |= inner
        elif const == "tmux":
            tmux = True
    raw = code.co_code
    extended = 0
    for at in range(0, len(raw), 2):
        operation, argument = raw[at], raw[at + 1] | extended
        extended = argument << 8 if operation == _EXTENDED_ARG else 0
        if operation == _LOAD_GLOBAL:  # Python 3.11 on: the name's index is argument >> 1
            loaded.add(code.co_names[argument >> 1])
        elif operation == _LOAD_NAME:
            loaded.add(code.co_names[argument])
    return tmux, frozenset(loaded)


def _reached(start: Iterable[object]) -> set[str]:
    """The tiers that the code of ``start`` reaches (see :func:`tiers_of`)."""
    tiers: set[str] = set()
    seen: set[int] = set()
    todo = list(start)
    while todo:
        value = todo.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        if isinstance(value, type):
            for member in vars(value).values():
                if isinstance(member, (staticmethod, classmethod)):
                    member = member.__func__
                if isinstance(member, property):
                    todo.extend(f for f in (member.fget, member.fset) if f is not None)
                elif isinstance(member, types.FunctionType):
                    todo.append(member)
            continue
        if not isinstance(value, types.FunctionType):
            continue
        function = inspect.unwrap(value)
        tmux, loaded = _code_facts(function.__code__)
        if tmux:
            tiers.add("tmux")
        for name in loaded:
            found = function.__globals__.get(name)
            if found is subprocess or getattr(found, "__module__", None) == "subprocess":
                tiers.add("process")
            elif _ours(found):
                todo.append(found)
    return tiers


# -- keeping the tiers honest -------------------------------------------------------------------

_started: list[str] | None = None
"""The programs the running test has started, while a test runs."""


LIBRARY_PROCESSES = frozenset({"fc-list"})
"""Programs a library starts on its own, once: matplotlib asks fontconfig for the fonts
when it first builds its font cache, in whichever test first draws a plot."""


def _note_processes(event: str, args: tuple[Any, ...]) -> None:
    if event == "subprocess.Popen" and _started is not None:
        program = os.path.basename(os.fsdecode(args[0] or (args[1][0] if args[1] else "?")))
        if program not in LIBRARY_PROCESSES:
            _started.append(program)


sys.addaudithook(_note_processes)

ALLOWED_PROCESSES = frozenset({"browser", "postgres", "tmux", "process"})
"""The tiers whose tests may start processes."""


@pytest.fixture(autouse=True)
def _tiers_hold(request: pytest.FixtureRequest) -> Iterator[None]:
    """Fail a test that starts a process, or sets up a tier's fixture, without being
    marked with that tier: the rules of :func:`tiers_of` missed it."""
    global _started
    _started = []
    try:
        yield
    finally:
        started, _started = _started, None
    item = request.node
    marked = {mark.name for mark in item.iter_markers()}
    active = request.fixturenames  # with those fetched by getfixturevalue
    used = {tier for name, tier in FIXTURE_TIERS.items() if name in active}
    missed = "the rules of tests/conftest.py missed it: add one that marks it"
    if used - marked:
        pytest.fail(f"the test sets up the fixtures of {sorted(used - marked)}; {missed}")
    if started and not marked & ALLOWED_PROCESSES:
        pytest.fail(f"the test started {sorted(set(started))}, unmarked; {missed}")


def _without_parameters(nodeid: str) -> str:
    """A test's id without its parameters: ``tests/t.py::test_x[a]`` → ``tests/t.py::test_x``."""
    return nodeid.split("[", 1)[0] if nodeid.endswith("]") else nodeid


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-slow",
        action="store_true",
        help=f"add the tests of this run that took over {SLOW_SECONDS:g} s to {SLOW_FILE.name}",
    )


_seconds: dict[str, float] = {}
_quick: set[str] = set()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if report.when in ("setup", "call"):
        _seconds[report.nodeid] = _seconds.get(report.nodeid, 0.0) + report.duration
        if not any(tier in report.keywords for tier in TIERS):
            _quick.add(report.nodeid)


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    """Name the quick tier's tests that took longer than :data:`SLOW_SECONDS` (on a
    loaded machine many may; on a quiet one, each belongs in :data:`SLOW_FILE`), and
    with ``--update-slow`` add every test of the run that did to it."""
    slow = {nodeid: seconds for nodeid, seconds in _seconds.items() if seconds > SLOW_SECONDS}
    unmarked = {nodeid: seconds for nodeid, seconds in slow.items() if nodeid in _quick}
    if config.getoption("update_slow"):
        names = SLOW | {_without_parameters(nodeid) for nodeid in slow}
        lines = SLOW_FILE.read_text(encoding="utf-8").splitlines()
        header = [line for line in lines if line.startswith("#")]
        SLOW_FILE.write_text("\n".join([*header, *sorted(names)]) + "\n", encoding="utf-8")
        terminalreporter.write_line(f"{len(names - SLOW)} tests added to {SLOW_FILE}")
    elif unmarked:
        terminalreporter.write_sep("-", f"over {SLOW_SECONDS:g} s, not marked slow")
        for nodeid, seconds in sorted(unmarked.items(), key=lambda pair: -pair[1]):
            terminalreporter.write_line(f"{seconds:6.2f}s {nodeid}")
