"""How the `drts` commands report a caller's mistake: one line, exit status 1."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import click

from domain.errors import DrtsError
from service.readmodels.runner import UnknownProjectionError
from service.settings import SettingsError

P = ParamSpec("P")
R = TypeVar("R")


def reports_errors(command: Callable[P, R]) -> Callable[P, R]:
    """Returns the command turning drts, settings and projection-name errors into the
    one-line message `code: message` and exit status 1 (click.ClickException).
    """

    @functools.wraps(command)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        except (DrtsError, SettingsError, UnknownProjectionError) as error:
            raise click.ClickException(f"{error.code}: {error}") from None

    return wrapper
