"""The matrix's cells and its two tables: the cells not run (ONE table, NOT_RUN, each with
its reason) and the answers other than success that a read may rightly give (REFUSALS),
and the reads that are recorded (RECORDED: a referee's look at secret data).

A cell is (game, stage, surface, token kind). Every cell the generation yields
(tests/matrix/surfaces.py) is either run or matched by a NOT_RUN row; a cell neither
run nor listed fails (`test_matrix.py`). A read answers success (2xx; a page 200)
unless a REFUSALS row says otherwise for that surface, token kind and stage.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fnmatch import fnmatchcase

from domain.match import Match
from tests.matrix.stages import Stage

TOKENS = ("none", "seat", "referee", "operator")
STORE = "store"  # the stage of a surface that reads no match (a listing, the rulesets)


@dataclass(frozen=True)
class Cell:
    game: str  # Game.key: "drts_team23@1"
    stage: str  # a stage name, or STORE
    surface: str  # "api:getState", "page:pages.replay", "cli:state", "mail:result", ...
    token: str  # one of TOKENS

    @property
    def id(self) -> str:
        return f"{self.game}/{self.stage}/{self.surface}/{self.token}"


@dataclass(frozen=True)
class NotRun:
    """Cells not run, matched by shell patterns (`!name`: every game but it), and why."""

    game: str
    stage: str
    surface: str
    token: str
    reason: str

    def matches(self, cell: Cell) -> bool:
        return all(
            _match(pattern, value)
            for pattern, value in (
                (self.game, cell.game),
                (self.stage, cell.stage),
                (self.surface, cell.surface),
                (self.token, cell.token),
            )
        )


def _match(pattern: str, value: str) -> bool:
    if pattern.startswith("!"):
        return not fnmatchcase(value, pattern[1:])
    return fnmatchcase(value, pattern)


WRITE = "a write, not a read: tests/cli/ and tests/api/ play it"
CLI_WRITES = (
    "action", "confirm-address", "confirm-referee-address", "correct", "create",
    "dispute file", "dispute rule", "extend", "forfeit", "forum-code", "forum-post",
    "forum-user", "import", "join", "order", "pause", "referee-address", "reissue",
    "resolve", "resolve-due", "result-address", "resume", "retry", "start",
)  # fmt: skip
NOT_SHADES = "the bot protocol is Shades' (SH-11): no other game has one"

# THE table of cells not run: a game that cannot reach a stage, a surface a game lacks,
# and the commands that are not reads.
NOT_RUN: tuple[NotRun, ...] = (
    NotRun(
        "drts_team23@*", "struck", "*", "*",
        "silence holds (DRTS-2): no strike or elimination by the clock; a seat leaves only "
        "by the referee's forfeit (stage forfeited)",
    ),
    NotRun(
        "b_chess@*", "struck", "*", "*",
        "silence holds (BC-2: a Turn of the Field waits for orders); a seat leaves only by "
        "the referee's forfeit (stage forfeited)",
    ),
    NotRun(
        "!district_war@*", "drawn_rematch", "*", "*",
        "a rematch follows only a District War draw on every size (DW-5)",
    ),
    NotRun("!shades@*", "*", "api:getProtocolMessage", "*", NOT_SHADES),
    NotRun("!shades@*", "*", "cli:protocol", "*", NOT_SHADES),
    NotRun("!shades@*", "*", "bot:protocol", "*", NOT_SHADES),
    *(NotRun("*", "*", f"cli:{name}", "*", WRITE) for name in CLI_WRITES),
)  # fmt: skip


def not_run(cell: Cell) -> NotRun | None:
    """Returns the NOT_RUN row that lists the cell, or None (the cell is run)."""
    return next((row for row in _rows_of(cell.surface) if row.matches(cell)), None)


_BY_SURFACE: dict[str, tuple[NotRun, ...]] = {}


def _rows_of(surface: str) -> tuple[NotRun, ...]:
    """Returns the rows that may list a surface's cells (kept by surface: the matrix asks
    for thousands of cells)."""
    if surface not in _BY_SURFACE:
        _BY_SURFACE[surface] = tuple(r for r in NOT_RUN if _match(r.surface, surface))
    return _BY_SURFACE[surface]


# -- what a read may rightly answer besides success -----------------------------------------

When = Callable[[Stage, Match], bool]  # of a stage and one of its matches


def always(stage: Stage, match: Match) -> bool:
    return True


def unfinished(stage: Stage, match: Match) -> bool:
    return not match.finished


def not_started(stage: Stage, match: Match) -> bool:
    return not match.started


def sealed_orders(stage: Stage, match: Match) -> bool:
    """Returns whether the match's orders are sealed until their movement closes."""
    return stage.game.ruleset != "b_chess"  # BC: orders are public (forum posts)


@dataclass(frozen=True)
class Refusal:
    """A refusal a read rightly gives: (status, code) for the surface and token kinds,
    at the stages `when` holds for, and why."""

    surface: str
    tokens: tuple[str, ...]
    status: int
    code: str
    reason: str
    when: When = always


