"""Issue 28's figure: the server's CPU per action, old against new in the same run.

Runs ``benchmarks/web_load.py`` (saturating by default: 200 clients at 40 tables, SQLite, one
process) with the server from ``--old-src`` and from this checkout's ``src``, alternating for
``--rounds`` rounds, and prints per version each run's ``server_cpu_ms_per_action`` (the
server's CPU seconds per action acknowledged: on a machine shared with other work this is the
figure to compare, not the wall-clock rate), their median, the actions per second, the p99
latency, the errors and whether every ledger sums to 0. Any other option is handed to
``web_load.py`` as it is (``--workers 2 --database-url ...``, ``--think 2 --clients 1000``).
``--old-database-url`` gives the old version a database of its own: a version older than the
database's schema refuses it, so once the new one has migrated a shared database the old one's
next run fails (SQLite runs get a new file each run and need none).

    python benchmarks/issue28_server.py --old-src OLD/src --rounds 3 --seconds 20 [--json out.json]
    python benchmarks/issue28_server.py --old-src OLD/src --workers 2 \
        --database-url postgresql+psycopg://U:P@127.0.0.1:5432/NEW_DB \
        --old-database-url postgresql+psycopg://U:P@127.0.0.1:5432/OLD_DB
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def one(src: Path, passed: list[str]) -> dict[str, Any]:
    """One ``web_load.py`` run with the server from ``src``."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run([sys.executable, str(HERE / "web_load.py"), "--src", str(src), "--json", out.name, *passed],
                       check=True, stdout=subprocess.DEVNULL)
        return dict(json.loads(Path(out.name).read_text()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old-src", type=Path, required=True, help="src folder of the version to compare with")
    ap.add_argument("--new-src", type=Path, default=HERE.parent / "src")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--json", type=Path, default=None, help="write every run's figures to this file")
    ap.add_argument("--database-url", default=None, help="the database of the runs (handed to web_load.py)")
    ap.add_argument("--old-database-url", default=None,
                    help="the old version's own database (default: --database-url)")
    opts, passed = ap.parse_known_args()
    urls = {"old": opts.old_database_url or opts.database_url, "new": opts.database_url}
    runs: dict[str, list[dict[str, Any]]] = {"old": [], "new": []}
    for r in range(opts.rounds):
        for name, src in (("old", opts.old_src), ("new", opts.new_src)):
            res = one(src, passed + (["--database-url", urls[name]] if urls[name] else []))
            runs[name].append(res)
            print(f"round {r + 1} {name}: {res['server_cpu_ms_per_action']} ms/action, {res['actions_per_s']}/s, "
                  f"p99 {res['p99_ms']} ms, errors {res['errors']}, ledgers 0: {res['ledger_totals_zero']}",
                  flush=True)
    print("\n| code | server CPU per action, each run (ms) | median | actions/s | p99 (ms) | errors | ledgers |")
    print("|---|---|---|---|---|---|---|")
    for name, rs in runs.items():
        cpu = [r["server_cpu_ms_per_action"] for r in rs]
        print(f"| {name} | {', '.join(f'{x:.2f}' for x in cpu)} | **{statistics.median(cpu):.2f} ms** | "
              f"{min(r['actions_per_s'] for r in rs):.0f}-{max(r['actions_per_s'] for r in rs):.0f} | "
              f"{statistics.median(r['p99_ms'] for r in rs):.0f} | {sum(r['errors'] for r in rs)} | "
              f"{'all 0' if all(r['ledger_totals_zero'] for r in rs) else 'NOT 0'} |")
    if opts.json:
        opts.json.write_text(json.dumps(runs, indent=2))


if __name__ == "__main__":
    main()
