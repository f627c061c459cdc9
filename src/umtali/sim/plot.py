"""The arena's PNG: points per hand of both bots, with the book's figures marked on a
run its game's arena hook sets against a book (:mod:`umtali.sim.hooks`); the title is
the hook's too.

matplotlib is optional (``pip install -e '.[arena]'``); :func:`write_points_plot` raises
:class:`ImportError` without it. It draws on the Agg canvas directly, so it needs no
display and leaves pyplot's global state alone.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from umtali.sim.arena import ArenaResult

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
    highest hand, where the game's hook sets the run against a book (Umtali's standard
    rules); none otherwise."""
    book = result.hook.book
    if book is None or not result.hook.against_the_book(result.variant):
        return ()
    return (
        MarkedFigure(book.mean_points, "black", "--", f"the book's average, {book.mean_points}"),
        MarkedFigure(
            book.highest_hand, "grey", "-.", f"the book's highest hand, {book.highest_hand}"
        ),
    )


def plot_title(result: ArenaResult) -> str:
    """The plot's title, as the game's arena hook words it: the game, the bots, the
    games and the seed."""
    return result.hook.plot_title(result)


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
