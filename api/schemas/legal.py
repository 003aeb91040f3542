"""The schemas of GET /matches/{id}/legal-orders (api/legal.py, service/queries/legal.py): what a
seat may order now, as whole orders or as per-piece commands with their combining rule."""

from __future__ import annotations

import marshmallow as ma

from api.fields import (
    query_seat,
)
from service.queries import legal


class LegalOrdersArgsSchema(ma.Schema):
    seat = query_seat("the seat asked for: the referee names one; a seat its own")


class OrderFormsSchema(ma.Schema):
    text = ma.fields.String(required=True, metadata={"description": "the game's text form"})
    json = ma.fields.Raw(required=True, metadata={"description": "the game's JSON form"})


class CommandSchema(OrderFormsSchema):
    spends = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.Integer(),
        required=True,
        metadata={"description": "what the command takes from the seat's stock (DRTS-21)"},
    )
    note = ma.fields.String(
        required=True,
        metadata={"description": "why it is legal where a rule needs saying (DRTS-6), or ''"},
    )


class PieceCommandsSchema(ma.Schema):
    piece = ma.fields.Raw(
        required=True,
        metadata={"description": "the piece's id (a shade's number, a DRTS kind, 'team', 'Q7')"},
    )
    commands = ma.fields.List(
        ma.fields.Nested(CommandSchema),
        required=True,
        metadata={"description": "every command legal for it now, as a one-command order"},
    )


class CombiningSchema(ma.Schema):
    rule = ma.fields.String(required=True, metadata={"description": "the rule, citing the rules"})
    max_pieces = ma.fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "at most this many pieces commanded, `free` aside (null: any)"},
    )
    free = ma.fields.List(
        ma.fields.Raw(),
        required=True,
        metadata={"description": "pieces not counted against max_pieces (DRTS's team request)"},
    )
    repeats = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.Integer(),
        required=True,
        metadata={"description": "pieces commanded up to n times (B-Chess's purchases)"},
    )
    stock = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.Integer(),
        required=True,
        metadata={
            "description": "what the seat has left to spend once its standing order is paid "
            "for; the commands' `spends` add up (B-Chess: its macks left, BC-6)"
        },
    )
    ordered = ma.fields.Dict(
        keys=ma.fields.String(),
        values=ma.fields.Dict(keys=ma.fields.String(), values=ma.fields.Integer()),
        required=True,
        metadata={
            "description": "the pieces the seat's standing order already commands, each with "
            "what its standing command spends: they count against max_pieces, and a command "
            "on one replaces its standing one, whose spends come back (DRTS v2's merge); in "
            "B-Chess a further action of one is tried only if the standing one fails (BC-3)"
        },
    )
    snapshot = ma.fields.Boolean(
        required=True,
        metadata={
            "description": "every command is judged against the state now (false: pieces act "
            "one after another, an earlier one may stop a later one: B-Chess, BC-3)"
        },
    )


class LegalOrdersSchema(ma.Schema):
    match_id = ma.fields.UUID(required=True)
    seat = ma.fields.Integer(required=True)
    movement = ma.fields.Integer(
        required=True,
        allow_none=True,
        metadata={"description": "the open movement (null before the start)"},
    )
    ruleset = ma.fields.String(required=True)
    version = ma.fields.Integer(required=True)
    lists = ma.fields.List(
        ma.fields.String(metadata={"enum": ["orders", "commands"]}),
        required=True,
        metadata={"description": "what the game lists: whole orders, per-piece commands"},
    )
    owes = ma.fields.Boolean(required=True, metadata={"description": "whether it owes one now"})
    why = ma.fields.String(
        required=True,
        allow_none=True,
        metadata={
            "description": "why it owes nothing (null when it owes)",
            "enum": [legal.NOT_STARTED, legal.FINISHED, legal.ELIMINATED, legal.NOT_ITS_TURN, None],
        },
    )
    reason = ma.fields.String(required=True, metadata={"description": "`why` in words"})
    orders_sent = ma.fields.Integer(
        required=True, metadata={"description": "the seat's orders already sent this movement"}
    )
    order_policy = ma.fields.String(
        required=True,
        metadata={
            "description": "how a further order combines with the standing one: `replace` "
            "(it replaces it whole: anything listed may be sent instead), `merge` (per piece, "
            "DRTS v2), `accumulate` (it adds to it, B-Chess)",
            "enum": ["replace", "merge", "accumulate"],
        },
    )
    standing = ma.fields.Raw(
        required=True,
        allow_none=True,
        metadata={
            "description": "the seat's standing order of the open movement, as its receipts' "
            "`standing` (null or [] when it has sent none); the lists are over it"
        },
    )
    orders = ma.fields.List(
        ma.fields.Nested(OrderFormsSchema),
        required=True,
        allow_none=True,
        metadata={"description": "every legal order (null: the game cannot list them)"},
    )
    pieces = ma.fields.List(
        ma.fields.Nested(PieceCommandsSchema),
        required=True,
        allow_none=True,
        metadata={"description": "each piece's legal commands (null: the game lists none)"},
    )
    combining = ma.fields.Nested(
        CombiningSchema,
        required=True,
        allow_none=True,
        metadata={"description": "how `pieces`' commands make one order (null without them)"},
    )
