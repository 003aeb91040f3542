"""What the Matches application's use cases return: one family of frozen dataclasses.

The edges show them as JSON: the API through its schemas (api/schemas.py), the CLI
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
from domain.rules.contract import JSON, Step

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


# -- commands -------------------------------------------------------------------------------


@dataclass(frozen=True)
class NewMatch(Result):
    """A created match; the referee token is shown once (None on an idempotent retry)."""

    match_id: UUID
    referee_token: str | None
    created: bool = True


@dataclass(frozen=True)
class NewSeat(Result):
    """A joined seat; its token is shown once."""

    match_id: UUID
    seat: int
    token: str


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

    @property
    def replay_id(self) -> UUID | None:
        """Returns `rematch_id` (its name up to version 0.1; deprecated)."""
        return self.rematch_id


@dataclass(frozen=True)
class OrderReceipt(Result):
    """An accepted order: seat, movement, receipt digest, and the closing it triggered if any."""

    match_id: UUID
    seat: int
    movement: int
    digest: str
    received_at: datetime
    closing: Closing | None = None


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


# -- reads of one match ---------------------------------------------------------------------


@dataclass(frozen=True)
class MatchSummary(Result):
    """The public summary of a match: ruleset, seats, status, open movement, deadline,
    outcome, chain head, the rematch links (DW-5), and its quarantine, if any."""

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


@dataclass(frozen=True)
class EventPage(Result):
    """Events after a version: at most `limit`, `next` set if more follow, and the head version."""

    match_id: UUID
    items: list[Document]
    next: int | None
    version: int


@dataclass(frozen=True)
class Viewer(Result):
    """Who is looking: the referee (`name` says whether the operator), a seat, or anyone."""

    referee: bool = False
    seat: int | None = None
    name: str = "referee"


@dataclass(frozen=True)
class ChainReport(Result):
    """The result of verifying a match's chain: sound, or the first broken event."""

    match_id: UUID
    events: int
    head: str | None
    broken: BrokenLink | None

    @property
    def ok(self) -> bool:
        """Returns whether every event verified."""
        return self.broken is None


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
    """A quarantined match (service/quarantine.py): the movement whose resolution kept
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
