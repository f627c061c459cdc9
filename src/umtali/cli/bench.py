"""``umtali bench``: the engine's speed on one core, alone or beside its peers
(:mod:`umtali.sim.bench`, :mod:`umtali.sim.peers`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TextIO

from umtali import __version__, games
from umtali.cli.usage import UsageError

__all__ = ["cmd_bench"]


def cmd_bench(args: argparse.Namespace, out: TextIO) -> int:
    """Uniform-random play for ``--seconds``, and its figures."""
    from umtali.sim.bench import pin_to_one_core, run_bench

    if args.peers:
        if args.game is not None:
            raise UsageError(
                "--peers races every game's research engines beside OpenSpiel's and RLCard's Gin Rummy; leave out --game"
            )
        return _bench_peers(args, out)
    print(f"umtali {__version__} · uniform-random play · {pin_to_one_core()}", file=out)
    game = args.game or games.DEFAULT_GAME
    try:
        report = run_bench(args.seconds, args.seed, game=game)
    except ValueError as e:
        raise UsageError(str(e)) from None
    print(report.report(), file=out)
    return 0


def _bench_peers(args: argparse.Namespace, out: TextIO) -> int:
    from umtali.sim.bench import pin_to_one_core
    from umtali.sim.compiled import compiled_engines
    from umtali.sim.peers import (
        Engine,
        OptionalEngine,
        compare_engines,
        load_engines,
        peer_report,
    )

    if args.block > args.seconds:
        raise UsageError(f"--block must be at most --seconds ({args.seconds}), not {args.block}")
    pinned = pin_to_one_core()
    # The environments of the rl layer are handed over: the sim layer may not import it.
    more: tuple[OptionalEngine, ...] = ()
    batches: tuple[Callable[[], Engine], ...] = ()
    rl_missing: list[str] = []
    try:
        from umtali.rl.bench import COMPILED, ENGINES

        more, batches = ENGINES, COMPILED
    except ImportError as e:
        rl_missing.append(f"the rl extra is not installed ({e}); pip install -e '.[rl]'")
    # The opt-in compiled build of the rules core, raced when it is built.
    compiled, no_build = compiled_engines(batches)
    engines, missing = load_engines(args.seed, more=(*more, *compiled))
    missing += rl_missing
    if no_build is not None:
        missing.append(no_build)
    for note in missing:
        print(f"left out: {note}", file=sys.stderr)
    names = ", ".join(e.name for e in engines)
    print(f"interleaving {names} in blocks of {args.block} s ...", file=sys.stderr)
    tallies = compare_engines(engines, args.seconds, args.block, args.seed)
    print(peer_report(tallies, missing, pinned), file=out)
    return 0
