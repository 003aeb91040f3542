"""`drts api`, `drts run`, `drts worker`, `drts beat`: the service's processes.

`drts run` is the embedded default: the API, one Celery worker (solo pool)
and beat on the SQLite broker `drts-broker.sqlite`, over the SQLite event
store `drts.sqlite`, all in the working directory unless DRTS_DATABASE_URL /
DRTS_BROKER_URL say otherwise, and the SMTP server for orders by mail. Every
port it will bind (the API's, the mail server's) is checked first: a taken one
stops it at once, exit status 1, naming the port and the option that moves it,
before anything starts or any file is made. The parts are child processes of
this one, supervised (cli/supervise.py): the broker is asked first, beat starts
once the worker is ready, a part that exits or a sweep that stops succeeding is
restarted with a logged line, and a part that keeps failing stops everything
with exit status 1. Ctrl-C or SIGTERM stops them all.

A start prints what a user needs: the pages' and API's URL, the mail server's,
where the data lives, and how to stop. Worker and beat log at WARNING unless
`--loglevel` says otherwise, without Celery's banners (`celery -q`), and the
worker's warning that it runs as root is not shown: under `drts run` it runs as
the user who started it, like the API beside it, and accepts only JSON, so the
warning tells nothing to act on (`drts worker`, for production, still shows it).

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
from urllib.parse import urlsplit, urlunsplit

import click

from cli.store import prepare_store, reports_errors
from cli.supervise import Supervisor
from service.health import sweep_status
from service.matches import Matches, connect
from service.scheduling import NoScheduler
from service.settings import (
    BROKER_URL_VARIABLE,
    DEFAULT_BROKER_URL,
    Settings,
    SettingsError,
    load_settings,
    sqlite_path,
)

CELERY = [sys.executable, "-m", "celery", "-A", "workers.app"]
MAIL_PORT_VARIABLE = "DRTS_MAIL_PORT"
# Celery warns a worker running as root (celery/platforms.py, check_privileges); -W takes
# the start of the message, so no module is imported to name the warning's class
ROOT_WARNING_FILTER = "ignore:You're running the worker with superuser privileges"
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


def embedded_worker_command(loglevel: str) -> list[str]:
    """Returns `drts run`'s worker: solo pool, no banner, no warning that it runs as root."""
    subcommand = worker_command("solo", None, loglevel, beat=False)[len(CELERY) :]
    return [sys.executable, "-W", ROOT_WARNING_FILTER, *CELERY[1:], "-q", *subcommand]


def embedded_beat_command(loglevel: str) -> list[str]:
    """Returns `drts run`'s beat, without its banner (celery -q)."""
    return [*CELERY, "-q", *beat_command(loglevel)[len(CELERY) :]]


def api_command(host: str, port: int) -> list[str]:
    """Returns the command line of the API's werkzeug server (`python -m api`)."""
    return [sys.executable, "-m", "api", "--host", host, "--port", str(port)]


def mail_command() -> list[str]:
    """Returns the command line of the SMTP server for orders (`drts mail serve`)."""
    return [sys.executable, "-m", "cli", "mail", "serve"]


def embedded_environment(environ: dict[str, str], mail_port: int | None = None) -> dict[str, str]:
    """Returns the parts' environment: the broker made explicit, so commands send countdowns,
    and the mail port `--mail-port` gave (None: DRTS_MAIL_PORT's or the default)."""
    if mail_port is not None:
        environ = {**environ, MAIL_PORT_VARIABLE: str(mail_port)}
    try:
        load_settings(environ)
    except SettingsError as error:
        raise click.ClickException(str(error)) from None
    broker = environ.get(BROKER_URL_VARIABLE, "").strip()
    if not broker:
        broker = DEFAULT_BROKER_URL.replace("///", f"///{Path.cwd()}/", 1)
    return {**environ, BROKER_URL_VARIABLE: broker}


