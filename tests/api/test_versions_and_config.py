"""Typed config, presets and ruleset versions over HTTP: GET /rulesets, POST /matches, and a
match whose ruleset version is not installed (409 ruleset_version_not_installed)."""

from __future__ import annotations

import pytest

from domain.rules import registry
from tests.api.conftest import HttpMatch, assert_error, bearer
from tests.support.toy_ruleset import RULESET as TOY_V1
from tests.support.toy_ruleset import RULESET_V2 as TOY_V2


@pytest.fixture
def two_toy_versions(monkeypatch, toy_rulesets):
    monkeypatch.setitem(registry.REGISTRY, "toy", {1: TOY_V1, 2: TOY_V2})


def by_name(fields):
    return {field["name"]: field for field in fields}


def test_rulesets_show_each_options_type_bounds_or_choices_and_the_presets(client):
    body = client.get("/rulesets/drts_team23").get_json()
    fields = by_name(body["config"])
    assert fields["movements"] == {
        "name": "movements",
        "type": "int",
        "default": 20,
        "description": "regular movements of a match (DRTS-2)",
        "allowed": "an integer from 1 to 1000",
        "minimum": 1,
        "maximum": 1000,
    }
    assert fields["start"]["type"] == "choice"
    assert fields["start"]["choices"] == ["on_board", "off_board"]
    assert fields["close_early"]["type"] == "bool" and "minimum" not in fields["close_early"]
    assert body["presets"] == [
        {
            "name": "postal",
            "description": body["presets"][0]["description"],
            "config": {"movement_seconds": 86400, "close_early": True},
        }
    ]
    assert body["versions"] == [1, 2] and body["version"] == 2
    assert body["lists_legal_orders"] is False  # v2: items multiply the orders past listing
    assert by_name(body["config"])["deathstar_area"]["choices"] == ["neighbours", "ray"]
    v1 = client.get("/rulesets/drts_team23?version=1").get_json()
    assert v1["lists_legal_orders"] is True and "deathstar_area" not in by_name(v1["config"])
    board = by_name(client.get("/rulesets/district_war").get_json()["config"])["board"]
    assert board["type"] == "data" and "minimum" not in board


def test_every_integer_option_shown_has_both_bounds(client):
    for ruleset in client.get("/rulesets").get_json():
        for field in ruleset["config"]:
            if field["type"] == "int":
                assert field["minimum"] <= field["default"] <= field["maximum"], field


@pytest.mark.usefixtures("two_toy_versions")
def test_rulesets_list_the_installed_versions_and_describe_any_of_them(client):
    toy = next(r for r in client.get("/rulesets").get_json() if r["name"] == "toy")
    assert (toy["version"], toy["versions"]) == (2, [1, 2])
    assert client.get("/rulesets/toy?version=1").get_json()["version"] == 1
    response = client.get("/rulesets/toy?version=9")
    body = assert_error(response, 404, "unknown_ruleset_version")
    assert "toy has no version 9 (installed: 1, 2)" in body["message"]


@pytest.mark.usefixtures("two_toy_versions")
def test_a_match_may_name_its_version_and_an_unknown_one_is_a_422(client):
    latest = HttpMatch(client, start=False)
    pinned = HttpMatch(client, start=False, ruleset_version=1)
    assert client.get(f"/matches/{latest.id}").get_json()["ruleset_version"] == 2
    assert client.get(f"/matches/{pinned.id}").get_json()["ruleset_version"] == 1
    response = client.post("/matches", json={"ruleset": "toy", "ruleset_version": 3})
    assert_error(response, 422, "unknown_ruleset_version")


def test_a_match_whose_version_is_not_installed_is_a_409_not_a_500(client, monkeypatch):
    monkeypatch.setitem(registry.REGISTRY, "toy", {1: TOY_V1, 2: TOY_V2})
    table = HttpMatch(client)
    monkeypatch.setitem(registry.REGISTRY, "toy", {1: TOY_V1})
    for response in (
        client.get(f"/matches/{table.id}"),
        client.get(f"/matches/{table.id}/state"),
        client.get(f"/matches/{table.id}/display"),
        table.order(1, "2"),
    ):
        body = assert_error(response, 409, "ruleset_version_not_installed")
        assert "created under toy v2, which is not installed here" in body["message"]


def test_a_preset_named_on_create_is_expanded_into_the_matchs_config(client):
    created = client.post(
        "/matches",
        json={"ruleset": "district_war", "preset": "postal", "config": {"troops": 5}},
    ).get_json()
    config = client.get(f"/matches/{created['match_id']}").get_json()["config"]
    assert (config["placement_seconds"], config["extension_seconds"]) == (86400, 43200)
    assert config["troops"] == 5
    events = client.get(
        f"/matches/{created['match_id']}/events", headers=bearer(created["referee_token"])
    ).get_json()["items"]
    assert events[0]["data"]["config"] == config  # the Created event holds plain values


def test_an_unknown_preset_and_an_absurd_clock_are_422_naming_what_is_allowed(client):
    response = client.post("/matches", json={"ruleset": "district_war", "preset": "blitz"})
    body = assert_error(response, 422, "invalid_config")
    assert body["message"] == "unknown preset 'blitz' (presets: postal)"
    response = client.post(
        "/matches", json={"ruleset": "district_war", "config": {"placement_seconds": 10**12}}
    )
    body = assert_error(response, 422, "invalid_config")
    assert "'placement_seconds' must be an integer from 1 to 31622400" in body["message"]


def test_the_openapi_document_shows_types_presets_versions_and_the_display(client):
    spec = client.get("/openapi.json").get_json()
    schemas = spec["components"]["schemas"]
    assert {"type", "minimum", "maximum", "choices", "allowed"} <= set(
        schemas["ConfigField"]["properties"]
    )
    assert {"versions", "presets", "lists_legal_orders"} <= set(schemas["Ruleset"]["properties"])
    assert {"preset", "ruleset_version"} <= set(schemas["CreateMatch"]["properties"])
    display = spec["paths"]["/matches/{match_id}/display"]["get"]
    assert list(display["responses"]["200"]["content"]) == ["text/plain"]
    assert "ruleset_version_not_installed" in display["responses"]["409"]["description"]
