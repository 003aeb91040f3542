"""Games whose view is the whole state (`Ruleset.view_is_state`, issue 46): readers serve
the stored state JSON as it is instead of loading and dumping it for each viewer
(service/queries/views.py `state_view`), so the game must show every seat and spectator
exactly the dumped state. The frozen corpus holds the same for every stored movement
(tests/corpus/test_corpus_2026_12.py)."""

from __future__ import annotations

import json

import pytest

from domain.rules.contract import canonical_json
from domain.rules.registry import all_rulesets
from tests.conformance.playout import playout

SAYING_SO = [r for r in all_rulesets() if r.view_is_state]  # the toys say nothing


def test_the_games_with_nothing_secret_in_their_state_say_so_and_shades_does_not() -> None:
    assert sorted({(r.info.name, r.info.version) for r in SAYING_SO}) == [
        ("b_chess", 1),
        ("district_war", 1),
        ("dris_et_tessa", 1),
        ("drts_team23", 1),
        ("drts_team23", 2),
    ]  # Shades shows a seat its turn message (SH-11), not the state


@pytest.mark.parametrize("ruleset", SAYING_SO, ids=lambda r: f"{r.info.name}-v{r.info.version}")
def test_every_viewer_sees_the_whole_dumped_state_at_every_movement(ruleset) -> None:
    for table in playout(ruleset, "view-is-state"):
        dumped = canonical_json(ruleset.dump_state(table.state))
        loaded = ruleset.load_state(json.loads(dumped))  # as a reader would from the store
        for seat in (None, *range(1, ruleset.info.max_seats + 1)):
            assert canonical_json(ruleset.view(loaded, seat)) == dumped, (table.movement, seat)
