"""`drts bots run` (issue 25): bot programs play Shades through the service over the contest's
protocol (SH-11); a bot that fails is put out and its seat eliminated (SH-4), and nothing a
bot does can hang or break the runner.

Real parts: the example bots and hostile bots as real child processes, the C bot compiled
with gcc, the Matches application on SQLite and PostgreSQL, the real CLI (click's runner).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cli.bots.process import Limits
from cli.bots.runner import MatchPlan, Program, play_match
from cli.main import main
from domain.rules.shades.protocol import turn_message
from domain.rules.shades.state import load_state
from service.matches import Matches, connect
from service.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
BOTS = ROOT / "examples" / "bots"
RANDOM = f"{sys.executable} {BOTS / 'random_bot.py'} 7"
GREEDY = f"{sys.executable} {BOTS / 'greedy_bot.py'}"


@pytest.fixture
def app(database_url: str) -> Matches:
    """The Matches application on the test's store, on the real clock (bots run in real time)."""
    matches = connect(Settings(database_url))
    yield matches
    matches.close()


@pytest.fixture(scope="module")
def c_bot(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The C example bot, compiled with gcc into a temporary folder."""
    if shutil.which("gcc") is None:
        pytest.skip("gcc is not installed: the C example bot cannot be built")
    binary = tmp_path_factory.mktemp("cbot") / "shades_bot"
    source = BOTS / "c" / "shades_bot.c"
    subprocess.run(["gcc", "-O2", "-Wall", "-Werror", "-o", binary, source], check=True)
    return str(binary)


def hostile(tmp_path: Path, name: str, body: str) -> str:
    """Writes a Python bot whose turns run `body` (with `state`, `turn` and `reply` at hand)
    after a well-behaved init; returns its command line."""
    path = tmp_path / f"{name}.py"
    path.write_text(
        textwrap.dedent(
            """\
            import json, os, sys, time
            sys.path.insert(0, {bots!r})
            from shades_io import messages, reply
            stream = messages()
            init = next(stream)
            reply(None)
            for turn, state in enumerate(stream):
            {body}
            """
        ).format(bots=str(BOTS), body=textwrap.indent(textwrap.dedent(body), "    "))
    )
    return f"{sys.executable} {path}"


def test_a_whole_match_of_the_example_bots_is_stored_as_the_runner_played_it(
    app: Matches, c_bot: str, tmp_path: Path
):
    """SH-11: the Python bots and the C bot (written from the protocol text alone) play a
    whole match; every reply is a stored order from source `bot`; the messages the bots
    got are the states the replay rebuilds, turn by turn."""
    plan = MatchPlan(
        (Program(RANDOM), Program(GREEDY), Program(c_bot)),
        map="river",
        seed="25",
        config={"turns": 40},
        log_dir=tmp_path,
        keep_messages=True,
    )
    result = play_match(app, plan)
    assert result.outcome["finished"] is True
    failures = [
        seat.out for seat in result.seats if seat.out not in (None, "eliminated by the game")
    ]
    assert failures == []
    summary = app.summary(result.match_id)
    assert summary.status == "finished"
    assert app.replay(result.match_id).agrees and app.verify_chain(result.match_id).ok
    for movement, messages in enumerate(result.messages, 1):
        stored = app.state(result.match_id, movement, token=result.referee_token).state
        state = load_state(stored)
        assert messages == {seat: turn_message(state, seat) for seat in messages}
    events = app.event_log(result.match_id)
    sources = {e["data"]["source"] for e in events if e["type"] == "OrderSubmitted"}
    assert sources == {"bot"}
    closes = [e["data"]["reason"] for e in events if e["type"] == "MovementClosed"]
    assert closes and set(closes) <= {"all_ordered"}  # SH-10: no turn waited for a deadline


def test_hostile_bots_are_put_out_and_the_match_goes_on(tmp_path: Path):
    """SH-4: a bot that crashes (leaving a child holding its pipes), sends garbage, is late,
    never reads, or runs out of memory is put out, its process group killed and reaped, and
    its seat eliminated at the deadline; a bot printing megabytes to stderr and one forking
    children play on, their logs bounded. The match goes on to its end."""
    url = f"sqlite:///{tmp_path}/bots.sqlite"
    app = connect(Settings(url))
    pids = tmp_path / "children"
    pids.mkdir()
    forker = f"""\
        if turn == 0:
            import resource
            print("limits", resource.getrlimit(resource.RLIMIT_NOFILE)[0],
                  resource.getrlimit(resource.RLIMIT_AS)[0], file=sys.stderr, flush=True)
            child = os.fork()
            if child == 0:
                time.sleep(600)
                os._exit(0)
            open({str(pids / "forker")!r}, "w").write(str(child))
        reply({{"data": []}})
    """
    crasher = f"""\
        child = os.fork()
        if child == 0:
            time.sleep(600)
            os._exit(0)
        open({str(pids / "crasher")!r}, "w").write(str(child))
        sys.exit(3)
    """
    programs = {
        "greedy": GREEDY,
        "crasher": hostile(tmp_path, "crasher", crasher),
        "garbage": hostile(tmp_path, "garbage", 'reply({"data": "nope"})'),
        "late": hostile(tmp_path, "late", "time.sleep(30)"),
        "spammer": hostile(
            tmp_path, "spammer", 'sys.stderr.write("x" * 3_000_000); reply({"data": []})'
        ),
        "deaf": f"{sys.executable} -c 'import time; time.sleep(600)'",
        "forker": hostile(tmp_path, "forker", forker),
        "hog": hostile(tmp_path, "hog", 'bytearray(1 << 30); reply({"data": []})'),
    }
    limits = Limits(memory_bytes=256 << 20, open_files=32, log_bytes=65536)
    plan = MatchPlan(
        tuple(Program(p) for p in programs.values()),
        map="graveyard",
        turn_seconds=1,
        config={"turns": 4},
        limits=limits,
        log_dir=tmp_path / "logs",
    )
    began = time.monotonic()
    result = play_match(app, plan)
    assert time.monotonic() - began < 60
    out = {name: result.seats[i].out for i, name in enumerate(programs)}
    assert out["greedy"] in (None, "eliminated by the game")
    assert out["crasher"] == "exited with status 3"
    assert out["garbage"].startswith("sent a reply the service refused: invalid_order")
    assert out["late"] == "did not reply in time"
    assert out["deaf"] == "did not reply in time"
    assert out["hog"] == "exited with status 1"
    assert out["spammer"] in (None, "eliminated by the game")
    assert out["forker"] in (None, "eliminated by the game")
    summary = app.summary(result.match_id)
    assert summary.status == "finished"
    for seat in (2, 3, 4, 6, 8):  # SH-4: eliminated at the deadline
        assert seat in summary.eliminated
    rejected = [e for e in app.event_log(result.match_id) if e["type"] == "OrderRejected"]
    assert [e["data"]["seat"] for e in rejected] == [3]
    spam_log = result.seats[4].log.read_bytes()
    assert 65536 <= len(spam_log) <= 65536 + 200 and b"log cut at 65536 bytes" in spam_log
    assert b"limits 32 268435456" in result.seats[6].log.read_bytes()
    for name in ("forker", "crasher"):
        assert_gone(int((pids / name).read_text()))
    app.close()


def test_a_bot_flooding_stdout_replying_in_text_or_spinning_is_put_out(tmp_path: Path):
    """SH-4, SH-11: a reply must be the protocol's JSON: a text order (`hold`, fine over the
    API) is not, and is not submitted; a bot writing megabytes without ending its message is
    cut off at the reply limit; a bot spinning past its CPU time is killed by the limit. All
    are put out; the greedy bot plays on."""
    app = connect(Settings(f"sqlite:///{tmp_path}/bots.sqlite"))
    flood = 'sys.stdout.write("x" * 100 + "\\n")\nwhile True: sys.stdout.write("y" * 65536)'
    programs = (
        GREEDY,
        hostile(tmp_path, "text", 'sys.stdout.write("hold\\n.\\n"); sys.stdout.flush()'),
        hostile(tmp_path, "flood", flood),
        hostile(tmp_path, "spin", "while True: pass"),
    )
    plan = MatchPlan(
        tuple(Program(p) for p in programs),
        turn_seconds=8,  # time for the spinner to burn its CPU second on a busy machine
        config={"turns": 3},
        limits=Limits(cpu_seconds=1, reply_bytes=1 << 20),
        log_dir=tmp_path,
    )
    result = play_match(app, plan)
    assert result.seats[1].out == "sent a reply that is not JSON: 'hold\\n'"
    assert result.seats[2].out == "sent a reply of more than 1048576 bytes"
    assert result.seats[3].out == "was killed by SIGXCPU"  # its CPU time limit, before the deadline
    assert result.seats[0].out in (None, "eliminated by the game")
    assert sorted(app.summary(result.match_id).eliminated[:3]) == [2, 3, 4]
    app.close()


def assert_gone(pid: int) -> None:
    """Asserts that the process is dead (gone, or a zombie waiting for init) within 5 s."""
    give_up = time.monotonic() + 5
    while time.monotonic() < give_up:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except FileNotFoundError:
            return
        if stat.rsplit(")", 1)[1].split()[0] in ("Z", "X"):
            return
        time.sleep(0.05)
    os.kill(pid, 9)
    raise AssertionError(f"process {pid} forked by a bot outlived the match")


def test_the_command_plays_a_series_with_seats_rotated_and_prints_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """`--matches 2` over two maps under the contest preset: maps in turn, seats rotated,
    a table of wins and mean scores per program."""
    monkeypatch.setenv("DRTS_DATABASE_URL", f"sqlite:///{tmp_path}/series.sqlite")
    monkeypatch.chdir(tmp_path)
    command = ["bots", "run", "--map", "small", "--map", "river", "--seed", "5", "--matches", "2"]
    command += ["--preset", "contest", "--config", '{"turns": 8}', RANDOM, GREEDY]
    result = CliRunner().invoke(main, command)
    assert result.exit_code == 0, result.output
    ids = re.findall(r"^match (\S+):", result.output, re.M)
    assert len(ids) == 2
    app = connect(Settings(f"sqlite:///{tmp_path}/series.sqlite"))
    configs = [app.summary(match_id).config for match_id in ids]
    app.close()
    assert [(c["razing"], c["scoring"], c["turns"]) for c in configs] == [
        ("one", "normalised", 8)
    ] * 2
    assert [len(c["map"]) for c in configs] == [10, 20]  # small, then river
    assert f"replay: drts match replay {ids[0]}" in result.output
    assert f"audit: drts match verify {ids[1]}" in result.output
    seats = re.findall(r"^  seat (\d) (.+): score", result.output, re.M)
    assert seats[:2] == [("1", RANDOM), ("2", GREEDY)]
    assert seats[2:] == [("1", GREEDY), ("2", RANDOM)]
    assert "2 matches:" in result.output
    table = result.output.split("2 matches:")[1]
    assert re.search(r"random_bot\.py 7\s+2\s+\d+\s+\d+\s+-?\d+\.\d\d", table)
    assert sorted(p.name.rsplit("-", 1)[1] for p in (tmp_path / "bot-logs").iterdir()) == [
        "seat1.log",
        "seat1.log",
        "seat2.log",
        "seat2.log",
    ]


def test_the_command_refuses_bad_arguments_and_puts_out_a_missing_program(
    tmp_path: Path, monkeypatch
):
    """Shades seats 2 to 8: one program is refused, bad config JSON and an unknown map too;
    a program that cannot start is put out."""
    monkeypatch.setenv("DRTS_DATABASE_URL", f"sqlite:///{tmp_path}/one.sqlite")
    monkeypatch.chdir(tmp_path)
    one = CliRunner().invoke(main, ["bots", "run", "--map", "small", RANDOM])
    assert one.exit_code == 2 and "Shades seats 2 to 8 programs, got 1" in one.output
    bad = CliRunner().invoke(
        main, ["bots", "run", "--map", "small", "--config", "{", RANDOM, GREEDY]
    )
    assert bad.exit_code == 2 and "--config is not JSON" in bad.output
    nowhere = CliRunner().invoke(main, ["bots", "run", "--map", "nowhere", RANDOM, GREEDY])
    assert nowhere.exit_code == 1 and "invalid_config" in nowhere.output
    pair = (RANDOM, "/nowhere/bot")
    missing = CliRunner().invoke(
        main,
        ["bots", "run", "--map", "small", "--turn-timeout", "1", "--config", '{"turns": 3}', *pair],
    )
    assert missing.exit_code == 0, missing.output
    assert "could not start '/nowhere/bot'" in missing.output
