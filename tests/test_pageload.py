"""The page-load benchmark (benchmarks/pageload.py), run on one page so that it never
rots: it starts a real server, loads the page cold in chromium and prints the figures
docs/PERFORMANCE.md quotes. Nothing here is timed: the figures are for people."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser import CHROMIUM

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "pageload.py"

pytestmark = pytest.mark.browser  # it drives chromium, as the browser tests do


def test_the_page_load_benchmark_measures_a_table(tmp_path: Path) -> None:
    if not CHROMIUM.exists():
        if os.environ.get("CI"):
            pytest.fail(f"no chromium at {CHROMIUM}: CI must run the browser tests")
        pytest.skip(f"no chromium at {CHROMIUM}")
    report = tmp_path / "pages.json"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--page", "umtali-table", "--json", str(report)],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "| umtali-table |" in done.stdout
    assert "300 KB" in done.stdout
    [row] = json.loads(report.read_text())
    assert row["page"] == "umtali-table"
    # The page, its styles, its scripts and its state at least; every byte counted.
    assert row["requests"] >= 3
    assert 0 < row["body_bytes"] <= row["transfer_bytes"]
    assert 0 < row["dom_content_loaded_ms"] <= row["load_ms"]
    assert row["interactive_ms"] is not None
    assert row["interactive_ms"] > 0
