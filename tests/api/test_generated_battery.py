"""The generated hostile battery (issue 41; its cases: tests/support/generated_battery.py),
through the Flask app on SQLite and on PostgreSQL: every config field of every registered
ruleset version, its order forms, every referee action and argument, every forum field,
every mail field, and every field of every JSON body the API takes (its OpenAPI
document), each given each hostile value.

Expected of each: never a 5xx; an error (4xx) in the one error shape, naming the field
for a schema's or a limit's refusal (validation_error; 413 for a body over the 64 KiB
limit says so itself; a game's or a match's refusal of a value the schema took, such as
invalid_action or a 409, names the value); a mail answered 250 (stored, or
refused as an order) or 5xx with its reason, never 4xx (the relay would retry forever);
whatever was stored answers in every view (state, display, events, replay, verify,
archive, pages); and the same answers on both stores. The coverage tests fail when a
registered field, action or argument has no case. The figures are printed (`-s`).
"""

from __future__ import annotations

import dataclasses
import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.app import create_app
from api.schemas.actions import ActionRequestSchema
from api.schemas.forum import ForumUserRequestSchema, PostSchema
from service.channels.forum.posts import Post
from service.channels.mail.desk import MailDesk
from service.channels.mail.reading import Letter
from service.matches import Matches
from service.settings import Settings
from tests.api.conftest import OPERATOR, HttpMatch, bearer
from tests.api.schemathesis_hooks import shape_problem
from tests.support import generated_battery as gb

CONFIG = list(gb.config_cases())  # enumerated before the toy rulesets are registered
ORDERS = list(gb.order_cases())
ACTIONS = list(gb.action_cases())
RULESETS = {(r.info.name, r.info.version): r for r in gb.rulesets()}
POST_FIELDS = sorted(PostSchema().fields)
USER_FIELDS = sorted(ForumUserRequestSchema().fields)
FORUM = list(gb.forum_cases(POST_FIELDS, USER_FIELDS))
VIEWS = ["", "/state", "/scores", "/events", "/replay", "/verify", "/display", "/archive"]
PAGES = ["/ui/matches/{id}", "/ui/matches/{id}/replay"]
ANSWERS: dict[str, dict[str, tuple[int, str]]] = {}  # area -> case id -> (status, code), a store's


@pytest.fixture
def service(database_url: str, toy_rulesets: None) -> Iterator[Matches]:
    app = Matches(env=Settings(database_url).event_store_env(), operator_token=OPERATOR)
    yield app
    app.close()


@pytest.fixture
def client(service: Matches) -> FlaskClient:
    unlimited = {"DRTS_RATE_LIMIT_PER_ADDRESS": 0, "DRTS_RATE_LIMIT_PER_TOKEN": 0}
    return create_app({"TESTING": True, **unlimited}, matches=service).test_client()


