"""How the Matches application stores the Match's typed values (domain/match/values.py).

Events carry JSON-native data only; the typed values live in the aggregate's
attributes, which snapshots store. eventsourcing's JSON transcoder needs a
transcoding for each such type, or a snapshot cannot be taken: each value is
stored as `{"_type_": "drts.<name>", "_data_": {field: value}}`, and its tuple
fields (JSON gives lists back) are made tuples again when it loads.

A match's movement logs are the one part of its snapshot that grows with the match (one
a movement), and a snapshot is taken about every 25 versions, so at every resolution of
a long match. They are stored as rows, `[number, opened, closed, resolved, steps]`,
`steps` being the count of StepApplied versions when they follow `closed` one by one (as
a resolution records them), else their list (issue 46: a third of the bytes to encode,
compress and decode), and all of a match's rows as one typed value, `{"_type_":
"drts.movement_log_rows", "_data_": [row, ...]}`: one call of the encoder's hook a
snapshot instead of one a movement, and each log's row is made once while the log lives
(a log never changes: `RowsOfLiveLogs`), so a snapshot's cost grows with the match only by
the JSON of its rows (issue 46: the order that resolves movement 300 cost 1.25x the one
that resolves movement 1). Snapshots stored before keep their forms, which still
load: each log a `drts.movement_log_row` row, or earlier a `drts.movement_log` dict. A
snapshot is compressed at zlib's fastest level (`mapper_for_snapshots`): it is a cache of
the checked log, and zlib decompresses any level.

A number with a fraction or an exponent (and NaN, Infinity) decodes as a `StoredFloat`, a
float in every way but its type, so that the chain check can hash a stored event by orjson
where it holds none and by the standard library's encoder where it does
(service/store/canonical.py: the two write floats differently).
"""

from __future__ import annotations

import contextlib
import functools
import json
import typing
import weakref
import zlib
from collections.abc import Callable
from dataclasses import fields
from typing import Any
from uuid import UUID

from eventsourcing.compressor import ZlibCompressor
from eventsourcing.domain import Snapshot
from eventsourcing.persistence import JSONTranscoder, Mapper, Transcoding

from domain.match import Dispute, Match, MovementLog, PendingOrder, Seat

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


class MovementLogRows:
    """A match's movement logs as its snapshot holds them: stored as one typed value of
    rows (module docstring). Only a snapshot's state holds one; it loads as the list."""

    __slots__ = ("logs",)

    def __init__(self, logs: list[MovementLog]) -> None:
        self.logs = logs


class RowsOfLiveLogs:
    """The row made of each MovementLog still alive in this process, by the log's identity
    (a MovementLog is frozen): an entry goes when its log is freed, so it holds no log
    longer than the matches that hold it, about 230 bytes a log besides (issue 46)."""

    def __init__(self) -> None:
        self._rows: dict[int, tuple[weakref.ref[MovementLog], list[Any]]] = {}

    def row(self, log: MovementLog, make: Callable[[MovementLog], list[Any]]) -> list[Any]:
        """Returns `make(log)`, made once while the log lives."""
        key = id(log)
        entry = self._rows.get(key)
        if entry is not None and entry[0]() is log:
            return entry[1]
        made = make(log)
        self._rows[key] = (weakref.ref(log, functools.partial(self._forget, key)), made)
        return made

    def _forget(self, key: int, dead: weakref.ref[MovementLog]) -> None:
        # a freed log's id may be taken again: forget only the entry of the freed one
        entry = self._rows.get(key)
        if entry is not None and entry[0] is dead:
            with contextlib.suppress(KeyError):  # another thread got there
                del self._rows[key]

    def __len__(self) -> int:
        return len(self._rows)


class MovementLogRowsValue(Transcoding):
    """Stores a match's movement logs as a list of rows (module docstring)."""

    type = MovementLogRows
    name = "drts.movement_log_rows"

    def __init__(self) -> None:
        self.rows = RowsOfLiveLogs()
        self.row = MovementLogAsRow()

    def encode(self, obj: MovementLogRows) -> list[list[Any]]:
        """Returns each log's row, made once while the log lives."""
        return [self.rows.row(log, self.row.encode) for log in obj.logs]

    def decode(self, data: list[list[Any]]) -> list[MovementLog]:
        """Returns the logs, as the Match holds them."""
        return [self.row.decode(row) for row in data]


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
    last: it encodes; the dict form still decodes), and for a snapshot's movement logs."""
    for name, value_type in VALUES.items():
        transcoder.register(FrozenValue(name, value_type))
    transcoder.register(MovementLogAsRow())
    transcoder.register(MovementLogRowsValue())


def snapshot_of(match: Match) -> Snapshot:
    """Returns eventsourcing's snapshot of the match, its movement logs held as the one
    typed value of rows they are stored as (module docstring)."""
    snapshot = Snapshot.take(match)
    snapshot.state["movements"] = MovementLogRows(snapshot.state["movements"])
    return snapshot


class FastZlibCompressor(ZlibCompressor):
    """zlib at its fastest level: a snapshot's bytes are a cache of the checked log, so a
    quarter of the time to compress is worth an eighth more bytes; zlib decompresses every
    level alike (issue 46)."""

    def compress(self, data: bytes) -> bytes:
        return zlib.compress(data, 1)


def mapper_for_snapshots(mapper: Mapper[UUID]) -> Mapper[UUID]:
    """Returns the mapper that stores snapshots: the store's, compressing at zlib's fastest
    level where the store compresses with zlib. The store's mapper loads what it stores."""
    compressor = mapper.compressor
    if type(compressor) is ZlibCompressor:
        compressor = FastZlibCompressor()
    return Mapper(transcoder=mapper.transcoder, compressor=compressor, cipher=mapper.cipher)
