"""How the Matches application stores the Match's typed values (domain/match/values.py).

Events carry JSON-native data only; the typed values live in the aggregate's
attributes, which snapshots store. eventsourcing's JSON transcoder needs a
transcoding for each such type, or a snapshot cannot be taken: each value is
stored as `{"_type_": "drts.<name>", "_data_": {field: value}}`, and its tuple
fields (JSON gives lists back) are made tuples again when it loads.
"""

from __future__ import annotations

import typing
from dataclasses import fields
from typing import Any

from eventsourcing.persistence import JSONTranscoder, Transcoding

from domain.match import Dispute, MovementLog, PendingOrder, Seat

VALUES: dict[str, type[Any]] = {
    "drts.seat": Seat,
    "drts.movement_log": MovementLog,
    "drts.pending_order": PendingOrder,
    "drts.dispute": Dispute,
}


class FrozenValue(Transcoding):
    """Stores a frozen dataclass as the dict of its fields."""

    def __init__(self, name: str, value_type: type[Any]) -> None:
        self.name, self.type = name, value_type
        hints = typing.get_type_hints(value_type)
        self.tuples = frozenset(
            f.name for f in fields(value_type) if typing.get_origin(hints[f.name]) is tuple
        )

    def encode(self, obj: Any) -> dict[str, Any]:
        """Returns the value's fields by name."""
        return {f.name: getattr(obj, f.name) for f in fields(obj)}

    def decode(self, data: dict[str, Any]) -> Any:
        """Returns the value the fields describe (tuple fields as tuples)."""
        return self.type(**{k: tuple(v) if k in self.tuples else v for k, v in data.items()})


def register_values(transcoder: JSONTranscoder) -> None:
    """Registers a transcoding for each typed value the Match holds."""
    for name, value_type in VALUES.items():
        transcoder.register(FrozenValue(name, value_type))
