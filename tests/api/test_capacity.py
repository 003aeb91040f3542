"""Shared capacity (issue 15): rate limits per client address and per token, and the cap on
long polls waiting at once, each refusing with 429 and Retry-After in the one error shape."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from api.app import create_app
from api.capacity import LongPollGate, RateLimitedError, RateLimiter, TooManyLongPollsError
from service.settings import load_settings
from tests.api.conftest import HttpMatch, assert_error, bearer


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def app_with(service: Any, **config: Any) -> Any:
    return create_app({"TESTING": True, **config}, matches=service)


def test_a_bucket_allows_a_minutes_worth_at_once_then_refills_at_that_rate():
    clock = FakeClock()
    limiter = RateLimiter(60, "client address", clock)
    for _ in range(60):
        limiter.take("a")
    with pytest.raises(RateLimitedError, match="at most 60 a minute; retry in 1 s") as refused:
        limiter.take("a")
    assert refused.value.retry_after == 1
    limiter.take("b")  # another key has its own bucket
    clock.now += 1  # one request a second comes back
    limiter.take("a")
    with pytest.raises(RateLimitedError):
        limiter.take("a")


def test_a_slow_rate_says_how_long_to_wait():
    clock = FakeClock()
    limiter = RateLimiter(2, "token", clock)
    limiter.take("t")
    limiter.take("t")
    with pytest.raises(RateLimitedError) as refused:
        limiter.take("t")
    assert refused.value.retry_after == 30


def test_a_limit_of_zero_is_off():
    limiter = RateLimiter(0, "client address")
    for _ in range(10_000):
        limiter.take("a")


def test_the_longest_idle_keys_are_forgotten_beyond_the_most_kept():
    clock = FakeClock()
    limiter = RateLimiter(1, "token", clock, max_keys=3)
    for key in ("a", "b", "c"):
        limiter.take(key)
    limiter.take("d")  # "a" is forgotten: a fresh bucket
    limiter.take("a")
    with pytest.raises(RateLimitedError):
        limiter.take("d")  # kept: still empty
    assert len(limiter._buckets) == 3


def test_the_long_poll_gate_holds_at_most_its_limit():
    gate = LongPollGate(2)
    with gate.slot(), gate.slot():
        assert gate.waiting == 2
        with pytest.raises(TooManyLongPollsError, match="its 2 long poll"), gate.slot():
            pass
        assert gate.waiting == 2
    assert gate.waiting == 0
    with gate.slot():
        assert gate.waiting == 1


def test_requests_over_the_address_limit_get_429_with_retry_after(service):
    client = app_with(service, DRTS_RATE_LIMIT_PER_ADDRESS=3).test_client()
    for _ in range(3):
        assert client.get("/rulesets").status_code == 200
    response = client.get("/rulesets")
    body = assert_error(response, 429, "rate_limited")
    assert "client address" in body["message"]
    assert int(response.headers["Retry-After"]) >= 1
    other = client.get("/rulesets", environ_base={"REMOTE_ADDR": "192.0.2.7"})
    assert other.status_code == 200  # another address has its own bucket


def test_requests_over_the_token_limit_get_429_whatever_the_address(service):
    app = app_with(service, DRTS_RATE_LIMIT_PER_ADDRESS=0, DRTS_RATE_LIMIT_PER_TOKEN=4)
    client = app.test_client()
    table = HttpMatch(client)  # 1 create, 2 joins, 1 start with the referee token
    state = f"/matches/{table.id}/state"

    def look(token: str, address: str) -> Any:
        return client.get(state, headers=bearer(token), environ_base={"REMOTE_ADDR": address})

    for address in ("192.0.2.1", "192.0.2.2", "192.0.2.3", "192.0.2.4"):
        assert look(table.seats[0], address).status_code == 200
    refused = look(table.seats[0], "192.0.2.5")
    assert "token" in assert_error(refused, 429, "rate_limited")["message"]
    assert look(table.seats[1], "192.0.2.5").status_code == 200


def test_behind_trusted_proxies_the_forwarded_client_address_is_limited(service):
    client = app_with(service, DRTS_RATE_LIMIT_PER_ADDRESS=2, DRTS_TRUSTED_PROXIES=1).test_client()

    def from_client(address: str) -> Any:
        return client.get("/rulesets", headers={"X-Forwarded-For": address})

    for _ in range(2):
        assert from_client("198.51.100.1").status_code == 200
    assert_error(from_client("198.51.100.1"), 429, "rate_limited")
    assert from_client("198.51.100.2").status_code == 200


def test_without_trusted_proxies_x_forwarded_for_is_ignored(service):
    client = app_with(service, DRTS_RATE_LIMIT_PER_ADDRESS=2).test_client()
    for forwarded in ("198.51.100.1", "198.51.100.2"):
        assert client.get("/rulesets", headers={"X-Forwarded-For": forwarded}).status_code == 200
    refused = client.get("/rulesets", headers={"X-Forwarded-For": "198.51.100.3"})
    assert_error(refused, 429, "rate_limited")


def test_long_polls_beyond_the_cap_get_429_and_other_requests_go_on(service):
    app = app_with(service, DRTS_MAX_LONG_POLLS=1, DRTS_LONG_POLL_MAX_SECONDS=3)
    client = app.test_client()
    table = HttpMatch(client)
    head = client.get(f"/matches/{table.id}/events").get_json()["version"]
    waiting = threading.Thread(
        target=lambda: app.test_client().get(f"/matches/{table.id}/events?after={head}&wait=3")
    )
    waiting.start()
    give_up = time.monotonic() + 5
    while app.extensions["drts.capacity"].long_polls.waiting == 0:
        assert time.monotonic() < give_up
        time.sleep(0.01)
    refused = client.get(f"/matches/{table.id}/events?after={head}&wait=30")
    body = assert_error(refused, 429, "too_many_long_polls")
    assert refused.headers["Retry-After"] == "5" and "without `wait`" in body["message"]
    assert client.get(f"/matches/{table.id}/events?after={head}").status_code == 200  # no wait
    assert client.get("/matches").status_code == 200
    waiting.join(timeout=10)
    again = client.get(f"/matches/{table.id}/events?after={head}&wait=1")
    assert again.status_code == 200


def test_the_capacity_settings_come_from_the_environment():
    settings = load_settings(
        {
            "DRTS_LONG_POLL_MAX_SECONDS": "10",
            "DRTS_MAX_LONG_POLLS": "2",
            "DRTS_RATE_LIMIT_PER_ADDRESS": "0",
            "DRTS_RATE_LIMIT_PER_TOKEN": "30",
            "DRTS_TRUSTED_PROXIES": "1",
        }
    )
    assert (
        settings.long_poll_max_seconds,
        settings.max_long_polls,
        settings.rate_limit_per_address,
        settings.rate_limit_per_token,
        settings.trusted_proxies,
    ) == (10.0, 2, 0, 30, 1)
    defaults = load_settings({})
    assert (defaults.max_long_polls, defaults.rate_limit_per_address) == (4, 1200)
    assert (defaults.rate_limit_per_token, defaults.long_poll_max_seconds) == (600, 30.0)