def check_ports(host: str, port: int, mail_port: int | None) -> None:
    """Raises ClickException naming the first port that `drts run` could not listen on,
    and the option that moves it (`mail_port` None: no mail server)."""
    if not can_listen(port, host):
        raise click.ClickException(
            f"the API's port {port} on {host} is taken (is drts already running?): "
            "stop what holds it, or choose another port with --port"
        )
    if mail_port is None:
        return
    if mail_port == port:
        raise click.ClickException(f"--port and --mail-port are both {port}: choose two ports")
    if not can_listen(mail_port):
        raise click.ClickException(
            f"the mail port {mail_port} on 127.0.0.1 is taken: stop what holds it, choose "
            "another port with --mail-port, or leave orders by mail out with --no-mail"
        )


def ready_lines(host: str, port: int, mail_port: int | None, settings: Settings) -> list[str]:
    """Returns what a start tells the user: where the pages, API and mail server are,
    where the data lives, how to stop."""
    base = f"http://{host}:{port}"
    lines = [f"pages and API on {base}/ (the API's interactive docs: {base}/docs)"]
    if mail_port is not None:
        lines.append(f"orders by mail on smtp://127.0.0.1:{mail_port}")
    lines.append(f"data: {data_location(settings)}")
    lines.append("Ctrl-C stops everything")
    return lines


def data_location(settings: Settings) -> str:
    """Returns where the matches are stored (an SQLite file's absolute path, or the
    PostgreSQL database without its password) and the broker."""
    if settings.backend == "sqlite":
        store = f"the SQLite file {sqlite_path(settings.database_url).resolve()}"
    else:
        store = f"PostgreSQL {without_password(settings.database_url)}"
    broker = settings.broker_url
    if broker.startswith("sqla+sqlite:///"):
        broker = str(Path(broker.removeprefix("sqla+sqlite:///")).resolve())
    return f"{store} (the broker: {without_password(broker)})"


def without_password(url: str) -> str:
    """Returns `url` with the password of its user part, if any, left out."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


@click.command("run")
@click.option("--host", default="127.0.0.1", show_default=True, help="the API's address")
@click.option("--port", default=8000, show_default=True, type=int, help="the API's port")
@click.option(
    "--mail-port",
    type=int,
    default=None,
    help="the SMTP server's port on 127.0.0.1  [default: DRTS_MAIL_PORT, or 2525]",
)
@click.option(
    "--loglevel",
    default="WARNING",
    show_default=True,
    help="the worker's and beat's log level (INFO: every task)",
)
@click.option(
    "--mail/--no-mail",
    default=True,
    show_default=True,
    help="the SMTP server for orders by mail (docs/mail.md)",
)
@reports_errors
def run(host: str, port: int, mail_port: int | None, loglevel: str, mail: bool) -> None:
    """Starts the whole service: the API, one worker, beat and the SMTP server for orders
    by mail, supervised (stop with Ctrl-C)."""
    env = embedded_environment(dict(os.environ), mail_port)
    settings = load_settings(env)
    served_mail_port = settings.mail_port if mail else None
    check_ports(host, port, served_mail_port)  # before any part starts or any file is made
    prepare_store()
    with connect(settings, scheduler=NoScheduler()) as matches:
        parts = {
            "worker": embedded_worker_command(loglevel),
            "beat": embedded_beat_command(loglevel),
            "api": api_command(host, port),
        }
        if mail:
            parts["mail"] = mail_command()
        supervisor = Supervisor(
            parts,
            env,
            settings.broker_url,
            lambda: last_sweep(matches),
            stale_seconds=max(MIN_STALE_SECONDS, STALE_SWEEPS * settings.sweep_seconds),
            api_address=(host, port),
            ready=ready_lines(host, port, served_mail_port, settings),
        )
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, supervisor.stop)
        code = supervisor.run()
    sys.exit(code)


def can_listen(port: int, host: str = "127.0.0.1") -> bool:
    """Returns whether a server may listen on `host`:`port` now (nothing else listens there).

    The probe binds as the servers do (SO_REUSEADDR, as werkzeug and asyncio set it), so a
    port a stopped server left in TIME_WAIT counts as free.
    """
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as error:
        raise click.ClickException(f"--host {host}: {error.strerror}") from None
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
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
