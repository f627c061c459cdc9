"""The arena's Ray backend (``umtali arena ... --backend ray``): the deals as Ray tasks on
a local Ray of two CPUs, with the same records as the process pool."""

from __future__ import annotations

import io
import json
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from umtali.sim.arena import ArenaError, run_arena


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


@pytest.fixture(scope="module")
def local_ray(ray: ModuleType) -> Iterator[None]:
    """One local Ray of 2 CPUs for the module's tests (starting one takes seconds)."""
    started = not ray.is_initialized()
    if started:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    if started:
        ray.shutdown()


def test_ray_tasks_play_the_same_games_as_processes(local_ray: None) -> None:
    told: list[int] = []
    on_ray = run_arena("greedy", "random", 3, seed=5, jobs=2, backend="ray", progress=told.append)
    in_processes = run_arena("greedy", "random", 3, seed=5, jobs=2)
    # Three deals, each twice with the seats swapped: the same six games, hand by hand.
    assert [(r.deal, r.a_seat) for r in on_ray.records] == [
        (d, s) for d in range(3) for s in (0, 1)
    ]
    assert on_ray.records == in_processes.records
    assert on_ray.summary() == in_processes.summary()
    assert told[0] == 0
    assert sum(told) == 6
    assert on_ray.to_dict()["run"]["backend"] == "ray"
    assert on_ray.jobs == 2  # the local Ray's CPUs


def test_the_command_runs_on_ray(local_ray: None, tmp_path: Path) -> None:
    from umtali.cli.main import main

    out = io.StringIO()
    args = ["arena", "greedy", "random", "--games", "2", "--seed", "2", "--quiet"]
    assert main([*args, "--backend", "ray", "--out", str(tmp_path / "ray")], out) == 0
    assert "Ray tasks on 2 CPUs" in out.getvalue()
    assert main([*args, "--jobs", "1", "--out", str(tmp_path / "here")], io.StringIO()) == 0

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
