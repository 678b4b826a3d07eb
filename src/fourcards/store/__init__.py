"""Persistence: tables, players, deal histories and the chip ledger (SQLAlchemy 2 + Alembic).

SQLite by default (a file in the user's data directory), PostgreSQL by URL;
see :class:`~fourcards.store.db.Store` and :mod:`fourcards.store.models`. What a server needs
of a store is :class:`~fourcards.store.base.TableStore`; :class:`~fourcards.store.memory.MemoryStore`
keeps tables in memory (the table rules' tests).
"""

from fourcards.store.base import TableStore
from fourcards.store.clubs import ClubStore
from fourcards.store.db import (
    CHANGES_CHANNEL,
    DUE_UNTOLD,
    CommitResult,
    DealClose,
    DealOpen,
    DealWrite,
    Entry,
    NewPlayer,
    OpenDeal,
    SeatChange,
    Store,
    StoreError,
    TableCommit,
    TableRow,
    TakeBack,
    VersionConflict,
    change_payload,
    default_database_url,
    downgrade,
    make_engine,
    migrate,
    parse_change,
    parse_database_url,
)
from fourcards.store.models import MAX_AMOUNT, MAX_INTEGER

__all__ = ["CHANGES_CHANNEL", "DUE_UNTOLD", "ClubStore", "CommitResult", "DealClose", "DealOpen", "DealWrite", "Entry", "NewPlayer", "OpenDeal",
           "SeatChange", "Store", "StoreError", "TableCommit", "TableRow", "TableStore", "TakeBack", "VersionConflict",
           "change_payload", "default_database_url", "parse_change",
           "downgrade", "make_engine", "migrate", "parse_database_url", "MAX_AMOUNT", "MAX_INTEGER"]
