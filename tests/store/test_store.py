"""The store: migrations, the double-entry ledger, restart voiding - on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from fourcards.store import (
    CommitResult,
    DealClose,
    DealOpen,
    DealWrite,
    Entry,
    NewPlayer,
    SeatChange,
    Store,
    StoreError,
    TableCommit,
    VersionConflict,
)
from fourcards.store.models import Base


def test_migrations_match_the_models(database_url: str) -> None:
    store = Store(database_url)
    try:
        with store.engine.connect() as conn:
            ctx = MigrationContext.configure(conn, opts={"compare_type": False})
            diffs = compare_metadata(ctx, Base.metadata)
        assert diffs == []
        names = set(inspect(store.engine).get_table_names())
        assert {"game_tables", "players", "deals", "deal_actions", "ledger_entries", "alembic_version"} <= names
    finally:
        store.close()


def test_migrate_twice_is_a_no_op(database_url: str) -> None:
    Store(database_url).close()
    store = Store(database_url)  # already at head
    assert store.table_versions() == {} and store.load_table("t1") is None
    store.close()


@pytest.fixture
def store(database_url: str):
    s = Store(database_url)
    yield s
    s.close()


def _commit(store: Store, *parts: DealWrite | NewPlayer) -> CommitResult:
    """One change of table t1, against the version it has now."""
    row = store.load_table("t1")
    assert row is not None
    return store.commit_table(TableCommit("t1", row.version, row.state, None, list(parts)))


def _table(store: Store) -> tuple[int, int]:
    store.create_table("t1", "poker", "test", {"name": "live"}, {"starting_chips": 100})
    [a] = _commit(store, NewPlayer(1, "Ann", "a" * 64, 100, is_host=True)).player_ids
    [b] = _commit(store, NewPlayer(2, "Bob", "b" * 64, 100)).player_ids
    return a, b


def test_buy_in_and_balances(store: Store) -> None:
    a, b = _table(store)
    assert store.balances("t1") == {a: 100, b: 100}
    row = store.load_table("t1")
    assert row is not None and row.version == 2  # each write bumped the version
    assert [(p.name, p.balance, p.is_host) for p in row.players] == [("Ann", 100, True), ("Bob", 100, False)]
    assert store.ledger_check() == {"total": 0, "unbalanced_txns": [], "open_escrow_deals": []}


def test_unbalanced_write_is_refused_and_changes_nothing(store: Store) -> None:
    a, _ = _table(store)
    before = store.ledger("t1")
    with pytest.raises(StoreError, match="unbalanced"):
        _commit(store, DealWrite("t1", open=DealOpen(1, {}, {}), records=[{"kind": "x"}],
                                 entries=[Entry("player", -10, a), Entry("bets", 9)]))
    with pytest.raises(StoreError, match="account"):
        _commit(store, DealWrite("t1", open=DealOpen(1, {}, {}), entries=[Entry("nowhere", 0)]))
    assert store.ledger("t1") == before
    assert store.list_deals("t1") == []


def test_a_settled_deal_balances(store: Store) -> None:
    a, b = _table(store)
    did = _commit(store, DealWrite("t1", open=DealOpen(1, {"1": a, "2": b}, {}), seq=0, player_id=a,
                                   records=[{"kind": "place_wagers"}],
                                   entries=[Entry("player", -10, a), Entry("bets", 10)])).deal_id
    _commit(store, DealWrite("t1", deal_id=did, seq=1, records=[{"kind": "play"}],
                             entries=[Entry("bets", -10), Entry("player", 30, a), Entry("house", -20)],
                             close=DealClose("settled", {"net": 20})))
    assert store.balances("t1") == {a: 120, b: 100}
    d = store.get_deal("t1", 1)
    assert d is not None and d["status"] == "settled" and [r["kind"] for r in d["history"]] == ["place_wagers", "play"]
    assert store.ledger_check("t1") == {"total": 0, "unbalanced_txns": [], "open_escrow_deals": []}


def test_issue12_a_table_write_is_one_transaction_against_the_version(store: Store) -> None:
    """A change commits only against the version it was computed from: a stale one
    (another server wrote first) is refused whole - no record, no entry, no state."""
    a, b = _table(store)
    row = store.load_table("t1")
    assert row is not None and row.deal is None and row.state is None
    res = store.commit_table(TableCommit("t1", row.version, {"log": ["Deal 1 starts"]}, 123.0, [
        DealWrite("t1", open=DealOpen(1, {"0": a, "1": b}, {}), records=[{"op": "start"}],
                  entries=[Entry("player", -5, a), Entry("player", -5, b), Entry("pot", 10)]),
        DealWrite("t1", seq=1, records=[{"op": "action"}], entries=[Entry("player", -7, a), Entry("pot", 7)]),
        SeatChange("t1", players={b: {"status": "sitting_out"}})]))
    assert res.version == row.version + 1 and res.deal_id is not None
    with pytest.raises(VersionConflict):  # computed from the old version: nothing written
        store.commit_table(TableCommit("t1", row.version, {"log": ["lost"]}, None, [
            DealWrite("t1", seq=2, records=[{"op": "action"}], entries=[Entry("player", -1, b), Entry("pot", 1)])]))
    now = store.load_table("t1")
    assert now is not None and now.version == res.version and now.state == {"log": ["Deal 1 starts"]}
    assert now.deal is not None and now.deal.records == [{"op": "start"}, {"op": "action"}]
    assert {p.id: (p.balance, p.status) for p in now.players} == {a: (88, "playing"), b: (95, "sitting_out")}
    assert store.ledger_check() == {"total": 0, "unbalanced_txns": [], "open_escrow_deals": []}


def test_issue12_due_tables_are_claimed_by_one_server_at_a_time(store: Store) -> None:
    _table(store)
    row = store.load_table("t1")
    assert row is not None
    store.commit_table(TableCommit("t1", row.version, None, 100.0))
    assert store.next_due() == 100.0
    assert store.claim_due(99.0, 10) == []  # not due yet
    assert store.claim_due(101.0, 10) == ["t1"]
    assert store.claim_due(101.0, 10) == []  # claimed: due again only when the lease runs out
    assert store.next_due() == 111.0
    assert store.claim_due(112.0, 10) == ["t1"]  # its server died: another takes it
    assert not store.set_due("t1", row.version, None)  # an old version: refused
    assert store.set_due("t1", row.version + 1, None) and store.next_due() is None


def test_migration_0002_upgrades_a_database_with_players_and_ledger(database_url: str) -> None:
    """A database of revision 0001 holding tables, seats and ledger entries upgrades to the
    game-night schema (SQLite rebuilds the players table: foreign keys must not refuse it):
    seats keep playing, tables become private, balances and the audit are unchanged."""
    from sqlalchemy import text

    from fourcards.store import make_engine, migrate

    engine = make_engine(database_url)
    migrate(engine, "0001")
    with engine.begin() as conn:
        conn.execute(text("INSERT INTO game_tables (id, game, name, rules, settings, status, created_at) "
                          "VALUES ('t1', 'poker', 'old', '{}', '{}', 'open', '2026-01-01')"))
        conn.execute(text("INSERT INTO players (table_id, seat, name, token_hash, is_host, is_bot, created_at) "
                          "VALUES ('t1', 1, 'Ann', 'aa', true, false, '2026-01-01')"))
        pid = conn.execute(text("SELECT id FROM players")).scalar()
        conn.execute(text("INSERT INTO ledger_entries (txn, table_id, account, player_id, amount, memo, created_at) "
                          "VALUES ('x', 't1', 'player', :p, 100, 'buy_in', '2026-01-01'), "
                          "('x', 't1', 'bank', NULL, -100, 'buy_in', '2026-01-01')"), {"p": pid})
    engine.dispose()
    store = Store(database_url)
    try:
        row = store.load_table("t1")
        assert row is not None and (row.public, row.status, row.version, row.state) == (False, "open", 0, None)
        assert [(p.name, p.seat, p.status, p.balance) for p in row.players] == [("Ann", 1, "playing", 100)]
        assert store.ledger_check() == {"total": 0, "unbalanced_txns": [], "open_escrow_deals": []}
    finally:
        store.close()
