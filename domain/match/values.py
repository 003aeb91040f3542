"""The typed values a Match holds: its seats, its movements' event versions, the open
movement's pending orders, the receipt of an accepted order, and its disputes.

They are frozen: an event's `apply` replaces one rather than changing it. Snapshots
store them through the Matches application's transcodings (service/store/transcodings.py);
`upcast_v1_v2` turns a snapshot of the older, untyped shape into them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from domain.rules.contract import JSON, RefusedPart


@dataclass(frozen=True)
class Seat:
    """A joined seat: its number (1..N in join order), the player's name, its token's hash,
    and the id of the player identity it named (issue 45; None: none named, or older)."""

    number: int
    name: str
    token_hash: str
    player_id: str | None = None


@dataclass(frozen=True)
class MovementLog:
    """The versions of one movement's events: the one that opened it, its MovementClosed,
    its StepApplied events and its MovementResolved (None until they happen)."""

    number: int
    opened: int
    closed: int | None = None
    resolved: int | None = None
    steps: tuple[int, ...] = ()


@dataclass(frozen=True)
class PendingOrder:
    """An order of the open movement, as its OrderSubmitted event (at `version`) carries it:
    the dumped order, the order as sent and its salt are secret until the movement closes."""

    seat: int
    order: JSON
    salt: str
    digest: str
    received_at: datetime
    source: str
    message_id: str | None
    version: int
    # the order exactly as the seat sent it (text, or JSON object), bound by the digest
    # (issue 17); None for an order stored before it, or in a snapshot taken before it
    sent: JSON = None


@dataclass(frozen=True)
class Dispute:
    """A dispute filed on the match (its DisputeFiled event at `version`, `filed_at`), and
    its ruling once the referee has ruled (DisputeRuled at `ruled_version`, `ruled_at`;
    None until then).

    `by` is "seat" (then `seat` is its number), "referee" or "operator"; `movement` the
    movement open when it was filed (the last one played once finished; 0 before the
    start); `cites` the event versions it cites, sorted. `ruling` is "dismissed" or
    "upheld"; `correction` the version of the Corrected event an upheld dispute led to (None:
    dismissed, or upheld with a note). `key_digest`: the SHA-256 of the filer's idempotency
    key, if it sent one."""

    number: int
    by: str
    seat: int | None
    movement: int
    cites: tuple[int, ...]
    text: str
    version: int
    filed_at: datetime
    ruling: str | None = None
    reason: str | None = None
    ruled_by: str | None = None
    ruled_version: int | None = None
    ruled_at: datetime | None = None
    correction: int | None = None
    key_digest: str | None = None

    @property
    def is_open(self) -> bool:
        """Returns whether the referee has not ruled on it yet."""
        return self.ruling is None


@dataclass(frozen=True)
class Receipt:
    """What a seat gets back for an accepted order."""

    seat: int
    movement: int
    digest: str
    received_at: datetime
    ready: bool = False  # the movement may now close early: every owing seat has ordered
    refused: tuple[RefusedPart, ...] = ()  # parts of the message refused (contract, screen_order)
    standing: JSON = None  # the seat's standing order after this one (Table.standing_order)


def upcast_v1_v2(state: dict[str, Any]) -> None:
    """Brings a Match snapshot's attributes from shape 1 to shape 2, in place: seats,
    movements and pending orders as the values above (they were dicts; movements were
    keyed by the movement number as a string), and `replay_id` / `replay_of` named
    `rematch_id` / `rematch_of`."""
    state["seats"] = [Seat(s["seat"], s["name"], s["token_hash"]) for s in state["seats"]]
    state["pending"] = [PendingOrder(**order) for order in state["pending"]]
    state["movements"] = [
        MovementLog(
            int(number),
            log["opened"],
            log.get("closed"),
            log.get("resolved"),
            tuple(log["steps"]),
        )
        for number, log in sorted(state["movements"].items(), key=lambda item: int(item[0]))
    ]
    state["rematch_id"] = state.pop("replay_id", None)
    state["rematch_of"] = state.pop("replay_of", None)


def upcast_v2_v3(state: dict[str, Any]) -> None:
    """Brings a Match snapshot's attributes from shape 2 to shape 3, in place: `quarantined`
    (None: a match snapshotted before quarantines existed was not quarantined) and
    `closed_at`, the intended instant of the last movement's close, unknown for an old
    snapshot (None: no order is then refused as having raced that close)."""
    state["quarantined"] = None
    state["closed_at"] = None


def upcast_v3_v4(state: dict[str, Any]) -> None:
    """Brings a Match snapshot's attributes from shape 3 to shape 4, in place: `paused`
    (None: a match snapshotted before pauses existed was running), `clock_floor` (None:
    no close waits for a resume or an action), `timeline` (1: no correction yet),
    `voided` (None: not a voided rematch) and `disputes` (empty: a match snapshotted
    before disputes existed had none)."""
    state["paused"] = None
    state["clock_floor"] = None
    state["timeline"] = 1
    state["voided"] = None
    state["disputes"] = []


def upcast_v4_v5(state: dict[str, Any]) -> None:
    """Brings a Match snapshot's attributes from shape 4 to shape 5, in place: `rated`
    (False: a match snapshotted before ratings existed was created unrated; issue 45). Its
    seats need nothing: a stored Seat without `player_id` loads with None."""
    state["rated"] = False
