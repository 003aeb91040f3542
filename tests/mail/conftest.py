"""Real SMTP: `drts mail serve` in a subprocess, a real Celery worker on an SQLite broker,
and an aiosmtpd relay in the test capturing what drts sends (docs/mail.md).

Nothing here needs PostgreSQL or Redis: the store and the broker are SQLite files of
the test. One postal service per module (starting the processes takes seconds); each
test plays its own match.
"""

from __future__ import annotations

import contextlib
import email
import email.policy
import os
import signal
import smtplib
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path
from typing import Any, BinaryIO

import pytest
from aiosmtpd.controller import Controller

from service import schema
from service.channels.mail import addresses
from service.matches import Matches, connect
from service.results import NewMatch, NewSeat
from service.settings import Settings, load_settings

ROOT = Path(__file__).resolve().parents[2]
DOMAIN = "postal.test"
STARTUP_SECONDS = 180


def free_port() -> int:
    """Returns a loopback port free now (aiosmtpd's Controller cannot take port 0)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(condition: Callable[[], Any], timeout: float = 30, what: str = "") -> Any:
    """Returns the condition's first truthy value; fails after `timeout` seconds."""
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    pytest.fail(f"waited {timeout} s in vain for {what or condition}")


class Relay:
    """The relay drts sends through: captures every message it is given."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.lock = threading.Lock()
        self.defer = 0  # how many messages to refuse for now (451) before taking them
        self.deferred: list[EmailMessage] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        with self.lock:
            if self.defer:
                self.defer -= 1
                self.deferred.append(message)
                return "451 4.3.0 busy, try again later"
            self.messages.append(message)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        """Returns what was sent to an address so far."""
        with self.lock:
            return [m for m in self.messages if m["To"] == address]

    def answer_to(self, message_id: str, timeout: float = 30) -> EmailMessage:
        """Waits for the answer threaded under a message and returns it."""

        def found() -> EmailMessage | None:
            with self.lock:
                return next((m for m in self.messages if m["In-Reply-To"] == message_id), None)

        return wait_for(found, timeout, f"the answer to {message_id}")


@dataclass
class Postal:
    """The service of a test module: settings, the relay, the processes' logs."""

    env: dict[str, str]
    relay: Relay
    port: int
    logs: dict[str, BinaryIO] = field(default_factory=dict)

    @property
    def settings(self) -> Settings:
        return load_settings(self.env)

    def matches(self) -> Matches:
        return connect(self.settings)

    def new_match(self, ruleset: str = "b_chess", **options: Any) -> tuple[NewMatch, Matches]:
        service = self.matches()
        return service.create_match(ruleset, seats=2, **options), service

    def confirmed_seat(self, service: Matches, match: NewMatch, name: str, address: str) -> NewSeat:
        """Joins with a result address and confirms it by replying to the confirmation."""
        seat = service.join(match.match_id, name, result_address=address)
        confirmation = wait_for(lambda: self.relay.to(address), what="the confirmation")[0]
        reply = mail(address, confirmation["Reply-To"], "confirm", subject="Re: confirm")
        code, text = self.send(reply)
        assert (code, text) == (250, b"2.0.0 result address confirmed")
        return seat

    def send(self, message: EmailMessage | bytes, to: str | None = None) -> tuple[int, bytes]:
        """Sends a message to `drts mail serve`; returns the reply to its DATA."""
        raw = (
            message
            if isinstance(message, bytes)
            else message.as_bytes(policy=email.policy.SMTP)  # CRLF lines, as on the wire
        )
        recipient = to or (message["To"] if isinstance(message, EmailMessage) else "")
        with smtplib.SMTP("127.0.0.1", self.port, timeout=60) as smtp:
            smtp.ehlo()
            smtp.mail("player@players.test")
            code, text = smtp.rcpt(recipient)
            if code != 250:
                return code, text
            return smtp.data(raw)

    def log(self, name: str) -> str:
        self.logs[name].seek(0)
        return self.logs[name].read().decode(errors="replace")


def mail(
    sender: str,
    to: str,
    body: str,
    subject: str = "orders",
    charset: str = "utf-8",
    html: str | None = None,
) -> EmailMessage:
    """Returns a message as a player's client sends it (a fresh Message-ID)."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, subject
    message["Message-ID"] = make_msgid(domain="players.test")
    if html is None:
        message.set_content(body, charset=charset)
    else:
        message.set_content(html, subtype="html")
    return message


@contextlib.contextmanager
def process(command: list[str], env: dict[str, str], log: BinaryIO) -> Iterator[None]:
    """Runs a process for the block; SIGTERM, then kill, at the end."""
    child = subprocess.Popen(command, cwd=env["DRTS_TEST_DIR"], env=env, stdout=log, stderr=log)
    try:
        yield
    finally:
        child.send_signal(signal.SIGTERM)
        try:
            child.wait(20)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait(5)


def smtp_ready(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1):
        return True
    return False


@contextlib.contextmanager
def postal_service(directory: Path, relay: bool) -> Iterator[Postal]:
    """Starts the relay (if asked), `drts mail serve` and a worker on the test's files."""
    env = {
        **os.environ,
        "DRTS_TEST_DIR": str(directory),
        "DRTS_DATABASE_URL": f"sqlite:///{directory}/drts.sqlite",
        "DRTS_BROKER_URL": f"sqla+sqlite:///{directory}/broker.sqlite",
        "DRTS_MAIL_DOMAIN": DOMAIN,
        "DRTS_MAIL_PORT": str(free_port()),
        "DRTS_MAIL_OUTBOX": str(directory / "outbox"),
        "DRTS_MAIL_MAX_BYTES": str(1024 * 1024),
    }
    env.pop("DRTS_SMTP_URL", None)
    capture = Relay()
    controller = None
    if relay:
        relay_port = free_port()
        controller = Controller(capture, hostname="127.0.0.1", port=relay_port)
        controller.start()
        env["DRTS_SMTP_URL"] = f"smtp://127.0.0.1:{relay_port}"
    schema.upgrade(load_settings(env))
    postal = Postal(env, capture, int(env["DRTS_MAIL_PORT"]))
    postal.logs = {name: open(directory / f"{name}.log", "w+b") for name in ("mail", "worker")}  # noqa: SIM115
    server = [sys.executable, "-m", "cli", "mail", "serve"]
    worker = [sys.executable, "-m", "celery", "-A", "workers.app", "worker", "-P", "solo"]
    worker += ["-l", "INFO", "--without-gossip", "--without-mingle", "--without-heartbeat"]
    env["PYTHONPATH"] = str(ROOT)
    try:
        with process(server, env, postal.logs["mail"]), process(worker, env, postal.logs["worker"]):
            # starting takes seconds, or a minute on a loaded machine (imports alone)
            wait_for(lambda: smtp_ready(postal.port), STARTUP_SECONDS, "drts mail serve")
            wait_for(lambda: "ready." in postal.log("worker"), STARTUP_SECONDS, "the worker")
            yield postal
    finally:
        if controller is not None:
            controller.stop()
        for log in postal.logs.values():
            log.close()


@pytest.fixture(scope="module")
def postal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Postal]:
    """drts mail serve, a worker, and the relay of the test module."""
    with postal_service(tmp_path_factory.mktemp("postal"), relay=True) as service:
        yield service


def order_address_of(seat: NewSeat) -> str:
    assert seat.order_address is not None
    assert addresses.secret_of(seat.order_address, addresses.ORDERS, DOMAIN) is not None
    return seat.order_address
