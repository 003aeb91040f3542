"""Re-adjudicating a tampered log (issue 17): an edited event that still reads shows as the
first divergence at that event; a row that does not read is named, never a crash."""

from __future__ import annotations

from typing import Any

import pytest

from service.errors import TamperedLogError
from service.matches import Matches
from tests.support.tamper import edit_json, played, tamper, version_of


def test_an_edited_step_is_the_first_divergence(matches: Matches, database_url: str) -> None:
    match_id = played(matches)
    version = version_of(matches, match_id, "StepApplied", 1)
    kept = next(e for e in matches.event_log(match_id) if e["version"] == version)["data"]

    def rewrite(state: dict[str, Any]) -> None:
        state["text"] = "seat 2 picks 3"

    tamper(database_url, match_id, version, edit_json(rewrite))
    found = matches.audit(match_id).divergence
    assert found is not None
    assert (found.version, found.event, found.what) == (version, "StepApplied", "step")
    assert (found.movement, found.step) == (kept["movement"], kept["index"])
    assert found.stored["text"] == "seat 2 picks 3"  # type: ignore[index]
    assert found.recomputed["text"] == kept["text"]  # type: ignore[index]
    assert found.rulings == (kept["rule"],)


def test_an_edited_sealed_order_shows_where_the_orders_are_revealed(
    matches: Matches, database_url: str
) -> None:
    match_id = played(matches)
    version = version_of(matches, match_id, "OrderSubmitted", 2)

    def rewrite(state: dict[str, Any]) -> None:
        state["sealed"]["order"] = {"pick": 2}

    tamper(database_url, match_id, version, edit_json(rewrite))
    found = matches.audit(match_id).divergence
    assert found is not None
    assert (found.movement, found.what, found.event) == (2, "orders", "MovementClosed")
    assert found.stored != found.recomputed


def test_a_row_that_does_not_read_is_named(matches: Matches, database_url: str) -> None:
    match_id = played(matches)
    version = version_of(matches, match_id, "MovementResolved")
    tamper(database_url, match_id, version, lambda state: b"garbage" + state)
    with pytest.raises(TamperedLogError, match=rf"version {version} \(MovementResolved\)"):
        matches.audit(match_id)
