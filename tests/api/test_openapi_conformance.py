"""schemathesis against /openapi.json: every operation, then stateful runs along the links.

No 5xx, and every response matches the document (status, content type, headers,
schema). All of schemathesis's default checks run; none is excluded.

The app is made at import, on an in-memory store: schemathesis needs the schema
when pytest collects the tests, and its `from_fixture` does not work with
pytest 9 (it reads `Function._nodeid`, which pytest 9 dropped).
"""

from __future__ import annotations

import os
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings

from api.app import create_app
from api.context import EXTENSION
from service.matches import Matches
from service.settings import Settings

MAX_EXAMPLES = int(os.environ.get("DRTS_SCHEMATHESIS_EXAMPLES", "40"))
# Long polls end quickly here; no rate limits: in process, the run sends requests far faster
# than the per-address default allows (tests/api/test_capacity.py tests the limits).
CONFIG = {
    "TESTING": True,
    "DRTS_LONG_POLL_MAX_SECONDS": 0.2,
    "DRTS_RATE_LIMIT_PER_ADDRESS": 0,
    "DRTS_RATE_LIMIT_PER_TOKEN": 0,
}

# positive_data_acceptance, for four operations, also accepts 422: a game's config, an
# order and a starting state are JSON whose validity the ruleset decides (a board's content,
# an order's legality in the match's current state), and a player name must be printable
# Unicode (docs/api.md, Limits), which no JSON schema can state.
# Every other operation is held to the default (a schema-valid request is never a 422).
SCHEMATHESIS_CONFIG = """
[[operations]]
include-operation-id = ["createMatch", "sendOrder", "startMatch", "joinMatch"]
checks.positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "422"]
"""


def fresh_store() -> Matches:
    return Matches(env=Settings("memory://").event_store_env(), operator_token="operator")


app = create_app(CONFIG, matches=fresh_store())
schema = schemathesis.openapi.from_wsgi(
    "/openapi.json",
    app,
    config=schemathesis.config.SchemathesisConfig.from_str(SCHEMATHESIS_CONFIG),
)


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_conforms_to_the_document(case: Any) -> None:
    case.call_and_validate()


class Workflow(schema.as_state_machine()):  # type: ignore[misc]
    def setup(self) -> None:
        """Starts every run on an empty store, so that Hypothesis can replay a run exactly
        (a retried Idempotency-Key, a taken name would otherwise answer differently)."""
        app.extensions[EXTENSION] = fresh_store()


def test_stateful_runs_along_the_links_conform() -> None:
    Workflow.run(
        settings=settings(
            max_examples=MAX_EXAMPLES,
            deadline=None,
            stateful_step_count=8,
            suppress_health_check=list(HealthCheck),
        )
    )
