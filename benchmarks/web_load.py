"""Load benchmark of the web app: websocket clients playing bots' moves on loopback.

Starts ``fourcards serve`` as a subprocess on a free 127.0.0.1 port (a fresh
SQLite file unless ``--database-url`` is given), creates ``--tables`` tables
(half Four Card Poker, half Four of a Kind) with ``--clients`` seats in all,
and connects one websocket client per seat. Each client plays like a bot from
its own view: Four Card Poker - ante 10, the published simple strategy, the
host deals when every seat has wagered; Four of a Kind - check when free, bet
the minimum with a pair or better, call otherwise, the host deals again when a
deal ends. Every action goes over the websocket; its latency is the time from
sending it to the server's ``ack`` (validated, written to the database in one
transaction, every seat's new view queued).

The run is bounded: ``--seconds`` of play (default 30) after a warm-up, and at
most ``--max-actions``. Prints actions/second, p50/p90/p99/max latency and the
server's resident memory, and (``--json``) writes them to a file.

``--src DIR`` runs the server from another ``src`` folder (a checkout of an older version:
old against new in the same run, ``benchmarks/issue28_server.py``). The figure to compare on a
shared machine is ``server_cpu_ms_per_action`` - the server's CPU seconds (user + system, its
worker processes included) per action acknowledged - not the wall-clock rate.

``--workers N`` runs N server processes (``fourcards serve --workers``): each client's
connection lands on one of them, so the seats of one table are served by different
processes (the database and its change notifications keep them in step). ``--think S``
paces each client (a player's thinking time, S seconds on average, not counted in the
latency); without it clients act as fast as the server answers (saturation).

Usage::

    python benchmarks/web_load.py                       # 200 clients, 40 tables, 30 s
    python benchmarks/web_load.py --clients 40 --tables 8 --seconds 10
    python benchmarks/web_load.py --clients 1000 --tables 200 --think 2 --workers 2 \
        --database-url postgresql+psycopg://fourcards:fourcards@127.0.0.1/fourcards_bench
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
import websockets

RANKS = "23456789TJQKA"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mib(pid: int) -> float:
    """Resident memory of a process and its descendants, MiB."""
    total = 0.0
    for p in family(pid):
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) / 1024
        except OSError:
            pass
    return total


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def family(pid: int) -> list[int]:
    """``pid`` and its descendants (Linux /proc): the server and its worker processes."""
    children: dict[int, list[int]] = {}
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                children.setdefault(int(_stat(int(d.name))[1]), []).append(int(d.name))
            except (OSError, IndexError, ValueError):
                pass
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo += children.get(p, [])
    return out


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process and its descendants (Linux /proc)."""
    total = 0.0
    for p in family(pid):
        try:
            fields = _stat(p)
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            pass
    return total


def simple_play(cards: list[str], ante: int, play_amounts: list[int]) -> int | None:
    """Shuffle Master's simple strategy on the best pair: fold 2s or less, 1x with 3s-9s, 3x with 10s+."""
    counts: dict[str, int] = {}
    for c in cards:
        counts[c[0]] = counts.get(c[0], 0) + 1
    best = max((RANKS.index(r) for r, n in counts.items() if n >= 2), default=-1)
    if best <= 0:
        return None
    want = ante if best <= RANKS.index("9") else 3 * ante
    fitting = [a for a in play_amounts if a <= want]
    return max(fitting) if fitting else min(play_amounts)


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.by_game: dict[str, list[float]] = {"poker": [], "kind": []}
        self.errors: list[str] = []
        self.deals = {"poker": 0, "kind": 0}
        self.recording = False


