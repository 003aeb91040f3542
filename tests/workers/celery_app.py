"""The Celery app of a test worker process: workers.app's, with the toy rulesets
registered, and `toy_fragile`, whose resolution raises.

`python -m celery -A tests.workers.celery_app worker` with DRTS_DATABASE_URL,
DRTS_BROKER_URL, DRTS_TEST_QUEUE and DRTS_TEST_BACKEND in the environment.
"""

from __future__ import annotations

import os

from domain.rules import registry
from service.settings import load_settings
from tests.support.toy_ruleset import FRAGILE, TOYS
from workers.app import create_app

for toy in (*TOYS, FRAGILE):  # toy_fragile: a match that fails to resolve (quarantine)
    registry.REGISTRY.setdefault(toy.info.name, {toy.info.version: toy})

app = create_app(
    load_settings(),
    task_default_queue=os.environ["DRTS_TEST_QUEUE"],
    result_backend=os.environ["DRTS_TEST_BACKEND"],
    task_ignore_result=False,
    result_expires=300,
    broker_transport_options={},
)
