"""One error table for the whole API, and DESIGN.md's JSON error shape.

Every error response is `{"code": "<stable_snake_case>", "status": <int>,
"message": "...", "details": {...}}`. Domain and service exceptions map to a
status through `STATUS_BY_ERROR` (the first matching class wins); their
`code` attribute is the stable code. HTTP errors (routing, webargs, body
size) get a code by status (`HTTP_CODES`), and a body that is not JSON is
`malformed_json`. Anything unmapped is a bug: a 500 with code
`internal_error`, logged with its traceback. docs/api.md lists every code.
"""

from __future__ import annotations

from typing import Any

import marshmallow as ma
from flask import Flask, current_app, jsonify
from flask.typing import ResponseReturnValue
from werkzeug.exceptions import HTTPException

from api.capacity import RateLimitedError, TooManyStreamsError
from api.strictness import UnknownParameterError
from domain import errors as domain_errors
from domain.tournament import errors as tournament_errors
from service import errors as service_errors
from service.limits import LimitError
from service.tournaments import (
    NotOrganiserError,
    NoTournamentMatchError,
    TournamentNotFoundError,
)

# Order matters: subclasses before their bases.
STATUS_BY_ERROR: tuple[tuple[type[Exception], int], ...] = (
    (UnknownParameterError, 400),
    (service_errors.UnknownEventTypeError, 400),
    (service_errors.MissingTokenError, 401),
    (domain_errors.NotRefereeError, 403),
    (domain_errors.NotASeatError, 403),
    (service_errors.NotOperatorError, 403),
    (NotOrganiserError, 403),  # an InvalidTokenError: before its 401
    (domain_errors.InvalidTokenError, 401),
    (domain_errors.NotYourSeatError, 403),
    (domain_errors.UncitableEventError, 403),
    (domain_errors.WrongPlayerKeyError, 403),
    (service_errors.MatchNotFoundError, 404),
    (service_errors.MovementNotFoundError, 404),
    (service_errors.MovementNotResolvedError, 404),
    (service_errors.PhaseNotFoundError, 404),
    (service_errors.NoBotProtocolError, 404),
    (service_errors.UnknownReceiptError, 404),
    (service_errors.UnknownTimelineError, 404),
    (service_errors.UnknownConfirmationCodeError, 404),
    (domain_errors.UnknownSeatError, 404),
    (domain_errors.UnknownDisputeError, 404),
    (service_errors.PlayerNotFoundError, 404),
    (TournamentNotFoundError, 404),
    (NoTournamentMatchError, 404),
    (domain_errors.InvalidOrderError, 422),
    (domain_errors.IllegalOrderError, 422),
    (domain_errors.UnknownActionError, 422),
    (domain_errors.InvalidActionError, 422),
    (domain_errors.IllegalActionError, 422),
    (domain_errors.InvalidDisputeError, 422),
    (domain_errors.WrongConfirmationCodeError, 422),
    (service_errors.UnknownPlayerError, 422),
    (domain_errors.InvalidConfigError, 422),
    (domain_errors.InvalidStateError, 422),
    (domain_errors.UnknownRulesetError, 422),
    (service_errors.InvalidCursorError, 422),
    (LimitError, 422),
    (service_errors.SeatNeededError, 422),
    (service_errors.InvalidDigestError, 422),
    (service_errors.InvalidResultAddressError, 422),
    (service_errors.InvalidPostsError, 422),
    (domain_errors.MovementClosedError, 409),
    (domain_errors.DuplicateMessageError, 409),
    (domain_errors.SeatTakenError, 409),
    (domain_errors.MatchNotStartedError, 409),
    (domain_errors.MatchAlreadyStartedError, 409),
    (domain_errors.NotEnoughSeatsError, 409),
    (service_errors.ConcurrentWriteError, 409),
    (domain_errors.RulesetVersionNotInstalledError, 409),
    (service_errors.PhasesDivergedError, 409),
    (domain_errors.MatchQuarantinedError, 409),
    (domain_errors.NotQuarantinedError, 409),
    (domain_errors.MatchPausedError, 409),
    (domain_errors.NotPausedError, 409),
    (domain_errors.DisputeAlreadyRuledError, 409),
    (domain_errors.TooManyOpenDisputesError, 409),
    (service_errors.TamperedLogError, 409),
    (service_errors.MatchImportedError, 409),
    (service_errors.MatchExistsError, 409),
    (service_errors.PlayerNameTakenError, 409),
    (tournament_errors.RegistrationClosedError, 409),
    (tournament_errors.AlreadyRegisteredError, 409),
    (tournament_errors.TournamentPausedError, 409),
    (tournament_errors.TournamentNotPausedError, 409),
    (tournament_errors.TournamentFinishedError, 409),
    (domain_errors.DrtsError, 422),
    (TooManyStreamsError, 503),
    (RateLimitedError, 429),
)
BEARER_CHALLENGE = {"WWW-Authenticate": 'Bearer realm="drts"'}

HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    409: "conflict",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "validation_error",
    429: "too_many_requests",
    500: "internal_error",
    503: "service_unavailable",
}


class ErrorSchema(ma.Schema):
    """The JSON error shape (documentation only)."""

    code = ma.fields.String(required=True, metadata={"description": "stable snake_case code"})
    status = ma.fields.Integer(required=True, metadata={"description": "HTTP status"})
    message = ma.fields.String(required=True, metadata={"description": "what is wrong"})
    details = ma.fields.Dict(required=True, metadata={"description": "structured details"})


def error_body(
    code: str, status: int, message: str, details: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Returns the error payload in the one shape of the API."""
    return {"code": code, "status": status, "message": message, "details": details or {}}


def http_error_payload(error: HTTPException) -> tuple[dict[str, Any], int]:
    """Returns the payload and status for a werkzeug or flask-smorest HTTP error."""
    status = error.code or 500
    data = getattr(error, "data", None) or {}
    code = data.get("code") or HTTP_CODES.get(status, "http_error")
    message = data.get("message") or error.description or error.name
    details = data.get("details") or {}
    if "messages" in data:  # webargs validation errors, keyed by location then field
        details = {"fields": data["messages"]}
        message = "the request is invalid: " + _summary(data["messages"])
        if status == 400:  # webargs says 400 only for a body it cannot decode
            code, message = "malformed_json", "the request body is not valid JSON"
    return error_body(code, status, message, details), status


def _summary(messages: dict[str, Any]) -> str:
    parts = []
    for location, fields in messages.items():
        if isinstance(fields, dict):
            parts += [f"{location}.{name}: {_first(text)}" for name, text in fields.items()]
        else:
            parts.append(f"{location}: {_first(fields)}")
    return "; ".join(parts)


def _first(text: Any) -> str:
    while isinstance(text, (list, dict)) and text:
        text = text[0] if isinstance(text, list) else next(iter(text.values()))
    return str(text)


def handle_domain_error(error: Exception) -> ResponseReturnValue:
    """Returns the JSON error for a domain, service or capacity exception, by the error
    table (with its details, and Retry-After for a 429 or a full process's 503)."""
    mapped = mapped_error(error)
    assert mapped is not None, error  # registered for the table's classes only
    payload, status, headers = mapped
    return jsonify(payload), status, headers


def mapped_error(error: Exception) -> tuple[dict[str, Any], int, dict[str, str]] | None:
    """Returns the payload, status and headers of an exception's error by the error table
    (its first class the exception is an instance of); None for an unmapped exception."""
    status = next((s for cls, s in STATUS_BY_ERROR if isinstance(error, cls)), None)
    if status is None:
        return None
    code = getattr(error, "code", "error")
    headers = BEARER_CHALLENGE if status == 401 else {}
    if isinstance(error, RateLimitedError):
        headers = {"Retry-After": str(error.retry_after)}
    details = getattr(error, "details", None) or {}
    return error_body(code, status, str(error), details), status, headers


def internal_error() -> dict[str, Any]:
    """Returns the payload of a 500: it says nothing of the bug, which is logged."""
    return error_body("internal_error", 500, "internal error")


def handle_unexpected(error: Exception) -> ResponseReturnValue:
    """Returns a 500 for an unmapped exception and logs it: a 500 is always a bug."""
    current_app.logger.exception("unhandled error", exc_info=error)
    return jsonify(internal_error()), 500


def register_error_handlers(app: Flask) -> None:
    """Registers the error table's handlers on the app."""
    app.register_error_handler(domain_errors.DrtsError, handle_domain_error)
    for cls, _ in STATUS_BY_ERROR:
        if not issubclass(cls, domain_errors.DrtsError):
            app.register_error_handler(cls, handle_domain_error)
    app.register_error_handler(Exception, handle_unexpected)  # HTTP errors have their own


ERROR_DESCRIPTIONS = {
    400: "The body is not valid JSON (malformed_json), or a query parameter the endpoint "
    "does not accept (unknown_parameter), or an event type no match log holds "
    "(unknown_event_type)",
    401: "No token (missing_token), or one this match does not know (invalid_token)",
    403: "A token without the right: not_referee, not_a_seat, not_your_seat, a key "
    "that is not the player's (wrong_player_key), or a token that is not the tournament "
    "organiser's (not_organiser)",
    404: "No such match, movement, phase, seat or receipt (match_not_found, "
    "movement_not_found, movement_not_resolved, phase_not_found, unknown_seat, "
    "unknown_receipt, player_not_found, tournament_not_found), or no bot protocol for "
    "the match's game (no_bot_protocol)",
    409: "The match is not in a state to do this (movement_closed, seat_taken, "
    "match_not_started, match_already_started, not_enough_seats, concurrent_write, "
    "phases_diverged, dispute_already_ruled, too_many_open_disputes: the seat's "
    "disputes awaiting a ruling are at the cap), it was imported from an archive and is "
    "read-only (match_imported), its ruleset version is not installed here "
    "(ruleset_version_not_installed), a player name is taken (player_name_taken), a "
    "tournament is not in a state to do this (registration_closed, already_registered, "
    "tournament_paused, tournament_not_paused, tournament_finished), or a "
    "match's stored log is not sound (tampered_log: details name the version, type and why)",
    413: "The body is over the size limit (payload_too_large)",
    422: "Invalid input: validation_error, invalid_order, illegal_order, invalid_config, "
    "unknown_action, invalid_action, illegal_action, invalid_evidence, invalid_digest, ...",
    429: "Too many requests from this address or token (rate_limited), or too many long "
    "polls waiting (too_many_long_polls), or too many live streams from this address "
    "(too_many_streams_from_address); Retry-After says when to try again",
    503: "This server process serves its most live streams (too_many_streams); Retry-After "
    "says when to try again",
}

# OpenAPI security requirements: the token is required, or optional (it shows more).
TOKEN_REQUIRED: list[dict[str, list[str]]] = [{"bearerAuth": []}]
TOKEN_OPTIONAL: list[dict[str, list[str]]] = [{}, {"bearerAuth": []}]


def documents_errors(blp: Any, *statuses: int) -> Any:
    """Returns a decorator documenting the error responses a view may give, in the one shape."""

    def decorate(view: Any) -> Any:
        documented = view
        for status in statuses:
            documented = blp.alt_response(
                status, schema=ErrorSchema, description=ERROR_DESCRIPTIONS[status]
            )(documented)
        # the view itself carries the documentation: flask-smorest's alt_response wrappers
        # only document, and each would be one more call a request (issue 46)
        view._apidoc = documented._apidoc
        return view

    return decorate
