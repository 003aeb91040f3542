"""The Tournament's errors (STYLE.md, Errors): a caller broke the tournament's contract.
They join the domain's family (`DrtsError`), each with a stable `code`; every message
names the offending value."""

from domain.errors import DrtsError


class InvalidTournamentError(DrtsError, ValueError):
    """Raised when a tournament is created with a bad format, rounds, tie-break order,
    option or config."""

    code = "invalid_tournament"


class RegistrationClosedError(DrtsError):
    """Raised when a player registers once round 1 is paired, or the tournament is over."""

    code = "registration_closed"


class AlreadyRegisteredError(DrtsError):
    """Raised when a player registers twice for one tournament."""

    code = "already_registered"


class UnknownPlayerError(DrtsError, LookupError):
    """Raised when a command names a player who is not registered (or has withdrawn)."""

    code = "unknown_player"


class InvalidPairingError(DrtsError, ValueError):
    """Raised when a round's pairing does not fit the tournament: the wrong round number,
    the previous round not complete, an unknown, withdrawn or twice-seated player."""

    code = "invalid_pairing"


class UnknownTableError(DrtsError, LookupError):
    """Raised when a round or table named is not in the tournament's pairings."""

    code = "unknown_table"


class InvalidLinkError(DrtsError, ValueError):
    """Raised when a match is linked where it may not be: a match linked already, a table
    whose match has not ended drawn, a replay past the limit."""

    code = "invalid_link"


class InvalidResultError(DrtsError, ValueError):
    """Raised when a result names a match that is not linked, players other than its
    table's, or does not follow a later timeline than the result recorded before."""

    code = "invalid_result"


class RoundNotCompleteError(DrtsError):
    """Raised when a round is completed, or the tournament finished, while a table of the
    round lacks the result of its latest match."""

    code = "round_not_complete"


class TournamentPausedError(DrtsError):
    """Raised when the organiser has paused the tournament and a command needs it running
    (pairing a round, a second pause)."""

    code = "tournament_paused"


class TournamentNotPausedError(DrtsError):
    """Raised when the organiser resumes a tournament that is not paused."""

    code = "tournament_not_paused"


class TournamentFinishedError(DrtsError):
    """Raised when a command needs a running tournament and it has finished."""

    code = "tournament_finished"


class SeedRevealError(DrtsError, ValueError):
    """Raised when the seed is revealed before the tournament finishes, twice, or does not
    match the seed commitment."""

    code = "seed_reveal"
