"""A `drts run` process spoken to over HTTP, and waiting on it while showing what it said."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


class Http:
    def __init__(self, port: int, log: Path) -> None:
        self.base, self.log = f"http://127.0.0.1:{port}", log

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data, headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as error:
            if error.code >= 500:  # a bug: show what the server said
                pytest.fail(
                    f"{method} {path}: {error.code} {error.read()!r}; drts run said:\n"
                    f"{self.log.read_text()[-6000:]}"
                )
            raise

    def call_any(self, method: str, path: str) -> Any:
        """Returns the JSON body whatever the status (GET /health answers 503 with it)."""
        request = urllib.request.Request(self.base + path, method=method)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return json.loads(response.read())
        except urllib.error.HTTPError as error:
            return json.loads(error.read())

    def events(self, match_id: str) -> list[dict[str, Any]]:
        return list(self.call("GET", f"/matches/{match_id}/events?limit=500")["items"])


def wait_for(condition: Any, timeout: float, what: str, log: Path) -> Any:
    give_up = time.monotonic() + timeout
    while time.monotonic() < give_up:
        try:
            value = condition()
        except (urllib.error.URLError, ConnectionError):
            value = None
        if value:
            return value
        time.sleep(0.2)
    pytest.fail(f"{what}: nothing after {timeout} s; drts run said:\n{log.read_text()[-4000:]}")
