"""The API on a test store: an app with an operator token, its client, and helpers."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api.app import create_app
from service.channels.mail.outbox import MaildirOutbox
from service.matches import Matches
from service.settings import Settings

OPERATOR = "operator-secret"
PLAYERS = ("ada", "bo", "cy", "di")  # the players of an HttpTournament


@pytest.fixture
def store_url(tmp_path: Any) -> str:
    return f"sqlite:///{tmp_path}/api.sqlite"


@pytest.fixture
def service(store_url: str, toy_rulesets: None, tmp_path: Any) -> Iterator[Matches]:
    """The one Matches application of the app under test (its mail in the test's maildir)."""
    app = Matches(env=Settings(store_url).event_store_env(), operator_token=OPERATOR)
    app.outbox = MaildirOutbox(f"{tmp_path}/outbox")
    yield app
    app.close()


@pytest.fixture
def app(service: Matches) -> Flask:
    # a stream read whole through the test client ends after half a second
    config = {"TESTING": True, "DRTS_LONG_POLL_MAX_SECONDS": 5, "DRTS_STREAM_MAX_SECONDS": 0.5}
    return create_app(config, matches=service)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def bearer(token: str | None) -> dict[str, str]:
    """Returns the Authorization header for a token (none for None)."""
    return {} if token is None else {"Authorization": f"Bearer {token}"}


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    """Asserts the one error shape with this status and code; returns the body."""
    body = response.get_json()
    assert response.status_code == status, body
    assert set(body) == {"code", "status", "message", "details"}, body
    assert (body["code"], body["status"]) == (code, status), body
    assert body["message"]
    return body


class HttpMatch:
    """A match played over HTTP: its id, referee token and seat tokens."""

    def __init__(
        self,
        client: FlaskClient,
        ruleset: str = "toy",
        names: tuple[str, ...] = ("alice", "bob"),
        start: bool = True,
        **create: Any,
    ) -> None:
        self.client = client
        body = client.post("/matches", json={"ruleset": ruleset, **create}).get_json()
        self.id, self.referee = body["match_id"], body["referee_token"]
        self.seats = [
            client.post(f"/matches/{self.id}/seats", json={"name": name}).get_json()["token"]
            for name in names
        ]
        if start:
            response = client.post(f"/matches/{self.id}/start", headers=bearer(self.referee))
            assert response.status_code == 200, response.get_json()

    def order(self, seat: int, order: Any, **extra: Any) -> Any:
        return self.client.post(
            f"/matches/{self.id}/orders",
            json={"order": order, **extra},
            headers=bearer(self.seats[seat - 1]),
        )


class HttpTournament:
    """A toy tournament made over HTTP (round robin unless told): its id, the organiser's
    token, its players' keys and ids, all registered."""

    def __init__(
        self, client: FlaskClient, names: tuple[str, ...] = PLAYERS, **create: Any
    ) -> None:
        self.client = client
        body = {"name": "Cup", "format": "round_robin", "ruleset": "toy", **create}
        made = client.post("/tournaments", json=body).get_json()
        self.id, self.token = made["tournament_id"], made["organiser_token"]
        self.keys: dict[str, str] = {}
        self.ids: dict[str, str] = {}
        for name in names:
            player = client.post("/players", json={"name": name}).get_json()
            self.keys[name], self.ids[name] = player["key"], player["player_id"]
            joined = client.post(
                f"/tournaments/{self.id}/players",
                json={"player": name},
                headers=bearer(player["key"]),
            )
            assert joined.status_code == 201, joined.get_json()

    def act(self, what: str, token: str | None = "organiser", **body: Any) -> Any:
        """POSTs an act (`withdrawal:NAME`, `pause`, `resume`, `pair`) with a token."""
        token = self.token if token == "organiser" else token
        path = what if ":" not in what else f"players/{what.partition(':')[2]}/withdrawal"
        return self.client.post(
            f"/tournaments/{self.id}/{path}", json=body or None, headers=bearer(token)
        )

    def shown(self) -> dict[str, Any]:
        """Returns the tournament as GET shows it."""
        return self.client.get(f"/tournaments/{self.id}").get_json()

    def play_round(self) -> None:
        """Finishes each match of the latest round: the operator forfeits its second seat."""
        for links in self.shown()["rounds"][-1]["links"]:
            forfeit = {"action": "forfeit", "args": {"seat": 2}, "reason": "test"}
            acted = self.client.post(
                f"/matches/{links[-1]}/actions", json=forfeit, headers=bearer(OPERATOR)
            )
            assert acted.status_code == 201, acted.get_json()
