"""Ratings: OpenSkill's Weng-Lin model (Plackett-Luce) over the finished rated matches
whose seats name players (issue 45), one table per ruleset name and version.

The table is a pure fold, `rate`, over `RatedMatch` values in a fixed order: the order
in which the matches finished in the store's log (the position of each match's last
`Finished` event; a match finished again after a correction counts once, where it
last finished, with its current outcome), then its id. Each match goes through
`PlackettLuce().rate` at the locked openskill version, and every mu and sigma is
rounded to 6 places after each match, so a rebuild gives the same table on any
machine. A match counts only if it was created rated, has finished, and every seat
names a player.

Who is ranked where (`placement`): a game with teams (DRTS Team 23, whose outcome has
team scores) is rated by its final teams (each seat's team in the final state), ranked
by team score, a seat left teamless being a team of its own below every team (by its
own score); other games seat by seat, the winners first, then by score. A draw with no
winners ties every seat. Equal keys share a rank.

`MatchRatings` rebuilds the tables on demand from the store (not a projection of the
read-model runner: a rebuild loads each finished match, checked).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID

from eventsourcing.utils import get_topic
from openskill.models import PlackettLuce

from domain.match import Match
from domain.rules.contract import JSON

PLACES = 6  # mu and sigma are rounded to this many places after each match
MODEL = "openskill PlackettLuce (Weng-Lin), default mu 25, sigma 25/3"


@dataclass(frozen=True)
class RatedMatch:
    """A finished rated match as ratings see it: its ruleset, its sides (the player ids
    of each team, a team of one in a game without teams) and each side's rank (1 best)."""

    match_id: UUID
    ruleset: str
    version: int
    teams: tuple[tuple[str, ...], ...]
    ranks: tuple[int, ...]


@dataclass(frozen=True)
class RatingChange:
    """One match's effect on a player's rating."""

    match_id: UUID
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float


@dataclass(frozen=True)
class PlayerRating:
    """A player's rating under one ruleset, with its history (oldest first)."""

    player_id: str
    mu: float
    sigma: float
    ordinal: float  # mu - 3 sigma: what the table is sorted by
    history: tuple[RatingChange, ...]


@dataclass(frozen=True)
class RatingTable:
    """The ratings of one ruleset version, best ordinal first (then player id)."""

    ruleset: str
    version: int
    players: tuple[PlayerRating, ...]

    def of(self, player_id: str) -> PlayerRating | None:
        """Returns the player's rating in this table, or None if it has no rated match."""
        return next((p for p in self.players if p.player_id == player_id), None)


def rated_match(match: Match) -> RatedMatch | None:
    """Returns the match as ratings see it, or None if it does not count (not rated, not
    finished, or a seat that names no player)."""
    if not match.rated or not match.finished or match.outcome is None:
        return None
    players = {seat.number: seat.player_id for seat in match.seats}
    if not players or None in players.values():
        return None
    sides = placement(match.outcome, match.state, sorted(players))
    teams = tuple(tuple(str(players[s]) for s in seats) for seats, _ in sides)
    return RatedMatch(
        match.id, match.ruleset, match.ruleset_version, teams, tuple(r for _, r in sides)
    )


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


def rate(matches: Iterable[RatedMatch]) -> dict[tuple[str, int], RatingTable]:
    """Returns the rating tables of the matches, folded in the order given."""
    model = PlackettLuce()
    current: dict[tuple[str, int], dict[str, tuple[float, float]]] = {}
    history: dict[tuple[str, int], dict[str, list[RatingChange]]] = {}
    for match in matches:
        key = (match.ruleset, match.version)
        table, changes = current.setdefault(key, {}), history.setdefault(key, {})
        before = [[table.get(p, (model.mu, model.sigma)) for p in team] for team in match.teams]
        teams = [[model.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in before]
        after = model.rate(teams, ranks=list(match.ranks))
        for team, old_team, new_team in zip(match.teams, before, after, strict=True):
            for player, old, new in zip(team, old_team, new_team, strict=True):
                now = (round(new.mu, PLACES), round(new.sigma, PLACES))
                table[player] = now
                was = (round(old[0], PLACES), round(old[1], PLACES))
                change = RatingChange(match.match_id, *was, *now)
                changes.setdefault(player, []).append(change)
    return {key: _table(key, current[key], history[key]) for key in current}


def _table(
    key: tuple[str, int],
    table: Mapping[str, tuple[float, float]],
    history: Mapping[str, list[RatingChange]],
) -> RatingTable:
    players = [
        PlayerRating(p, mu, sigma, round(mu - 3 * sigma, PLACES), tuple(history[p]))
        for p, (mu, sigma) in table.items()
    ]
    players.sort(key=lambda p: (-p.ordinal, p.player_id))
    return RatingTable(key[0], key[1], tuple(players))


class RatingStore(Protocol):
    """What MatchRatings needs of the store: its log and its checked loads."""

    @property
    def recorder(self) -> Any: ...
    def get_match(self, match_id: UUID | str, version: int | None = None) -> Match: ...


class MatchRatings:
    """Rebuilds the rating tables from the finished matches in the store, on demand."""

    def __init__(self, store: RatingStore) -> None:
        self.store = store

    def tables(self) -> dict[tuple[str, int], RatingTable]:
        """Returns every ruleset version's table, rebuilt from the log."""
        found = (rated_match(self.store.get_match(m)) for m in self.finish_order())
        return rate(m for m in found if m is not None)

    def table(self, ruleset: str, version: int) -> RatingTable:
        """Returns the table of one ruleset version (empty if no rated match finished)."""
        return self.tables().get((ruleset, version), RatingTable(ruleset, version, ()))

    def of_player(self, player_id: str) -> list[tuple[RatingTable, PlayerRating]]:
        """Returns the player's rating under each ruleset version it has played rated."""
        found = [(t, t.of(player_id)) for _, t in sorted(self.tables().items())]
        return [(table, rating) for table, rating in found if rating is not None]

    def finish_order(self) -> list[UUID]:
        """Returns the ids of the matches that finished, by the log position of each one's
        last Finished event (the order `rate` folds them in)."""
        last: dict[UUID, int] = {}
        for position, match_id in self._finishes():
            last[match_id] = position
        return sorted(last, key=lambda m: (last[m], str(m)))

    def _finishes(self) -> Iterator[tuple[int, UUID]]:
        topic, start = get_topic(Match.Finished), 1
        while True:
            notes = self.store.recorder.select_notifications(start=start, limit=500, topics=[topic])
            yield from ((note.id, UUID(str(note.originator_id))) for note in notes)
            if len(notes) < 500:
                return
            start = notes[-1].id + 1
