"""What every part of the Tournament aggregate shares: the closed sets it knows (formats,
tie-breaks), its attributes (declared here, set by `Tournament.__init__` and its events'
`apply`), and recording an event with its chain link, exactly as the Match does
(domain/match/base.py): `chain = SHA-256(previous chain || canonical JSON of the body)`,
from the tournament's id.

The attributes are JSON-native (lists and dicts of str and int), so that a snapshot of a
tournament needs no transcoding: a round is `{"round", "tables", "byes", "links",
"completed", "advancing"}`, a result `{"round", "table", "match_id", "head", "placements",
"points", "scores", "timeline"}`.
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from datetime import datetime
from typing import TYPE_CHECKING, Any

from eventsourcing.domain import Aggregate

from domain.integrity import chain_link, normalized

# The formats a tournament may take (docs/tournaments.md); service/pairing/ pairs them.
FORMATS = ("round_robin", "swiss", "elimination", "tables")

# The tie-breaks a standing may apply after points, and each format's default order
# (issue 45), recorded in Created; "draw" is a draw from the tournament's seed.
TIE_BREAKS = frozenset(
    {"points", "buchholz", "sonneborn_berger", "head_to_head", "total_score", "draw"}
)
DEFAULT_TIE_BREAKS = {
    "swiss": ("points", "buchholz", "sonneborn_berger", "draw"),
    "round_robin": ("points", "head_to_head", "sonneborn_berger", "draw"),
    "tables": ("points", "total_score", "draw"),
    "elimination": ("points", "draw"),
}

# A drawn elimination match is replayed at most this many times, then the higher seed
# advances (issue 45); Created's options may lower it.
MAX_REPLAYS = 3

METADATA = frozenset({"originator_id", "originator_version", "originator_topic", "timestamp"})

if TYPE_CHECKING:
    _Layer = Aggregate
else:
    _Layer = object


def _defaults(event_class: type[Aggregate.Event]) -> dict[str, Any]:
    """Returns the defaults of an event's fields (a new event stores them: its chain link
    covers them, though older events lack them)."""
    return {
        f.name: f.default
        for f in fields(event_class)
        if f.default is not MISSING and f.name not in ("chain", "sealed")
    }


class TournamentBase(_Layer):
    """The Tournament's attributes and its recording of events (see the module docstring)."""

    if TYPE_CHECKING:
        name: str
        format: str
        ruleset: str
        ruleset_version: int
        config: dict[str, Any]
        preset: str | None
        rounds_planned: int | None  # None: as many as the format takes for the field
        tie_breaks: list[str]
        rated: bool
        options: dict[str, Any]  # the format's own: legs, seats per table, max replays
        seed_commitment: str
        seed: str
        seed_revealed: bool
        pairing_version: int
        organiser_token_hash: str
        chain: str
        players: list[str]  # player ids in registration order
        withdrawn: dict[str, int]  # player id: the last round paired when they withdrew
        rounds: list[dict[str, Any]]  # round n is rounds[n - 1]
        results: dict[str, dict[str, Any]]  # by match id: the latest recorded
        paused: dict[str, Any] | None  # at, reason
        finished: bool
        standing: list[dict[str, Any]]

        PlayerRegistered: type[Aggregate.Event]
        PlayerWithdrawn: type[Aggregate.Event]
        RoundPaired: type[Aggregate.Event]
        MatchLinked: type[Aggregate.Event]
        ResultRecorded: type[Aggregate.Event]
        RoundCompleted: type[Aggregate.Event]
        Paused: type[Aggregate.Event]
        Resumed: type[Aggregate.Event]
        Finished: type[Aggregate.Event]
        SeedRevealed: type[Aggregate.Event]

    def _record(self, event_class: type[Aggregate.Event], at: datetime, **data: Any) -> None:
        """Triggers an event stamped `at`, with its chain link computed over its body."""
        data = {**_defaults(event_class), **data}  # the body covers every field stored
        data = {key: normalized(value) for key, value in data.items()}
        chain = chain_link(self.chain, event_class.__name__, self.version + 1, at, data)
        self.trigger_event(event_class, timestamp=at, chain=chain, **data)
