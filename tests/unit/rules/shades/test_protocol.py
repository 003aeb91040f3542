"""The contest's bot messages (SH-11), built from the state, and the Public Display."""

from domain.rules.rng import Rng
from domain.rules.shades import RULESET
from domain.rules.shades.protocol import init_message, turn_message
from tests.unit.rules.shades.support import position


def test_the_init_message_gives_the_map_the_start_and_the_seats_id():
    """SH-11: every tomb square of the map (assigned or not), every water square, the
    shades of the start (shade i on tomb i, SH-2) and `my_id`."""
    state = RULESET.initial_state(
        RULESET.validate_config({"map": ["T.T.T", "..~..", "T...T"]}), 2, Rng("init", 0)
    )
    message = init_message(state, 2)
    assert message["map"] == {
        "width": 5,
        "height": 3,
        "water_tiles": [{"x": 2, "y": 1}],
        "tombstone_positions": [
            {"x": 0, "y": 0},
            {"x": 2, "y": 0},
            {"x": 4, "y": 0},
            {"x": 0, "y": 2},
            {"x": 4, "y": 2},
        ],
    }
    assert message["my_id"] == 2
    assert message["spawn_positions"] == [
        {"position": {"x": s.x, "y": s.y}, "owner": s.owner, "id": s.id} for s in state.shades
    ]


def test_the_init_message_is_the_same_later_in_the_match():
    """It is rebuilt from any state: razed tombs and dead shades still show where the match
    started."""
    state = position(shades=[(1, 0, 0)], razed={2: 0}, turn=3)
    spawned = init_message(state, 1)["spawn_positions"]
    assert [item["id"] for item in spawned] == [1, 2, 3, 4]


def test_the_turn_message_is_the_snapshot_every_seat_sees_with_its_own_store():
    """SH-11, SH-3: the same shades, standing tombs and humans for every seat, its own
    `food_count`, and the turn number counting from 0."""
    state = position(
        shades=[(1, 1, 1), (2, 5, 3)], humans=[(3, 2)], stored={2: 4}, razed={3: 1}, turn=2
    )
    message = turn_message(state, 2)
    assert message == {
        "alive_ants": {
            "1": {"position": {"x": 1, "y": 1}, "owner": 1, "id": 1},
            "2": {"position": {"x": 5, "y": 3}, "owner": 2, "id": 2},
        },
        "alive_hills": [
            {"position": {"x": 0, "y": 0}, "owner": 1, "id": 1},
            {"position": {"x": 6, "y": 0}, "owner": 2, "id": 2},
            {"position": {"x": 6, "y": 4}, "owner": 2, "id": 4},
        ],
        "alive_food": [{"position": {"x": 3, "y": 2}, "id": 1}],
        "food_count": 4,
        "turn_num": 2,
    }
    assert {k: v for k, v in turn_message(state, 1).items() if k != "food_count"} == {
        k: v for k, v in message.items() if k != "food_count"
    }


def test_the_public_display_draws_the_map_and_the_seats():
    state = position(
        shades=[(1, 1, 1), (2, 6, 0)],
        humans=[(3, 2)],
        razed={3: 0},
        eliminated={2: (0, "forfeit")},
        turn=1,
        scoring="normalised",
    )
    text = RULESET.display(state)
    lines = text.splitlines()
    assert lines[3] == "   0 1 2 3 4 5 6"
    assert lines[4] == " 0 A . . ~ . . B2"  # seat 2's shade on its own tomb
    assert lines[5] == " 1 . 1 . . . . ."
    assert lines[6] == " 2 . . . h . . ."
    assert lines[8] == " 4 + . . ~ . . B"  # tomb 3 razed
    assert "Seat 2: eliminated in turn 0 (no reply by the deadline)" in text
    assert "score 100" in text and text.endswith("\n")
