"""Persistence: tables, players, deal histories and the chip ledger (SQLAlchemy 2 + Alembic).

SQLite by default (a file in the user's data directory), PostgreSQL by URL;
see :class:`~fourcards.store.db.Store` and :mod:`fourcards.store.models`.
"""

from fourcards.store.clubs import ClubStore
from fourcards.store.db import (
    CHANGES_CHANNEL,
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
    default_database_url,
    downgrade,
    make_engine,
    migrate,
    parse_database_url,
)
from fourcards.store.models import MAX_AMOUNT, MAX_INTEGER

__all__ = ["CHANGES_CHANNEL", "ClubStore", "CommitResult", "DealClose", "DealOpen", "DealWrite", "Entry", "NewPlayer", "OpenDeal",
           "SeatChange", "Store", "StoreError", "TableCommit", "TableRow", "TakeBack", "VersionConflict",
           "default_database_url",
           "downgrade", "make_engine", "migrate", "parse_database_url", "MAX_AMOUNT", "MAX_INTEGER"]
