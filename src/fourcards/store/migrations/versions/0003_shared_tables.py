"""Shared tables: the table's truth in the database, for servers that share it (issue 12).

* ``game_tables.version`` - bumped by every write to the table (optimistic concurrency:
  a write names the version it read; a lost race changes nothing).
* ``game_tables.state`` - the table's own state beside its deals and ledger (waiting
  requests, time-outs, the turn clock's deadline, the button).
* ``table_log`` - the table log, one row per line, appended by the change that wrote it.
* ``game_tables.due_at`` - when the table next needs a server without a request (a bot to
  move, a turn clock to run out; Unix seconds), claimed by one server at a time.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("game_tables", sa.Column("version", sa.BigInteger(), nullable=False, server_default="0"))
    op.add_column("game_tables", sa.Column("state", sa.JSON(), nullable=True))
    op.add_column("game_tables", sa.Column("due_at", sa.Float(), nullable=True))
    op.create_index("ix_game_tables_due_at", "game_tables", ["due_at"])
    op.create_table(
        "table_log",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("game_tables.id"), nullable=False),
        sa.Column("line", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_table_log_table_id_id", "table_log", ["table_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_table_log_table_id_id", "table_log")
    op.drop_table("table_log")
    op.drop_index("ix_game_tables_due_at", "game_tables")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("due_at")
        batch.drop_column("state")
        batch.drop_column("version")
