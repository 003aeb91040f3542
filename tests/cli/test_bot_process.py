"""A bot process (cli/bots/process.py) and a round of messages (cli/bots/exchange.py): the
protocol's framing (shades_protocol.md: lines ended by a line holding a single `.`), and a
process group killed and reaped."""

from __future__ import annotations

import sys
import time
from pathlib import Path

from cli.bots.exchange import LATE, Round
from cli.bots.process import Bot, Limits, exited
from service.store.application import utc_now

ECHO = """\
import sys
for line in sys.stdin:
    sys.stdout.write(line)
    sys.stdout.flush()
"""


def bot(tmp_path: Path, source: str, limits: Limits | None = None) -> Bot:
    """Returns a started bot running the Python `source`."""
    started = Bot(1, [sys.executable, "-c", source], tmp_path / "seat1.log", limits or Limits())
    started.start()
    return started


def test_messages_are_cut_at_a_line_holding_a_single_dot(tmp_path: Path):
    """SH-11: a message is the lines before a `.` line; CRLF line ends are read too; an
    empty message is the `.` line alone; what follows waits for the next message."""
    echo = bot(tmp_path, ECHO)
    echo.inbox += b'{"data": []}\r\n.\r\n.\n{"data"'
    assert echo.next_message() == '{"data": []}\r\n'
    assert echo.next_message() == ""
    assert echo.next_message() is None
    assert echo.inbox == bytearray(b'{"data"')
    echo.kill("done")
    assert echo.exit_status() is not None and echo.failure == "done"


def test_a_round_sends_each_message_and_yields_the_reply_with_its_instant(tmp_path: Path):
    """The message goes out as one line of JSON and a `.` line; the echoed reply comes back."""
    echo = bot(tmp_path, ECHO)
    before = utc_now()
    replies = list(Round({1: echo}, {1: {"turn_num": 3}}, time.monotonic() + 10, utc_now).replies())
    echo.kill()
    assert [(r.seat, r.text, r.failure) for r in replies] == [(1, '{"turn_num":3}\n', None)]
    assert replies[0].received_at >= before


def test_a_silent_bot_is_late_at_the_deadline_and_its_stderr_is_logged(tmp_path: Path):
    """A bot that never answers is late; what it wrote on stderr is in its log, bounded."""
    silent = bot(
        tmp_path,
        "import sys, time; sys.stderr.write('x' * 5000); sys.stderr.flush(); time.sleep(60)",
        Limits(log_bytes=1000),
    )
    began = time.monotonic()
    replies = list(Round({1: silent}, {1: None}, time.monotonic() + 0.5, utc_now).replies())
    assert 0.5 <= time.monotonic() - began < 5
    assert [r.failure for r in replies] == [LATE]
    silent.kill(LATE)
    log = (tmp_path / "seat1.log").read_bytes()
    assert log.startswith(b"x" * 1000 + b"\n[drts: log cut at 1000 bytes]")
    assert log.endswith(b"[drts: bot out: did not reply in time]\n")


def test_an_exit_is_named_with_its_status_or_signal():
    assert exited(3) == "exited with status 3"
    assert exited(-9) == "was killed by SIGKILL"
    assert exited(-24) == "was killed by SIGXCPU"
