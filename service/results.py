"""The values the Matches application's use cases return (plain, frozen, JSON-friendly)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from domain.rules.contract import JSON, Step


@dataclass(frozen=True)
class NewMatch:
    """A created match; the referee token is shown once (None on an idempotent retry)."""

    match_id: UUID
    referee_token: str | None
    created: bool = True


@dataclass(frozen=True)
class NewSeat:
    """A joined seat; its token is shown once."""

    match_id: UUID
    seat: int
    token: str


@dataclass(frozen=True)
class Closing:
    """What resolving a due movement did: strikes, eliminations, an extension or a resolution."""

    match_id: UUID
    movement: int
    strikes: tuple[int, ...]
    eliminated: tuple[int, ...]
    resolved: bool
    steps: tuple[Step, ...]
    finished: bool
    rematch_id: UUID | None = None  # the new match playing a drawn one again (DW-5)

    @property
    def replay_id(self) -> UUID | None:
        """Returns `rematch_id` (its name before version 0.2; deprecated)."""
        return self.rematch_id


@dataclass(frozen=True)
class OrderReceipt:
    """An accepted order: seat, movement, receipt digest, and the closing it triggered if any."""

    match_id: UUID
    seat: int
    movement: int
    digest: str
    received_at: datetime
    closing: Closing | None = None


@dataclass(frozen=True)
class ActionTaken:
    """A referee action recorded (a RefereeActed event at `version`): its steps and the
    outcome after it."""

    match_id: UUID
    movement: int
    action: str
    version: int
    steps: tuple[Step, ...]
    outcome: JSON


@dataclass(frozen=True)
class Page:
    """One page of a listing: its items and the cursor of the next page (None at the end)."""

    items: list[dict[str, JSON]]
    next: str | None


@dataclass(frozen=True)
class EventPage:
    """Events after a version: at most `limit`, `next` set if more follow, and the head version."""

    match_id: UUID
    items: list[dict[str, JSON]]
    next: int | None
    version: int


@dataclass(frozen=True)
class DueMovement:
    """A movement that should be resolved now: its deadline has passed.

    Only deadlines make a movement due: one that may close early resolves with
    the order that makes it ready (Matches.submit_order).
    """

    match_id: UUID
    movement: int
    deadline: datetime | None
