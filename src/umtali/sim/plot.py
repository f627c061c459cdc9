"""The arena's PNG: points per hand of both bots, with the book's figures marked.

matplotlib is optional (``pip install -e '.[arena]'``); :func:`write_points_plot` raises
:class:`ImportError` without it. It draws on the Agg canvas directly, so it needs no
display and leaves pyplot's global state alone.
"""

from __future__ import annotations

from pathlib import Path

from umtali.sim.arena import BOOK_HIGHEST_HAND, BOOK_MEAN_POINTS, ArenaResult

__all__ = ["INSTALL_HINT", "write_points_plot"]

INSTALL_HINT = "pip install -e '.[arena]'  (or: pip install matplotlib)"

_COLOURS = {"A": "#1f5fa8", "B": "#c8501e"}


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
    top = max(summary.highest.points, BOOK_HIGHEST_HAND) + 4
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
    ax.axvline(
        BOOK_MEAN_POINTS,
        color="black",
        linestyle="--",
        linewidth=1.2,
        label=f"the book's average, {BOOK_MEAN_POINTS}",
    )
    ax.axvline(
        BOOK_HIGHEST_HAND,
        color="grey",
        linestyle="-.",
        linewidth=1.2,
        label=f"the book's highest hand, {BOOK_HIGHEST_HAND}",
    )
    ax.set_xlim(0, top)
    ax.set_xlabel(f"points in a hand (bins of {width})")
    ax.set_ylabel("share of the bot's hands (%)")
    ax.set_title(
        f"Umtali arena: A {result.bot_a} vs B {result.bot_b}, {summary.games} games"
        f" ({summary.hands} hands each), seed {result.seed}"
    )
    ax.legend(frameon=False)
    ax.grid(axis="y", alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, format="png", metadata={"Software": None})
