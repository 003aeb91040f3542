"""Shades through the Matches application (issue 22): maps named on create and recorded as
content (SH-2), the contest preset, the clock (SH-4, SH-10), the bot protocol's messages
(SH-11), every scenario file, and a 300-turn match that replays and re-adjudicates."""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from domain.errors import (
    InvalidConfigError,
    MatchNotStartedError,
    NotYourSeatError,
)
from domain.rules.shades import RULESET
from domain.rules.shades.config import DEFAULT_MAP
from service import maps
from service.channels.protocol import Message, protocol_message
from service.errors import NoBotProtocolError, SeatNeededError
from service.matches import Matches
from service.scenarios.runner import run_scenario

SCENARIOS = sorted((Path(__file__).parents[1] / "scenarios" / "shades").glob("*.json"))


def started(matches: Matches, config: dict[str, Any], seats: int = 2, **create: Any):
    new = matches.create_match("shades", config, seats=seats, seed="shades", **create)
    tokens = [matches.join(new.match_id, f"bot{n}").token for n in range(1, seats + 1)]
    matches.start(new.match_id, new.referee_token)
    return new, tokens


def created_config(matches: Matches, match_id: Any) -> dict[str, Any]:
    created = matches.event_log(match_id)[0]
    assert created["type"] == "Created"
    return created["data"]["config"]


def test_the_default_map_is_the_services_small_map():
    """SH-2: the domain keeps the project's small map as its default, the same squares."""
    small = maps.find_map("shades", "small")
    assert RULESET.validate_config({"map": small.content})["map"] == list(DEFAULT_MAP)


def test_every_map_of_the_project_is_valid_and_listed():
    """SH-2: a small map, 20x20 maps with water, one with many tombs."""
    shown = {info.name: info.summary("shades") for info in maps.catalogue("shades")}
    assert set(shown) == {"small", "river", "lakes", "graveyard"}
    assert all(shown[name]["width"] == 20 and shown[name]["water"] for name in ("river", "lakes"))
    assert shown["graveyard"]["tombs"] == 36
    assert maps.catalogue("district_war") == () and maps.catalogue("../../etc") == ()


def test_a_map_named_on_create_is_recorded_as_its_content(matches):
    """SH-2: the Created event holds the map's squares, not its name."""
    new, _ = started(matches, {"map": "river"})
    river = RULESET.validate_config({"map": maps.find_map("shades", "river").content})["map"]
    assert created_config(matches, new.match_id)["map"] == river
    assert matches.get_match(new.match_id).state["config"]["map"] == river


def test_a_map_given_as_ppm_content_is_recorded_as_its_rows(matches):
    ppm = "P3 4 2 255  255 0 0 255 255 255 255 255 255 255 0 0" + "  255 255 255" * 4
    new = matches.create_match("shades", {"map": ppm}, seed="ppm")
    assert created_config(matches, new.match_id)["map"] == ["T..T", "...."]


def test_an_unknown_map_name_is_refused_naming_the_maps(matches):
    with pytest.raises(InvalidConfigError, match=r"no map 'atlantis' \(maps: graveyard, lakes"):
        matches.create_match("shades", {"map": "atlantis"})


def test_editing_a_map_file_never_changes_a_stored_match(matches, tmp_path, monkeypatch):
    """SH-2: the match keeps the map it was created with; the next match gets the new one."""
    folder = tmp_path / "maps"
    shutil.copytree(maps.MAPS, folder)
    monkeypatch.setattr(maps, "MAPS", folder)
    first, tokens = started(matches, {"map": "small"})
    (folder / "shades" / "small.ppm").write_text("P3 2 2 1  1 0 0  1 0 0  1 1 1  1 1 1\n")
    matches.submit_order(first.match_id, tokens[0], "hold")
    matches.submit_order(first.match_id, tokens[1], "hold")
    assert created_config(matches, first.match_id)["map"] == list(DEFAULT_MAP)
    assert matches.replay(first.match_id).agrees
    second = matches.create_match("shades", {"map": "small"})
    assert created_config(matches, second.match_id)["map"] == ["TT", ".."]


