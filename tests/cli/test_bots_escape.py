"""A bot cannot outlive its match (issue 42): every process it starts, a child that calls
setsid(), a double fork, a fork bomb, ends with its seat, and the number it may start is
capped, for root too.

Real `drts bots run` processes play Shades with a real bot program that escapes every
way it can on its first turn; when the command returns, no process the bot started is
alive: none of those it recorded (pid and start time, so a reused pid is not mistaken),
and no process on the machine still carries the test's mark in its environment. Both
ways of holding bots are tried where the machine allows them (cli/bots/confine.py): a
cgroup per seat (here: root, cgroup v2 at /sys/fs/cgroup/unified and the v1 pids
controller) and the keeper as a subreaper alone (`--no-cgroups`, the fallback).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli.bots.confine import probe, sweep_stale

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "examples" / "bots"
GREEDY = f"{sys.executable} {BOTS / 'greedy_bot.py'}"

pytestmark = pytest.mark.timeout(180)

ESCAPER = textwrap.dedent(
    """\
    import os, sys, time
    sys.path.insert(0, {bots!r})
    from shades_io import messages, reply

    RECORDS, DEPTH = sys.argv[1], int(sys.argv[2])

    def record(kind):
        start = open("/proc/self/stat").read().rsplit(")", 1)[1].split()[19]
        draft = os.path.join(RECORDS, f"draft.{{os.getpid()}}")
        with open(draft, "w") as out:
            out.write(f"{{start}} {{os.getsid(0)}}")
        os.rename(draft, os.path.join(RECORDS, f"{{kind}}-{{os.getpid()}}"))  # whole or none

    def linger(kind):
        record(kind)
        time.sleep(600)
        os._exit(0)

    def bomb(depth):  # each process forks two more, `depth` deep; a failed fork is noted
        for branch in range(2 if depth else 0):
            try:
                pid = os.fork()
            except OSError:
                open(os.path.join(RECORDS, f"failed-{{os.getpid()}}-{{branch}}"), "w").close()
                continue
            if pid == 0:
                record("bomb")
                bomb(depth - 1)
                time.sleep(600)
                os._exit(0)

    stream = messages()
    next(stream)
    record("bot")
    reply(None)
    for turn, state in enumerate(stream):
        if turn == 0:
            if os.fork() == 0:
                linger("child")
            if os.fork() == 0:
                os.setsid()
                linger("setsid")
            if os.fork() == 0:  # a double fork: the middle one exits, its child is orphaned
                if os.fork() == 0:
                    os.setsid()
                    linger("orphan")
                os._exit(0)
            if os.fork() == 0:
                os.setsid()
                bomb(DEPTH)
                time.sleep(600)
                os._exit(0)
            wanted = 4 + 2 ** (DEPTH + 1) - 2  # bot, child, setsid, orphan, the bomb's
            give_up = time.monotonic() + 8
            while len(os.listdir(RECORDS)) < wanted and time.monotonic() < give_up:
                time.sleep(0.05)
        reply({{"data": []}})
    """
)


def escaper(tmp_path: Path, records: Path, depth: int) -> str:
    """Writes the escaping bot; returns its command line."""
    path = tmp_path / "escaper.py"
    path.write_text(ESCAPER.format(bots=str(BOTS)))
    records.mkdir()
    return f"{sys.executable} {path} {records} {depth}"


@pytest.fixture
def mark() -> Iterator[str]:
    """The test's mark, put in the environment of everything `drts bots run` starts; what
    still carries it at the end is killed (a failed test leaves nothing behind)."""
    mark = f"drts-escape-{uuid.uuid4().hex}"
    yield mark
    for pid in marked(mark):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


def bots_run(tmp_path: Path, mark: str, programs: list[str], *options: str) -> str:
    """Runs `drts bots run` to its end as its own process, with `mark` in the environment
    of everything it starts; returns its output."""
    env = {
        **os.environ,
        "DRTS_DATABASE_URL": f"sqlite:///{tmp_path}/bots.sqlite",
        "DRTS_ESCAPE_MARK": mark,
        "PYTHONPATH": str(ROOT),
    }
    command = [sys.executable, "-m", "cli.main", "bots", "run", "--map", "small", "--plain"]
    command += ["--turn-timeout", "10", "--config", '{"turns": 2}', *options, *programs]
    done = subprocess.run(
        command, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=150
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout + done.stderr


def recorded(records: Path, kind: str) -> dict[int, tuple[str, int]]:
    """Returns the processes the bot recorded of `kind`: pid -> (start time, session)."""
    found = {}
    for path in records.glob(f"{kind}-*"):
        start, session = path.read_text().split()
        found[int(path.name.rsplit("-", 1)[1])] = (start, int(session))
    return found


def alive(pid: int, start: str) -> bool:
    """Returns whether the process `pid` that started at `start` still runs (a zombie
    does not)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[19] == start and fields[0] not in ("Z", "X")


