"""Where a seat's cgroups go (cli/bots/confine.py): the runner's own cgroup in each
hierarchy, read from /proc/self/mountinfo and /proc/self/cgroup, and what this machine
allows, said in one line."""

from __future__ import annotations

from pathlib import Path

from cli.bots.confine import Confinement, Hierarchy, own_hierarchies

HYBRID_MOUNTS = """\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
"""
HYBRID_OWN = "8:pids:/\n4:memory:/process_api/981f\n0::/\n"


def test_a_hybrid_mount_gives_the_v2_cgroup_and_the_v1_pids_one():
    """The development machine: cgroup v2 without controllers, pids in cgroup v1."""
    assert own_hierarchies(HYBRID_MOUNTS, HYBRID_OWN) == [
        Hierarchy(Path("/sys/fs/cgroup/unified"), 2),
        Hierarchy(Path("/sys/fs/cgroup/pids"), 1),
    ]


def test_a_pure_v2_machine_gives_the_runners_own_cgroup():
    mounts = "30 23 0:27 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"
    own = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/drts.scope\n"
    assert own_hierarchies(mounts, own) == [
        Hierarchy(
            Path(
                "/sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/app.slice/drts.scope"
            ),
            2,
        )
    ]


def test_a_container_mount_of_a_subtree_is_followed_from_its_root():
    """A mount of /docker/abc as the container's /sys/fs/cgroup: the own path is cut."""
    mounts = "40 30 0:27 /docker/abc /sys/fs/cgroup ro - cgroup2 cgroup2 rw\n"
    assert own_hierarchies(mounts, "0::/docker/abc/bots\n") == [
        Hierarchy(Path("/sys/fs/cgroup/bots"), 2)
    ]
    assert own_hierarchies(mounts, "0::/elsewhere\n") == []  # not below what is mounted
    assert own_hierarchies(mounts, "0::/docker/abcdef\n") == []


def test_no_cgroup_filesystem_gives_nothing_and_the_fallback_is_said():
    assert own_hierarchies("22 1 0:21 / /proc rw - proc proc rw\n", "0::/\n") == []
    line = Confinement((), "no cgroup the runner may create").describe(128)
    assert "subreaper" in line and "128 processes is checked every 0.05 s" in line
