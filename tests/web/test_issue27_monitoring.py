"""Issue 27 items 1-3 and 5 in the app (a real server and PostgreSQL stopped under it:
test_issue27_serve.py): /api/ready at the current schema and behind it, /metrics counting commands
and read by monitoring only, a request id on every response, the retention setting pruning old
closed tables one server at a time."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import text, update

from fourcards import __version__
from fourcards.store import Store
from fourcards.store.audit import AuditLog
from fourcards.store.lifecycle import head_revision
from fourcards.store.models import GameTable
from fourcards.web import create_app, metrics
from fourcards.web import retention as web_retention
from fourcards.web.routes import ops
from webhelpers import create, post, sit, ws_connect

LOCAL = ("127.0.0.1", 40000)
TOKEN = "metrics-token-0123456789"


def samples(text_: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a Prometheus exposition: (name, sorted labels) -> value."""
    out = {}
    for family in text_string_to_metric_families(text_):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def value(got: dict[Any, float], name: str, **labels: str) -> float:
    return got.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture
def no_ready_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ops, "READY_CACHE_S", 0.0)


def test_issue27_1_ready_is_200_at_the_current_schema_and_503_behind_it(database_url: str, no_ready_cache) -> None:
    with TestClient(create_app(database_url, bot_delay=0, rate_limits="off")) as c:
        r = c.get("/api/ready")
        assert r.status_code == 200 and r.json()["status"] == "ready" and r.json()["version"] == __version__
        assert r.headers["cache-control"] == "no-store"
        assert c.get("/api/health").json()["version"] == __version__
        store = Store(database_url, run_migrations=False)
        try:
            with store.engine.begin() as conn:  # the schema is behind this version (an upgrade not run)
                conn.execute(text("UPDATE alembic_version SET version_num = '0007'"))
            r = c.get("/api/ready")
            assert r.status_code == 503 and r.json()["status"] == "not ready"
            assert "0007" in r.json()["detail"] and "fourcards db upgrade" in r.json()["detail"]
            assert c.get("/api/health").status_code == 200  # alive all the same
            with store.engine.begin() as conn:
                conn.execute(text("UPDATE alembic_version SET version_num = :v"), {"v": head_revision()})
            assert c.get("/api/ready").status_code == 200
        finally:
            store.close()


