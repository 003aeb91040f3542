"""`drts mail serve` (the SMTP server taking orders by mail), `drts mail dead-letters`,
`drts mail send-notices` (one pass of the outbox), a seat's `drts match result-address` and
`drts match confirm-address`, and the referee's `drts match referee-address`.

docs/mail.md tells how a referee runs a postal game; `drts run` starts `drts mail serve`
as one of its parts (off with --no-mail).
"""

from __future__ import annotations

import json
import logging
import signal
import threading
from typing import Any

import click

from cli.store import matches, prepare_store, reports_errors
from service.channels.mail.desk import MailDesk, dead_letters
from service.channels.mail.notices import NoticeSender
from service.channels.mail.outbox import transport_for
from service.channels.mail.server import HOST, OrdersController
from service.settings import load_settings


@click.group("mail")
def mail() -> None:
    """Play by e-mail: the SMTP server for orders, and the mail it could not read."""


@mail.command("serve")
@click.option("--port", type=int, default=None, help="the port on 127.0.0.1 [DRTS_MAIL_PORT]")
@reports_errors
def serve(port: int | None) -> None:
    """Runs the SMTP server taking the seats' orders by mail (stop with Ctrl-C or SIGTERM)."""
    prepare_store()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s")
    logging.getLogger("alembic").setLevel(logging.WARNING)  # the store check's own INFO lines
    settings = load_settings()
    desk = MailDesk(matches(), settings.mail_max_bytes)
    port = port or settings.mail_port
    controller = OrdersController(desk, port, settings.mail_max_bytes)
    stop = threading.Event()
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, lambda *_: stop.set())
    try:
        controller.start()
    except OSError as error:
        raise click.ClickException(f"cannot listen on {HOST}:{port}: {error}") from None
    click.echo(f"mail: taking orders for @{settings.mail_domain} on smtp://{HOST}:{port}", err=True)
    try:
        stop.wait()
    finally:
        controller.stop()


@mail.command("dead-letters")
@reports_errors
def list_dead_letters() -> None:
    """Lists the messages that could not be read at all (JSON lines, oldest first)."""
    for letter in dead_letters(matches()):
        click.echo(json.dumps(_jsonable(letter), sort_keys=True))


@click.command("result-address")
@click.argument("match_id")
@click.argument("address")
@click.option("--token", envvar="DRTS_SEAT_TOKEN", required=True, help="the seat's token")
@reports_errors
def result_address(match_id: str, address: str, token: str) -> None:
    """Registers ADDRESS for the answers to the token's seat; a code is mailed to it."""
    kept = matches().register_result_address(match_id, token, address)
    click.echo(f"result address {kept}: confirm it with the code mailed there")


@click.command("confirm-address")
@click.argument("match_id")
@click.argument("code")
@click.option("--token", envvar="DRTS_SEAT_TOKEN", required=True, help="the seat's token")
@reports_errors
def confirm(match_id: str, code: str, token: str) -> None:
    """Confirms the token's seat's result address with the CODE mailed to it."""
    click.echo(
        f"result address {matches().confirm_result_address(match_id, token, code)} confirmed"
    )


@mail.command("send-notices")
@reports_errors
def send_notices() -> None:
    """Sends the results, reminders and dispute notices due now, once (the worker does it
    on beat's schedule; this is one pass by hand)."""
    settings = load_settings()
    sender = NoticeSender(matches(), transport_for(settings), settings.mail_reminder_seconds)
    done = sender.run()
    click.echo(f"notices: {done.sent} sent, {done.deferred} deferred, {done.failed} refused")


@click.command("referee-address")
@click.argument("match_id")
@click.argument("address")
@click.option(
    "--referee-token", "token", envvar="DRTS_REFEREE_TOKEN", required=True, help="its token"
)
@reports_errors
def referee_address(match_id: str, address: str, token: str) -> None:
    """Registers ADDRESS for every result and dispute notice of the match, for the referee;
    a code is mailed to it (reply to that mail to confirm it)."""
    kept = matches().register_referee_address(match_id, token, address)
    click.echo(f"referee address {kept}: confirm it by replying to the mail sent there")


@click.command("confirm-referee-address")
@click.argument("match_id")
@click.argument("code")
@click.option(
    "--referee-token", "token", envvar="DRTS_REFEREE_TOKEN", required=True, help="its token"
)
@reports_errors
def confirm_referee(match_id: str, code: str, token: str) -> None:
    """Confirms the referee's address with the CODE mailed to it (as replying to that mail
    does)."""
    confirmed = matches().confirm_referee_address(match_id, token, code)
    click.echo(f"referee address {confirmed} confirmed")


def _jsonable(row: dict[str, Any]) -> dict[str, Any]:
    return {
        key: value if isinstance(value, str | int | None) else str(value)
        for key, value in row.items()
    }


def register(main: click.Group, match: click.Group) -> None:
    """Adds `drts mail`, `drts match result-address` and `confirm-address` (a seat's
    commands, beside the others taking its token) and `drts match referee-address`."""
    main.add_command(mail)
    match.add_command(result_address)
    match.add_command(confirm)
    match.add_command(referee_address)
    match.add_command(confirm_referee)
