"""Reading one cell: the surface asked as its reader would (over HTTP through the Flask
app, the CLI through click, the channels through the service), with each parameter the
surface declares filled from the stage (`?movement=`, `?phase=`, `?timeline=`, a seat,
a receipt digest, a dispute), and every answer checked against the invariants:

- no 5xx, no traceback anywhere;
- the API answers errors in its JSON shape, the pages as HTML pages, the CLI as one
  line `code: message`;
- success, unless cells.REFUSALS names the refusal (or the parameter has no value at
  the stage: a probe, answered 404).
"""

from __future__ import annotations

import contextlib
import json
import re
import traceback
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

import click
from click.testing import CliRunner
from flask import Flask

from api.context import EXTENSION
from api.strictness import accepted_parameters, handler_of
from cli.main import main as drts
from domain.errors import DrtsError
from service.channels.forum.outgoing import outgoing
from service.channels.mail import notices
from service.channels.protocol import Message, protocol_message
from tests.matrix.asking import (
    PROBE_DIGEST,
    PROBES,
    Ask,
    CellFailure,
    Positions,
    asks,
    positions_of,
    token_of,
)
from tests.matrix.cells import Cell, refusals_of
from tests.matrix.stages import Stage
from tests.matrix.surfaces import Surface

ERROR_KEYS = {"code", "status", "message", "details"}
PAGE_ERROR = re.compile(r"<h1>(\d{3}): ([a-z_]+)</h1>")
CLI_ERROR = re.compile(r"^Error: ([a-z_]+): ", re.M)


@dataclass
class Answer:
    """What one read answered: its request, a status (HTTP; the CLI's 0 or 1; a channel's
    0, or 1 for a refusal), the refusal's code, and the text."""

    what: str
    status: int
    code: str | None
    text: str
    allowed: set[tuple[int, str]] = field(default_factory=set)


# -- reading over HTTP ----------------------------------------------------------------------


@contextlib.contextmanager
def serving(app: Flask, stage: Stage) -> Iterator[Any]:
    """Yields a test client of the app reading the stage's store."""
    app.extensions[EXTENSION] = stage.app
    yield app.test_client()


def read_api(
    client: Any, stage: Stage, cell: Cell, surface: Surface, match_id: UUID | None
) -> list[Answer]:
    template, parameters, content = surface.target
    path = {p["name"] for p in parameters if p["in"] == "path"}
    query = {p["name"] for p in parameters if p["in"] == "query"}
    token = token_of(stage, cell.token)
    headers = {} if token is None else {"Authorization": f"Bearer {token}"}
    answers = []
    for ask in asks(stage, match_id, cell.token, path, query):
        url = template.format(**{k: v for k, v in ask.path.items()})
        what = f"GET {url}?{_query_text(ask.query)}"
        if content == STREAM:
            answers.append(_stream_answer(client, url, ask.query, headers, what))
            continue
        response = client.get(url, query_string=ask.query, headers=headers)
        answers.append(_http_answer(what, response, api=True, allowed=set(ask.allowed)))
    return answers


STREAM = "text/event-stream"


def _stream_answer(
    client: Any,
    url: str,
    query: dict[str, Any],
    headers: dict[str, str],
    what: str,
    api: bool = True,
) -> Answer:
    """Reads a stream's status and first chunk only (it may never end), then closes it."""
    response = client.get(url, query_string=query, headers=headers, buffered=False)
    try:
        first = next(iter(response.response), b"") if response.status_code == 200 else None
    finally:
        response.close()
    if response.status_code >= 500:
        raise CellFailure(f"{what}: {response.status_code}")
    if first is None:
        return _http_answer(what, response, api=api, allowed=set())
    return Answer(what, response.status_code, None, first.decode("utf-8", "replace"))


def read_page(
    client: Any, stage: Stage, cell: Cell, surface: Surface, match_id: UUID | None
) -> list[Answer]:
    rule = surface.target
    if cell.token != "none":
        sign_in(client, match_id or stage.match_id, token_of(stage, cell.token))
    schema_query = _page_query(client.application, rule)
    path = set(rule.arguments)
    if rule.endpoint == "signin.sign_in_form":
        reads = [Ask({}, {"match": match_id})]
    else:
        reads = asks(stage, match_id, "none", path, schema_query)
    answers = []
    for ask in reads:
        url = rule.build({k: str(v) for k, v in ask.path.items()}, append_unknown=False)[1]
        query = {k: v for k, v in ask.query.items() if k != "seat"}
        what = f"GET {url}?{_query_text(ask.query)}"
        if rule.endpoint.startswith("streams."):  # the pages' own streams (issue 47)
            answers.append(_stream_answer(client, url, query, {}, what, api=False))
            continue
        response = client.get(url, query_string=query)
        answers.append(_http_answer(what, response, api=False, allowed=set(ask.allowed)))
    return answers


