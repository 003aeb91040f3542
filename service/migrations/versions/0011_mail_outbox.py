"""Mail outbox: the notices to mail (results, reminders, dispute notices) and the tracking
of the projection that records them.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01

`mail_notices` is the outbox (service/channels/mail/notices.py, docs/mail.md); the projection
`mail_outbox` records a row per notice and recipient. Its tracking table starts at the
log's head, so that upgrading mails results from the next resolution on, never the
movements resolved before. Downgrading drops both: notices not sent yet are lost.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

TRACKING = "mail_outbox_tracking"
APPLICATION = "Matches"


def upgrade() -> None:
    op.create_table(
        "mail_notices",
        sa.Column(
            "notice_id",
            sa.String(length=200),
            nullable=False,
            comment="kind, match, event version or movement, recipient: one notice, one row",
        ),
        sa.Column(
            "kind", sa.String(length=16), nullable=False, comment="result, reminder or dispute"
        ),
        sa.Column("match_id", sa.Uuid(), nullable=False),
        sa.Column("movement", sa.Integer(), nullable=False),
        sa.Column(
            "version",
            sa.BigInteger(),
            nullable=False,
            comment="the event told of (MovementResolved, DisputeFiled/Ruled); a reminder: 0",
        ),
        sa.Column(
            "seat", sa.Integer(), nullable=False, comment="the recipient: a seat, or 0 the referee"
        ),
        sa.Column(
            "address",
            sa.String(length=320),
            nullable=False,
            comment="its confirmed result address",
        ),
        sa.Column(
            "recorded_at",
            sa.DateTime(timezone=True),
            nullable=False,
            comment="the event's time: the mail's Date",
        ),
        sa.Column(
            "due_at",
            sa.DateTime(timezone=True),
            nullable=True,
            comment="a reminder: the deadline it reminds of",
        ),
        sa.Column(
            "sent_at",
            sa.DateTime(timezone=True),
            nullable=True,
            comment="NULL until the relay took it",
        ),
        sa.Column(
            "failed_at",
            sa.DateTime(timezone=True),
            nullable=True,
            comment="the relay refused it for good",
        ),
        sa.Column("attempts", sa.Integer(), server_default=sa.text("0"), nullable=False),
        sa.Column(
            "next_attempt_at",
            sa.DateTime(timezone=True),
            nullable=True,
            comment="after a failure: not before",
        ),
        sa.Column(
            "claimed_until",
            sa.DateTime(timezone=True),
            nullable=True,
            comment="a sender is sending it until then",
        ),
        sa.Column("last_error", sa.String(length=1000), nullable=True),
        sa.PrimaryKeyConstraint("notice_id"),
        comment="the outbox of results, reminders and dispute notices (docs/mail.md)",
    )
    op.create_index(
        "ix_mail_notices_unsent", "mail_notices", ["sent_at", "failed_at", "recorded_at"]
    )
    postgres = op.get_context().dialect.name == "postgresql"
    op.execute(_tracking_table(postgres))
    op.execute(
        f"INSERT INTO {TRACKING} (application_name, notification_id) VALUES ('__migration__', 1)"
    )
    events, position = (
        ("matches_events", "notification_id") if postgres else ("stored_events", "rowid")
    )
    op.execute(
        f"INSERT INTO {TRACKING} (application_name, notification_id) "
        f"SELECT '{APPLICATION}', MAX({position}) FROM {events} HAVING MAX({position}) IS NOT NULL"
    )


def downgrade() -> None:
    op.execute(f"DROP TABLE {TRACKING}")
    op.drop_index("ix_mail_notices_unsent", table_name="mail_notices")
    op.drop_table("mail_notices")


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
