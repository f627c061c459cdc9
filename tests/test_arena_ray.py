"""The arena's Ray backend (``umtali arena ... --backend ray``): the deals as Ray tasks on
a local Ray of two CPUs, with the same records as the process pool. Ray runs only in
the command's process: the pytest worker itself never starts one."""

from __future__ import annotations

import io
import json
import socket
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

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
    # Refused before Ray starts in this process: Ray itself would
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


def test_the_command_plays_the_same_games_on_ray_as_in_processes(
    ray: ModuleType, tmp_path: Path
) -> None:
    # Ray runs in the command's process, never in this one: a process that has run Ray
    # keeps its threads, and a process pool forked from it later could hang.
    args = [UMTALI, "arena", "greedy", "random", "--games", "3", "--seed", "5", "--quiet"]
    ray_run = subprocess.run(
        [*args, "--backend", "ray", "--jobs", "2", "--out", str(tmp_path / "ray")],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert ray_run.returncode == 0, ray_run.stderr[-2000:]
    assert "Ray tasks on 2 CPUs" in ray_run.stdout
    here = subprocess.run(
        [*args, "--jobs", "1", "--out", str(tmp_path / "here")],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert here.returncode == 0, here.stderr[-2000:]

    def results(folder: str) -> dict[str, Any]:
        path = tmp_path / folder / "greedy-vs-random-seed5.json"
        loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        return loaded

    on_ray, in_processes = results("ray"), results("here")
    # Three deals, each twice with the seats swapped: the same six games, hand by hand.
    records = on_ray["records"]
    assert [(r["deal"], r["a_seat"]) for r in records] == [(d, s) for d in range(3) for s in (0, 1)]
    assert records == in_processes["records"]
    assert on_ray["summary"] == in_processes["summary"]
    assert on_ray["run"]["backend"] == "ray"


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
