"""The standalone verifier (docs/archive.md, linked from docs/integrity.md) checks the
public event log as served, in process here (tests/service/test_archive_verifier.py
runs it as a program on archives)."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest

DOC = Path(__file__).parents[2] / "docs" / "archive.md"

pytestmark = pytest.mark.usefixtures("toy_rulesets")


@pytest.fixture(scope="module")
def recipe() -> Any:
    text = DOC.read_text(encoding="utf-8")
    code = re.search(r"```python\n(\"\"\"verify\.py.*?)```", text, re.S).group(1)
    namespace: dict[str, Any] = {"__name__": "recipe"}
    exec(compile(code, str(DOC), "exec"), namespace)
    return namespace["check_log"]


def test_the_recipe_accepts_an_open_match_and_a_finished_one(matches, recipe):
    new = matches.create_match("toy", {"rounds": 2}, seed="doc")
    alice, bob = matches.join(new.match_id, "alice"), matches.join(new.match_id, "bob")
    matches.start(new.match_id, str(new.referee_token))
    matches.submit_order(new.match_id, alice.token, "1")
    assert recipe(str(new.match_id), matches.event_log(new.match_id)) is None
    for seat, pick in ((bob, "2"), (alice, "1"), (bob, "2")):
        matches.submit_order(new.match_id, seat.token, pick)
    log = matches.event_log(new.match_id)
    assert log[-1]["type"] == "Finished"
    assert recipe(str(new.match_id), log) is None


def test_the_recipe_names_an_altered_event(matches, recipe):
    new = matches.create_match("toy", {"rounds": 1}, seed="doc")
    alice, bob = matches.join(new.match_id, "alice"), matches.join(new.match_id, "bob")
    matches.start(new.match_id, str(new.referee_token))
    matches.submit_order(new.match_id, alice.token, "1")
    matches.submit_order(new.match_id, bob.token, "3")
    log = matches.event_log(new.match_id)
    step = next(i for i, item in enumerate(log) if item["type"] == "StepApplied")
    altered = copy.deepcopy(log)
    altered[step]["data"]["text"] = "seat 1 picks 3"
    assert recipe(str(new.match_id), altered)[:2] == (step + 1, "StepApplied")
    resealed = copy.deepcopy(log)
    resealed[5]["sealed"]["order"] = {"pick": 2}
    assert recipe(str(new.match_id), resealed) == (
        6,
        "OrderSubmitted",
        "the sealed order does not match its receipt digest",
    )
