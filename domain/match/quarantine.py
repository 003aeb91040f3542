"""The quarantine of a match whose resolution keeps failing (DESIGN.md, Isolation).

The service counts failed resolutions outside the match (failures record no
event: service/usecases/quarantine.py); after a number of identical failures in a row it
records `Quarantined` here, and the service stops resolving the match until the
referee (or the operator) lifts it with a retry (`QuarantineLifted`). Orders
meanwhile are refused (`check_not_quarantined`, in queries.py): a quarantined match's due
movement cannot close, so an order could be judged in no movement.
"""

from __future__ import annotations

from datetime import datetime

from domain.errors import NotQuarantinedError
from domain.match.queries import MatchQueries


class MatchQuarantine(MatchQueries):
    """The commands and guard of a match's quarantine."""

    def quarantine(
        self, movement: int, error: str, message: str, failures: int, at: datetime
    ) -> bool:
        """Records that the service stops resolving the match: `movement`'s resolution failed
        `failures` times in a row with `error` (`message` says how). Returns False, recording
        nothing, when the match is already quarantined or finished."""
        if self.quarantined is not None or self.finished:
            return False
        self._record(
            self.Quarantined,
            at,
            movement=movement,
            error=error,
            message=message,
            failures=failures,
        )
        return True

    def lift_quarantine(self, referee_token_hash: str, by: str, at: datetime) -> int:
        """Lifts the quarantine (the referee's or operator's retry, `by` naming who); returns
        the movement the service will try again. Raises NotQuarantinedError if none."""
        self.check_referee(referee_token_hash)
        if self.quarantined is None:
            raise NotQuarantinedError(f"match {self.id} is not quarantined: nothing to retry")
        movement: int = self.quarantined["movement"]
        self._record(self.QuarantineLifted, at, movement=movement, by=by)
        return movement
