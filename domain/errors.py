"""The error family of the domain (see STYLE.md, Errors).

Game outcomes are values; these exceptions mean that a caller broke the
contract: a malformed order, an order that is not legal now, a bad config.
Every message names the offending value.
"""


class DrtsError(Exception):
    """Raised for any contract breach in drts; the base of the family."""

    code = "drts_error"


class UnknownRulesetError(DrtsError, LookupError):
    """Raised when a ruleset name is not in the registry."""

    code = "unknown_ruleset"


class UnknownRulesetVersionError(UnknownRulesetError):
    """Raised when a ruleset has no installed version with the given number."""

    code = "unknown_ruleset_version"


class RulesetVersionNotInstalledError(DrtsError, LookupError):
    """Raised when a stored match's ruleset version is not installed on this server."""

    code = "ruleset_version_not_installed"


class InvalidConfigError(DrtsError, ValueError):
    """Raised when a match config (or its board, map or seat count) is malformed."""

    code = "invalid_config"


class InvalidOrderError(DrtsError, ValueError):
    """Raised when an order cannot be parsed (syntax or JSON shape)."""

    code = "invalid_order"


class IllegalOrderError(DrtsError, ValueError):
    """Raised when a well-formed order is not legal in the current state; says why."""

    code = "illegal_order"


class InvalidStateError(DrtsError, ValueError):
    """Raised when a dumped state cannot be loaded."""

    code = "invalid_state"


class MovementClosedError(DrtsError):
    """Raised when an order or action targets a movement that is not open."""

    code = "movement_closed"


class DuplicateMessageError(DrtsError):
    """Raised when a seat's order carries the message id (a mail's Message-ID, a forum
    post's id) of an order of the same seat and source still pending in the movement: the
    same message taken twice, as when two copies of it are processed at once. Nothing is
    recorded; `version` is the pending copy's OrderSubmitted."""

    code = "duplicate_message"

    def __init__(self, message: str, version: int) -> None:
        super().__init__(message)
        self.version = version


class NotYourSeatError(DrtsError):
    """Raised when a seat acts where it has no right to (not its turn, wrong seat)."""

    code = "not_your_seat"


class SeatTakenError(DrtsError):
    """Raised when a seat is joined twice or the match has no free seat."""

    code = "seat_taken"


class InvalidTokenError(DrtsError):
    """Raised when a seat or referee token matches no holder in the match."""

    code = "invalid_token"


class MatchNotStartedError(DrtsError):
    """Raised when a match that has not started is asked to play (order, resolve)."""

    code = "match_not_started"


class MatchAlreadyStartedError(DrtsError):
    """Raised when a started match is asked to seat a player or to start again."""

    code = "match_already_started"


class NotEnoughSeatsError(DrtsError):
    """Raised when a match is started before enough seats have joined."""

    code = "not_enough_seats"


class NotRefereeError(InvalidTokenError):
    """Raised when a seat token is used where the referee token is needed."""

    code = "not_referee"


class NotASeatError(InvalidTokenError):
    """Raised when a token that holds no seat (the referee's, the operator's) acts as a seat."""

    code = "not_a_seat"


class UnknownSeatError(DrtsError, LookupError):
    """Raised when a match has no seat with the given number."""

    code = "unknown_seat"


class InvalidDeadlineError(DrtsError, ValueError):
    """Raised when a referee's new deadline is not later than the current one, or absurdly far."""

    code = "invalid_deadline"


class UnknownActionError(DrtsError, LookupError):
    """Raised when a referee action is not one the match's ruleset declares."""

    code = "unknown_action"


class InvalidActionError(DrtsError, ValueError):
    """Raised when a referee action's arguments (or its reason) are malformed."""

    code = "invalid_action"


class IllegalActionError(DrtsError, ValueError):
    """Raised when a well-formed referee action is not allowed in the current state; says why."""

    code = "illegal_action"


class MatchQuarantinedError(DrtsError):
    """Raised when a match is quarantined (its resolution kept failing) and a command
    would need it resolved; the referee's retry lifts the quarantine."""

    code = "match_quarantined"


class NotQuarantinedError(DrtsError):
    """Raised when a retry asks to lift the quarantine of a match that is not quarantined."""

    code = "not_quarantined"


class MatchPausedError(DrtsError):
    """Raised when the referee has paused a match's clock and a command needs it running
    (a second pause, a deadline extension: resume first)."""

    code = "match_paused"


class NotPausedError(DrtsError):
    """Raised when the referee resumes a match whose clock is not paused."""

    code = "not_paused"


class InvalidDisputeError(DrtsError, ValueError):
    """Raised when a dispute or its ruling is malformed: no cite, an empty text or reason,
    a cited version the log does not hold, a ruling other than dismissed or upheld."""

    code = "invalid_dispute"


class UncitableEventError(DrtsError):
    """Raised when a seat cites an event whose content it may not see yet (another seat's
    order or refusal in a movement that has not closed)."""

    code = "uncitable_event"


class UnknownDisputeError(DrtsError, LookupError):
    """Raised when a match has no dispute with the given number."""

    code = "unknown_dispute"


class DisputeAlreadyRuledError(DrtsError):
    """Raised when the referee rules on a dispute that was ruled on already (once only)."""

    code = "dispute_already_ruled"


class TooManyOpenDisputesError(DrtsError):
    """Raised when a seat files a dispute while as many of its disputes as a seat may have
    open await a ruling (domain/match/disputes.py, MAX_OPEN_DISPUTES_PER_SEAT); `details`
    names the seat, the cap and its open disputes."""

    code = "too_many_open_disputes"

    def __init__(self, message: str, seat: int, cap: int, open_disputes: list[int]) -> None:
        super().__init__(message)
        self.details = {"seat": seat, "limit": cap, "open": open_disputes}


class WrongPlayerKeyError(DrtsError):
    """Raised when a key is not the current key of the player it claims (issue 45)."""

    code = "wrong_player_key"


class WrongConfirmationCodeError(DrtsError):
    """Raised when a code is not the pending confirmation code of a player's address."""

    code = "wrong_confirmation_code"
