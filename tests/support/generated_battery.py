"""The cases of the generated hostile battery (issue 41), enumerated from the registries
and schemas rather than written by hand: every config field of every registered ruleset
version, its order forms (text and JSON), every referee action and its arguments (the
game's and the referee's own), every field of a forum post and of a forum-user mapping,
every field drts reads from a mail, and every field of every JSON body in the API's
OpenAPI document (`body_routes`; each schema needs a valid base body in `BASES`). A
field added to any of them gets its cases without a change here; the coverage tests of
tests/api/test_generated_battery.py compare the cases with the registries and schemas.

Each case is one request body (or one mail) with one hostile value in one field:
control characters, lone surrogates, right-to-left and zero-width characters, a 1 MB
string, huge and negative numbers, floats where integers belong, deep nesting, wrong
types, and the field given twice.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from domain.rules.contract import AnyRuleset
from domain.rules.registry import all_rulesets

DEEP = 200  # far past the 32 levels allowed, within what json.dumps recurses
HOSTILE: dict[str, Any] = {
    "nul": "a\x00b",
    "bell": "a\x07b",
    "escape": "\x1b[2Jx",
    "delete": "a\x7fb",
    "c1": "a\x9bb",
    "line_break": "a\nb",
    "lone_surrogate": "\ud800",
    "reversed_surrogates": "\udfff\ud800",
    "right_to_left": "\u202eevil",
    "zero_width": "a\u200bb",
    "byte_order_mark": "\ufeff1",
    "megabyte": "x" * 1_000_000,
    "empty": "",
    "digits": "1",
    "huge": 10**30,
    "huge_negative": -(10**30),
    "past_int64": 2**63,
    "negative": -1,
    "zero": 0,
    "fraction": 1.5,
    "integral_float": 2.0,
    "float_max": 1e308,
    "deep_list": json.loads("[" * DEEP + "]" * DEEP),
    "deep_object": json.loads('{"a":' * DEEP + "1" + "}" * DEEP),
    "null": None,
    "true": True,
    "list": [1, 2],
    "object": {"$ne": 1},
}
DUPLICATE = "duplicate"  # the field given twice in the body's text (a JSON reader keeps one)
OWN_ACTIONS: dict[str, tuple[str, ...]] = {"forfeit": ("seat",), "pause": (), "resume": ()}
MAIL_FIELDS = ("Message-ID", "Subject", "References", "From", "envelope sender", "body")


@dataclass(frozen=True)
class Case:
    """One hostile request: what it probes (`area`, the ruleset, the field), the value's
    name, and the body as JSON text (so that duplicates and escapes reach the server)."""

    area: str
    ruleset: str
    version: int
    field: str
    value: str
    body: str

    @property
    def id(self) -> str:
        return f"{self.area}:{self.ruleset}:v{self.version}:{self.field}:{self.value}"


def rulesets() -> list[AnyRuleset]:
    """Returns every registered version of every ruleset."""
    return list(all_rulesets())


def body_with(fields: dict[str, Any], field: str, value: str) -> str:
    """Returns the JSON text of `fields` with `field` holding the hostile value (or given
    twice, the second time hostile). A dotted field (`config.turns`) is nested."""
    hostile = HOSTILE["nul"] if value == DUPLICATE else HOSTILE[value]
    head, _, rest = field.partition(".")
    if rest:
        inner = json.loads(body_with(dict(fields.get(head) or {}), rest, value))
        outer = {**fields, head: inner}
        text = json.dumps(outer)
    else:
        text = json.dumps({**fields, field: hostile})
    if value == DUPLICATE:
        key = json.dumps(rest or field)
        text = text.replace(f"{key}: ", f"{key}: 1, {key}: ", 1)
    return text


def values() -> list[str]:
    return [*HOSTILE, DUPLICATE]


def config_cases() -> Iterator[Case]:
    """Every config field of every ruleset version, each hostile value."""
    for ruleset in rulesets():
        info = ruleset.info
        base = {"ruleset": info.name, "ruleset_version": info.version, "config": {}}
        for config_field in info.config_fields:
            for value in values():
                body = body_with(base, f"config.{config_field.name}", value)
                yield Case("config", info.name, info.version, config_field.name, value, body)


def order_cases() -> Iterator[Case]:
    """Each ruleset version's order, as text and as its JSON form ("order.op"), each value."""
    for ruleset in rulesets():
        info = ruleset.info
        for value in values():
            yield Case(
                "order", info.name, info.version, "order", value, body_with({}, "order", value)
            )
            json_form = body_with({"order": {"op": "x"}}, "order.op", value)
            yield Case("order", info.name, info.version, "order.op", value, json_form)


