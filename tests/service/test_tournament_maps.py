"""A tournament's config names a map as a match's does (SH-2): `Tournaments.create`
expands the name to the map's content, which Created records, so every table's match is
created on that content; a name no map has is refused naming the maps there are."""

from __future__ import annotations

import pytest

from domain.errors import InvalidConfigError
from service.matches import Matches
from service.tournaments import Tournaments


@pytest.fixture
def tournaments() -> Tournaments:
    return Tournaments(Matches(env={"PERSISTENCE_MODULE": "eventsourcing.popo"}))


def test_a_map_name_in_a_tournaments_config_becomes_the_maps_content(
    tournaments: Tournaments,
) -> None:
    new = tournaments.create("Bot Night", "tables", "shades", config={"map": "small"})
    config = tournaments.get(new.tournament_id).config
    match = tournaments.matches.create_match("shades", {"map": "small"})
    assert config["map"] == tournaments.matches.get_match(match.match_id).config["map"]


def test_a_map_name_no_map_has_is_refused(tournaments: Tournaments) -> None:
    with pytest.raises(InvalidConfigError, match="shades has no map 'nowhere'"):
        tournaments.create("Bot Night", "tables", "shades", config={"map": "nowhere"})
