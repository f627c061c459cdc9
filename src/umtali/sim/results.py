"""Where an arena run's results go: a JSON file of every game and a PNG plot, named
after the two levels and the seed, in a folder of the caller's choosing.

The folder is checked before the games are played (a run may take hours), and the
results of an earlier run with the same levels and seed are replaced only when asked.
A run of the default game's standard rules is named after the levels and the seed
alone, as every run was before there were other games; any other run is named with its
game first, then its variant unless it is the game's first, so that it never replaces
a run of another game or variant with levels of the same names (:func:`run_name`).

>>> import tempfile
>>> folder = tempfile.TemporaryDirectory()
>>> paths = prepare_results(Path(folder.name), "greedy", "random", 7)
>>> paths.json.name, paths.png.name, paths.checkpoint.name
('greedy-vs-random-seed7.json', 'greedy-vs-random-seed7.png', 'greedy-vs-random-seed7.partial.jsonl')
>>> prepare_results(Path(folder.name), "greedy", "random", 7, game="umtali", variant="practical").json.name
'umtali-practical-greedy-vs-random-seed7.json'
>>> folder.cleanup()
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from umtali import games
from umtali.games import DEFAULT_GAME
from umtali.sim.arena import ArenaResult

__all__ = [
    "EarlierResultsError",
    "ResultPaths",
    "ResultsError",
    "prepare_results",
    "run_name",
    "write_results",
]


class ResultsError(ValueError):
    """The results cannot be written where they were asked for."""


class EarlierResultsError(ResultsError):
    """An earlier run with the same levels and seed left its results there."""


@dataclass(frozen=True)
class ResultPaths:
    """The two files of one run, and the checkpoint it keeps while it plays
    (:mod:`umtali.sim.checkpoint`), deleted once the two are written."""

    json: Path
    png: Path
    checkpoint: Path


def run_name(game: str = DEFAULT_GAME, variant: str | None = None) -> str:
    """What a run's files are named after besides its levels and seed: nothing for the
    default game's first variant, else the game's name and the variant's (unless it is
    the game's first).

    >>> run_name(), run_name("umtali", "practical"), run_name("umtali", "standard")
    ('', 'umtali-practical', '')
    """
    if variant is not None and variant != games.get(game).variants[0]:
        return f"{game}-{variant}"
    return "" if game == DEFAULT_GAME else game


def prepare_results(
    folder: Path,
    bot_a: str,
    bot_b: str,
    seed: int,
    *,
    replace: bool = False,
    game: str = DEFAULT_GAME,
    variant: str | None = None,
) -> ResultPaths:
    """Make ``folder`` if need be and name the run's two files in it, after the levels,
    the seed, and the game and its variant (:func:`run_name`: ``game`` is a registered
    name, or with no ``variant`` a run's name as :func:`run_name` gives it). Refused
    (:class:`ResultsError`) when the folder cannot be written, and
    (:class:`EarlierResultsError`) when an earlier run's files are there, unless
    ``replace``."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ResultsError(f"cannot write results to {folder}: {e.strerror or e}") from None
    if not folder.is_dir() or not os.access(folder, os.W_OK):
        raise ResultsError(f"cannot write results to {folder}: not a writable folder")
    name = run_name(game, variant)
    stem = folder / f"{name}{'-' if name else ''}{bot_a}-vs-{bot_b}-seed{seed}"
    paths = ResultPaths(
        stem.with_suffix(".json"), stem.with_suffix(".png"), stem.with_suffix(".partial.jsonl")
    )
    earlier = [path for path in (paths.json, paths.png) if path.exists() or path.is_symlink()]
    if earlier and not replace:
        raise EarlierResultsError(
            f"{' and '.join(map(str, earlier))} already exist{'s' if len(earlier) == 1 else ''}"
            " (an earlier run with the same bots and seed)"
        )
    return paths


def write_results(result: ArenaResult, paths: ResultPaths) -> bool:
    """Write the JSON and draw the plot; whether the plot was drawn (it needs
    matplotlib, an optional extra). A file that cannot be written is a
    :class:`ResultsError`."""
    try:
        result.write_json(paths.json)
    except OSError as e:
        raise ResultsError(f"cannot write {paths.json}: {e.strerror or e}") from None
    from umtali.sim.plot import write_points_plot

    try:
        write_points_plot(result, paths.png)
    except ImportError:
        return False
    except OSError as e:
        raise ResultsError(f"cannot write {paths.png}: {e.strerror or e}") from None
    return True
