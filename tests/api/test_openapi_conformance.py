"""schemathesis against /openapi.json: every operation, then stateful runs along the links.

No 5xx, every response matches the document (status, content type, headers,
schema), and every error body has the one error shape (the check `one_error_shape` of
tests/api/schemathesis_hooks.py). All of schemathesis's default checks run; none is
excluded. tests/api/test_gunicorn.py runs the same against gunicorn on PostgreSQL.

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
from tests.api.schemathesis_hooks import CONFIG as SCHEMATHESIS_CONFIG

MAX_EXAMPLES = int(os.environ.get("DRTS_SCHEMATHESIS_EXAMPLES", "40"))
# Long polls end quickly here; no rate limits: in process, the run sends requests far faster
# than the per-address default allows (tests/api/test_capacity.py tests the limits).
APP_CONFIG = {
    "TESTING": True,
    "DRTS_LONG_POLL_MAX_SECONDS": 0.2,
    "DRTS_STREAM_MAX_SECONDS": 0.2,  # a stream ends as quickly (the run reads it whole)
    "DRTS_RATE_LIMIT_PER_ADDRESS": 0,
    "DRTS_RATE_LIMIT_PER_TOKEN": 0,
}


def fresh_store() -> Matches:
    return Matches(env=Settings("memory://").event_store_env(), operator_token="operator")


app = create_app(APP_CONFIG, matches=fresh_store())
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
