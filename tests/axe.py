"""axe-core, the accessibility checker, for the browser tests: the npm package at a
pinned version, installed by ``npm`` into a cache folder outside the repository (``./dev
test`` does it before the tests; :func:`axe_script` does it when it is missing), never
committed and never built. A test injects ``axe.min.js`` into a page and runs it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

AXE_VERSION = "4.10.2"
"""The version of the npm package ``axe-core`` the tests use (the same in ./dev)."""

AXE_HOME = Path(
    os.environ.get("UMTALI_AXE_DIR", Path.home() / ".cache" / "umtali" / f"axe-core-{AXE_VERSION}")
)
"""Where npm installs it (``UMTALI_AXE_DIR`` names another folder)."""

BLOCKING = ("serious", "critical")
"""The impacts of a violation that fail a test."""


def install() -> Path:
    """The path of ``axe.min.js``, installed by npm first if it is missing; a
    :class:`RuntimeError` says why where it cannot be had."""
    script = AXE_HOME / "node_modules" / "axe-core" / "axe.min.js"
    if script.exists():
        return script
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("no npm to install axe-core (apt-get install npm; ./dev test does)")
    done = subprocess.run(
        [
            npm,
            "install",
            "--prefix",
            str(AXE_HOME),
            "--no-save",
            "--no-audit",
            "--no-fund",
            "--no-package-lock",
            f"axe-core@{AXE_VERSION}",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if not script.exists():
        raise RuntimeError(f"npm could not install axe-core@{AXE_VERSION}: {done.stderr[-500:]}")
    return script


def axe_script() -> Path:
    """:func:`install`, the test skipped (failed in CI) where axe-core cannot be had."""
    try:
        return install()
    except RuntimeError as problem:
        if os.environ.get("CI"):
            pytest.fail(f"{problem}: CI must run the accessibility tests")
        pytest.skip(str(problem))


def violations(page: Page, script: Path) -> list[dict[str, Any]]:
    """What axe finds on ``page`` as it stands, of a serious or critical impact."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(script))
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
    )
    return [v for v in found if v.get("impact") in BLOCKING]


def report(found: list[dict[str, Any]]) -> str:
    """The violations told for a person: each rule, its help, and the elements at fault."""
    lines = []
    for violation in found:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"][:8]:
            lines.append(f"    {' '.join(map(str, node['target']))}: {node.get('failureSummary', '')!s}".replace("\n", " "))  # fmt: skip
    return "\n".join(lines)


if __name__ == "__main__":  # ./dev test installs it so: python -m tests.axe
    print(f"axe-core {AXE_VERSION} at {install().parent}")
