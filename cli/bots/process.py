"""One bot program as a child process, held to resource limits, spoken to over its pipes.

A bot runs in a session (and process group) of its own, with limits on CPU
time, memory and open files set before it starts (`Limits`). Its pipes are
non-blocking: the runner never waits on one bot (`exchange.py` multiplexes
them), what it sends waits in a buffer until the bot reads it, what the bot
writes on stdout is read into a bounded buffer and cut into messages (lines
ended by a line holding a single `.`, shades_protocol.md), and its stderr is
copied into a log file up to a bound, the rest counted and dropped. `kill`
kills the whole process group (children the bot forked too) and reaps the bot.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import resource
import signal
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

END = b"."  # the line that ends a message, in both directions
CHUNK = 65536
EXIT_WAIT = 0.2  # seconds to wait for the exit of a bot whose stdout has ended


@dataclass(frozen=True)
class Limits:
    """What a bot may use: each limit applies to the bot's process (and, as rlimits do, is
    inherited by each child it forks), and to what the runner keeps of its output."""

    cpu_seconds: int = 600  # CPU time over the whole match (RLIMIT_CPU): SIGXCPU, then SIGKILL
    memory_bytes: int = 1 << 30  # address space (RLIMIT_AS)
    open_files: int = 64  # file descriptors (RLIMIT_NOFILE)
    reply_bytes: int = 1 << 20  # one reply; a longer one is refused (SH-4)
    log_bytes: int = 1 << 20  # stderr kept in the seat's log; the rest is dropped

    def apply(self) -> None:
        """Sets the limits on the calling process (run in the child before exec)."""
        resource.setrlimit(resource.RLIMIT_CPU, (self.cpu_seconds, self.cpu_seconds + 1))
        resource.setrlimit(resource.RLIMIT_AS, (self.memory_bytes, self.memory_bytes))
        resource.setrlimit(resource.RLIMIT_NOFILE, (self.open_files, self.open_files))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


class BotFailure(Exception):
    """Raised when a bot breaks the protocol: it exited, closed a pipe or sent too much."""


class Bot:
    """A bot program running as a child process for one seat."""

    def __init__(self, seat: int, argv: Sequence[str], log_path: Path, limits: Limits) -> None:
        self.seat, self.argv, self.limits = seat, list(argv), limits
        self.log_path = log_path
        self.outbox = bytearray()  # sent, not yet read by the bot
        self.inbox = bytearray()  # read from the bot's stdout, not yet a whole message
        self.logged = self.dropped = 0
        self.failure: str | None = None  # why the bot is out, once it is
        self._log: IO[bytes] | None = None
        self._process: subprocess.Popen[bytes] | None = None

    # -- lifetime -------------------------------------------------------------------------

    def start(self) -> None:
        """Starts the program in a session of its own, under the limits; raises BotFailure
        when it cannot be started (no such program, not executable)."""
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = self.log_path.open("wb")
        try:
            self._process = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                preexec_fn=self.limits.apply,
                close_fds=True,
            )
        except OSError as error:
            self.failure = f"could not start {self.argv[0]!r}: {error.strerror or error}"
            raise BotFailure(self.failure) from None
        for pipe in self.pipes():
            fcntl.fcntl(pipe, fcntl.F_SETFL, fcntl.fcntl(pipe, fcntl.F_GETFL) | os.O_NONBLOCK)

    @property
    def running(self) -> bool:
        """Returns whether the bot is still in play (started, not failed, not killed)."""
        return self._process is not None and self.failure is None

    @property
    def pid(self) -> int | None:
        """Returns the bot's process id (its process group's too), once started."""
        return None if self._process is None else self._process.pid

    def exit_status(self, wait: float = 0) -> int | None:
        """Returns the bot's exit status if its process has ended (within `wait` seconds),
        else None."""
        if self._process is None:
            return None
        try:
            return self._process.wait(wait) if wait else self._process.poll()
        except subprocess.TimeoutExpired:
            return None

    def kill(self, reason: str | None = None) -> None:
        """Puts the bot out of play: notes why (the first reason stands), kills its process
        group, reaps it, closes its pipes and its log. Safe to call twice."""
        if self.failure is None:
            self.failure = reason or "stopped"
        process = self._process
        if process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            self.drain_stderr()
            process.wait()
            for pipe in (process.stdin, process.stdout, process.stderr):
                if pipe is not None:
                    with contextlib.suppress(OSError):
                        pipe.close()
        if self._log is not None:
            self._log.write(f"\n[drts: bot out: {self.failure}]\n".encode())
            self._log.close()
            self._log = None

    # -- pipes ----------------------------------------------------------------------------

    def pipes(self) -> tuple[IO[bytes], IO[bytes], IO[bytes]]:
        """Returns the bot's stdin, stdout and stderr pipes (once started)."""
        process = self._process
        assert process is not None and process.stdin and process.stdout and process.stderr
        return process.stdin, process.stdout, process.stderr

    def send(self, message: Any) -> None:
        """Queues a message: JSON on one line (none for None: an empty message), then `.`."""
        body = b"" if message is None else json.dumps(message, separators=(",", ":")).encode()
        self.outbox += body + b"\n" + END + b"\n" if body else END + b"\n"

    def flush(self) -> None:
        """Writes what the bot's stdin takes now; raises BotFailure if the bot closed it."""
        stdin = self.pipes()[0]
        try:
            written = os.write(stdin.fileno(), self.outbox[:CHUNK])
        except BlockingIOError:
            return
        except (BrokenPipeError, ConnectionResetError):
            raise BotFailure("closed its stdin") from None
        del self.outbox[:written]

    def read_stdout(self) -> str | None:
        """Reads what the bot wrote on stdout; returns its next whole message (the text
        before the line holding `.`), or None while it has not finished one. Raises
        BotFailure at the end of its output or for a message over `reply_bytes`."""
        try:
            data = os.read(self.pipes()[1].fileno(), CHUNK)
        except BlockingIOError:
            data = None
        if data == b"":
            status = self.exit_status(wait=EXIT_WAIT)
            raise BotFailure("closed its stdout" if status is None else exited(status))
        self.inbox += data or b""
        message = self.next_message()
        if message is None and len(self.inbox) > self.limits.reply_bytes:
            raise BotFailure(f"sent a reply of more than {self.limits.reply_bytes} bytes")
        return message

    def next_message(self) -> str | None:
        """Takes the next whole message out of the inbox, or returns None."""
        start = 0
        while (end := self.inbox.find(b"\n", start)) != -1:
            if self.inbox[start:end].rstrip(b"\r") == END:
                body = bytes(self.inbox[:start])
                del self.inbox[: end + 1]
                return body.decode("utf-8", errors="replace")
            start = end + 1
        return None

    def drain_stderr(self) -> bool:
        """Copies what the bot wrote on stderr into its log, up to `log_bytes`; returns
        False once its stderr is at its end (or closed), True while more may come."""
        process = self._process
        if process is None or process.stderr is None or process.stderr.closed:
            return False
        for _ in range(64):  # bounded: a bot writing without pause cannot hold the runner
            try:
                data = os.read(process.stderr.fileno(), CHUNK)
            except BlockingIOError:
                return True
            except OSError:
                return False
            if not data:
                return False
            self._note(data)
        return True

    def _note(self, data: bytes) -> None:
        """Writes to the log what fits under `log_bytes`; counts the rest as dropped."""
        if self._log is None:
            return
        room = max(self.limits.log_bytes - self.logged, 0)
        kept = data[:room]
        self._log.write(kept)
        self.logged += len(kept)
        if len(kept) < len(data):
            if not self.dropped:
                self._log.write(f"\n[drts: log cut at {self.limits.log_bytes} bytes]\n".encode())
            self.dropped += len(data) - len(kept)
        self._log.flush()


def exited(status: int) -> str:
    """Returns how a process ended, from its exit status (negative: killed by a signal)."""
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        return f"was killed by {name}"
    return f"exited with status {status}"
