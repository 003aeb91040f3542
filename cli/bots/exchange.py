"""One round of messages with several bots at once: send each its message, collect replies.

A selector watches every bot's pipes, so no bot can hold up another or the
runner: a bot that does not read its stdin keeps its message in the runner's
buffer, a bot that writes without end fills a bounded buffer (and its log
stops growing), a bot that has exited is noticed within `POLL` seconds even
when a child it forked still holds its pipes. Replies are yielded the moment
each arrives, with its instant, so the caller can submit it at once; what is
left at the deadline is late.
"""

from __future__ import annotations

import selectors
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from cli.bots.process import Bot, BotFailure

POLL = 0.05  # seconds between looks at bots that may have exited
LATE = "did not reply in time"


@dataclass(frozen=True)
class Reply:
    """A bot's answer in one round: its message, or why it has none (`failure`)."""

    seat: int
    text: str | None
    received_at: datetime
    failure: str | None = None


@dataclass
class Round:
    """One round: each bot's message out, replies in, until `deadline` (monotonic seconds).

    `waited` adds up the time spent waiting on the bots (in the selector): the
    bots' thinking time as the runner sees it. The caller may kill a bot between
    two replies; the round then stops watching it.
    """

    bots: Mapping[int, Bot]
    messages: Mapping[int, Any]
    deadline: float
    clock: Callable[[], datetime]
    waited: float = 0.0
    _selector: selectors.DefaultSelector = field(default_factory=selectors.DefaultSelector)

    def replies(self) -> Iterator[Reply]:
        """Sends the messages and yields each reply as it arrives, then a failure for every
        bot still silent at the deadline ("did not reply in time"). A bot that exits,
        closes a pipe or sends too much is yielded with the reason (not killed here)."""
        for seat in self.messages:
            self.bots[seat].send(self.messages[seat])
        early = {seat: self.bots[seat].next_message() for seat in self.messages}
        waiting = {seat: self.bots[seat] for seat, text in early.items() if text is None}
        try:
            self._watch()
            for seat, text in early.items():
                if text is not None:  # written before the message went out: it answers it
                    yield Reply(seat, text, self.clock())
            yield from self._collect(waiting)
        finally:
            self._selector.close()

    def _collect(self, waiting: dict[int, Bot]) -> Iterator[Reply]:
        while waiting:
            remaining = self.deadline - time.monotonic()
            if remaining <= 0:
                break
            self._unwatch_dead()
            started = time.monotonic()
            events = self._selector.select(min(remaining, POLL))
            self.waited += time.monotonic() - started
            for key, _ in events:
                seat, kind = key.data
                if kind == "stderr":
                    if not self.bots[seat].drain_stderr():
                        self._unregister(key.fd)
                    continue
                reply = self._event(self.bots[seat], kind) if seat in waiting else None
                if seat not in waiting or reply is not None:
                    self._unwatch(seat, ("stdin", "stdout"))
                if reply is not None:
                    waiting.pop(seat)
                    yield reply
            for seat in [s for s, bot in waiting.items() if bot.exit_status() is not None]:
                status = waiting.pop(seat).exit_status()
                self._unwatch(seat, ("stdin", "stdout"))
                yield self._failed(seat, self.bots[seat].ended(status or 0))
        for seat, bot in waiting.items():
            bot.drain_stderr()
            yield self._failed(seat, LATE)

    def _event(self, bot: Bot, kind: str) -> Reply | None:
        """Handles one ready pipe; returns the bot's reply or failure, if it has one now."""
        if not bot.running or kind == "stderr":
            return None
        try:
            if kind == "stdin":
                bot.flush()
                if not bot.outbox:
                    self._unregister(bot.pipes()[0].fileno())
                return None
            message = bot.read_stdout()
        except BotFailure as failure:
            return self._failed(bot.seat, str(failure))
        return None if message is None else Reply(bot.seat, message, self.clock())

    def _failed(self, seat: int, reason: str) -> Reply:
        return Reply(seat, None, self.clock(), failure=reason)

    def _watch(self) -> None:
        for seat in self.messages:
            stdin, stdout, stderr = self.bots[seat].pipes()
            self._selector.register(stdout.fileno(), selectors.EVENT_READ, (seat, "stdout"))
            self._selector.register(stderr.fileno(), selectors.EVENT_READ, (seat, "stderr"))
            self._selector.register(stdin.fileno(), selectors.EVENT_WRITE, (seat, "stdin"))

    def _unwatch_dead(self) -> None:
        """Stops watching the pipes of bots put out of play (killed, their pipes closed)."""
        for key in list(self._selector.get_map().values()):
            seat, _ = key.data
            if not self.bots[seat].running:
                self._unregister(key.fd)

    def _unwatch(self, seat: int, kinds: tuple[str, ...]) -> None:
        for key in list(self._selector.get_map().values()):
            if key.data[0] == seat and key.data[1] in kinds:
                self._unregister(key.fd)

    def _unregister(self, fd: int) -> None:
        try:
            self._selector.unregister(fd)
        except (KeyError, ValueError):
            return
