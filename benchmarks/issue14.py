"""Issue 14 benchmarks: every figure of the issue's table, whole processes where the issue says so.

One command reruns them all and prints a Markdown table (paste it into docs/benchmarks.md)::

    .venv/bin/python benchmarks/issue14.py            # about 2-4 minutes on 2 cores
    .venv/bin/python benchmarks/issue14.py --quick    # fewer repeats
    .venv/bin/python benchmarks/issue14.py --json out.json

Whole-process timings run the installed ``fourcards`` command of this interpreter
(``<venv>/bin/fourcards``) in a subprocess; "first-ever" runs get empty, fresh
``FOURCARDS_CACHE_DIR`` and ``NUMBA_CACHE_DIR`` folders each time (nothing cached:
no dealer counts, no compiled kernels except what the install built). Each row
reports the best and the median of its repeats, plus the CPU time (user + system)
of the best run: on a shared machine the CPU time is the steadier figure.

The ``(JIT only)`` rows set ``FOURCARDS_JIT=1``: what a first run costs where the
kernels could not be compiled at install (no C compiler), for the record.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

BIN = Path(sys.executable).parent / "fourcards"


def _child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_cli(args: list[str], env: dict[str, str] | None = None) -> tuple[float, float, str]:
    """Wall seconds, CPU seconds and stdout of one ``fourcards`` process."""
    cpu0 = _child_cpu()
    t0 = time.perf_counter()
    proc = subprocess.run([str(BIN), *args], capture_output=True, text=True, env=env, timeout=900)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"fourcards {' '.join(args)} failed: {proc.stderr[-2000:]}")
    return wall, _child_cpu() - cpu0, proc.stdout


def fresh_env(jit: bool = False) -> tuple[dict[str, str], Path]:
    d = Path(tempfile.mkdtemp(prefix="fourcards-bench-"))
    env = dict(os.environ, FOURCARDS_CACHE_DIR=str(d), NUMBA_CACHE_DIR=str(d / "numba"))
    env.pop("FOURCARDS_JIT", None)
    if jit:
        env["FOURCARDS_JIT"] = "1"
    return env, d


def repeat(fn: Callable[[], tuple[float, float]], n: int) -> dict[str, float]:
    runs = [fn() for _ in range(n)]
    walls = [w for w, _ in runs]
    best = min(range(n), key=lambda i: walls[i])
    return {"best": walls[best], "median": statistics.median(walls), "cpu": runs[best][1], "n": n}


def whole(args: list[str], n: int, *, first: bool = False, jit: bool = False,
          env: dict[str, str] | None = None) -> dict[str, float]:
    def once() -> tuple[float, float]:
        if first:
            e, d = fresh_env(jit)
            try:
                return run_cli(args, e)[:2]
            finally:
                shutil.rmtree(d, ignore_errors=True)
        return run_cli(args, env)[:2]

    return repeat(once, n)


def in_process(fn: Callable[[], Any], number: int, repeat_: int) -> dict[str, float]:
    times = timeit.repeat(fn, number=number, repeat=repeat_)
    per = [t / number for t in times]
    return {"best": min(per), "median": statistics.median(per), "n": repeat_}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="fewer repeats (noisier)")
    ap.add_argument("--json", type=Path, help="also write the results here")
    opts = ap.parse_args()
    reps = 2 if opts.quick else 5
    first_reps = 2 if opts.quick else 3
    if not BIN.exists():
        sys.exit(f"{BIN} not found: install the package into this interpreter's environment first")
    rows: list[tuple[str, str, dict[str, float], str, str]] = []

    def add(what: str, target: str, res: dict[str, float], unit: str, method: str) -> None:
        rows.append((what, target, res, unit, method))
        print(f"  {what}: best {_fmt(res['best'], unit)}, median {_fmt(res['median'], unit)}", file=sys.stderr,
              flush=True)

    load0 = os.getloadavg()
    if load0[0] > 1.5:
        print(f"note: load average {load0[0]:.1f} on {os.cpu_count()} CPUs - other jobs share the machine, "
              "wall times will be high; the CPU column is steadier", file=sys.stderr)
    print("whole processes...", file=sys.stderr)
    sim10 = ["poker", "simulate", "--hands", "10000000", "--seed", "1", "--json"]
    add("first-ever `poker simulate --hands 10000000`", "<= 3 s", whole(sim10, first_reps, first=True), "s",
        "fresh empty caches each run")
    add("first-ever `poker analyze`", "<= 3 s", whole(["poker", "analyze"], first_reps, first=True), "s",
        "fresh empty caches each run")
    env, d = fresh_env()
    run_cli(["poker", "analyze"], env)  # fill the caches
    add("`poker analyze`, caches warm", "<= 0.5 s", whole(["poker", "analyze"], reps, env=env), "s",
        "same caches, after one run")
    shutil.rmtree(d, ignore_errors=True)
    env, d = fresh_env()
    run_cli(["poker", "simulate", "--hands", "1000", "--strategy", "chart", "--seed", "1"], env)  # kernels warm

    def no_counts_cache() -> tuple[float, float]:
        for f in d.glob("fcp-dealer-counts-*"):
            f.unlink()
        return run_cli(["poker", "analyze"], env)[:2]

    add("exact counts, kernels compiled, no counts cache (`poker analyze`)", "<= 1 s",
        repeat(no_counts_cache, reps), "s", "counts file deleted before each run")
    shutil.rmtree(d, ignore_errors=True)
    add("`fourcards --help`", "<= 0.3 s", whole(["--help"], reps), "s", "")
    env, d = fresh_env()
    run_cli(["poker", "simulate", "--hands", "1000", "--seed", "1"], env)
    for hands in ("2000000", "10000000"):
        w1 = whole(["poker", "simulate", "--hands", hands, "--seed", "2", "--workers", "1"], reps, env=env)
        w2 = whole(["poker", "simulate", "--hands", hands, "--seed", "2", "--workers", "2"], reps, env=env)
        add(f"`poker simulate --hands {hands}` --workers 1", "", w1, "s", "whole process")
        add(f"`poker simulate --hands {hands}` --workers 2", "<= --workers 1", w2, "s", "whole process")
    rates = []
    walls = []
    per_cpu = []
    for _ in range(max(2, reps // 2)):
        wall, cpu, out = run_cli(["poker", "simulate", "--hands", "100000000", "--seed", "3", "--workers", "2",
                                  "--json"], env)
        rates.append(json.loads(out)["rounds_per_second"] / 1e6)
        walls.append(wall)
        per_cpu.append(100.0 / cpu)
    add("simulation, 100 M hands, `--workers 2` (rounds/s, kernel time)", ">= 20 M/s",
        {"best": max(rates), "median": statistics.median(rates), "n": len(rates)}, "M/s",
        "`rounds_per_second` of --json")
    add("simulation, 100 M hands, `--workers 2` (whole process)", "",
        {"best": min(walls), "median": statistics.median(walls), "n": len(walls)}, "s", "")
    add("simulation, 100 M hands: rounds per CPU-second (whole process)", "",
        {"best": max(per_cpu), "median": statistics.median(per_cpu), "n": len(per_cpu)}, "M/s",
        "100 M / (user + system CPU time); x2 is what two free cores give")
    shutil.rmtree(d, ignore_errors=True)
    if not opts.quick:
        add("first-ever `poker simulate --hands 10000000` (JIT only)", "(record)",
            whole(sim10, 1, first=True, jit=True), "s", "FOURCARDS_JIT=1, no compiled module")
        add("first-ever `poker analyze` (JIT only)", "(record)",
            whole(["poker", "analyze"], 1, first=True, jit=True), "s", "FOURCARDS_JIT=1")

    print("in process...", file=sys.stderr)
    from fourcards.cards import Card
    from fourcards.hands import all_hands, best_hand, best_hands
    from fourcards.kind import exact_odds, parse_holdings
    from fourcards.poker import analysis as an

    cards = [Card(i) for i in (3, 17, 30, 41, 50)]
    best_hand(cards)
    add("`best_hand`, one parsed hand (5 cards)", "<= 3 µs", in_process(lambda: best_hand(cards), 20000, reps),
        "µs", "timeit")
    six = [Card(i) for i in (3, 17, 30, 41, 50, 8)]
    best_hand(six)
    add("`best_hand`, one parsed hand (6 cards)", "", in_process(lambda: best_hand(six), 20000, reps), "µs", "timeit")
    five = all_hands(5)
    res = in_process(lambda: best_hands(five), 1, max(2, reps // 2))
    add("`best_hands` batch, all 2,598,960 five-card hands (per hand)", "",
        {k: (v / len(five) if k != "n" else v) for k, v in res.items()}, "µs", "numpy")
    t8 = parse_holdings("7 QQ 3 999 K 55 A 8".split())
    t13 = parse_holdings("2 3 4 5 6 7 8 9 T J Q K A".split())
    add("Four of a Kind exact odds, 8 players", "<= 0.5 ms",
        in_process(lambda: exact_odds(t8, cache=False), 200, reps), "ms", "uncached")
    add("Four of a Kind exact odds, 13 players (all single cards)", "<= 2 ms",
        in_process(lambda: exact_odds(t13, cache=False), 100, reps), "ms", "uncached")
    an.exact_counts(use_cache=False)  # base tables built, kernels loaded
    add("exact counts in process (`exact_counts(use_cache=False)`)", "",
        in_process(lambda: an.exact_counts(use_cache=False), 1, max(2, reps // 2)), "s", "base tables built")

    from fourcards import native

    info = {
        "machine": f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}",
        "python": platform.python_version(),
        "kernels": "compiled at install (fourcards._aot)" if native.aot_module() is not None else "numba JIT",
        "load_average_before": [round(x, 2) for x in load0],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "date": time.strftime("%Y-%m-%d %H:%M"),
    }
    print(f"\n{info['date']}; {info['machine']}; Python {info['python']}; kernels {info['kernels']}; "
          f"load average {info['load_average_before'][0]} before, {info['load_average_after'][0]} after\n")
    print("| what | target | best | median | CPU (best run) | method |")
    print("|---|---|---|---|---|---|")
    for what, target, res, unit, method in rows:
        cpu = _fmt(res["cpu"], unit) if "cpu" in res else ""
        print(f"| {what} | {target} | {_fmt(res['best'], unit)} | {_fmt(res['median'], unit)} | {cpu} | "
              f"{method} (n={res['n']}) |")
    if opts.json:
        opts.json.write_text(json.dumps({"info": info, "rows": [
            {"what": w, "target": t, "unit": u, **r} for w, t, r, u, _ in rows]}, indent=2))


def _fmt(v: float, unit: str) -> str:
    if unit == "µs":
        return f"{v * 1e6:.2f} µs"
    if unit == "ms":
        return f"{v * 1e3:.3f} ms"
    if unit == "M/s":
        return f"{v:.1f} M/s"
    return f"{v:.2f} s"


if __name__ == "__main__":
    main()
