"""`drts db ...` and `drts projections ...`: the schema and the read models, for operators.

Both work on the database DRTS_DATABASE_URL names (docs/operations.md):
`drts db upgrade` migrates it (PostgreSQL is never migrated implicitly),
`drts db current` says where it stands; `drts projections rebuild` replays
the log into a projection from nothing, `catch-up` applies what it missed,
`status` shows how far each has got and the matches each leaves out (an
event of theirs failed to apply), `follow` keeps them up to date until
stopped.
"""

from __future__ import annotations

import signal
import threading

import click

from cli.store import matches, reports_errors
from domain.integrity import iso
from service import schema
from service.readmodels.runner import BATCH
from service.readmodels.tables import PROJECTION_NAMES
from service.settings import load_settings


@click.group()
def db() -> None:
    """The database schema: Alembic migrations (docs/operations.md)."""


@db.command("upgrade")
@click.option("--revision", default="head", show_default=True, help="the revision to reach")
@reports_errors
def db_upgrade(revision: str) -> None:
    """Migrates the database to the latest revision (or to --revision)."""
    settings = load_settings()
    before = schema.current(settings)
    schema.upgrade(settings, revision)
    click.echo(f"database at {schema.current(settings)} (was {before or 'empty'})")


@db.command("downgrade")
@click.argument("revision")
@reports_errors
def db_downgrade(revision: str) -> None:
    """Migrates the database down to REVISION (0001 keeps only the event store)."""
    settings = load_settings()
    try:
        schema.downgrade(settings, revision)
    except RuntimeError as error:  # 0001 refuses to drop the event store
        raise click.ClickException(str(error)) from None
    click.echo(f"database at {schema.current(settings)}")


@db.command("current")
@reports_errors
def db_current() -> None:
    """Prints the database's revision and whether it is the latest; exits 1 if not."""
    revision, head = schema.current(load_settings()), schema.head()
    if revision == head:
        click.echo(f"{revision} (latest)")
        return
    click.echo(f"{revision or 'empty (never migrated)'}; latest is {head}: run `drts db upgrade`")
    raise SystemExit(1)


@click.group()
def projections() -> None:
    """The read models: projections of the event log (docs/operations.md)."""


names_argument = click.argument("names", nargs=-1, type=click.Choice(PROJECTION_NAMES))


@projections.command("rebuild")
@names_argument
@reports_errors
def projections_rebuild(names: tuple[str, ...]) -> None:
    """Empties the named projections (all by default) and replays the whole log into them."""
    app = matches()
    for name in names or PROJECTION_NAMES:
        applied = app.read_models.rebuild(name)
        again = len(app.read_models.view(name).quarantined())
        click.echo(
            f"{name}: rebuilt from {applied} event(s)"
            + (f"; left out again: {again} match(es)" if again else "")
        )


@projections.command("catch-up")
@names_argument
@reports_errors
def projections_catch_up(names: tuple[str, ...]) -> None:
    """Applies the events the named projections (all by default) have not seen yet."""
    for name, count in matches().read_models.catch_up(names or None).items():
        click.echo(f"{name}: {count} new event(s)")


@projections.command("status")
@reports_errors
def projections_status() -> None:
    """Prints each projection's position in the log, how many events it has to apply, and
    the matches it leaves out since one of their events failed to apply."""
    models = matches().read_models
    left_out = 0
    for progress in models.progress():
        waiting = (
            f"{progress.pending}{'+' if progress.pending > BATCH else ''} event(s) to apply"
            if progress.pending
            else "up to date"
        )
        click.echo(f"{progress.name}: at {progress.position}, log at {progress.head}: {waiting}")
        for item in models.view(progress.name).quarantined():
            left_out += 1
            click.echo(
                f"  left out: match {item.match_id} ({item.event_type} at log position "
                f"{item.position}, {iso(item.quarantined_at)}): {item.error}"
            )
    if left_out:
        click.echo(
            f"{left_out} (projection, match) pair(s) left out: fix the cause, then "
            "`drts projections rebuild NAME` applies their events again"
        )


@projections.command("follow")
@click.option(
    "--interval",
    default=2.0,
    show_default=True,
    help="seconds between catch-ups on SQLite; on PostgreSQL, between tries for the lead",
)
@reports_errors
def projections_follow(interval: float) -> None:
    """Keeps the projections up to date until stopped (live on PostgreSQL, polling on
    SQLite).
    """
    app = matches()
    app.read_models.interval = interval
    stopped = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stopped.set())
    app.read_models.start()
    click.echo("following the log (Ctrl-C stops)", err=True)
    stopped.wait()
    app.read_models.stop()


def register(main: click.Group) -> None:
    """Adds `drts db` and `drts projections` to the drts command line."""
    main.add_command(db)
    main.add_command(projections)
