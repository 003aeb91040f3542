"""Brokers of a test's own, on free ports, that a test may kill and start again.

The shared Redis (6379) and RabbitMQ (5672) serve everyone's tests and are
never stopped; a test that must take its broker away starts one of these:

- `PrivateRedis`: `redis-server --port N --save '' --appendonly no`, a child
  process; every start is empty.
- `PrivateRabbit`: a RabbitMQ node of its own (`drts-test-N@localhost`),
  started with /usr/lib/rabbitmq/bin/rabbitmq-server (Debian's wrapper in
  /usr/sbin switches to the rabbitmq user and reads the shared node's
  settings), with its own config file (listener 127.0.0.1:N), no plugins (the
  shared node holds the management port), its own distribution port, Erlang
  cookie (HOME) and, at every start, a new database directory: it starts
  empty, like the Redis. It registers its name with the machine's epmd,
  which is how every Erlang node finds its peers; the shared node is not
  touched. It takes 10 to 20 s to start here.

`kill()` is SIGKILL (of the whole process group for RabbitMQ): the broker
dies as in a crash, its clients see their connections reset.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import IO

import pytest
from kombu.connection import Connection

from tests.conftest import in_ci
from tests.support.http import free_port

RABBITMQ_SERVER = "/usr/lib/rabbitmq/bin/rabbitmq-server"


class PrivateBroker:
    """A broker process of one test: start, kill, start again."""

    kind = ""
    start_timeout = 20.0

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self._log: IO[bytes] | None = None

    @property
    def url(self) -> str:
        """Returns the broker's URL for DRTS_BROKER_URL."""
        raise NotImplementedError

    def command(self) -> tuple[list[str], dict[str, str]]:
        """Returns the command line and environment of the next start."""
        raise NotImplementedError

    def start(self) -> None:
        """Starts the broker (empty) and waits until it takes connections."""
        self.starts += 1
        argv, env = self.command()
        self._log = (self.workdir / f"{self.kind}-{self.starts}.log").open("wb")
        self.process = subprocess.Popen(
            argv, env=env, stdout=self._log, stderr=subprocess.STDOUT, start_new_session=True
        )
        give_up = time.monotonic() + self.start_timeout
        while not self.answers():
            if self.process.poll() is not None or time.monotonic() > give_up:
                self.kill()
                pytest.fail(f"{self.kind} on port {self.port} did not start:\n{self.log()}")
            time.sleep(0.2)

    def answers(self) -> bool:
        """Returns whether a client can connect now."""
        connection = Connection(self.url, connect_timeout=2)
        try:
            connection.ensure_connection(max_retries=0)
        except Exception:  # any refusal or a handshake cut short: not yet
            return False
        finally:
            connection.release()
        return True

    def kill(self) -> None:
        """Kills the broker with SIGKILL (its whole process group) and reaps it."""
        process, self.process = self.process, None
        if process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        if self._log is not None:
            self._log.close()
            self._log = None

    stop = kill

    def log(self) -> str:
        """Returns what the last start wrote."""
        path = self.workdir / f"{self.kind}-{self.starts}.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""


class PrivateRedis(PrivateBroker):
    """redis-server on a free port, without persistence: each start is empty."""

    kind = "redis"

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def command(self) -> tuple[list[str], dict[str, str]]:
        argv = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        argv += ["--save", "", "--appendonly", "no", "--dir", str(self.workdir)]
        return argv, dict(os.environ)


class PrivateRabbit(PrivateBroker):
    """A RabbitMQ node of its own on a free port (see the module): each start is empty."""

    kind = "rabbitmq"
    start_timeout = 90.0

    def __init__(self, workdir: Path) -> None:
        super().__init__(workdir)
        self.dist_port = free_port()
        (workdir / "rabbitmq.conf").write_text(f"listeners.tcp.local = 127.0.0.1:{self.port}\n")
        (workdir / "enabled_plugins").write_text("[].\n")
        (workdir / "rabbitmq-env.conf").write_text("")
        (workdir / "home").mkdir(exist_ok=True)

    @property
    def url(self) -> str:
        return f"amqp://guest:guest@127.0.0.1:{self.port}//"

    def command(self) -> tuple[list[str], dict[str, str]]:
        base = self.workdir
        env = {key: value for key, value in os.environ.items() if not key.startswith("RABBITMQ")}
        env.update(
            HOME=str(base / "home"),  # its own Erlang cookie
            RABBITMQ_CONF_ENV_FILE=str(base / "rabbitmq-env.conf"),  # not the shared node's
            RABBITMQ_CONFIG_FILE=str(base / "rabbitmq"),  # rabbitmq.conf: the listener
            RABBITMQ_ENABLED_PLUGINS_FILE=str(base / "enabled_plugins"),
            RABBITMQ_NODENAME=f"drts-test-{self.port}@localhost",
            RABBITMQ_NODE_PORT=str(self.port),
            RABBITMQ_DIST_PORT=str(self.dist_port),
            RABBITMQ_MNESIA_BASE=str(base / f"mnesia-{self.starts}"),  # empty at each start
            RABBITMQ_LOG_BASE=str(base / "log"),
            ERL_EPMD_ADDRESS="127.0.0.1",
            ERL_FLAGS="-kernel inet_dist_use_interface {127,0,0,1}",
        )
        return [RABBITMQ_SERVER], env


BROKERS: dict[str, tuple[type[PrivateBroker], str, str]] = {
    "redis": (PrivateRedis, "redis-server", "Debian package redis-server"),
    "rabbitmq": (PrivateRabbit, RABBITMQ_SERVER, "Debian package rabbitmq-server"),
}


def private_broker(kind: str, workdir: Path) -> PrivateBroker:
    """Returns a private broker of `kind` (not started); skips, or fails in CI, when its
    server is not installed."""
    cls, program, package = BROKERS[kind]
    if shutil.which(program) is None:
        message = f"{program} not found: install the {package} to run this test"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)
    return cls(workdir)


def port_is_closed(port: int) -> bool:
    """Returns whether nothing takes connections on 127.0.0.1:`port`."""
    with socket.socket() as probe:
        probe.settimeout(1)
        return probe.connect_ex(("127.0.0.1", port)) != 0
