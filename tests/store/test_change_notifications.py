"""Change notifications between servers (docs/web.md, "Changes elsewhere" and "Due work"): each
PostgreSQL write tells the other servers the table's due time after it, so a server's due-work
loop looks at the database at once only when that time comes before its own next look. With
``--workers 2`` every action of one process used to make the other look (issue 28 item 7)."""

from __future__ import annotations

import math
import time
import uuid
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from dbtesting import database_url_for
from fourcards.store import (
    CHANGES_CHANNEL,
    DUE_UNTOLD,
    NewPlayer,
    Store,
    TableCommit,
    change_payload,
    parse_change,
)
from fourcards.web.due import DueWork
from fourcards.web.notify import Notifications


def test_a_change_payload_carries_the_due_time_and_reads_back() -> None:
    assert change_payload("t1", 7, "srv-a", 1796240000.25) == "t1 7 srv-a 1796240000.25"
    assert parse_change(change_payload("t1", 7, "srv-a", 1796240000.25)) == ("t1", 7, "srv-a", 1796240000.25)
    assert change_payload("t1", 8, "srv-a", None) == "t1 8 srv-a -"
    assert parse_change("t1 8 srv-a -") == ("t1", 8, "srv-a", None)


@pytest.mark.parametrize("payload", ["t1 7 srv-a", "t1 7 retention", "t1 7", "t1 7 srv-a soon", "t1 7 srv-a nan"])
def test_a_change_payload_that_does_not_tell_its_due_time_reads_as_untold(payload: str) -> None:
    """Older servers send three fields and the retention job names no server: untold, which
    makes a listener look at once (as every notification did before the field)."""
    tid, version, _, due = parse_change(payload)
    assert (tid, version) == ("t1", 7)
    assert due == DUE_UNTOLD and math.isinf(due)


def test_a_change_payload_with_a_broken_version_is_refused() -> None:
    with pytest.raises(ValueError):
        parse_change("t1 seven srv-a -")


def _due_work() -> DueWork:
    execution = SimpleNamespace(repo=None, bot_delay=0.0)
    return DueWork(execution=execution, store=lambda: None, run_db=None, spawn=None)  # type: ignore[arg-type]


def test_a_heard_change_wakes_the_due_loop_only_when_its_due_time_comes_before_the_loops_next_look() -> None:
    due = _due_work()
    now = time.time()
    due._sleep_until = now + 1.0  # the loop looks again by itself in 1 s
    for heard, wakes in ((now + 30.0, False),  # a turn clock 30 s away: nothing to do before the next look
                         (None, False),  # nothing due at that table
                         (now + 0.2, True),  # a bot's move in 0.2 s
                         (DUE_UNTOLD, True)):  # an older server's notification: look now
        due._wake.clear()
        due.due_set(heard)
        assert due._wake.is_set() is wakes, heard


def test_the_listener_hands_the_heard_due_time_to_the_due_loop() -> None:
    """``Notifications`` passes each heard change's due time on (the hub gives it the due loop's
    ``due_set``), after marking the table's copy stale."""
    told: list[Any] = []
    changed: list[tuple[str, int]] = []
    n = Notifications(repo=None, publisher=None, store=lambda: None, run_db=None, spawn=None,  # type: ignore[arg-type]
                      latest=None, origin="srv-b", heard=told.append)  # type: ignore[arg-type]
    n.changed = lambda tid, version: changed.append((tid, version))  # type: ignore[method-assign]
    for payload in ("t1 4 srv-a 1796240000.5", "t1 5 srv-a -", "t1 6 retention"):
        tid, version, _, due = parse_change(payload)
        n._heard(tid, version, due)
    assert changed == [("t1", 4), ("t1", 5), ("t1", 6)]
    assert told == [1796240000.5, None, DUE_UNTOLD]


@pytest.fixture(params=["postgresql"])
def postgres_url(request: pytest.FixtureRequest, tmp_path) -> Iterator[str]:
    """A fresh PostgreSQL schema (NOTIFY is PostgreSQL's: SQLite servers poll the versions)."""
    yield from database_url_for(request.param, tmp_path)


def test_each_postgresql_write_notifies_the_tables_due_time_after_it(postgres_url: str) -> None:
    """Every write path sends the due time it wrote: a change with a new player (SQLAlchemy), a
    move (the one-statement fast path) and a group commit of two tables (pipelined)."""
    import psycopg

    store = Store(postgres_url)
    a, b = f"n{uuid.uuid4().hex[:10]}", f"n{uuid.uuid4().hex[:10]}"
    try:
        for tid in (a, b):
            store.create_table(tid, "poker", "test", {"name": "live"}, {"starting_chips": 100})
        conninfo = store.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        with psycopg.connect(conninfo, autocommit=True) as listener:
            listener.execute(f"LISTEN {CHANGES_CHANNEL}")
            store.commit_table(TableCommit(a, 0, {"log": []}, 1796240000.5,
                                           [NewPlayer(1, "Ann", "a" * 64, 100, is_host=True)], origin="srv-a"))
            store.commit_table(TableCommit(a, 1, {"log": []}, None, [], origin="srv-a"))
            results = store.commit_tables([TableCommit(a, 2, {"log": []}, 1796240123.0, [], origin="srv-a"),
                                           TableCommit(b, 0, {"log": []}, None, [], origin="srv-a")])
            assert [r.version for r in results] == [3, 1]  # type: ignore[union-attr]
            heard: list[tuple[str, int, str, float | None]] = []
            deadline = time.monotonic() + 10
            while len(heard) < 4 and time.monotonic() < deadline:
                for note in listener.notifies(timeout=0.5, stop_after=4 - len(heard)):
                    change = parse_change(note.payload)
                    if change[0] in (a, b):
                        heard.append(change)
        assert sorted(heard, key=lambda c: (c[0] != a, c[1])) == [
            (a, 1, "srv-a", 1796240000.5), (a, 2, "srv-a", None), (a, 3, "srv-a", 1796240123.0),
            (b, 1, "srv-a", None)]
    finally:
        store.close()
