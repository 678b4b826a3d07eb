"""The store: migrations, the double-entry ledger, restart voiding - on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from fourcards.store import DealClose, DealOpen, DealWrite, Entry, Store, StoreError
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
    assert store.load_tables() == []
    store.close()


@pytest.fixture
def store(database_url: str):
    s = Store(database_url)
    yield s
    s.close()


def _table(store: Store) -> tuple[int, int]:
    store.create_table("t1", "poker", "test", {"name": "live"}, {"starting_chips": 100})
    a = store.add_player("t1", 1, "Ann", "a" * 64, buy_in=100, is_host=True)
    b = store.add_player("t1", 2, "Bob", "b" * 64, buy_in=100)
    return a, b


def test_buy_in_and_balances(store: Store) -> None:
    a, b = _table(store)
    assert store.balances("t1") == {a: 100, b: 100}
    rows = store.load_tables()
    assert [(p.name, p.balance, p.is_host) for p in rows[0].players] == [("Ann", 100, True), ("Bob", 100, False)]
    assert store.ledger_check() == {"total": 0, "unbalanced_txns": [], "open_escrow_deals": []}


def test_unbalanced_write_is_refused_and_changes_nothing(store: Store) -> None:
    a, _ = _table(store)
    before = store.ledger("t1")
    with pytest.raises(StoreError, match="unbalanced"):
        store.write_deal(DealWrite("t1", open=DealOpen(1, {}, {}), records=[{"kind": "x"}],
                                   entries=[Entry("player", -10, a), Entry("bets", 9)]))
    with pytest.raises(StoreError, match="account"):
        store.write_deal(DealWrite("t1", open=DealOpen(1, {}, {}), entries=[Entry("nowhere", 0)]))
    assert store.ledger("t1") == before
    assert store.list_deals("t1") == []


def test_a_settled_deal_balances(store: Store) -> None:
    a, b = _table(store)
    did = store.write_deal(DealWrite("t1", open=DealOpen(1, {"1": a, "2": b}, {}), seq=0, player_id=a,
                                     records=[{"kind": "place_wagers"}],
                                     entries=[Entry("player", -10, a), Entry("bets", 10)]))
    store.write_deal(DealWrite("t1", deal_id=did, seq=1, records=[{"kind": "play"}],
                               entries=[Entry("bets", -10), Entry("player", 30, a), Entry("house", -20)],
                               close=DealClose("settled", {"net": 20})))
    assert store.balances("t1") == {a: 120, b: 100}
    d = store.get_deal("t1", 1)
    assert d is not None and d["status"] == "settled" and [r["kind"] for r in d["history"]] == ["place_wagers", "play"]
    assert store.ledger_check("t1") == {"total": 0, "unbalanced_txns": [], "open_escrow_deals": []}


def test_interrupted_deals_are_voided_and_refunded(store: Store) -> None:
    a, b = _table(store)
    did = store.write_deal(DealWrite("t1", open=DealOpen(1, {}, {}), records=[{"op": "start"}],
                                     entries=[Entry("player", -5, a), Entry("player", -15, b), Entry("pot", 20)]))
    store.write_deal(DealWrite("t1", deal_id=did, seq=1, records=[{"op": "action"}],
                               entries=[Entry("player", -7, a), Entry("pot", 7)]))
    assert store.balances("t1") == {a: 88, b: 85}
    voided = store.void_interrupted_deals("test restart")
    assert voided == [{"table_id": "t1", "number": 1, "refunds": {a: 12, b: 15}}]
    assert store.balances("t1") == {a: 100, b: 100}
    d = store.get_deal("t1", 1)
    assert d is not None and d["status"] == "voided" and d["void_reason"] == "test restart"
    assert d["history"][-1] == {"kind": "void", "reason": "test restart"}
    assert store.ledger_check() == {"total": 0, "unbalanced_txns": [], "open_escrow_deals": []}
    assert store.void_interrupted_deals() == []  # nothing left in progress


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
        [row] = store.load_tables()
        assert (row.public, row.status) == (False, "open")
        assert [(p.name, p.seat, p.status, p.balance) for p in row.players] == [("Ann", 1, "playing", 100)]
        assert store.ledger_check() == {"total": 0, "unbalanced_txns": [], "open_escrow_deals": []}
    finally:
        store.close()