def action_cases() -> Iterator[Case]:
    """Every referee action (the game's and the referee's own) of every ruleset version:
    each argument, the action's name and its reason, each value."""
    for ruleset in rulesets():
        info = ruleset.info
        actions = {**OWN_ACTIONS, **{a.name: tuple(a.arguments) for a in ruleset.actions}}
        for action, arguments in actions.items():
            example = next((dict(a.example) for a in ruleset.actions if a.name == action), {})
            base = {
                "action": action,
                "args": example or ({"seat": 1} if arguments else {}),
                "reason": "r",
            }
            for name in (*(f"args.{a}" for a in arguments), "reason"):
                for value in values():
                    field = f"{action}.{name}"
                    yield Case(
                        "action",
                        info.name,
                        info.version,
                        field,
                        value,
                        body_with(base, name, value),
                    )
        for value in values():
            yield Case(
                "action",
                info.name,
                info.version,
                "action",
                value,
                body_with({"args": {}, "reason": "r"}, "action", value),
            )


def forum_cases(post_fields: list[str], user_fields: list[str]) -> Iterator[Case]:
    """Every field of a forum post and of a forum-user mapping (from their schemas)."""
    post = {"author": "alice", "post_id": "p-1", "body": "1"}
    for field in post_fields:
        for value in values():
            yield Case("post", "toy", 1, field, value, body_with(post, field, value))
    for field in user_fields:
        for value in values():
            yield Case(
                "forum_user",
                "toy",
                1,
                field,
                value,
                body_with({"user": "alice", "seat": 1}, field, value),
            )


def mail_text(field: str, value: str) -> str | None:
    """Returns the hostile text a mail field gets (None: the value is not text)."""
    hostile = HOSTILE["nul"] if value == DUPLICATE else HOSTILE[value]
    return hostile if isinstance(hostile, str) else json.dumps(hostile)[:5000]


def mail_cases() -> Iterator[tuple[str, str]]:
    """Every field drts reads from a mail, each value: (field, value name)."""
    for field in MAIL_FIELDS:
        for value in values():
            yield field, value


# -- every JSON body field of the API (from its OpenAPI document) ---------------------------

# a valid body of each request schema, so that each case makes one field hostile; a new
# schema without one here fails the coverage test
BASES: dict[str, dict[str, Any]] = {
    "CreateMatch": {"ruleset": "toy"},
    "Start": {},
    "ExtendDeadline": {"seconds": 60},
    "Join": {"name": "zed"},
    "ReissueRequest": {},
    "ResultAddress": {"address": "player@example.org"},
    "ConfirmAddress": {"code": "x"},
    "OrderRequest": {"order": "1"},
    "ActionRequest": {"action": "pause", "reason": "r"},
    "CorrectionRequest": {"movement": 1, "changes": [{"seat": 1, "order": "1"}], "reason": "r"},
    "FileDispute": {"cites": [1], "text": "t"},
    "Ruling": {"ruling": "dismissed", "reason": "r"},
    "Post": {"author": "alice", "post_id": "p", "body": "1"},
    "ForumUserRequest": {"user": "alice", "seat": 1},
    "VerifyRequest": {"receipts": [], "heads": []},
    "CreatePlayer": {"name": "zed"},
    "ReissuePlayerKey": {},
    "PlayerAddress": {"address": "player@example.org"},
    "PlayerConfirm": {"code": "x"},
    "CreateTournament": {"name": "Cup", "format": "round_robin", "ruleset": "toy"},
    "RegisterPlayer": {"player": "zed"},
    "Withdrawal": {},
    "PauseTournament": {},
}


@dataclass(frozen=True)
class Route:
    """An operation of the API that takes a JSON body: its method, path, schema, fields."""

    method: str
    path: str
    schema: str
    fields: tuple[str, ...]


def body_routes(spec: dict[str, Any]) -> list[Route]:
    """Returns every operation of an OpenAPI document that takes a JSON body."""
    schemas = spec["components"]["schemas"]
    routes = []
    for path, operations in spec["paths"].items():
        for method, operation in operations.items():
            content = (
                operation.get("requestBody", {}).get("content", {})
                if isinstance(operation, dict)
                else {}
            )
            schema = content.get("application/json", {}).get("schema")
            if schema:
                name = schema.get("$ref", "").rsplit("/", 1)[-1]
                fields = tuple(schemas.get(name, schema).get("properties", {}))
                routes.append(Route(method.upper(), path, name, fields))
    return routes


def body_cases(route: Route) -> Iterator[Case]:
    """Each field of a route's body, each hostile value."""
    base = BASES[route.schema]
    for field in route.fields:
        for value in values():
            yield Case(
                f"{route.method} {route.path}",
                "toy",
                1,
                field,
                value,
                body_with(base, field, value),
            )