def marked(mark: str) -> list[int]:
    """Returns the processes whose environment holds `mark`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if mark.encode() in (entry / "environ").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


MODES = [
    pytest.param((), id="cgroups"),
    pytest.param(("--no-cgroups",), id="subreaper"),
]


def needs(options: tuple[str, ...]) -> None:
    if "--no-cgroups" not in options and not probe(True).cgroups:
        pytest.skip(f"{probe(True).why_not}: only the subreaper can be tried here")


@pytest.mark.parametrize("options", MODES)
def test_no_process_a_bot_starts_outlives_drts_bots_run(
    tmp_path: Path, mark: str, options: tuple[str, ...]
):
    needs(options)
    records = tmp_path / "records"
    output = bots_run(tmp_path, mark, [escaper(tmp_path, records, 3), GREEDY], *options)
    started = {kind: recorded(records, kind) for kind in ("bot", "child", "setsid", "orphan")}
    bomb = recorded(records, "bomb")
    assert [len(started[kind]) for kind in started] == [1, 1, 1, 1], output
    assert len(bomb) == 2**4 - 2, output  # 14: the bomb ran whole (the cap is 128)
    (bot_session,) = {session for _, session in started["bot"].values()}
    for kind in ("setsid", "orphan"):  # they got away from the bot's session
        assert all(session != bot_session for _, session in started[kind].values())
    survivors = [
        (kind, pid)
        for kind, processes in [*started.items(), ("bomb", bomb)]
        for pid, (start, _) in processes.items()
        if alive(pid, start)
    ]
    assert survivors == [], output
    assert marked(mark) == []
    assert "seat 1's bot is out" not in output  # it played the match out


@pytest.mark.parametrize("options", MODES)
def test_a_fork_bomb_is_held_to_the_cap(tmp_path: Path, mark: str, options: tuple[str, ...]):
    """With a cgroup the kernel refuses the forks past the cap (pids.max holds for root,
    RLIMIT_NPROC does not) and the bot plays on; under the subreaper alone the keeper puts
    the bot out once it counts more. Either way nothing is left when the command ends."""
    needs(options)
    records = tmp_path / "records"
    cap = ("--max-processes", "20")
    bomber = escaper(tmp_path, records, 6)  # up to 126 processes without a cap
    output = bots_run(tmp_path, mark, [bomber, GREEDY], *cap, *options)
    everything = {
        pid: start
        for kind in ("bot", "child", "setsid", "orphan", "bomb")
        for pid, (start, _) in recorded(records, kind).items()
    }
    assert [pid for pid, start in everything.items() if alive(pid, start)] == []
    assert marked(mark) == []
    if "--no-cgroups" in options:
        assert "seat 1's bot is out: started more than 20 processes" in output
    else:
        assert len(everything) <= 20  # the bot and all it started, never more
        assert list(records.glob("failed-*")), "no fork was refused"
        assert "seat 1's bot is out" not in output, output


@pytest.mark.parametrize("options", MODES)
def test_a_runner_killed_with_sigkill_leaves_no_bot_behind(
    tmp_path: Path, mark: str, options: tuple[str, ...]
):
    """The keepers hear of their runner's death (PR_SET_PDEATHSIG) and end their trees."""
    needs(options)
    records = tmp_path / "records"
    env = {
        **os.environ,
        "DRTS_DATABASE_URL": f"sqlite:///{tmp_path}/bots.sqlite",
        "DRTS_ESCAPE_MARK": mark,
        "PYTHONPATH": str(ROOT),
    }
    command = [sys.executable, "-m", "cli.main", "bots", "run", "--map", "small", "--plain"]
    command += ["--turn-timeout", "60", "--config", '{"turns": 2}', *options]
    slow = tmp_path / "slow.py"  # answers the init, then thinks for ever: the match goes on
    slow.write_text(
        f"import sys, time\nsys.path.insert(0, {str(BOTS)!r})\n"
        "from shades_io import messages, reply\n"
        "stream = messages()\nnext(stream)\nreply(None)\ntime.sleep(600)\n"
    )
    command += [escaper(tmp_path, records, 2), f"{sys.executable} {slow}"]
    runner = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL)
    try:
        give_up = time.monotonic() + 60
        while len(list(records.glob("bomb-*"))) < 6 and time.monotonic() < give_up:
            time.sleep(0.1)
        assert len(list(records.glob("bomb-*"))) == 6, "the bot did not escape"
    finally:
        runner.kill()
        runner.wait()
    give_up = time.monotonic() + 10
    while marked(mark) and time.monotonic() < give_up:
        time.sleep(0.1)
    assert marked(mark) == []
    hierarchies = probe(True).hierarchies
    left = [
        h.parent / p.name for h in hierarchies for p in h.parent.glob(f"drts-bot-{runner.pid}-*")
    ]
    assert len(left) == (0 if "--no-cgroups" in options else 2 * len(hierarchies))
    sweep_stale(hierarchies)  # what the next runner does: the dead runner's cgroups go
    assert not any(path.exists() for path in left)
