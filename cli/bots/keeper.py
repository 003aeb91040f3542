"""A bot's keeper: runs the bot as its child and ends every process the bot starts.

Run by the runner (cli/bots/process.py) as `python -I -S keeper.py CONFIG --
ARGV...`, with the bot's pipes as its stdin, stdout and stderr; CONFIG is
JSON: {"cgroups": [paths], "rlimits": {name: limit}, "count_cap": N or
null, "status_fd": fd}. Standard library only (it starts in a few ms).

1. It joins the seat's cgroups (cli/bots/confine.py), if any, before
   anything else, so that the bot and all it starts are in them.
2. It becomes a child subreaper (prctl PR_SET_CHILD_SUBREAPER): a process
   of the bot's whose parent dies (setsid and a double fork included) is
   re-parented to the keeper, not to init, so it stays in the keeper's tree.
   It asks for SIGTERM when the runner dies (PR_SET_PDEATHSIG).
3. It forks the bot, which sets the limits on itself (`rlimits`) and execs
   the program; the keeper then lets go of the pipes (the bot alone holds
   them: its end of output is the runner's to see).
4. It reaps the tree as it goes and, with `count_cap`, counts it every POLL
   seconds: over the cap it writes "processes" on `status_fd`.
5. When the bot exits, when the runner sends SIGTERM (the seat is over), or
   over the cap, it kills every process of its tree (SIGKILL, until none is
   found) and exits as the bot did: with its exit status, or killed by the
   same signal, so that the runner reports the bot's end as its own.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import os
import resource
import signal
import sys
import time
from pathlib import Path
from typing import Any

PR_SET_PDEATHSIG, PR_SET_CHILD_SUBREAPER = 1, 36
POLL = 0.05
KILL_SECONDS = 5.0
NO_PROGRAM = 127  # the bot's exit status when its program cannot be executed
RLIMITS = {
    "cpu": resource.RLIMIT_CPU,
    "as": resource.RLIMIT_AS,
    "nofile": resource.RLIMIT_NOFILE,
    "core": resource.RLIMIT_CORE,
}


class SeatOver(Exception):
    """Raised in the keeper by SIGTERM: the runner ends the seat."""


def main(argv: list[str]) -> None:
    """Runs the bot of `argv` (CONFIG -- PROGRAM ARGS...) to its end; never returns."""
    config: dict[str, Any] = json.loads(argv[1])
    program = argv[argv.index("--") + 1 :]
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # it may end by the bot's SIGXCPU
    for path in config.get("cgroups", []):
        (Path(path) / "cgroup.procs").write_text(str(os.getpid()))
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    signal.signal(signal.SIGTERM, _seat_over)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    if os.getppid() != config.get("runner", os.getppid()):  # it died before we asked
        sys.exit(0)
    status_fd = config.get("status_fd")
    status: int | None = None
    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGTERM])  # not between fork and exec
        bot = os.fork()
        if bot == 0:
            _run_bot(program, config.get("rlimits", {}), status_fd)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
        _let_go_of_pipes()
        status = _watch(bot, config.get("count_cap"), status_fd)
    except SeatOver:
        pass
    kill_tree()
    _exit_as(status)


def _run_bot(program: list[str], rlimits: dict[str, int], status_fd: int | None) -> None:
    """In the forked child: the limits, default signals, then the program."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
    try:
        if status_fd is not None:
            os.close(status_fd)
        for name, limit in rlimits.items():
            hard = limit + 1 if name == "cpu" else limit  # SIGXCPU first, then SIGKILL
            resource.setrlimit(RLIMITS[name], (limit, hard))
        os.execvp(program[0], program)
    except OSError as error:
        sys.stderr.write(f"could not start {program[0]!r}: {error.strerror or error}\n")
        sys.stderr.flush()
    os._exit(NO_PROGRAM)


def _let_go_of_pipes() -> None:
    """Points the keeper's stdin, stdout and stderr at /dev/null."""
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)


def _watch(bot: int, count_cap: int | None, status_fd: int | None) -> int | None:
    """Reaps the tree until the bot exits (returns its wait status) or the tree is over
    `count_cap` (returns None); SeatOver when the runner ends the seat."""
    while True:
        status = _reap(bot)
        if status is not None:
            return status
        if count_cap is not None and len(descendants()) > count_cap:
            if status_fd is not None:
                with contextlib.suppress(OSError):
                    os.write(status_fd, b"processes\n")
            return None
        time.sleep(POLL)


def _reap(bot: int) -> int | None:
    """Reaps every child that ended; returns the bot's wait status if it was one."""
    found = None
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return found
        if pid == 0:
            return found
        if pid == bot:
            found = status


def kill_tree() -> None:
    """Kills every process below the keeper, until none is left (each one killed has its
    children re-parented to the keeper, found in the next round), and reaps them; gives
    up after KILL_SECONDS (a process it may not kill)."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    give_up = time.monotonic() + KILL_SECONDS
    while (found := descendants()) and time.monotonic() < give_up:
        for pid in found:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        _reap(0)
    _reap(0)


def descendants(root: int | None = None) -> set[int]:
    """Returns the living processes below `root` (the keeper by default), zombies left
    out, from /proc/PID/task/TID/children."""
    root = os.getpid() if root is None else root
    found: set[int] = set()
    todo = [root]
    while todo:
        pid = todo.pop()
        for child in _children(pid):
            if child not in found:
                found.add(child)
                todo.append(child)
    return {pid for pid in found if not _zombie(pid)}


def _children(pid: int) -> list[int]:
    listed: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError):
                listed.extend(
                    int(c) for c in Path(f"/proc/{pid}/task/{task}/children").read_text().split()
                )
    return listed


def _zombie(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] in ("Z", "X")


def _exit_as(status: int | None) -> None:
    """Exits as the bot did (its status, or its signal); 0 when the seat ended it."""
    if status is None:
        os._exit(0)
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        signal.signal(number, signal.SIG_DFL)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [number])
        os.kill(os.getpid(), number)
        os._exit(128 + number)
    os._exit(os.waitstatus_to_exitcode(status))


def _seat_over(signum: int, frame: Any) -> None:
    raise SeatOver()


if __name__ == "__main__":
    main(sys.argv)
