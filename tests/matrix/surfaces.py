"""The surfaces the matrix reads, generated rather than listed: every GET operation of the
OpenAPI document (with the token kinds its security allows), every GET page route of
the Flask url_map under /ui/ (with the token kinds of its blueprint), every command of
`drts match` (found from the click group, its token kinds from its options), and the
channels that are no HTTP reads: the Public Display's text, a movement's result mail and
forum post, and the bot protocol message.

A new GET endpoint, page route or command is a new surface: it is read in every stage
(or listed in cells.NOT_RUN), with the parameters surfaces.py knows how to fill
(asking.py); one it cannot fill fails its cells, saying which to teach it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import click
from flask import Flask

from tests.matrix.cells import STORE, TOKENS

SERVICE = ("display:text", "mail:result", "forum:posts", "bot:protocol")
# the token kinds that may open each blueprint's pages (a new blueprint: say which here),
# or one page's (by its endpoint) in a blueprint that mixes them
PAGE_TOKENS = {
    "pages": ("none",),
    "tournament_pages": ("none",),  # issue 45: public, as the pages'
    "signin": ("none",),
    "tournament_seat": ("none",),  # issue 45: the form a player signs in to its seat by
    "seat": ("none", "seat", "referee"),
    "referee": ("none", "seat", "referee", "operator"),
    # issue 47: the pages' own streams, opened as the pages they serve are
    "streams.live_stream": ("none",),
    "streams.seat_stream": ("none", "seat", "referee"),
    "streams.referee_stream": ("none", "seat", "referee", "operator"),
}


@dataclass(frozen=True)
class Surface:
    """One read surface: its key (`api:getState`, `page:pages.replay`, `cli:state`,
    `mail:result`), the token kinds that may read it, whether it reads one match or
    the store (`scope`), and what reading.py calls (an operation, a rule, a command)."""

    key: str
    kind: str
    tokens: tuple[str, ...]
    scope: str
    target: Any = None


def api_surfaces(document: dict[str, Any]) -> list[Surface]:
    """Returns a surface per GET operation of the OpenAPI document."""
    found = []
    for path, operations in document["paths"].items():
        get = operations.get("get")
        if get is None:
            continue
        parameters = [*operations.get("parameters", []), *get.get("parameters", [])]
        security = get.get("security")
        if not security:
            tokens: tuple[str, ...] = ("none",)
        elif {} in security:
            tokens = TOKENS
        else:
            tokens = TOKENS[1:]
        key = f"api:{get.get('operationId') or path}"
        scope = "match" if "{match_id}" in path else STORE
        content = list(get["responses"].get("200", {}).get("content", {"application/json": 0}))
        found.append(Surface(key, "api", tokens, scope, (path, parameters, content[0])))
    return found


def page_surfaces(app: Flask) -> list[Surface]:
    """Returns a surface per GET route of the pages (under /ui/, and the root)."""
    found = []
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or ()) or not (
            rule.rule == "/" or rule.rule.startswith("/ui")
        ):
            continue
        blueprint = rule.endpoint.partition(".")[0]
        tokens = PAGE_TOKENS.get(rule.endpoint, PAGE_TOKENS.get(blueprint, ()))
        scope = (
            "match"
            if "match_id" in rule.arguments or rule.endpoint == "signin.sign_in_form"
            else STORE
        )
        found.append(Surface(f"page:{rule.endpoint}", "page", tokens, scope, rule))
    return found


def cli_surfaces(group: click.Group) -> list[Surface]:
    """Returns a surface per command of `drts match` (a group's commands as `group name`)."""
    found = []
    for path, command in _commands(group, ()):
        names = {p.name: p for p in command.params}
        tokens = _command_tokens(names)
        scope = "match" if "match_id" in names else STORE
        found.append(Surface(f"cli:{' '.join(path)}", "cli", tokens, scope, (path, command)))
    return found


def _commands(group: click.Group, prefix: tuple[str, ...]) -> list[tuple[tuple[str, ...], Any]]:
    found = []
    for name, command in sorted(group.commands.items()):
        if isinstance(command, click.Group):
            found += _commands(command, (*prefix, name))
        else:
            found.append(((*prefix, name), command))
    return found


def _command_tokens(params: dict[str, click.Parameter]) -> tuple[str, ...]:
    """Returns the token kinds a command may be given: its --token (a seat's or the
    referee's), its --referee-token (the referee's or the operator's), or none."""
    if "token" in params:
        return TOKENS if not params["token"].required else TOKENS[1:]
    if "referee_token" in params:
        referee = ("referee", "operator")
        return referee if params["referee_token"].required else ("none", *referee)
    return ("none",)


def service_surfaces() -> list[Surface]:
    """Returns the channels read without HTTP: the Public Display's text, a movement's
    result mail and forum post (every resolved movement), the bot protocol message."""
    return [
        Surface("display:text", "service", ("none",), "match"),
        Surface("mail:result", "service", ("none",), "match"),
        Surface("forum:posts", "service", ("none",), "match"),
        Surface("bot:protocol", "service", TOKENS[1:], "match"),
    ]


def check_surfaces() -> list[Surface]:
    """Returns the matrix's checks across surfaces (agreement.py): every position of every
    timeline read alike by the replay, /state, the record and the page's board; and the
    evidence (audit exact, verify ok, replay agrees) of every timeline."""
    return [
        Surface("check:positions", "check", ("none",), "match"),
        Surface("check:evidence", "check", ("none",), "match"),
    ]


def all_surfaces(app: Flask, group: click.Group) -> list[Surface]:
    document = app.test_client().get("/openapi.json").get_json()
    match = group.commands["match"]
    assert isinstance(match, click.Group)
    return [
        *api_surfaces(document),
        *page_surfaces(app),
        *cli_surfaces(match),
        *service_surfaces(),
        *check_surfaces(),
    ]
