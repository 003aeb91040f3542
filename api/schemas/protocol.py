"""The schemas of a match's bot protocol messages (api/protocol.py)."""

from __future__ import annotations

import marshmallow as ma

from api.fields import (
    query_seat,
)


class ProtocolArgsSchema(ma.Schema):
    seat = query_seat("the seat (default: the token's; the referee names one)")
    message = ma.fields.String(
        load_default="turn",
        validate=ma.validate.OneOf(["turn", "init"]),
        metadata={"description": "turn: the state message of the open turn; init: the start"},
    )
