"""Issue 27 against a real ``fourcards serve`` (loopback only).

* Done when: a server with ``--workers 2`` on a PostgreSQL of the test's own
  (:mod:`private_postgres`); PostgreSQL stopped: ``/api/ready`` turns 503 within 2 s, and back to
  200 once it runs again; ``/metrics`` (every worker's, added up) counts the moves a scripted table
  made - equal to the database's count of them - and its commits, equal to the table's version.
* Logs (items 3 and 8): after a night's play, in text and in JSON (the form set in a ``--config``
  file), the first line names the version, every line has a request id (the trusted proxy's
  ``X-Request-ID`` kept, with its ``X-Forwarded-For`` client), and no seat token or hole card is in
  the log.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from private_postgres import PrivatePostgres
from prometheus_client.parser import text_string_to_metric_families
from servers import Server
from sqlalchemy import create_engine, text

from fourcards import __version__
from fourcards.web.routes.live import subprotocols


def _post(base: str, path: str, token: str | None, body: Any = None) -> httpx.Response:
    """POST as a page does: a 503 that says nothing changed (a database connection that broke when
    PostgreSQL restarted, dropped by the server) is tried again."""
    for _ in range(10):
        r = httpx.post(base + path, json=body if body is not None else {}, timeout=15,
                       headers={"X-Seat-Token": token} if token else {})
        if r.status_code != 503 or "nothing changed" not in r.text:
            return r
        time.sleep(0.2)
    return r


def scripted_table(base: str, rounds: int) -> dict[str, Any]:
    """A Four Card Poker table, Ann (host) and Ben, ``rounds`` rounds: both ante, Ann deals, Ann
    plays, Ben folds. Returns the table id, the tokens, the moves made and every hole card seen."""
    t = _post(base, "/api/tables", None, {"game": "poker", "host_name": "Ann", "seat_approval": False}).json()
    tid, ann = t["table"]["id"], t["token"]
    ben = _post(base, f"/api/tables/{tid}/seats", None, {"name": "Ben"}).json()["token"]
    moves, cards = 0, set()
    for _ in range(rounds):
        for token in (ann, ben):
            assert _post(base, f"/api/tables/{tid}/actions", token, {"kind": "wager", "ante": 10}).status_code == 200
            moves += 1
        assert _post(base, f"/api/tables/{tid}/deal", ann).status_code == 200
        for token, move in ((ann, {"kind": "play", "amount": 10}), (ben, {"kind": "fold"})):
            view = httpx.get(f"{base}/api/tables/{tid}/state", headers={"X-Seat-Token": token}, timeout=15).json()
            cards |= {c for seat in view["round"]["seats"] if seat.get("cards") for c in seat["cards"]}
            assert _post(base, f"/api/tables/{tid}/actions", token, move).status_code == 200
            moves += 1
    return {"id": tid, "tokens": [ann, ben], "moves": moves, "cards": cards}


def metric(base: str, name: str, **labels: str) -> float:
    body = httpx.get(base + "/metrics", timeout=15).text
    for family in text_string_to_metric_families(body):
        for s in family.samples:
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                return s.value
    return 0.0


@pytest.mark.postgres
@pytest.mark.slow
def test_issue27_done_when_ready_follows_postgresql_and_metrics_count_what_the_database_holds(tmp_path: Path) -> None:
    pg = PrivatePostgres()
    pg.start()
    server = Server(pg.url, tmp_path / "serve.log", "--host", "127.0.0.1", "--workers", "2", log_level="warning")
    try:
        server.start()
        base = server.base
        assert httpx.get(base + "/api/ready", timeout=5).status_code == 200
        played = scripted_table(base, rounds=3)
        engine = create_engine(pg.url)
        try:
            with engine.connect() as conn:
                in_db = conn.execute(text(
                    "SELECT count(*) FROM deal_actions a JOIN deals d ON d.id = a.deal_id "
                    "WHERE d.table_id = :t AND a.player_id IS NOT NULL"), {"t": played["id"]}).scalar()
                version = conn.execute(text("SELECT version FROM game_tables WHERE id = :t"),
                                       {"t": played["id"]}).scalar()
        finally:
            engine.dispose()
        # every worker's counts, added up, whichever worker answers the scrape
        assert metric(base, "fourcards_actions_total", kind="act", result="applied") == in_db == played["moves"] == 12
        assert metric(base, "fourcards_commit_seconds_count") == version
        assert metric(base, "fourcards_actions_total", kind="start_deal", result="applied") == 3

        pg.stop()
        stopped = time.monotonic()
        while True:
            status = httpx.get(base + "/api/ready", timeout=5).status_code
            waited = time.monotonic() - stopped
            if status == 503 or waited > 10:
                break
            time.sleep(0.05)
        assert status == 503 and waited < 2.0, waited
        assert httpx.get(base + "/api/health", timeout=5).status_code == 200  # alive, not ready
        pg.start()
        deadline = time.monotonic() + 30
        while httpx.get(base + "/api/ready", timeout=5).status_code != 200:
            assert time.monotonic() < deadline, "not ready again after PostgreSQL came back"
            time.sleep(0.1)
        more = scripted_table(base, rounds=1)  # and it plays again
        assert metric(base, "fourcards_actions_total", kind="act", result="applied") == 12 + more["moves"]
    finally:
        server.stop()
        pg.remove()


TOKEN_LIKE = re.compile(r"[A-Za-z0-9_-]{32,}")


@pytest.mark.parametrize("form", ["text", "json"])
def test_issue27_3_the_log_has_the_version_first_a_request_id_on_every_line_and_no_token_or_hole_card(
        tmp_path: Path, form: str) -> None:
    from websockets.sync.client import connect

    extra = ["--host", "127.0.0.1", "--forwarded-allow-ips", "127.0.0.1"]
    if form == "json":  # the form from a config file (issue 27 item 4)
        (tmp_path / "fourcards.toml").write_text('log_format = "json"\nrate_limits = "off"\n')
        extra += ["--config", str(tmp_path / "fourcards.toml")]
    server = Server(f"sqlite:///{tmp_path / 'fourcards.db'}", tmp_path / "serve.log", *extra, log_level="info")
    server.start()
    try:
        base = server.base
        played = scripted_table(base, rounds=2)
        tid, (ann, ben) = played["id"], played["tokens"]
        ws_base = base.replace("http://", "ws://") + f"/ws/tables/{tid}"
        with connect(ws_base, subprotocols=subprotocols(ann), open_timeout=10) as ws:  # type: ignore[arg-type]
            assert json.loads(ws.recv(timeout=10))["type"] == "state"
            assert ws.response.headers["X-Request-ID"]  # the handshake's answer has one too
        with connect(f"{ws_base}?token={ben}", open_timeout=10) as ws:  # an old page's form, redacted
            ws.recv(timeout=10)
        tokens = [*played["tokens"], _post(base, f"/api/tables/{tid}/seats/2/new-device", ann).json()["token"]]
        r = httpx.get(f"{base}/api/tables/{tid}/hands.jsonl", timeout=15,
                      headers={"X-Request-ID": "lb-7f3a", "X-Forwarded-For": "198.51.100.23", "X-Seat-Token": ann})
        assert r.status_code == 200 and r.headers["x-request-id"] == "lb-7f3a"
        ids = {httpx.get(base + path, timeout=15).headers["x-request-id"] for path in ("/", "/api/health", "/nope")}
    finally:
        server.stop()
    log = server.log.read_text()
    lines = [line for line in log.splitlines() if line.strip()]
    assert [t for t in tokens if t in log] == []
    hole = sorted(c for c in played["cards"] if re.search(rf"(?<![A-Za-z0-9]){re.escape(c)}(?![A-Za-z0-9])", log))
    assert hole == [], hole
    if form == "json":
        records = [json.loads(line) for line in lines]  # every line one JSON object
        assert records[0]["version"] == __version__ and f"fourcards {__version__}" in records[0]["message"]
        assert all("request_id" in r and r["time"] and r["level"] for r in records)
        access = [r for r in records if r["logger"] == "uvicorn.access"]
        assert access and all(re.fullmatch(r"[0-9a-f]{32}|lb-7f3a", r["request_id"]) for r in access)
        [proxied] = [r for r in access if r["request_id"] == "lb-7f3a"]
        assert proxied["client"].startswith("198.51.100.23") and proxied["status"] == 200
        assert ids <= {r["request_id"] for r in access}
    else:
        assert re.match(rf"INFO: +\[-\] fourcards {re.escape(__version__)} starting", lines[0]), lines[0]
        assert all(re.match(r"[A-Z]+: +\[([0-9a-f]{32}|lb-7f3a|-)\] ", line) for line in lines), \
            [x for x in lines if not re.match(r"[A-Z]+: +\[", x)][:3]
        [proxied] = [line for line in lines if "[lb-7f3a]" in line]
        assert "198.51.100.23" in proxied and "hands.jsonl" in proxied
        assert all(any(f"[{i}]" in line for line in lines) for i in ids)
        assert "token=[redacted]" in log
