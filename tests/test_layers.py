"""The architecture, checked: every import points inward, and the rules core needs nothing
outside Python's standard library.

The layers, innermost first (docs/ARCHITECTURE.md tells what each is for). A module may
import modules of its own layer or of inner ones, never of an outer one; imports made
inside functions count too.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import umtali

PACKAGE = Path(umtali.__file__).parent

LAYERS: tuple[tuple[str, ...], ...] = (
    ("umtali.cards", "umtali.rules"),
    ("umtali.terms", "umtali.melds", "umtali.moves", "umtali.deck"),
    (
        "umtali.state",
        "umtali.reasons",
        "umtali.notation",
        "umtali.view",
        "umtali.match",
        "umtali.gin",
    ),
    (
        "umtali",
        "umtali.record",
        "umtali.gin_record",
        "umtali.files",
        "umtali.lessons",
        "umtali.describe",
    ),
    ("umtali.bots",),
    (
        "umtali.session",
        "umtali.session_shared",
        "umtali.gin_session",
        "umtali.gin_party_session",
        "umtali.session_file",
        "umtali.replaying",
        "umtali.learn",
    ),
    ("umtali.sim",),
    ("umtali.cli", "umtali.web", "umtali.rl", "umtali.__main__"),
)
"""Each module belongs to the first entry that is it or a package holding it."""

CORE: tuple[str, ...] = LAYERS[0] + LAYERS[1] + LAYERS[2]
"""The rules core: pure, with no I/O and no third-party imports."""


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> int:
    best: tuple[int, int] | None = None  # (length of the matching name, layer)
    for depth, names in enumerate(LAYERS):
        for name in names:
            inside = module == name or module.startswith(name + ".")
            if inside and (best is None or len(name) > best[0]):
                best = (len(name), depth)
    assert best is not None, f"{module} is in no layer: add it to LAYERS"
    return best[1]


def imports_of(path: Path) -> set[str]:
    """The modules ``path`` imports, anywhere in it (resolving relative imports)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path}: relative import; write it whole"
            assert node.module is not None
            found.add(node.module)
            # `from umtali import x` may import the submodule x.
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


SOURCES = sorted(PACKAGE.rglob("*.py"))


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: module_name(p))
def test_imports_point_inward(path: Path) -> None:
    here = module_name(path)
    mine = layer_of(here)
    for imported in sorted(imports_of(path)):
        if imported != "umtali" and not imported.startswith("umtali."):
            continue
        if imported.startswith("umtali.") and not _exists(imported):
            continue  # `from umtali.x import name`: the name is no module
        assert layer_of(imported) <= mine, (
            f"{here} (layer {mine}) imports {imported} (layer {layer_of(imported)}): an"
            " inner layer must not depend on an outer one"
        )


def _exists(module: str) -> bool:
    relative = Path(*module.split(".")[1:])
    return (PACKAGE / relative).with_suffix(".py").exists() or (PACKAGE / relative).is_dir()


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: module_name(p))
def test_the_core_imports_only_the_standard_library(path: Path) -> None:
    here = module_name(path)
    if not any(here == name or here.startswith(name + ".") for name in CORE):
        return
    for imported in imports_of(path):
        top = imported.split(".")[0]
        assert top == "umtali" or top in sys.stdlib_module_names or top == "__future__", (
            f"{here} is in the rules core but imports {imported}"
        )


def test_importing_the_core_loads_no_third_party_module() -> None:
    code = (
        "import sys\n"
        f"import {', '.join(CORE)}\n"
        "outside = sorted({m.split('.')[0] for m in sys.modules} - set(sys.stdlib_module_names)"
        " - {'umtali', '__main__', '_distutils_hack'})\n"
        "print(' '.join(outside))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.split() == []
