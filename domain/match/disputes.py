"""Disputes (issue 18): a seat or the referee files one on the match, citing event versions
and a text, and the referee rules on it once, dismissing it or upholding it, with a reason.

A dispute is an event of the match (DisputeFiled), public like the text it carries; so is
its ruling (DisputeRuled). Neither changes the game: they may be recorded before the
start, during play, once the match has finished and while it is quarantined. What a
filer may cite (the events whose content it may see) is the service's to tell, since it
knows the log: it passes `uncitable`, which gives the reason a version may not be cited
by a seat (None when it may).

A seat may have at most MAX_OPEN_DISPUTES_PER_SEAT disputes awaiting a ruling: one more
is refused (TooManyOpenDisputesError) until the referee rules on one, so that one seat
cannot flood the match, and every reader of its disputes, with complaints. The cap is a
check of the command, not a fact of the log: no event records it, and a log holding more
(filed before the cap, or under a larger one) replays as it was recorded. The referee
and the operator are not held to it: they rule on disputes, their own included.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from domain.errors import (
    DisputeAlreadyRuledError,
    InvalidDisputeError,
    TooManyOpenDisputesError,
    UncitableEventError,
    UnknownDisputeError,
)
from domain.match.queries import MatchQueries
from domain.match.values import Dispute

RULINGS = ("dismissed", "upheld")
MAX_OPEN_DISPUTES_PER_SEAT = 10  # docs/referee.md, "A dispute filed"; docs/api.md, Disputes
# Says why a seat (None: the referee) may not cite an event version; None when it may.
Uncitable = Callable[[int, int | None], str | None]


class MatchDisputes(MatchQueries):
    """The commands of disputes: filing one, ruling on one."""

    def file_dispute(
        self,
        token_hash: str,
        cites: Sequence[int],
        text: str,
        at: datetime,
        uncitable: Uncitable,
        by: str | None = None,
        key_digest: str | None = None,
    ) -> int:
        """Files a dispute from the seat holding the token, or from the referee (its token;
        `by` says "operator" when the operator acts as referee); returns its number.

        With `key_digest` (of the filer's idempotency key), a dispute the same filer filed
        with the same key is returned instead and nothing is recorded: a retry never files
        twice.

        Raises InvalidTokenError for a token of neither, TooManyOpenDisputesError for a
        seat with MAX_OPEN_DISPUTES_PER_SEAT disputes awaiting a ruling (a keyed retry of
        one of them still returns it), InvalidDisputeError without a cite or text or for a
        version the log does not hold, UncitableEventError for one whose content the filer
        may not see.
        """
        seat = None if self.is_referee(token_hash) else self.seat_of(token_hash)
        filer = "seat" if seat is not None else by or "referee"
        earlier = self._keyed_dispute(filer, seat, key_digest)
        if earlier is not None:
            return earlier
        if seat is not None:
            self.check_room_for_dispute(seat)
        versions = sorted(set(cites))
        if not text.strip():
            raise InvalidDisputeError(f"a dispute on match {self.id} needs a text saying what")
        if not versions:
            raise InvalidDisputeError(
                f"a dispute on match {self.id} cites at least one event version (1..{self.version})"
            )
        for version in versions:
            self._check_citable(version, seat, uncitable)
        self._record(
            self.DisputeFiled,
            at,
            dispute=len(self.disputes) + 1,
            by=filer,
            seat=seat,
            movement=self.movement - 1 if self.finished else self.movement,
            cites=versions,
            text=text,
            key_digest=key_digest,
        )
        return len(self.disputes)

    def check_room_for_dispute(self, seat: int) -> None:
        """Raises TooManyOpenDisputesError when seat `seat` has MAX_OPEN_DISPUTES_PER_SEAT
        disputes awaiting a ruling."""
        waiting = [d.number for d in self.disputes if d.seat == seat and d.is_open]
        if len(waiting) >= MAX_OPEN_DISPUTES_PER_SEAT:
            raise TooManyOpenDisputesError(
                f"seat {seat} of match {self.id} has {len(waiting)} disputes awaiting a ruling "
                f"(at most {MAX_OPEN_DISPUTES_PER_SEAT}): a further one waits until the "
                f"referee rules on one of {', '.join(map(str, waiting))}",
                seat,
                MAX_OPEN_DISPUTES_PER_SEAT,
                waiting,
            )

    def _keyed_dispute(self, by: str, seat: int | None, key_digest: str | None) -> int | None:
        """Returns the number of the dispute this filer filed with this key, if any."""
        if key_digest is None:
            return None
        for dispute in self.disputes:
            if (dispute.by, dispute.seat, dispute.key_digest) == (by, seat, key_digest):
                return dispute.number
        return None

    def rule_dispute(
        self,
        referee_token_hash: str,
        number: int,
        ruling: str,
        reason: str,
        by: str,
        at: datetime,
        correction: int | None = None,
    ) -> Dispute:
        """Rules on dispute `number` (the referee's or operator's, `by` naming who):
        "dismissed" or "upheld", with a reason (and, upheld, the version of the Corrected
        event it led to: domain/match/corrections.py); returns the dispute as ruled.

        Raises InvalidTokenError (NotRefereeError), UnknownDisputeError,
        InvalidDisputeError for another ruling or an empty reason, and
        DisputeAlreadyRuledError: a dispute is ruled on once.
        """
        self.check_referee(referee_token_hash)
        self.check_may_rule(number)
        if ruling not in RULINGS:
            raise InvalidDisputeError(f"a ruling is dismissed or upheld, got {ruling!r}")
        if not reason.strip():
            raise InvalidDisputeError(f"the ruling on dispute {number} needs a reason")
        if correction is not None and ruling != "upheld":
            raise InvalidDisputeError(f"only an upheld dispute leads to a correction, not {ruling}")
        self._record(
            self.DisputeRuled,
            at,
            dispute=number,
            ruling=ruling,
            reason=reason,
            by=by,
            correction=correction,
        )
        return self.disputes[number - 1]

    def check_may_rule(self, number: int) -> None:
        """Raises UnknownDisputeError, or DisputeAlreadyRuledError: a dispute is ruled on
        once."""
        dispute = self.dispute(number)
        if not dispute.is_open:
            raise DisputeAlreadyRuledError(
                f"dispute {number} of match {self.id} was already {dispute.ruling} "
                f"(event {dispute.ruled_version}): a dispute is ruled on once"
            )

    def dispute(self, number: int) -> Dispute:
        """Returns dispute `number`; raises UnknownDisputeError if the match has none such."""
        if not 1 <= number <= len(self.disputes):
            raise UnknownDisputeError(
                f"match {self.id} has no dispute {number} ({len(self.disputes)} filed)"
            )
        return self.disputes[number - 1]

    def _check_citable(self, version: int, seat: int | None, uncitable: Uncitable) -> None:
        if not 1 <= version <= self.version:
            raise InvalidDisputeError(
                f"event {version} cannot be cited: match {self.id} holds events 1..{self.version}"
            )
        why = uncitable(version, seat)
        if why is not None:
            raise UncitableEventError(f"event {version} cannot be cited by seat {seat}: {why}")
