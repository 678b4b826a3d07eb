"""``fourcards poker simulate`` and ``fourcards kind simulate`` (Monte Carlo, local or Dask).

Bad arguments print one ``error: ...`` line on stderr and exit 2; the ``--plot``
file is written only after a successful run, atomically. Local runs (``--workers``)
need no extra; ``--scheduler`` needs the ``sim`` extra (Dask), ``--plot`` the ``plots``
extra (matplotlib): without it, one error line names the extra, before any work.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer

from fourcards.cli.app import console, err_console, fail, kind_app, poker_app
from fourcards.errors import FourcardsError
from fourcards.extras import require
from fourcards.inputs import (
    MAX_CHIPS,
    MAX_DEALS,
    MAX_HANDS,
    MAX_SEATS,
    MAX_SEED,
    MAX_SESSION_HANDS,
    MAX_WAGER,
    MAX_WORKERS,
    MIN_SEATS,
)

SeedOpt = Annotated[int | None, typer.Option("--seed", min=0, max=MAX_SEED,
                                             help="Seed (>= 0); default: a random seed, reported.")]
WorkersOpt = Annotated[int | None, typer.Option("--workers", min=1, max=MAX_WORKERS, show_default=False,
                                                help="Workers on this machine: 1 = this process; W > 1 = "
                                                "W threads (Four Card Poker) or processes (Four of a Kind, when "
                                                "the run is long enough to gain); a small run stays serial. "
                                                "Default: the CPUs this process may use. The same --seed gives "
                                                "the same result at any number of workers.")]
SchedulerOpt = Annotated[str | None, typer.Option("--scheduler", help="Address of a running Dask scheduler, "
                                                  "e.g. tcp://host:8786.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON object on stdout.")]
PlotOpt = Annotated[Path | None, typer.Option("--plot", dir_okay=False, help="Write a PNG plot (after success).")]
ProgressOpt = Annotated[bool | None, typer.Option("--progress/--no-progress",
                                                  help="Progress bar on stderr (default: when it is a terminal).")]


@contextmanager
def _progress_bar(label: str, unit: str, enabled: bool | None) -> Iterator[Callable[[int, int], None]]:
    """A progress callback; the Rich bar (stderr) appears once a run has taken a second."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    show = err_console.is_terminal if enabled is None else enabled
    t0 = time.perf_counter()
    state: dict[str, Any] = {}

    def update(done: int, total: int) -> None:
        if not show:
            return
        if "bar" not in state:
            if time.perf_counter() - t0 < 1.0 and done < total:
                return
            if done >= total and time.perf_counter() - t0 < 1.0:
                return
            bar = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TextColumn(unit),
                           TimeRemainingColumn(), console=err_console, transient=True)
            bar.start()
            state["bar"] = bar
            state["task"] = bar.add_task(label, total=total)
        state["bar"].update(state["task"], completed=done, total=total)

    try:
        yield update
    finally:
        if "bar" in state:
            state["bar"].stop()


def _counts_first(strategy: str, rules: Any) -> None:
    """Compute the exact dealer counts with a progress line if the strategy needs them and
    they are not cached yet (a first run; the optimal decisions of the named ante bonus
    tables ship with the package and need none)."""
    if strategy not in ("optimal", "chart"):
        return
    from fourcards.poker import analysis as an
    from fourcards.poker.exact import strategy as st

    if an.counts_cached() or (strategy == "optimal" and st._shipped_optimal(rules) is not None):
        return
    from fourcards.cli.poker_analysis import _progress

    with _progress() as progress:
        an.exact_counts(progress=progress)


def _check_target(workers: int | None, scheduler: str | None) -> int:
    """The number of local workers: ``--workers`` (default: the CPUs this process may use,
    :func:`fourcards.sim.runner.usable_cpus`); 1 with ``--scheduler`` (the cluster's)."""
    if scheduler is not None:
        if workers is not None:
            fail("give --workers or --scheduler, not both")
        return 1
    if workers is None:
        from fourcards.sim.runner import usable_cpus

        return usable_cpus()
    if workers < 1:
        fail(f"--workers must be a whole number >= 1, got {workers}")
    return workers


def _check_extras(command: str, scheduler: str | None, plot: Path | None) -> None:
    """Before any work: Dask (``--scheduler``) needs the sim extra, ``--plot`` the plots extra."""
    if scheduler is not None:
        require("sim", f"{command} --scheduler")
    if plot is not None:
        require("plots", f"{command} --plot")


def _seed(seed: int | None) -> int:
    return random.SystemRandom().randrange(2**63) if seed is None else seed


