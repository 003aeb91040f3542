"""Asking a surface: what a match of a stage offers to read (its resolved movements in
each timeline, a receipt digest, a dispute), and the reads of a surface that declares
some parameters (`?movement=`, `?phase=`, `?timeline=`, a seat, a path's movement,
digest or dispute number), each filled from the stage; a parameter with no value at
the stage is a probe, which must answer 404; one the matrix cannot fill fails its cell.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from uuid import UUID

from domain.match import Match
from tests.matrix.stages import OPERATOR, Stage

PROBE_DIGEST = "0" * 64
PROBES = {  # what a probe (a parameter the stage has no value for) answers
    "movement": {(404, "movement_not_found"), (404, "movement_not_resolved")},
    "digest": {(404, "unknown_receipt")},
    "number": {(404, "unknown_dispute")},
    "player": {(404, "player_not_found")},  # the stages create no player (issue 45)
    "tournament": {(404, "tournament_not_found")},  # nor any tournament (issue 45)
}


class CellFailure(AssertionError):
    """Raised when a cell's read breaks an invariant (the message names the read)."""


@dataclass(frozen=True)
class Positions:
    """The positions one match offers: resolved movements by timeline (1..n) and the
    phase count of each timeline's last one, a receipt digest, a dispute number."""

    movements: dict[int, list[int]]
    timelines: int
    digest: str | None
    dispute: int | None
    last_phases: dict[int, int]


KNOWN: dict[tuple[str, UUID], Positions] = {}  # by stage and match: a stage never changes


def positions_of(stage: Stage, match_id: UUID) -> Positions:
    """Returns what a match offers to read, from the service (public reads only); kept
    for the session (a copy of a stage offers what the stage does)."""
    key = (stage.key, match_id)
    if key not in KNOWN:
        KNOWN[key] = _positions(stage, match_id)
    return KNOWN[key]


def _positions(stage: Stage, match_id: UUID) -> Positions:
    app = stage.app
    match = app.get_match(match_id)
    by_timeline, last_phases = {}, {}
    for timeline in range(1, match.timeline + 1):
        line = app.timeline_match(match_id, timeline)
        done = [log.number for log in line.movements if log.resolved]
        by_timeline[timeline] = done
        if done:
            last = app.state(match_id, done[-1], 0, timeline=timeline)
            last_phases[timeline] = len(last.phases)
    events = list(app.events.get(match_id))
    digest = next((e.digest for e in events if isinstance(e, Match.OrderSubmitted)), None)
    dispute = match.disputes[0].number if match.disputes else None
    return Positions(by_timeline, match.timeline, digest, dispute, last_phases)


# -- the variants of a read: each declared parameter filled from the stage -------------------


@dataclass(frozen=True)
class Ask:
    """One read of a surface: path values, query (or CLI options), and the probes' refusals."""

    path: dict[str, Any]
    query: dict[str, Any]
    allowed: frozenset[tuple[int, str]] = frozenset()


def asks(
    stage: Stage, match_id: UUID | None, token: str, path: set[str], query: set[str]
) -> list[Ask]:
    """Returns the reads of a surface declaring these path and query parameters: the
    plain read, then with a resolved movement (first and last), its first and last phase,
    and every earlier timeline of a corrected match with its last movement."""
    if match_id is None:
        allowed = {
            answer for name in ("player", "tournament") if name in path for answer in PROBES[name]
        }
        return [Ask(_store_path(stage, path), _store_query(stage, query), frozenset(allowed))]
    found = positions_of(stage, match_id)
    base: dict[str, Any] = {"match_id": match_id}
    allowed: set[tuple[int, str]] = set()
    current = found.movements[found.timelines]
    for name in path - {"match_id"}:
        value, probe = _path_value(stage, found, name, current)
        base[name] = value
        if probe:
            allowed |= PROBES[name]
    if path - {"match_id"} - set(base):
        raise CellFailure(f"no value for path parameter(s) {path - set(base)}: teach asking.py")
    reads = [Ask(base, {}, frozenset(allowed))]
    if _seat_query(query, token):
        reads.append(Ask(base, _seat_query(query, token), frozenset(allowed)))
    timelines = [None, *range(1, found.timelines)] if "timeline" in query else [None]
    for timeline in timelines:
        done = found.movements[timeline or found.timelines]
        extra = {} if timeline is None else {"timeline": timeline}
        if "movement" in path and done and timeline is not None:
            reads.append(Ask({**base, "movement": done[-1]}, extra, frozenset(allowed)))
        elif timeline is not None:
            reads.append(Ask(base, extra))
        if "movement" in query and done:  # every movement and phase: test_positions.py
            reads.append(Ask(base, {**extra, "movement": done[-1]}))
            if "phase" in query:
                last = found.last_phases[timeline or found.timelines]
                reads.append(Ask(base, {**extra, "movement": done[-1], "phase": last}))
    if "message" in query:
        reads.append(Ask(base, {**_seat_query(query, token), "message": "init"}))
    return reads


def _path_value(stage: Stage, found: Positions, name: str, current: list[int]) -> tuple[Any, bool]:
    if name == "movement":
        return (current[-1], False) if current else (1, True)
    if name == "digest":
        return (found.digest, False) if found.digest else (PROBE_DIGEST, True)
    if name == "number":
        return (found.dispute, False) if found.dispute else (1, True)
    if name == "name":
        return stage.game.ruleset, False
    raise CellFailure(f"no value for path parameter {name!r}: teach asking.py")


def _seat_query(query: set[str], token: str) -> dict[str, Any]:
    """The `seat` asked for: a seat's own, the referee's look at seat 1's."""
    if "seat" not in query or token == "none":
        return {}
    return {"seat": 1}


def _store_path(stage: Stage, path: set[str]) -> dict[str, Any]:
    values = {
        "name": stage.game.ruleset,
        "ruleset": stage.game.ruleset,
        "filename": "pages.css",
        "player": "matrix-probe",
        "tournament": "matrix-probe",
    }
    missing = path - set(values)
    if missing:
        raise CellFailure(f"no value for path parameter(s) {missing}: teach asking.py")
    return {name: values[name] for name in path}


def _store_query(stage: Stage, query: set[str]) -> dict[str, Any]:
    values = {"ruleset": stage.game.ruleset, "version": stage.game.version}
    return {name: values[name] for name in query if name in values}


# -- token kinds ------------------------------------------------------------------------------


def token_of(stage: Stage, kind: str) -> str | None:
    return {"none": None, "seat": stage.tokens.get(1), "referee": stage.referee,
            "operator": OPERATOR}[kind]  # fmt: skip
