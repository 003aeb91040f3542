"""The pages under test: the app on a SQLite store with a hand-driven clock, served by a
real werkzeug server on a loopback port, and Debian's chromium driven by Playwright.

Playwright's own browser download does not work here: the tests launch the
`chromium` on PATH (Debian's package, which .ci/run installs). Without it they skip
saying what to install, except in CI (CI=true), where they fail. Screenshots go to
the test's tmp dir, and also to $DRTS_SCREENSHOTS (or $DRTS_PAGES_SHOTS) when set.
"""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from werkzeug.serving import make_server

from api.app import create_app
from service.clock import ManualClock
from service.matches import Matches
from service.settings import Settings
from tests.conftest import in_ci

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
CHROMIUM_HINT = (
    "Debian's chromium is not installed: `apt-get install -y chromium` (the browser tests "
    "drive it with Playwright, whose own browser download does not work here)"
)
LONG_POLL_SECONDS = 5


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Matches]:
    """The one Matches application of the served app, on its own clock (2030-01-01)."""
    store = tmp_path_factory.mktemp("pages") / "pages.sqlite"
    app = Matches(env=Settings(f"sqlite:///{store}").event_store_env(), clock=ManualClock())
    yield app
    app.close()


def pages_app(service: Matches, long_polls: int, streams: int = 1000) -> Flask:
    """Returns the app on `service` letting `long_polls` long polls wait at once, and
    `streams` live streams be open (a closed tab's stream ends at its next heartbeat)."""
    config = {
        "TESTING": True,
        "DRTS_LONG_POLL_MAX_SECONDS": LONG_POLL_SECONDS,
        "DRTS_MAX_LONG_POLLS": long_polls,
        "DRTS_MAX_STREAMS": streams,
        "DRTS_MAX_STREAMS_PER_ADDRESS": 0,
        "DRTS_STREAM_HEARTBEAT_SECONDS": 1,
        "DRTS_STREAM_MAX_SECONDS": 30,
    }
    return create_app(config, matches=service)


@contextmanager
def serving(app: Flask) -> Iterator[str]:
    """Serves the app on a free loopback port (werkzeug, in a thread); yields its URL."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(timeout=LONG_POLL_SECONDS + 5)


@pytest.fixture(scope="module")
def base_url(service: Matches) -> Iterator[str]:
    """The app served on a loopback port; room for every test's long polls (a closed
    page's poll waits on, up to LONG_POLL_SECONDS)."""
    with serving(pages_app(service, long_polls=50)) as url:
        yield url


def chromium_executable() -> str:
    """Returns the path of Debian's chromium; skips the test without it (fails in CI)."""
    executable = shutil.which("chromium")
    if executable is None:
        if in_ci():
            pytest.fail(CHROMIUM_HINT)
        pytest.skip(CHROMIUM_HINT)
    return executable


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """Debian's chromium, launched headless by Playwright for the module's tests."""
    executable = chromium_executable()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def tab(chromium: Any) -> Iterator[Any]:
    """A fresh page (its own context: no cookies or cache shared) in a desktop window."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    yield context.new_page()
    context.close()


@pytest.fixture
def shoot(tmp_path: Path) -> Any:
    """Returns a function saving a screenshot of a page under the test's tmp dir (and
    in $DRTS_SCREENSHOTS or $DRTS_PAGES_SHOTS when set); returns its path."""
    folder = tmp_path / "screenshots"
    folder.mkdir()

    def screenshot(page: Any, name: str, full_page: bool = True) -> Path:
        path = folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        assert path.stat().st_size > 1000, f"the screenshot {name} is empty"
        shots = os.environ.get("DRTS_SCREENSHOTS") or os.environ.get("DRTS_PAGES_SHOTS")
        if shots:
            Path(shots).mkdir(parents=True, exist_ok=True)
            shutil.copy(path, Path(shots) / path.name)
        return path

    return screenshot
