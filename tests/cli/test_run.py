"""`drts run`, `drts worker`, `drts beat` command lines, and `drts match extend`."""

from __future__ import annotations

import socket
import sys

import pytest

from cli import run as run_cli
from tests.cli.test_match import created, drts  # noqa: F401  (the fixture)


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


def test_the_referee_extends_the_deadline_from_the_cli(drts):  # noqa: F811
    match_id, referee, alice, _ = created(drts)
    drts("start", match_id, "--referee-token", referee)
    out = drts("extend", match_id, "--seconds", "600", "--referee-token", referee).output
    assert out.startswith("deadline 20")
    refused = drts("extend", match_id, "--seconds", "60", "--referee-token", alice, ok=False)
    assert "not_referee" in refused.output
    events = drts("events", match_id).output
    assert '"reason":"referee"' in events


def test_drts_run_leaves_mail_out_when_its_port_is_taken():
    """The SMTP part is optional: a taken port turns it off (said on stderr) instead of
    failing and stopping the API with it."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        taken = holder.getsockname()[1]
        assert not run_cli.can_listen(taken)
    assert run_cli.can_listen(taken)
