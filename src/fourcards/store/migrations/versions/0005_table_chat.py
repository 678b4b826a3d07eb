"""Game night (issue 21): the table's chat.

* ``table_chat`` - one row per chat message or reaction: ``table_id``, ``number`` (1, 2, ...
  per table; unique with the table), ``player_id`` (who sent it), the ``seat`` and ``name`` they
  had then, ``kind`` (``text`` or ``reaction``), ``text`` (at most 200 characters; a reaction's
  emoji) and ``at`` (when, Unix seconds). A table reads back its latest 40 (docs/rules.md TP-9).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-15
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_BIG_ID = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "table_chat",
        sa.Column("id", _BIG_ID, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("game_tables.id"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("player_id", _BIG_ID, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.UniqueConstraint("table_id", "number", name="uq_table_chat_table_number"),
    )


def downgrade() -> None:
    op.drop_table("table_chat")
