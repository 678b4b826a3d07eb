"""Issue 12's load figures: ``web_load.py`` paced and saturating, 1 and 2 server processes,
SQLite and PostgreSQL, each run on a fresh database.

* saturating: 200 clients at 40 tables acting the moment they may (the servers' capacity);
* paced: 1,000 clients at 200 tables, each thinking 1.5-4.5 s before a move (people at
  a table); ``paced-2s`` / ``paced-1s``: 1-3 s and 0.5-1.5 s (faster than people). The
  latency is the server's, from sending an action to its ``ack``.

Usage::

    python benchmarks/issue12.py --postgres postgresql+psycopg://fourcards:fourcards@127.0.0.1/fourcards_bench \\
        --json docs/img/issue12-load.json

Without ``--postgres`` only the SQLite runs are made. Each PostgreSQL run gets its own
schema (dropped afterwards).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
RUNS = {
    "saturating": ["--clients", "200", "--tables", "40"],
    "paced": ["--clients", "1000", "--tables", "200", "--think", "3.0"],
    "paced-2s": ["--clients", "1000", "--tables", "200", "--think", "2.0"],
    "paced-1s": ["--clients", "1000", "--tables", "200", "--think", "1.0"],
}


def load_average() -> float:
    return os.getloadavg()[0]


def run(kind: str, workers: int, url: str, seconds: float) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "r.json"
        cmd = [sys.executable, str(HERE / "web_load.py"), *RUNS[kind], "--seconds", str(seconds),
               "--workers", str(workers), "--json", str(out)]
        if url:
            cmd += ["--database-url", url]
        before = load_average()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        result = json.loads(out.read_text())
    result.update({"run": kind, "load_average_before": round(before, 2), "load_average_after": round(load_average(), 2)})
    return result


def fresh_schema(base: str) -> tuple[str, str]:
    from sqlalchemy import create_engine, text

    name = "bench_" + uuid.uuid4().hex[:8]
    engine = create_engine(base)
    with engine.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {name}"))
    engine.dispose()
    sep = "&" if "?" in base else "?"
    return f"{base}{sep}options=-csearch_path%3D{name}", name


def drop_schema(base: str, name: str) -> None:
    from sqlalchemy import create_engine, text

    engine = create_engine(base)
    with engine.begin() as conn:
        conn.execute(text(f"DROP SCHEMA {name} CASCADE"))
    engine.dispose()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--postgres", default=None, help="a PostgreSQL URL (a database fourcards may create schemas in)")
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--runs", default="saturating,paced", help=f"of {', '.join(RUNS)}")
    p.add_argument("--workers", default="1,2")
    p.add_argument("--databases", default="sqlite,postgresql")
    p.add_argument("--json", type=Path, default=None)
    args = p.parse_args()
    results = []
    for database in args.databases.split(","):
        if database == "postgresql" and not args.postgres:
            continue
        for workers in (int(w) for w in args.workers.split(",")):
            for kind in args.runs.split(","):
                schema = None
                url = ""
                if database == "postgresql":
                    url, schema = fresh_schema(args.postgres)
                try:
                    r = run(kind, workers, url, args.seconds)
                finally:
                    if schema:
                        drop_schema(args.postgres, schema)
                r["database"] = database
                results.append(r)
                print(f"{database:10} workers={workers} {kind:10} {r['actions_per_s']:7.1f} actions/s  "
                      f"p50 {r['p50_ms']:6.1f}  p99 {r['p99_ms']:7.1f} ms  server {r['server_cpu_cores']} cores  "
                      f"errors {r['errors']}  ledgers 0: {r['ledger_totals_zero']}  load {r['load_average_before']}",
                      flush=True)
                time.sleep(3)
    if args.json:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
