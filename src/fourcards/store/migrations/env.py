"""Alembic environment for the fourcards schema.

Run programmatically by :func:`fourcards.store.db.migrate`, which passes an open
connection in ``config.attributes["connection"]``. Run from the command line
(``alembic -c src/fourcards/store/alembic.ini upgrade head``) it connects to
``sqlalchemy.url`` (or env ``FOURCARDS_DATABASE_URL``).
"""

from __future__ import annotations

import os

from alembic import context
from sqlalchemy import create_engine

from fourcards.store.models import Base

config = context.config
target_metadata = Base.metadata


def _run(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = os.environ.get("FOURCARDS_DATABASE_URL") or config.get_main_option("sqlalchemy.url")
    engine = create_engine(str(url))
    with engine.connect() as conn:
        _run(conn)
        conn.commit()


def run_migrations_offline() -> None:
    url = os.environ.get("FOURCARDS_DATABASE_URL") or config.get_main_option("sqlalchemy.url")
    context.configure(url=url, target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
