"""A Four Card Poker strategy chart (:class:`~fourcards.poker.strategy.StrategyChart`) for people:
a Rich table and a PNG heat map.

Rendering only: the chart's rows (hand classes merged where their decisions agree) come
from :meth:`StrategyChart.rows`. The PNG needs the ``plots`` extra (matplotlib).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from fourcards.poker.exact.strategy import _DEC_TEXT, _UP_CHARS, StrategyChart

__all__ = ["chart_table", "save_chart_png"]


def chart_table(chart: StrategyChart, title: str | None = None) -> Any:
    """A Rich table of the chart: one row per merged hand class, one column per up-card rank."""
    from rich import box
    from rich.table import Table

    t = Table(title=title or f"Strategy chart: {chart.name} (columns: dealer up card)",
              caption="F = fold, 1x/2x/3x = play bet in antes", box=box.SIMPLE_HEAD, padding=(0, 0))
    t.add_column("your hand", justify="left", no_wrap=True)
    for ch in _UP_CHARS:
        t.add_column(ch, justify="center", no_wrap=True, min_width=3)
    style = {0: "dim", 1: "yellow", 2: "cyan", 3: "bold green"}
    text = {0: "F", 1: "1x", 2: "2x", 3: "3x"}
    for _, label, row in chart.rows():
        t.add_row(label, *[f"[{style[int(v)]}]{text[int(v)]}[/]" for v in row])
    return t


def save_chart_png(chart: StrategyChart, path: str | Path, title: str | None = None) -> Path:
    """Save the chart as a heat map (matplotlib, Agg backend); returns the path written.

    Raises:
        MissingExtraError: matplotlib is not installed (the ``plots`` extra).
    """
    from fourcards.report.plots import _pyplot

    plt = _pyplot()
    from matplotlib.colors import ListedColormap

    rows = chart.rows()
    data = np.array([r[2] for r in rows], dtype=float)
    fig, ax = plt.subplots(figsize=(9, 0.38 * len(rows) + 1.6), dpi=110)
    cmap = ListedColormap(["#d9d9d9", "#fdd96a", "#8fd3e8", "#4caf50"])
    ax.imshow(data, cmap=cmap, vmin=-0.5, vmax=3.5, aspect="auto")
    ax.set_xticks(range(13), _UP_CHARS)
    ax.set_yticks(range(len(rows)), [r[1] for r in rows])
    ax.set_xlabel("dealer up card")
    for i in range(data.shape[0]):
        for j in range(13):
            ax.text(j, i, _DEC_TEXT[int(data[i, j])], ha="center", va="center", fontsize=7)
    ax.set_title(title or f"Four Card Poker strategy: {chart.name}")
    fig.tight_layout()
    p = Path(path)
    fig.savefig(p)
    plt.close(fig)
    return p
