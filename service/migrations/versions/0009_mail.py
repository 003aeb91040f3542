"""Mail: the seats' order addresses, result addresses, messages received, dead letters.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-30

The tables of the mail desk (service/readmodels/tables.py, `mail_*`; docs/mail.md).
Upgrading starts with no address: the seats of matches joined before get theirs when
their token is reissued. Downgrading drops the tables: every order address stops, the
result addresses and the record of the messages seen go (the orders themselves are
events and stay).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "mail_order_addresses",
        sa.Column(
            "address_hash",
            sa.String(length=64),
            nullable=False,
            comment="SHA-256 of the secret, hex",
        ),
        sa.Column("match_id", sa.Uuid(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("issued_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("address_hash"),
        sa.UniqueConstraint("match_id", "seat", name="uq_mail_order_addresses_seat"),
        comment="each seat's secret order address, known by its hash (docs/mail.md)",
    )
    op.create_table(
        "mail_result_addresses",
        sa.Column("match_id", sa.Uuid(), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column(
            "address",
            sa.String(length=320),
            nullable=False,
            comment="where the seat's replies go",
        ),
        sa.Column("code_hash", sa.String(length=64), nullable=False, comment="SHA-256 of the code"),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column(
            "confirmed_at",
            sa.DateTime(timezone=True),
            nullable=True,
            comment="NULL until the code came back",
        ),
        sa.PrimaryKeyConstraint("match_id", "seat"),
        sa.UniqueConstraint("code_hash"),
        comment="the address each seat's replies go to, once confirmed (docs/mail.md)",
    )
    op.create_table(
        "mail_messages",
        sa.Column(
            "message_key",
            sa.String(length=64),
            nullable=False,
            comment="SHA-256 of match id, seat and Message-ID: a seat's message seen before",
        ),
        sa.Column("message_id", sa.String(length=1000), nullable=False),
        sa.Column("match_id", sa.Uuid(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("outcome", sa.String(length=16), nullable=False, comment="accepted or refused"),
        sa.Column("answer", sa.Text(), nullable=False, comment="the first answer, as JSON"),
        sa.PrimaryKeyConstraint("message_key"),
        comment="the messages taken as orders, with the first answer to each (docs/mail.md)",
    )
    op.create_table(
        "mail_dead_letters",
        sa.Column("letter_id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column(
            "mail_from", sa.String(length=1000), nullable=False, comment="the envelope sender"
        ),
        sa.Column(
            "rcpt_to", sa.String(length=1000), nullable=False, comment="the envelope recipient"
        ),
        sa.Column("message_id", sa.String(length=1000), nullable=True),
        sa.Column(
            "reason", sa.String(length=1000), nullable=False, comment="why it could not be read"
        ),
        sa.Column("size", sa.Integer(), nullable=False, comment="bytes"),
        sa.Column("content", sa.LargeBinary(), nullable=False, comment="the message as received"),
        sa.PrimaryKeyConstraint("letter_id"),
        comment="mail that could not be read at all, kept for an operator (drts mail dead-letters)",
    )


def downgrade() -> None:
    op.drop_table("mail_dead_letters")
    op.drop_table("mail_messages")
    op.drop_table("mail_result_addresses")
    op.drop_table("mail_order_addresses")
