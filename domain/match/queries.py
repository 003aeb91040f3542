"""The Match's queries (what it is, who holds a token, where a movement's events are) and
its guards (`check_...`: raise unless a command may go on). They record nothing."""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import Any

from domain.errors import (
    InvalidTokenError,
    MatchAlreadyStartedError,
    MatchQuarantinedError,
    MovementClosedError,
    NotASeatError,
    NotRefereeError,
    RulesetVersionNotInstalledError,
    UnknownRulesetError,
)
from domain.match import parsed
from domain.match.base import MatchBase
from domain.match.values import MovementLog
from domain.rules.contract import Ruleset, asks_rematch
from domain.rules.registry import get_ruleset, ruleset_versions
from domain.table import Table


class MatchQueries(MatchBase):
    """Queries and guards of a match."""

    def rules(self) -> Ruleset[Any, Any]:
        """Returns the ruleset version the match was created under (it plays, replays and
        audits under it); raises RulesetVersionNotInstalledError if it is not installed."""
        try:
            return get_ruleset(self.ruleset, self.ruleset_version)
        except UnknownRulesetError:
            installed = ", ".join(f"v{v}" for v in ruleset_versions(self.ruleset)) or "none"
            raise RulesetVersionNotInstalledError(
                f"match {self.id} was created under {self.ruleset} v{self.ruleset_version}, "
                f"which is not installed here (installed: {installed})"
            ) from None

    def table(self) -> Table:
        """Returns the pure referee at the current state, open movement, pending orders and
        strikes (a command builds it once and passes it on). The state is decoded and each
        pending order parsed once while they stay the match's (domain/match/parsed.py)."""
        ruleset = self.rules()
        pending = [
            (p.seat, parsed.ORDERS.get(p, ruleset, partial(ruleset.parse_order, p.order)))
            for p in self.pending
        ]
        strikes = {int(seat): n for seat, n in self.strikes.items()}
        state = parsed.STATES.get(self.state, ruleset, partial(ruleset.load_state, self.state))
        out = set(self.eliminated)
        return Table(ruleset, self.seed, state, self.movement, pending, strikes, out)

    def movement_log(self, number: int) -> MovementLog | None:
        """Returns the versions of movement `number`'s events, or None if the match has not
        reached it."""
        first = self.movements[0].number if self.movements else 1
        return self.movements[number - first] if 0 <= number - first < len(self.movements) else None

    def is_due(self, now: datetime) -> bool:
        """Returns whether closing the open movement at `now` would do something because its
        deadline has passed (a movement that re-arms is due only with an order pending)."""
        if not self._deadline_passed(now):
            return False
        return bool(self.pending) or not self.table().to_move().policy.rearm_when_empty

    def is_ready(self) -> bool:
        """Returns whether the open movement may close early now (every owing seat ordered)."""
        return self.is_open() and self.paused is None and self.table().is_ready()

    def is_open(self) -> bool:
        """Returns whether a movement is open (started, not finished, not void)."""
        return self.started and not self.finished and self.voided is None

    def wants_rematch(self) -> bool:
        """Returns whether the match finished with an outcome that asks for a rematch."""
        return self.finished and asks_rematch(self.outcome)

    def seat_of(self, token_hash: str) -> int:
        """Returns the seat holding the token; raises InvalidTokenError (NotASeatError)."""
        for holder in self.seats:
            if holder.token_hash == token_hash:
                return holder.number
        if self.is_referee(token_hash):
            raise NotASeatError(f"the referee token of match {self.id} holds no seat")
        raise InvalidTokenError(f"no seat of match {self.id} holds this token")

    def has_seat_token(self, token_hash: str) -> bool:
        """Returns whether some seat holds the token."""
        return any(holder.token_hash == token_hash for holder in self.seats)

    def is_referee(self, token_hash: str) -> bool:
        """Returns whether the token is the match's referee token."""
        return token_hash == self.referee_token_hash

    def check_referee(self, token_hash: str) -> None:
        """Raises InvalidTokenError (NotRefereeError for a seat's) unless it is the referee's."""
        if self.is_referee(token_hash):
            return
        if self.has_seat_token(token_hash):
            raise NotRefereeError(f"a seat token of match {self.id} cannot act as its referee")
        raise InvalidTokenError(f"this token is not the referee token of match {self.id}")

    def check_not_started(self) -> None:
        """Raises MatchAlreadyStartedError once the match has started."""
        if self.started:
            raise MatchAlreadyStartedError(
                f"match {self.id} has already started (movement {self.movement})"
            )

    def check_open(self, movement: int) -> None:
        """Raises MovementClosedError unless `movement` is the open movement."""
        if self.voided is not None:
            raise MovementClosedError(
                f"match {self.id} is void: the draw it was the rematch of is no longer one"
            )
        if self.finished:
            raise MovementClosedError(f"match {self.id} is finished; movement {movement} is closed")
        if movement != self.movement:
            raise MovementClosedError(
                f"movement {movement} of match {self.id} is not open (movement {self.movement} is)"
            )

    def check_not_quarantined(self) -> None:
        """Raises MatchQuarantinedError while the match is quarantined."""
        if self.quarantined is not None:
            raise MatchQuarantinedError(
                f"match {self.id} is quarantined: resolving movement "
                f"{self.quarantined['movement']} failed ({self.quarantined['error']}); "
                "send the order again once the referee has retried it"
            )

    def _deadline_passed(self, at: datetime) -> bool:
        """Returns whether the open movement's deadline is set and has passed at `at` (never
        while the referee has paused the clock)."""
        if self.paused is not None:
            return False
        return self.is_open() and self.deadline is not None and at >= self.deadline
