"""Plots of simulation results (matplotlib, Agg backend: no display needed).

* :func:`plot_poker` - Four Card Poker: the session-result histogram (or, without
  sessions, the distribution of the net result per round) and bankroll paths;
* :func:`plot_kind` - Four of a Kind: each bot's distribution of results per deal.

Needs the ``plots`` extra (matplotlib). Files are written atomically (a temporary
file in the same folder, then renamed), so a failed run never leaves a half-written
image.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from fourcards.extras import require
from fourcards.sim.runner import SimulationError

__all__ = ["check_plot_path", "plot_poker", "plot_kind", "save_atomic"]


def check_plot_path(path: str | os.PathLike[str]) -> Path:
    """Validate a ``--plot`` target before a run: a ``.png`` in an existing folder.

    Raises:
        SimulationError: wrong suffix or missing folder.
    """
    p = Path(path)
    if p.suffix.lower() != ".png":
        raise SimulationError(f"--plot must name a .png file, got {str(path)!r}")
    if not p.parent.exists() or not p.parent.is_dir():
        raise SimulationError(f"--plot: folder {str(p.parent)!r} does not exist")
    if p.exists() and p.is_dir():
        raise SimulationError(f"--plot: {str(p)!r} is a folder")
    return p


def save_atomic(fig: Any, path: str | os.PathLike[str]) -> Path:
    """Save a matplotlib figure to ``path`` via a temporary file and :func:`os.replace`."""
    p = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".png", dir=p.parent)
    os.close(fd)
    try:
        fig.savefig(tmp, format="png", dpi=110)
        os.replace(tmp, p)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return p


def _pyplot() -> Any:
    """matplotlib's pyplot on the Agg backend (no display needed).

    Raises:
        MissingExtraError: matplotlib is not installed (the ``plots`` extra).
    """
    require("plots", "plotting")
    import matplotlib

    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    return plt


def plot_poker(result: Any, paths: np.ndarray, path: str | os.PathLike[str]) -> Path:
    """Session-result histogram and bankroll paths of a :class:`~fourcards.sim.poker.PokerSimResult`.

    Args:
        result: the simulation result.
        paths: ``(P, K + 1)`` bankroll paths in chips (:func:`~fourcards.sim.poker.session_paths`).
        path: the ``.png`` to write (atomically).
    """
    plt = _pyplot()
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.6))
    ante = result.ante
    s = result.sessions
    if s is not None:
        vals, cnts = s.values / ante, s.counts
        # whole-chip bins, edges between integers, so no bin falls between two results
        lo, hi = (int(s.values.min()), int(s.values.max())) if len(vals) else (0, 1)
        width = max(1, -(-(hi - lo + 1) // 80))
        bins = (np.arange(lo, hi + width + 1, width) - 0.5) / ante
        ax1.hist(vals, bins=bins, weights=cnts / max(1, s.sessions), color="#3b6ea5", edgecolor="white")
        ax1.axvline(s.mean / ante, color="black", lw=1, ls="--", label=f"mean {s.mean / ante:+.1f}")
        ax1.axvline(-s.bankroll / ante, color="#b22222", lw=1, label=f"ruin ({100 * s.risk_of_ruin:.2f}%)")
        ax1.set_title(f"Session results: {s.sessions:,} sessions of {s.session_hands} hands")
        ax1.set_xlabel("session net result (antes)")
        ax1.set_ylabel("fraction of sessions")
        ax1.legend(frameon=False)
    else:
        nets = result.nets / ante
        per: dict[float, int] = {}
        for v, c in zip(nets.ravel().tolist(), result.counts.ravel().tolist(), strict=True):
            per[v] = per.get(v, 0) + c
        xs = sorted(v for v in per if per[v])
        ax1.bar([str(int(x)) if float(x).is_integer() else f"{x:g}" for x in xs],
                [per[x] / result.hands for x in xs], color="#3b6ea5")
        ax1.set_yscale("log")
        ax1.set_title(f"Net result per round ({result.hands:,} rounds)")
        ax1.set_xlabel("net (antes)")
        ax1.set_ylabel("fraction of rounds (log)")
    x = np.arange(paths.shape[1])
    for row in paths:
        ax2.plot(x, row / ante, lw=0.8, alpha=0.8)
    if s is not None:
        ax2.axhline(s.stake_max / ante, color="#b22222", lw=0.8, ls=":", label="ruin line")
        ax2.legend(frameon=False, loc="upper left")
        ax2.set_title(f"Bankroll paths (first {len(paths)} sessions)")
        ax2.set_ylabel("bankroll (antes)")
    else:
        ax2.set_title(f"Running net, first {len(paths)} stretches of {paths.shape[1] - 1} rounds")
        ax2.set_ylabel("running net (antes)")
    ax2.set_xlabel("hand")
    fig.suptitle(f"Four Card Poker - {result.strategy} strategy, rules {result.rules.name}, "
                 f"mean {result.mean_net_per_ante:+.4f} per ante")
    fig.tight_layout()
    try:
        return save_atomic(fig, path)
    finally:
        plt.close(fig)


def plot_kind(result: Any, path: str | os.PathLike[str]) -> Path:
    """Each bot's distribution of results per deal (per seat) for a
    :class:`~fourcards.sim.kind.KindSimResult`, written atomically to ``path``."""
    plt = _pyplot()
    n = len(result.by_bot)
    fig, axes = plt.subplots(1, n, figsize=(4.2 * n, 4), sharey=True, squeeze=False)
    for ax, b in zip(axes[0], result.by_bot, strict=True):
        total = b.counts.sum()
        ax.bar(b.values, b.counts / max(1, total), width=1.0, color="#3b6ea5")
        m = b.summary.mean
        lo, hi = b.summary.ci95
        ax.axvline(m, color="black", lw=1, ls="--")
        ax.set_yscale("log")
        ax.set_title(f"{b.bot} ({len(b.seats)} seat{'s' if len(b.seats) > 1 else ''})\n"
                     f"mean {m:+.2f} [{lo:+.2f}, {hi:+.2f}] chips/deal")
        ax.set_xlabel("result per deal (chips)")
    axes[0][0].set_ylabel("fraction of seat-deals (log)")
    fig.suptitle(f"Four of a Kind - {result.deals:,} deals, {result.players} players")
    fig.tight_layout()
    try:
        return save_atomic(fig, path)
    finally:
        plt.close(fig)
