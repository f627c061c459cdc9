"""The architecture, checked: every import points inward, and the rules core needs nothing
outside Python's standard library.

The layers, innermost first (docs/ARCHITECTURE.md tells what each is for). A module may
import modules of its own layer or of inner ones, never of an outer one; imports made
inside functions count too.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

import umtali

PACKAGE = Path(umtali.__file__).parent

LAYERS: tuple[tuple[str, ...], ...] = (
    (
        "umtali.kernel.cards",
        "umtali.kernel.players",
        "umtali.kernel.rules",
        "umtali.kernel.paired",
        "umtali.games.*.rules",
    ),
    (
        "umtali.kernel.deck",
        "umtali.kernel.english",
        "umtali.games.*.terms",
        "umtali.games.*.melds",
        "umtali.games.*.moves",
        "umtali.games.*.deal",
    ),
    (
        "umtali.kernel.seeds",
        "umtali.games.*.state",
        "umtali.games.*.reasons",
        "umtali.games.*.notation",
        "umtali.games.*.view",
        "umtali.games.*.match",
        "umtali.games.*.game",
        "umtali.games.*.party",
    ),
    (
        "umtali$",
        "umtali.kernel$",
        "umtali.kernel.record",
        "umtali.kernel.files",
        "umtali.games$",
        "umtali.games.*$",
        "umtali.games.*.record",
        "umtali.games.*.describe",
        "umtali.games.*.lessons",
        "umtali.games.*.spec",
    ),
    ("umtali.games.*.bots",),
    (
        "umtali.session",
        "umtali.games.*.session",
        "umtali.games.*.sessions",
        "umtali.games.*.party_session",
        "umtali.games.*.replay",
        "umtali.replaying",
        "umtali.learn",
        "umtali.games.*.learn",
    ),
    ("umtali.sim", "umtali.games.*.arena"),
    (
        "umtali.cli",
        "umtali.web",
        "umtali.rl",
        "umtali.__main__",
        "umtali.games.*.terminal",
        "umtali.games.*.table",
        "umtali.games.*.research",
    ),
)
"""Each module belongs to the entry that names it most closely. An entry names a module
and everything inside it (``umtali.sim`` holds ``umtali.sim.arena``), or only itself when it
ends in ``$``; ``*`` stands for one part of a name, any game's folder. So a module of a game
belongs to its layer by its name (``state``, ``bots``, ``session``), whichever game it is,
and a module named otherwise is in no layer: docs/ARCHITECTURE.md lists the names."""

CORE: tuple[str, ...] = LAYERS[0] + LAYERS[1] + LAYERS[2]
"""The rules core: pure, with no I/O and no third-party imports."""


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _closeness(entry: str, module: str) -> tuple[int, int] | None:
    """How closely ``entry`` names ``module`` (its parts, then how few are ``*``), or
    ``None`` when it does not name it."""
    exact = entry.endswith("$")
    parts = entry.removesuffix("$").split(".")
    names = module.split(".")
    if len(names) < len(parts) or (exact and len(names) != len(parts)):
        return None
    if any(part not in ("*", name) for part, name in zip(parts, names, strict=False)):
        return None
    return len(parts), -parts.count("*")


def layer_of(module: str) -> int:
    best: tuple[tuple[int, int], int] | None = None  # (closeness, layer)
    for depth, names in enumerate(LAYERS):
        for name in names:
            close = _closeness(name, module)
            if close is not None and (best is None or close > best[0]):
                best = (close, depth)
    assert best is not None, (
        f"{module} is in no layer: name it as docs/ARCHITECTURE.md says, or add it to LAYERS"
    )
    return best[1]


def in_core(module: str) -> bool:
    return any(_closeness(name, module) is not None for name in CORE) and layer_of(module) <= 2


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
CORE_MODULES = sorted(module_name(path) for path in SOURCES if in_core(module_name(path)))


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
    if not in_core(here):
        return
    for imported in imports_of(path):
        top = imported.split(".")[0]
        assert top == "umtali" or top in sys.stdlib_module_names or top == "__future__", (
            f"{here} is in the rules core but imports {imported}"
        )


def test_importing_the_core_loads_no_third_party_module() -> None:
    code = (
        "import sys\n"
        f"import {', '.join(CORE_MODULES)}\n"
        "outside = sorted({m.split('.')[0] for m in sys.modules} - set(sys.stdlib_module_names)"
        " - {'umtali', '__main__', '_distutils_hack'})\n"
        "print(' '.join(outside))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert result.stdout.split() == []


# -- one home per game -------------------------------------------------------------------------

GAME_NAMES = sorted(
    path.name for path in (PACKAGE / "games").iterdir() if (path / "__init__.py").exists()
)
"""The games built in, one folder each under umtali/games."""


def _game_of(module: str) -> str | None:
    """The game whose folder holds ``module``, if any."""
    parts = module.split(".")
    if len(parts) >= 3 and parts[:2] == ["umtali", "games"] and parts[2] in GAME_NAMES:
        return parts[2]
    return None


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: module_name(p))
def test_no_game_imports_another_and_only_games_import_a_game(path: Path) -> None:
    """A game's modules import no other game's; outside the game folders, only the root
    package (the public names of the default game) imports a game: the kernel, the
    sessions, the registry and every front end ask the registry instead."""
    here = module_name(path)
    mine = _game_of(here)
    for imported in sorted(imports_of(path)):
        theirs = _game_of(imported)
        if theirs is None or theirs == mine:
            continue
        if mine is not None:
            raise AssertionError(
                f"{here}, of the game {mine}, imports {imported}: a game of {theirs}"
            )
        assert here == "umtali", (
            f"{here} imports {imported}, a module of the game {theirs}: ask the registry"
            " (umtali.games) for what the game provides"
        )


GIN_WORDS = re.compile(r'\bgin\b|Gin[A-Z]|GIN_|"gin"')
"""What names Gin Rummy in code (issue 22's measure of one home per game)."""

NAMING_GIN_ALLOWED = {
    "umtali.games",
    "umtali.web.migrations.versions.0003_which_game",
    "umtali.web.migrations.versions.0005_any_game",
}
"""The registry names every built-in game, a line each; a past migration tells the schema's
history, which names the games it knew (0005 undoes to a schema that listed them)."""


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: module_name(p))
def test_only_gin_s_own_folder_names_gin(path: Path) -> None:
    here = module_name(path)
    if _game_of(here) == "gin" or here in NAMING_GIN_ALLOWED:
        return
    lines = [
        f"{number}: {line.strip()}"
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        if GIN_WORDS.search(line)
    ]
    assert not lines, f"{here} names Gin Rummy:\n" + "\n".join(lines[:10])
