"""`drts api`, `drts run`, `drts worker`, `drts beat`: the service's processes.

`drts run` is the embedded default: the API, one Celery worker (solo pool)
and beat on the SQLite broker `drts-broker.sqlite`, over the SQLite event
store `drts.sqlite`, all in the working directory unless DRTS_DATABASE_URL /
DRTS_BROKER_URL say otherwise. The parts are child processes of this one,
supervised (cli/supervise.py): the broker is asked first, beat starts once
the worker is ready, a part that exits or a sweep that stops succeeding is
restarted with a logged line, and a part that keeps failing stops everything
with exit status 1. Ctrl-C or SIGTERM stops them all.

`drts api`, `drts worker` and `drts beat` run the parts separately for
production (docs/operations.md). Each first makes the store ready
(`cli.store.prepare_store`: a PostgreSQL database behind the code is refused
in one line), then starts its part by module name (`python -m api`, `python
-m celery -A workers.app ...`), so that the CLI never imports the other edges
(docs/architecture.md: the edges api, workers and cli never import each other).
"""

from __future__ import annotations

import os
import signal
import socket
import sys
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

import click

from cli.store import prepare_store, reports_errors
from cli.supervise import Supervisor
from service.health import sweep_status
from service.matches import Matches, connect
from service.scheduling import NoScheduler
from service.settings import (
    BROKER_URL_VARIABLE,
    DEFAULT_BROKER_URL,
    SettingsError,
    load_settings,
)

CELERY = [sys.executable, "-m", "celery", "-A", "workers.app"]
BEAT_SCHEDULE_FILE = "drts-beat-schedule"
MIN_STALE_SECONDS, STALE_SWEEPS = 10.0, 5  # no sweep for this long: restart worker and beat


def worker_command(
    pool: str, concurrency: int | None, loglevel: str, beat: bool, extra: Sequence[str] = ()
) -> list[str]:
    """Returns the command line of a Celery worker for drts's tasks."""
    command = [*CELERY, "worker", "-P", pool, "-l", loglevel]
    if concurrency:
        command += ["-c", str(concurrency)]
    if beat:
        command += ["-B", "-s", BEAT_SCHEDULE_FILE]
    return [*command, *extra]


def beat_command(loglevel: str, extra: Sequence[str] = ()) -> list[str]:
    """Returns the command line of Celery beat sending drts's sweep."""
    return [*CELERY, "beat", "-l", loglevel, "-s", BEAT_SCHEDULE_FILE, *extra]


def api_command(host: str, port: int) -> list[str]:
    """Returns the command line of the API's werkzeug server (`python -m api`)."""
    return [sys.executable, "-m", "api", "--host", host, "--port", str(port)]


def mail_command() -> list[str]:
    """Returns the command line of the SMTP server for orders (`drts mail serve`)."""
    return [sys.executable, "-m", "cli", "mail", "serve"]


def embedded_environment(environ: dict[str, str]) -> dict[str, str]:
    """Returns the parts' environment: the broker made explicit, so commands send countdowns."""
    try:
        load_settings(environ)
    except SettingsError as error:
        raise click.ClickException(str(error)) from None
    broker = environ.get(BROKER_URL_VARIABLE, "").strip()
    if not broker:
        broker = DEFAULT_BROKER_URL.replace("///", f"///{Path.cwd()}/", 1)
    return {**environ, BROKER_URL_VARIABLE: broker}


@click.command("run")
@click.option("--host", default="127.0.0.1", show_default=True, help="the API's address")
@click.option("--port", default=8000, show_default=True, type=int, help="the API's port")
@click.option("--loglevel", default="INFO", show_default=True, help="the worker's log level")
@click.option(
    "--mail/--no-mail",
    default=True,
    show_default=True,
    help="the SMTP server for orders by mail, on 127.0.0.1:DRTS_MAIL_PORT (docs/mail.md)",
)
@reports_errors
def run(host: str, port: int, loglevel: str, mail: bool) -> None:
    """Starts the whole service: the API, one worker, beat and the SMTP server for orders
    by mail, supervised (stop with Ctrl-C)."""
    env = embedded_environment(dict(os.environ))
    prepare_store()
    settings = load_settings(env)
    with connect(settings, scheduler=NoScheduler()) as matches:
        parts = {
            "worker": worker_command("solo", None, loglevel, beat=False),
            "beat": beat_command(loglevel),
            "api": api_command(host, port),
        }
        if mail and not can_listen(settings.mail_port):  # optional: never stops the rest
            click.echo(
                f"drts run: 127.0.0.1:{settings.mail_port} is taken: orders by mail are off "
                "(set DRTS_MAIL_PORT to a free port, or pass --no-mail)",
                err=True,
            )
            mail = False
        if mail:
            parts["mail"] = mail_command()
        supervisor = Supervisor(
            parts,
            env,
            settings.broker_url,
            lambda: last_sweep(matches),
            stale_seconds=max(MIN_STALE_SECONDS, STALE_SWEEPS * settings.sweep_seconds),
        )
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, supervisor.stop)
        supervisor.say(f"API on http://{host}:{port}/ (Ctrl-C stops everything)")
        if mail:
            supervisor.say(f"orders by mail on smtp://127.0.0.1:{settings.mail_port}")
        code = supervisor.run()
    sys.exit(code)


def can_listen(port: int) -> bool:
    """Returns whether a server may listen on 127.0.0.1:`port` now (nothing else holds it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def last_sweep(matches: Matches) -> tuple[datetime | None, datetime | None, int]:
    """Returns when the sweep last succeeded and failed (None if never) and its failures
    in a row."""
    status = sweep_status(matches.read_models)
    return status["last_success_at"], status["last_failure_at"], int(status["failures_in_row"])


@click.command("worker", context_settings={"ignore_unknown_options": True})
@click.option(
    "--pool",
    "-P",
    default="prefork",
    show_default=True,
    type=click.Choice(["prefork", "solo", "threads"]),
)
@click.option(
    "--concurrency",
    "-c",
    type=int,
    default=None,
    help="processes or threads (default: one per CPU)",
)
@click.option("--loglevel", "-l", default="INFO", show_default=True)
@click.option("--beat", "-B", is_flag=True, help="embed beat (one worker only)")
@click.argument("celery_args", nargs=-1, type=click.UNPROCESSED)
@reports_errors
def worker(
    pool: str, concurrency: int | None, loglevel: str, beat: bool, celery_args: tuple[str, ...]
) -> None:
    """Runs a Celery worker for the deadline tasks (extra arguments go to celery worker)."""
    prepare_store()
    command = worker_command(pool, concurrency, loglevel, beat, celery_args)
    os.execv(command[0], command)


@click.command("beat", context_settings={"ignore_unknown_options": True})
@click.option("--loglevel", "-l", default="INFO", show_default=True)
@click.argument("celery_args", nargs=-1, type=click.UNPROCESSED)
@reports_errors
def beat(loglevel: str, celery_args: tuple[str, ...]) -> None:
    """Runs Celery beat: the sweep for due movements (exactly one beat per deployment)."""
    prepare_store()
    command = beat_command(loglevel, celery_args)
    os.execv(command[0], command)


@click.command("api")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@reports_errors
def api(host: str, port: int) -> None:
    """Serves the HTTP API (werkzeug, threaded); production: gunicorn api.wsgi:app."""
    prepare_store()
    command = api_command(host, port)
    os.execv(command[0], command)