class Client:
    def __init__(self, base_ws: str, tid: str, token: str, game: str, is_host: bool, seats: int,
                 stats: Stats, stop: asyncio.Event, think: float = 0.0) -> None:
        self.url = f"{base_ws}/ws/tables/{tid}"
        self.protocols = ["fourcards", f"fourcards.token.{token}"]  # the token never in the URL (issue 26)
        self.game, self.is_host, self.seats = game, is_host, seats
        self.stats, self.stop = stats, stop
        self.state: dict[str, Any] | None = None
        self.inflight: tuple[int, float] | None = None
        self.next_id = 0
        self.think = think
        self.rng = random.Random()
        self.ping = False

    async def run(self) -> None:
        async with websockets.connect(self.url, max_size=2**22, subprotocols=self.protocols) as ws:  # type: ignore[arg-type]
            self.ws = ws
            while not self.stop.is_set():
                try:
                    async with asyncio.timeout(0.5):  # no task per message, as wait_for makes before 3.12
                        raw = await ws.recv()
                except TimeoutError:
                    if self.inflight is None:
                        asyncio.ensure_future(self.maybe_act())
                    continue
                msg = orjson.loads(raw)
                if msg["type"] == "state":
                    self.state = msg
                elif msg["type"] in ("ack", "error", "pong") and self.inflight and msg.get("id") == self.inflight[0]:
                    dt = time.perf_counter() - self.inflight[1]
                    if self.stats.recording:
                        self.stats.latencies.append(dt)
                        self.stats.by_game[self.game].append(dt)
                        if msg["type"] == "error":
                            self.stats.errors.append(msg["detail"])
                    self.inflight = None
                if self.inflight is None:
                    asyncio.ensure_future(self.maybe_act())

    async def send(self, body: dict[str, Any]) -> None:
        self.next_id += 1
        if self.think > 0:  # a player's thinking time before the move (not part of the latency)
            self.inflight = (self.next_id, float("inf"))
            await asyncio.sleep(self.think * (0.5 + self.rng.random()))
        if self.stop.is_set():
            return
        self.inflight = (self.next_id, time.perf_counter())
        try:
            await self.ws.send(json.dumps({**body, "id": self.next_id}))
        except websockets.ConnectionClosed:  # the run is over
            pass

    async def maybe_act(self) -> None:
        s = self.state
        if s is None or self.inflight is not None or self.stop.is_set():
            return
        if self.ping:  # --ping: the transport's floor, a ping answered by a pong (no game, no database)
            return await self.send({"op": "ping"})
        me = s["you"]["seat"]
        if self.game == "poker":
            rnd = s["round"]
            for a in s["actions"]:
                if a["kind"] == "wager":
                    return await self.send({"op": "action", "action": {"kind": "wager", "ante": 10}})
                if a["kind"] == "play":
                    mine = next(e for e in rnd["seats"] if e["seat"] == me)
                    amounts = a.get("amounts") or [a["ante"] * m for m in (1, 2, 3) if a["ante"] * m <= a["max"]]
                    amt = simple_play(mine["cards"], a["ante"], amounts)
                    body = {"kind": "fold"} if amt is None else {"kind": "play", "amount": amt}
                    return await self.send({"op": "action", "action": body})
            wagered = sum(1 for e in rnd["seats"] if e["ante"])
            if self.is_host and rnd["phase"] == "wagers" and wagered == self.seats and "deal" in s["host_actions"]:
                self.stats.deals["poker"] += 1
                return await self.send({"op": "deal"})
        else:
            acts = {a["kind"]: a for a in s["actions"]}
            if acts:
                mine = next(e for e in s["deal"]["seats"] if e["seat"] == me)
                if "check" in acts:
                    bet = acts.get("bet") or acts.get("raise")
                    body = {"kind": "bet" if "bet" in acts else "raise", "amount": bet["min_amount"]} \
                        if bet and len(mine["cards"]) >= 2 and s["deal"]["full_wagers"] == 0 else {"kind": "check"}
                else:
                    body = {"kind": "call"}
                return await self.send({"op": "action", "action": body})
            if self.is_host and s["deal"] is None and "deal" in s["host_actions"]:
                self.stats.deals["kind"] += 1
                return await self.send({"op": "deal"})


def action_buckets(text: str) -> dict[float, float]:
    """The server's ``fourcards_action_seconds`` histogram from its /metrics text: cumulative count
    per bucket's upper bound (seconds; every label set added up)."""
    out: dict[float, float] = {}
    for line in text.splitlines():
        if line.startswith("fourcards_action_seconds_bucket{"):
            le = line.split('le="', 1)[1].split('"', 1)[0]
            out[float(le)] = out.get(float(le), 0.0) + float(line.rsplit(" ", 1)[1])
    return out


def counter_total(text: str, name: str) -> float | None:
    """A counter's value from /metrics text, every label set added up (``None``: not exported -
    an older server)."""
    values = [float(line.rsplit(" ", 1)[1]) for line in text.splitlines()
              if line.startswith((name + " ", name + "{"))]
    return sum(values) if values else None


