"""The rules core compiled with mypyc: an opt-in build, and its engines in ``umtali bench
--peers``.

The build (``./dev build-fast``, which runs ``python -m umtali.sim.compiled``) copies the
package as it stands into a folder of its own, ``build/compiled`` in the checkout by
default, and compiles there, with mypyc, the typed pure modules of the rules core: the
kernel's cards, deck, rules and players, and each game's modules that its arena hook names
(:attr:`umtali.sim.hooks.ArenaHook.compiled`). Each compiled module lies beside its source
in the copy, where Python loads the extension before the source; the package itself is
never touched, so it stays pure Python, and the default. A program opts in by putting the
copy first on its path::

    ./dev build-fast                                   # needs mypyc and gcc (the dev extra)
    PYTHONPATH=build/compiled umtali bench             # or any program of the package

The copy records a digest of the sources it was built from: a copy older than the
sources is not raced, and the lockstep test (tests/test_compiled.py) skips it, each
saying so. ``UMTALI_COMPILED`` names another folder for the build.

A compiled module and its source cannot share one process (they have one name), so the
bench races a compiled engine in a child process run on the copy: :class:`CompiledEngine`
plays a short run of the engine's own loop in the child at each call and takes back its
counts. The child inherits the bench's core, and the bench waits while it plays, so the
race stays one core's.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import random
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import IO, Any, Final

import umtali
from umtali import games
from umtali.sim.hooks import hook_of
from umtali.sim.peers import Engine, OptionalEngine

__all__ = [
    "KERNEL_MODULES",
    "CompiledEngine",
    "build",
    "compiled_engines",
    "compiled_modules",
    "default_tree",
    "is_compiled",
    "source_digest",
    "tree_problem",
]

PACKAGE: Final = Path(umtali.__file__).resolve().parent
"""The package the build copies: the one this process imported."""

KERNEL_MODULES: Final = ("kernel.cards", "kernel.deck", "kernel.rules", "kernel.players")
"""The kernel's modules that the build compiles (names inside the package)."""

DIGEST_FILE: Final = "SOURCE_DIGEST"
"""The file of the build that holds the digest of the sources it was built from."""

CHUNK_SECONDS: Final = 0.02
"""How long the child plays at each :meth:`CompiledEngine.play`: long enough that the
round trip to it (some tens of µs) is lost in the play."""


def compiled_modules() -> list[str]:
    """The modules the build compiles, as names inside the package."""
    return [
        *KERNEL_MODULES,
        *(f"games.{spec.name}.{name}" for spec in games.games() for name in hook_of(spec).compiled),
    ]


def default_tree() -> Path:
    """Where the build goes: ``UMTALI_COMPILED`` if set, else ``build/compiled`` in the
    checkout the package was imported from (the folder that holds ``src``)."""
    named = os.environ.get("UMTALI_COMPILED")
    if named:
        return Path(named)
    return PACKAGE.parent.parent / "build" / "compiled"


def source_digest(package: Path = PACKAGE) -> str:
    """A digest of every Python source of ``package``: a build of other sources is stale."""
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    return digest.hexdigest()


def tree_problem(tree: Path | None = None) -> str | None:
    """Why the compiled build at ``tree`` (by default :func:`default_tree`) cannot stand
    for the sources; ``None`` when it can."""
    tree = default_tree() if tree is None else tree
    stamp = tree / DIGEST_FILE
    if not stamp.is_file():
        return f"no compiled build in {tree}: build it with ./dev build-fast"
    if stamp.read_text().strip() != source_digest():
        return f"the compiled build in {tree} is older than the sources: run ./dev build-fast"
    return None


def is_compiled(module: str) -> bool:
    """Whether ``module`` (a full name, imported) was loaded from a compiled extension."""
    return not str(getattr(sys.modules[module], "__file__", "")).endswith(".py")


def build(tree: Path | None = None, out: IO[str] | None = None, *, optimize: bool = True) -> Path:
    """Copy the package into ``tree`` (by default :func:`default_tree`) and compile its
    core there with mypyc (see the module); return ``tree``. ``RuntimeError`` when mypyc
    fails, with its output. ``optimize=False`` compiles the C without optimisation: the
    same code, about half the build time and slower to run (the tests' build)."""
    tree = default_tree() if tree is None else tree
    digest = source_digest()
    if tree.exists():
        shutil.rmtree(tree)
    shutil.copytree(PACKAGE, tree / "umtali", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    paths = [f"umtali/{name.replace('.', '/')}.py" for name in compiled_modules()]
    # mypyc checks the modules with mypy (their imports too, from the copy), writes its C
    # and objects under build/, and places each extension beside its source.
    done = subprocess.run(
        [sys.executable, "-m", "mypyc", *paths],
        cwd=tree,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(tree), "MYPYC_OPT_LEVEL": "3" if optimize else "0"},
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"mypyc failed:\n{done.stdout}{done.stderr}")
    shutil.rmtree(tree / "build", ignore_errors=True)
    shutil.rmtree(tree / ".mypy_cache", ignore_errors=True)
    (tree / DIGEST_FILE).write_text(digest + "\n")
    if out is not None:
        print(f"compiled {len(paths)} modules into {tree}", file=out)
    return tree


