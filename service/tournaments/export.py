"""Tournament archives (issue 45, docs/tournaments.md, Exporting a tournament): one JSON
document holding a tournament's events and the archive of each match linked to it, so
that anyone can check it offline with the standalone verifier of that page.

The document (format version 1): `{"format": "drts-tournament-archive", "format_version":
1, "tournament_id", "name", "ruleset", "ruleset_version", "exported_at", "finished",
"head": {"version", "chain"}, "events": [every event in its public form, as its chain
covers it], "matches": [each finished linked match's public archive, docs/archive.md],
"unfinished": [{"match_id", "round", "table", "attempt"}: the linked matches not
finished]}`.

The export is public, like a finished match's: the tournament's seed is shown (as
`sealed` on Created) only once `SeedRevealed` has shown it anyway, and a linked match is
included only once it has finished, in the public form anyone may export. A match still
being played is listed in `unfinished` instead: its full form is its referee's alone
(the look would be recorded in it), so a tournament's archive never carries it.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from domain.integrity import iso
from domain.tournament import Tournament
from domain.tournament.chain import public_item
from service.errors import MissingTokenError
from service.results import Document

FORMAT = "drts-tournament-archive"
FORMAT_VERSION = 1
LINKED = "MatchLinked"


def document(
    matches: Any, tournament: Tournament, stored: Sequence[Any], exported_at: datetime
) -> Document:
    """Returns the archive of `tournament` from its `stored` events (the module
    docstring's document); the matches' archives come from `matches.export_archive`."""
    events = [public_item(event, sealed=tournament.seed_revealed) for event in stored]
    archives: list[Any] = []
    unfinished: list[Any] = []
    for link in (event for event in stored if type(event).__name__ == LINKED):
        found = _public_archive(matches, str(link.match_id))
        if found is None:
            unfinished.append(
                {
                    "match_id": str(link.match_id),
                    "round": link.round,
                    "table": link.table,
                    "attempt": link.attempt,
                }
            )
        else:
            archives.append(found)
    last = events[-1]
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "tournament_id": str(tournament.id),
        "name": tournament.name,
        "ruleset": tournament.ruleset,
        "ruleset_version": tournament.ruleset_version,
        "exported_at": iso(exported_at),
        "finished": bool(tournament.finished),
        "head": {"version": last["version"], "chain": last["chain"]},
        "events": events,
        "matches": archives,
        "unfinished": unfinished,
    }


def _public_archive(matches: Any, match_id: str) -> Document | None:
    """Returns a finished match's public archive, or None for a match not finished (the
    export asks with no token: only a finished match is exported to anyone)."""
    try:
        return matches.export_archive(match_id)  # type: ignore[no-any-return]
    except MissingTokenError:
        return None
