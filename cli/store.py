"""How `drts` commands reach the store and report what goes wrong: the one place for both.

A command that uses the store either opens the Matches application with
`matches()` (closed when the command ends) or, when it starts a long-running
process (`drts api`, `worker`, `beat`, `run`), calls `prepare_store()` first,
so that a PostgreSQL database behind the code is refused in one line before
anything starts. `reports_errors` turns the service's errors (a drts error,
such as `schema_out_of_date`, a bad setting, an unknown projection) into that
one line, `<code>: <message>`, and exit status 1, instead of a traceback.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import click

from domain.errors import DrtsError
from service import schema
from service.matches import Matches, connect
from service.readmodels.runner import UnknownProjectionError
from service.settings import SettingsError, load_settings

F = TypeVar("F", bound=Callable[..., Any])
REPORTED = (DrtsError, SettingsError, UnknownProjectionError)


def reports_errors(command: F) -> F:
    """Turns drts, settings and projection errors into a one-line message and exit status 1."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except REPORTED as error:
            raise click.ClickException(f"{error.code}: {error}") from None

    return wrapper  # type: ignore[return-value]


def matches() -> Matches:
    """Returns the application on the configured store for this command (closed when the
    command ends; one per command however often it is asked for).
    """
    context = click.get_current_context()
    app = context.meta.get("drts.matches")
    if app is None:
        app = context.meta["drts.matches"] = connect()
        context.call_on_close(app.close)
    return app


def prepare_store() -> None:
    """Makes the configured store ready for a process about to start: upgrades the
    embedded SQLite file; raises SchemaOutOfDateError for a PostgreSQL database that
    is not at the code's revision (run `drts db upgrade`).
    """
    schema.prepare(load_settings())
