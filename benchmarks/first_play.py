"""Issue 26 item 6 benchmark: the first play after a start costs what later ones do.

A real ``fourcards serve`` (SQLite, one process) on a free loopback port, started twice - warmed
up before it accepts requests (the default, ``fourcards.web.warmup``) and cold
(``FOURCARDS_WARM_UP=0``: what every server did before issue 26). On each, the same plays in
order, every request timed as the client sees it:

* a Four Card Poker round: a table with one bot of every kind, the host's wager, the deal, the
  host's play bet with the trainer on (the bots answer inside the request: ``--bot-delay 0``);
* a Four of a Kind deal: a table with bots, the deal (the exact odds of every seat);
* meanwhile a second client reads another table's state every 20 ms (``other``: its worst wait,
  which is the first play's cost to everyone else on the server).

Round 1 is the first play after the start; rounds 2..N the later ones (their median). Prints a
Markdown table::

    .venv/bin/python benchmarks/first_play.py            # about a minute
    .venv/bin/python benchmarks/first_play.py --rounds 8

Figures are milliseconds; the machine (shared with other work) is printed with them.
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

STEPS = ("poker table", "wager", "deal", "play + trainer", "kind table", "kind deal")


def serve(db: Path, log: Path, warm: bool) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    url = f"sqlite:///{db}"
    env = {**os.environ, "FOURCARDS_DATABASE_URL": url, "FOURCARDS_WARM_UP": "1" if warm else "0"}
    fh = open(log, "ab")  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen([sys.executable, "-m", "fourcards", "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--database-url", url, "--bot-delay", "0", "--log-level", "warning",
                             "--rate-limits", "off"], stdout=fh, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/api/health", timeout=1).status_code == 200:
                return proc, base
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start:\n" + log.read_text())


def one_round(c: httpx.Client, kinds: dict[str, list[str]]) -> dict[str, float]:
    """The plays of :data:`STEPS`, each timed (ms)."""
    out: dict[str, float] = {}

    def timed(step: str, method: str, path: str, **kw: object) -> httpx.Response:
        t0 = time.perf_counter()
        r = c.request(method, path, **kw)  # type: ignore[arg-type]
        out[step] = out.get(step, 0.0) + (time.perf_counter() - t0) * 1000
        r.raise_for_status()
        return r

    t = timed("poker table", "POST", "/api/tables", json={"game": "poker", "host_name": "Ann", "seat_approval": False})
    tid, h = t.json()["table"]["id"], {"X-Seat-Token": t.json()["token"]}
    for kind in kinds["poker"]:
        timed("poker table", "POST", f"/api/tables/{tid}/bots", json={"count": 1, "kind": kind}, headers=h)
    timed("wager", "POST", f"/api/tables/{tid}/actions", json={"kind": "wager", "ante": 10}, headers=h)
    timed("deal", "POST", f"/api/tables/{tid}/deal", json={}, headers=h)
    timed("play + trainer", "POST", f"/api/tables/{tid}/actions", json={"kind": "play", "amount": 10, "trainer": True},
          headers=h)
    k = timed("kind table", "POST", "/api/tables", json={"game": "kind", "host_name": "Ann", "bots": 0,
                                                          "seat_approval": False})
    kid, kh = k.json()["table"]["id"], {"X-Seat-Token": k.json()["token"]}
    for i in range(max(3, len(kinds["kind"]))):
        timed("kind table", "POST", f"/api/tables/{kid}/bots",
              json={"count": 1, "kind": kinds["kind"][i % len(kinds["kind"])]}, headers=kh)
    timed("kind deal", "POST", f"/api/tables/{kid}/deal", json={}, headers=kh)
    return out


def run(warm: bool, rounds: int, folder: Path) -> dict[str, object]:
    proc, base = serve(folder / f"{'warm' if warm else 'cold'}.db", folder / "serve.log", warm)
    try:
        with httpx.Client(base_url=base, timeout=60) as c, httpx.Client(base_url=base, timeout=60) as other:
            kinds = c.get("/api/presets").json()["bots"]
            watched = other.post("/api/tables", json={"game": "kind", "host_name": "Zed"}).json()["table"]["id"]
            waits: list[float] = []
            stop = threading.Event()

            def watch() -> None:
                while not stop.is_set():
                    t0 = time.perf_counter()
                    other.get(f"/api/tables/{watched}/state")
                    waits.append((time.perf_counter() - t0) * 1000)
                    time.sleep(0.02)

            watcher = threading.Thread(target=watch)
            watcher.start()
            first = one_round(c, kinds)
            first_other = max(waits)
            waits.clear()
            later = [one_round(c, kinds) for _ in range(rounds - 1)]
            later_other = max(waits)
            stop.set()
            watcher.join()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    return {"first": first, "later": {s: statistics.median(r[s] for r in later) for s in STEPS},
            "other": (first_other, later_other)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=5, help="rounds per server (the first, then the later ones)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        results = {name: run(name == "warmed up", max(2, args.rounds), Path(d)) for name in ("cold", "warmed up")}
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Machine: {os.cpu_count()} CPUs, Python {platform.python_version()}, {platform.system()}; "
          f"load average {load:.1f} after the runs (shared machine)\n")
    print("| server | step | first play (ms) | later, median (ms) | first / later |")
    print("|---|---|---|---|---|")
    for name, r in results.items():
        first, later = r["first"], r["later"]  # type: ignore[index]
        for s in STEPS:
            print(f"| {name} | {s} | {first[s]:.1f} | {later[s]:.1f} | {first[s] / later[s]:.1f}x |")
        o1, o2 = r["other"]  # type: ignore[misc]
        print(f"| {name} | another table's state, worst wait | {o1:.1f} | {o2:.1f} | {o1 / o2:.1f}x |")


if __name__ == "__main__":
    main()
