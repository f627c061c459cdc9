"""The arena's PNG: points per hand of both bots, with the book's figures marked on a
run of Umtali (the book has none for Gin Rummy).

matplotlib is optional (``pip install -e '.[arena]'``); :func:`write_points_plot` raises
:class:`ImportError` without it. It draws on the Agg canvas directly, so it needs no
display and leaves pyplot's global state alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from umtali.games.gin.rules import GinRules
from umtali.sim.arena import (
    BOOK_HIGHEST_HAND,
    BOOK_MEAN_POINTS,
    ArenaResult,
    against_the_book,
    game_of,
)

__all__ = ["INSTALL_HINT", "MarkedFigure", "book_figures", "plot_title", "write_points_plot"]

INSTALL_HINT = "pip install -e '.[arena]'  (or: pip install matplotlib)"

_COLOURS = {"A": "#1f5fa8", "B": "#c8501e"}


class MarkedFigure(NamedTuple):
    """A vertical line across the plot: where, how it is drawn, and its legend."""

    points: int
    colour: str
    style: str
    label: str


def book_figures(result: ArenaResult) -> tuple[MarkedFigure, ...]:
    """The book's figures to mark on the plot of ``result``: its average hand and its
    highest hand for a run of the standard rules, none for another game or variant (they
    are the book's, of its own rules)."""
    if not against_the_book(result.rules):
        return ()
    return (
        MarkedFigure(BOOK_MEAN_POINTS, "black", "--", f"the book's average, {BOOK_MEAN_POINTS}"),
        MarkedFigure(
            BOOK_HIGHEST_HAND, "grey", "-.", f"the book's highest hand, {BOOK_HIGHEST_HAND}"
        ),
    )


def plot_title(result: ArenaResult) -> str:
    """The plot's title: the game (and the rules of a Gin Rummy run), the bots, the games
    and the seed."""
    summary = result.summary()
    rules = result.rules
    if not isinstance(rules, GinRules):
        return (
            f"Umtali arena: A {result.bot_a} vs B {result.bot_b}, {summary.games} games"
            f" ({summary.hands} hands each), seed {result.seed}"
        )
    return (
        f"{game_of(rules).title} arena ({rules.name}): A {result.bot_a} vs B {result.bot_b},"
        f" {summary.games} games to {rules.game_target} ({summary.hands} hands),"
        f" seed {result.seed}"
    )


def write_points_plot(result: ArenaResult, path: Path) -> None:
    """Histograms of points per hand for bot A and bot B, written to ``path`` as PNG."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    summary = result.summary()
    points = {
        "A": [a for r in result.records for a, _ in r.hands],
        "B": [b for r in result.records for _, b in r.hands],
    }
    stats = {"A": summary.points_a, "B": summary.points_b}
    levels = {"A": result.bot_a, "B": result.bot_b}
    marked = book_figures(result)
    top = max([summary.highest.points, *(figure.points for figure in marked)]) + 4
    width = 2
    bins = list(range(0, top + width, width))

    figure = Figure(figsize=(9, 5), dpi=100)
    FigureCanvasAgg(figure)
    ax = figure.add_subplot()
    for label in ("A", "B"):
        data = points[label]
        ax.hist(
            data,
            bins=bins,
            weights=[100 / len(data)] * len(data),
            histtype="stepfilled",
            alpha=0.35,
            color=_COLOURS[label],
            edgecolor=_COLOURS[label],
            linewidth=1.2,
            label=f"{label} {levels[label]}: mean {stats[label].mean:.1f},"
            f" highest {stats[label].maximum}",
        )
        ax.axvline(stats[label].mean, color=_COLOURS[label], linestyle=":", linewidth=1.5)
    for figure_line in marked:
        ax.axvline(
            figure_line.points,
            color=figure_line.colour,
            linestyle=figure_line.style,
            linewidth=1.2,
            label=figure_line.label,
        )
    ax.set_xlim(0, top)
    ax.set_xlabel(f"points in a hand (bins of {width})")
    ax.set_ylabel("share of the bot's hands (%)")
    ax.set_title(plot_title(result))
    ax.legend(frameon=False)
    ax.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, format="png", metadata={"Software": None})
