"""Issue 20's figures: the server's CPU per action, old code against new in the same run.

Runs ``web_load.py`` (from this checkout) once with the old code's interpreter and once with
this checkout's, alternating, for each configuration, each on a fresh database:

* ``saturating``: 200 websocket clients at 40 tables (half Four Card Poker, half Four of a
  Kind) acting the moment they may - the servers' capacity;
* ``paced``: 1,000 clients at 200 tables, each thinking 1.5-4.5 s (people at a table).

The server CPU per action is the server processes' CPU seconds over the actions acknowledged
(``server_cpu_cores / actions_per_s``), the figure issue 20 sets a target for (<= 0.4 ms on
the development machine); throughput and latency are reported beside it.

The old code is any interpreter whose ``fourcards`` is the code to compare against, e.g.::

    git worktree add ../before <commit before issue 20>
    python3.11 -m venv ../before/.venv && ../before/.venv/bin/pip install -e '../before[web]'
    python benchmarks/issue20.py --old-python ../before/.venv/bin/python \\
        --postgres postgresql+psycopg://fourcards:fourcards@127.0.0.1/fourcards_bench --json docs/img/issue20-load.json
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from issue12 import drop_schema, fresh_schema  # a fresh PostgreSQL schema per run

HERE = Path(__file__).resolve().parent
RUNS = {
    "saturating": ["--clients", "200", "--tables", "40"],
    "paced": ["--clients", "1000", "--tables", "200", "--think", "3.0"],
}


def run(python: str, kind: str, workers: int, url: str, seconds: float) -> dict:
    """One ``web_load.py`` run with ``python`` (whose ``fourcards`` serves); its figures."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "r.json"
        cmd = [python, str(HERE / "web_load.py"), *RUNS[kind], "--seconds", str(seconds), "--workers", str(workers),
               "--json", str(out)]
        if url:
            cmd += ["--database-url", url]
        before = os.getloadavg()[0]
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        result = json.loads(out.read_text())
    actions = result["actions_per_s"] or float("nan")
    result.update({"run": kind, "load_average_before": round(before, 2), "load_average_after": round(os.getloadavg()[0], 2),
                   "cpu_ms_per_action": round(1000 * result["server_cpu_cores"] / actions, 3)})
    return result


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--old-python", required=True, help="an interpreter whose fourcards is the old code")
    p.add_argument("--new-python", default=sys.executable)
    p.add_argument("--postgres", default=None, help="a PostgreSQL URL (a database fourcards may create schemas in)")
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--runs", default="sqlite:1:saturating,postgresql:1:saturating,postgresql:2:saturating,"
                                     "postgresql:1:paced,postgresql:2:paced",
                   help="database:processes:run, comma-separated")
    p.add_argument("--json", type=Path, default=None)
    args = p.parse_args()
    results = []
    for spec in args.runs.split(","):
        database, workers, kind = spec.split(":")
        if database == "postgresql" and not args.postgres:
            continue
        for code, python in (("old", args.old_python), ("new", args.new_python)):
            schema, url = None, ""
            if database == "postgresql":
                url, schema = fresh_schema(args.postgres)
            try:
                r = run(python, kind, int(workers), url, args.seconds)
            finally:
                if schema:
                    drop_schema(args.postgres, schema)
            r.update({"database": database, "code": code})
            results.append(r)
            print(f"{code:3} {database:10} processes={workers} {kind:10} {r['actions_per_s']:7.1f} actions/s  "
                  f"p50 {r['p50_ms']:6.1f}  p99 {r['p99_ms']:7.1f} ms  server {r['server_cpu_cores']} cores  "
                  f"{r['cpu_ms_per_action']:.3f} ms CPU/action  errors {r['errors']}  ledgers 0: "
                  f"{r['ledger_totals_zero']}  load {r['load_average_before']}", flush=True)
            time.sleep(3)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
