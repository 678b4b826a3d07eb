"""Running it for real (issue 27): admin users, the audit log, club bans, tables' last write.

``server_runs`` is removed.

* ``game_tables.active_at`` - when the table was last written (Unix seconds; indexed): live,
  idle and abandoned tables, and retention, count from it. Filled here from the table's latest
  log line (else its creation).
* ``game_tables.pruned_at`` - when retention removed a closed table's histories, chat and log.
* ``admin_users`` - the operator console's accounts (argon2id password hashes, a role).
* ``audit_log`` - every operator action, append-only and hash-chained (``seq`` the key).
* ``club_bans`` - names banned from a club by the operator.
* ``server_runs`` (starts of servers of the game-night version, no longer written since the
  shared tables of ``0003``) is dropped; a downgrade brings it back empty.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03
"""

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

_BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _seconds(when: datetime | None) -> float | None:
    if when is None:
        return None
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()


def _fill_active_at() -> None:
    """Each table's ``active_at``: its latest log line's time, else its creation."""
    conn = op.get_bind()
    tables = sa.table("game_tables", sa.column("id", sa.String()), sa.column("created_at", sa.DateTime(timezone=True)),
                      sa.column("active_at", sa.Float()))
    log = sa.table("table_log", sa.column("table_id", sa.String()), sa.column("created_at", sa.DateTime(timezone=True)))
    latest = dict(conn.execute(sa.select(log.c.table_id, sa.func.max(log.c.created_at)).group_by(log.c.table_id)).all())
    rows = conn.execute(sa.select(tables.c.id, tables.c.created_at)).all()
    for table_id, created in rows:
        when = latest.get(table_id) or created
        if isinstance(when, str):  # SQLite hands max() back as text
            when = datetime.fromisoformat(when)
        conn.execute(sa.update(tables).where(tables.c.id == table_id).values(active_at=_seconds(when)))


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("active_at", sa.Float(), nullable=True))
        batch.add_column(sa.Column("pruned_at", sa.Float(), nullable=True))
        batch.create_index("ix_game_tables_active_at", ["active_at"])
    _fill_active_at()
    op.create_table(
        "admin_users",
        sa.Column("id", _BigId, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(160), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "audit_log",
        sa.Column("seq", _BigId, primary_key=True, autoincrement=False),
        sa.Column("at", sa.String(32), nullable=False),
        sa.Column("actor", sa.String(80), nullable=False),
        sa.Column("action", sa.String(40), nullable=False),
        sa.Column("target", sa.String(200), nullable=False),
        sa.Column("details", sa.Text(), nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
    )
    op.create_table(
        "club_bans",
        sa.Column("club_id", sa.String(16), sa.ForeignKey("clubs.id"), primary_key=True),
        sa.Column("name_key", sa.String(160), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("banned_by", sa.String(80), nullable=False),
        sa.Column("banned_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.drop_table("server_runs")


def downgrade() -> None:
    op.create_table(
        "server_runs",
        sa.Column("id", _BigId, primary_key=True, autoincrement=True),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.drop_table("club_bans")
    op.drop_table("audit_log")
    op.drop_table("admin_users")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_index("ix_game_tables_active_at")
        batch.drop_column("pruned_at")
        batch.drop_column("active_at")
