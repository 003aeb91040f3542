"""When a worker process runs what: the policy behind workers/tasks.py, with its state.

DESIGN.md ("Inside service/"): the policy that decides when work runs is a service
object holding its state; workers/ only adapts Celery to it (issue 44). One
`WorkPolicy` per worker process and Celery app, made after the fork, holds:

- the movements this process took into a batch lately (`take`): the first countdown
  task to run takes every held countdown task whose deadline has passed too; it resolves
  the first HELD_BATCH of them itself, offers the rest to every worker draining at that
  moment (service/usecases/dueoffers.py), and then takes offers, its own first, HELD_BATCH
  at a time, then another worker's, BATCH_SIZE at a time, until none is left
  (`countdown`), its follower of the log waiting meanwhile (`ReadModels.deferring`);
  the held tasks, when their turn comes, find their movement taken and do nothing. Why
  drain them all at once: a worker runs the held tasks that fell due at most ten at a
  time, with up to a second's wait between (kombu's Hub.fire_timers), so a task left
  for its own turn may wait many seconds in a burst. Why offer them: the broker gives a
  countdown task to whichever worker asks first, and one worker held 802 of 1,000
  falling due together while the other, its 198 resolved, sat idle (issue 46,
  bench/deadlines.md);
- the movements its sweep queued lately (`claim`): queued again only after
  REQUEUE_AFTER_SECONDS, in batches of up to BATCH_SIZE (`sweep`);
- when its sweep last looked for the rematches a crash left missing (DW-5): when it
  found nothing due and the last look is REMATCH_REPAIR_SECONDS old, or when the last
  look is REMATCH_REPAIR_LATEST old, whatever it found (`repair_rematches`): the look
  catches the match list up with every event, costly in a burst, and such a crash is rare;
- the tournaments' backstop: each sweep takes every step due of every unfinished
  tournament (`Tournaments.advance_all`), for a finished match whose
  `advance_tournament` task was lost; a tournament's failure is logged and never fails
  the sweep of movements (`advance_tournaments`, issue 45);
- and, keeping nothing for it, the warming: a sweep that found nothing due loads the matches of the
  countdown tasks held that fall due within WARM_AHEAD_SECONDS, for at most
  WARM_BUDGET_SECONDS (a solo worker runs nothing else meanwhile), so that a burst of
  deadlines costs each resolution a fast-forward, not a load (issue 31; `warm_held`).

Which countdown tasks the process holds is Celery's to say: the worker passes a
function listing them (`held`), and the monotonic clock the pacing reads.
"""

from __future__ import annotations

import contextlib
import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from uuid import UUID

from service.health import record_sweep
from service.matches import Matches
from service.results import Closing, DueMovement
from service.tournaments import Tournaments

logger = logging.getLogger(__name__)

REQUEUE_AFTER_SECONDS = 10.0  # the sweep queues a due movement again only after this
REMATCH_REPAIR_SECONDS = 30.0  # an idle sweep's looks for missing rematches, at most this often
REMATCH_REPAIR_LATEST = 300.0  # and any sweep's, at least this often
WARM_AHEAD_SECONDS = 30.0
WARM_BUDGET_SECONDS = 0.25
BATCH_SIZE = 50  # movements in one batch the sweep sends (batches spread over the workers)
HELD_BATCH = 200  # held countdown tasks due together resolved in one batch
MAX_BATCHED = 20_000  # movements a process remembers having taken into a batch

Key = tuple[str, int]  # (match id as text, movement)
# one batch the sweep sends: [match id, movement, deadline (ISO) or None] each
Batch = list[list[object]]


@dataclass(frozen=True)
class Due:
    """A movement a worker was asked to resolve, with its deadline when known."""

    match_id: UUID
    movement: int
    deadline: datetime | None


@dataclass(frozen=True)
class Drained:
    """What a countdown task resolved: its own movement (`closing`, None: nothing due); the
    `held` countdown tasks due too that it took, and how many of them it `offered` to every
    draining worker; how many movements besides its own it `resolved`, the offers it took
    (its own or another worker's) included."""

    closing: Closing | None
    held: int
    offered: int
    resolved: int


