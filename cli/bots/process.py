"""One bot program as a child process, held to resource limits, spoken to over its pipes.

A bot runs under its keeper (cli/bots/keeper.py), in a session of its own,
with limits on CPU time, memory and open files set before it starts, and a
cap on the processes it may start (`Limits`). Every process it starts ends
with its seat, setsid() and double forks included: in a cgroup of the seat's
own where the machine allows it, else under the keeper as a subreaper
(cli/bots/confine.py says which, and what each holds). Its pipes are
non-blocking: the runner never waits on one bot (`exchange.py` multiplexes
them), what it sends waits in a buffer until the bot reads it, what the bot
writes on stdout is read into a bounded buffer and cut into messages (lines
ended by a line holding a single `.`, shades_protocol.md), and its stderr is
copied into a log file up to a bound, the rest counted and dropped. `kill`
kills every process of the seat and reaps the bot.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from cli.bots import keeper
from cli.bots.confine import Confinement, SeatGroup, probe

END = b"."  # the line that ends a message, in both directions
CHUNK = 65536
EXIT_WAIT = 0.2  # seconds to wait for the exit of a bot whose stdout has ended
KEEPER_EXIT = keeper.KILL_SECONDS + 2  # seconds a keeper may take to end its seat
KEEPER = [sys.executable, "-I", "-S", keeper.__file__]


@dataclass(frozen=True)
class Limits:
    """What a bot may use: the rlimits apply to the bot's process (and, as rlimits do, are
    inherited by each child it forks), `max_processes` to all it starts, the bytes to what
    the runner keeps of its output."""

    cpu_seconds: int = 600  # CPU time over the whole match (RLIMIT_CPU): SIGXCPU, then SIGKILL
    memory_bytes: int = 1 << 30  # address space (RLIMIT_AS)
    open_files: int = 64  # file descriptors (RLIMIT_NOFILE)
    reply_bytes: int = 1 << 20  # one reply; a longer one is refused (SH-4)
    log_bytes: int = 1 << 20  # stderr kept in the seat's log; the rest is dropped
    max_processes: int = 128  # the bot's processes, itself included (with a cgroup: tasks)
    cgroups: bool = True  # a cgroup per seat where the machine allows it (confine.py)

    def rlimits(self) -> dict[str, int]:
        """Returns the rlimits the keeper sets on the bot before it starts (keeper.RLIMITS)."""
        return {
            "cpu": self.cpu_seconds,
            "as": self.memory_bytes,
            "nofile": self.open_files,
            "core": 0,
        }


class BotFailure(Exception):
    """Raised when a bot breaks the protocol: it exited, closed a pipe or sent too much."""


class Bot:
    """A bot program running as a child process (under its keeper) for one seat."""

    def __init__(
        self,
        seat: int,
        argv: Sequence[str],
        log_path: Path,
        limits: Limits,
        confinement: Confinement | None = None,
    ) -> None:
        self.seat, self.argv, self.limits = seat, list(argv), limits
        self.log_path = log_path
        self.confinement = confinement or probe(limits.cgroups)
        self.outbox = bytearray()  # sent, not yet read by the bot
        self.inbox = bytearray()  # read from the bot's stdout, not yet a whole message
        self.logged = self.dropped = 0
        self.failure: str | None = None  # why the bot is out, once it is
        self.group = SeatGroup()
        self.kernel_cap = False  # whether the kernel holds max_processes (pids.max)
        self._log: IO[bytes] | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._status: int | None = None  # the keeper's report (fd): "processes" over the cap

    # -- lifetime -------------------------------------------------------------------------

    def start(self) -> None:
        """Starts the program under its keeper, in a session and cgroup of its own, under
        the limits; raises BotFailure when it cannot be started (no such program, not
        executable)."""
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = self.log_path.open("wb")
        self._check_program()
        try:
            self.group = self.confinement.seat_group(self.seat)
        except OSError as error:
            self.failure = f"could not make its cgroup: {error.strerror or error}"
            raise BotFailure(self.failure) from None
        self.kernel_cap = self.group.cap(self.limits.max_processes + 1)  # + the keeper
        self._status, status_w = os.pipe()
        config = {
            "cgroups": [str(path) for path in self.group.paths],
            "rlimits": self.limits.rlimits(),
            "count_cap": None if self.kernel_cap else self.limits.max_processes,
            "status_fd": status_w,
            "runner": os.getpid(),
        }
        try:
            self._process = subprocess.Popen(
                [*KEEPER, json.dumps(config), "--", *self.argv],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                start_new_session=True,
                close_fds=True,
                pass_fds=(status_w,),
            )
        finally:
            os.close(status_w)
        os.set_blocking(self._status, False)
        for pipe in self.pipes():
            fcntl.fcntl(pipe, fcntl.F_SETFL, fcntl.fcntl(pipe, fcntl.F_GETFL) | os.O_NONBLOCK)

    def _check_program(self) -> None:
        """Raises BotFailure unless the program can be found and executed (the keeper
        would only see it fail after the fork)."""
        program = self.argv[0] if self.argv else ""
        if shutil.which(program) is None:
            error = "Permission denied" if os.path.exists(program) else "No such file or directory"
            self.failure = f"could not start {program!r}: {error}"
            raise BotFailure(self.failure)

    @property
    def running(self) -> bool:
        """Returns whether the bot is still in play (started, not failed, not killed)."""
        return self._process is not None and self.failure is None

    @property
    def pid(self) -> int | None:
        """Returns the process id of the bot's keeper (its session's), once started."""
        return None if self._process is None else self._process.pid

    def exit_status(self, wait: float = 0) -> int | None:
        """Returns the bot's exit status if it has ended (within `wait` seconds), else None
        (its keeper ends as it did, once every process of the seat is gone)."""
        if self._process is None:
            return None
        try:
            return self._process.wait(wait) if wait else self._process.poll()
        except subprocess.TimeoutExpired:
            return None

    def ended(self, status: int) -> str:
        """Returns how the bot ended, from its exit status (or the keeper's report)."""
        report = b""
        if self._status is not None:
            with contextlib.suppress(OSError):
                report = os.read(self._status, 64)
        if report.startswith(b"processes"):
            return f"started more than {self.limits.max_processes} processes"
        return exited(status)

    def kill(self, reason: str | None = None) -> None:
        """Puts the bot out of play: notes why (the first reason stands), kills every
        process of its seat, reaps it, closes its pipes and its log. Safe to call twice."""
        if self.failure is None:
            self.failure = reason or "stopped"
        process = self._process
        if process is not None:
            self._end_seat(process)
            self.drain_stderr()
            for pipe in (process.stdin, process.stdout, process.stderr):
                if pipe is not None:
                    with contextlib.suppress(OSError):
                        pipe.close()
        if self._status is not None:
            os.close(self._status)
            self._status = None
        if self._log is not None:
            self._log.write(f"\n[drts: bot out: {self.failure}]\n".encode())
            self._log.close()
            self._log = None

    def _end_seat(self, process: subprocess.Popen[bytes]) -> None:
        """Kills the seat's processes: its cgroup at once, or through the keeper (SIGTERM:
        it kills its tree and exits); the keeper's session last, if anything is left."""
        if self.group.paths:
            self.group.kill()
        elif process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(KEEPER_EXIT)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        self.group.remove()

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
            raise BotFailure("closed its stdout" if status is None else self.ended(status))
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
