"""Errors of the service layer: lookups and wiring (STYLE.md, Errors).

Library errors are wrapped `from None`; every message names the offending value.
"""

from domain.errors import DrtsError


class MatchNotFoundError(DrtsError, LookupError):
    """Raised when no match has the given id."""

    code = "match_not_found"


class MovementNotFoundError(DrtsError, LookupError):
    """Raised when a match has no such movement or step (yet)."""

    code = "movement_not_found"


class ConcurrentWriteError(DrtsError):
    """Raised when a command kept losing races for the same match and gave up."""

    code = "concurrent_write"


class MissingTokenError(DrtsError):
    """Raised when a use case needs a token (referee, seat or operator) and none was given."""

    code = "missing_token"


class InvalidCursorError(DrtsError, ValueError):
    """Raised when a listing's cursor is not one that the listing handed out."""

    code = "invalid_cursor"


class MovementNotResolvedError(DrtsError, LookupError):
    """Raised when the phases of a movement that has not resolved (yet) are asked for."""

    code = "movement_not_resolved"


class PhaseNotFoundError(DrtsError, LookupError):
    """Raised when a resolved movement has no phase with the given number."""

    code = "phase_not_found"


class PhasesDivergedError(DrtsError):
    """Raised when running a movement's resolution again does not give its stored state."""

    code = "phases_diverged"


class NoBotProtocolError(DrtsError, LookupError):
    """Raised when a bot protocol message is asked of a match whose game has no bot protocol."""

    code = "no_bot_protocol"


class SeatNeededError(DrtsError, ValueError):
    """Raised when a seat's message is asked for without saying which seat (no seat token)."""

    code = "seat_needed"


class LogUnreadableError(DrtsError):
    """Raised when a match's stored events cannot be read or folded (a tampered or damaged
    log): the message names the first event that fails."""

    code = "log_unreadable"
