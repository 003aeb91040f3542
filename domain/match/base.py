"""What every part of the Match aggregate shares: its attributes (declared here, set by
`Match.__init__` and its events' `apply`), its event classes as the type checker sees
them, and recording an event with its chain link.

The Match class (domain/match/__init__.py) is built from layers, each a plain class at
run time: MatchBase, then queries and guards (queries.py), the commands of play
(play.py), the referee's pause and resume (referee.py), those before and after play
(lobby.py), disputes (disputes.py), corrections (corrections.py), and the quarantine
(quarantine.py). To the type checker each layer is
an Aggregate holding these attributes, so the layers stay small and typed while the
events stay nested in `Match`, where their stored topics (`domain.match:Match.Created`,
...) put them.
"""

from __future__ import annotations

import functools
from dataclasses import MISSING, fields
from datetime import datetime
from typing import TYPE_CHECKING, Any

from eventsourcing.domain import Aggregate

from domain.integrity import chain_link, normalized
from domain.match.values import Dispute, MovementLog, PendingOrder, Seat
from domain.rules.contract import JSON

METADATA = frozenset({"originator_id", "originator_version", "originator_topic", "timestamp"})

if TYPE_CHECKING:
    _Layer = Aggregate
else:
    _Layer = object


def event_data(domain_event: object) -> dict[str, Any]:
    """Returns an event's data: its fields without metadata, `chain` and `sealed`."""
    return {
        k: v
        for k, v in vars(domain_event).items()
        if k not in METADATA and k not in ("chain", "sealed")
    }


@functools.cache  # an event class's fields never change (issue 46: a call each event)
def _defaults(event_class: type[Aggregate.Event]) -> dict[str, Any]:
    """Returns the defaults of an event's fields (a new event stores them: its chain link
    covers them, though older events lack them). The one dict for a class: read only."""
    return {
        f.name: f.default
        for f in fields(event_class)
        if f.default is not MISSING and f.name not in ("chain", "sealed")
    }


class MatchBase(_Layer):
    """The Match's attributes and its recording of events (see the module docstring)."""

    if TYPE_CHECKING:
        ruleset: str
        ruleset_version: int
        config: dict[str, Any]
        seat_limits: dict[str, int]  # {"min": n, "max": m}
        schedule: dict[str, Any]  # {"deadline_seconds": n or None}
        seed_commitment: str
        referee_token_hash: str
        seed: str
        rated: bool  # its result counts for ratings (issue 45)
        chain: str
        seats: list[Seat]
        started: bool
        finished: bool
        movement: int
        state: JSON
        outcome: JSON
        deadline: datetime | None
        pending: list[PendingOrder]
        steps: list[JSON]  # the open movement's steps so far (StepApplied)
        strikes: dict[str, int]  # by seat number as a string
        eliminated: list[int]
        movements: list[MovementLog]  # in movement order, from the one it started at
        rematch_id: str | None
        rematch_of: str | None
        quarantined: dict[str, Any] | None  # movement, error, message, failures, at
        closed_at: datetime | None  # the intended instant the last movement closed at
        paused: dict[str, Any] | None  # the referee's pause: at, deadline, reason, by
        clock_floor: datetime | None  # no close is intended before it (a resume, an action)
        timeline: int  # 1, then one more after each correction (domain/match/timelines.py)
        voided: dict[str, Any] | None  # a rematch a correction voided: original_id, correction
        disputes: list[Dispute]  # in filing order: dispute n is disputes[n - 1]

        SeatJoined: type[Aggregate.Event]
        SeatTokenReissued: type[Aggregate.Event]
        Started: type[Aggregate.Event]
        DeadlineSet: type[Aggregate.Event]
        OrderSubmitted: type[Aggregate.Event]
        OrderRejected: type[Aggregate.Event]
        SeatStruck: type[Aggregate.Event]
        SeatEliminated: type[Aggregate.Event]
        MovementClosed: type[Aggregate.Event]
        StepApplied: type[Aggregate.Event]
        MovementResolved: type[Aggregate.Event]
        Finished: type[Aggregate.Event]
        SecretViewed: type[Aggregate.Event]
        RefereeActed: type[Aggregate.Event]
        SeatAdded: type[Aggregate.Event]
        ReplayLinked: type[Aggregate.Event]
        ReplayOf: type[Aggregate.Event]
        Quarantined: type[Aggregate.Event]
        QuarantineLifted: type[Aggregate.Event]
        Paused: type[Aggregate.Event]
        Resumed: type[Aggregate.Event]
        Corrected: type[Aggregate.Event]
        Voided: type[Aggregate.Event]
        DisputeFiled: type[Aggregate.Event]
        DisputeRuled: type[Aggregate.Event]
        ForumUserMapped: type[Aggregate.Event]

    def _record(self, event_class: type[Aggregate.Event], at: datetime, **data: Any) -> None:
        """Triggers an event stamped `at`, with its chain link computed over its body."""
        sealed = data.pop("sealed", None)
        data = {**_defaults(event_class), **data}  # the body covers every field stored
        data = {key: normalized(value) for key, value in data.items()}
        chain = chain_link(self.chain, event_class.__name__, self.version + 1, at, data)
        extra = {} if sealed is None else {"sealed": normalized(sealed)}
        self.trigger_event(event_class, timestamp=at, chain=chain, **data, **extra)

    def _log_movement(
        self,
        number: int,
        step: int | None = None,
        closed: int | None = None,
        resolved: int | None = None,
    ) -> None:
        """Sets the version of movement `number`'s close or resolution in its log, or adds
        `step` to its steps (an event's `apply`: the movement is the open one)."""
        index = number - self.movements[0].number
        log = self.movements[index]
        # built directly, not by dataclasses.replace: a replay calls this once an event
        self.movements[index] = MovementLog(
            log.number,
            log.opened,
            log.closed if closed is None else closed,
            log.resolved if resolved is None else resolved,
            log.steps if step is None else (*log.steps, step),
        )
