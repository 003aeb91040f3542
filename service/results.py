"""What the Matches application's use cases return: one family of frozen dataclasses.

The edges show them as JSON: the API through its schemas (api/schemas/), the CLI
through `to_json()`. Inside them, the documents whose shape the docs fix stay JSON
(`dict[str, JSON]`), as they are stored or served: an outcome, a game state, an event
in its public form (docs/integrity.md), an item of a listing or a pending order
(docs/api.md).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any
from uuid import UUID

from domain.audit import Divergence
from domain.integrity import BrokenLink
from domain.rules.contract import JSON, RefusedPart, Step

Document = dict[str, JSON]


@dataclass(frozen=True)
class Result:
    """The base of every result: its JSON form is its fields, by name."""

    def to_json(self) -> dict[str, Any]:
        """Returns the result as the API shows it (UUIDs, instants as strings)."""
        return {key: _jsonable(value) for key, value in asdict(self).items()}


def _jsonable(value: Any) -> Any:
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, list | tuple):
        return [_jsonable(item) for item in value]
    if isinstance(value, dict):
        return {key: _jsonable(item) for key, item in value.items()}
    return value


@dataclass(frozen=True)
class Head(Result):
    """A point of a match's log: a version and the chain value of the event there
    (docs/integrity.md, Heads and receipts). Whoever holds one can later check that the
    log still holds it."""

    version: int
    chain: str


# -- commands -------------------------------------------------------------------------------


@dataclass(frozen=True)
class NewMatch(Result):
    """A created match; the referee token is shown once (None on an idempotent retry)."""

    match_id: UUID
    referee_token: str | None
    created: bool = True


@dataclass(frozen=True)
class NewSeat(Result):
    """A joined seat; its token and its secret order address (docs/mail.md) are shown once.
    `result_address` is the address registered for its answers (unconfirmed), if any."""

    match_id: UUID
    seat: int
    token: str
    order_address: str | None = None
    result_address: str | None = None


@dataclass(frozen=True)
class Closing(Result):
    """What resolving a due movement did: strikes, eliminations, an extension or a resolution."""

    match_id: UUID
    movement: int
    strikes: tuple[int, ...]
    eliminated: tuple[int, ...]
    resolved: bool
    steps: tuple[Step, ...]
    finished: bool
    rematch_id: UUID | None = None  # the new match playing a drawn one again (DW-5)
    head: Head | None = None  # the log's head after the whole write that closed it

    @property
    def replay_id(self) -> UUID | None:
        """Returns `rematch_id` (its name up to version 0.1; deprecated)."""
        return self.rematch_id


@dataclass(frozen=True)
class OrderReceipt(Result):
    """An accepted order: seat, movement, receipt digest, the closing it triggered if any,
    the version of the OrderSubmitted event that stored it and the log's head after the
    whole write that stored it (docs/integrity.md, Heads and receipts)."""

    match_id: UUID
    seat: int
    movement: int
    digest: str
    received_at: datetime
    closing: Closing | None = None
    refused: tuple[RefusedPart, ...] = ()  # parts of the message refused, the rest stands
    standing: JSON = None  # the seat's whole standing order after this message
    version: int = 0
    head: Head | None = None


@dataclass(frozen=True)
class ActionTaken(Result):
    """A referee action recorded (a RefereeActed event at `version`): its steps and the
    outcome after it."""

    match_id: UUID
    movement: int
    action: str
    version: int
    steps: tuple[Step, ...]
    outcome: JSON


@dataclass(frozen=True)
class Superseded(Result):
    """The versions a correction superseded: the first and the last."""

    first: int
    last: int


@dataclass(frozen=True)
class CorrectionMade(Result):
    """A correction recorded (a Corrected event at `version`, docs/referee.md): the new
    timeline, the versions it superseded, the recorded inputs the new timeline refused
    (`{"version", "type", "seat", "error", "reason"}`), the rematch it voided, the
    match's movement and outcome after it, and the head after the whole write."""

    match_id: UUID
    movement: int  # the corrected movement
    timeline: int
    version: int
    superseded: Superseded
    refused: tuple[JSON, ...]
    voided_rematch: str | None
    open_movement: int
    outcome: JSON
    head: Head


