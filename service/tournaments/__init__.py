"""Running tournaments (issue 45): the `Tournaments` facade, beside `Matches`, on the
same store.

- `facade.py`: `Tournaments`: create, register, withdraw, pause, resume, advance
  (`pair_next_round`; `pair`, the organiser's over HTTP), record_results, advance_all,
  standings, seat_token, verify, export_archive;
- `running.py`: the steps of running a tournament, one save each, decided afresh;
- `tables.py`: a table's match created with an idempotency key, seated and started;
- `outcome.py`: a finished match's result as the tournament records it;
- `audit.py`: verify: the chain, the pairings re-derived, the results against the store;
- `cache.py`: each tournament as last read and the index of links, kept by a process.
- `export.py`: the tournament's archive: its events and its finished matches' archives.
"""

from service.tournaments.audit import Verification
from service.tournaments.facade import (
    ADVANCE_TOURNAMENT,
    NewTournament,
    NotOrganiserError,
    NoTournamentMatchError,
    TournamentNotFoundError,
    Tournaments,
)

__all__ = [
    "ADVANCE_TOURNAMENT",
    "NewTournament",
    "NoTournamentMatchError",
    "NotOrganiserError",
    "TournamentNotFoundError",
    "Tournaments",
    "Verification",
]
