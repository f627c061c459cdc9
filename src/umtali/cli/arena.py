"""``umtali arena A B``: two computer levels of any game over duplicate deals, with the
figures, JSON results and a plot (:mod:`umtali.sim.arena`). The levels and the variant
are checked against the game's spec before the games, which may take hours, begin.

Either bot may be an outside policy, named by its entry point
(``package.module:make_bot``, :mod:`umtali.sim.policies`), loaded and checked before
the games begin. ``B`` may list levels (``random,greedy``), or be left out for every
level of the game: A then plays each in turn, a results file each, and a closing table
sets the runs side by side.
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
from umtali.sim.hooks import hook_of

if TYPE_CHECKING:
    from rich.progress import Progress

    from umtali.sim.arena import ArenaResult
    from umtali.sim.policies import OutsidePolicy
    from umtali.sim.results import ResultPaths

__all__ = ["cmd_arena"]


@dataclass(frozen=True)
class _Run:
    """An arena run, its options checked: the game, its variant (``None``: the game's
    first), how many processes, bot A, each bot B it plays in turn and where each
    pairing's results go, and the outside policies among them."""

    spec: GameSpec
    variant: str | None
    jobs: int
    bot_a: str
    opponents: tuple[str, ...]
    paths: tuple[ResultPaths, ...]
    policies: tuple[OutsidePolicy, ...]


def _run_name(spec: GameSpec, variant: str | None) -> str:
    """What a run's files are named after: the game, and the variant unless it is the
    game's first, so that a run of another variant never replaces one of the first."""
    return spec.name if variant in (None, spec.variants[0]) else f"{spec.name}-{variant}"


class _Bots:
    """The bots a run names, each a level of the game or an outside policy, loaded."""

    def __init__(self, spec: GameSpec) -> None:
        from umtali.sim.hooks import levels_of

        self.spec = spec
        self.levels = tuple(levels_of(spec))
        self.policies: dict[str, OutsidePolicy] = {}

    def named(self, text: str) -> str:
        """The level ``text`` names, or the name of the outside policy it names (loaded
        and checked once); :class:`UsageError` saying what is wrong."""
        from umtali.sim.policies import PolicyError, is_entry_point, load_policy

        if text in self.levels:
            return text
        for policy in self.policies.values():
            if text.strip() == policy.entry_point:
                return policy.name
        if not is_entry_point(text):
            try:
                level_chosen(self.spec, text)
            except UsageError as e:
                raise UsageError(
                    f"{e}; an outside policy is named by its entry point, package.module:make_bot"
                ) from None
        try:
            policy = load_policy(text, self.spec, taken=(*self.levels, *self.policies))
        except PolicyError as e:
            raise UsageError(str(e)) from None
        self.policies[policy.name] = policy
        return policy.name


def _checked(args: argparse.Namespace) -> _Run:
    """The run ``args`` ask for, or :class:`UsageError` saying what cannot be used."""
    from umtali.sim.results import EarlierResultsError, ResultsError, prepare_results

    spec = game_named(args.game)
    variant = variant_chosen(spec, args.variant, args.rules)
    bots = _Bots(spec)
    bot_a = bots.named(args.bot_a)
    if args.bot_b is None:
        opponents = tuple(level for level in spec.levels if level != bot_a)
    else:
        opponents = tuple(bots.named(text) for text in args.bot_b.split(",") if text.strip())
        if not opponents:
            raise UsageError("BOT_B names no bot: give a level, levels joined by commas, or none")
    hook = hook_of(spec)
    for level in (bot_a, *opponents):
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
    paths = []
    for bot_b in opponents:
        try:
            paths.append(
                prepare_results(
                    Path(args.out),
                    bot_a,
                    bot_b,
                    args.seed,
                    replace=args.force,
                    game=_run_name(spec, variant) + ("-hands" if args.single_hands else ""),
                )
            )
        except EarlierResultsError as e:
            raise UsageError(
                f"{e}; add --force to replace the results, or give another --out folder or --seed"
            ) from None
        except ResultsError as e:
            raise UsageError(str(e)) from None
    policies = tuple(bots.policies.values())
    return _Run(spec, variant, jobs, bot_a, opponents, tuple(paths), policies)


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
    """Play the run (each pairing in turn), print its figures, and write its results
    and plots."""
    run = _checked(args)
    results: list[ArenaResult] = []
    for bot_b, paths in zip(run.opponents, run.paths, strict=True):
        if results:
            print(file=out)
        result = _play(run, bot_b, paths, args, out)
        if result is None:
            return 1
        results.append(result)
    if len(results) > 1:
        print(f"\n{_standings(results)}", file=out)
    return 0


