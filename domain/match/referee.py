"""The referee's own actions on a running match, beside the games' (`Match.act`): pause
and resume its clock. Forfeit is the Table's (`Table.forfeit_seat`), recorded by `act`.

A pause stops the clock: no deadline passes and no movement closes, not even one every
owing seat has ordered; orders are still taken, sealed as ever. A resume starts it
again with the open deadline moved later by the pause's length, so the intended
instants of everything after it (strikes, extensions, closes) shift with it
(docs/referee.md, Pausing a match).
"""

from __future__ import annotations

from datetime import datetime

from domain.errors import InvalidActionError, MatchPausedError, NotPausedError
from domain.match.play import MatchPlay
from domain.rules.contract import JSON, Step
from domain.table import PAUSE, RESUME


class MatchReferee(MatchPlay):
    """Pausing and resuming a match's clock (the referee's acts, through `act`)."""

    def act(
        self,
        referee_token_hash: str,
        action: str,
        args: dict[str, JSON],
        reason: str,
        by: str,
        at: datetime,
    ) -> tuple[Step, ...]:
        """Takes a referee action (`MatchPlay.act`); `pause` and `resume` stop and start
        the clock, recording Paused or Resumed (no step, no argument)."""
        if action not in (PAUSE, RESUME):
            return super().act(referee_token_hash, action, args, reason, by, at)
        self._check_may_act(referee_token_hash, action, reason)
        if args:
            raise InvalidActionError(f"{action} takes no arguments, got {sorted(args)}")
        if action == PAUSE:
            self._pause(reason, by, at)
        else:
            self._resume(reason, by, at)
        return ()

    def _pause(self, reason: str, by: str, at: datetime) -> None:
        if self.paused is not None:
            raise MatchPausedError(
                f"match {self.id} has been paused since {self.paused['at'].isoformat()}"
            )
        self.check_open(self.movement)
        if self._deadline_passed(at):  # what fell due before the pause happens first
            self._close(self.table(), at)
            self.check_open(self.movement)
        self._record(
            self.Paused, at, movement=self.movement, reason=reason, by=by, deadline=self.deadline
        )

    def _resume(self, reason: str, by: str, at: datetime) -> None:
        if self.paused is None:
            raise NotPausedError(f"match {self.id} is not paused: nothing to resume")
        self.check_open(self.movement)
        paused_for = at - self.paused["at"]
        deadline: datetime | None = self.paused["deadline"]
        table = self.table()
        self._record(
            self.Resumed,
            at,
            movement=self.movement,
            reason=reason,
            by=by,
            paused_seconds=paused_for.total_seconds(),
            ready=table.is_ready(),
        )
        if deadline is None:
            return
        waiting = table.to_move().policy.rearm_when_empty and not table.pending
        self._record(
            self.DeadlineSet,
            at,
            movement=self.movement,
            deadline=deadline + paused_for,
            reason="periodic" if waiting else "resumed",
            intended_at=at,
        )
