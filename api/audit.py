"""/matches/{id}/replay, /audit, /verify, /archive and /seed: what auditors and referees check."""

from __future__ import annotations

from typing import Any
from uuid import UUID

from flask.views import MethodView

from api.context import Blueprint, bearer_token, matches
from api.errors import TOKEN_OPTIONAL, TOKEN_REQUIRED, documents_errors
from api.schemas.audit import (
    ArchiveSchema,
    AuditSchema,
    ChainReportSchema,
    ReplaySchema,
    SeedSchema,
    TimelineArgsSchema,
    VerifyRequestSchema,
)

blp = Blueprint(
    "audit",
    __name__,
    url_prefix="/matches/<uuid:match_id>",
    description="Replay, re-adjudication, chain verification, the archive, the seed",
)


@blp.route("/replay")
class Replay(MethodView):
    @blp.arguments(TimelineArgsSchema, location="query")
    @blp.response(200, ReplaySchema)
    @documents_errors(blp, 401, 403, 404, 409)
    @blp.doc(operationId="getReplay", security=TOKEN_OPTIONAL)
    def get(self, args: dict[str, Any], match_id: UUID) -> Any:
        """Replays the match from its first event: every movement's steps and resulting state,
        and whether the replay agrees with the stored match (`timeline`: an earlier one of a
        corrected match)."""
        return matches().replay(match_id, bearer_token(), args["timeline"])


@blp.route("/audit")
class Audit(MethodView):
    @blp.arguments(TimelineArgsSchema, location="query")
    @blp.response(200, AuditSchema)
    @documents_errors(blp, 401, 403, 404, 409)
    @blp.doc(operationId="auditMatch", security=TOKEN_OPTIONAL)
    def get(self, args: dict[str, Any], match_id: UUID) -> Any:
        """Re-adjudicates the match under its pinned ruleset version from its config, seed
        and orders, and names the first divergence from the stored steps and state hashes;
        every timeline of a corrected match is re-adjudicated (`timelines`), the report is
        on the current one unless `timeline` names another. Before the match finishes only
        its referee (or the operator) may (the look is recorded); then anyone."""
        return matches().audit(match_id, bearer_token(), args["timeline"])


@blp.route("/verify")
class Verify(MethodView):
    @blp.arguments(TimelineArgsSchema, location="query")
    @blp.response(200, ChainReportSchema)
    @documents_errors(blp, 404)
    @blp.doc(operationId="verifyChain")
    def get(self, args: dict[str, Any], match_id: UUID) -> Any:
        """Verifies the hash chain and seals of every stored event, naming the first bad one;
        checks the log against the heads the match list recorded, the finish and the
        snapshots (`problems`). `head` is the last event of the current timeline, or of
        `timeline`."""
        return matches().verify_chain(match_id, timeline=args["timeline"])

    @blp.arguments(TimelineArgsSchema, location="query")
    @blp.arguments(VerifyRequestSchema, required=False)  # no body: as GET, no evidence
    @blp.response(200, ChainReportSchema)
    @documents_errors(blp, 400, 404, 413, 422)
    @blp.doc(operationId="verifyWithEvidence")
    def post(self, args: dict[str, Any], body: dict[str, Any], match_id: UUID) -> Any:
        """Verifies as GET does, and checks every receipt and head given against the log: a
        log that ends before one (truncated) or differs at its version (rewritten) is
        named in `problems`, with the receipt or head (`receipts[i]`, `heads[i]`)."""
        receipts = [(f"receipts[{i}]", r) for i, r in enumerate(body["receipts"])]
        heads = [(f"heads[{i}]", h) for i, h in enumerate(body["heads"])]
        return matches().verify_chain(match_id, receipts, heads, args["timeline"])


@blp.route("/archive")
class Archive(MethodView):
    @blp.arguments(TimelineArgsSchema, location="query")
    @blp.response(200, ArchiveSchema)
    @documents_errors(blp, 401, 403, 404, 409)
    @blp.doc(operationId="getArchive", security=TOKEN_OPTIONAL)
    def get(self, args: dict[str, Any], match_id: UUID) -> Any:
        """Returns the match's archive (docs/archive.md): a finished match's to anyone, in the
        public form; an unfinished one's to its referee only, in the full form (the look is
        recorded). `drts match import` loads it into another store. It holds every event;
        a corrected match's names the timeline shown (`timeline`: an earlier one)."""
        return matches().export_archive(match_id, bearer_token(), args["timeline"])


@blp.route("/seed")
class Seed(MethodView):
    @blp.response(200, SeedSchema)
    @documents_errors(blp, 401, 403, 404)
    @blp.doc(operationId="getSeed", security=TOKEN_REQUIRED)
    def get(self, match_id: UUID) -> Any:
        """Returns the seed to the referee before the match reveals it (the look is recorded)."""
        return {"match_id": match_id, "seed": matches().referee_seed(match_id, bearer_token())}
