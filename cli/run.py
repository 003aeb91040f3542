"""`drts api`, `drts run`, `drts worker`, `drts beat`: the service's processes.

`drts run` is the embedded default: the API, and one Celery worker with its
beat embedded (`-B`, solo pool) on the SQLite broker `drts-broker.sqlite`,
over the SQLite event store `drts.sqlite`, all in the working directory
unless DRTS_DATABASE_URL / DRTS_BROKER_URL say otherwise. The parts are child
processes of this one, in its process group: Ctrl-C or SIGTERM stops them
all, and if one part dies the others are stopped too.

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
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from pathlib import Path

import click

from cli.store import prepare_store, reports_errors
from service.settings import (
    BROKER_URL_VARIABLE,
    DEFAULT_BROKER_URL,
    SettingsError,
    load_settings,
)

CELERY = [sys.executable, "-m", "celery", "-A", "workers.app"]
BEAT_SCHEDULE_FILE = "drts-beat-schedule"
STOP_SECONDS = 20.0


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


class Parts:
    """Child processes started and stopped together."""

    def __init__(self) -> None:
        self.children: dict[str, subprocess.Popen[bytes]] = {}
        self.stopping = False

    def start(self, name: str, command: list[str], env: dict[str, str]) -> None:
        click.echo(f"drts run: starting {name}: {' '.join(command[1:])}", err=True)
        self.children[name] = subprocess.Popen(command, env=env)

    def stop(self, *_: object) -> None:
        """Asks every living part to stop (SIGTERM: Celery's warm shutdown)."""
        self.stopping = True
        for child in self.children.values():
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)

    def wait(self) -> int:
        """Waits until a part exits or a stop is asked; stops the rest; returns the exit status."""
        while not self.stopping:  # the signal handler sets it
            exited = [
                (name, c.returncode) for name, c in self.children.items() if c.poll() is not None
            ]
            if exited:
                click.echo(f"drts run: {exited[0][0]} exited ({exited[0][1]}); stopping", err=True)
                self.stop()
                break
            time.sleep(0.2)
        give_up = time.monotonic() + STOP_SECONDS
        for child in self.children.values():
            try:
                child.wait(max(0.1, give_up - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()
        return 1 if exited_abnormally(self.children.values()) else 0


def exited_abnormally(children: Iterable[subprocess.Popen[bytes]]) -> bool:
    """Returns whether a part exited with an error (a stop by signal is normal)."""
    return any(c.returncode not in (0, -signal.SIGTERM, -signal.SIGINT) for c in children)


@click.command("run")
@click.option("--host", default="127.0.0.1", show_default=True, help="the API's address")
@click.option("--port", default=8000, show_default=True, type=int, help="the API's port")
@click.option("--loglevel", default="INFO", show_default=True, help="the worker's log level")
@reports_errors
def run(host: str, port: int, loglevel: str) -> None:
    """Starts the whole service: the API, one worker and its beat (stop with Ctrl-C)."""
    env = embedded_environment(dict(os.environ))
    prepare_store()
    parts = Parts()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, parts.stop)
    parts.start("worker", worker_command("solo", None, loglevel, beat=True), env)
    parts.start("api", api_command(host, port), env)
    click.echo(f"drts run: API on http://{host}:{port}/ (Ctrl-C stops everything)", err=True)
    sys.exit(parts.wait())


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
