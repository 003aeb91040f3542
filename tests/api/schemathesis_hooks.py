"""schemathesis for both runs (in process, and against gunicorn): the configuration they
share, and the hooks of the run against a real server (SCHEMATHESIS_HOOKS names this module):
a check that every error body has the API's one shape, and a tally of every response,
written at exit to the JSON file DRTS_SCHEMATHESIS_TALLY names."""

from __future__ import annotations

import atexit
import json
import os
import re
import threading
from collections import Counter
from typing import Any

import schemathesis

# positive_data_acceptance, for ten operations, also accepts 422: a game's config, an
# order (also a correction's), a starting state and a referee action are JSON whose
# validity the ruleset decides
# (a board's content, an order's legality in the match's current state, the actions a game
# has), and a player name must be printable Unicode (docs/api.md, Limits), which no JSON
# schema can state (nor can a forum user's name, held to the same rule: mapForumUser).
# So must a dispute's text and a ruling's reason, which may not be blank
# either, and a dispute's cites must be versions the match's log holds now (fileDispute,
# ruleDispute: docs/api.md, Disputes). verifyWithEvidence too: a receipt is taken as the
# seat kept it, with fields the verifier ignores, but everything in a body stays within
# the API's JSON limits (integers within +-2^53, docs/api.md, Limits), which a schema of
# free extra fields cannot state.
# negative_data_rejection also takes 413: a schema-violating body over the API's size cap
# (a string far past an order's maxLength) is refused by the cap before its fields are read,
# as documented (docs/api.md, Limits); schemathesis's default list lacks it.
# getHealth answers 503 with its report (not the error shape) when the service is unhealthy,
# as documented: in these runs no sweep ever runs, so it is unhealthy.
# The players' (issue 45): createPlayer's name is a player name (as above); an address
# may not be at drts's own mail domain and a confirmation code must be the one mailed
# (setPlayerAddress, confirmPlayerAddress); listRatings' ruleset must be installed.
# createTournament's ruleset must be installed and seat two for the two-player formats,
# and registerTournamentPlayer's tournament must exist (both issue 45), as must
# getTournamentSeatToken's, whose player is a player name too.
# Every other operation is held to the default (a schema-valid request is never a 422).
# ignored_auth is off in the stateful phase only: there the Authorization header comes from
# a link (the token a create or join returned), which schemathesis counts as generated, so
# it takes the 200 a valid token earns for "invalid auth accepted". The other phases keep it.
CONFIG = """
[checks.negative_data_rejection]
expected-statuses = ["400", "401", "403", "404", "406", "413", "422", "428"]

[phases.stateful]
checks.ignored_auth.enabled = false

[[operations]]
include-operation-id = [
    "createMatch", "sendOrder", "startMatch", "joinMatch", "takeRefereeAction",
    "verifyWithEvidence", "fileDispute", "ruleDispute", "correctMovement", "mapForumUser",
    "createPlayer", "setPlayerAddress", "confirmPlayerAddress", "listRatings",
    "createTournament", "registerTournamentPlayer", "getTournamentSeatToken",
]
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "422"]

[[operations]]
include-operation-id = ["getHealth"]
checks.not_a_server_error.enabled = false
"""
SNAKE_CASE = re.compile(r"^[a-z][a-z0-9_]*$")
_tally: Counter[str] = Counter()
_statuses: Counter[int] = Counter()
_lock = threading.Lock()


def shape_problem(status: int, body: Any) -> str | None:
    """Returns what is wrong with an error body, or None when it has the one shape:
    {"code": snake_case, "status": the HTTP status, "message": text, "details": object}."""
    if not isinstance(body, dict) or set(body) != {"code", "status", "message", "details"}:
        return f"not the error shape: {str(body)[:200]}"
    if not (isinstance(body["code"], str) and SNAKE_CASE.match(body["code"])):
        return f"code {body['code']!r} is not snake_case"
    if body["status"] != status:
        return f"status {body['status']!r} in a {status} response"
    if not (isinstance(body["message"], str) and body["message"]):
        return "no message"
    if not isinstance(body["details"], dict):
        return f"details {body['details']!r} is not an object"
    return None


def _body(response: Any) -> Any:
    try:
        return response.json()
    except Exception:
        return response.text[:200] if hasattr(response, "text") else None


@schemathesis.check
def one_error_shape(ctx: Any, response: Any, case: Any) -> bool | None:
    """Fails an error response (4xx, 5xx) whose body is not the API's one error shape."""
    if response.status_code < 400 or _is_health_report(case, response):
        return None
    problem = shape_problem(response.status_code, _body(response))
    if problem:
        raise AssertionError(problem)
    return None


def _is_health_report(case: Any, response: Any) -> bool:
    """Returns whether a response is /health's documented 503: the report, not an error."""
    return bool(case.operation.path == "/health" and response.status_code == 503)


@schemathesis.hook
def after_call(context: Any, case: Any, response: Any) -> None:
    status = response.status_code
    with _lock:
        _tally["requests"] += 1
        _statuses[status] += 1
        if _is_health_report(case, response):
            _tally["health_reports_503"] += 1  # documented: no sweep runs here
            return
        if status >= 500:
            _tally["5xx"] += 1
        if status >= 400 and shape_problem(status, _body(response)):
            _tally["not_in_the_error_shape"] += 1


@atexit.register
def _write_tally() -> None:
    path = os.environ.get("DRTS_SCHEMATHESIS_TALLY")
    if path:
        with _lock:
            report = {
                "requests": 0,
                "5xx": 0,
                "not_in_the_error_shape": 0,
                **_tally,
                "statuses": {str(k): v for k, v in sorted(_statuses.items())},
            }
        with open(path, "w") as file:
            json.dump(report, file)
