"""Initial schema: tables, players, deals, deal actions, the chip ledger.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

_BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "game_tables",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(16), nullable=False),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "players",
        sa.Column("id", _BigId, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("game_tables.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False),
        sa.Column("is_host", sa.Boolean(), nullable=False),
        sa.Column("is_bot", sa.Boolean(), nullable=False),
        sa.Column("bot_kind", sa.String(16), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("table_id", "seat", name="uq_players_table_seat"),
        sa.UniqueConstraint("token_hash", name="uq_players_token_hash"),
    )
    op.create_index("ix_players_table_id", "players", ["table_id"])
    op.create_table(
        "deals",
        sa.Column("id", _BigId, primary_key=True, autoincrement=True),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("game_tables.id"), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("void_reason", sa.Text(), nullable=True),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=True),
        sa.UniqueConstraint("table_id", "number", name="uq_deals_table_number"),
    )
    op.create_index("ix_deals_table_id", "deals", ["table_id"])
    op.create_index("ix_deals_status", "deals", ["status"])
    op.create_table(
        "deal_actions",
        sa.Column("id", _BigId, primary_key=True, autoincrement=True),
        sa.Column("deal_id", _BigId, sa.ForeignKey("deals.id"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("player_id", _BigId, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("record", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("deal_id", "seq", name="uq_deal_actions_deal_seq"),
    )
    op.create_index("ix_deal_actions_deal_id", "deal_actions", ["deal_id"])
    op.create_table(
        "ledger_entries",
        sa.Column("id", _BigId, primary_key=True, autoincrement=True),
        sa.Column("txn", sa.String(32), nullable=False),
        sa.Column("table_id", sa.String(16), sa.ForeignKey("game_tables.id"), nullable=False),
        sa.Column("deal_id", _BigId, sa.ForeignKey("deals.id"), nullable=True),
        sa.Column("account", sa.String(16), nullable=False),
        sa.Column("player_id", _BigId, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("amount", sa.BigInteger(), nullable=False),
        sa.Column("memo", sa.String(40), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_ledger_entries_txn", "ledger_entries", ["txn"])
    op.create_index("ix_ledger_entries_table_id", "ledger_entries", ["table_id"])
    op.create_index("ix_ledger_entries_player", "ledger_entries", ["player_id"])
    op.create_index("ix_ledger_entries_deal_account", "ledger_entries", ["deal_id", "account"])


def downgrade() -> None:
    op.drop_table("ledger_entries")
    op.drop_table("deal_actions")
    op.drop_table("deals")
    op.drop_table("players")
    op.drop_table("game_tables")
