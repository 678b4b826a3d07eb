"""Clubs across nights (issue 21 item 6): clubs, their listed members and the tables that count for them.

* ``clubs`` - ``id`` (the club link's key), ``name``, ``owner_name``, ``owner_hash`` (SHA-256 of
  the owner's secret token), ``created_at``.
* ``club_members`` - the names the owner listed, ``name_key`` the name casefolded (unique per
  club): people are matched by name across the club's tables.
* ``club_tables`` - the tables that count for a club; a table counts for at most one
  (``table_id`` is the key).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "clubs",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("owner_name", sa.String(40), nullable=False),
        sa.Column("owner_hash", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "club_members",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True, autoincrement=True),
        sa.Column("club_id", sa.String(16), sa.ForeignKey("clubs.id"), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("name_key", sa.String(160), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("club_id", "name_key", name="uq_club_members_club_key"),
    )
    op.create_index("ix_club_members_club_id", "club_members", ["club_id"])
    op.create_table(
        "club_tables",
        sa.Column("table_id", sa.String(16), sa.ForeignKey("game_tables.id"), primary_key=True),
        sa.Column("club_id", sa.String(16), sa.ForeignKey("clubs.id"), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_club_tables_club_id", "club_tables", ["club_id"])


def downgrade() -> None:
    op.drop_index("ix_club_tables_club_id", "club_tables")
    op.drop_table("club_tables")
    op.drop_index("ix_club_members_club_id", "club_members")
    op.drop_table("club_members")
    op.drop_table("clubs")
