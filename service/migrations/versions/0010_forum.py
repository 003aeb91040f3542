"""Forum: the seats' one-time codes and the forum posts received.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01

The tables of the forum desk (service/readmodels/tables.py, `forum_*`; docs/forum.md).
The mapping of forum users to seats is no table: it is the ForumUserMapped events.
Downgrading drops the tables: every unused code stops, and the record of the posts seen
goes (the orders themselves are events and stay, and a post replayed is still found
among them).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "forum_codes",
        sa.Column(
            "code_hash", sa.String(length=64), nullable=False, comment="SHA-256 of the code, hex"
        ),
        sa.Column("match_id", sa.Uuid(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("issued_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column(
            "post_key",
            sa.String(length=64),
            nullable=True,
            comment="the post that used it; NULL: unused",
        ),
        sa.Column("used_at", sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint("code_hash"),
        comment="the seats' one-time codes for signing forum posts, known by hash (docs/forum.md)",
    )
    op.create_table(
        "forum_posts",
        sa.Column(
            "post_key",
            sa.String(length=64),
            nullable=False,
            comment="SHA-256 of match id and post id",
        ),
        sa.Column("match_id", sa.Uuid(), nullable=False),
        sa.Column(
            "post_id", sa.String(length=1000), nullable=False, comment="the forum's id of the post"
        ),
        sa.Column(
            "author",
            sa.String(length=1000),
            nullable=False,
            comment="the forum user who posted it",
        ),
        sa.Column(
            "seat", sa.Integer(), nullable=True, comment="whose order it was; NULL: no seat known"
        ),
        sa.Column(
            "posted_at",
            sa.DateTime(timezone=True),
            nullable=True,
            comment="the post's time as the forum reported it",
        ),
        sa.Column(
            "received_at",
            sa.DateTime(timezone=True),
            nullable=False,
            comment="the received time drts took",
        ),
        sa.Column("outcome", sa.String(length=16), nullable=False, comment="accepted or refused"),
        sa.Column("body", sa.Text(), nullable=False, comment="the post as received"),
        sa.Column("reply", sa.Text(), nullable=False, comment="the first reply to post back"),
        sa.PrimaryKeyConstraint("post_key"),
        comment="the forum posts received, each with its first reply (docs/forum.md)",
    )


def downgrade() -> None:
    op.drop_table("forum_posts")
    op.drop_table("forum_codes")