def _play(
    run: _Run, bot_b: str, paths: ResultPaths, args: argparse.Namespace, out: TextIO
) -> ArenaResult | None:
    """One pairing: A against ``bot_b``, its figures printed and its results written;
    ``None`` (the error told) if the arena refused or a bot failed."""
    from umtali.sim.arena import ArenaError, report, run_arena
    from umtali.sim.checkpoint import CheckpointError, CheckpointInUseError
    from umtali.sim.plot import INSTALL_HINT
    from umtali.sim.results import ResultsError, write_results

    kept = paths.checkpoint
    if args.force:
        try:
            kept.unlink(missing_ok=True)
        except OSError as e:
            raise UsageError(f"cannot delete {kept}: {e.strerror or e}") from None
    title = f"{run.spec.title}: {run.bot_a} vs {bot_b}"
    bar, advance_bar = _progress_bar(title, 2 * args.games, args.quiet)
    told = False

    def advance(games: int) -> None:
        # The first call counts the games kept from a sitting that stopped, if any.
        nonlocal told
        if not told and games:
            print(f"going on from {kept}: {games} games were played before", file=sys.stderr)
        told = True
        advance_bar(games)

    try:
        result = run_arena(
            run.bot_a,
            bot_b,
            args.games,
            seed=args.seed,
            jobs=run.jobs,
            game=run.spec.name,
            variant=run.variant,
            progress=advance,
            backend=args.backend,
            address=args.address,
            policies=run.policies,
            length="hand" if args.single_hands else None,
            checkpoint=kept,
        )
    except CheckpointInUseError as e:
        print(f"umtali: {e}", file=sys.stderr)
        return None
    except CheckpointError as e:
        print(f"umtali: {e} (or add --force)", file=sys.stderr)
        return None
    except ArenaError as e:
        print(f"umtali: {e}", file=sys.stderr)
        _tell_kept(kept)
        return None
    except KeyboardInterrupt:
        _tell_kept(kept)
        raise
    finally:
        bar.stop()
    print(report(result), file=out)
    for label, policy in result.to_dict().get("policies", {}).items():
        version = f", version {policy['version']}" if policy["version"] else ""
        print(f"{label} is the outside policy {policy['entry_point']}{version}", file=out)
    try:
        drawn = write_results(result, paths)
    except ResultsError as e:
        raise UsageError(str(e)) from None
    try:
        kept.unlink(missing_ok=True)  # the results hold every deal now
    except OSError as e:
        print(f"umtali: cannot delete {kept}: {e.strerror or e}", file=sys.stderr)
    print(f"\nresults: {paths.json}", file=out)
    if drawn:
        print(f"plot:    {paths.png}", file=out)
    else:
        print(f"plot:    not drawn: matplotlib is not installed; {INSTALL_HINT}", file=out)
    return result


def _tell_kept(checkpoint: Path) -> None:
    """After a run that stopped: where the deals it finished are kept, and how to go on."""
    if checkpoint.exists():
        print(
            f"umtali: the deals finished so far are kept in {checkpoint}: the same command"
            " goes on from there (add --force to start over)",
            file=sys.stderr,
        )


def _standings(results: list[ArenaResult]) -> str:
    """Bot A against each bot B, a line each: its game win rate and margin, with their
    95% intervals."""
    first = results[0]
    s0 = first.summary()
    lines = [
        f"A {first.bot_a} against each: {s0.deals} deals × {first.seats} seatings, seed"
        f" {first.seed}",
        f"{'B':<12}{'games':>6}{'A won':>7}{'B won':>7}{'drawn':>7}"
        f"  {'A game win rate (95% Wilson)':<30}{'A game margin (95%)'}",
    ]
    for result in results:
        s = result.summary()
        low, high = s.game_ci
        lines.append(
            f"{result.bot_b:<12}{s.games:>6}{s.a_wins:>7}{s.b_wins:>7}{s.draws:>7}"
            f"  {f'{s.game_rate:.1%} ({low:.1%} to {high:.1%})':<30}"
            f"{s.margin:+.1f} ({s.margin_ci[0]:+.1f} to {s.margin_ci[1]:+.1f})"
        )
    return "\n".join(lines)