@dataclass(frozen=True)
class ImportedMatch(Result):
    """A match archive imported (docs/archive.md): its match, form, events and head, and
    whether they were stored now (False: the store held the same events already)."""

    match_id: UUID
    ruleset: str
    ruleset_version: int
    form: str
    events: int
    head: JSON  # {"version", "chain"}
    stored: bool


# -- reads of one match ---------------------------------------------------------------------


@dataclass(frozen=True)
class MatchSummary(Result):
    """The public summary of a match: ruleset, seats, status, open movement, deadline,
    outcome, chain head, the rematch links (DW-5), its quarantine, if any, and how many of
    its disputes are open and ruled."""

    match_id: str
    ruleset: str
    ruleset_version: int
    config: Document
    seats: list[Document]  # {"seat", "name"}
    seat_limits: dict[str, int]
    status: str  # "open", "started" or "finished"
    movement: int
    deadline: str | None
    to_move: list[int]
    strikes: dict[str, int]
    eliminated: list[int]
    outcome: JSON
    seed_commitment: str
    version: int
    chain: str
    rematch_id: str | None
    rematch_of: str | None
    quarantined: JSON = None  # {"movement", "error", "message", "failures", "at"} or None
    paused: JSON = None  # {"at", "deadline", "reason", "by"} or None
    timeline: int = 1  # one more after each correction
    disputes: dict[str, int] | None = None  # {"open": n, "ruled": m}

    @property
    def replay_id(self) -> str | None:
        """Returns `rematch_id` (its name up to version 0.1; deprecated)."""
        return self.rematch_id

    @property
    def replay_of(self) -> str | None:
        """Returns `rematch_of` (its name up to version 0.1; deprecated)."""
        return self.rematch_of

    def to_json(self) -> dict[str, Any]:
        """Returns the summary as the API shows it, with the deprecated aliases."""
        return {**super().to_json(), "replay_id": self.replay_id, "replay_of": self.replay_of}


@dataclass(frozen=True)
class StateView(Result):
    """The state of a match as one viewer may see it: now, when a movement was open, or after
    a phase of its resolution (`phase`, with the steps of the phases up to it)."""

    match_id: str
    movement: int
    phase: int | None
    phase_name: str | None
    phases: list[str]
    version: int
    state: JSON
    steps: list[JSON]
    outcome: JSON
    orders: list[Document]  # the looking seat's own pending orders, when it looks now
    head: Head | None = None  # the log's head after the write that gave this state
    timeline: int = 1  # the timeline read (the current one unless asked: corrections)


@dataclass(frozen=True)
class LiveReading:
    """What the match page shows of a match at one version (issue 47): its summary, the
    summary of the timeline shown (itself unless an earlier timeline of a corrected match
    is asked), and that timeline's spectator state, movement and Public Display."""

    summary: MatchSummary
    shown: MatchSummary
    state: JSON
    movement: int
    display: str


@dataclass(frozen=True)
class Scores(Result):
    """The outcome (scores, ranking, result) when a movement was open, or now."""

    match_id: str
    movement: int
    outcome: JSON


@dataclass(frozen=True)
class Scoreboard(Result):
    """The scores after each resolved movement, per seat and team (from the read models)."""

    match_id: str
    ruleset: str
    seats: list[Document]
    status: str
    movements: list[Document]  # {"movement", "seats": [{"seat", "score", "rank"}], "teams"}
    left_out: bool = False  # the scoreboards projection leaves the match out (One bad event)


