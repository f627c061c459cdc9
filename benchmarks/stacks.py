#!/usr/bin/env python3
"""Where a server's wall-clock time goes: a summary of the stacks py-spy sampled.

``py-spy record --idle --format raw`` writes one line per distinct stack, its frames
from the outermost to the innermost separated by ``;``, then the number of samples that
caught it. With ``--idle`` a thread is sampled whether it runs or waits, so the samples
are wall-clock time: a thread waiting for the database counts as much as one computing.
This script drops the samples of threads waiting for work (an event loop's ``select``
with nothing in hand, a worker thread waiting for its queue, the parent of the workers)
and shares the rest out:

- by our own functions, each counted once per sample that has it anywhere in its stack
  (the time spent in it and in all it called, waits included): what costs the time;
- by the innermost frame (the line the thread was on): what it is spent doing.

``benchmarks/loadtest.py --py-spy FILE`` records the server over a run and prints this
summary; docs/PERFORMANCE.md shows the figures before and after a change::

    python benchmarks/stacks.py server.raw          # a file py-spy wrote
    python benchmarks/stacks.py server.raw --top 40 --own packages/umtali/
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, TextIO

OURS: Final = "umtali/"
"""Frames whose file path holds this are our code's."""

WAITING: Final = re.compile(
    r"^(select \(selectors\.py|_PollLikeSelector\.select|Queue\.get|Condition\.wait"
    r"|Runner\.run \(asyncio|main \(multiprocessing/resource_tracker"
    r"|Connection\._recv \(multiprocessing|_wait_for_tstate_lock)"
)
"""Innermost frames of a thread with nothing to do: an event loop with no event, a
worker thread with no job, the multiprocessing parent waiting for its workers."""

ENTRY: Final = re.compile(r"umtali/(__main__\.py|cli/)")
"""Our frames that only start the server: a thread waiting under them alone is idle."""


@dataclass
class Summary:
    """The busy samples, and their shares by our functions and by innermost frame."""

    busy: int = 0
    idle: int = 0
    ours: Counter[str] = field(default_factory=Counter)
    innermost: Counter[str] = field(default_factory=Counter)

    def add(self, frames: Sequence[str], samples: int, own: str) -> None:
        """Count ``samples`` of one stack (``frames`` outermost first)."""
        if not frames:
            return
        working = (frame for frame in frames if own in frame and not ENTRY.search(frame))
        if WAITING.match(frames[-1]) and not any(working):
            self.idle += samples
            return
        self.busy += samples
        self.innermost[frames[-1]] += samples
        for name in {_function(frame) for frame in frames if own in frame}:
            self.ours[name] += samples


def _function(frame: str) -> str:
    """``Store.game_news (umtali/web/store.py:1230)`` -> ``Store.game_news (umtali/web/store.py)``:
    a function, whatever line of it a sample caught."""
    return re.sub(r":\d+\)$", ")", frame)


def read_stacks(lines: Iterable[str], own: str = OURS) -> Summary:
    """The summary of py-spy's raw lines (``process ...`` frames are dropped)."""
    summary = Summary()
    for line in lines:
        stack, _, count = line.rstrip("\n").rpartition(" ")
        if not stack or not count.isdigit():
            continue
        frames = [frame for frame in stack.split(";") if not frame.startswith("process ")]
        summary.add(frames, int(count), own)
    return summary


def print_summary(summary: Summary, top: int = 25, out: TextIO | None = None) -> None:
    """The shares, as percentages of the busy samples."""
    stream = sys.stdout if out is None else out
    if summary.busy == 0:
        print("no busy samples", file=stream)
        return
    total = summary.busy + summary.idle
    print(
        f"{summary.busy:,} busy samples of {total:,} ({100 * summary.busy / total:.1f}%);"
        " shares of the busy ones:",
        file=stream,
    )
    for title, counts in (
        ("our functions, with all they call (waits included)", summary.ours),
        ("innermost frames: what the time is spent doing", summary.innermost),
    ):
        print(f"\n{title}:", file=stream)
        for name, samples in counts.most_common(top):
            print(f"  {100 * samples / summary.busy:5.1f}%  {name}", file=stream)


def main(argv: Sequence[str] | None = None) -> int:
    described = argparse.ArgumentParser(
        prog="stacks.py", description="Summarise the stacks py-spy recorded (--format raw)."
    )
    described.add_argument("file", help="the raw file py-spy wrote")
    described.add_argument("--top", type=int, default=25, help="lines in each list (default 25)")
    described.add_argument(
        "--own", default=OURS, help=f"what our frames' paths hold (default {OURS})"
    )
    args = described.parse_args(argv)
    try:
        with Path(args.file).open(encoding="utf-8", errors="replace") as lines:
            summary = read_stacks(lines, args.own)
    except OSError as e:
        print(f"stacks.py: cannot read {args.file}: {e.strerror}", file=sys.stderr)
        return 2
    print_summary(summary, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
