"""`drts status`: the service's health, as `GET /health` reports it (service/health.py).

It prints the same JSON report and exits 1 when the service is unhealthy, so that
a cron job or a monitoring agent can run it beside the API.
"""

from __future__ import annotations

import json
import sys

import click

from cli.store import matches, reports_errors
from service.health import health_report, is_healthy
from service.settings import load_settings


@click.command("status")
@reports_errors
def status() -> None:
    """Prints the service's health report (JSON, as GET /health); exits 1 when unhealthy."""
    service = matches()
    report = health_report(service.store, load_settings(), service.clock())
    click.echo(json.dumps(report, indent=2, sort_keys=True))
    sys.exit(0 if is_healthy(report) else 1)