# -- the engines in the race -----------------------------------------------------------------
def hook_engine(game: str, index: int) -> Engine:
    """The ``index``-th of ``game``'s own engines (a picklable way to name one)."""
    return hook_of(game).engines()[index]


class CompiledEngine:
    """An engine played in a child process on the compiled build (see the module).
    ``make`` makes it there: a picklable callable (a class, or a ``partial`` of one), so
    it must be importable by name."""

    def __init__(self, make: Callable[[], Engine], tree: Path | None = None) -> None:
        tree = default_tree() if tree is None else tree
        path = [str(tree), *filter(None, [os.environ.get("PYTHONPATH")])]
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
        # -P: not the working folder first on the path, where a checkout's package would
        # come before the build.
        self._child = subprocess.Popen(
            [sys.executable, "-P", "-m", "umtali.sim.compiled", "--serve"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        name, version = self._ask(make)
        self.name = f"{name}, compiled"
        self.version = version

    def _ask(self, request: object) -> Any:
        child = self._child
        assert child.stdin is not None
        assert child.stdout is not None
        try:
            pickle.dump(request, child.stdin)
            child.stdin.flush()
            reply = pickle.load(child.stdout)
        except (EOFError, BrokenPipeError):
            raise RuntimeError(
                "the compiled engine's process ended (its own error is above)"
            ) from None
        if isinstance(reply, BaseException):
            raise reply
        return reply

    def play(self, rng: random.Random) -> tuple[int, int]:
        moves, hands = self._ask(("play", rng.getrandbits(64)))
        return int(moves), int(hands)

    def timed_hand(self, rng: random.Random, times: list[int], overhead: int) -> None:
        times.extend(self._ask(("timed", rng.getrandbits(64), overhead)))

    def close(self) -> None:
        """End the child."""
        child = getattr(self, "_child", None)
        if child is not None and child.poll() is None:
            assert child.stdin is not None
            child.stdin.close()
            child.wait()

    def __del__(self) -> None:
        self.close()


def _serve(requests: IO[bytes], replies: IO[bytes]) -> None:
    """The child's loop: make the engine, then play as asked until the input ends."""
    engine: Engine | None = None
    while True:
        try:
            request = pickle.load(requests)
        except EOFError:
            return
        try:
            if engine is None:
                engine = request()
                reply: object = (engine.name, engine.version)
            elif request[0] == "play":
                rng = random.Random(request[1])
                moves = hands = 0
                deadline = time.perf_counter() + CHUNK_SECONDS
                while time.perf_counter() < deadline:
                    m, h = engine.play(rng)
                    moves += m
                    hands += h
                reply = (moves, hands)
            else:
                times: list[int] = []
                engine.timed_hand(random.Random(request[1]), times, request[2])
                reply = times
        except ImportError as e:  # an extra the engine needs: left out of the race
            reply = ImportError(str(e))
        except Exception as e:  # handed back, raised in the bench
            reply = RuntimeError(f"the compiled engine failed: {e!r}")
        pickle.dump(reply, replies)
        replies.flush()


def compiled_engines(
    more: Sequence[Callable[[], Engine]] = (), tree: Path | None = None
) -> tuple[list[OptionalEngine], str | None]:
    """The engines to race on the compiled build, when it stands for the sources: each
    game's first own engine (its bare engine) where the game's core is compiled, then
    ``more`` (the rl layer's batches); or none, and why."""
    tree = default_tree() if tree is None else tree
    problem = tree_problem(tree)
    if problem is not None:
        return [], problem
    makers: list[Callable[[], Engine]] = [
        partial(hook_engine, spec.name, 0)
        for spec in games.games()
        if hook_of(spec).compiled and hook_of(spec).engines()
    ]
    makers += more
    # Only the batches can miss a package (numpy and the rest of the rl extra).
    return [(partial(CompiledEngine, make, tree), "the rl extra", "rl") for make in makers], None


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m umtali.sim.compiled [--out DIR]``: build (see the module)."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m umtali.sim.compiled", description="Compile the rules core with mypyc."
    )
    parser.add_argument("--out", type=Path, help="the build's folder (default build/compiled)")
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.serve:
        # The replies go down the standard output as it was; anything the engine prints
        # goes to the standard error instead, where it cannot break them.
        replies = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
        os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
        _serve(sys.stdin.buffer, replies)
        return 0
    started = time.perf_counter()
    try:
        tree = build(args.out)
    except RuntimeError as e:
        print(e, file=sys.stderr)
        return 1
    modules = len(compiled_modules())
    print(
        f"compiled {modules} modules into {tree} in {time.perf_counter() - started:.0f} s;"
        f" opt in with PYTHONPATH={tree}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
