"""The API under a real gunicorn (threaded workers) on a loopback port, for the tests that
need a production server and for the HTTP benchmark."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import urllib.error
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

from tests.support.http import call, free_port

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def gunicorn(
    database_url: str,
    workers: int = 1,
    threads: int = 4,
    settings: Mapping[str, str] | None = None,
    log_level: str = "warning",
    options: Sequence[str] = (),
    boot_seconds: float = 60,
    app: str = "api.wsgi:app",
    worker_class: str = "gthread",
) -> Iterator[str]:
    """Serves `app` (the API by default) on the database under gunicorn; yields its base URL
    and stops it afterwards. `settings` are DRTS_* variables for the server (no broker by
    default); `options` are more gunicorn options. Another `app` must answer GET /rulesets.
    `worker_class` "gevent" serves as the public streams' pool does (docs/operations.md).

    The server runs in a temporary working directory (the checkout on its Python path),
    so that what it writes by default (the maildir `drts-outbox` of confirmation mail)
    never lands in the checkout.

    Raises RuntimeError when gunicorn exits or does not answer within `boot_seconds`.
    """
    port = free_port()
    env = {
        **os.environ,
        "DRTS_DATABASE_URL": database_url,
        "DRTS_BROKER_URL": "",
        **(settings or {}),
    }
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "--workers",
        str(workers),
        "--worker-class",
        worker_class,
        *(["--threads", str(threads)] if worker_class == "gthread" else []),
        "--bind",
        f"127.0.0.1:{port}",
        "--log-level",
        log_level,
        "--pythonpath",
        str(ROOT),
        *options,
        app,
    ]
    with tempfile.TemporaryDirectory(prefix="drts-gunicorn-") as workdir:
        server = subprocess.Popen(command, env=env, cwd=workdir)
        try:
            base = f"http://127.0.0.1:{port}"
            wait_until_up(base, server, boot_seconds)
            yield base
        finally:
            server.terminate()
            server.wait(timeout=30)


def wait_until_up(base: str, server: subprocess.Popen[bytes], seconds: float = 60) -> None:
    """Returns once the server answers; raises RuntimeError if it exits or stays silent
    for `seconds`.

    A worker still importing the app (12 s and more on a loaded 2-core machine) holds an
    accepted connection unanswered: that timeout is waited out like a refused connection."""
    give_up = time.monotonic() + seconds
    while time.monotonic() < give_up:
        if server.poll() is not None:
            raise RuntimeError(f"gunicorn exited ({server.returncode})")
        try:
            call(base, "GET", "/rulesets")
            return
        except (urllib.error.URLError, TimeoutError):  # not listening, or still booting
            time.sleep(0.2)
    raise RuntimeError(f"gunicorn did not answer within {seconds:.0f} s")
