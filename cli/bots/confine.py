"""What holds a bot's processes: a cgroup of its own where the machine allows it.

Every process a bot starts must end with its seat, however it tries to get
away (a child that calls setsid(), a double fork, a fork bomb), and the
number of processes it may start is capped (`Limits.max_processes`). Two
mechanisms, the best the machine allows chosen once per runner process
(`Confinement.probe`):

- **cgroups** (Linux, when the runner may create cgroups: root, or a
  delegated subtree). Each seat gets a cgroup of its own, made below the
  runner's own cgroup, in the cgroup v2 hierarchy and, when the pids
  controller is only in cgroup v1 (a hybrid mount, as on the development
  machine), in the v1 pids hierarchy too. The kernel then caps the seat's
  tasks with `pids.max` (threads count; it holds for root, unlike
  RLIMIT_NPROC) and kills every one of them at once with `cgroup.kill`
  (cgroup v2, Linux 5.14), or, without it, by SIGKILL to each member until
  none is left. Nothing a process does leaves its cgroup.
- **a subreaper only** (no cgroup can be made: not root and nothing
  delegated, no cgroup filesystem, not Linux). Each seat's keeper
  (cli/bots/keeper.py), which runs the bot, is a child subreaper: the bot's
  orphans (after setsid or a double fork) are re-parented to it, not to init,
  so they stay in its tree, and it kills the whole tree when the seat ends.
  The cap is then the keeper's count of the tree every KEEPER_POLL seconds:
  a bot found over it is put out, but a fast fork bomb may run over it in
  between. A keeper killed with SIGKILL (not by the runner) leaves the tree
  behind; with cgroups nothing escapes.

Every bot runs under its keeper in both cases; with cgroups the keeper and
the bot are in the seat's cgroup from before the bot starts.
"""

from __future__ import annotations

import contextlib
import functools
import os
import signal
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from cli.bots.keeper import POLL as KEEPER_POLL

CGROUP_ROOT = Path("/sys/fs/cgroup")
PREFIX = "drts-bot-"  # seat cgroups: drts-bot-<runner pid>-<seat>-<random>
KILL_SECONDS = 5.0  # how long killing a seat's cgroup may take before it is given up


@dataclass(frozen=True)
class Hierarchy:
    """A cgroup hierarchy the runner may make cgroups in: the runner's own cgroup there."""

    parent: Path
    version: int  # 1 or 2

    @property
    def pids(self) -> bool:
        """Returns whether a cgroup made here has `pids.max` (the kernel holds the cap)."""
        if self.version == 1:
            return True
        try:
            return "pids" in (self.parent / "cgroup.subtree_control").read_text().split()
        except OSError:
            return False


@dataclass(frozen=True)
class Confinement:
    """How this machine holds bot processes (see the module): the hierarchies seat
    cgroups go in (none: the subreaper only)."""

    hierarchies: tuple[Hierarchy, ...] = ()
    why_not: str = ""  # why there are no cgroups, when there are none

    @classmethod
    def probe(cls, allowed: bool = True) -> Confinement:
        """Returns what this machine allows (the runner's own cgroups, if writable)."""
        if not allowed:
            return cls((), "cgroups turned off (--no-cgroups)")
        if not sys.platform.startswith("linux"):
            return cls((), f"not Linux ({sys.platform})")
        found = tuple(h for h in own_hierarchies() if can_make_cgroups(h))
        if not found:
            return cls((), "no cgroup the runner may create (root, or a delegated cgroup)")
        return cls(found)

    @property
    def cgroups(self) -> bool:
        """Returns whether seats get cgroups."""
        return bool(self.hierarchies)

    def describe(self, max_processes: int) -> str:
        """Returns one line saying how bots are held on this machine."""
        if not self.cgroups:
            return (
                f"bots: {self.why_not}: each bot's processes are followed by a subreaper and "
                f"killed with its seat; the cap of {max_processes} processes is checked every "
                f"{KEEPER_POLL} s, not held by the kernel (docs/games/shades.md)"
            )
        kinds = ", ".join(f"v{h.version} {h.parent}" for h in self.hierarchies)
        if any(h.pids for h in self.hierarchies):
            cap = f"at most {max_processes} tasks (pids.max)"
        else:
            cap = (
                f"no pids controller for the runner's cgroup: the cap of {max_processes} "
                f"processes is checked every {KEEPER_POLL} s, not held by the kernel"
            )
        return f"bots: each seat in a cgroup of its own ({kinds}), {cap}"

    def seat_group(self, seat: int) -> SeatGroup:
        """Makes the cgroups of one seat (none without cgroups)."""
        sweep_stale(self.hierarchies)
        name = f"{PREFIX}{os.getpid()}-{seat}-{uuid.uuid4().hex[:8]}"
        made: list[Path] = []
        try:
            for hierarchy in self.hierarchies:
                path = hierarchy.parent / name
                path.mkdir()
                made.append(path)
        except OSError:
            SeatGroup(tuple(made)).remove()
            raise
        return SeatGroup(tuple(made))