def test_issue27_2_metrics_count_actions_refusals_commits_and_websockets(sqlite_url: str,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(metrics, "DB_CACHE_S", 0.0)  # the database's figures read at every scrape
    app = create_app(sqlite_url, bot_delay=0, rate_limits="off")
    with TestClient(app, client=LOCAL) as c:
        before = samples(c.get("/metrics").text)
        t = create(c, "poker", host_name="Ann")
        tid, ann = t["table"]["id"], t["token"]
        ben = sit(c, tid, "Ben")["token"]
        with ws_connect(c, tid, ben) as ws:
            ws.receive_json()
            during = samples(c.get("/metrics").text)
            assert value(during, "fourcards_websockets_open") == value(before, "fourcards_websockets_open") + 1
            for token in (ann, ben):
                assert post(c, tid, "/actions", token, {"kind": "wager", "ante": 10}).status_code == 200
            assert post(c, tid, "/deal", ann).status_code == 200
            refused = post(c, tid, "/deal", ben)  # only the host deals
            assert refused.status_code == 403
        after_text = c.get("/metrics").text
        after = samples(after_text)

    def delta(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert delta("fourcards_actions_total", kind="act", result="applied") == 2
    assert delta("fourcards_actions_total", kind="start_deal", result="applied") == 1
    assert delta("fourcards_actions_total", kind="start_deal", result="refused") == 1
    assert delta("fourcards_actions_total", kind="sit", result="applied") == 1  # the host's seat
    assert delta("fourcards_actions_total", kind="join", result="applied") == 1
    commits = int(delta("fourcards_commit_seconds_count"))
    store = Store(sqlite_url, run_migrations=False)
    try:
        with store.Session() as s:
            version = s.get(GameTable, tid).version  # type: ignore[union-attr]
    finally:
        store.close()
    assert commits == version  # one commit per version of the table
    assert delta("fourcards_action_seconds_count") == 6
    assert delta("fourcards_http_responses_total", code="4xx") >= 1 and delta("fourcards_views_pushed_total") >= 1
    assert value(after, "fourcards_websockets_open") == value(before, "fourcards_websockets_open")
    assert value(after, "fourcards_tables_in_play") >= 1 and value(after, "fourcards_tables_live") >= 1
    assert value(after, "fourcards_build_info", version=__version__) == 1
    assert tid not in after_text and "Ann" not in after_text  # no table id or name in any series


def test_issue27_2_metrics_are_read_from_loopback_allowed_addresses_or_with_the_token(sqlite_url: str) -> None:
    app = create_app(sqlite_url, bot_delay=0, rate_limits="off", forwarded_allow_ips="10.0.0.2",
                     metrics_allow_ips="192.0.2.0/24", metrics_token=TOKEN)
    with TestClient(app, client=LOCAL) as c:
        assert c.get("/metrics").status_code == 200 and c.get("/metrics").headers["content-type"].startswith("text/plain")
        # a proxy on this machine that is not trusted passes a browser's request on: refused
        assert c.get("/metrics", headers={"X-Forwarded-For": "203.0.113.9"}).status_code == 403
    for client, headers, status in (
            (("203.0.113.9", 1), {}, 403),  # anybody on the internet
            (("203.0.113.9", 1), {"Authorization": f"Bearer {TOKEN}"}, 200),
            (("203.0.113.9", 1), {"Authorization": "Bearer not-the-token-at-all"}, 403),
            (("192.0.2.7", 1), {}, 200),  # --metrics-allow-ips: the Prometheus
            (("10.0.0.2", 1), {}, 200),  # the trusted proxy itself
            (("10.0.0.2", 1), {"X-Forwarded-For": "203.0.113.9"}, 403),  # a browser through the trusted proxy
            (("10.0.0.2", 1), {"X-Forwarded-For": "192.0.2.7"}, 200)):
        with TestClient(app, client=client) as c:
            assert c.get("/metrics", headers=headers).status_code == status, (client, headers)


def test_issue27_3_every_response_carries_a_request_id_taken_only_from_a_trusted_proxy(sqlite_url: str) -> None:
    app = create_app(sqlite_url, bot_delay=0, rate_limits="tables=1/600", forwarded_allow_ips="10.0.0.2")
    with TestClient(app, client=("10.0.0.2", 1)) as proxy:
        assert proxy.get("/api/health", headers={"X-Request-ID": "lb-42.a_b:c"}).headers["x-request-id"] == "lb-42.a_b:c"
        made = proxy.get("/api/health", headers={"X-Request-ID": "x" * 65}).headers["x-request-id"]  # too long
        assert re.fullmatch(r"[0-9a-f]{32}", made)
    with TestClient(app, client=("203.0.113.9", 1)) as c:
        ids = set()
        for path in ("/", "/api/health", "/api/tables/nosuchtb", "/static/app.css"):
            r = c.get(path, headers={"X-Request-ID": "chosen-by-a-client"})
            assert re.fullmatch(r"[0-9a-f]{32}", r.headers["x-request-id"]), path
            ids.add(r.headers["x-request-id"])
        assert len(ids) == 4
        create(c)
        limited = c.post("/api/tables", json={"game": "poker", "host_name": "Ann"})
        assert limited.status_code == 429 and "x-request-id" in limited.headers
        big = c.post("/api/tables", content=b"x" * 70_000, headers={"Content-Type": "application/json"})
        assert big.status_code == 413 and "x-request-id" in big.headers


@pytest.fixture
def quick_retention(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(web_retention, "BATCH", 1)  # two batches for two tables
    yield


def test_issue27_5_the_retention_setting_prunes_old_closed_tables_one_server_at_a_time(database_url: str,
                                                                                      quick_retention) -> None:
    with pytest.raises(ValueError, match="at least a day"):
        create_app(database_url, retention="12h")
    app = create_app(database_url, bot_delay=0, rate_limits="off", retention="1d", retention_every_s=0.2)
    store = Store(database_url, run_migrations=False)
    try:
        with TestClient(app, client=LOCAL) as c:
            before = samples(c.get("/metrics").text)
            ids = []
            for name in ("Old one", "Old two", "Recent"):
                t = create(c, "kind", bots=3, host_name="Ann", name=name)
                tid = t["table"]["id"]
                assert post(c, tid, "/deal", t["token"]).status_code == 200
                assert post(c, tid, "/close", t["token"]).status_code == 200
                ids.append(tid)
            with store.Session.begin() as s:
                s.execute(update(GameTable).where(GameTable.id.in_(ids[:2])).values(active_at=time.time() - 2 * 86400))
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                with store.Session() as s:
                    pruned = {t.id: t.pruned_at for t in s.query(GameTable).filter(GameTable.id.in_(ids))}
                if all(pruned[i] for i in ids[:2]):
                    break
                time.sleep(0.1)
            assert all(pruned[i] for i in ids[:2]) and pruned[ids[2]] is None
            assert c.get(f"/api/tables/{ids[0]}").json()["status"] == "closed"  # the table still opens
            after = samples(c.get("/metrics").text)
        assert value(after, "fourcards_retention_pruned_tables_total") - \
            value(before, "fourcards_retention_pruned_tables_total") == 2
        assert value(after, "fourcards_retention_runs_total", result="pruned") > \
            value(before, "fourcards_retention_runs_total", result="pruned")
        rows = AuditLog(store).entries(action="prune")
        assert rows and {r.actor for r in rows} == {"retention"} and sum(r.details["tables"] for r in rows) == 2

        class Server:  # two servers on the database: one runs, the other finds the lease held
            def __init__(self, origin: str) -> None:
                self.origin = origin

            def require_store(self) -> Store:
                return store

        time.sleep(0.3)  # the app's own lease (0.2 s) runs out
        first = web_retention.Retention(Server("server-a"), 86400.0, every_s=600)
        second = web_retention.Retention(Server("server-b"), 86400.0, every_s=600)
        assert first.once() == "nothing" and second.once() == "skipped" and first.once() == "nothing"
    finally:
        store.close()
