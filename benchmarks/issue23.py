"""Issue 23 benchmarks: the exact counts against an independent numpy enumeration, a warm ``poker
analyze --json`` old against new, and the analyst's workbench commands - all in one run.

    .venv/bin/python benchmarks/issue23.py [--old-src DIR] [--quick] [--json out.json]

``--old-src`` is the ``src`` folder of the code to compare with (a checkout of the previous
version with its compiled kernels, ``fourcards/_aot*.so``): its ``poker analyze --json`` and its
exact counts run in the same run as this tree's, with the same interpreter, alternating, and the
same dealer counts cache. Whole processes are timed with their CPU time (user + system of the
child): on a shared machine the CPU time is the steadier figure. The numpy enumeration
(``benchmarks/numpy_counts.py``) runs once over all 13 up ranks (about a minute of one core) and
its result is checked against the exact counts.
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
from pathlib import Path

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent / "fourcards"


def _child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one process (which must succeed)."""
    cpu0 = _child_cpu()
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {proc.stderr[-2000:]}")
    return wall, _child_cpu() - cpu0


def summary(runs: list[tuple[float, float]]) -> dict[str, float]:
    walls = [w for w, _ in runs]
    best = min(range(len(runs)), key=lambda i: walls[i])
    return {"best": walls[best], "median": statistics.median(walls), "cpu": runs[best][1],
            "cpu_median": statistics.median(c for _, c in runs), "n": len(runs)}


_COUNTS_SNIPPET = """
import json, time
from fourcards.poker import analysis as an
an.exact_counts(use_cache=False)  # kernels loaded, base tables warm
best = []
for _ in range({n}):
    an.base_tables.cache_clear()
    t0 = time.perf_counter()
    an.exact_counts(use_cache=False)
    best.append(time.perf_counter() - t0)
print(json.dumps(best))
"""


