"""`drts maps` (the maps a Shades match may name, SH-2) and `drts match protocol` (a bot's
message, SH-11)."""

from __future__ import annotations

import json
import re

from click.testing import CliRunner

from cli.main import main


def test_maps_lists_every_map_with_its_size_and_tombs():
    result = CliRunner().invoke(main, ["maps"])
    assert result.exit_code == 0, result.output
    assert "river: 20x20, 8 tombs, 32 water squares, 2 to 8 seats" in result.output
    assert re.search(r"^graveyard: 24x24, 36 tombs", result.output, re.M)


def test_maps_shows_one_map_square_by_square():
    result = CliRunner().invoke(main, ["maps", "small"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[1:3] == ["    T........T", "    .........."]


def test_an_unknown_map_or_a_game_without_maps_says_so():
    unknown = CliRunner().invoke(main, ["maps", "nowhere"])
    assert unknown.exit_code == 1 and "shades has no map 'nowhere'" in unknown.output
    none = CliRunner().invoke(main, ["maps", "--ruleset", "district_war"])
    assert none.exit_code == 0 and "district_war has no maps" in none.output


def test_a_seat_reads_its_protocol_message_from_the_cli(tmp_path, monkeypatch):
    monkeypatch.setenv("DRTS_DATABASE_URL", f"sqlite:///{tmp_path}/cli.sqlite")
    runner = CliRunner()

    def drts(*args: str) -> str:
        result = runner.invoke(main, ["match", *args])
        assert result.exit_code == 0, result.output
        return result.output

    out = drts("create", "shades", "--config", '{"map": "river"}', "--seats", "2")
    match_id = re.search(r"^match (\S+)", out, re.M).group(1)
    referee = re.search(r"^referee token (\S+)", out, re.M).group(1)
    seat = drts("join", match_id, "ada")
    drts("join", match_id, "bob")
    drts("start", match_id, "--referee-token", referee)
    token = seat.split()[-1]
    init = json.loads(drts("protocol", match_id, "--token", token, "--message", "init"))
    assert init["my_id"] == 1 and init["map"]["width"] == 20
    turn = json.loads(drts("protocol", match_id, "--token", referee, "--seat", "2"))
    assert turn["turn_num"] == 0 and turn["food_count"] == 0
