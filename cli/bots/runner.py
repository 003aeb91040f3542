"""Plays one Shades match of bot programs through the service, as the contest ran its bots.

The runner is a client of the Matches application: it creates the match,
seats one bot a program and starts it (holding the referee's and the seats'
tokens), then plays turn by turn. Each turn it builds every living seat's
state message from the stored match (`service.channels.protocol`), sends them over
the bots' pipes at once (`exchange.Round`), and submits each reply the
moment it arrives as that seat's order (source `bot`, received at the
instant it was read), so every order is a stored event with its receipt.
The last reply closes the turn early (SH-10). A bot that crashes, exits,
sends what is not the protocol's JSON or is late is killed at once with
every process it started (cli/bots/process.py) and sends nothing more; its
silent seat is eliminated at the turn's deadline (SH-4), the runner then
resolving the turn itself through the service (`Matches.resolve`, at the
deadline's instant, so no worker is needed and the result does not depend
on when one ran).

Before turn 0 each bot gets the init message and the turn's time to answer
it; the referee then gives turn 0 its full time again (a DeadlineSet of the
referee's, on record).
"""

from __future__ import annotations

import json
import shlex
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Protocol, TypeVar

from cli.bots.exchange import Reply, Round
from cli.bots.process import Bot, BotFailure, Limits
from domain.errors import DrtsError
from domain.rules.contract import JSON
from service.channels.protocol import Message, open_turn, protocol_messages
from service.matches import Matches

T = TypeVar("T")
SHOWN_CHARS = 80  # of a bad reply, in the reason a bot was put out


class TurnNotClosedError(DrtsError):
    """Raised when a turn stays open past its deadline after the runner resolved it."""

    code = "turn_not_closed"


@dataclass(frozen=True)
class Program:
    """A bot program: its command line as given, split into arguments."""

    command: str

    @property
    def argv(self) -> list[str]:
        """Returns the command line split as a shell would (no shell runs it)."""
        return shlex.split(self.command)

    @property
    def name(self) -> str:
        """Returns the seat's player name: the command with each path cut to its last part."""
        return " ".join(Path(arg).name or arg for arg in self.argv)[:64] or "bot"


@dataclass(frozen=True)
class MatchPlan:
    """What to play: programs in seat order, the map, seed, turn time, preset, more config."""

    programs: tuple[Program, ...]
    map: str = "small"
    seed: str | None = None
    turn_seconds: int = 5
    preset: str | None = None
    config: Mapping[str, JSON] = field(default_factory=dict)
    limits: Limits = field(default_factory=Limits)
    log_dir: Path = Path("bot-logs")
    keep_messages: bool = False  # keep every message sent (for tests: what the bots saw)


@dataclass
class Timings:
    """Where a match's time went, in seconds: in all, waiting on the bots (their thinking),
    and inside the service's commands and queries."""

    turns: int = 0
    total: float = 0.0
    waiting: float = 0.0
    service: float = 0.0

    @property
    def runner(self) -> float:
        """Returns the time that was not the bots': the runner's and the service's."""
        return self.total - self.waiting


@dataclass
class SeatResult:
    """A seat's program, log file, and why its bot was put out (None: it played on)."""

    seat: int
    program: Program
    log: Path
    out: str | None = None
    out_turn: int | None = None


@dataclass
class MatchResult:
    """A finished match as the runner played it."""

    match_id: str
    referee_token: str
    seats: list[SeatResult]
    outcome: JSON
    turns: int  # the turns played
    timings: Timings
    messages: list[dict[int, JSON]] = field(default_factory=list)  # each turn's, by seat

    def score(self, seat: int) -> float:
        """Returns the seat's final score (rounded, as the outcome gives it)."""
        scores: Any = self.outcome["scores"] if isinstance(self.outcome, dict) else {}
        return float(scores.get(str(seat), 0))


class Watcher(Protocol):
    """What the runner tells a display as the match goes."""

    def turn(self, turn: int, alive: Sequence[int], scores: Mapping[str, Any]) -> None:
        """A turn begins: its number, the seats alive, the scores so far."""

    def out(self, seat: int, reason: str) -> None:
        """A seat's bot was put out of play."""