class Run:
    """One area's run on one store: the problems found, the answers, the matches touched."""

    def __init__(self, client: FlaskClient, area: str, store: str) -> None:
        self.client, self.area, self.store = client, area, store
        self.problems: list[str] = []
        self.answers: dict[str, tuple[int, str]] = {}
        self.touched: set[str] = set()
        self.last: Any = None
        self.started_matches = 0
        self.started = time.perf_counter()

    def put(self, case: gb.Case, path: str, token: str | None = None) -> int:
        """Sends the case's body with PUT; judges the answer; returns its status."""
        return self.post(case, path, token, method="PUT")

    def post(self, case: gb.Case, path: str, token: str | None = None, method: str = "POST") -> int:
        """Sends the case's body; judges the answer; returns its status."""
        headers = bearer(token) if token else {}
        response = self.client.open(
            path,
            method=method,
            data=case.body.encode("utf-8", "surrogatepass"),
            content_type="application/json",
            headers=headers,
        )
        body = self.last = response.get_json(silent=True)
        code = body.get("code", "") if isinstance(body, dict) else ""
        self.answers[case.id] = (response.status_code, code)
        problem = judged(response.status_code, body, case.field)
        if problem:
            self.problems.append(f"{case.id} -> {response.status_code}: {problem}")
        return response.status_code

    def views_answer(self) -> None:
        """Holds every view of every match touched to answer (no 5xx, JSON in shape)."""
        for match_id in sorted(self.touched):
            for view in VIEWS:
                response = self.client.get(f"/matches/{match_id}{view}")
                if response.status_code >= 500 or (
                    response.status_code >= 400
                    and shape_problem(response.status_code, response.get_json(silent=True))
                ):
                    self.problems.append(f"view {view or '/'} of {match_id}: {response.status}")
            for page in PAGES:
                response = self.client.get(page.format(id=match_id))
                if response.status_code >= 500:
                    self.problems.append(f"page {page} of {match_id}: {response.status}")

    def finish(self) -> None:
        """Prints the figures; fails on any problem, or an answer the other store differs in."""
        self.views_answer()
        seconds = time.perf_counter() - self.started
        taken = f", {self.started_matches} taken and started" if self.started_matches else ""
        print(
            f"\n{self.area} battery on {self.store}: {len(self.answers)} cases in {seconds:.1f} s"
            + taken
        )
        other = ANSWERS.setdefault(self.area, {})
        if other:
            differ = [k for k, v in self.answers.items() if k in other and other[k] != v]
            self.problems += [
                f"{k}: {other[k]} on one store, {self.answers[k]} here" for k in differ
            ]
        else:
            other.update(self.answers)
        assert self.problems == [], "\n".join(self.problems[:30])


def judged(status: int, body: Any, field: str) -> str | None:
    """Returns what is wrong with an answer to a hostile value in `field`, or None."""
    if status >= 500:
        return "a server error"
    if status < 400 or status == 413:
        return None
    problem = shape_problem(status, body)
    if problem or body["code"] != "validation_error":  # the schema took it; the game or
        return problem  # the match refused it (invalid_action, 409...), naming the value
    names = [part for part in field.split(".") if part]
    if not any(name in json.dumps(body) for name in names):
        return f"the error does not name {field}: {str(body)[:200]}"
    return None


def store_of(database_url: str) -> str:
    return database_url.split(":")[0]


# -- coverage: every registered field has cases ---------------------------------------------


def test_every_config_field_of_every_ruleset_version_has_cases() -> None:
    expected = {
        (r.info.name, r.info.version, f.name) for r in gb.rulesets() for f in r.info.config_fields
    }
    assert {(c.ruleset, c.version, c.field) for c in CONFIG} == expected
    assert {r.info.name for r in gb.rulesets()} >= {
        "b_chess",
        "district_war",
        "dris_et_tessa",
        "drts_team23",
        "shades",
    }


def test_every_ruleset_version_has_cases_of_both_order_forms() -> None:
    expected = {
        (name, version, form) for name, version in RULESETS for form in ("order", "order.op")
    }
    assert {(c.ruleset, c.version, c.field) for c in ORDERS} == expected


def test_every_referee_action_and_argument_has_cases() -> None:
    expected = {("action",), ("reason",)} | {("args",)}
    assert set(ActionRequestSchema().fields) == {name for (name,) in expected}
    for (name, version), ruleset in RULESETS.items():
        fields = {c.field for c in ACTIONS if (c.ruleset, c.version) == (name, version)}
        actions = {**gb.OWN_ACTIONS, **{a.name: tuple(a.arguments) for a in ruleset.actions}}
        for action, arguments in actions.items():
            assert {f"{action}.args.{a}" for a in arguments} | {f"{action}.reason"} <= fields
        assert "action" in fields


def test_every_forum_field_has_cases() -> None:
    posts = {c.field for c in FORUM if c.area == "post"}
    users = {c.field for c in FORUM if c.area == "forum_user"}
    assert posts == set(POST_FIELDS) and users == set(USER_FIELDS)
    post_attributes = {f.name for f in dataclasses.fields(Post)}
    assert post_attributes == (posts - {"time"}) | {"posted_at"}


