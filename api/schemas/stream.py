"""The schemas of a match's public stream (api/stream.py): where it starts."""

from __future__ import annotations

import marshmallow as ma

from api.fields import QueryInteger
from service import limits


class StreamArgsSchema(ma.Schema):
    after = QueryInteger(
        load_default=0,
        validate=ma.validate.Range(0, limits.MAX_POSITION),
        metadata={
            "description": "send the events after this version (a Last-Event-ID header, "
            "which a reconnecting EventSource sends, wins over it)"
        },
    )


class StreamHeadersSchema(ma.Schema):
    last_event_id = QueryInteger(
        data_key="Last-Event-ID",
        load_default=None,
        allow_none=False,  # absent, not null: a header has no null
        validate=ma.validate.Range(0, limits.MAX_POSITION),
        metadata={"description": "the id (version) of the last event the viewer has"},
    )
