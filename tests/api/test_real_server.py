"""A smoke test through a real HTTP server on a loopback port (werkzeug, in a thread),
with nothing but urllib as the client."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from werkzeug.serving import make_server

from tests.support.http import call, free_port


@pytest.fixture
def base_url(app: Any) -> Iterator[str]:
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    thread.join(timeout=5)


def test_plays_a_district_war_match_over_real_http(base_url):
    status, new = call(
        base_url, "POST", "/matches", {"ruleset": "district_war", "config": {"troops": 2}}
    )
    assert status == 201
    match = f"/matches/{new['match_id']}"
    _, alice = call(base_url, "POST", f"{match}/seats", {"name": "alice"})
    _, bob = call(base_url, "POST", f"{match}/seats", {"name": "bob"})
    assert call(base_url, "POST", f"{match}/start", token=new["referee_token"])[0] == 200
    tokens = {1: alice["token"], 2: bob["token"]}
    for seat, order in [(2, "first 1"), (1, "e4"), (2, "b4"), (1, "g4"), (2, "g1")]:
        status, receipt = call(base_url, "POST", f"{match}/orders", {"order": order}, tokens[seat])
        assert status == 201 and len(receipt["digest"]) == 64
    assert call(base_url, "GET", f"{match}/scores")[1]["outcome"]["winners"] == [2]
    assert call(base_url, "GET", f"{match}/verify")[1]["ok"] is True
    status, error = call(base_url, "POST", f"{match}/orders", {"order": "a1"}, tokens[1])
    assert (status, error["code"]) == (409, "movement_closed")


def test_serves_the_openapi_document_and_the_docs_page(base_url):
    status, spec = call(base_url, "GET", "/openapi.json")
    assert status == 200 and "/matches/{match_id}/events" in spec["paths"]
    with urllib.request.urlopen(base_url + "/docs", timeout=10) as page:
        assert b"docs/assets/swagger-ui-bundle.js" in page.read()
    with urllib.request.urlopen(base_url + "/docs/assets/swagger-ui.css", timeout=10) as css:
        assert css.status == 200


STARTUP_SECONDS = 90  # imports and migrations; a loaded machine takes far longer than 10 s


def answered(base_url: str, path: str, seconds: float) -> tuple[int, Any]:
    """Returns the first answer to GET `path` once the server listens, asking again until
    `seconds` have passed (then fails, saying so)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            return call(base_url, "GET", path)
        except urllib.error.URLError:
            if time.monotonic() > deadline:
                raise AssertionError(f"`drts api` did not answer within {seconds} s") from None
            time.sleep(0.1)


def test_drts_api_serves_the_app_on_the_configured_store(tmp_path):
    port = free_port()
    env = {**os.environ, "DRTS_DATABASE_URL": f"sqlite:///{tmp_path}/drts.sqlite"}
    drts = Path(sys.executable).with_name("drts")
    server = subprocess.Popen(
        [str(drts), "api", "--port", str(port)],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        base_url = f"http://127.0.0.1:{port}"
        status, rulesets = answered(base_url, "/rulesets", STARTUP_SECONDS)
        assert status == 200 and "district_war" in {r["name"] for r in rulesets}
        assert call(base_url, "POST", "/matches", {"ruleset": "district_war"})[0] == 201
        assert (tmp_path / "drts.sqlite").exists()
    finally:
        server.terminate()
        server.wait(timeout=10)