def test_every_field_read_from_a_mail_has_cases() -> None:
    read_from = {
        "message_id": "Message-ID",
        "subject": "Subject",
        "references": "References",
        "movement": "Subject",
        "text": "body",
    }
    assert set(read_from) == {f.name for f in dataclasses.fields(Letter)}
    assert set(read_from.values()) <= set(gb.MAIL_FIELDS)
    assert {field for field, _ in gb.mail_cases()} == set(gb.MAIL_FIELDS)


def test_every_json_body_of_the_api_has_a_valid_base_and_each_field_cases(
    client: FlaskClient,
) -> None:
    routes = gb.body_routes(client.get("/openapi.json").get_json())
    assert {route.schema for route in routes} == set(gb.BASES)
    for route in routes:
        assert {c.field for c in gb.body_cases(route)} == set(route.fields), route


def test_every_value_kind_the_issue_names_is_tried() -> None:
    kinds = set(gb.values())
    assert {"nul", "lone_surrogate", "right_to_left", "zero_width", "megabyte"} <= kinds
    assert {"huge", "negative", "fraction", "deep_list", "null", "duplicate"} <= kinds


# -- the battery, on each store -------------------------------------------------------------


def test_config_fields(client: FlaskClient, database_url: str) -> None:
    run = Run(client, "config", store_of(database_url))
    for case in CONFIG:
        if run.post(case, "/matches") == 201:  # a value the game takes: filled and started
            run.touched.add(run.last["match_id"])
            fill_and_start(run, run.last, RULESETS[(case.ruleset, case.version)].info.min_seats)
    run.finish()


def test_order_forms(client: FlaskClient, database_url: str) -> None:
    run = Run(client, "order", store_of(database_url))
    for (name, version), ruleset in RULESETS.items():
        table = started(client, name, version, ruleset.info.min_seats)
        run.touched.add(table.id)
        for case in (c for c in ORDERS if (c.ruleset, c.version) == (name, version)):
            seat = owing(client, table)
            if seat is None:
                break
            run.post(case, f"/matches/{table.id}/orders", table.seats[seat - 1])
    run.finish()


def test_referee_actions(client: FlaskClient, database_url: str) -> None:
    run = Run(client, "action", store_of(database_url))
    for (name, version), ruleset in RULESETS.items():
        table = started(client, name, version, ruleset.info.min_seats)
        for case in (c for c in ACTIONS if (c.ruleset, c.version) == (name, version)):
            if run.post(case, f"/matches/{table.id}/actions", table.referee) < 300:
                run.touched.add(table.id)  # it acted: the next case gets a match of its own
                table = started(client, name, version, ruleset.info.min_seats)
    run.finish()


def test_forum_fields(client: FlaskClient, service: Matches, database_url: str) -> None:
    run = Run(client, "forum", store_of(database_url))
    table = HttpMatch(client)
    run.touched.add(table.id)
    for number, case in enumerate(FORUM):
        if case.area == "post":
            unique = json.loads(case.body) if case.field != "post_id" else None
            body = case
            if unique is not None and case.value != gb.DUPLICATE:
                unique["post_id"] = f"p-{number}"
                body = dataclasses.replace(case, body=json.dumps(unique))
            run.post(body, f"/matches/{table.id}/posts", OPERATOR)
        else:
            run.post(case, f"/matches/{table.id}/forum-users", table.referee)
    for view in ("/posts/outgoing", "/forum-users"):
        status = client.get(f"/matches/{table.id}{view}").status_code
        if status >= 500:
            run.problems.append(f"view {view}: {status}")
    run.finish()


