"""Seat letters: a tournament seat's token and order address, mailed from the outbox.

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-02

`mail_notices.secret` holds what a notice of kind `seat` mails and the stored events do
not hold (service/channels/mail/seatletters.py, docs/mail.md): the seat token and the
order address's secret, drawn when a tournament round's match seats a player with a
confirmed address, kept until the relay took the letter (or refused it for good), then
set to NULL. Every other notice leaves it NULL. Downgrading drops the column: a seat
letter not sent yet can then no longer be composed (its player asks the API for a token).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("mail_notices") as table:
        table.add_column(
            sa.Column(
                "secret",
                sa.Text(),
                nullable=True,
                comment="a seat letter's token and order secret (JSON) until it is sent; else NULL",
            )
        )


def downgrade() -> None:
    with op.batch_alter_table("mail_notices") as table:
        table.drop_column("secret")
