"""How the Matches application stores the Match's typed values (domain/match/values.py).

Events carry JSON-native data only; the typed values live in the aggregate's
attributes, which snapshots store. eventsourcing's JSON transcoder needs a
transcoding for each such type, or a snapshot cannot be taken: each value is
stored as `{"_type_": "drts.<name>", "_data_": {field: value}}`, and its tuple
fields (JSON gives lists back) are made tuples again when it loads.

A match's movement logs are the one part of its snapshot that grows with the match (one
a movement), and a snapshot is taken about every 25 versions: they are stored as rows,
`{"_type_": "drts.movement_log_row", "_data_": [number, opened, closed, resolved,
steps]}`, `steps` being the count of StepApplied versions when they follow `closed`
one by one (as a resolution records them), else their list (issue 46: a third of the
bytes to encode, compress and decode). A snapshot stored before keeps its dict form,
which still loads.

A number with a fraction or an exponent (and NaN, Infinity) decodes as a `StoredFloat`, a
float in every way but its type, so that the chain check can hash a stored event by orjson
where it holds none and by the standard library's encoder where it does
(service/store/canonical.py: the two write floats differently).
"""

from __future__ import annotations

import json
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


class MovementLogAsRow(Transcoding):
    """Stores a MovementLog as a row (module docstring)."""

    type = MovementLog
    name = "drts.movement_log_row"

    def encode(self, obj: MovementLog) -> list[Any]:
        """Returns [number, opened, closed, resolved, steps (a count when consecutive)]."""
        steps: Any = list(obj.steps)
        if obj.closed is not None and obj.steps == tuple(
            range(obj.closed + 1, obj.closed + 1 + len(obj.steps))
        ):
            steps = len(obj.steps)
        return [obj.number, obj.opened, obj.closed, obj.resolved, steps]

    def decode(self, data: list[Any]) -> MovementLog:
        """Returns the MovementLog of a row."""
        number, opened, closed, resolved, steps = data
        if isinstance(steps, int):
            steps = range(closed + 1, closed + 1 + steps)
        return MovementLog(number, opened, closed, resolved, tuple(steps))


class StoredFloat(float):
    """A float decoded from the store (module docstring): orjson refuses it, the standard
    library's JSON encoder writes it as any float."""

    __slots__ = ()


class MatchTranscoder(JSONTranscoder):
    """eventsourcing's JSON transcoder, with a decoding hook that tells a typed value's
    `{"_type_": ..., "_data_": ...}` from any other two-key object by looking, where the
    library's raises and catches a KeyError: a replay decodes about one such object an
    event (issue 46). What it encodes is the library's; what it decodes too, a float
    being a StoredFloat (module docstring)."""

    def __init__(self) -> None:
        super().__init__()
        self.decoder = json.JSONDecoder(
            object_hook=self._decode_obj,
            parse_float=StoredFloat,
            parse_constant=StoredFloat,  # NaN, Infinity, -Infinity: float() reads each
        )

    def _decode_obj(self, d: dict[str, Any]) -> Any:
        if len(d) == 2 and "_type_" in d and "_data_" in d:
            return super()._decode_obj(d)
        return d


def register_values(transcoder: JSONTranscoder) -> None:
    """Registers a transcoding for each typed value the Match holds (MovementLog's row
    last: it encodes; the dict form still decodes)."""
    for name, value_type in VALUES.items():
        transcoder.register(FrozenValue(name, value_type))
    transcoder.register(MovementLogAsRow())
