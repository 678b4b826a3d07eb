"""Issue 28 item 7 with issue 27's metrics: a bot's move chained into the commit of the command
before it (group commit, bots without a delay) is still counted as an applied ``bot_move``, and
the commits counted are still one per version of the table."""

from __future__ import annotations

import json
from typing import Any

from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import text

from fourcards.store import Store
from fourcards.web import create_app
from webhelpers import create, play_kind_deal, post

LOCAL = ("127.0.0.1", 40000)


def scrape(c: TestClient, name: str, **labels: str) -> float:
    for family in text_string_to_metric_families(c.get("/metrics").text):
        for s in family.samples:
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                return s.value
    return 0.0


def test_issue28_7_chained_bot_moves_are_counted_like_the_database_holds_them(sqlite_url: str) -> None:
    app = create_app(sqlite_url, bot_delay=0, rate_limits="off")
    with TestClient(app, client=LOCAL) as c:
        bots_before = scrape(c, "fourcards_actions_total", kind="bot_move", result="applied")
        moves_before = scrape(c, "fourcards_bot_moves_total")
        commits_before = scrape(c, "fourcards_commit_seconds_count")
        k = create(c, "kind", bots=3, turn_clock=0)
        tid, host = k["table"]["id"], k["token"]
        assert post(c, tid, "/deal", host).status_code == 200
        play_kind_deal(c, tid, {1: host})
        bots = scrape(c, "fourcards_actions_total", kind="bot_move", result="applied") - bots_before
        bot_moves = scrape(c, "fourcards_bot_moves_total") - moves_before
        commits = scrape(c, "fourcards_commit_seconds_count") - commits_before
    store = Store(sqlite_url, run_migrations=False)
    try:
        with store.engine.connect() as conn:
            records = conn.execute(text(
                "SELECT a.record FROM deal_actions a JOIN deals d ON d.id = a.deal_id JOIN players p "
                "ON p.id = a.player_id WHERE d.table_id = :t AND p.is_bot"), {"t": tid}).scalars().all()
            version = conn.execute(text("SELECT version FROM game_tables WHERE id = :t"), {"t": tid}).scalar()
    finally:
        store.close()
    in_db = sum(1 for r in records if json.loads(r)["op"] == "action")  # a bot's move: one action record
    assert in_db and bots == bot_moves == in_db
    assert commits == version  # one commit per version: the chained moves are in their command's
    assert version < in_db  # and they were chained (fewer commits than bots' moves alone)


def test_issue28_table_reads_count_a_first_use_and_another_servers_write_only(sqlite_url: str) -> None:
    """``fourcards_table_reads_total`` (docs/deploy.md): a table read whole from the database on
    its first use on a server and when another server's write made the copy stale - not on a
    read of an unchanged table, nor on the writing server's own change."""
    with TestClient(create_app(sqlite_url, bot_delay=0, rate_limits="off"), client=LOCAL) as a, \
            TestClient(create_app(sqlite_url, bot_delay=0, rate_limits="off"), client=LOCAL) as b:
        t = create(a, "poker", bots=0)
        tid, host = t["table"]["id"], t["token"]

        def reads_by(step: Any) -> float:
            before = scrape(a, "fourcards_table_reads_total")
            step()
            return scrape(a, "fourcards_table_reads_total") - before

        assert reads_by(lambda: b.get(f"/api/tables/{tid}").raise_for_status()) == 1  # B's first use
        assert reads_by(lambda: b.get(f"/api/tables/{tid}").raise_for_status()) == 0  # unchanged
        wager = {"kind": "wager", "ante": 10}
        assert reads_by(lambda: post(a, tid, "/actions", host, wager).raise_for_status()) == 0  # A's own write
        assert reads_by(lambda: b.get(f"/api/tables/{tid}").raise_for_status()) == 1  # stale at B: read again
