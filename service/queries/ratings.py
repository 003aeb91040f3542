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

Who is ranked where is `placement`'s (service/readmodels/ratings.py, which the
projection applies at each finish).

`MatchRatings` folds the rows of the `rated_matches` read model (one per finished rated
match, with its fold position, its sides and ranks: service/readmodels/ratings.py) and
keeps each folded table until its rows change, so that a read with nothing new folds
nothing; the tables are the ones a fold of the matches loaded from the log gives.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol
from uuid import UUID

from openskill.models import PlackettLuce

from service.readmodels.ratings import RatedMatch, placement
from service.readmodels.recorders import View
from service.readmodels.runner import ReadModels

__all__ = [
    "MODEL",
    "PLACES",
    "MatchRatings",
    "PlayerRating",
    "RatedMatch",
    "RatingChange",
    "RatingStore",
    "RatingTable",
    "placement",
    "rate",
]

PLACES = 6  # mu and sigma are rounded to this many places after each match
MODEL = "openskill PlackettLuce (Weng-Lin), default mu 25, sigma 25/3"


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
    """What MatchRatings needs of the store: its read models."""

    @property
    def read_models(self) -> ReadModels: ...


Mark = tuple[int, int, int]  # a table's rated matches: how many, the newest position, the sum


class MatchRatings:
    """The rating tables, folded from the `rated_matches` read model; each table is kept
    with the mark of the rows it was folded from (their count, newest position and sum of
    positions) and folded again only when the mark moves (a read with nothing new folds
    nothing).

    The mark moves whenever the rows change: a new row (a finish) has a position past
    every row's, and a row taken out (a correction, a voided rematch) lowers the count;
    the sum tells a rebuild that leaves out one match and takes back another.
    """

    def __init__(self, store: RatingStore) -> None:
        self.store = store
        self._folded: dict[tuple[str, int], tuple[Mark, RatingTable]] = {}

    def tables(self) -> dict[tuple[str, int], RatingTable]:
        """Returns every ruleset version's table, from the rated matches."""
        view = self._view()
        marks = _marks(view, WHERE_ANY, {})
        return {key: self._table(view, key, mark) for key, mark in sorted(marks.items())}

    def table(self, ruleset: str, version: int) -> RatingTable:
        """Returns the table of one ruleset version (empty if no rated match finished)."""
        view, key = self._view(), (ruleset, version)
        mark = _marks(view, WHERE_KEY, {"ruleset": ruleset, "version": version}).get(key)
        return RatingTable(ruleset, version, ()) if mark is None else self._table(view, key, mark)

    def of_player(self, player_id: str) -> list[tuple[RatingTable, PlayerRating]]:
        """Returns the player's rating under each ruleset version it has played rated."""
        found = [(t, t.of(player_id)) for _, t in sorted(self.tables().items())]
        return [(table, rating) for table, rating in found if rating is not None]

    def finish_order(self) -> list[UUID]:
        """Returns the ids of the rated matches, by the log position of each one's last
        Finished event, then id (the order `rate` folds them in)."""
        return [match.match_id for _, match in _rated(self._view(), WHERE_ANY, {})]

    # -- private ----------------------------------------------------------------------------

    def _view(self) -> View:
        models = self.store.read_models
        models.catch_up([PROJECTION])
        return models.view(PROJECTION)

    def _table(self, view: View, key: tuple[str, int], mark: Mark) -> RatingTable:
        """Returns the key's table: the one kept if its mark has not moved, else folded
        (and kept with the mark of the rows it was folded from)."""
        kept = self._folded.get(key)
        if kept is not None and kept[0] == mark:
            return kept[1]
        found = _rated(view, WHERE_KEY, {"ruleset": key[0], "version": key[1]})
        table = rate(match for _, match in found).get(key, RatingTable(key[0], key[1], ()))
        if found:
            positions = [position for position, _ in found]
            self._folded[key] = ((len(positions), positions[-1], sum(positions)), table)
        return table


PROJECTION = "rated_matches"
WHERE_ANY = "1 = 1"
WHERE_KEY = "ruleset = :ruleset AND ruleset_version = :version"


def _marks(view: View, where: str, params: Mapping[str, Any]) -> dict[tuple[str, int], Mark]:
    """Returns the mark of each ruleset version's rows that the condition keeps."""
    rows = view.query(
        "SELECT ruleset, ruleset_version, COUNT(*) AS n, MAX(position) AS newest, "
        "SUM(position) AS total "
        f"FROM {{rated_matches}} WHERE {where} GROUP BY ruleset, ruleset_version",
        params,
    )
    return {
        (r["ruleset"], int(r["ruleset_version"])): (int(r["n"]), int(r["newest"]), int(r["total"]))
        for r in rows
    }


def _rated(view: View, where: str, params: Mapping[str, Any]) -> list[tuple[int, RatedMatch]]:
    """Returns the rated matches the condition keeps with their positions, in the fold
    order (position, then id)."""
    rows = view.query(
        "SELECT match_id, ruleset, ruleset_version, position, teams, ranks "
        f"FROM {{rated_matches}} WHERE {where} ORDER BY position",
        params,
    )
    rows.sort(key=lambda r: (int(r["position"]), str(r["match_id"])))
    return [(int(row["position"]), _rated_match(row)) for row in rows]


def _rated_match(row: Mapping[str, Any]) -> RatedMatch:
    """Returns a row of `rated_matches` as the RatedMatch it records."""
    teams = tuple(tuple(str(player) for player in team) for team in json.loads(row["teams"]))
    ranks = tuple(int(rank) for rank in json.loads(row["ranks"]))
    match_id = row["match_id"]
    match_id = match_id if isinstance(match_id, UUID) else UUID(str(match_id))
    return RatedMatch(match_id, row["ruleset"], int(row["ruleset_version"]), teams, ranks)
