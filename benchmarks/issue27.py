"""Issue 27's figure: what ``synchronous=FULL`` costs SQLite's commits, against ``NORMAL`` in the same run.

A move of a deal in progress is what a server commits most (``Store.commit_table``'s fast path:
the table's new state and version, a history record, two ledger entries, a log line, one
transaction). This commits ``--moves`` of them on a fresh SQLite file, once with the old
setting (``NORMAL``) and once with the new (``FULL``), alternating for ``--rounds`` rounds, and
prints commits per second and the p50/p99 time of one commit (ms) for each - the store's own
cost, without the web stack (whose CPU per action is about 1.9 ms, docs/benchmarks.md issue 20).

    python benchmarks/issue27.py --moves 2000 --rounds 3 [--json out.json] [--dir /path/on/the/disk]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from fourcards.store import DealOpen, DealWrite, Entry, NewPlayer, Store, TableCommit
from fourcards.store import db as store_db


def run(folder: Path, setting: str, moves: int) -> dict[str, Any]:
    """``moves`` commits with ``synchronous=setting`` on a fresh database in ``folder``."""
    store_db.SQLITE_SYNCHRONOUS = setting
    path = folder / f"bench-{setting}-{time.monotonic_ns()}.db"
    store = Store(f"sqlite:///{path}")
    try:
        store.create_table("t", "kind", "bench", {}, {})
        [pid] = store.commit_table(TableCommit("t", 0, {}, None, [NewPlayer(1, "Ann", "a" * 64, 10**9)])).player_ids
        deal = store.commit_table(TableCommit("t", 1, {}, None, [DealWrite("t", open=DealOpen(1, {"1": pid}, {}),
                                                                            records=[{"kind": "start"}])])).deal_id
        version, times = 2, []
        for i in range(moves):
            move = DealWrite("t", deal_id=deal, seq=i + 1, player_id=pid, records=[{"kind": "bet", "amount": 1}],
                             entries=[Entry("player", -1, pid, "bet"), Entry("pot", 1, None, "bet")])
            t0 = time.perf_counter()
            store.commit_table(TableCommit("t", version, {"n": i}, None, [move], "bench", [f"Ann bets 1 ({i})"]))
            times.append(time.perf_counter() - t0)
            version += 1
        assert store.ledger_check()["total"] == 0
    finally:
        store.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
    times.sort()
    return {"synchronous": setting, "moves": moves, "commits_per_s": round(moves / sum(times), 1),
            "p50_ms": round(times[len(times) // 2] * 1000, 3), "p99_ms": round(times[int(len(times) * 0.99)] * 1000, 3),
            "mean_ms": round(statistics.fmean(times) * 1000, 3)}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--moves", type=int, default=2000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--dir", type=Path, default=None, help="where the database files go (default: a temporary "
                                                          "folder; give one on the disk the server would use)")
    p.add_argument("--json", type=Path, default=None)
    args = p.parse_args()
    folder = args.dir or Path(tempfile.mkdtemp(prefix="fourcards-sync-"))
    results = []
    for r in range(args.rounds):
        for setting in ("NORMAL", "FULL"):  # old, new
            out = run(folder, setting, args.moves)
            out.update(round=r + 1, load_average=round(os.getloadavg()[0], 2))
            results.append(out)
            print(json.dumps(out), flush=True)
    summary = {s: {k: statistics.median(x[k] for x in results if x["synchronous"] == s)
                   for k in ("commits_per_s", "p50_ms", "p99_ms", "mean_ms")} for s in ("NORMAL", "FULL")}
    print(json.dumps({"median_of_rounds": summary}, indent=2))
    if args.json:
        args.json.write_text(json.dumps({"runs": results, "median_of_rounds": summary}, indent=2))


if __name__ == "__main__":
    main()
