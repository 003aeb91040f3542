"""Page sessions: the web pages' signed-in sessions, kept on the server.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02

`page_sessions` (service/sessions.py, docs/pages.md): one row per signed-in session,
known by the SHA-256 of the random key its cookie holds, with the match, who holds the
token, when it ends, and the token sealed with a pad drawn from the key (so the table
alone gives neither a session nor a token). Downgrading drops it: every signed-in
session ends (its cookie then signs nobody in).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "page_sessions",
        sa.Column(
            "key_hash",
            sa.String(length=64),
            nullable=False,
            comment="SHA-256 of the session key its cookie holds, hex",
        ),
        sa.Column("match_id", sa.Uuid(), nullable=False),
        sa.Column(
            "sealed_token",
            sa.Text(),
            nullable=False,
            comment="the token XOR a pad drawn from the session key, hex",
        ),
        sa.Column(
            "seat", sa.Integer(), nullable=True, comment="the token's seat; NULL: the referee"
        ),
        sa.Column("referee", sa.Boolean(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False, comment="who, for the header"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("key_hash"),
        comment="the web pages' signed-in sessions, known by the hash of their key (docs/pages.md)",
    )
    op.create_index("ix_page_sessions_expires_at", "page_sessions", ["expires_at"])


def downgrade() -> None:
    op.drop_index("ix_page_sessions_expires_at", table_name="page_sessions")
    op.drop_table("page_sessions")
