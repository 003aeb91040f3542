"""The matches whose resolution failed, counted until they are quarantined.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01

Written from service/readmodels/tables.py (`match_failures`). Upgrading starts
with no failures counted; downgrading drops the table, forgetting the counts
and which matches were marked quarantined (their Quarantined events stay in
the log, and `Matches.quarantined_matches()` no longer lists them).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "match_failures",
        sa.Column("match_id", sa.Uuid(), nullable=False),
        sa.Column(
            "movement",
            sa.Integer(),
            nullable=False,
            comment="the movement whose resolution failed",
        ),
        sa.Column("error", sa.String(length=200), nullable=False, comment="the exception's name"),
        sa.Column(
            "message", sa.String(length=1000), nullable=False, comment="the exception, as text"
        ),
        sa.Column(
            "failures",
            sa.Integer(),
            nullable=False,
            comment="failures in a row with this movement and error",
        ),
        sa.Column("first_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_seen", sa.DateTime(timezone=True), nullable=False),
        sa.Column(
            "quarantined_at",
            sa.DateTime(timezone=True),
            nullable=True,
            comment="when the match's Quarantined event was recorded; NULL before",
        ),
        sa.PrimaryKeyConstraint("match_id"),
        comment=(
            "the matches whose resolution failed last time they were tried, and quarantined ones"
        ),
    )


def downgrade() -> None:
    op.drop_table("match_failures")