@poker_app.command("simulate")
def poker_simulate(
    hands: Annotated[int, typer.Option("--hands", min=1, max=MAX_HANDS,
                                       help="Rounds to simulate (one seat vs the dealer).")],
    strategy: Annotated[str, typer.Option("--strategy", help="optimal, simple, chart, or a CSV chart file "
                                          "(format of 'fourcards poker strategy --csv').")] = "optimal",
    rules: Annotated[str, typer.Option("--rules", help="Rules preset: live or online.")] = "live",
    ante_bonus: Annotated[str | None, typer.Option("--ante-bonus", help="Ante bonus table, e.g. 25/20/2.")] = None,
    aces_up_table: Annotated[str | None, typer.Option("--aces-up", help="Aces Up pay table, e.g. "
                                                      "50/40/8/5/4/3/1.")] = None,
    ante: Annotated[int, typer.Option("--ante", min=1, max=MAX_WAGER, help="Ante per round in chips.")] = 1,
    aces_up_bet: Annotated[int, typer.Option("--aces-up-bet", min=0, max=MAX_WAGER,
                                             help="Aces Up bet per round in chips (0: none).")] = 0,
    seed: SeedOpt = None,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    as_json: JsonOpt = False,
    session_hands: Annotated[int | None, typer.Option("--session-hands", min=1, max=MAX_SESSION_HANDS,
                                                      help="Hands per session.")] = None,
    bankroll: Annotated[int | None, typer.Option("--bankroll", min=1, max=MAX_CHIPS,
                                                 help="Session bankroll in chips.")] = None,
    plot: PlotOpt = None,
    exact: Annotated[bool, typer.Option("--exact", help="Also compute the exact house edge and check "
                                        "the simulated one against it.")] = False,
    progress: ProgressOpt = None,
) -> None:
    """Monte Carlo of Four Card Poker: house edge with a 95% CI, spread, hit rates, sessions, ruin."""
    from fourcards.report.plots import check_plot_path, plot_poker
    from fourcards.sim.poker import exact_house_edge, load_sim_strategy, session_paths, simulate_poker

    workers = _check_target(workers, scheduler)
    try:
        _check_extras("fourcards poker simulate", scheduler, plot)
        if plot is not None:
            check_plot_path(plot)
        from fourcards.poker.rules import get_rules

        r = get_rules(rules, ante_bonus=ante_bonus, aces_up=aces_up_table)
        if hands < 1:
            fail(f"--hands must be a whole number >= 1, got {hands}")
        _counts_first(strategy, r)
        strat = load_sim_strategy(strategy, r)
        s = _seed(seed)
        with _progress_bar("simulating", "rounds", progress) as cb:
            res = simulate_poker(hands, rules=r, strategy=strat, seed=s, ante=ante, aces_up=aces_up_bet,
                                 session_hands=session_hands, bankroll=bankroll, workers=workers,
                                 scheduler=scheduler, progress=cb)
        d = res.to_dict()
        if exact:
            he = exact_house_edge(r, strat, ante=ante, aces_up=aces_up_bet)
            d["exact_house_edge"] = float(he)
            d["exact_within_ci95"] = bool(res.summary.contains(-float(he)))
        if plot is not None:
            plot_poker(res, session_paths(res, strat), plot)
            d["plot"] = str(plot)
    except FourcardsError as exc:
        fail(str(exc))
    if as_json:
        print(json.dumps(d))
        return
    _print_poker(d)


