"""Rated matches: the read model the ratings fold (issue 45), and its tracking table.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-02

`rated_matches` (service/readmodels/ratings.py): one row per finished rated match whose
seats all name players, with the log position of its last Finished event and its sides
and ranks; `rating_matches` and `rating_seats` follow the matches created rated on the
way there. The tracking table `rated_matches_tracking` holds only eventsourcing's
`('__migration__', 1)` marker row, no position: on an existing database the projection
starts from the log's beginning at its first catch-up (the first ratings read, or the
read models' follower), so the matches finished before the upgrade are all rated.
Downgrading drops the four tables: the ratings then have nothing to read.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

TRACKING = "rated_matches_tracking"


def upgrade() -> None:
    op.create_table(
        "rated_matches",
        sa.Column("match_id", sa.Uuid(), nullable=False),
        sa.Column("ruleset", sa.String(length=64), nullable=False),
        sa.Column("ruleset_version", sa.Integer(), nullable=False),
        sa.Column(
            "position",
            sa.BigInteger(),
            nullable=False,
            comment="log position of its last Finished event: the ratings' fold order",
        ),
        sa.Column("teams", sa.Text(), nullable=False, comment="the sides' player ids, as JSON"),
        sa.Column("ranks", sa.Text(), nullable=False, comment="each side's rank (1 best), as JSON"),
        sa.PrimaryKeyConstraint("match_id"),
        sa.UniqueConstraint("position"),
        comment="the finished rated matches whose seats all name players (issue 45)",
    )
    op.create_table(
        "rating_matches",
        sa.Column("match_id", sa.Uuid(), nullable=False),
        sa.Column("ruleset", sa.String(length=64), nullable=False),
        sa.Column("ruleset_version", sa.Integer(), nullable=False),
        sa.Column(
            "seat_teams",
            sa.Text(),
            nullable=False,
            comment="each seat's team in the latest state, as JSON (seats without one left out)",
        ),
        sa.PrimaryKeyConstraint("match_id"),
        comment="the matches created rated, as the rated_matches projection follows them",
    )
    op.create_table(
        "rating_seats",
        sa.Column("match_id", sa.Uuid(), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column(
            "player_id",
            sa.String(length=64),
            nullable=True,
            comment="the player it names; NULL: none",
        ),
        sa.PrimaryKeyConstraint("match_id", "seat"),
        comment="the seats of the matches created rated, with the player each names",
    )
    op.execute(_tracking_table(op.get_context().dialect.name == "postgresql"))
    op.execute(
        f"INSERT INTO {TRACKING} (application_name, notification_id) VALUES ('__migration__', 1)"
    )


def downgrade() -> None:
    op.execute(f"DROP TABLE {TRACKING}")
    op.drop_table("rating_seats")
    op.drop_table("rating_matches")
    op.drop_table("rated_matches")


def _tracking_table(postgres: bool) -> str:
    """Returns eventsourcing 9.5.6's single-row tracking table DDL (as 0002 froze it)."""
    if postgres:
        return (
            f"CREATE TABLE IF NOT EXISTS {TRACKING} (application_name text, "
            "notification_id bigint, PRIMARY KEY (application_name)) WITH ("
            "autovacuum_enabled = true, autovacuum_vacuum_threshold = 100000000, "
            "autovacuum_vacuum_scale_factor = 0.5, autovacuum_analyze_threshold = 1000, "
            "autovacuum_analyze_scale_factor = 0.01)"
        )
    return (
        f"CREATE TABLE IF NOT EXISTS {TRACKING} (application_name TEXT, "
        "notification_id INTEGER, PRIMARY KEY (application_name)) WITHOUT ROWID"
    )
