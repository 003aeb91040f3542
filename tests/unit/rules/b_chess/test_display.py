"""B-Chess's Public Display: the Field and the Priority List, fit for a forum post."""

from __future__ import annotations

from domain.rules.b_chess import RULESET
from domain.rules.rng import Rng
from tests.unit.rules.b_chess.support import position


def test_the_display_shows_the_field_the_priority_list_and_the_seats():
    state = position([("K1", 1, 0, 0), ("K2", 2, 10, 10), ("Q3", 1, 5, 19)], macks=40)
    text = RULESET.public_display(state)
    lines = text.splitlines()
    assert text.endswith("\n") and "\t" not in text
    assert all(len(line) <= 72 for line in lines)
    row5 = next(line for line in lines if line.startswith(" 5  "))
    assert row5.endswith("1Q")
    assert "   1. K1     King   seat 1 on 0,0" in lines
    assert "   3. Q3     Queen  seat 1 on 5,19" in lines
    assert "Seat 2: 40 macks; King K2 on 10,10; 1 object(s) on the Field" in lines


def test_the_display_of_an_ended_match_names_the_winner():
    state = RULESET.initial_state({}, 2, Rng("d", 0))
    after, _ = RULESET.forfeit(state, 1)
    assert "seat 2 has the last King" in RULESET.public_display(after)
