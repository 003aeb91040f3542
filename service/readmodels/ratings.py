"""The rated matches: the read model the ratings fold (issue 45; service/queries/ratings.py).

`rated_matches` holds one row per finished match that was created rated and whose seats
all name players: its ruleset and version, the log position of its last `Finished`
event (the fold order) and its sides and ranks (`placement`), as JSON. It follows each
rated match on the way in two tables of its own: `rating_matches` (the ruleset, and
each seat's team in the latest state, which a team game is rated by) and
`rating_seats` (the player each seat names). The handlers use only what the events
carry, as every projection's do; `finished` reads those two tables, in the batch's
transaction, to place the sides.

A correction (`Corrected`) takes the seats, teams and finish back to its restart: a
match it un-finishes leaves `rated_matches` until its new timeline finishes again, at
the new position with the new outcome (a finish replaces the row). A voided rematch
(`Voided`) leaves the ratings for good: it plays no more.

Who is ranked where (`placement`): a game with teams (DRTS Team 23, whose outcome has
team scores) is rated by its final teams (each seat's team in the final state), ranked
by team score, a seat left teamless being a team of its own below every team (by its
own score); other games seat by seat, the winners first, then by score. A draw with no
winners ties every seat. Equal keys share a rank.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Tracking

from domain.match import Match
from domain.rules.contract import JSON
from service.readmodels.projections import ReadModel, handles
from service.readmodels.recorders import Statement


@dataclass(frozen=True)
class RatedMatch:
    """A finished rated match as ratings see it: its ruleset, its sides (the player ids
    of each team, a team of one in a game without teams) and each side's rank (1 best)."""

    match_id: UUID
    ruleset: str
    version: int
    teams: tuple[tuple[str, ...], ...]
    ranks: tuple[int, ...]


class RatedMatches(ReadModel):
    """One row per finished rated match whose seats all name players (module docstring)."""

    name = "rated_matches"

    @handles(Match.Created)
    def created(self, e: Match.Created, tracking: Tracking) -> list[Statement]:
        if not e.rated:
            return []
        return [
            (
                "INSERT INTO {rating_matches} (match_id, ruleset, ruleset_version, seat_teams) "
                "VALUES (:match_id, :ruleset, :version, :seat_teams)",
                {
                    "match_id": e.originator_id,
                    "ruleset": e.ruleset,
                    "version": e.ruleset_version,
                    "seat_teams": "{}",
                },
            )
        ]

    @handles(Match.SeatJoined)
    def seat_joined(self, e: Match.SeatJoined, tracking: Tracking) -> list[Statement]:
        """A seat of a rated match is followed (the INSERT finds no row of another)."""
        return [
            (
                "INSERT INTO {rating_seats} (match_id, seat, player_id) "
                "SELECT match_id, :seat, :player_id FROM {rating_matches} "
                "WHERE match_id = :match_id",
                {"match_id": e.originator_id, "seat": e.seat, "player_id": e.player_id},
            )
        ]

    @handles(Match.SeatAdded)
    def seat_added(self, e: Match.SeatJoined, tracking: Tracking) -> list[Statement]:
        """A seat joining the running match (B-Chess) counts like one joining before."""
        return self.seat_joined(e, tracking)

    @handles(Match.MovementResolved)
    def movement_resolved(self, e: Match.MovementResolved, tracking: Tracking) -> list[Statement]:
        return [_seat_teams(e.originator_id, e.state)]

    @handles(Match.RefereeActed)
    def referee_acted(self, e: Match.RefereeActed, tracking: Tracking) -> list[Statement]:
        """A referee's action sets the state too (a forfeit may end the match)."""
        return [_seat_teams(e.originator_id, e.state)]

    @handles(Match.Finished)
    def finished(self, e: Match.Finished, tracking: Tracking) -> list[Statement]:
        """Records (or replaces) the match's row at this position, if it counts."""
        key = {"match_id": e.originator_id}
        statements: list[Statement] = [
            ("DELETE FROM {rated_matches} WHERE match_id = :match_id", key)
        ]
        found = self._followed(e.originator_id)
        if found is None:
            return statements
        (ruleset, version), players, seat_teams = found
        if not players or None in players.values():
            return statements
        state = {"seats": {seat: {"team": team} for seat, team in seat_teams.items()}}
        sides = placement(e.outcome, state, sorted(players))
        teams = [[str(players[seat]) for seat in seats] for seats, _ in sides]
        row = {
            **key,
            "ruleset": ruleset,
            "version": version,
            "position": tracking.notification_id,
            "teams": json.dumps(teams),
            "ranks": json.dumps([rank for _, rank in sides]),
        }
        return [*statements, (INSERT_RATED, row)]

    @handles(Match.Corrected)
    def corrected(self, e: Match.Corrected, tracking: Tracking) -> list[Statement]:
        """The match goes back to its restart: its seats, its teams and (before its new
        timeline finishes) out of the rated matches."""
        restart, key = e.restart, {"match_id": e.originator_id}
        kept = [int(seat["seat"]) for seat in restart["seats"]]
        names = {f"s{index}": seat for index, seat in enumerate(kept)}
        unkept = f" AND seat NOT IN ({', '.join(':' + n for n in names)})" if kept else ""
        statements: list[Statement] = [
            _seat_teams(e.originator_id, restart["state"]),
            (f"DELETE FROM {{rating_seats}} WHERE match_id = :match_id{unkept}", {**key, **names}),
        ]
        if not restart["finished"]:
            statements.append(("DELETE FROM {rated_matches} WHERE match_id = :match_id", key))
        return statements

    @handles(Match.Voided)
    def voided(self, e: Match.Voided, tracking: Tracking) -> list[Statement]:
        """A voided rematch no longer counts, and plays no more."""
        key = {"match_id": e.originator_id}
        return [
            (f"DELETE FROM {{{table}}} WHERE match_id = :match_id", key)
            for table in ("rated_matches", "rating_seats", "rating_matches")
        ]

    def _followed(
        self, match_id: UUID
    ) -> tuple[tuple[str, int], dict[int, str | None], dict[str, Any]] | None:
        """Returns the followed match's (ruleset, version), the player each seat names and
        each seat's team, read in the batch's transaction; None: not created rated."""
        rows = self.view.select(
            "SELECT m.ruleset, m.ruleset_version, m.seat_teams, s.seat, s.player_id "
            "FROM {rating_matches} m LEFT JOIN {rating_seats} s ON s.match_id = m.match_id "
            "WHERE m.match_id = :match_id",
            {"match_id": match_id},
        )
        if not rows:
            return None
        first = rows[0]
        players = {int(r["seat"]): r["player_id"] for r in rows if r["seat"] is not None}
        teams = json.loads(first["seat_teams"])
        return (first["ruleset"], int(first["ruleset_version"])), players, teams