def counts_in_process(pythonpath: str | None, env: dict[str, str], n: int) -> list[float]:
    """Seconds of ``exact_counts(use_cache=False)`` from nothing (base tables included), in a child."""
    e = dict(env)
    if pythonpath:
        e["PYTHONPATH"] = pythonpath
    out = subprocess.run([sys.executable, "-c", _COUNTS_SNIPPET.format(n=n)], capture_output=True, text=True,
                         env=e, timeout=900, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--old-src", type=Path, help="src folder of the version to compare with")
    ap.add_argument("--quick", action="store_true", help="fewer repeats")
    ap.add_argument("--json", type=Path, help="also write the results here")
    opts = ap.parse_args()
    reps = 3 if opts.quick else 7
    cache = Path(tempfile.mkdtemp(prefix="fourcards-bench23-"))
    env = dict(os.environ, FOURCARDS_CACHE_DIR=str(cache), PYTHONDONTWRITEBYTECODE="1")
    env.pop("FOURCARDS_JIT", None)
    rows: list[tuple[str, dict[str, float], str]] = []
    load0 = os.getloadavg()

    def add(what: str, res: dict[str, float], note: str = "") -> None:
        rows.append((what, res, note))
        print(f"  {what}: best {res['best']:.3f} s, median {res['median']:.3f} s"
              + (f", CPU {res['cpu']:.3f} s" if "cpu" in res else ""), file=sys.stderr, flush=True)

    try:
        run([str(BIN), "poker", "analyze", "--json"], env)  # fill the counts cache
        new = [str(BIN), "poker", "analyze", "--json"]
        old = None
        if opts.old_src:
            old = [sys.executable, "-m", "fourcards", "poker", "analyze", "--json"]
            old_env = dict(env, PYTHONPATH=str(opts.old_src))
            run(old, old_env)
        runs_new, runs_old, runs_typer = [], [], []
        typer_path = [sys.executable, "-c", "from fourcards.cli import main; main()", "poker", "analyze", "--json"]
        for _ in range(reps):  # alternating: the machine's load hits both alike
            runs_new.append(run(new, env))
            runs_typer.append(run(typer_path, env))
            if old:
                runs_old.append(run(old, old_env))
        add("warm `poker analyze --json`, new (the launcher)", summary(runs_new), "same counts cache")
        add("warm `poker analyze --json`, new through Typer", summary(runs_typer), "fourcards.cli.main")
        if old:
            add("warm `poker analyze --json`, old", summary(runs_old), str(opts.old_src))

        n_counts = 2 if opts.quick else 3
        new_counts = counts_in_process(None, env, n_counts)
        add("exact counts in process, new (`exact_counts(use_cache=False)`, base tables included)",
            {"best": min(new_counts), "median": statistics.median(new_counts), "n": n_counts})
        if opts.old_src:
            old_counts = counts_in_process(str(opts.old_src), env, n_counts)
            add("exact counts in process, old", {"best": min(old_counts), "median": statistics.median(old_counts),
                                                 "n": n_counts})

        def no_cache() -> tuple[float, float]:
            for f in cache.glob("fcp-dealer-counts-*"):
                f.unlink()
            return run(new, env)

        add("`poker analyze --json` with no counts cache (whole process)",
            summary([no_cache() for _ in range(max(2, reps // 2))]))

        sys.path.insert(0, str(HERE))
        from fourcards.poker import analysis as an
        from numpy_counts import numpy_counts

        os.environ["FOURCARDS_CACHE_DIR"] = str(cache)
        counts = an.exact_counts()
        t0 = time.perf_counter()
        le, lt = numpy_counts(counts.tables.orbit_cards())
        numpy_s = time.perf_counter() - t0
        import numpy as np

        assert np.array_equal(le, counts.le) and np.array_equal(lt, counts.lt), "numpy enumeration disagrees"
        add("independent numpy enumeration of the same counts (13 up ranks, one core)",
            {"best": numpy_s, "median": numpy_s, "n": 1}, "equal to the exact counts")
        ratio = numpy_s / min(new_counts)
        print(f"  ratio numpy / exact counts (in process): {ratio:.0f}x", file=sys.stderr)

        for what, args, n in (
            ("`poker design --aces-up-rtp 96.63 --json`", ["poker", "design", "--aces-up-rtp", "96.63", "--json"], reps),
            ("`poker design --game-rtp 98.5 --json` (20 tables re-optimised)",
             ["poker", "design", "--game-rtp", "98.5", "--json"], max(2, reps // 2)),
            ("`poker win-cap --json` (online: 24 bets, exact)", ["poker", "win-cap", "--json"], max(2, reps // 2)),
            ("`poker analyze --json --xlsx FILE`", ["poker", "analyze", "--json", "--xlsx", str(cache / "p.xlsx")],
             reps),
        ):
            add(what, summary([run([str(BIN), *args], env) for _ in range(n)]))

        def protect_first() -> tuple[float, float]:
            for f in cache.glob("fcp-hole-card-*"):
                f.unlink()
            return run([str(BIN), "poker", "protect", "--hole-cards", "1", "--json"], env)

        add("`poker protect --hole-cards 1` first run (the exact sweep, 325 pairs)",
            summary([protect_first() for _ in range(1 if opts.quick else 2)]))
        add("`poker protect --hole-cards 1` (sweep cached)",
            summary([run([str(BIN), "poker", "protect", "--hole-cards", "1", "--json"], env) for _ in range(reps)]))
        add("`poker protect` default table (exact cached; 4 Monte Carlo scenarios)",
            summary([run([str(BIN), "poker", "protect", "--json"], env) for _ in range(1 if opts.quick else 2)]))
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    info = {"machine": f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}",
            "python": platform.python_version(), "load_average_before": [round(x, 2) for x in load0],
            "load_average_after": [round(x, 2) for x in os.getloadavg()], "date": time.strftime("%Y-%m-%d %H:%M"),
            "numpy_over_exact_counts": round(ratio, 1)}
    print(f"\n{info['date']}; {info['machine']}; Python {info['python']}; load average {info['load_average_before'][0]}"
          f" before, {info['load_average_after'][0]} after; numpy enumeration / exact counts = {ratio:.0f}x\n")
    print("| what | best | median | CPU (best run) | runs | note |")
    print("|---|---|---|---|---|---|")
    for what, res, note in rows:
        cpu = f"{res['cpu']:.2f} s" if "cpu" in res else ""
        print(f"| {what} | {res['best']:.2f} s | {res['median']:.2f} s | {cpu} | {res['n']} | {note} |")
    if opts.json:
        opts.json.write_text(json.dumps({"info": info, "rows": [{"what": w, **r, "note": n} for w, r, n in rows]},
                                        indent=2))


if __name__ == "__main__":
    main()
