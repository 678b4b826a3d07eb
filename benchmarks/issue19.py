"""Issue 19 benchmark: a Four Card Poker table at the largest limits the API accepts costs what one
at the default limits costs, and does not slow another table's requests.

A real ``fourcards serve`` (SQLite, one process) on a free loopback port; two tables, each with its
host at the decision (the host and two bots anted, cards dealt):

* ``default``: the ``live`` limits (ante 1-1,000), everyone anted 1,000;
* ``largest``: ante and Aces Up 1-1,000,000 (``fourcards.inputs.MAX_WAGER``), everyone anted
  1,000,000 - the play bet may then be any whole amount from 1,000,000 to 3,000,000.

It times ``GET /api/tables/{id}/state`` (the host's view) on each table alone, then on the
default table while a second client polls the largest table as fast as it answers (the event
loop is shared: a slow view there delays every other table). Prints a Markdown table::

    .venv/bin/python benchmarks/issue19.py                 # about 1 minute
    PYTHONPATH=/path/to/old/src .venv/bin/python benchmarks/issue19.py   # the same on older code

Figures are milliseconds per request as the client sees them (loopback, httpx, keep-alive).
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "web"))
from servers import free_port  # noqa: E402 - the tests' loopback helper

LARGEST = 1_000_000


def serve(db: Path, log: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    url = f"sqlite:///{db}"
    fh = open(log, "ab")  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen([sys.executable, "-m", "fourcards", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--database-url", url, "--bot-delay", "0", "--log-level", "warning"],
                            stdout=fh, stderr=subprocess.STDOUT, env={**os.environ, "FOURCARDS_DATABASE_URL": url})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("the server did not start:\n" + log.read_text())


def table_at_the_decision(client: httpx.Client, ante: int, rules: dict[str, int]) -> tuple[str, str]:
    r = client.post("/api/tables", json={"game": "poker", "host_name": "Host", "bots": 2, "rules": rules,
                                         "starting_chips": 10_000_000, "bot_ante": ante, "seat_approval": False})
    r.raise_for_status()
    tid, tok = r.json()["table"]["id"], r.json()["token"]
    h = {"X-Seat-Token": tok}
    client.post(f"/api/tables/{tid}/actions", json={"kind": "wager", "ante": ante}, headers=h).raise_for_status()
    r = client.post(f"/api/tables/{tid}/deal", headers=h)
    r.raise_for_status()
    assert {a["kind"] for a in r.json()["actions"]} == {"fold", "play"}
    return tid, tok


def timed(client: httpx.Client, tid: str, tok: str, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        client.get(f"/api/tables/{tid}/state", headers={"X-Seat-Token": tok}).raise_for_status()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def row(label: str, ms: list[float]) -> str:
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    return f"| {label} | {len(ms)} | {statistics.median(ms):.2f} | {p95:.2f} | {ms[-1]:.2f} |"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--requests", type=int, default=200, help="requests per timed row (default 200)")
    args = ap.parse_args()
    n = args.requests
    work = Path(tempfile.mkdtemp(prefix="fourcards-issue19-"))
    proc, base = serve(work / "bench.db", work / "serve.log")
    try:
        with httpx.Client(base_url=base, timeout=60) as c:
            small = table_at_the_decision(c, 1000, {})
            large = table_at_the_decision(c, LARGEST, {"min_ante": 1, "max_ante": LARGEST, "min_aces_up": 1,
                                                       "max_aces_up": LARGEST})
            timed(c, *small, 20)  # warm
            timed(c, *large, 5)
            rows = [row("GET /state, default limits, alone", timed(c, *small, n)),
                    row("GET /state, largest limits, alone", timed(c, *large, max(20, n // 10)))]
            stop = threading.Event()
            polled = [0]

            def poll_large() -> None:
                with httpx.Client(base_url=base, timeout=60) as other:
                    while not stop.is_set():
                        timed(other, *large, 1)
                        polled[0] += 1

            thread = threading.Thread(target=poll_large, daemon=True)
            thread.start()
            time.sleep(0.5)
            busy = timed(c, *small, n)
            stop.set()
            thread.join(timeout=60)
            rows.append(row(f"GET /state, default limits, while another client polls the largest table "
                            f"({polled[0]} requests meanwhile)", busy))
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    import fourcards

    print(f"{platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()}, "
          f"fourcards from {Path(fourcards.__file__).parent}; load average {os.getloadavg()[0]:.2f}")
    print("\n| request | n | median ms | p95 ms | max ms |\n|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
