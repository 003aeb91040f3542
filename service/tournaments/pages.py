"""What the tournament pages read (issue 45, docs/pages.md): the list of tournaments, one
tournament with its rounds, tables, linked matches, byes, forfeits, standing and bracket,
and the tournament a match plays for. Public only: the seed once revealed, never the
organiser's token hash or a player's key.

`TournamentPages` is a query object over the Tournaments facade (and through it the
Matches application): it changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from domain.tournament import Tournament
from service.tournaments.bracket import Bracket, bracket
from service.tournaments.facade import Tournaments

RUNNING, PAUSED, FINISHED = "running", "paused", "finished"


@dataclass(frozen=True)
class Entrant:
    """A player as the pages name it."""

    player_id: str
    name: str


@dataclass(frozen=True)
class TournamentRow:
    """A tournament in the list."""

    tournament_id: str
    name: str
    format: str
    ruleset: str
    ruleset_version: int
    status: str
    players: int
    rounds: int


@dataclass(frozen=True)
class TableMatch:
    """A match linked to a table: its status, the result the tournament recorded (points
    by player id; None until recorded) and the players whose seats were forfeited."""

    match_id: str
    attempt: int
    status: str
    points: Mapping[str, int] | None
    forfeited: tuple[str, ...]


@dataclass(frozen=True)
class TableView:
    """A table of a round: its players in seat order and its matches, in linked order."""

    number: int
    players: tuple[Entrant, ...]
    matches: tuple[TableMatch, ...]


@dataclass(frozen=True)
class RoundView:
    """A paired round: its tables, its byes, and whether it is complete."""

    number: int
    tables: tuple[TableView, ...]
    byes: tuple[Entrant, ...]
    completed: bool


@dataclass(frozen=True)
class StandingRow:
    """A player's place now: rank, points, and the value of each column of the recorded
    tie-break order (points first)."""

    rank: int
    player: Entrant
    points: int
    tie_breaks: tuple[tuple[str, int | str], ...]
    withdrawn: bool


@dataclass(frozen=True)
class Withdrawal:
    """A player who withdrew, after the round paired then (0: before round 1)."""

    player: Entrant
    after_round: int


@dataclass(frozen=True)
class TournamentView:
    """The tournament page's content."""

    row: TournamentRow
    rated: bool
    rounds_planned: int | None
    paused_reason: str | None
    tie_breaks: tuple[str, ...]
    seed_commitment: str
    seed: str | None  # once revealed
    players: tuple[Entrant, ...]
    withdrawn: tuple[Withdrawal, ...]
    rounds: tuple[RoundView, ...]
    standings: tuple[StandingRow, ...]
    bracket: Bracket | None  # elimination only


def status_of(tournament: Tournament) -> str:
    """Returns "finished", "paused" or "running"."""
    if tournament.finished:
        return FINISHED
    return PAUSED if tournament.paused is not None else RUNNING


class TournamentPages:
    """Reads tournaments for the pages (see the module docstring)."""

    def __init__(self, tournaments: Tournaments) -> None:
        self.tournaments, self.matches = tournaments, tournaments.matches
        self._names: dict[str, str] = {}

    def rows(self) -> list[TournamentRow]:
        """Returns every tournament, the newest first."""
        return [self.row(self.tournaments.get(t)) for t in reversed(self.tournaments.ids())]

    def row(self, tournament: Tournament) -> TournamentRow:
        """Returns the tournament as the list shows it."""
        return TournamentRow(
            str(tournament.id),
            tournament.name,
            tournament.format,
            tournament.ruleset,
            tournament.ruleset_version,
            status_of(tournament),
            len(tournament.players),
            len(tournament.rounds),
        )

    def view(self, tournament_id: UUID | str) -> TournamentView:
        """Returns the tournament page's content; raises TournamentNotFoundError."""
        found = self.tournaments.get(tournament_id)
        return TournamentView(
            self.row(found),
            found.rated,
            found.rounds_planned,
            None if found.paused is None else str(found.paused.get("reason") or ""),
            tuple(found.tie_breaks),
            found.seed_commitment,
            found.seed if found.seed_revealed else None,
            tuple(self.entrant(p) for p in found.players),
            tuple(Withdrawal(self.entrant(p), n) for p, n in found.withdrawn.items()),
            tuple(self._round(found, record) for record in found.rounds),
            self._standings(found),
            bracket(found.players, found.rounds) if found.format == "elimination" else None,
        )

    def of_player(self, player_id: str) -> list[TournamentRow]:
        """Returns the tournaments the player registered for, the newest first."""
        found = (self.tournaments.get(t) for t in reversed(self.tournaments.ids()))
        return [self.row(t) for t in found if player_id in t.players]

    def tournament_of(self, match_id: UUID | str) -> TournamentRow | None:
        """Returns the tournament a match plays a table of, or None. A table's match
        seats only players, so a match with a seat naming none is not read further."""
        match = self.matches.get_match(match_id)
        if not match.seats or any(seat.player_id is None for seat in match.seats):
            return None
        found = self.tournaments.tournament_of(match.id)
        return None if found is None else self.row(self.tournaments.get(found))

    def entrant(self, player_id: str) -> Entrant:
        """Returns the player with its name (kept for this reader's life)."""
        if player_id not in self._names:
            self._names[player_id] = str(self.matches.players.get(player_id).name)
        return Entrant(player_id, self._names[player_id])

    def _round(self, tournament: Tournament, record: Mapping[str, Any]) -> RoundView:
        tables = tuple(
            TableView(
                number,
                tuple(self.entrant(p) for p in seated),
                tuple(
                    self._table_match(tournament, match_id, attempt)
                    for attempt, match_id in enumerate(record["links"][number - 1], 1)
                ),
            )
            for number, seated in enumerate(record["tables"], 1)
        )
        byes = tuple(self.entrant(p) for p in record["byes"])
        return RoundView(int(record["round"]), tables, byes, bool(record["completed"]))

    def _table_match(self, tournament: Tournament, match_id: str, attempt: int) -> TableMatch:
        summary = self.matches.summary(match_id)
        match = self.matches.get_match(match_id)
        by_seat = {seat.number: str(seat.player_id) for seat in match.seats}
        result = tournament.results.get(match_id)
        return TableMatch(
            match_id,
            attempt,
            summary.status,
            None if result is None else dict(result["points"]),
            tuple(by_seat[s] for s in summary.eliminated if s in by_seat),
        )

    def _standings(self, tournament: Tournament) -> tuple[StandingRow, ...]:
        order = tournament.tie_breaks  # points first, the draw last (docs/tournaments.md)
        return tuple(
            StandingRow(
                entry.rank,
                self.entrant(entry.player_id),
                entry.points,
                tuple((name, entry.tie_breaks[name]) for name in order),
                entry.withdrawn,
            )
            for entry in self.tournaments.standings(tournament.id)
        )
