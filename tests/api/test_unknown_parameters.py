"""Every endpoint refuses query parameters it does not know (issue 17): 400
unknown_parameter naming them and listing the accepted ones.

The test walks the app's URL rules, so an endpoint added later is covered without a
change here: its path is filled from a real match (the match's id, seat 1, the toy
ruleset, a Swagger UI asset), it is asked as it would be (a minimal valid body where its
method takes one), then again with an unknown parameter.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask

from api.pages.views import is_page_path
from api.strictness import accepted_parameters, handler_of
from tests.api.conftest import HttpMatch, assert_error, bearer

BODIES: dict[str, dict[str, Any]] = {  # the minimal valid body of each POST, by path end
    "/matches": {"ruleset": "toy"},
    "/seats": {"name": "dave"},
    "/orders": {"order": "1"},
    "/deadline": {"seconds": 60},
    "/actions": {"action": "grant", "args": {}, "reason": "probe"},
}
VALUES = {"match_id": None, "seat": "1", "name": "toy", "filename": "swagger-ui.css"}
UNKNOWN = "no_such_parameter"


def requests(app: Flask, match_id: str) -> list[tuple[str, str]]:
    """Returns (method, path) for every method of every URL rule of the app."""
    found = []
    for rule in app.url_map.iter_rules():
        values = {
            name: match_id if name == "match_id" else VALUES.get(name, "1")
            for name in rule.arguments
        }
        path = rule.build(values, append_unknown=False)[1]
        found += [(method, path) for method in sorted(rule.methods - {"HEAD", "OPTIONS"})]
    return found


@pytest.fixture
def table(client) -> HttpMatch:
    return HttpMatch(client, names=("alice", "bob", "carol"))


def ask(client, method: str, path: str, table: HttpMatch, query: str = "") -> Any:
    body = next((b for end, b in BODIES.items() if path.endswith(end)), {})
    return client.open(
        f"{path}?{query}" if query else path,
        method=method,
        json=body if method == "POST" else None,
        headers=bearer(table.referee),
    )


def test_every_endpoint_refuses_an_unknown_query_parameter(app, client, table):
    walked = requests(app, table.id)
    assert len(walked) >= 25 and ("GET", "/openapi.json") in walked
    for method, path in walked:
        plain = ask(client, method, path, table)
        # /health is a 503 without a broker here: an answer, not a fault
        assert plain.status_code < 500 or path == "/health", (method, path, plain.status_code)
        if plain.status_code == 400:
            assert "unknown_parameter" not in plain.text, (method, path)
        if is_page_path(path):  # the pages answer with their error page (issue 40)
            page = ask(client, method, path, table, f"{UNKNOWN}=1&also=2")
            assert page.status_code == 400 and page.mimetype == "text/html", (method, path)
            assert "400: unknown_parameter" in page.text and UNKNOWN in page.text
            continue
        body = assert_error(ask(client, method, path, table, f"{UNKNOWN}=1&also=2"), 400,
                            "unknown_parameter")  # fmt: skip
        assert body["details"]["unknown"] == ["also", UNKNOWN], (method, path)
        assert f"'{UNKNOWN}'" in body["message"] and "'also'" in body["message"]


def test_the_refusal_lists_what_the_endpoint_accepts(client, table):
    body = assert_error(
        client.get(f"/matches/{table.id}/events?afterr=3"), 400, "unknown_parameter"
    )
    assert body["details"] == {
        "unknown": ["afterr"],
        "accepted": ["after", "limit", "movement", "seat", "type", "wait"],
    }
    assert "accepts after, limit, movement, seat, type, wait" in body["message"]
    body = assert_error(client.get("/health?verbose=1"), 400, "unknown_parameter")
    assert body["details"]["accepted"] == [] and "accepts no query parameters" in body["message"]


def test_each_endpoint_accepts_exactly_the_query_parameters_its_openapi_operation_lists(
    app, client
):
    """The declared parameters are the documented ones: none is refused, none is extra."""
    spec = client.get("/openapi.json").get_json()
    for rule in app.url_map.iter_rules():
        if rule.endpoint.startswith("pages.") or rule.rule.startswith("/ui/"):
            continue  # web pages, not API operations: tests/pages/ holds theirs
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule)  # <int:movement>: {movement}
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            handler = handler_of(app.view_functions[rule.endpoint], method)
            operation = spec["paths"].get(path, {}).get(method.lower(), {})
            documented = {p["name"] for p in operation.get("parameters", []) if p["in"] == "query"}
            assert accepted_parameters(handler) - {"step"} == documented, (method, rule.rule)


def test_a_removed_parameter_is_still_refused_with_what_to_ask_instead(client, table):
    """`step` was removed from /state: its own message says to ask for `phase`."""
    body = assert_error(client.get(f"/matches/{table.id}/state?step=1"), 422, "validation_error")
    assert "phase" in body["message"]
    body = assert_error(client.get(f"/matches/{table.id}/state?stepp=1"), 400, "unknown_parameter")
    assert "step" not in body["details"]["accepted"]


def test_the_docs_health_and_assets_still_answer_without_parameters(client):
    assert client.get("/openapi.json").get_json()["openapi"] == "3.1.0"
    assert b"swagger" in client.get("/docs").data.lower()
    assert client.get("/docs/assets/swagger-ui.css").status_code == 200
    assert client.get("/health").status_code in (200, 503)


def test_a_path_no_route_matches_is_still_a_404(client):
    assert_error(client.get(f"/nowhere?{UNKNOWN}=1"), 404, "not_found")
    assert_error(client.delete(f"/standings?{UNKNOWN}=1"), 405, "method_not_allowed")
