"""`drts run` as a new user meets it (issue 39), with real processes and real sockets: a
port it needs that something else holds stops it at once, exit status 1, naming the
port and the option that moves it, before it starts a part or makes a file; and a
start prints where the pages and API are, where the data lives and how to stop, with
no warning that is not the user's business."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support.drts_run import ROOT
from tests.support.http import free_port

pytestmark = pytest.mark.timeout(120)


@contextmanager
def holding(port: int) -> Iterator[None]:
    """Holds 127.0.0.1:`port` as a server does (bound and listening) while in the block."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as holder:
        holder.bind(("127.0.0.1", port))
        holder.listen()
        yield


def drts_run(folder: Path, *args: str) -> subprocess.Popen[str]:
    """Starts `drts run ARGS` in `folder` (its store and broker there), output piped."""
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DRTS_DATABASE_URL", "DRTS_BROKER_URL", "DRTS_MAIL_PORT")
    }
    env.update(PYTHONPATH=str(ROOT))
    return subprocess.Popen(
        [sys.executable, "-m", "cli.main", "run", *args],
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )


def refused(folder: Path, *args: str) -> tuple[int, str, float]:
    """Runs `drts run ARGS` to its end; returns its status, its output and its seconds."""
    started = time.monotonic()
    run = drts_run(folder, *args)
    output, _ = run.communicate(timeout=60)
    return run.returncode, output, time.monotonic() - started


def test_a_taken_api_port_stops_drts_run_before_it_starts_anything(tmp_path):
    port = free_port()
    with holding(port):
        code, output, _ = refused(tmp_path, "--port", str(port), "--mail-port", str(free_port()))
    assert code == 1, output
    assert f"the API's port {port} on 127.0.0.1 is taken" in output
    assert "choose another port with --port" in output
    assert "started" not in output
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no store, broker or schedule


def test_a_taken_mail_port_stops_drts_run_naming_mail_port_and_no_mail(tmp_path):
    mail_port = free_port()
    with holding(mail_port):
        code, output, _ = refused(
            tmp_path, "--port", str(free_port()), "--mail-port", str(mail_port)
        )
    assert code == 1, output
    assert f"the mail port {mail_port} on 127.0.0.1 is taken" in output
    assert "--mail-port" in output and "--no-mail" in output
    assert "started" not in output
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_port_taken_by_a_running_drts_run_stops_the_second_one(tmp_path):
    """The case of a second `scripts/start`: the first holds both ports."""
    first_dir, second_dir = tmp_path / "first", tmp_path / "second"
    first_dir.mkdir()
    second_dir.mkdir()
    port, mail_port = free_port(), free_port()
    first = drts_run(first_dir, "--port", str(port), "--mail-port", str(mail_port))
    try:
        lines = read_until(first, "Ctrl-C stops everything", 90)
        code, output, seconds = refused(
            second_dir, "--port", str(port), "--mail-port", str(mail_port)
        )
        assert code == 1, output
        assert f"the API's port {port} on 127.0.0.1 is taken" in output
        assert seconds < 30  # at once, not after restarting the API three times
        assert "started" not in output
    finally:
        stop(first)
    assert first.returncode == 0, "".join(lines)


def test_no_mail_starts_drts_run_though_the_mail_port_is_taken(tmp_path):
    mail_port = free_port()
    with holding(mail_port):
        run = drts_run(
            tmp_path, "--port", str(free_port()), "--mail-port", str(mail_port), "--no-mail"
        )
        try:
            lines = read_until(run, "Ctrl-C stops everything", 90)
        finally:
            stop(run)
    assert run.returncode == 0, "".join(lines)
    assert not any("smtp://" in line for line in lines)
    assert not any(line.startswith("[drts run] started mail") for line in lines)


def test_a_first_start_names_the_url_the_sqlite_file_and_ctrl_c_and_warns_of_nothing(tmp_path):
    port, mail_port = free_port(), free_port()
    run = drts_run(tmp_path, "--port", str(port), "--mail-port", str(mail_port))
    try:
        lines = read_until(run, "Ctrl-C stops everything", 90)
    finally:
        stop(run)
    output = "".join(lines)
    assert f"pages and API on http://127.0.0.1:{port}/" in output
    assert f"orders by mail on smtp://127.0.0.1:{mail_port}" in output
    assert f"the SQLite file {tmp_path.resolve() / 'drts.sqlite'}" in output
    assert "Ctrl-C stops everything" in output
    assert [line for line in lines if "warning" in line.lower()] == []
    assert len(lines) <= 12, output  # what a user needs, and little else
    assert run.returncode == 0, output


def read_until(run: subprocess.Popen[str], wanted: str, seconds: float) -> list[str]:
    """Returns the output lines of `run` up to the first holding `wanted`."""
    assert run.stdout is not None
    lines: list[str] = []
    give_up = time.monotonic() + seconds
    while time.monotonic() < give_up:
        line = run.stdout.readline()
        if not line:
            pytest.fail(f"drts run ended ({run.wait()}) before {wanted!r}:\n{''.join(lines)}")
        lines.append(line)
        if wanted in line:
            return lines
    pytest.fail(f"no {wanted!r} after {seconds} s:\n{''.join(lines)}")


def stop(run: subprocess.Popen[str]) -> None:
    """Stops `drts run` as Ctrl-C does and waits for it."""
    run.send_signal(signal.SIGINT)
    try:
        run.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(run.pid, signal.SIGKILL)
        run.communicate()