def _print_poker(d: dict[str, Any]) -> None:
    from rich.table import Table

    t = Table(title=f"Four Card Poker simulation - {d['strategy']} strategy, rules {d['rules']}",
              show_header=False)
    t.add_column("figure")
    t.add_column("value", justify="right")
    lo, hi = d["ci95"]
    t.add_row("hands", f"{d['hands']:,}")
    t.add_row("seed", str(d["seed"]))
    t.add_row("mean net per ante", f"{d['mean_net_per_ante']:+.5f}")
    t.add_row("95% CI", f"[{lo:+.5f}, {hi:+.5f}]")
    t.add_row("house edge (per ante)", f"{100 * d['house_edge']:.3f}%")
    if "exact_house_edge" in d:
        ok = "inside" if d["exact_within_ci95"] else "OUTSIDE"
        t.add_row("exact house edge", f"{100 * d['exact_house_edge']:.3f}% ({ok} the CI)")
    t.add_row("element of risk (per total bet)", f"{100 * d['element_of_risk']:.3f}%")
    t.add_row("std per round (antes)", f"{d['std_per_round']:.4f}")
    f = d["frequencies"]
    for k, v in f["decisions"].items():
        if v:
            t.add_row(f"  {k.replace('_', ' ')}", f"{100 * v:.3f}%")
    t.add_row("  win / lose", f"{100 * f['outcomes']['win']:.3f}% / {100 * f['outcomes']['lose']:.3f}%")
    t.add_row("  ante bonus paid", f"{100 * f['ante_bonus_any']:.3f}%")
    if "aces_up" in f:
        t.add_row("  Aces Up wins", f"{100 * f['aces_up']['win']:.3f}%")
        t.add_row("  Aces Up return per bet", f"{f['aces_up']['return_per_bet']:+.4f}")
    if "sessions" in d:
        s = d["sessions"]
        t.add_row("sessions", f"{s['sessions']:,} x {s['session_hands']} hands from {s['bankroll']} chips")
        rlo, rhi = s["risk_of_ruin_ci95"]
        t.add_row("risk of ruin", f"{100 * s['risk_of_ruin']:.3f}% [{100 * rlo:.3f}%, {100 * rhi:.3f}%]")
        t.add_row("session result quantiles (chips)",
                  " ".join(f"{k}:{v:+d}" for k, v in s["quantiles"].items()))
        t.add_row("fraction of sessions ahead", f"{100 * s['fraction_ahead']:.2f}%")
    if d.get("rounds_per_second"):
        t.add_row("speed", f"{d['rounds_per_second'] / 1e6:.2f} M rounds/s ({d['workers']} worker(s), "
                  f"{d['backend']})")
    if "plot" in d:
        t.add_row("plot", d["plot"])
    console.print(t)


@kind_app.command("simulate")
def kind_simulate(
    deals: Annotated[int, typer.Option("--deals", min=1, max=MAX_DEALS, help="Deals to play.")],
    players: Annotated[int, typer.Option("--players", min=MIN_SEATS, max=MAX_SEATS, help="Seats (4-13).")],
    bots: Annotated[list[str], typer.Option("--bots", help="Bot per seat: odds, cautious, random, "
                                            "pots, learned, an installed plug-in's name (entry points "
                                            "'fourcards.bots') or file:PATH (an agent file); 'odds:3' for three "
                                            "seats; the list repeats to fill the table. Several names may follow "
                                            "one --bots.")],
    more_bots: Annotated[list[str] | None, typer.Argument(hidden=True, metavar="[BOT]...")] = None,
    rules: Annotated[str, typer.Option("--rules", help="Four of a Kind preset.")] = "family",
    stack: Annotated[int | None, typer.Option("--stack", min=1, max=MAX_CHIPS,
                                              help="Chips per seat at the start of every deal "
                                              "(default 40 antes).")] = None,
    seed: SeedOpt = None,
    workers: WorkersOpt = None,
    scheduler: SchedulerOpt = None,
    as_json: JsonOpt = False,
    plot: PlotOpt = None,
    progress: ProgressOpt = None,
) -> None:
    """Bots against each other at Four of a Kind: each bot's mean result per deal with a 95% CI.

    ``--bots`` takes several names after one flag (``--bots odds cautious random``)
    or repeated flags.
    """
    from fourcards.report.plots import check_plot_path, plot_kind
    from fourcards.sim.kind import simulate_kind

    workers = _check_target(workers, scheduler)
    try:
        _check_extras("fourcards kind simulate", scheduler, plot)
        if plot is not None:
            check_plot_path(plot)
        s = _seed(seed)
        with _progress_bar("playing", "deals", progress) as cb:
            res = simulate_kind(deals, players, [*bots, *(more_bots or [])], rules=rules, seed=s, stack=stack, workers=workers,
                                scheduler=scheduler, progress=cb)
        d = res.to_dict()
        if plot is not None:
            plot_kind(res, plot)
            d["plot"] = str(plot)
    except FourcardsError as exc:
        fail(str(exc))
    if as_json:
        print(json.dumps(d))
        return
    from rich.table import Table

    t = Table(title=f"Four of a Kind simulation - {d['deals']:,} deals, {d['players']} players, "
                    f"stacks {d['stack']}, seed {d['seed']}")
    for col in ("bot", "seats", "mean chips/deal", "95% CI", "std/deal"):
        t.add_column(col, justify="right" if col != "bot" else "left")
    for b in d["bots"]:
        lo, hi = b["ci95"]
        t.add_row(b["bot"], ",".join(str(s + 1) for s in b["seats"]), f"{b['mean_per_deal']:+.3f}",
                  f"[{lo:+.3f}, {hi:+.3f}]", f"{b['std_per_deal']:.2f}")
    console.print(t)
    if "plot" in d:
        console.print(f"plot: {d['plot']}")