def test_the_contest_preset_is_expanded_into_the_recorded_config(matches):
    """Version 2's `contest` records SH-6's sequential bonus and SH-12's first-found
    contested human too; a match pinned to version 1 records its own four options."""
    new = matches.create_match("shades", {"map": "lakes"}, preset="contest")
    config = created_config(matches, new.match_id)
    v1 = {"turns": 300, "turn_seconds": 5, "razing": "one", "scoring": "normalised"}
    assert {k: v for k, v in config.items() if k != "map"} == {
        **v1,
        "elimination_bonus": "sequential",
        "contested_human": "first_found",
    }
    old = matches.create_match("shades", {"map": "lakes"}, preset="contest", version=1)
    assert {k: v for k, v in created_config(matches, old.match_id).items() if k != "map"} == v1
    assert len(config["map"]) == 20


def test_a_turn_closes_as_soon_as_every_seat_alive_has_ordered(matches):
    """SH-10: the last order of the turn resolves it, before the deadline."""
    new, tokens = started(matches, {"map": "small"})
    first = matches.submit_order(new.match_id, tokens[0], "hold")
    assert first.closing is None
    last = matches.submit_order(new.match_id, tokens[1], {"data": []})
    assert last.closing is not None and last.closing.resolved
    assert matches.get_match(new.match_id).movement == 2


def test_a_seat_silent_at_the_deadline_is_eliminated(matches, clock):
    """SH-4: no reply by the deadline (5 s) eliminates the seat; the turn then resolves."""
    new, tokens = started(matches, {"map": "small"})
    matches.submit_order(new.match_id, tokens[0], "hold")
    closing = matches.resolve(new.match_id, 1, clock.now + timedelta(seconds=5))
    assert closing is not None and closing.eliminated == (2,) and closing.resolved
    state = matches.get_match(new.match_id).state
    assert state["seats"]["2"]["eliminated"] == {"turn": 0, "reason": "forfeit"}
    assert "SeatEliminated" in [item["type"] for item in matches.event_log(new.match_id)]


def test_a_bot_reads_its_turn_and_init_messages(matches):
    """SH-11: the seat's token gives its own messages; the referee names a seat."""
    new, tokens = started(matches, {"map": "small"})
    turn = protocol_message(matches, new.match_id, tokens[1])
    assert set(turn) == {"alive_ants", "alive_hills", "alive_food", "food_count", "turn_num"}
    assert turn["turn_num"] == 0 and len(turn["alive_ants"]) == 8
    init = protocol_message(matches, new.match_id, tokens[1], message=Message.INIT)
    assert init["my_id"] == 2 and init["map"]["width"] == 10
    by_referee = protocol_message(matches, new.match_id, new.referee_token, seat=2)
    assert by_referee == turn


def test_protocol_messages_are_refused_to_the_wrong_reader(matches, toy_rulesets):
    new, tokens = started(matches, {"map": "small"})
    with pytest.raises(NotYourSeatError):
        protocol_message(matches, new.match_id, tokens[0], seat=2)
    with pytest.raises(SeatNeededError):
        protocol_message(matches, new.match_id, None)
    with pytest.raises(SeatNeededError):
        protocol_message(matches, new.match_id, new.referee_token)
    waiting = matches.create_match("shades", {})
    matches.join(waiting.match_id, "early")
    with pytest.raises(MatchNotStartedError):
        protocol_message(matches, waiting.match_id, waiting.referee_token, seat=1)
    toy = matches.create_match("toy", {})
    with pytest.raises(NoBotProtocolError, match="toy, which has no bot protocol"):
        protocol_message(matches, toy.match_id, toy.referee_token, seat=1)


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_shades_scenario_plays_the_same_through_the_service(path, through_matches):
    report = run_scenario(path, through_matches)
    assert report.passed, "\n".join([report.description, *report.mismatches])
