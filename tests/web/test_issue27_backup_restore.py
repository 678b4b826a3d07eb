"""Issue 27 item 5, done when: a backup taken while 40 clients play is restored, and every deal in
it is finished. A real ``fourcards serve`` (tests/web/servers.py) with 10 tables - five of Four
Card Poker, five of Four of a Kind, four seats each - and one websocket client per seat playing
like benchmarks/web_load.py's; the backup is taken while they play: ``fourcards db backup`` on
SQLite, on PostgreSQL ``pg_dump``/``pg_restore`` as docs/deploy.md says. A fresh server on the
restored database then finishes every deal the backup held in progress, and every table's
ledger audit is clean and its chips all there."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from servers import Server

from dbtesting import postgres_base_url
from fourcards.cli import main

ROOT = Path(__file__).resolve().parents[2]
START = 1_000_000
TABLES, SEATS = 10, 4


def _web_load() -> Any:
    spec = importlib.util.spec_from_file_location("web_load", ROOT / "benchmarks" / "web_load.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(params=["sqlite", "postgresql"])
def databases(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str, str]]:
    """(kind, the database played on, the one restored into) - PostgreSQL: two new databases."""
    if request.param == "sqlite":
        yield "sqlite", f"sqlite:///{tmp_path / 'live.db'}", f"sqlite:///{tmp_path / 'restored.db'}"
        return
    base = postgres_base_url()
    assert base is not None
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.skip("pg_dump and pg_restore are not installed")
    from sqlalchemy import create_engine, make_url, text

    names = [f"fc_live_{secrets.token_hex(4)}", f"fc_restored_{secrets.token_hex(4)}"]
    admin = create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        for n in names:
            conn.execute(text(f'CREATE DATABASE "{n}"'))
    try:
        u = make_url(base)
        yield "postgresql", *(u.set(database=n).render_as_string(hide_password=False) for n in names)
    finally:
        with admin.connect() as conn:
            for n in names:
                conn.execute(text(f'DROP DATABASE IF EXISTS "{n}" WITH (FORCE)'))
        admin.dispose()


def _libpq(url: str) -> str:
    from sqlalchemy import make_url

    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


async def _play_and_back_up(base: str, port: int, kind: str, url: str, dump: Path) -> list[tuple[str, str, list[str]]]:
    """Ten tables, 40 websocket clients; the backup taken after 2 s of play, play going on for 1 s
    after it. Returns each table's (id, game, tokens)."""
    load = _web_load()
    stats, stop = load.Stats(), asyncio.Event()
    tables, clients = [], []
    async with httpx.AsyncClient(base_url=base, timeout=30) as http:
        for i in range(TABLES):
            game = "poker" if i % 2 == 0 else "kind"
            r = await http.post("/api/tables", json={"game": game, "host_name": "P1", "bots": 0, "public": True,
                                                     "starting_chips": START, "turn_clock": 0})
            r.raise_for_status()
            tid, tokens = r.json()["table"]["id"], [r.json()["token"]]
            for j in range(2, SEATS + 1):
                s = await http.post(f"/api/tables/{tid}/seats", json={"name": f"P{j}"})
                s.raise_for_status()
                tokens.append(s.json()["token"])
            tables.append((tid, game, tokens))
            clients += [load.Client(f"ws://127.0.0.1:{port}", tid, tok, game, j == 0, SEATS, stats, stop)
                        for j, tok in enumerate(tokens)]
    tasks = [asyncio.create_task(c.run()) for c in clients]
    await asyncio.sleep(2.0)
    if kind == "sqlite":
        argv = [sys.executable, "-m", "fourcards", "db", "backup", str(dump), "--database-url", url]
    else:
        argv = ["pg_dump", "--format=custom", f"--file={dump}", _libpq(url)]
    proc = await asyncio.create_subprocess_exec(*argv, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
                                                env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    out, err = await proc.communicate()
    assert proc.returncode == 0, (out + err).decode()
    played = len(stats.latencies)
    await asyncio.sleep(1.0)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    assert stats.errors == [] and stats.deals["poker"] + stats.deals["kind"] >= TABLES, (played, stats.deals)
    return tables


def _finish(base: str, tid: str, game: str, tokens: list[str]) -> int:
    """Play the table's deal in progress to its end: Four Card Poker - the host deals the wagers
    placed, then each seat to act folds; Four of a Kind - each seat to act folds (checks when it
    may not) until one is left. Seat n is ``tokens[n - 1]`` (they sat in order). Returns the moves."""
    moves = 0
    for _ in range(60):
        s = httpx.get(f"{base}/api/tables/{tid}/state", headers={"X-Seat-Token": tokens[0]}).json()
        deal = s["round"] if game == "poker" else s["deal"]
        if game == "poker" and deal["phase"] == "wagers" and "deal" in s["host_actions"]:
            r = httpx.post(f"{base}/api/tables/{tid}/deal", headers={"X-Seat-Token": tokens[0]})
            assert r.status_code == 200, r.text
            continue
        if deal is None or deal.get("actor") is None:
            assert not httpx.get(f"{base}/api/tables/{tid}").json()["in_progress"], s
            return moves
        tok = tokens[deal["actor"] - 1]
        kinds = {a["kind"] for a in httpx.get(f"{base}/api/tables/{tid}/state",
                                              headers={"X-Seat-Token": tok}).json()["actions"]}
        r = httpx.post(f"{base}/api/tables/{tid}/actions", headers={"X-Seat-Token": tok},
                       json={"kind": "fold" if "fold" in kinds else "check"})
        assert r.status_code == 200, r.text
        moves += 1
    raise AssertionError(f"table {tid}'s deal did not end")


@pytest.mark.slow
def test_issue27_5_a_backup_taken_while_40_clients_play_restores_and_every_deal_in_it_finishes(
        databases: tuple[str, str, str], tmp_path: Path) -> None:
    kind, live, restored = databases
    dump = tmp_path / ("backup.db" if kind == "sqlite" else "backup.dump")
    server = Server(live, tmp_path / "live.log")
    try:
        server.start()
        tables = asyncio.run(_play_and_back_up(server.base, server.port, kind, live, dump))
    finally:
        server.stop()
    if kind == "sqlite":
        with pytest.raises(SystemExit) as restore:  # the command, in this process
            main(["db", "restore", str(dump), "--yes", "--database-url", restored])
        assert restore.value.code == 0
    else:
        done = subprocess.run(["pg_restore", "--no-owner", f"--dbname={_libpq(restored)}", str(dump)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
    again = Server(restored, tmp_path / "restored.log")
    try:
        again.start()
        b = again.base
        in_backup = [tid for tid, _, _ in tables if httpx.get(f"{b}/api/tables/{tid}").json()["in_progress"]]
        assert len(in_backup) >= 3, "the backup was taken mid-play: deals were in progress in it"
        for tid, game, tokens in tables:
            _finish(b, tid, game, tokens)
            audit = httpx.get(f"{b}/api/tables/{tid}/ledger").json()
            assert audit["audit"] == {"total": 0, "unbalanced_txns": [], "open_escrow_deals": []}
            house = httpx.get(f"{b}/api/tables/{tid}/settlement").json().get("house", 0) if game == "poker" else 0
            assert sum(audit["balances"].values()) + house == SEATS * START
            deals = httpx.get(f"{b}/api/tables/{tid}/deals").json()["deals"]
            assert deals and all(d["status"] in ("settled", "voided") for d in deals)
    finally:
        again.stop()
