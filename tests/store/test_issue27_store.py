"""Issue 27 items 5 and 6 in the store and the command line, on SQLite and PostgreSQL: the audit
log's hash chain and its check, admin users (argon2id), schema revisions up and down, SQLite's
backup and restore, ``synchronous=FULL``."""

from __future__ import annotations

import io
import json
import sqlite3
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import delete, inspect, text, update

from fourcards.cli import main
from fourcards.store import NewPlayer, Store, StoreError, TableCommit, downgrade, migrate
from fourcards.store.admins import AdminUsers
from fourcards.store.audit import GENESIS, AuditLog, link_hash
from fourcards.store.lifecycle import backup, current_revision, head_revision, restore, revisions
from fourcards.store.models import AuditRow, GameTable, Liveness


@pytest.fixture
def store(database_url: str):
    s = Store(database_url)
    yield s
    s.close()


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``fourcards ARGV`` in this process: (exit status, stdout, stderr)."""
    with pytest.raises(SystemExit) as exit_:
        main(list(argv))
    out = capsys.readouterr()
    return int(exit_.value.code or 0), out.out, out.err


def _chain(store: Store, n: int) -> AuditLog:
    log = AuditLog(store)
    for i in range(n):
        log.append("admin:root", "close_table", f"t{i}", {"reason": f"r{i}", "ünïcode": "♠"})
    return log


def test_issue27_6_audit_rows_are_hash_chained_and_the_check_names_the_first_broken_link(
        store: Store, database_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    log = _chain(store, 5)
    rows = log.entries()
    assert [r.seq for r in rows] == [1, 2, 3, 4, 5] and rows[0].prev_hash == GENESIS
    assert all(b.prev_hash == a.hash for a, b in zip(rows, rows[1:]))
    ok = log.verify(batch=2)  # across batches
    assert ok.ok and ok.rows == 5 and (ok.head_seq, ok.head_hash) == (5, rows[-1].hash)
    code, out, _ = run_cli(capsys, "admin", "verify-audit", "--database-url", database_url)
    assert code == 0 and f"head row 5 hash {rows[-1].hash}" in out

    with store.Session.begin() as s:  # someone edits row 3's details in the database
        s.execute(update(AuditRow).where(AuditRow.seq == 3).values(details='{"reason":"nothing happened"}'))
    bad = log.verify(batch=2)
    assert (bad.broken_seq, bad.rows) == (3, 2) and "row 3 was changed" in (bad.problem or "")
    code, _, err = run_cli(capsys, "admin", "verify-audit", "--database-url", database_url)
    assert code == 1 and "broken at row 3: row 3 was changed after it was written" in err
    code, out, _ = run_cli(capsys, "admin", "verify-audit", "--json", "--database-url", database_url)
    assert code == 1 and json.loads(out)["broken_seq"] == 3

    with store.Session.begin() as s:  # ... and rehashes it: the next link breaks
        r = s.get(AuditRow, 3)
        assert r is not None
        r.hash = link_hash(3, r.at, r.actor, r.action, r.target, r.details, r.prev_hash)
    bad = log.verify()
    assert bad.broken_seq == 4 and "row 4 does not follow row 3" in (bad.problem or "")
    with store.Session.begin() as s:  # a row deleted
        s.execute(delete(AuditRow).where(AuditRow.seq == 2))
    assert log.verify().broken_seq == 2 and "row 2 is missing" in (log.verify().problem or "")


def test_issue27_6_audit_appends_from_many_threads_make_one_chain(store: Store) -> None:
    log = AuditLog(store)
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            for j in range(6):
                log.append(f"admin:{i}", "read_ledger", f"t{j}")
        except BaseException as exc:  # pragma: no cover - shown below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    check = log.verify()
    assert check.ok and check.rows == 36 and log.count() == 36


def test_issue27_6_create_user_hashes_with_argon2id_and_records_it(
        store: Store, database_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("correct horse battery\n"))
    code, out, _ = run_cli(capsys, "admin", "create-user", "Ann", "--password-stdin", "--database-url", database_url)
    assert code == 0 and "'Ann' created, role admin" in out
    users = AdminUsers(store)
    with store.Session() as s:
        stored = s.execute(text("SELECT password_hash FROM admin_users")).scalar_one()
    assert stored.startswith("$argon2id$") and "correct horse" not in stored
    assert users.authenticate("ann", "correct horse battery") == users.get("Ann")
    assert users.authenticate("Ann", "correct horse batterY") is None and users.authenticate("Bob", "x" * 20) is None
    viewer = users.create("Vic", "another long password", "viewer", "admin:Ann")
    assert viewer.role == "viewer" and [u.name for u in users.list()] == ["Ann", "Vic"]
    for name, password, role, problem in (("ANN", "long enough password", "admin", "already exists"),
                                          ("Bo", "short", "admin", "12 to 1024 characters"),
                                          ("Bo", "long enough password", "root", "unknown role"),
                                          ("Bo\u202e", "long enough password", "admin", "user name")):
        with pytest.raises(StoreError, match=problem):
            users.create(name, password, role, "admin:Ann")
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, _, err = run_cli(capsys, "admin", "create-user", "Cy", "--database-url", database_url)
    assert code == 2 and "--password-stdin" in err  # no terminal to ask on
    log = AuditLog(store).entries()
    assert [(e.actor.startswith("cli:"), e.action, e.target, e.details) for e in log] == \
        [(True, "create_user", "Ann", {"role": "admin"}), (False, "create_user", "Vic", {"role": "viewer"})]


def test_issue27_5_db_commands_go_down_and_up_between_revisions(database_url: str,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "db", "current", "--database-url", database_url)
    assert (code, err) == (0, "") and "revision none" in out
    code, out, _ = run_cli(capsys, "db", "upgrade", "0006", "--database-url", database_url)
    assert code == 0 and "none -> 0006" in out
    store = Store(database_url, run_migrations=False)
    try:
        store.engine.dispose()
        assert "server_runs" in inspect(store.engine).get_table_names()
        with store.engine.begin() as conn:  # a table of before 0007: its last write is found from its log
            conn.execute(text("INSERT INTO game_tables (id, game, name, rules, settings, status, public, created_at, "
                              "version) VALUES ('old', 'kind', 'Old', '{}', '{}', 'closed', false, :t, 3)"),
                         {"t": "2026-01-01 10:00:00+00:00"})
            conn.execute(text("INSERT INTO table_log (table_id, line, created_at) VALUES ('old', 'x', :t)"),
                         {"t": "2026-01-02 10:00:00+00:00"})
        code, out, _ = run_cli(capsys, "db", "upgrade", "0007", "--database-url", database_url)
        assert code == 0 and "0006 -> 0007" in out
        store.engine.dispose()
        names = set(inspect(store.engine).get_table_names())
        assert "server_runs" not in names and {"admin_users", "audit_log", "club_bans"} <= names
        with store.Session() as s:
            assert s.get(GameTable, "old").active_at == pytest.approx(1767348000.0)  # type: ignore[union-attr]
        code, out, _ = run_cli(capsys, "db", "upgrade", "--database-url", database_url)  # 0008: part B's sessions
        assert code == 0 and "0007 -> 0008" in out
        code, out, _ = run_cli(capsys, "db", "history", "--database-url", database_url)
        assert [line.split()[0] for line in out.splitlines()] == [r.id for r in revisions()]
        assert out.splitlines()[-1].endswith("<- the database") and head_revision() == "0008"
        code, out, _ = run_cli(capsys, "db", "downgrade", "--yes", "--database-url", database_url, "--", "-1")
        assert code == 0 and "0008 -> 0007" in out and current_revision(store.engine) == "0007"
        code, out, _ = run_cli(capsys, "db", "downgrade", "--yes", "--database-url", database_url, "--", "-1")
        assert code == 0 and "0007 -> 0006" in out and current_revision(store.engine) == "0006"
        migrate(store.engine)
        downgrade(store.engine, "0006")
        migrate(store.engine)
        assert current_revision(store.engine) == "0008"
    finally:
        store.close()
    code, _, err = run_cli(capsys, "db", "downgrade", "0099", "--yes", "--database-url", database_url)
    assert code == 2 and "0099" in err


def test_issue27_5_backup_and_restore_say_what_to_use_on_postgresql(capsys: pytest.CaptureFixture[str]) -> None:
    url = "postgresql+psycopg://fourcards:s3cret@db.example.org/fourcards"
    for argv in (("db", "backup", "x.db"), ("db", "restore", "x.db", "--yes")):
        code, _, err = run_cli(capsys, *argv, "--database-url", url)
        assert code == 2 and "pg_dump --format=custom" in err and "pg_restore" in err and "s3cret" not in err
        assert "'postgresql://fourcards@db.example.org/fourcards'" in err and "docs/deploy.md" in err
    code, _, err = run_cli(capsys, "db", "current", "--database-url", "postgresql+psycopg://fc:s3cret@127.0.0.1:1/x")
    assert code == 2 and err.startswith("error: cannot open the database") and "s3cret" not in err
    assert len(err.strip().splitlines()) == 1


def _table(store: Store, tid: str) -> None:
    store.create_table(tid, "kind", tid, {}, {})
    store.commit_table(TableCommit(tid, 0, {}, None, [NewPlayer(1, "Ann", tid.ljust(64, "a"), 100, is_host=True)]))


def test_issue27_5_a_sqlite_backup_holds_what_is_still_in_the_write_ahead_log(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'live.db'}"
    store = Store(url)
    try:
        with store.engine.connect() as conn:  # no checkpoint: the commits below stay in the -wal file
            conn.exec_driver_sql("PRAGMA wal_autocheckpoint=0")
            for i in range(5):
                _table(store, f"t{i}")
            copied = tmp_path / "copied.db"
            copied.write_bytes((tmp_path / "live.db").read_bytes())  # what `cp` does
            code, out, _ = run_cli(capsys, "db", "backup", str(tmp_path / "b.db"), "--json", "--database-url", url)
            assert code == 0 and json.loads(out)["tables"] == 5
        with sqlite3.connect(copied) as c:
            try:
                plain = c.execute("SELECT count(*) FROM game_tables").fetchone()[0]
            except sqlite3.OperationalError:  # even the schema is still in the log
                plain = 0
        assert plain < 5, "the plain copy misses the write-ahead log (the reason for the backup API)"
        assert not (tmp_path / "b.db-wal").exists()  # one self-contained file
        with store.Session.begin() as s:  # a server is alive on the database: restore refuses
            s.merge(Liveness(id=1, alive_at=time.time()))
        with pytest.raises(StoreError, match="stop every server"):
            restore(tmp_path / "b.db", url)
        _table(store, "later")
    finally:
        store.close()
    report = restore(tmp_path / "b.db", url, force=True)
    assert (report.revision, report.tables) == (head_revision(), 5)
    store = Store(url)
    try:
        assert sorted(store.table_versions()) == [f"t{i}" for i in range(5)]  # "later" is not in the backup
        assert store.ledger_check() == {"total": 0, "unbalanced_txns": [], "open_escrow_deals": []}
    finally:
        store.close()
    restore(tmp_path / "b.db", f"sqlite:///{tmp_path / 'new' / 'fresh.db'}")  # into a new file
    (tmp_path / "junk.db").write_bytes(b"not a database" * 100)
    with pytest.raises(StoreError, match="not a SQLite database"):
        restore(tmp_path / "junk.db", url)
    sqlite3.connect(tmp_path / "other.db").execute("CREATE TABLE x (y)").connection.commit()
    with pytest.raises(StoreError, match="not a fourcards database"):
        restore(tmp_path / "other.db", url)
    with pytest.raises(StoreError, match="no SQLite database"):
        backup(f"sqlite:///{tmp_path / 'none.db'}", tmp_path / "x.db")


def test_issue27_5_sqlite_commits_with_synchronous_full(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'f.db'}")
    try:
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
        raw = store._sqlite_connection()  # the connection moves are written on
        assert raw.execute("PRAGMA synchronous").fetchone()[0] == 2
    finally:
        store.close()
