"""The schemas of seats (api/seats.py, api/referee_address.py): join, reissue a token, a
seat's result address for orders by mail (docs/mail.md) and its confirmation."""

from __future__ import annotations

import marshmallow as ma

from api.fields import (
    ONE_LINE,
    PlayerName,
    recorded_reason,
)
from service import limits
from service.channels.mail import addresses


class ReissueRequestSchema(ma.Schema):
    reason = recorded_reason("why the referee reissues it (recorded)", "lost", load_default=None)


# a result address for orders by mail (docs/mail.md): what service/channels/mail/addresses.py takes
RESULT_ADDRESS = [
    ma.validate.Length(min=3, max=addresses.MAX_ADDRESS_CHARS),
    ma.validate.Regexp(addresses.ADDRESS_PATTERN),
]


class JoinSchema(ma.Schema):
    name = PlayerName(
        required=True,
        metadata={
            "description": "the player's name, unique in the match: "
            + limits.NAME_RULE
            + " (normalised to NFC)",
            "example": "alice",
            "minLength": 1,
            "maxLength": limits.MAX_NAME_CHARS,
        },
    )
    result_address = ma.fields.String(
        load_default=None,
        validate=RESULT_ADDRESS,
        metadata={
            "description": "where the seat's answers to orders by mail go (docs/mail.md); a "
            "confirmation code is mailed to it first",
            "example": "alice@example.org",
        },
    )
    # issue 45: the player identity the seat names, proven by its key
    player = ma.fields.String(
        load_default=None,
        validate=ma.validate.Length(1, 64),
        metadata={
            "description": "the player (id or name: POST /players) this seat is; needs "
            "`player_key`",
            "example": "alice",
        },
    )
    player_key = ma.fields.String(
        load_default=None,
        validate=ma.validate.Length(1, 256),
        metadata={"description": "the player's secret key (shown once by POST /players)"},
    )


class SeatTokenSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    seat = ma.fields.Integer(required=True)
    token = ma.fields.String(required=True, metadata={"description": "shown once"})
    order_address = ma.fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "the seat's secret order address (docs/mail.md), shown once and "
            "reissued with the token",
            "example": "orders+mfrggzdfmztwq2lknnwg23tpobyxe43u@drts.example.org",
        },
    )
    result_address = ma.fields.String(
        required=True,
        allow_none=True,
        metadata={"description": "the result address registered at the join, unconfirmed"},
    )


class ResultAddressSchema(ma.Schema):
    address = ma.fields.String(
        required=True,
        validate=RESULT_ADDRESS,
        metadata={"description": "where the seat's answers go", "example": "alice@example.org"},
    )


class ConfirmAddressSchema(ma.Schema):
    code = ma.fields.String(
        required=True,
        validate=ma.validate.Length(min=1, max=64),
        metadata={"description": "the code mailed to the result address", **ONE_LINE},
    )


class SeatAddressSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    result_address = ma.fields.String(required=True)
    confirmed = ma.fields.Boolean(required=True)