@dataclass(frozen=True)
class EventPage(Result):
    """Events after a version: at most `limit`, `next` set if more follow, and the head version."""

    match_id: UUID
    items: list[Document]
    next: int | None
    version: int


@dataclass(frozen=True)
class DisputePage(Result):
    """A match's disputes after a number, in filing order: at most `limit`, `next` the
    number of the page's last one when more (of those asked for) follow, else None."""

    items: list[Document]
    next: int | None


@dataclass(frozen=True)
class Viewer(Result):
    """Who is looking: the referee (`name` says whether the operator), a seat, or anyone."""

    referee: bool = False
    seat: int | None = None
    name: str = "referee"


@dataclass(frozen=True)
class Discrepancy(Result):
    """What verifying a match found against one piece of evidence: a receipt or a head
    given (`source` names it), a read model's head, a snapshot, the match's finish.

    `kind`: "truncated" (the log ends before the evidence's version), "rewritten" (the
    log's chain or event at that version is not the evidence's), "order" (a receipt's
    order is not the one the log revealed), "snapshot" (a snapshot differs from the
    events), "finish" (a finished match's log lacks its finish, or goes on after it
    with events other than referee or dispute events).
    """

    source: str
    kind: str
    version: int
    message: str


@dataclass(frozen=True)
class ChainReport(Result):
    """The result of verifying a match: the chain (sound, or the first broken event), its
    head, and what the evidence checked against it found (`problems`)."""

    match_id: UUID
    events: int
    head: str | None
    broken: BrokenLink | None
    version: int = 0  # the head's version (the last event's), 0 if the log is broken
    problems: tuple[Discrepancy, ...] = ()
    evidence: int = 0  # receipts and heads given, checked against the log
    timeline: int = 1  # the timeline whose last event `head` and `version` are
    timelines: int = 1  # how many the match has (one more after each correction)

    @property
    def ok(self) -> bool:
        """Returns whether every event verified and no evidence disagrees with the log."""
        return self.broken is None and not self.problems


@dataclass(frozen=True)
class Frame(Result):
    """One resolved movement as replayed: its steps, state hash and outcome."""

    movement: int
    version: int
    steps: tuple[JSON, ...]
    state: JSON
    state_hash: str
    outcome: JSON


@dataclass(frozen=True)
class ReplayReport(Result):
    """A replay from the first event: the frames, and whether it agrees with the store."""

    match_id: UUID
    events: int
    frames: tuple[Frame, ...]
    state: JSON
    agrees: bool
    timeline: int = 1  # the timeline replayed (the current one unless asked)
    timelines: int = 1  # how many the match has (one more after each correction)


# -- past movements and receipts (issue 17) -------------------------------------------------


@dataclass(frozen=True)
class MovementOrder(Result):
    """One order of a resolved movement, revealed by its MovementClosed: as sent and parsed,
    bound by its receipt digest, and whether it counted.

    `fate` says what the game's order policy did with it: `counted`; `replaced` (by the
    seat's later order `replaced_by`, under `replace`); `merged` (folded with the seat's
    other orders of the movement into its standing order, under `merge`); `unused` (not
    taken for another reason: a forfeit ended the match first). `sent` is None for an
    order stored before orders were kept as sent."""

    seat: int
    version: int | None  # of its OrderSubmitted event
    received_at: datetime | None
    source: str | None
    message_id: str | None
    digest: str
    salt: str
    order: JSON
    sent: JSON
    used: bool
    fate: str
    replaced_by: str | None


@dataclass(frozen=True)
class RefusedOrder(Result):
    """An order aimed at a movement and refused (OrderRejected), revealed once that movement
    closed: the order as sent, the error code and the reason. A refusal stored before
    refusals were sealed has no digest ("") and no salt, its reason public."""

    seat: int
    version: int
    received_at: datetime
    source: str
    message_id: str | None
    digest: str
    salt: str | None
    sent: JSON
    error: str
    reason: str


