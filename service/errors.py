"""Errors of the service layer: lookups and wiring (STYLE.md, Errors).

Library errors are wrapped `from None`; every message names the offending value.
"""

from domain.errors import DrtsError, InvalidTokenError


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


class UnknownEventTypeError(DrtsError, ValueError):
    """Raised when an event log filter names an event type the match log has no such kind of."""

    code = "unknown_event_type"

    def __init__(self, message: str, unknown: list[str], known: list[str]) -> None:
        super().__init__(message)
        self.details = {"unknown": unknown, "known": known}


class TamperedLogError(DrtsError):
    """Raised when a match's stored log cannot be served as it is: a row that does not
    decode, a version missing or out of place, a broken chain link or seal, or an event
    that does not apply (docs/integrity.md). `details` names the version, type and why."""

    code = "tampered_log"

    def __init__(self, match_id: object, version: int, type_name: str, reason: str) -> None:
        super().__init__(
            f"the stored log of match {match_id} is not sound at version {version} "
            f"({type_name}): {reason}; `drts match verify` reports it"
        )
        self.details = {"version": version, "type": type_name, "reason": reason}


class TruncatedLogError(TamperedLogError):
    """Raised when a command would write to a match whose log ends before the head the
    match list read model recorded (its last events were deleted), or that the read
    models quarantined for a broken log: the match is quarantined, and takes no write
    (service/store/logguard.py, docs/integrity.md)."""

    def __init__(self, match_id: object, log_end: int, recorded: int | None, reason: str) -> None:
        super().__init__(
            match_id, recorded or log_end, "log", f"{reason}; the match is quarantined"
        )
        self.log_end, self.recorded = log_end, recorded


class MatchImportedError(DrtsError):
    """Raised when a command would change an imported match, which is read-only."""

    code = "match_imported"


class InvalidArchiveError(DrtsError, ValueError):
    """Raised when a document to import is not a match archive this drts reads (its shape)."""

    code = "invalid_archive"


class TamperedArchiveError(DrtsError, ValueError):
    """Raised when a match archive fails verification: its chain, a seal or its head;
    the message names the event (version, type) and why."""

    code = "tampered_archive"


class MatchExistsError(DrtsError):
    """Raised when an archive's match id is already in the store with other events."""

    code = "match_exists"


class UnknownReceiptError(DrtsError, LookupError):
    """Raised when no order of a match (accepted or refused) holds a receipt digest."""

    code = "unknown_receipt"


class InvalidDigestError(DrtsError, ValueError):
    """Raised when a receipt digest asked for is not 64 hexadecimal digits."""

    code = "invalid_digest"


class UnknownTimelineError(DrtsError, LookupError):
    """Raised when a match has no timeline with the number asked for (?timeline=N)."""

    code = "unknown_timeline"


class InvalidResultAddressError(DrtsError, ValueError):
    """Raised when a result address is not a mail address drts may send to."""

    code = "invalid_result_address"


class UnknownConfirmationCodeError(DrtsError, LookupError):
    """Raised when a confirmation code is not the pending one of the seat's result address."""

    code = "unknown_confirmation_code"


class NotOperatorError(InvalidTokenError):
    """Raised when a token other than the operator's is given where only it will do (a
    forum integration sending posts)."""

    code = "not_operator"


class UnmappedForumUserError(DrtsError, LookupError):
    """Raised when a forum post's author is mapped to no seat and the post is not signed
    with a one-time code (docs/forum.md)."""

    code = "unmapped_author"


class ForumIdentityMismatchError(DrtsError):
    """Raised when a forum post's author is mapped with an identity (the forum's user id,
    an mbox sender's address) and the post does not carry it (docs/forum.md)."""

    code = "forum_identity_mismatch"


class UnknownForumCodeError(DrtsError, LookupError):
    """Raised when a post is signed with a code no seat of the match was given."""

    code = "unknown_forum_code"


class UsedForumCodeError(DrtsError):
    """Raised when a post is signed with a one-time code another post used."""

    code = "forum_code_used"


class InvalidPostsError(DrtsError, ValueError):
    """Raised when a file of forum posts cannot be read (not an mbox or a JSON list of
    posts); names the post and the field."""

    code = "invalid_posts"


class PlayerNotFoundError(DrtsError, LookupError):
    """Raised when no player has the given id or name (issue 45)."""

    code = "player_not_found"


class PlayerNameTakenError(DrtsError):
    """Raised when a player is created under a name another player holds (in any case)."""

    code = "player_name_taken"


class UnknownPlayerError(DrtsError, ValueError):
    """Raised when a seat names a player (id or name) that does not exist."""

    code = "unknown_player"
