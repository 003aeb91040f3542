"""`drts run`, `drts worker`, `drts beat` command lines, `drts run`'s port checks and start
lines, and `drts match extend`."""

from __future__ import annotations

import socket
import sys

import pytest

from cli import run as run_cli
from service.settings import load_settings
from tests.support.cli import created
from tests.support.http import free_port


def test_a_worker_may_embed_beat_and_the_cli_never_imports_workers():
    command = run_cli.worker_command("solo", None, "INFO", beat=True)
    assert command[:5] == [sys.executable, "-m", "celery", "-A", "workers.app"]
    assert command[5:] == ["worker", "-P", "solo", "-l", "INFO", "-B", "-s", "drts-beat-schedule"]
    assert "workers" not in {
        name.split(".")[0] for name in vars(run_cli) if not name.startswith("_")
    }


def test_production_workers_pass_extra_arguments_to_celery():
    command = run_cli.worker_command("prefork", 4, "WARNING", beat=False, extra=["-n", "w1@%h"])
    assert command[5:] == ["worker", "-P", "prefork", "-l", "WARNING", "-c", "4", "-n", "w1@%h"]
    assert run_cli.beat_command("INFO")[5:] == ["beat", "-l", "INFO", "-s", "drts-beat-schedule"]


def test_drts_run_names_the_embedded_broker_so_that_the_api_sends_countdown_tasks(
    tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    env = run_cli.embedded_environment({})
    assert env["DRTS_BROKER_URL"] == f"sqla+sqlite:///{tmp_path}/drts-broker.sqlite"
    given = run_cli.embedded_environment({"DRTS_BROKER_URL": "redis://127.0.0.1:6379/0"})
    assert given["DRTS_BROKER_URL"] == "redis://127.0.0.1:6379/0"


def test_drts_run_refuses_bad_settings_before_starting_anything():
    with pytest.raises(run_cli.click.ClickException, match="DRTS_SWEEP_SECONDS"):
        run_cli.embedded_environment({"DRTS_SWEEP_SECONDS": "soon"})


def test_the_referee_extends_the_deadline_from_the_cli(drts):
    match_id, referee, alice, _ = created(drts)
    drts("start", match_id, "--referee-token", referee)
    out = drts("extend", match_id, "--seconds", "600", "--referee-token", referee).output
    assert out.startswith("deadline 20")
    refused = drts("extend", match_id, "--seconds", "60", "--referee-token", alice, ok=False)
    assert "not_referee" in refused.output
    events = drts("events", match_id).output
    assert '"reason":"referee"' in events


def test_the_port_probe_sees_a_listening_server_and_not_a_closed_one():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        taken = holder.getsockname()[1]
        assert not run_cli.can_listen(taken)
        with pytest.raises(run_cli.click.ClickException, match=f"mail port {taken} .*--no-mail"):
            run_cli.check_ports("127.0.0.1", free_port(), taken)
    assert run_cli.can_listen(taken)
    run_cli.check_ports("127.0.0.1", free_port(), None)  # no mail server: no mail port


def test_the_api_and_the_mail_server_cannot_share_a_port():
    port = free_port()
    with pytest.raises(run_cli.click.ClickException, match="--port and --mail-port are both"):
        run_cli.check_ports("127.0.0.1", port, port)


def test_mail_port_reaches_the_mail_part_and_a_bad_one_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert run_cli.embedded_environment({}, 2600)["DRTS_MAIL_PORT"] == "2600"
    assert "DRTS_MAIL_PORT" not in run_cli.embedded_environment({})
    with pytest.raises(run_cli.click.ClickException, match="DRTS_MAIL_PORT"):
        run_cli.embedded_environment({}, 70000)


def test_drts_runs_worker_and_beat_without_banners_and_its_worker_without_the_root_warning():
    worker = run_cli.embedded_worker_command("WARNING")
    assert worker[:3] == [sys.executable, "-W", run_cli.ROOT_WARNING_FILTER]
    assert worker[3:] == [
        *("-m", "celery", "-A", "workers.app", "-q"),
        *("worker", "-P", "solo", "-l", "WARNING"),
    ]
    beat = run_cli.embedded_beat_command("INFO")
    assert beat[1:] == [
        *("-m", "celery", "-A", "workers.app", "-q"),
        *("beat", "-l", "INFO", "-s", "drts-beat-schedule"),
    ]
    assert "-W" not in run_cli.worker_command("prefork", None, "INFO", beat=False)  # drts worker


def test_the_start_says_where_the_data_lives_without_a_password(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    embedded = load_settings(run_cli.embedded_environment({}))
    assert run_cli.data_location(embedded) == (
        f"the SQLite file {tmp_path.resolve()}/drts.sqlite "
        f"(the broker: {tmp_path.resolve()}/drts-broker.sqlite)"
    )
    production = load_settings(
        {
            "DRTS_DATABASE_URL": "postgresql://drts:s3cret@db:5432/drts",
            "DRTS_BROKER_URL": "redis://:hush@cache:6379/0",
        }
    )
    assert run_cli.data_location(production) == (
        "PostgreSQL postgresql://drts:***@db:5432/drts (the broker: redis://:***@cache:6379/0)"
    )
    lines = run_cli.ready_lines("127.0.0.1", 8000, None, embedded)
    assert lines[0].startswith("pages and API on http://127.0.0.1:8000/")
    assert lines[-1] == "Ctrl-C stops everything"
    assert not any("smtp" in line for line in lines)
