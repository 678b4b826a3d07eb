"""The table core (issue 20): when a server was last alive, so that downtime is nobody's time.

* ``liveness`` - one row (``id`` 1): ``alive_at``, the last time any server sharing the
  database was alive (Unix seconds; each server writes it every second). A server that
  starts and finds it older than a few seconds knows no server ran in between, and gives
  the person to act at every table the time they had left (docs/rules.md TP-6).

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "liveness",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("alive_at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("liveness")