class WorkPolicy:
    """One worker process's pacing of its work, and the state it keeps (module docstring).

    `held()` yields (task id, Due) of each countdown task the process holds; `monotonic`
    is the clock of its pacing (time.monotonic unless a test gives another); `name` signs
    its offers (host/pid unless given: made after the fork, one a process)."""

    def __init__(
        self,
        held: Callable[[], Iterable[tuple[str, Due]]],
        monotonic: Callable[[], float] = time.monotonic,
        name: str | None = None,
    ) -> None:
        self.held, self.monotonic = held, monotonic
        self.name = name or f"{socket.gethostname()}/{os.getpid()}"  # its offers' signature
        self._lock = threading.Lock()
        self._queued: dict[Key, float] = {}
        self._batched: dict[Key, float] = {}
        self._last_rematch_repair: float | None = None

    # -- the tasks ------------------------------------------------------------------------

    def countdown(self, matches: Matches, mine: Due, task_id: str) -> str:
        """Resolves the countdown task's movement if it is due, with the other held
        countdown tasks due too; says what happened to it ("nothing due" also when the
        resolution failed: the failure is counted and logged)."""
        if not self.take([(str(mine.match_id), mine.movement)]):
            return "nothing due: taken into an earlier batch"
        drained = self.resolve_with_held(matches, mine, task_id)
        account = describe(drained.closing)
        if drained.held or drained.resolved:  # where the held tasks' resolutions show: here
            account += (
                f"; with it {drained.held} held due movement(s) taken, {drained.offered} of"
                f" them offered; {drained.resolved} other movement(s) resolved here"
            )
        return account

    def sweep(self, matches: Matches, send: Callable[[Batch], None]) -> int:
        """Sends (`send`) a batch for the due movements not queued lately, creates the
        rematches a crash left missing when it is time, warms the held matches when
        nothing was due, advances the tournaments (the backstop), and records the
        sweep's success or failure in the database (read by /health and `drts run`);
        returns how many movements it queued."""
        try:
            due = matches.due_movements()
            queued = self.queue_due(due, send)
            self.repair_rematches(matches, idle=not due)
            if not due:
                self.warm_held(matches, datetime.now(UTC))
        except Exception as error:
            with contextlib.suppress(Exception):  # a database that is down cannot count it
                record_sweep(matches.read_models, matches.clock(), error)
            raise
        record_sweep(matches.read_models, matches.clock())
        self.advance_tournaments(matches)
        return queued

    def advance_tournaments(self, matches: Matches) -> None:
        """Takes every step due of every unfinished tournament (module docstring); a
        failure is logged, so it never fails the sweep of movements."""
        try:
            Tournaments(matches).advance_all()
        except Exception:
            logger.error("advancing the tournaments failed", exc_info=True)

    # -- the policy -----------------------------------------------------------------------

    def countdown_batch(self, matches: Matches, mine: Sequence[Due], task_id: str) -> str:
        """The countdown task of several movements due at one instant (service/scheduling.py,
        `deadlines_set`): resolves those no batch took yet with the other held countdown
        tasks due too, as `countdown` does for one; says what happened to them."""
        taken = self.take([(str(due.match_id), due.movement) for due in mine])
        own = [due for due in mine if (str(due.match_id), due.movement) in taken]
        if not own:
            return f"nothing due: all {len(mine)} taken into an earlier batch"
        drained = self.resolve_with_held(matches, own[0], task_id, also=own[1:])
        resolved = drained.resolved + (drained.closing is not None)
        return (
            f"took {len(own)} of its {len(mine)} movement(s) (the others into an earlier "
            f"batch), with them {drained.held} held due movement(s), {drained.offered} of them"
            f" offered; {resolved} movement(s) resolved here"
        )

    def resolve_with_held(
        self, matches: Matches, mine: Due, current: str, also: Sequence[Due] = ()
    ) -> Drained:
        """Resolves the current task's movement (and `also` those of the same task) with
        the first HELD_BATCH - 1 held countdown tasks due too, having offered the rest of
        those to every draining worker; then takes offers (the held ones falling due
        meanwhile offered too) and resolves them, HELD_BATCH at a time, until none is left."""
        now = datetime.now(UTC)
        room = max(0, HELD_BATCH - 1 - len(also))
        first = [mine, *also, *self.held_due(current, now, room)]
        offered = self.offer_held(matches, current, now)
        # the next movements' tasks once every batch is saved; the follower of the log waits
        with matches.countdowns_held(), matches.read_models.deferring():
            closings = matches.resolve_batch(first)
            while True:
                offered += self.offer_held(matches, current, datetime.now(UTC))
                batch = self.take_offered(matches)
                if not batch:
                    break
                closings += matches.resolve_batch(batch)
        others = closings[1:]
        held = len(first) - 1 - len(also) + offered
        return Drained(closings[0], held, offered, sum(c is not None for c in others))

    def offer_held(self, matches: Matches, current: str, now: datetime) -> int:
        """Takes every held countdown task due at `now` that no batch took yet, but the
        current one, and offers their movements to every draining worker; returns how many."""
        dues = self.held_due(current, now, limit=None)
        matches.offer_due(dues, self.name)
        return len(dues)

    def take_offered(self, matches: Matches) -> list[DueMovement]:
        """Takes the next offers to resolve: this process's own, HELD_BATCH at a time (their
        matches are warm here), then any worker's, BATCH_SIZE at a time (cold here)."""
        return matches.take_offered(HELD_BATCH, self.name) or matches.take_offered(BATCH_SIZE)

    def held_due(self, current: str, now: datetime, limit: int | None) -> list[Due]:
        """Takes the held countdown tasks whose deadline has passed at `now` and that no
        batch took yet, but the current one, up to `limit` (None: all); returns their movements."""
        found = [
            due
            for task_id, due in self.held()
            if task_id != current and (due.deadline is None or due.deadline <= now)
        ]
        taken = self.take([(str(d.match_id), d.movement) for d in found], limit)
        return [d for d in found if (str(d.match_id), d.movement) in taken]

    def warm_held(self, matches: Matches, now: datetime) -> int:
        """Loads the matches of the held countdown tasks that fall due within
        WARM_AHEAD_SECONDS of `now`, soonest first, as many as the kept matches hold, for
        at most WARM_BUDGET_SECONDS (`Matches.warm`); returns how many it loaded."""
        horizon = now + timedelta(seconds=WARM_AHEAD_SECONDS)
        soon = sorted(
            (due.deadline, due.match_id)
            for _, due in self.held()
            if due.deadline is not None and now < due.deadline <= horizon
        )
        match_ids = [match_id for _, match_id in soon[: matches.kept.size]]
        budget = timedelta(seconds=WARM_BUDGET_SECONDS)
        return matches.warm(match_ids, until=matches.clock() + budget) if match_ids else 0

    def repair_rematches(self, matches: Matches, idle: bool) -> None:
        """Creates the rematches a crash left missing, when the last look is
        REMATCH_REPAIR_SECONDS old and the sweep is `idle`, or REMATCH_REPAIR_LATEST old
        (the process's first sweep always looks)."""
        now = self.monotonic()
        last = self._last_rematch_repair
        waited = REMATCH_REPAIR_LATEST if last is None else now - last
        if waited >= REMATCH_REPAIR_LATEST or (idle and waited >= REMATCH_REPAIR_SECONDS):
            self._last_rematch_repair = now
            matches.create_missing_rematches()

    def queue_due(self, found: list[DueMovement], send: Callable[[Batch], None]) -> int:
        """Sends the due movements not queued lately in batches of BATCH_SIZE; returns
        how many."""
        due = [d for d in found if self.claim((str(d.match_id), d.movement))]
        for first in range(0, len(due), BATCH_SIZE):
            send(
                [
                    [str(d.match_id), d.movement, d.deadline and d.deadline.isoformat()]
                    for d in due[first : first + BATCH_SIZE]
                ]
            )
        return len(due)

    def take(self, keys: list[Key], limit: int | None = None) -> set[Key]:
        """Marks the movements as resolved by this process (in a batch) and returns those
        no batch had taken in the last while, the first `limit` of them if given: the
        others' tasks then do nothing."""
        now = self.monotonic()
        with self._lock:
            batched = self._batched
            if len(batched) + len(keys) > MAX_BATCHED:
                for stale in [k for k, at in batched.items() if now - at > REQUEUE_AFTER_SECONDS]:
                    del batched[stale]
                if len(batched) + len(keys) > MAX_BATCHED:  # a forgotten one costs one load
                    batched.clear()
            fresh = [key for key in dict.fromkeys(keys) if key not in batched][:limit]
            batched.update(dict.fromkeys(fresh, now))
            return set(fresh)

    def claim(self, key: Key) -> bool:
        """Returns whether the sweep should queue `key` now (not queued in the last while)."""
        now = self.monotonic()
        with self._lock:
            for stale in [k for k, at in self._queued.items() if now - at > REQUEUE_AFTER_SECONDS]:
                del self._queued[stale]
            if key in self._queued:
                return False
            self._queued[key] = now
            return True

    @property
    def batched(self) -> int:
        """How many movements this process remembers having taken into a batch."""
        with self._lock:
            return len(self._batched)


def describe(closing: Closing | None) -> str:
    """Returns a one-line account of a closing, for the worker's log."""
    if closing is None:
        return "nothing due"
    done = [f"struck seat(s) {list(closing.strikes)}"] if closing.strikes else []
    done += [f"eliminated seat(s) {list(closing.eliminated)}"] if closing.eliminated else []
    done.append(
        f"resolved movement {closing.movement}"
        if closing.resolved
        else f"extended movement {closing.movement}"
    )
    return ", ".join(done) + (", match finished" if closing.finished else "")
