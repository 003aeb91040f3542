"""A plain HTTP client for the API (urllib only), shared by the tests that run a real
server and by the HTTP benchmark.
"""

from __future__ import annotations

import json
import socket
import urllib.error
import urllib.request
from typing import Any


def call(
    base: str,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = None,
    timeout: float = 10,
) -> tuple[int, Any]:
    """Sends `body` as JSON (with the bearer `token` if given); returns the status and the
    decoded JSON answer, errors included.

    Raises urllib.error.URLError when the server cannot be reached.
    """
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token is not None:
        request.add_header("Authorization", f"Bearer {token}")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def free_port() -> int:
    """Returns a loopback TCP port that was free a moment ago."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
