"""The opt-in compiled build of the rules core (:mod:`umtali.sim.compiled`): it plays
exactly as the pure package, move for move, and the build works.

The lockstep test runs on the build in ``build/compiled`` (``./dev build-fast``), and is
skipped, saying why, when there is none or it is older than the sources; the build test
(slow: a minute of mypyc and gcc, the C unoptimised) builds afresh into a temporary
folder and runs the same lockstep there, so a full run proves both.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.compiled_trace import trace
from umtali.sim.compiled import (
    CompiledEngine,
    build,
    compiled_engines,
    compiled_modules,
    default_tree,
    tree_problem,
)

ROOT = Path(__file__).resolve().parent.parent
"""The checkout, which holds ``tests``."""

HANDS, SEED = 24, 5
"""The hands of the lockstep (both presets in turn) and their seed."""


def _compiled_trace(tree: Path) -> tuple[list[str], dict[str, Any]]:
    """The trace played on the build in ``tree``, in a child process; and the core's
    modules the child loaded compiled."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tree), str(ROOT)])}
    done = subprocess.run(
        [sys.executable, "-P", "-m", "tests.compiled_trace", str(HANDS), str(SEED)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    modules, record = done.stdout.splitlines()
    return json.loads(modules), json.loads(record)


def _lockstep(tree: Path) -> None:
    loaded, compiled = _compiled_trace(tree)
    assert loaded == sorted(f"umtali.{name}" for name in compiled_modules()), (
        "the child loaded these modules compiled, not the build's"
    )
    pure = json.loads(json.dumps(trace(HANDS, SEED)))  # tuples as lists, as the child's
    for i, (mine, theirs) in enumerate(zip(pure["hands"], compiled["hands"], strict=True)):
        for step, (a, b) in enumerate(zip(mine, theirs, strict=True)):
            assert a == b, f"hand {i}, record {step}: pure {a!r}, compiled {b!r}"
        assert len(mine) == len(theirs), f"hand {i} lasted longer in one of them"
    assert pure["batch"] == compiled["batch"], "the batch's observations differ"


def test_the_compiled_core_plays_as_the_pure_one() -> None:
    problem = tree_problem()
    if problem is not None:
        pytest.skip(problem)
    _lockstep(default_tree())


@pytest.mark.skipif(shutil.which("gcc") is None, reason="the build needs gcc")
def test_the_build_compiles_the_core_and_plays_in_lockstep(tmp_path: Path) -> None:
    pytest.importorskip("mypyc", reason="the build needs mypyc (the dev extra's mypy)")
    # Unoptimised C: the same modules compiled in about half the time (the lockstep
    # checks what the code does, not how fast).
    tree = build(tmp_path / "compiled", optimize=False)
    assert tree_problem(tree) is None
    _lockstep(tree)


def test_a_missing_or_stale_build_says_how_to_build(tmp_path: Path) -> None:
    assert "./dev build-fast" in str(tree_problem(tmp_path))
    (tmp_path / "SOURCE_DIGEST").write_text("0" * 64)
    problem = tree_problem(tmp_path)
    assert problem is not None
    assert "older than the sources" in problem


@pytest.mark.process  # the engine's child, started in the package
def test_the_bench_races_the_compiled_engines_in_a_child() -> None:
    problem = tree_problem()
    if problem is not None:
        pytest.skip(problem)
    from umtali.rl.bench import COMPILED

    engines, note = compiled_engines(COMPILED)
    assert note is None
    assert len(engines) == 1 + len(COMPILED)  # the bare engine, then the batches
    engine = engines[0][0]()
    assert isinstance(engine, CompiledEngine)
    try:
        assert engine.name == "umtali (action ints), compiled"
        moves, hands = engine.play(random.Random(1))
        assert moves > 0
        assert hands > 0
        times: list[int] = []
        engine.timed_hand(random.Random(2), times, 0)
        assert times
    finally:
        engine.close()


def test_without_a_build_the_bench_says_why() -> None:
    engines, note = compiled_engines((), tree=ROOT / "no-such-build")
    assert engines == []
    assert note is not None
    assert "./dev build-fast" in note
