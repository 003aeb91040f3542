"""The ratings rebuilt on demand from the log, as drts rebuilt them before the
`rated_matches` read model (issue 45): each finished match loaded, checked, and folded
in the order of its last Finished event, then id. A test oracle: the read model's
tables must be these, byte for byte.

One difference from that rebuild, on purpose: a voided rematch does not count (it
counted then, its Voided event being taken for nothing; standings already took it out).
"""

from __future__ import annotations

from collections.abc import Iterator
from uuid import UUID

from eventsourcing.utils import get_topic

from domain.match import Match
from service.matches import Matches
from service.queries.ratings import RatedMatch, RatingTable, placement, rate


def rebuilt_tables(app: Matches) -> dict[tuple[str, int], RatingTable]:
    """Returns every ruleset version's table, rebuilt from the matches in the log."""
    found = (rated_match(app.get_match(m)) for m in finish_order(app))
    return rate(m for m in found if m is not None)


def rated_match(match: Match) -> RatedMatch | None:
    """Returns the match as ratings see it, or None if it does not count (not rated, not
    finished, voided, or a seat that names no player)."""
    if not match.rated or not match.finished or match.outcome is None or match.voided:
        return None
    players = {seat.number: seat.player_id for seat in match.seats}
    if not players or None in players.values():
        return None
    sides = placement(match.outcome, match.state, sorted(players))
    teams = tuple(tuple(str(players[s]) for s in seats) for seats, _ in sides)
    return RatedMatch(
        match.id, match.ruleset, match.ruleset_version, teams, tuple(r for _, r in sides)
    )


def finish_order(app: Matches) -> list[UUID]:
    """Returns the ids of the matches that finished, by the log position of each one's
    last Finished event, then id."""
    last: dict[UUID, int] = {}
    for position, match_id in _finishes(app):
        last[match_id] = position
    return sorted(last, key=lambda m: (last[m], str(m)))


def _finishes(app: Matches) -> Iterator[tuple[int, UUID]]:
    topic, start = get_topic(Match.Finished), 1
    while True:
        notes = app.store.recorder.select_notifications(start=start, limit=500, topics=[topic])
        yield from ((note.id, UUID(str(note.originator_id))) for note in notes)
        if len(notes) < 500:
            return
        start = notes[-1].id + 1
