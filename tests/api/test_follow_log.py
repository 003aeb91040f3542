"""DRTS_FOLLOW_LOG=worker in the API (issue 46): the API process applies no event to the
read models in the background nor on an order's request path, and the client that sent
an acknowledged order still reads it at once, through the API's state and the seat page
(both read the match itself, not a read model), and a read of a read model (the
scoreboard, the match list) catches that read model up first. Real HTTP through the
Flask app; SQLite and PostgreSQL; the app connects its own Matches application, as
gunicorn's workers do (api/app.py, attach_store).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from flask import Flask

from api.app import create_app
from api.context import matches
from service.matches import Matches
from service.readmodels.runner import ALL_PROJECTIONS
from service.settings import Settings, SettingsError, load_settings
from tests.api.conftest import HttpMatch, bearer
from tests.support.pages import sign_in

FOLLOWER_WAIT = 2.5  # seconds: longer than the SQLite timer's interval (2 s)


def app_following(database_url: str, follow_log: str) -> Flask:
    """Returns the app connected to the database by itself, with DRTS_FOLLOW_LOG."""
    config = {
        "TESTING": True,
        "DRTS_DATABASE_URL": database_url,
        "DRTS_FOLLOW_LOG": follow_log,
        "DRTS_RATE_LIMIT_PER_ADDRESS": 0,
        "DRTS_RATE_LIMIT_PER_TOKEN": 0,
    }
    return create_app(config)


@pytest.fixture
def worker_app(database_url: str, toy_rulesets: None) -> Iterator[Flask]:
    app = app_following(database_url, "worker")
    yield app
    with app.app_context():
        matches().close()


@pytest.fixture
def observer(database_url: str) -> Iterator[Matches]:
    """Another process's view of the database (a Matches of its own), to read positions."""
    other = Matches(env=Settings(database_url).event_store_env())
    yield other
    other.close()


def positions(observer: Matches) -> dict[str, int]:
    """Returns each projection's tracked log position, as stored (no catch-up)."""
    models = observer.read_models
    return {
        cls.name: models.view(cls.name).position(observer.store.name) for cls in ALL_PROJECTIONS
    }


def api_of(app: Flask) -> Matches:
    with app.app_context():
        return matches()


def test_under_worker_the_api_applies_no_event_in_the_background_nor_for_an_order(
    worker_app, observer
):
    """No follower thread; orders (the last one closing and resolving the movement) move
    no projection, then or seconds later; a read of the scoreboard catches up."""
    client = worker_app.test_client()
    table = HttpMatch(client)
    assert api_of(worker_app).read_models._thread is None  # no follower, no timer
    before = positions(observer)
    assert table.order(1, "1").status_code == 201
    closing = table.order(2, "2")
    assert closing.status_code == 201 and closing.get_json()["closing"]["resolved"]
    time.sleep(FOLLOWER_WAIT)
    assert positions(observer) == before
    board = client.get(f"/matches/{table.id}/scoreboard").get_json()
    assert [movement["movement"] for movement in board["movements"]] == [1]
    assert positions(observer)["scoreboards"] > before["scoreboards"]


def test_under_worker_the_same_client_reads_its_acknowledged_order_at_once(worker_app):
    """The seat's next read of the match after the receipt shows the order: the state's
    own pending orders, the open movement's orders, the seat page, the match list."""
    client = worker_app.test_client()
    table = HttpMatch(client)
    receipt = table.order(1, "3").get_json()
    state = client.get(f"/matches/{table.id}/state", headers=bearer(table.seats[0])).get_json()
    assert [order["digest"] for order in state["orders"]] == [receipt["digest"]]
    pending = client.get(f"/matches/{table.id}/orders", headers=bearer(table.seats[0]))
    assert [order["digest"] for order in pending.get_json()["items"]] == [receipt["digest"]]
    listed = client.get("/matches?status=started").get_json()["items"]
    assert [item["match_id"] for item in listed] == [table.id]
    assert sign_in(client, SimpleNamespace(match_id=table.id), table.seats[0]).status_code == 303
    page = client.get(f"/ui/matches/{table.id}/seat").get_data(as_text=True)
    assert receipt["digest"] in page


def test_a_resolved_movement_shows_at_once_in_the_next_state_and_seat_page(worker_app):
    """The order that closes a movement: the next reads are of the movement it opened."""
    client = worker_app.test_client()
    table = HttpMatch(client)
    table.order(1, "1")
    assert table.order(2, "3").get_json()["closing"]["movement"] == 1
    state = client.get(f"/matches/{table.id}/state", headers=bearer(table.seats[1])).get_json()
    assert state["movement"] == 2 and state["orders"] == []
    summary: dict[str, Any] = client.get(f"/matches/{table.id}").get_json()
    assert summary["movement"] == 2
    sign_in(client, SimpleNamespace(match_id=table.id), table.seats[1])
    page = client.get(f"/ui/matches/{table.id}/seat").get_data(as_text=True)
    assert '<span id="movement">2</span>' in page


def test_under_api_the_app_follows_the_log_itself(database_url, toy_rulesets, observer):
    """DRTS_FOLLOW_LOG=api (SQLite's default): the app's follower applies the events of
    an order without any read asking for them."""
    app = app_following(database_url, "api")
    try:
        table = HttpMatch(app.test_client())
        before = positions(observer)["match_list"]
        table.order(1, "1")
        deadline = time.monotonic() + 10
        while positions(observer)["match_list"] == before and time.monotonic() < deadline:
            time.sleep(0.1)
        assert positions(observer)["match_list"] > before
    finally:
        api_of(app).close()


def test_the_setting_defaults_to_the_workers_on_postgresql_and_the_api_elsewhere():
    """Issue 46: on PostgreSQL the workers follow the log unless told otherwise (the API's
    CPU is the intake's); the embedded default, SQLite, keeps its API follower."""
    assert Settings("postgresql://u@h/db").log_follower == "worker"
    assert Settings("postgresql://u@h/db", follow_log="api").log_follower == "api"
    assert Settings("sqlite:///x.sqlite").log_follower == "api"
    assert Settings("memory://").log_follower == "api"
    assert Settings("sqlite:///x.sqlite", follow_log="worker").log_follower == "worker"


def test_the_setting_is_read_from_the_environment_and_refuses_other_values():
    assert load_settings({"DRTS_FOLLOW_LOG": " Worker "}).follow_log == "worker"
    assert load_settings({}).follow_log is None
    with pytest.raises(SettingsError, match="DRTS_FOLLOW_LOG='both'"):
        load_settings({"DRTS_FOLLOW_LOG": "both"})
