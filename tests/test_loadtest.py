"""The load benchmark (benchmarks/loadtest.py), run with a tiny load so that it never
rots: it starts a real server, plays every game to its end, and reports the figures in
the shape docs/PERFORMANCE.md quotes. Nothing here is timed; the figures are only
checked to be consistent with one another."""

from __future__ import annotations

import functools
import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.postgres import PostgresServer

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "loadtest.py"


@functools.cache
def load_script() -> ModuleType:
    """The script as a module, for its helpers (registered under its name first, as an
    import would, since its dataclasses look their module up; its folder on the path,
    as running it puts it, for the script beside it that it imports)."""
    if str(SCRIPT.parent) not in sys.path:
        sys.path.append(str(SCRIPT.parent))
    spec = importlib.util.spec_from_file_location("loadtest", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def run_script(folder: Path, *args: str) -> tuple[subprocess.CompletedProcess[str], Any]:
    """Run the script with ``args`` and ``--json``; its output and its JSON report."""
    report = folder / "report.json"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *args, "--json", str(report)],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done, json.loads(report.read_text())


def check_report(report: Any, games: int) -> None:
    """Every game created and completed, no error, and figures that agree."""
    assert report["games"] == {"created": games, "completed": games, "unfinished": 0}
    assert report["errors"] == 0, report["first_errors"]
    moves = report["moves"]
    assert moves["refused"] == 0
    # A hand takes at least a draw and a discard from each player.
    assert moves["played"] >= 4 * games
    assert moves["per_second"] > 0
    trip = report["round_trip_ms"]
    assert trip["count"] == moves["played"]
    assert 0 < trip["p50"] <= trip["p90"] <= trip["p99"] <= trip["max"]
    assert report["create_ms"]["count"] == games
    late = report["client_loop_late_ms"]
    # Looked at every 5 ms of the play (sleeps of 5 ms and the time to wake from each).
    assert late["count"] >= 1
    assert 0 <= late["p50"] <= late["p99"] <= late["max"]
    cpu = report["cpu"]["seconds"]
    assert {"client", "server", "machine", "other"} <= set(cpu)
    assert cpu["server"] > 0
    assert report["machine"]["cpus"] >= 1


def test_games_against_people_and_the_computer_all_finish(tmp_path: Path) -> None:
    done, report = run_script(
        tmp_path, "--games", "4", "--opponent", "mixed", "--think", "0", "--seconds", "120"
    )
    check_report(report, 4)
    # Two games between people (two seats each) and two against the computer (one).
    assert report["load"]["seats"] == 6
    assert report["load"]["transport"] == "http"
    assert report["database"].startswith("SQLite")
    assert "move round trip, ms: p50" in done.stdout


def test_postgresql_and_moves_on_the_websocket(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    url = postgres_server.create_database()
    _done, report = run_script(
        tmp_path, "--db", url, "--games", "2", "--think", "0", "--transport", "ws"
    )
    check_report(report, 2)
    # Moves go on the socket where the server answers them there, else over HTTP, said so.
    if report["load"]["transport"] == "http":
        assert any("WebSocket" in note for note in report["notes"])
    else:
        assert report["load"]["transport"] == "ws"


def test_two_workers_on_one_port_over_postgresql(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    url = postgres_server.create_database()
    _done, report = run_script(tmp_path, "--db", url, "--workers", "2", "--games", "4")
    check_report(report, 4)
    assert report["workers"] == 2


def test_workers_need_postgresql() -> None:
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--workers", "2", "--games", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "--workers needs PostgreSQL" in done.stderr


def test_only_the_loopback_is_loaded() -> None:
    script = load_script()
    assert script.loopback_url("http://127.0.0.1:8000/") == "http://127.0.0.1:8000"
    assert script.loopback_url("http://[::1]:8000") == "http://[::1]:8000"
    for url in ("http://192.0.2.1:8000", "https://127.0.0.1", "ftp://localhost/"):
        with pytest.raises(script.LoadTestError):
            script.loopback_url(url)
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--url", "http://192.0.2.1:8000", "--games", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "loopback" in done.stderr


def test_percentiles_are_nearest_rank() -> None:
    script = load_script()
    values = [float(n) for n in range(1, 101)]
    assert script.percentile(values, 0.50) == 50.0
    assert script.percentile(values, 0.99) == 99.0
    assert script.percentile(values, 1.0) == 100.0
    assert script.percentile([7.0], 0.99) == 7.0
    figures = script.spread([0.001, 0.002, 0.003])
    assert figures == {"count": 3, "p50": 2.0, "p90": 3.0, "p99": 3.0, "mean": 2.0, "max": 3.0}


def test_py_spy_samples_every_worker_and_says_where_the_time_goes(
    tmp_path: Path, postgres_server: PostgresServer
) -> None:
    script = load_script()
    try:
        script.py_spy()
    except script.LoadTestError:
        pytest.skip("py-spy is not installed (pip install -e '.[bench]')")
    url = postgres_server.create_database()
    stacks = tmp_path / "server.raw"
    done, report = run_script(
        tmp_path, "--db", url, "--workers", "2", "--games", "4", "--py-spy", str(stacks)
    )
    check_report(report, 4)
    assert "where the server's wall-clock time goes" in done.stdout
    summary = stacks_script().read_stacks(stacks.read_text().splitlines())
    assert summary.busy > 0
    # Both workers were sampled: the moves were stored by whichever served them.
    processes = {line.split(";")[1] for line in stacks.read_text().splitlines() if ";" in line}
    assert len({p for p in processes if p.startswith("process ")}) >= 2
    assert any("Store.append_move" in name for name in summary.ours)


def stacks_script() -> ModuleType:
    """benchmarks/stacks.py as a module (the summary loadtest.py prints)."""
    load_script()  # puts the scripts' folder on the path
    return importlib.import_module("stacks")


def test_stacks_are_shared_out_by_our_functions_with_idle_threads_left_out() -> None:
    # Three stacks of one worker: its event loop with nothing to do (idle), a thread
    # storing a move (waiting for the database: busy, as wall-clock time), and the
    # event loop building a state.
    raw = [
        'process 7:"umtali serve";<module> (umtali/__main__.py:4);main (umtali/cli/main.py:9);'
        "Runner.run (asyncio/runners.py:118) 90",
        'process 7:"umtali serve";Thread._bootstrap (threading.py:1002);'
        "Store.append_move (umtali/web/store.py:1100);"
        "Store._append_move_statement (umtali/web/store.py:1120);"
        "Connection.wait (psycopg/connection.py:495) 6",
        'process 7:"umtali serve";<module> (umtali/__main__.py:4);'
        "GameServer.state (umtali/web/server.py:600);"
        "Store.append_move (umtali/web/store.py:1101);"
        "BaseModel.model_dump_json (pydantic/main.py:587) 4",
        "not a stack line",
    ]
    summary = stacks_script().read_stacks(raw)
    assert (summary.busy, summary.idle) == (10, 90)
    assert summary.ours["Store.append_move (umtali/web/store.py)"] == 10  # once per sample
    assert summary.ours["GameServer.state (umtali/web/server.py)"] == 4
    assert summary.innermost["Connection.wait (psycopg/connection.py:495)"] == 6