class QuietWatcher:
    """A watcher that shows nothing."""

    def turn(self, turn: int, alive: Sequence[int], scores: Mapping[str, Any]) -> None:
        """Shows nothing."""

    def out(self, seat: int, reason: str) -> None:
        """Shows nothing."""


def play_match(matches: Matches, plan: MatchPlan, watcher: Watcher | None = None) -> MatchResult:
    """Plays a whole match of `plan`'s programs; returns its result. Every bot process is
    killed and reaped when it returns, or raises."""
    return BotMatch(matches, plan, watcher or QuietWatcher()).play()


class BotMatch:
    """One match being played by bot processes (see the module's docstring)."""

    def __init__(self, matches: Matches, plan: MatchPlan, watcher: Watcher) -> None:
        self.matches, self.plan, self.watcher = matches, plan, watcher
        self.timings = Timings()
        self.bots: dict[int, Bot] = {}
        self.seats: dict[int, SeatResult] = {}
        self.tokens: dict[int, str] = {}
        self.messages: list[dict[int, JSON]] = []
        self.match_id = self.referee = ""
        self.turn = 0

    def play(self) -> MatchResult:
        """Creates, seats and starts the match, then plays it to its end."""
        began = time.monotonic()
        self._create()
        try:
            self._start_bots()
            self._call(self.matches.start, self.match_id, self.referee)
            self._init()
            while self._play_turn():
                self.timings.turns += 1
        finally:
            for bot in self.bots.values():
                bot.kill("the match is over")
        self.timings.total = time.monotonic() - began
        summary = self._call(self.matches.summary, self.match_id)
        return MatchResult(
            self.match_id,
            self.referee,
            list(self.seats.values()),
            summary.outcome,
            self.timings.turns,
            self.timings,
            self.messages,
        )

    # -- setting up -----------------------------------------------------------------------

    def _create(self) -> None:
        config = {"map": self.plan.map, "turn_seconds": self.plan.turn_seconds}
        new = self._call(
            self.matches.create_match,
            "shades",
            {**config, **self.plan.config},
            seed=self.plan.seed,
            preset=self.plan.preset,
        )
        self.match_id, self.referee = str(new.match_id), new.referee_token or ""
        names = player_names(self.plan.programs)
        for program, name in zip(self.plan.programs, names, strict=True):
            seat = self._call(self.matches.join, self.match_id, name)
            self.tokens[seat.seat] = seat.token
            log = self.plan.log_dir / f"{self.match_id}-seat{seat.seat}.log"
            self.seats[seat.seat] = SeatResult(seat.seat, program, log)

    def _start_bots(self) -> None:
        for seat, result in self.seats.items():
            bot = self.bots[seat] = Bot(seat, result.program.argv, result.log, self.plan.limits)
            try:
                bot.start()
            except BotFailure as failure:
                self._out(seat, str(failure))

    def _init(self) -> None:
        """Sends the init message and takes the empty replies (their content is ignored);
        then gives turn 0 its full time again, if answering the init took some of it."""
        living = [seat for seat, bot in self.bots.items() if bot.running]
        messages = self._call(
            protocol_messages, self.matches, self.match_id, self.referee, living, Message.INIT
        )
        self._exchange(messages, time.monotonic() + self.plan.turn_seconds, lambda reply: None)
        summary = self._call(self.matches.summary, self.match_id)
        until = self.matches.clock() + timedelta(seconds=self.plan.turn_seconds)
        if summary.deadline is None or until > datetime.fromisoformat(summary.deadline):
            self._call(self.matches.extend_deadline, self.match_id, self.referee, until=until)

    # -- a turn ---------------------------------------------------------------------------

    def _play_turn(self) -> bool:
        """Plays the open turn; returns False once the match is over."""
        turn = self._call(open_turn, self.matches, self.match_id, self.referee)
        summary = turn.summary
        if summary.status != "started":
            return False
        movement, self.turn = summary.movement, summary.movement - 1
        assert summary.deadline is not None
        deadline = datetime.fromisoformat(summary.deadline)
        for seat, bot in self.bots.items():
            if bot.running and seat not in summary.to_move:
                self._out(seat, "eliminated by the game")  # SH-7: no shade left to command
        messages = {s: m for s, m in turn.messages.items() if self.bots[s].running}
        if self.plan.keep_messages:
            self.messages.append(messages)
        outcome: Any = summary.outcome
        self.watcher.turn(self.turn, summary.to_move, outcome.get("scores", {}))
        closed: list[bool] = []
        remaining = (deadline - self.matches.clock()).total_seconds()
        self._exchange(
            messages, time.monotonic() + remaining, lambda reply: closed.append(self._take(reply))
        )
        if not any(closed):  # a seat is silent: its deadline eliminates it (SH-4)
            time.sleep(max((deadline - self.matches.clock()).total_seconds(), 0))
            self._resolve(movement)
        return True

    def _resolve(self, movement: int) -> None:
        """Resolves the movement at its deadline; raises TurnNotClosedError if it stays open
        (a quarantined match: its referee retries it, `drts match retry`)."""
        if self._call(self.matches.resolve, self.match_id, movement) is not None:
            return
        summary = self._call(self.matches.summary, self.match_id)
        if summary.status == "started" and summary.movement == movement:
            raise TurnNotClosedError(
                f"turn {movement - 1} of match {self.match_id} did not close at its deadline"
                + (" (the match is quarantined)" if summary.quarantined else "")
            )

    def _exchange(
        self, messages: dict[int, JSON], deadline: float, take: Callable[[Reply], None]
    ) -> None:
        """Sends the messages, hands each reply to `take`, puts out each bot that fails."""
        bots = {seat: self.bots[seat] for seat in messages}
        round_ = Round(bots, messages, deadline, self.matches.clock)
        for reply in round_.replies():
            if reply.failure is not None:
                self._out(reply.seat, reply.failure)
            else:
                take(reply)
        self.timings.waiting += round_.waited

    def _take(self, reply: Reply) -> bool:
        """Submits a reply as the seat's order; returns whether it closed the turn. A reply
        that is not the protocol's JSON puts the bot out (SH-4), refused by the service
        and recorded as a rejected order when it reaches it."""
        assert reply.text is not None
        try:
            order = json.loads(reply.text)
        except (ValueError, RecursionError):
            self._out(reply.seat, f"sent a reply that is not JSON: {shown(reply.text)}")
            return False
        if not isinstance(order, dict):
            self._out(reply.seat, f"sent a reply that is not a JSON object: {shown(reply.text)}")
            return False
        try:
            receipt = self._call(
                self.matches.submit_order,
                self.match_id,
                self.tokens[reply.seat],
                order,
                source="bot",
                movement=self.turn + 1,
                received_at=reply.received_at,
            )
        except DrtsError as error:
            self._out(reply.seat, f"sent a reply the service refused: {error.code}: {error}")
            return False
        return receipt.closing is not None

    def _out(self, seat: int, reason: str) -> None:
        """Puts a seat's bot out of play: killed with all it started, the reason kept."""
        self.bots[seat].kill(reason)
        result = self.seats[seat]
        if result.out is None:
            result.out, result.out_turn = reason, self.turn
            self.watcher.out(seat, reason)

    def _call(self, command: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Calls the service, adding the time it took to the service's share."""
        began = time.monotonic()
        try:
            return command(*args, **kwargs)
        finally:
            self.timings.service += time.monotonic() - began


def player_names(programs: Sequence[Program]) -> list[str]:
    """Returns each program's player name, a program seated twice or more numbered by seat
    from its second seat on (names are unique in a match)."""
    names: list[str] = []
    for seat, program in enumerate(programs, 1):
        name = program.name
        names.append(f"{name[:56]} #{seat}" if name in names else name)
    return names


def shown(text: str) -> str:
    """Returns a bad reply cut short for a message."""
    return repr(text if len(text) <= SHOWN_CHARS else text[:SHOWN_CHARS] + "...")
