"""Issue 28 item 7, two servers: what reading a table again costs (another server's write made
this server's copy stale; ``fourcards_table_reads_total`` counts them).

Reads every table of a database (e.g. the one ``web_load.py --database-url`` played on) and
prints the mean CPU milliseconds of this thread per table: the store's read
(``Store.load_table``: the queries and their rows) and the state rebuilt from it
(``fourcards.table.loading.load``), afresh and with the copy read before (``known=``: a deal
with the same stored records is taken as it is, not replayed: here every deal is unchanged, the
best case; after a move only the deal in progress is replayed). The fastest of ``--repeat``
passes; the first pass warms up. Runs older code too (``PYTHONPATH=OLD/src``: old against new).

    python benchmarks/issue28_table_read.py --database-url URL [--tables 40] [--repeat 3]
"""

from __future__ import annotations

import argparse
import inspect
import time

from sqlalchemy import text

from fourcards.store import Store
from fourcards.table.loading import load
from fourcards.table.registry import GAMES


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--database-url", required=True)
    ap.add_argument("--tables", type=int, default=40, help="read this many tables (the first by id)")
    ap.add_argument("--repeat", type=int, default=3)
    opts = ap.parse_args()
    store = Store(opts.database_url, run_migrations=False)
    with store.engine.connect() as c:
        ids = [r[0] for r in c.execute(text("SELECT id FROM game_tables ORDER BY id LIMIT :n"), {"n": opts.tables})]
    with_known = "known" in inspect.signature(load).parameters
    known = {}
    for tid in ids:  # warm up: imports, the rank tables, the statements
        row = store.load_table(tid)
        assert row is not None
        known[tid] = load(row, GAMES[row.game].rules_from_dict(row.rules))
    best: dict[str, float] = {}
    for _ in range(opts.repeat):
        spent = {"store read": 0.0, "state rebuilt afresh": 0.0, "state rebuilt with the copy known": 0.0}
        for tid in ids:
            a = time.thread_time()
            row = store.load_table(tid)
            b = time.thread_time()
            assert row is not None
            rules = GAMES[row.game].rules_from_dict(row.rules)
            load(row, rules)
            c_ = time.thread_time()
            if with_known:  # (older code: no known=)
                load(row, rules, known[tid])
            spent["store read"] += b - a
            spent["state rebuilt afresh"] += c_ - b
            spent["state rebuilt with the copy known"] += time.thread_time() - c_
        if not with_known:
            del spent["state rebuilt with the copy known"]
        for k, v in spent.items():
            best[k] = min(best.get(k, v), v)
    print(f"{len(ids)} tables ({store.engine.dialect.name}), CPU ms per table: "
          + ", ".join(f"{k} {v / len(ids) * 1e3:.2f}" for k, v in best.items()))
    store.close()


if __name__ == "__main__":
    main()