def test_mail_fields(client: FlaskClient, service: Matches, database_url: str) -> None:
    run = Run(client, "mail", store_of(database_url))
    match = service.create_match("toy")
    seat = service.join(match.match_id, "alice")
    service.join(match.match_id, "bob")
    service.start(match.match_id, match.referee_token)
    run.touched.add(str(match.match_id))
    desk, address = MailDesk(service, 2 * 1024 * 1024), seat.order_address
    assert address is not None
    for number, (field, value) in enumerate(gb.mail_cases()):
        case_id = f"mail:{field}:{value}"
        raw, sender = mail_of(field, gb.mail_text(field, value) or "", number, address)
        try:
            answer = desk.receive(address, sender, raw, service.clock())
        except Exception as error:  # the server would answer 451: a retry loop
            run.problems.append(f"{case_id} raised {type(error).__name__}: {error}"[:300])
            continue
        run.answers[case_id] = (int(answer.smtp[:3]), answer.outcome)
        if answer.smtp[:1] not in "25" or not answer.smtp.isascii():
            run.problems.append(f"{case_id} -> {answer.smtp[:200]}")
    run.finish()


def test_every_json_body_field(client: FlaskClient, database_url: str) -> None:
    """Every field of every JSON body the API takes (its OpenAPI document), on a started
    toy match of its own per operation (a new one after any case that was taken)."""
    run = Run(client, "body", store_of(database_url))
    for route in gb.body_routes(client.get("/openapi.json").get_json()):
        table = HttpMatch(client)
        for case in gb.body_cases(route):
            path = route.path.format(
                match_id=table.id, seat=1, number=1, player="zed", tournament=table.id
            )
            token = token_for(route, table)
            if route.method == "PUT":
                status = run.put(case, path, token)
            else:
                status = run.post(case, path, token)
            if status < 300:
                run.touched.add(table.id)
                table = HttpMatch(client)
    run.finish()


def fill_and_start(run: Run, new: dict[str, Any], seats: int) -> None:
    """Joins the seats of a match created with a hostile config value and starts it; a
    5xx on the way is a problem."""
    match_id = new["match_id"]
    answers = [
        run.client.post(f"/matches/{match_id}/seats", json={"name": f"p{n}"}).status_code
        for n in range(1, seats + 1)
    ]
    started = run.client.post(f"/matches/{match_id}/start", headers=bearer(new["referee_token"]))
    if max(*answers, started.status_code) >= 500:
        run.problems.append(f"config of {match_id}: join {answers}, start {started.status}")
    run.started_matches += started.status_code == 200


def token_for(route: gb.Route, table: HttpMatch) -> str:
    """Returns the token an operation takes: a seat's, the operator's or the referee's."""
    if route.path.endswith(("/orders", "/disputes", "/seats/result-address")):
        return table.seats[0]
    if route.path.endswith("/posts"):
        return OPERATOR
    return table.referee


# -- helpers --------------------------------------------------------------------------------


def started(client: FlaskClient, name: str, version: int, seats: int) -> HttpMatch:
    names = tuple(f"p{n}" for n in range(1, seats + 1))
    return HttpMatch(client, name, names=names, ruleset_version=version)


def owing(client: FlaskClient, table: HttpMatch) -> int | None:
    """Returns a seat that owes an order now (None: the match is over)."""
    to_move = client.get(f"/matches/{table.id}").get_json()["to_move"]
    return to_move[0] if to_move else None


def mail_of(field: str, text: str, number: int, address: str) -> tuple[bytes, str]:
    """Returns a mail (bytes) with the hostile text in `field`, and its envelope sender."""
    headers = {
        "From": "alice@example.org",
        "To": address,
        "Subject": "orders",
        "Message-ID": f"<case-{number}@example.org>",
    }
    body, sender = "1", "alice@example.org"
    if field == "Message-ID":
        headers["Message-ID"] = f"<{text}@example.org>"
    elif field == "References":
        headers["References"] = f"<{text}@example.org>"
    elif field == "From":
        headers["From"] = f'"{text}" <alice@example.org>'
    elif field == "Subject":
        headers["Subject"] = text
    elif field == "envelope sender":
        sender = text
    else:
        body = text
    head = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
    raw = (head + "\r\n" + body + "\r\n").encode("utf-8", "surrogatepass")
    return raw, sender
