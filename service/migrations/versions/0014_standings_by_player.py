"""Standings by player: a row per player identity, or per seat name for seats naming none.

Revision ID: 0014
Revises: 0012
Create Date: 2026-12-02

Issue 45: `standings` is keyed by (`ruleset`, `entrant`), the entrant being
`player:<player id>` for seats that named a player and `name:<seat name>` for the
others, with the player's id (`player_id`, NULL for a name) and the name shown
(`player`); `standings_seats` gains each seat's `player_id` and `entrant`, and
`standings_players` keeps the players' names. The new columns need every stored
match's seats again, so upgrading empties the standings projection (its tables, its
tracking row for `Matches`, its quarantine): the next catch-up (any query of the
standings, or the follower) rebuilds it from the log. Downgrading puts back the
tables of 0002, emptied the same way, so that the older code rebuilds them by name.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    drop_standings()
    op.create_table(
        "standings",
        sa.Column("ruleset", sa.String(length=64), nullable=False),
        sa.Column(
            "entrant",
            sa.String(length=240),
            nullable=False,
            comment="player:<player id> for seats naming a player, name:<seat name> for the others",
        ),
        sa.Column(
            "player",
            sa.String(length=200),
            nullable=False,
            comment="the player's name, or the seat name",
        ),
        sa.Column(
            "player_id",
            sa.String(length=36),
            nullable=True,
            comment="the player identity; NULL: a name",
        ),
        *counts(),
        sa.PrimaryKeyConstraint("ruleset", "entrant"),
    )
    op.create_index("ix_standings_ruleset_points", "standings", ["ruleset", "points"], unique=False)
    op.create_table(
        "standings_seats",
        sa.Column("match_id", sa.Uuid(), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column(
            "player",
            sa.String(length=200),
            nullable=False,
            comment="the name the seat joined with",
        ),
        sa.Column(
            "player_id",
            sa.String(length=36),
            nullable=True,
            comment="the player it named; NULL: none",
        ),
        sa.Column(
            "entrant",
            sa.String(length=240),
            nullable=False,
            comment="the standings row it counts for",
        ),
        result(),
        sa.PrimaryKeyConstraint("match_id", "seat"),
    )
    op.create_table(
        "standings_players",
        sa.Column("player_id", sa.String(length=36), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.PrimaryKeyConstraint("player_id"),
        comment="the players' names, for the standings rows of seats naming them",
    )
    reset_standings()


def downgrade() -> None:
    op.drop_table("standings_players")
    drop_standings()
    op.create_table(  # as 0002 made it
        "standings",
        sa.Column("ruleset", sa.String(length=64), nullable=False),
        sa.Column("player", sa.String(length=200), nullable=False),
        *counts(),
        sa.PrimaryKeyConstraint("ruleset", "player"),
    )
    op.create_index("ix_standings_ruleset_points", "standings", ["ruleset", "points"], unique=False)
    op.create_table(
        "standings_seats",
        sa.Column("match_id", sa.Uuid(), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("player", sa.String(length=200), nullable=False),
        result(),
        sa.PrimaryKeyConstraint("match_id", "seat"),
    )
    reset_standings()


def counts() -> list[sa.Column[int]]:
    """Returns the standings' count columns (unchanged since 0002)."""
    return [
        sa.Column(name, sa.Integer(), nullable=False)
        for name in ("played", "wins", "draws", "losses", "points")
    ]


def result() -> sa.Column[str]:
    """Returns standings_seats' result column (unchanged since 0002)."""
    return sa.Column(
        "result", sa.String(length=8), nullable=True, comment="win, draw or loss once finished"
    )


def drop_standings() -> None:
    """Drops the tables whose key or columns change (standings_matches stays)."""
    op.drop_table("standings_seats")
    op.drop_index("ix_standings_ruleset_points", table_name="standings")
    op.drop_table("standings")


def reset_standings() -> None:
    """Empties the standings projection and forgets its position (the marker row stays),
    so that the runner's next catch-up replays the whole log into it."""
    op.execute("DELETE FROM standings_matches")
    op.execute("DELETE FROM standings_tracking WHERE application_name <> '__migration__'")
    op.execute("DELETE FROM projection_quarantine WHERE projection = 'standings'")
