"""Liveness notes (docs/rules.md TP-6) when several servers share one database, on SQLite and
PostgreSQL: ``fourcards serve --workers 2`` starts its processes at once on a new database."""

from __future__ import annotations

import threading
from typing import Any

from sqlalchemy import event, select

from fourcards.store import Store
from fourcards.store.models import Liveness


def test_tp6_two_servers_noting_their_first_beat_at_once_on_a_new_database_both_start(
        database_url: str) -> None:
    """Server B notes it is alive between server A's look at the empty liveness table and A's own
    note (the interleaving that, 1 start in 5, failed a worker of ``serve --workers 2`` on a
    UNIQUE constraint and so stopped the whole server). Both beats succeed: the first is a new
    database's (``None``), the second sees B's note; the row holds the later time."""
    a, b = Store(database_url), Store(database_url)
    try:
        fired: list[Any] = []

        def b_beats_first(conn, cursor, statement: str, params, context, executemany) -> None:
            if not fired and "liveness" in statement.lower() and statement.lstrip().upper().startswith(
                    ("INSERT", "UPDATE")):
                fired.append(b.beat(100.0))  # another process, in between

        event.listen(a.engine, "before_cursor_execute", b_beats_first)
        try:
            before = a.beat(101.0)
        finally:
            event.remove(a.engine, "before_cursor_execute", b_beats_first)
        assert fired == [None]  # B found a new database
        assert before == 100.0  # A saw B's note, not a new database
        with a.Session() as s:
            assert s.scalars(select(Liveness.alive_at)).all() == [101.0]
        assert b.beat(99.0) == 101.0  # an older beat never moves the note back
        assert a.beat(102.5) == 101.0
    finally:
        a.close()
        b.close()


def test_tp6_beats_from_many_threads_at_once_on_a_new_database_all_succeed(database_url: str) -> None:
    """Eight servers' first beats at once: none fails, exactly one finds a new database, and the
    note holds the latest time."""
    stores = [Store(database_url) for _ in range(8)]
    barrier = threading.Barrier(len(stores))
    out: dict[int, Any] = {}

    def beat(i: int) -> None:
        barrier.wait()
        try:
            out[i] = stores[i].beat(1000.0 + i)
        except Exception as exc:  # noqa: BLE001 - the test reports it
            out[i] = exc

    try:
        threads = [threading.Thread(target=beat, args=(i,)) for i in range(len(stores))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert not [v for v in out.values() if isinstance(v, Exception)], out
        assert list(out.values()).count(None) == 1
        with stores[0].Session() as s:
            assert s.scalars(select(Liveness.alive_at)).all() == [1007.0]
    finally:
        for st in stores:
            st.close()
