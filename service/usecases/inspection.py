"""The inspection use case: what a referee or anyone checks of a match's record (the
seed, the archive export, the corrections, the re-adjudication, the chain with the
receipts and heads held). A look at secrets not yet revealed is recorded first, by the
queries' `note_secret_viewed` (service/queries/reads.py), so the inspection is given them beside
the store; reached through the Matches facade (service/matches.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from uuid import UUID

from domain.errors import NotRefereeError
from domain.integrity import iso
from domain.match import Match
from domain.rules.contract import JSON
from service.errors import MissingTokenError
from service.integrity import evidence
from service.queries import audit, replays
from service.queries.reads import MatchReads
from service.results import AuditReport, ChainReport, Document, Head
from service.store import loading
from service.store.application import MatchStore
from service.usecases import archive


class Inspection:
    """The referee's seed, archives, corrections, audits and chain verification."""

    def __init__(self, store: MatchStore, reads: MatchReads) -> None:
        self.store, self.reads = store, reads

    def referee_seed(self, match_id: UUID | str, referee_token: str | None) -> str:
        """Returns the match seed to its referee before it is revealed (the look is recorded,
        but in an imported match, which is read-only: docs/archive.md)."""
        read_only = self.store.is_imported(match_id)

        def look(match: Match) -> str:
            match.check_referee(self.store.tokens.referee_hash(match, referee_token))
            if not match.finished and not read_only:
                name = self.store.tokens.referee_name(referee_token)
                match.note_secret_viewed(name, "seed", self.store.clock())
            return match.seed

        return (
            look(self.store.get_match(match_id))
            if read_only
            else self.store.retrying(match_id, look)
        )

    def export_archive(
        self, match_id: UUID | str, token: str | None = None, timeline: int | None = None
    ) -> Document:
        """Returns the match's archive (docs/archive.md): the public form of a finished match,
        to anyone; the full form of an unfinished one, to its referee (or the operator)
        only, whose look is recorded first (the archive holds the record)."""
        match = self.store.get_match(match_id)
        viewer = self.store.tokens.viewer(match, token)
        if match.finished:
            return archive.document(self.store, match.id, "public", self.store.clock(), timeline)
        if token is None:
            raise MissingTokenError(
                f"match {match.id} is not finished: only its referee may export it "
                "(the full form, with the sealed values; the look is recorded)"
            )
        if not viewer.referee:
            raise NotRefereeError(
                f"match {match.id} is not finished: only its referee may export it, not a seat"
            )
        self.reads.note_secret_viewed(match.id, archive.LOOK, viewer.name)
        return archive.document(self.store, match.id, "full", self.store.clock(), timeline)

    def corrections(self, match_id: UUID | str) -> Document:
        """Returns the match's corrections, oldest first, and its current timeline (public:
        a correction names a movement that has closed, whose orders are public)."""
        match = self.store.get_match(match_id)
        found = [
            {
                "version": e.originator_version,
                "timestamp": iso(e.timestamp),
                "movement": e.movement,
                "timeline": e.timeline,
                "superseded": {"first": e.superseded_from, "last": e.superseded_to},
                "changes": e.changes,
                "reason": e.reason,
                "by": e.by,
                "dispute": e.dispute,
                "refused": e.refused,
                "voided_rematch": e.voided_rematch,
            }
            for e in loading.checked_events(self.store, match.id)
            if isinstance(e, Match.Corrected)
        ]
        return {"match_id": str(match.id), "timeline": match.timeline, "items": found}

    def audit(
        self, match_id: UUID | str, token: str | None = None, timeline: int | None = None
    ) -> AuditReport:
        """Re-adjudicates the match under its pinned ruleset version (service/queries/audit.py).

        Until the match finishes it needs the unrevealed seed: only the referee (or the
        operator) may ask, and the look is recorded (SecretViewed, what "audit"); once
        the seed is revealed, anyone. Raises MissingTokenError, InvalidTokenError,
        NotRefereeError, MatchNotFoundError, TamperedLogError and
        RulesetVersionNotInstalledError.
        """
        events, match = audit.stored_events(self.store, self.store.match_id(match_id))
        if match.finished:
            if token is not None:
                self.store.tokens.viewer(
                    match, token
                )  # a token this match does not know is refused
            return audit.audit_report(match, events, timeline)
        match.check_referee(self.store.tokens.referee_hash(match, token))
        report = audit.audit_report(match, events, timeline)
        self.reads.note_secret_viewed(match.id, "audit", self.store.tokens.referee_name(token))
        return report

    def verify_chain(
        self,
        match_id: UUID | str,
        receipts: Sequence[tuple[str, JSON]] = (),
        heads: Sequence[tuple[str, JSON]] = (),
        timeline: int | None = None,
    ) -> ChainReport:
        """Verifies the chain and seals of every stored event, naming the first bad one, and
        checks against the log each receipt and head given as (source, JSON) (a head also
        as the text VERSION:CHAIN), the read model's heads, the finish and the snapshots.

        Raises InvalidEvidenceError for a malformed receipt or head.
        """
        match = self.store.match_id(match_id)
        return replays.verify(
            self.store,
            match,
            [evidence.receipt_from_json(data, source) for source, data in receipts],
            [evidence.HeldHead(source, _head(source, data)) for source, data in heads],
            timeline,
        )


def _head(source: str, data: JSON) -> Head:
    if isinstance(data, str):
        return evidence.head_from_text(data)
    return evidence.head_from_json(data, source)
