"""The Tournament aggregate: one event's record of players, rounds, linked matches and
results, event-sourced with its own hash chain as a Match is (issue 45, DESIGN.md Events).

Commands compute, events record: the pairing of a round is computed in the service by a
pure, versioned function (service/pairing/) from the revealed seed, the registrations and
the recorded results; `pair_round` checks it fits and `RoundPaired` records it, so an audit
re-derives every round under the recorded `pairing_version`. Each event's `apply` only
assigns what it carries. Times, the seed and the organiser's token hash come in as
arguments; nothing here reads a clock or draws randomness.

Every event carries `chain` (domain/integrity.py): SHA-256 of the previous link and the
canonical JSON of the event's body, starting from the tournament id. The seed sits in
Created's `sealed` field, outside the chain and bound by `seed_commitment` (SHA-256 of its
UTF-8 bytes, as a match's); `SeedRevealed` shows it once the tournament has finished.

The events are nested here, in `Tournament`, for good: their stored topics name them
`domain.tournament:Tournament.<name>`. The commands and guards are in commands.py, the
attributes and the recording of an event in base.py.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.domain import Aggregate, event

from domain.tournament.base import DEFAULT_TIE_BREAKS, FORMATS, MAX_REPLAYS, TIE_BREAKS
from domain.tournament.commands import TournamentCommands

__all__ = ["DEFAULT_TIE_BREAKS", "FORMATS", "MAX_REPLAYS", "TIE_BREAKS", "Tournament"]


class Tournament(TournamentCommands, Aggregate):
    """One tournament under one ruleset and format: players, rounds, matches, results."""

    class Created(Aggregate.Created):
        name: str
        format: str
        ruleset: str
        ruleset_version: int
        config: dict[str, Any]
        preset: str | None
        rounds: int | None
        tie_breaks: list[str]
        rated: bool
        options: dict[str, Any]
        seed_commitment: str
        pairing_version: int
        organiser_token_hash: str
        sealed: dict[str, Any]
        chain: str

    @event(Created)
    def __init__(
        self,
        name: str,
        format: str,
        ruleset: str,
        ruleset_version: int,
        config: dict[str, Any],
        preset: str | None,
        rounds: int | None,
        tie_breaks: list[str],
        rated: bool,
        options: dict[str, Any],
        seed_commitment: str,
        pairing_version: int,
        organiser_token_hash: str,
        sealed: dict[str, Any],
        chain: str,
    ) -> None:
        self.name, self.format = name, format
        self.ruleset, self.ruleset_version = ruleset, ruleset_version
        self.config, self.preset, self.rounds_planned = config, preset, rounds
        self.tie_breaks, self.rated, self.options = list(tie_breaks), rated, options
        self.seed_commitment, self.seed = seed_commitment, sealed["seed"]
        self.seed_revealed = False
        self.pairing_version = pairing_version
        self.organiser_token_hash = organiser_token_hash
        self.chain = chain
        self.players, self.withdrawn = [], {}
        self.rounds, self.results = [], {}
        self.paused, self.finished, self.standing = None, False, []

    class PlayerRegistered(Aggregate.Event):
        player_id: str
        chain: str

        def apply(self, tournament: Tournament) -> None:
            tournament.players.append(self.player_id)
            tournament.chain = self.chain

    class PlayerWithdrawn(Aggregate.Event):
        """A player left: no later round pairs them (`after_round`: the last round paired
        when they withdrew, 0 before round 1)."""

        player_id: str
        after_round: int
        reason: str
        chain: str

        def apply(self, tournament: Tournament) -> None:
            tournament.withdrawn[self.player_id] = self.after_round
            tournament.chain = self.chain

    class RoundPaired(Aggregate.Event):
        """A round's pairing as the pairing function computed it: `tables` the player ids
        of each table in seat order (table n is tables[n - 1]), `byes` those left out."""

        round: int
        tables: list[list[str]]
        byes: list[str]
        pairing_version: int
        chain: str

        def apply(self, tournament: Tournament) -> None:
            tournament.rounds.append(
                {
                    "round": self.round,
                    "tables": [list(table) for table in self.tables],
                    "byes": list(self.byes),
                    "links": [[] for _ in self.tables],  # match ids, a replay after a draw
                    "completed": False,
                    "advancing": [],
                }
            )
            tournament.chain = self.chain

    class MatchLinked(Aggregate.Event):
        """A match plays a table of a round; `attempt` 2 and on replay a drawn one."""

        round: int
        table: int
        match_id: str
        attempt: int
        chain: str

        def apply(self, tournament: Tournament) -> None:
            tournament.rounds[self.round - 1]["links"][self.table - 1].append(self.match_id)
            tournament.chain = self.chain

    class ResultRecorded(Aggregate.Event):
        """A linked match's result as of its `head` (version, chain) on its `timeline`
        (1, then one more after each correction of the match): each player's placement
        (1 best, shared when tied), tournament points and game score."""

        round: int
        table: int
        match_id: str
        head: dict[str, Any]
        placements: dict[str, int]
        points: dict[str, int]
        scores: dict[str, int]
        timeline: int
        chain: str

        def apply(self, tournament: Tournament) -> None:
            tournament.results[self.match_id] = {
                "round": self.round,
                "table": self.table,
                "match_id": self.match_id,
                "head": dict(self.head),
                "placements": dict(self.placements),
                "points": dict(self.points),
                "scores": dict(self.scores),
                "timeline": self.timeline,
            }
            tournament.chain = self.chain

    class RoundCompleted(Aggregate.Event):
        """Every table of a round has its result; `advancing` (elimination) lists who goes
        on, each `{"player_id", "table", "by"}` with `by` "result", "bye" or "seed" (the
        higher seed after the last drawn replay)."""

        round: int
        advancing: list[dict[str, Any]]
        chain: str

        def apply(self, tournament: Tournament) -> None:
            record = tournament.rounds[self.round - 1]
            record["completed"], record["advancing"] = True, list(self.advancing)
            tournament.chain = self.chain

    class Paused(Aggregate.Event):
        reason: str
        chain: str

        def apply(self, tournament: Tournament) -> None:
            tournament.paused = {"at": self.timestamp, "reason": self.reason}
            tournament.chain = self.chain

    class Resumed(Aggregate.Event):
        chain: str

        def apply(self, tournament: Tournament) -> None:
            tournament.paused = None
            tournament.chain = self.chain

    class Finished(Aggregate.Event):
        """The final standing: `{"rank", "player_id", "points", "tie_breaks"}` each."""

        standing: list[dict[str, Any]]
        chain: str

        def apply(self, tournament: Tournament) -> None:
            tournament.finished, tournament.standing = True, list(self.standing)
            tournament.chain = self.chain

    class SeedRevealed(Aggregate.Event):
        seed: str
        chain: str

        def apply(self, tournament: Tournament) -> None:
            tournament.seed_revealed = True
            tournament.chain = self.chain

    def __repr__(self) -> str:
        return f"Tournament({self.id}, {self.format}, {self.ruleset}, {len(self.rounds)} rounds)"