SIGN_IN = "the page leads to the sign-in form, which says which token it needs"
REFUSALS: tuple[Refusal, ...] = (
    Refusal("api:getOrders", ("none",), 401, "missing_token",
            "open orders are a seat's own (or the referee's look)",
            sealed_orders),
    Refusal("api:getSeed", ("seat",), 403, "not_referee", "the seed is the referee's"),
    Refusal("api:getProtocolMessage", ("referee", "operator"), 422, "seat_needed",
            "a protocol message is a seat's: the referee names the seat (read too)"),
    Refusal("cli:protocol", ("referee", "operator"), 1, "seat_needed",
            "a protocol message is a seat's: the referee names the seat (read too)"),
    Refusal("api:getLegalOrders", ("referee", "operator"), 422, "seat_needed",
            "legal orders are a seat's: the referee names the seat (read too)"),
    Refusal("cli:legal-orders", ("referee", "operator"), 1, "seat_needed",
            "legal orders are a seat's: the referee names the seat (read too)"),
    Refusal("api:getProtocolMessage", ("seat", "referee", "operator"), 409, "match_not_started",
            "a protocol message is built from the state, which a match has once started",
            not_started),
    Refusal("cli:protocol", ("seat", "referee", "operator"), 1, "match_not_started",
            "a protocol message is built from the state, which a match has once started",
            not_started),
    Refusal("bot:protocol", ("seat", "referee", "operator"), 1, "match_not_started",
            "a protocol message is built from the state, which a match has once started",
            not_started),
    Refusal("api:auditMatch", ("none",), 401, "missing_token",
            "re-adjudication needs the unrevealed seed until the finish", unfinished),
    Refusal("api:auditMatch", ("seat",), 403, "not_referee",
            "re-adjudication needs the unrevealed seed until the finish", unfinished),
    Refusal("api:getArchive", ("none",), 401, "missing_token",
            "an unfinished match's archive holds sealed values: its referee's", unfinished),
    Refusal("api:getArchive", ("seat",), 403, "not_referee",
            "an unfinished match's archive holds sealed values: its referee's", unfinished),
    Refusal("page:pages.root", ("none",), 302, "redirect", "the root leads to the match list"),
    Refusal("page:seat.desk_page", ("none", "referee"), 303, "sign_in", SIGN_IN),
    Refusal("page:referee.desk_page", ("none", "seat"), 303, "sign_in", SIGN_IN),
    Refusal("page:referee.checks_page", ("none", "seat"), 303, "sign_in", SIGN_IN),
    Refusal("page:referee.archive", ("none", "seat"), 303, "sign_in", SIGN_IN),
    # issue 47: a signed-in page's stream is its page's session's (an EventSource follows
    # no sign-in form): 401 on the error page without it
    Refusal("page:streams.seat_stream", ("none", "referee"), 401, "missing_token",
            "a seat's stream needs the session of one of the match's seats"),
    Refusal("page:streams.referee_stream", ("none", "seat"), 401, "missing_token",
            "the referee's stream needs the session of the match's referee"),
    Refusal("cli:seed", ("seat",), 1, "not_referee", "the seed is the referee's"),
    Refusal("cli:pending", ("none",), 1, "missing_token",
            "open orders are a seat's own (or the referee's look)",
            sealed_orders),
    Refusal("cli:audit", ("none",), 1, "missing_token",
            "re-adjudication needs the unrevealed seed until the finish", unfinished),
    Refusal("cli:audit", ("seat",), 1, "not_referee",
            "re-adjudication needs the unrevealed seed until the finish", unfinished),
    Refusal("cli:export", ("none",), 1, "missing_token",
            "an unfinished match's archive holds sealed values: its referee's", unfinished),
)  # fmt: skip


def refusals_of(cell: Cell, stage: Stage, match: Match) -> list[Refusal]:
    """Returns the refusals the cell's reads of `match` may rightly give at its stage."""
    return [
        r
        for r in REFUSALS
        if r.surface == cell.surface and cell.token in r.tokens and r.when(stage, match)
    ]


# -- the reads that are recorded: a referee's look at secret data (SecretViewed) -----------


@dataclass(frozen=True)
class Recorded:
    """Reads recorded as a SecretViewed event for the referee's or operator's token, at
    the stages `when` holds for (never for an imported match, which is read-only)."""

    surfaces: tuple[str, ...]
    what: str
    when: When


def pending_secret(stage: Stage, match: Match) -> bool:
    return sealed_orders(stage, match) and bool(match.pending) and not match.finished


def seat_1_pending_secret(stage: Stage, match: Match) -> bool:
    """Seat 1 (the seat the referee's look names) has a sealed open order: its legal orders
    are over that standing order, so the look is recorded (service/queries/legal.py)."""
    return pending_secret(stage, match) and any(p.seat == 1 for p in match.pending)


def has_resolved(stage: Stage, match: Match) -> bool:
    return not match.finished and any(log.resolved for log in match.movements)


RECORDED: tuple[Recorded, ...] = (
    Recorded(("api:getOrders", "page:referee.desk_page", "cli:pending"), "open orders",
             pending_secret),
    Recorded(("api:getLegalOrders", "cli:legal-orders"), "open orders", seat_1_pending_secret),
    Recorded(("api:getSeed", "cli:seed"), "seed", unfinished),
    Recorded(("api:auditMatch", "cli:audit", "page:referee.checks_page"), "audit", unfinished),
    Recorded(("api:getArchive", "cli:export", "page:referee.archive"),
             "match archive with sealed values", unfinished),
    Recorded(("api:getMovement", "cli:movement"), "seed (phases of movement N)", has_resolved),
    Recorded(("api:getEvents", "cli:events"), "event log with sealed values", unfinished),
)  # fmt: skip


def records(cell: Cell, stage: Stage) -> bool:
    """Returns whether the cell's reads may be recorded looks at one of the stage's
    matches (it then runs on a copy of the stage)."""
    if cell.token not in ("referee", "operator") or stage.imported:
        return False
    return any(
        cell.surface in r.surfaces and r.when(stage, stage.match(match_id))
        for r in RECORDED
        for match_id in stage.matches
    )