INSERT_RATED = (
    "INSERT INTO {rated_matches} (match_id, ruleset, ruleset_version, position, teams, ranks) "
    "VALUES (:match_id, :ruleset, :version, :position, :teams, :ranks)"
)


def _seat_teams(match_id: Any, state: JSON) -> Statement:
    """Returns the statement keeping a followed match's seat teams of its latest state."""
    return (
        "UPDATE {rating_matches} SET seat_teams = :seat_teams WHERE match_id = :match_id",
        {"match_id": match_id, "seat_teams": json.dumps(seat_teams(state), sort_keys=True)},
    )


def seat_teams(state: JSON) -> dict[str, Any]:
    """Returns each seat's team in a state (by seat number as text); seats without one,
    and states without seats by number, give none."""
    seats = state.get("seats") if isinstance(state, dict) else None
    if not isinstance(seats, dict):
        return {}
    return {
        str(seat): held["team"]
        for seat, held in seats.items()
        if isinstance(held, dict) and held.get("team")
    }


def placement(outcome: Any, state: JSON, seats: Sequence[int]) -> list[tuple[list[int], int]]:
    """Returns the sides of a finished match (their seats) with their ranks (1 best)."""
    scores = {int(s): int(v) for s, v in (outcome.get("scores") or {}).items()}
    winners = set(outcome.get("winners") or ())
    team_scores: Mapping[str, int] = outcome.get("team_scores") or {}
    if team_scores:
        return _team_sides(state, seats, team_scores, scores)
    if outcome.get("result") == "draw" and not winners:
        return [([seat], 1) for seat in seats]
    return _ranked([([s], (s not in winners, -scores.get(s, 0))) for s in seats])


def _team_sides(
    state: JSON, seats: Sequence[int], team_scores: Mapping[str, int], scores: Mapping[int, int]
) -> list[tuple[list[int], int]]:
    """Returns the final teams as sides ranked by team score, teamless seats below them."""
    seat_states = state.get("seats", {}) if isinstance(state, dict) else {}
    members: dict[str, list[int]] = {}
    alone: list[int] = []
    for seat in seats:
        team = (seat_states.get(str(seat)) or {}).get("team")
        (members.setdefault(team, []) if team else alone).append(seat)
    keyed: list[tuple[list[int], tuple[int, int]]] = [
        (held, (0, -int(team_scores.get(team, 0)))) for team, held in sorted(members.items())
    ]
    keyed += [([seat], (1, -scores.get(seat, 0))) for seat in alone]
    return _ranked(keyed)


def _ranked(keyed: list[tuple[list[int], tuple[int, int]]]) -> list[tuple[list[int], int]]:
    """Returns the sides with dense ranks from their keys (lower key, better rank)."""
    order = sorted({key for _, key in keyed})
    return [(seats, order.index(key) + 1) for seats, key in keyed]