def sign_in(client: Any, match_id: UUID, token: str | None) -> None:
    form = client.get("/ui/sign-in").get_data(as_text=True)
    csrf = re.search(r'name="csrf" value="([^"]+)"', form)
    assert csrf, "the sign-in form has no CSRF token"
    answer = client.post("/ui/sign-in", data={"csrf": csrf.group(1), "match": str(match_id),
                                              "token": token})  # fmt: skip
    if answer.status_code != 303:
        raise CellFailure(f"signing in answered {answer.status_code}: {answer.text[:300]}")


def _page_query(app: Flask, rule: Any) -> set[str]:
    """Returns the query parameters a page declares (api/pages/query.py)."""
    return set(accepted_parameters(handler_of(app.view_functions[rule.endpoint], "GET")))


def _query_text(query: dict[str, Any]) -> str:
    return "&".join(f"{k}={v}" for k, v in query.items())


def _http_answer(what: str, response: Any, api: bool, allowed: set[tuple[int, str]]) -> Answer:
    text = response.get_data(as_text=True)
    status, mimetype = response.status_code, response.mimetype
    if "Traceback" in text:
        raise CellFailure(f"{what}: a traceback in the answer ({status})")
    if status >= 500:
        raise CellFailure(f"{what}: {status}: {text[:400]}")
    code = None
    if api and status >= 400:
        body = response.get_json(silent=True)
        if not isinstance(body, dict) or set(body) != ERROR_KEYS or body["status"] != status:
            raise CellFailure(f"{what}: {status} not in the API's error shape: {text[:300]}")
        code = body["code"]
    elif not api and status in (301, 302, 303):
        location = response.headers.get("Location", "")
        code = "sign_in" if "/ui/sign-in" in location else "redirect"
    elif not api and status >= 400:
        found = PAGE_ERROR.search(text)
        if mimetype != "text/html" or not found or int(found.group(1)) != status:
            raise CellFailure(f"{what}: {status} is not the pages' error page: {text[:300]}")
        code = found.group(2)
    elif api and mimetype == "application/json":
        json.loads(text)
    return Answer(what, status, code, text, allowed)


# -- reading from the command line ------------------------------------------------------------


def read_cli(stage: Stage, cell: Cell, surface: Surface, match_id: UUID | None) -> list[Answer]:
    path, command = surface.target
    params = {p.name: p for p in command.params}
    options = {p.name: p.opts[0] for p in command.params if isinstance(p, click.Option)}
    query = set(params) & {"movement", "phase", "timeline", "seat"}
    positional = {"number"} & set(params)
    answers = []
    scoped = "match_id" in params
    for ask in asks(stage, match_id, cell.token, _cli_path(path, positional, scoped), query):
        args = [*path]
        if "match_id" in params:
            args.append(str(match_id))
        if "number" in params:
            args.append(str(ask.path.get("number", ask.path.get("movement"))))
        args += _token_args(stage, cell.token, params, options)
        for name, value in ask.query.items():
            args += [options[name], str(value)]
        if "digest" in params:
            found = positions_of(stage, match_id) if match_id else None
            digest = found.digest if found and found.digest else PROBE_DIGEST
            args += ["--digest", digest]
            allowed = set() if found and found.digest else PROBES["digest"]
        else:
            allowed = set(ask.allowed)
        answers.append(_cli_answer(args, allowed))
        if "as_json" in params and not ask.query:  # the JSON form once, of the plain read
            answers.append(_cli_answer([*args, "--json"], allowed))
    return answers


def _cli_path(path: tuple[str, ...], positional: set[str], scoped: bool) -> set[str]:
    """Returns the command's path-like parameters: a movement, or a dispute's number."""
    if not scoped:
        return set()
    if not positional:
        return {"match_id"}
    return {"match_id", "number" if path[0] == "dispute" else "movement"}


def _token_args(
    stage: Stage, kind: str, params: dict[str, Any], options: dict[str, str]
) -> list[str]:
    token = token_of(stage, kind)
    if token is None:
        return []
    name = "token" if "token" in params else "referee_token"
    return [options[name], token]


CLI_ENV = {"DRTS_TOKEN": None, "DRTS_SEAT_TOKEN": None, "DRTS_REFEREE_TOKEN": None}