def bucket_quantile(before: dict[float, float], after: dict[float, float], q: float) -> float | None:
    """The smallest bucket bound (ms) holding the ``q`` quantile of what was observed between two
    scrapes (``None``: nothing observed)."""
    les = sorted(after)
    counts = [after[le] - before.get(le, 0.0) for le in les]
    if not counts or counts[-1] <= 0:
        return None
    return next(le * 1000 for le, c in zip(les, counts, strict=True) if c >= q * counts[-1])


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return float("nan")
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] * 1000


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    tmp = tempfile.mkdtemp(prefix="fourcards-load-")
    url = args.database_url or f"sqlite:///{tmp}/load.db"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = open(Path(tmp) / "server.log", "wb")
    # --profile: the server under cProfile, its statistics written when it stops (uvicorn raises the
    # SIGTERM it caught again once it has shut down: here that ends the profile, not the process)
    # on the event loop thread's own CPU clock (the database thread's time is not in it)
    profile = ["-c", "import cProfile, signal, sys, time; from fourcards.launch import main\n"
                     "signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))\n"
                     "prof = cProfile.Profile(time.thread_time)\n"
                     f"try:\n    prof.runcall(main, sys.argv[1:])\nfinally:\n    prof.dump_stats({str(args.profile)!r})"
               ] if args.profile else []
    # --gc-log: every collection of the server's that takes 1 ms or more, "unix-time generation milliseconds"
    if args.gc_log and not profile:
        profile = ["-c", "import gc, sys, time; from fourcards.launch import main\n"
                         f"out = open({str(args.gc_log)!r}, 'w', buffering=1); began = [0.0]\n"
                         "def watch(phase, info):\n"
                         "    if phase == 'start': began[0] = time.perf_counter(); return\n"
                         "    ms = (time.perf_counter() - began[0]) * 1000\n"
                         "    if ms >= 1: out.write(f\"{time.time():.3f} {info['generation']} {ms:.1f}\\n\")\n"
                         "gc.callbacks.append(watch)\n"
                         "main(sys.argv[1:])"]
    env = {**os.environ, "FOURCARDS_RATE_LIMITS": "off"}  # 40 tables and 200 seats, one address
    if args.src is not None:
        env["PYTHONPATH"] = str(args.src.resolve())
    proc = subprocess.Popen([sys.executable, *(profile or ["-m", "fourcards"]), "serve", "--host", "127.0.0.1", "--port", str(port),
                             "--database-url", url, "--bot-delay", "0", "--log-level", "warning",
                             "--workers", str(args.workers)],
                            stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        async with httpx.AsyncClient(base_url=base, timeout=30) as http:
            for _ in range(300):
                try:
                    if (await http.get("/api/health")).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.1)
            idle_rss = rss_mib(proc.pid)
            per_table = args.clients // args.tables
            stats, stop = Stats(), asyncio.Event()
            clients: list[Client] = []
            for i in range(args.tables):
                game = "poker" if i % 2 == 0 else "kind"
                # public (listed for the audit below, seats without approval), no bots, no turn clock
                r = await http.post("/api/tables", json={"game": game, "host_name": "P1", "bots": 0,
                                                         "starting_chips": 1_000_000, "public": True,
                                                         "turn_clock": 0})
                r.raise_for_status()
                t = r.json()
                tid = t["table"]["id"]
                tokens = [t["token"]]
                for j in range(2, per_table + 1):
                    s = await http.post(f"/api/tables/{tid}/seats", json={"name": f"P{j}"})
                    s.raise_for_status()
                    tokens.append(s.json()["token"])
                for j, tok in enumerate(tokens):
                    clients.append(Client(f"ws://127.0.0.1:{port}", tid, tok, game, j == 0, per_table, stats, stop,
                                          args.think))
                    clients[-1].ping = args.ping
            tasks = [asyncio.create_task(c.run()) for c in clients]
            await asyncio.sleep(args.warmup)
            stats.recording = True
            t0 = time.perf_counter()
            recording_from = time.time()
            server_cpu0, client_cpu0 = cpu_seconds(proc.pid), time.process_time()
            metrics0 = (await http.get("/metrics")).text
            buckets0 = action_buckets(metrics0)
            while time.perf_counter() - t0 < args.seconds and len(stats.latencies) < args.max_actions:
                await asyncio.sleep(0.2)
            elapsed = time.perf_counter() - t0
            stats.recording = False
            metrics1 = (await http.get("/metrics")).text
            buckets1 = action_buckets(metrics1)
            reads = [counter_total(m, "fourcards_table_reads_total") for m in (metrics0, metrics1)]
            server_cpu = (cpu_seconds(proc.pid) - server_cpu0) / elapsed
            client_cpu = (time.process_time() - client_cpu0) / elapsed
            busy_rss = rss_mib(proc.pid)
            stop.set()
            await asyncio.gather(*tasks, return_exceptions=True)
            audit = []
            for t in (await http.get("/api/tables")).json()["tables"]:
                audit.append((await http.get(f"/api/tables/{t['id']}/ledger")).json()["audit"]["total"])
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
    lat = stats.latencies
    return {
        "clients": len(clients), "tables": args.tables, "workers": args.workers, "seconds": round(elapsed, 1),
        "think_s": args.think,
        "database": url.split(":")[0], "actions": len(lat),
        "actions_per_s": round(len(lat) / elapsed, 1),
        "p50_ms": round(pct(lat, 0.50), 1), "p90_ms": round(pct(lat, 0.90), 1),
        "p99_ms": round(pct(lat, 0.99), 1), "max_ms": round(max(lat) * 1000, 1) if lat else None,
        "mean_ms": round(statistics.fmean(lat) * 1000, 1) if lat else None,
        "poker": {"actions": len(stats.by_game["poker"]), "p50_ms": round(pct(stats.by_game["poker"], .5), 1),
                  "p99_ms": round(pct(stats.by_game["poker"], .99), 1)},
        "kind": {"actions": len(stats.by_game["kind"]), "p50_ms": round(pct(stats.by_game["kind"], .5), 1),
                 "p99_ms": round(pct(stats.by_game["kind"], .99), 1)},
        # the server's own time per command (apply and commit, its table's lock waited for; from its
        # /metrics histogram, so a bucket's bound: "at most"), against the clients' p50/p99 above
        "server_action_p50_ms_at_most": bucket_quantile(buckets0, buckets1, 0.50),
        "server_action_p99_ms_at_most": bucket_quantile(buckets0, buckets1, 0.99),
        # tables read whole from the database per action (another server's write made a copy stale)
        "server_table_reads_per_action": round((reads[1] - reads[0]) / len(lat), 4)
        if lat and reads[0] is not None and reads[1] is not None else None,
        "recorded_unix_s": [round(recording_from, 3), round(recording_from + elapsed, 3)],
        "errors": len(stats.errors), "error_samples": stats.errors[:3],
        "ledger_totals_zero": all(x == 0 for x in audit),
        "server_cpu_cores": round(server_cpu, 2),
        "server_cpu_ms_per_action": round(server_cpu / (len(lat) / elapsed) * 1000, 3) if lat else None, "client_cpu_cores": round(client_cpu, 2),
        "server_rss_idle_mib": round(idle_rss, 1), "server_rss_busy_mib": round(busy_rss, 1),
        "machine": f"{os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}",
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--clients", type=int, default=200)
    p.add_argument("--tables", type=int, default=40)
    p.add_argument("--seconds", type=float, default=30.0)
    p.add_argument("--warmup", type=float, default=3.0)
    p.add_argument("--max-actions", type=int, default=200_000)
    p.add_argument("--think", type=float, default=0.0,
                   help="mean seconds a client waits before each move (0: as fast as the server answers)")
    p.add_argument("--ping", action="store_true",
                   help="clients only ping (each answered by a pong): the websocket stack's own cost per round trip")
    p.add_argument("--database-url", default=None)
    p.add_argument("--workers", type=int, default=1, help="server processes (fourcards serve --workers)")
    p.add_argument("--src", type=Path, default=None, help="run the server from this src folder (default: this one)")
    p.add_argument("--profile", default=None, help="write the server's cProfile statistics to this file")
    p.add_argument("--gc-log", type=Path, default=None,
                   help="write each of the server's garbage collections of 1 ms or more to this file")
    p.add_argument("--json", type=Path, default=None, help="write the figures to this file")
    args = p.parse_args()
    if args.clients % args.tables:
        p.error("--clients must be a multiple of --tables")
    result = asyncio.run(main_async(args))
    print(json.dumps(result, indent=2))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