@dataclass(frozen=True)
class SeatGroup:
    """The cgroups of one seat (one per hierarchy; none under the subreaper alone)."""

    paths: tuple[Path, ...] = ()

    def cap(self, max_processes: int) -> bool:
        """Sets `pids.max` where there is one; returns whether the kernel holds the cap."""
        capped = False
        for path in self.paths:
            limit = path / "pids.max"
            if limit.exists():
                limit.write_text(str(max_processes))
                capped = True
        return capped

    def kill(self) -> None:
        """Kills every process in the seat's cgroups: `cgroup.kill` where there is one,
        then SIGKILL to each member left until none is (for KILL_SECONDS at most)."""
        for path in self.paths:
            with contextlib.suppress(OSError):
                (path / "cgroup.kill").write_text("1")
        give_up = time.monotonic() + KILL_SECONDS
        while (members := self.members()) and time.monotonic() < give_up:
            for pid in members:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.005)

    def members(self) -> set[int]:
        """Returns the processes in the seat's cgroups."""
        found: set[int] = set()
        for path in self.paths:
            with contextlib.suppress(OSError):
                found.update(int(line) for line in (path / "cgroup.procs").read_text().split())
        return found

    def remove(self) -> None:
        """Removes the seat's (empty) cgroups, waiting a moment for the dead to leave."""
        for path in self.paths:
            give_up = time.monotonic() + 1.0
            while path.exists():
                try:
                    path.rmdir()
                except OSError:
                    if time.monotonic() > give_up:
                        break
                    time.sleep(0.01)


@functools.cache
def probe(allowed: bool = True) -> Confinement:
    """Returns what this machine allows, probed once per runner process."""
    return Confinement.probe(allowed)


def own_hierarchies(mountinfo: str | None = None, own: str | None = None) -> list[Hierarchy]:
    """Returns the runner's own cgroup in the cgroup v2 hierarchy and, when the pids
    controller is mounted as cgroup v1, in that one; read from /proc/self/mountinfo and
    /proc/self/cgroup (or the texts given)."""
    try:
        mountinfo = mountinfo if mountinfo is not None else Path("/proc/self/mountinfo").read_text()
        own = own if own is not None else Path("/proc/self/cgroup").read_text()
    except OSError:
        return []
    paths = dict(_own_paths(own))
    found = []
    for root, mountpoint, fstype, options in _cgroup_mounts(mountinfo):
        key = "" if fstype == "cgroup2" else ("pids" if "pids" in options else None)
        if key is None or key not in paths or not _below(paths[key], root):
            continue
        relative = paths[key][len(root) :].lstrip("/")
        found.append(Hierarchy(Path(mountpoint) / relative, 2 if fstype == "cgroup2" else 1))
    return sorted(found, key=lambda h: -h.version)  # v2 first: cgroup.kill


def _below(path: str, root: str) -> bool:
    """Returns whether the cgroup `path` is `root` or below it."""
    return root == "/" or path == root or path.startswith(root.rstrip("/") + "/")


def _own_paths(text: str) -> list[tuple[str, str]]:
    """Yields (controllers, path) from /proc/self/cgroup: "" is cgroup v2's line."""
    pairs: list[tuple[str, str]] = []
    for line in text.splitlines():
        _, controllers, path = line.split(":", 2)
        pairs.extend((name, path) for name in (controllers.split(",") if controllers else [""]))
    return pairs


def _cgroup_mounts(text: str) -> list[tuple[str, str, str, set[str]]]:
    """Returns (root, mount point, fstype, super options) of each cgroup mount."""
    mounts = []
    for line in text.splitlines():
        fields, _, tail = line.partition(" - ")
        parts, after = fields.split(), tail.split()
        if len(parts) >= 5 and len(after) >= 3 and after[0] in ("cgroup", "cgroup2"):
            mounts.append((parts[3], parts[4], after[0], set(after[2].split(","))))
    return mounts


def can_make_cgroups(hierarchy: Hierarchy) -> bool:
    """Returns whether a cgroup can be made in the hierarchy (and removed): tried."""
    probe = hierarchy.parent / f"{PREFIX}probe-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    try:
        probe.mkdir()
    except OSError:
        return False
    with contextlib.suppress(OSError):
        probe.rmdir()
    return True


def sweep_stale(hierarchies: tuple[Hierarchy, ...]) -> None:
    """Removes the empty seat cgroups a runner that died left behind."""
    for hierarchy in hierarchies:
        with contextlib.suppress(OSError):
            for path in hierarchy.parent.glob(f"{PREFIX}*"):
                runner = path.name[len(PREFIX) :].split("-", 1)[0]
                if runner.isdigit() and not _alive(int(runner)):
                    with contextlib.suppress(OSError):
                        path.rmdir()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
