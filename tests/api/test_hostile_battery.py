"""A battery of hostile requests (tests/support/hostile.py) through gunicorn, on SQLite and on
PostgreSQL (issue 15): none answers 5xx, every error (4xx) is in the one error shape, and the
service still works for others afterwards: the listings answer, no read model left a match
out, and another match's deadline resolves. The figures are printed (`-s` shows them).

Besides the battery against live matches, District War's and DRTS Team 23's config
fields get each hostile value through gunicorn, and a match created so is filled and
started; every starting state and movement gets each too, on a match of its own. Every
config field of every registered ruleset version, every order form, referee action and
argument, and every forum and mail field is probed by the generated battery
(tests/api/test_generated_battery.py), whose coverage tests fail when one has no case.

gunicorn answers a request line over 4094 bytes itself, before the app (414, its own HTML
page, as docs/api.md says): those are counted apart, not held to the error shape.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from domain.rules.registry import get_ruleset
from service.matches import Matches, utc_now
from service.settings import Settings
from tests.api.schemathesis_hooks import shape_problem
from tests.support.gunicorn import gunicorn
from tests.support.hostile import Request, Target, battery, config_probes, send, start_bodies
from tests.support.http import call

GUNICORN_OWN = (414, 431)  # request line or headers too large: gunicorn's own page
SEATS = {"district_war": 2, "drts_team23": 8}
CONFIG_FIELDS = {name: [f.name for f in get_ruleset(name).info.config_fields] for name in SEATS}


@dataclass
class Tally:
    """Every answer of the run: statuses, errors outside the shape, gunicorn's own pages."""

    base: str
    statuses: Counter[int] = field(default_factory=Counter)
    unshaped: list[str] = field(default_factory=list)
    gunicorns: int = 0

    def send(self, request: Request) -> tuple[int, Any]:
        status, body = send(self.base, request)
        self.statuses[status] += 1
        if status in GUNICORN_OWN and not isinstance(body, dict):
            self.gunicorns += 1
        elif status >= 400 and (problem := shape_problem(status, body)):
            self.unshaped.append(f"{request.method} {request.path[:80]} -> {status}: {problem}")
        return status, body

    def open_match(self, ruleset: str, body: bytes | None = None) -> tuple[int, dict[str, Any]]:
        """Creates a match (with this create body) and fills its seats; returns the create's
        status and answer."""
        create = body or json.dumps({"ruleset": ruleset}).encode()
        status, new = self.send(Request("POST", "/matches", create))
        if status == 201:
            for n in range(1, SEATS[ruleset] + 1):
                join = json.dumps({"name": f"p{n}"}).encode()
                self.send(Request("POST", f"/matches/{new['match_id']}/seats", join))
        return status, new

    def start(self, new: dict[str, Any], body: bytes = b"{}") -> None:
        token = (("Authorization", f"Bearer {new['referee_token']}"),)
        self.send(Request("POST", f"/matches/{new['match_id']}/start", body, token))

    @property
    def tried(self) -> int:
        return sum(self.statuses.values())

    @property
    def server_errors(self) -> int:
        return sum(count for status, count in self.statuses.items() if status >= 500)


def started(base: str, ruleset: str, **create: object) -> Target:
    """Creates, fills and starts a match over HTTP; returns it with its first seat's token."""
    _, new = call(base, "POST", "/matches", {"ruleset": ruleset, **create})
    tokens = [
        call(base, "POST", f"/matches/{new['match_id']}/seats", {"name": f"p{n}"})[1]["token"]
        for n in range(1, SEATS[ruleset] + 1)
    ]
    status, body = call(
        base, "POST", f"/matches/{new['match_id']}/start", token=new["referee_token"]
    )
    assert status == 200, body
    return Target(new["match_id"], new["referee_token"], tokens[0])


def test_a_battery_of_hostile_requests_breaks_nothing(database_url):
    settings = {
        "DRTS_RATE_LIMIT_PER_ADDRESS": "0",  # one client, far faster than any player
        "DRTS_RATE_LIMIT_PER_TOKEN": "0",
        "DRTS_LONG_POLL_MAX_SECONDS": "0.2",
        "DRTS_STREAM_MAX_SECONDS": "0.2",
    }
    with gunicorn(database_url, workers=2, threads=4, settings=settings) as base:
        bystander = started(base, "district_war", deadline_seconds=60)
        tally = Tally(base)
        for request in battery([started(base, "district_war"), started(base, "drts_team23")]):
            tally.send(request)
        for ruleset, body in config_probes(CONFIG_FIELDS):
            status, new = tally.open_match(ruleset, body)
            if status == 201:
                tally.start(new)
        for ruleset in SEATS:
            for body in start_bodies():
                status, new = tally.open_match(ruleset)
                tally.start(new, body)
        print(
            f"\nhostile battery on {database_url.split(':')[0]}: {tally.tried} requests, "
            f"{tally.server_errors} 5xx, {len(tally.unshaped)} errors outside the shape, "
            f"{tally.gunicorns} answered by gunicorn itself; {dict(sorted(tally.statuses.items()))}"
        )
        assert tally.server_errors == 0, tally.statuses
        assert tally.unshaped == [], tally.unshaped[:10]
        assert tally.tried > 2000
        assert call(base, "GET", "/matches?limit=200")[0] == 200
        assert call(base, "GET", "/standings")[0] == 200
    app = Matches(env=Settings(database_url).event_store_env())
    try:
        app.read_models.catch_up()
        assert app.read_models.quarantined() == [] and app.read_models.quarantine_count() == 0
        closings = app.resolve_due(utc_now() + timedelta(hours=1))
        assert bystander.match_id in {str(closing.match_id) for closing in closings}
    finally:
        app.close()
