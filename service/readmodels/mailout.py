"""The mail outbox projection: which notices to mail, recorded from the log (docs/mail.md).

For each MovementResolved it records a `result` notice for every seat of the match with a
confirmed result address and for the referee's (seat 0 in `mail_result_addresses`); for
each DisputeFiled and DisputeRuled a `dispute` notice for the referee's. The rows are
written with the projection's tracking row in one transaction, so a crash records all of
an event's notices or none, and the event again after a restart.

A notice is keyed by kind, match, event version and seat, and recorded with ON CONFLICT
DO NOTHING: an event applied again (a rebuild) records nothing twice. Only addresses
confirmed by the time of the event count, so a replay never sends a seat the results of
movements resolved before it confirmed its address. Sending is service/channels/mail/notices.py's.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.persistence import Tracking

from domain.match import Match
from service.readmodels.projections import ReadModel, handles
from service.readmodels.recorders import Statement

REFEREE_SEAT = 0  # the referee's row in mail_result_addresses
RESULT, REMINDER, DISPUTE = "result", "reminder", "dispute"
RECORD = (
    "INSERT INTO {mail_notices} (notice_id, kind, match_id, movement, version, seat, address, "
    "recorded_at, attempts) SELECT :prefix || CAST(r.seat AS TEXT), :kind, r.match_id, "
    ":movement, :version, r.seat, r.address, :at, 0 FROM {mail_result_addresses} r "
    "WHERE r.match_id = :match_id AND r.confirmed_at IS NOT NULL AND r.confirmed_at <= :at "
    "AND r.seat >= :lowest AND r.seat <= :highest "
    "ON CONFLICT (notice_id) DO NOTHING"
)
EVERY_SEAT = 2**31 - 1


def notice_prefix(kind: str, match_id: Any, key: int) -> str:
    """Returns the start of a notice's id; the recipient's seat number ends it."""
    return f"{kind}.{match_id}.{key}.seat-"


def record(kind: str, e: Any, movement: int, referee_only: bool) -> Statement:
    """Returns the statement recording the notices of one event (service docstring)."""
    return (
        RECORD,
        {
            "prefix": notice_prefix(kind, e.originator_id, e.originator_version),
            "kind": kind,
            "match_id": e.originator_id,
            "movement": movement,
            "version": e.originator_version,
            "at": e.timestamp,
            "lowest": REFEREE_SEAT,
            "highest": REFEREE_SEAT if referee_only else EVERY_SEAT,
        },
    )


class MailOutbox(ReadModel):
    """The notices to mail: results to the seats and the referee, disputes to the referee."""

    name = "mail_outbox"

    @handles(Match.MovementResolved)
    def movement_resolved(self, e: Match.MovementResolved, tracking: Tracking) -> list[Statement]:
        return [record(RESULT, e, e.movement, referee_only=False)]

    @handles(Match.DisputeFiled)
    def dispute_filed(self, e: Match.DisputeFiled, tracking: Tracking) -> list[Statement]:
        return [record(DISPUTE, e, e.movement, referee_only=True)]

    @handles(Match.DisputeRuled)
    def dispute_ruled(self, e: Match.DisputeRuled, tracking: Tracking) -> list[Statement]:
        return [record(DISPUTE, e, 0, referee_only=True)]
