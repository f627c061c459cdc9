"""``umtali arena A B``: two computer levels of any game over duplicate deals, with the
figures, JSON results and a plot (:mod:`umtali.sim.arena`). The levels and the variant
are checked against the game's spec before the games, which may take hours, begin.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from umtali.cli.choosing import game_named, level_chosen, variant_chosen
from umtali.cli.usage import UsageError
from umtali.games.api import GameSpec
from umtali.sim.hooks import hook_of, levels_of

if TYPE_CHECKING:
    from rich.progress import Progress

    from umtali.sim.results import ResultPaths

__all__ = ["cmd_arena"]


@dataclass(frozen=True)
class _Run:
    """An arena run, its options checked: the game, its variant (``None``: the game's
    first), how many processes, and where its results go."""

    spec: GameSpec
    variant: str | None
    jobs: int
    paths: ResultPaths


def _run_name(spec: GameSpec, variant: str | None) -> str:
    """What a run's files are named after: the game, and the variant unless it is the
    game's first, so that a run of another variant never replaces one of the first."""
    return spec.name if variant in (None, spec.variants[0]) else f"{spec.name}-{variant}"


def _checked(args: argparse.Namespace) -> _Run:
    """The run ``args`` ask for, or :class:`UsageError` saying what cannot be used."""
    from umtali.sim.results import EarlierResultsError, ResultsError, prepare_results

    spec = game_named(args.game)
    variant = variant_chosen(spec, args.variant, args.rules)
    hook = hook_of(spec)
    for level in (args.bot_a, args.bot_b):
        if level not in levels_of(spec):
            level_chosen(spec, level)  # refused with the game's levels
        missing = hook.unavailable(level)
        if missing is not None:
            raise UsageError(missing)
    if not 1 <= args.games <= 1_000_000:
        raise UsageError(f"--games must be from 1 to 1,000,000 deals, not {args.games}")
    jobs = args.jobs if args.jobs is not None else os.cpu_count() or 1
    if not 1 <= jobs <= 1024:
        raise UsageError(f"--jobs must be from 1 to 1024, not {jobs}")
    if args.address is not None and args.backend != "ray":
        raise UsageError("--address names a Ray cluster: add --backend ray")
    try:
        paths = prepare_results(
            Path(args.out),
            args.bot_a,
            args.bot_b,
            args.seed,
            replace=args.force,
            game=_run_name(spec, variant) + ("-hands" if args.single_hands else ""),
        )
    except EarlierResultsError as e:
        raise UsageError(
            f"{e}; add --force to replace the results, or give another --out folder or --seed"
        ) from None
    except ResultsError as e:
        raise UsageError(str(e)) from None
    return _Run(spec, variant, jobs, paths)


def _progress_bar(title: str, games: int, quiet: bool) -> tuple[Progress, Callable[[int], None]]:
    """A progress bar on standard error (unless ``quiet`` or not a terminal), and what
    advances it by some games."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        TextColumn(title),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        disable=quiet or not sys.stderr.isatty(),
        transient=True,
    )
    task = bar.add_task("arena", total=games)

    def advance(done: int) -> None:
        # Drawn from the first call on: the worker processes are forked by then, before
        # the bar's refresh thread exists.
        if not bar.live.is_started:
            bar.start()
        bar.advance(task, done)

    return bar, advance


def cmd_arena(args: argparse.Namespace, out: TextIO) -> int:
    """Play the run, print its figures, and write its results and plot."""
    from umtali.sim.arena import ArenaError, report, run_arena
    from umtali.sim.plot import INSTALL_HINT
    from umtali.sim.results import ResultsError, write_results

    run = _checked(args)
    title = f"{run.spec.title}: {args.bot_a} vs {args.bot_b}"
    bar, advance = _progress_bar(title, 2 * args.games, args.quiet)
    try:
        result = run_arena(
            args.bot_a,
            args.bot_b,
            args.games,
            seed=args.seed,
            jobs=run.jobs,
            game=run.spec.name,
            variant=run.variant,
            progress=advance,
            backend=args.backend,
            address=args.address,
            length="hand" if args.single_hands else None,
        )
    except ArenaError as e:
        print(f"umtali: {e}", file=sys.stderr)
        return 1
    finally:
        bar.stop()
    print(report(result), file=out)
    try:
        drawn = write_results(result, run.paths)
    except ResultsError as e:
        raise UsageError(str(e)) from None
    print(f"\nresults: {run.paths.json}", file=out)
    if drawn:
        print(f"plot:    {run.paths.png}", file=out)
    else:
        print(f"plot:    not drawn: matplotlib is not installed; {INSTALL_HINT}", file=out)
    return 0
