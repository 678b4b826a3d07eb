"""Game night: private/public tables, seats that can be left and taken back, server runs.

* ``game_tables.public`` - listed in the lobby (``false``: private, the link is the key;
  tables stored before this revision become private).
* ``players.status`` - ``playing``, ``sitting_out`` or ``left`` (cashed out; the row
  keeps the person's name and history); ``players.seat`` may be empty for one who left.
* ``server_runs`` - one row per start of a server that held the database's server lock:
  its id is the epoch of the table state versions of that run (docs/web.md).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-06
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    with op.batch_alter_table("game_tables") as batch:
        batch.add_column(sa.Column("public", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("status", sa.String(16), nullable=False, server_default="playing"))
        batch.alter_column("seat", existing_type=sa.Integer(), nullable=True)
    op.create_table(
        "server_runs",
        sa.Column("id", _BigId, primary_key=True, autoincrement=True),
        sa.Column("host", sa.String(255), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("server_runs")
    with op.batch_alter_table("players") as batch:
        batch.alter_column("seat", existing_type=sa.Integer(), nullable=False)
        batch.drop_column("status")
    with op.batch_alter_table("game_tables") as batch:
        batch.drop_column("public")
