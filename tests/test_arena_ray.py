"""The arena's Ray backend (``umtali arena ... --backend ray``): the deals as Ray tasks on
a local Ray of two CPUs, with the same records as the process pool. Ray runs only in
child processes: the pytest worker itself never starts one."""

from __future__ import annotations

import io
import json
import socket
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from umtali.sim.arena import ArenaError, run_arena

UMTALI = str(Path(sys.executable).parent / "umtali")


@pytest.fixture(scope="module")
def ray() -> ModuleType:
    """Ray, imported by the tests that use it: importing it takes a second, which
    collecting the tests need not spend."""
    module: ModuleType = pytest.importorskip("ray")
    return module


def test_a_cluster_that_does_not_answer_is_refused_at_once(ray: ModuleType) -> None:
    # Before any Ray runs in this process (the tests below start one): Ray itself would
    # retry such an address for minutes.
    assert not ray.is_initialized()
    with socket.socket() as probe:  # a port nobody listens on once the probe is closed
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(ArenaError, match=f"no Ray cluster answers at '127.0.0.1:{port}'"):
        run_arena("greedy", "random", 1, backend="ray", address=f"127.0.0.1:{port}")
    with pytest.raises(ArenaError, match="auto, HOST:PORT or ray://HOST:PORT, not 'nowhere'"):
        run_arena("greedy", "random", 1, backend="ray", address="nowhere")
    assert not ray.is_initialized()


ON_RAY = """
import json, sys
from umtali.sim.arena import run_arena
told = []
result = run_arena("greedy", "random", 3, seed=5, jobs=2, backend="ray", progress=told.append)
json.dump({"told": told, "result": result.to_dict(), "jobs": result.jobs}, sys.stdout)
"""
"""The Ray run of :func:`test_ray_tasks_play_the_same_games_as_processes`, in a process of
its own: a process that has run Ray keeps its threads, and a process pool forked from it
later (the arena's, in another test on the same pytest worker) could hang."""


def test_ray_tasks_play_the_same_games_as_processes(ray: ModuleType) -> None:
    child = subprocess.run(
        [sys.executable, "-c", ON_RAY], capture_output=True, text=True, timeout=600, check=False
    )
    assert child.returncode == 0, child.stderr[-2000:]
    on_ray = json.loads(child.stdout)
    in_processes = run_arena("greedy", "random", 3, seed=5, jobs=2).to_dict()
    # Three deals, each twice with the seats swapped: the same six games, hand by hand.
    records = on_ray["result"]["records"]
    assert [(r["deal"], r["a_seat"]) for r in records] == [(d, s) for d in range(3) for s in (0, 1)]
    assert records == in_processes["records"]
    assert on_ray["result"]["summary"] == in_processes["summary"]
    assert on_ray["told"][0] == 0
    assert sum(on_ray["told"]) == 6
    assert on_ray["result"]["run"]["backend"] == "ray"
    assert on_ray["jobs"] == 2  # the local Ray's CPUs


def test_the_command_runs_on_ray(ray: ModuleType, tmp_path: Path) -> None:
    args = [UMTALI, "arena", "greedy", "random", "--games", "2", "--seed", "2", "--quiet"]
    on_ray = subprocess.run(
        [*args, "--backend", "ray", "--jobs", "2", "--out", str(tmp_path / "ray")],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert on_ray.returncode == 0, on_ray.stderr[-2000:]
    assert "Ray tasks on 2 CPUs" in on_ray.stdout
    here = subprocess.run(
        [*args, "--jobs", "1", "--out", str(tmp_path / "here")],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert here.returncode == 0, here.stderr[-2000:]

    def records(folder: str) -> object:
        path = tmp_path / folder / "greedy-vs-random-seed2.json"
        return json.loads(path.read_text(encoding="utf-8"))["records"]

    assert records("ray") == records("here")


def test_an_address_needs_the_ray_backend(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from umtali.cli.main import main

    args = ["arena", "greedy", "random", "--games", "1", "--address", "auto"]
    assert main([*args, "--out", str(tmp_path)], io.StringIO()) == 2
    assert "--address names a Ray cluster: add --backend ray" in capsys.readouterr().err
    with pytest.raises(ArenaError, match="needs the ray backend"):
        run_arena("greedy", "random", 1, address="auto")
    with pytest.raises(ArenaError, match="one of processes, ray, not 'dask'"):
        run_arena("greedy", "random", 1, backend="dask")


def test_without_ray_the_backend_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # as if it were not installed
    with pytest.raises(ArenaError, match=r"needs Ray, which is not installed: .*umtali\[ray\]"):
        run_arena("greedy", "random", 1, backend="ray")
