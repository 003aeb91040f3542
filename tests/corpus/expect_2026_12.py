"""What each match of the corpus set 2026-12 records in its expected.json beyond the common
fields (tests/corpus/generate.py): its features, replay, audit, and every resolved
movement's state, steps, scores and public display, as digests.

The same functions read a stored match again in the tests (test_corpus_2026_12.py),
so that a test compares what the store shows now with what it showed when generated.
Every read here is public (no token): none records a look at a secret.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any
from uuid import UUID

from domain.errors import DrtsError
from service.matches import Matches
from tests.corpus.features import PROMISED, features_of
from tests.corpus.plays import Played


def digest(value: Any) -> str:
    """SHA-256 of a JSON value in canonical form (sorted keys, no spaces), or of a text."""
    text = (
        value
        if isinstance(value, str)
        else json.dumps(value, sort_keys=True, separators=(",", ":"))
    )
    return hashlib.sha256(text.encode()).hexdigest()


def movement_records(
    app: Matches, match_id: UUID | str, timeline: int | None = None
) -> list[dict[str, Any]]:
    """Every resolved movement of a timeline: its state hash, the digests of the public
    state after it, of its steps and of the public display after it, and the scores."""
    records = []
    for number in range(1, app.get_match(match_id).movement + 1):
        try:
            record = app.movement(match_id, number, timeline=timeline)
        except DrtsError:  # not resolved (a movement that fired empty, or the open one)
            continue
        steps = [{k: s[k] for k in ("rule", "text", "data")} for s in record.steps]
        records.append(
            {
                "movement": number,
                "reason": record.reason,
                "state_hash": record.state_hash,
                "state_after": digest(record.state_after),
                "steps": len(steps),
                "steps_digest": digest(steps),
                "display": digest(app.display(match_id, number, timeline)),
                "scores": (record.outcome or {}).get("scores"),
            }
        )
    return records


def match_record(app: Matches, played: Played) -> dict[str, Any]:
    """The set's fields of one match; fails generation when the match lacks a feature it
    was played to show (features.PROMISED)."""
    match_id = played.match_id
    shown = features_of(app.event_log(match_id))
    missing = [name for name in PROMISED[played.key] if name not in shown]
    assert not missing, f"{played.key} does not show {missing}"
    replay = app.replay(match_id)
    match = app.get_match(match_id)
    record: dict[str, Any] = {
        "features": shown,
        "imported": app.is_imported(match.id),
        "events": len(app.event_log(match_id)),
        "display": app.display(match_id),
        "replay": {
            "agrees": replay.agrees,
            "events": replay.events,
            "timelines": replay.timelines,
            "state": digest(replay.state),
        },
        "movements": movement_records(app, match_id),
        "earlier_timelines": {
            str(t): movement_records(app, match_id, t) for t in range(1, replay.timelines)
        },
        "audit": None,
    }
    if match.finished:  # an unfinished match's audit is the referee's look: a test's, on a copy
        report = app.audit(match_id)
        record["audit"] = {
            "exact": report.exact,
            "divergence": None if report.divergence is None else str(report.divergence),
            "movements": report.movements,
            "timelines": len(report.timelines),
        }
    return record