def _cli_answer(args: list[str], allowed: set[tuple[int, str]]) -> Answer:
    result = CliRunner().invoke(drts, ["match", *args], env=CLI_ENV)
    what = "drts match " + " ".join(args)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        trace = "".join(traceback.format_exception(result.exception))
        raise CellFailure(f"{what}: raised {type(result.exception).__name__}:\n{trace}")
    if "Traceback" in result.output:
        raise CellFailure(f"{what}: a traceback in the output")
    code = None
    if result.exit_code:
        found = CLI_ERROR.search(result.output)
        if not found:
            raise CellFailure(f"{what}: exit {result.exit_code} without `code: message`: "
                              f"{result.output[-400:]}")  # fmt: skip
        code = found.group(1)
    return Answer(what, result.exit_code, code, result.output, allowed)


# -- the channels ---------------------------------------------------------------------------


def read_service(stage: Stage, cell: Cell, surface: Surface, match_id: UUID) -> list[Answer]:
    found = positions_of(stage, match_id)
    reads = {"display:text": _displays, "mail:result": _mails, "forum:posts": _posts,
             "bot:protocol": _protocol}[surface.key]  # fmt: skip
    answers = []
    for what, call in reads(stage, cell, match_id, found):
        try:
            text = call()
        except DrtsError as error:
            answers.append(Answer(what, 1, error.code, str(error)))
            continue
        answers.append(Answer(what, 0, None, text if isinstance(text, str) else json.dumps(text)))
    return answers


def _displays(stage: Stage, cell: Cell, match_id: UUID, found: Positions) -> Iterator[Any]:
    app = stage.app
    yield "display now", lambda: app.display(match_id)
    for timeline, done in found.movements.items():
        for movement in done:
            yield (f"display after movement {movement}, timeline {timeline}",
                   lambda m=movement, t=timeline: app.display(match_id, m, t))  # fmt: skip


def _mails(stage: Stage, cell: Cell, match_id: UUID, found: Positions) -> Iterator[Any]:
    app = stage.app
    match = app.get_match(match_id)
    for log in match.movements:
        if log.resolved is None:
            continue
        row = {"match_id": match_id, "kind": notices.RESULT, "version": log.resolved,
               "movement": log.number, "seat": 1, "address": "seat1@matrix.invalid",
               "recorded_at": stage.clock()}  # fmt: skip
        yield (f"result mail of movement {log.number}",
               lambda r=row, m=log.number: _mail_text(stage, r, m))  # fmt: skip


def _mail_text(stage: Stage, row: dict[str, Any], movement: int) -> str:
    message = notices.compose(stage.app, row)
    body = message.get_content()
    if f"Movement {movement} of match {row['match_id']} is resolved" not in body:
        raise CellFailure(f"the result mail of movement {movement} does not name it")
    display = stage.app.display(row["match_id"], movement)
    if display.strip().splitlines()[-1] not in body:
        raise CellFailure(f"the result mail of movement {movement} lacks its Public Display")
    return str(body)


def _posts(stage: Stage, cell: Cell, match_id: UUID, found: Positions) -> Iterator[Any]:
    def posts() -> str:
        made = outgoing(stage.app, match_id)
        done = found.movements[found.timelines]
        if [post.movement for post in made] != done:
            raise CellFailure(f"forum posts for movements {[p.movement for p in made]}, "
                              f"resolved {done}")  # fmt: skip
        return "\n".join(post.text for post in made)

    yield "forum posts of every resolved movement", posts


def _protocol(stage: Stage, cell: Cell, match_id: UUID, found: Positions) -> Iterator[Any]:
    token = token_of(stage, cell.token)
    seat = None if cell.token == "seat" else 1
    for message in (Message.INIT, Message.TURN):
        yield (f"bot protocol {message} of seat {seat or 1}",
               lambda m=message: protocol_message(stage.app, match_id, token, seat, m))  # fmt: skip


# -- the verdict ----------------------------------------------------------------------------


def check(cell: Cell, stage: Stage, match_id: UUID | None, answers: list[Answer]) -> None:
    """Checks each answer is a success, or a refusal cells.REFUSALS (or a probe) allows."""
    match = stage.match(match_id) if match_id else stage.match()
    allowed = {(r.status, r.code) for r in refusals_of(cell, stage, match)}
    for answer in answers:
        if answer.code is None and answer.status in (0, 200):
            continue
        if (answer.status, answer.code) in allowed | answer.allowed:
            continue
        if answer.status == 1 and answer.code in {code for _, code in allowed | answer.allowed}:
            continue  # the CLI's refusal: exit 1 and the code (reading._cli_answer)
        raise CellFailure(
            f"{cell.id}: {answer.what} answered {answer.status} {answer.code}: "
            f"{answer.text[:400]} (a refusal that is right goes in cells.REFUSALS, with why)"
        )