@dataclass(frozen=True)
class PhaseView(Result):
    """One phase of a resolution run again: its name, the state after it as the viewer may
    see it, and its steps."""

    name: str
    state: JSON
    steps: list[JSON]


@dataclass(frozen=True)
class MovementRecord(Result):
    """A resolved movement as the record shows it: every order as sent and whether it
    counted, the refusals with their reasons, strikes and forfeits, the steps with their
    rule ids, the states before and after (as the viewer may see them), the phases (when
    the seed may be used: `phases` None and `phases_note` saying why otherwise) and the
    outcome after it. The versions are those of the events that opened, closed and
    resolved it."""

    match_id: UUID
    movement: int
    ruleset: str
    ruleset_version: int
    order_policy: str
    reason: str  # why it closed: "all_ordered" or "deadline"
    closed_at: datetime
    opened_version: int
    closed_version: int
    resolved_version: int
    orders: tuple[MovementOrder, ...]
    refused: tuple[RefusedOrder, ...]
    strikes: list[Document]  # {"seat", "strikes", "version"}
    eliminated: list[Document]  # {"seat", "reason", "version"}
    steps: list[Document]  # {"index", "rule", "text", "data", "version"}
    state_before: JSON
    state_after: JSON
    state_hash: str
    outcome: JSON
    phases: tuple[PhaseView, ...] | None
    phases_note: str | None
    timeline: int = 1  # the timeline read (the current one unless asked: corrections)


@dataclass(frozen=True)
class ReceiptCheck(Result):
    """What a receipt digest proves: the seat, movement and event (OrderSubmitted, or
    OrderRejected for a refusal) that hold it; once revealed, the order as sent, parsed
    and the salt (to recompute the digest), and for a refusal its reason. `used` and
    `fate` say, once its movement closed, whether an accepted order counted."""

    match_id: UUID
    digest: str
    kind: str  # "order" or "refusal"
    seat: int
    movement: int
    received_at: datetime
    source: str
    message_id: str | None
    version: int
    type: str
    chain: str
    revealed: bool
    order: JSON
    sent: JSON
    salt: str | None
    error: str | None
    reason: str | None
    used: bool | None
    fate: str | None


@dataclass(frozen=True)
class TimelineAudit(Result):
    """One timeline re-adjudicated: how many resolutions were compared, and the first
    divergence (None: exact)."""

    timeline: int
    movements: int
    exact: bool
    divergence: Divergence | None


@dataclass(frozen=True)
class AuditReport(Result):
    """A re-adjudication (domain/audit.py): the match played again under its pinned ruleset
    version from its config, seed and orders; `exact` when every step, state hash and
    outcome is the stored one, else the first divergence."""

    match_id: UUID
    ruleset: str
    ruleset_version: int
    movements: int
    exact: bool
    divergence: Divergence | None
    given_start: bool = False
    timeline: int = 1  # the timeline reported on (the current one unless asked)
    timelines: tuple[TimelineAudit, ...] = ()  # every timeline's verdict, 1 first


# -- listings -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Page(Result):
    """One page of a listing: its items and the cursor of the next page (None at the end)."""

    items: list[Document]
    next: str | None


@dataclass(frozen=True)
class DueMovement(Result):
    """A movement that should be resolved now: its deadline has passed.

    Only deadlines make a movement due: one that may close early resolves with
    the order that makes it ready (Matches.submit_order).
    """

    match_id: UUID
    movement: int
    deadline: datetime | None


@dataclass(frozen=True)
class QuarantinedMatch(Result):
    """A quarantined match (service/usecases/quarantine.py): the movement whose resolution kept
    failing, the last failure (the exception's name and text), how many in a row, when
    the first and the last were seen, and when the match was quarantined."""

    match_id: UUID
    movement: int
    error: str
    message: str
    failures: int
    first_seen: datetime
    last_seen: datetime
    quarantined_at: datetime
