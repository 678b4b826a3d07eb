"""Admin console sessions and server leases (issue 27, part B).

* ``admin_sessions`` - the admin console's signed-in sessions: the SHA-256 of the session
  cookie's secret (the secret itself is never stored), the account, the session's CSRF token,
  when it was opened and when it ends (Unix seconds). Signing out deletes the row; an account
  deleted takes its sessions with it.
* ``server_leases`` - work one server at a time does for every server sharing the database
  (the automatic retention of ``fourcards serve --retention``): who holds it and until when.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-10
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

_BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "admin_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("user_id", _BigId, sa.ForeignKey("admin_users.id", ondelete="CASCADE"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_admin_sessions_user_id", "admin_sessions", ["user_id"])
    op.create_index("ix_admin_sessions_expires_at", "admin_sessions", ["expires_at"])
    op.create_table(
        "server_leases",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("holder", sa.String(64), nullable=False),
        sa.Column("until", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("server_leases")
    op.drop_index("ix_admin_sessions_expires_at", table_name="admin_sessions")
    op.drop_index("ix_admin_sessions_user_id", table_name="admin_sessions")
    op.drop_table("admin_sessions")
