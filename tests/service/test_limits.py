"""The declared limits (service/limits.py) and the use cases that apply them, so that the
command line (and any edge that is not HTTP) is held to the same rules as the API."""

from __future__ import annotations

import json
import re
import unicodedata

import pytest
from click.testing import CliRunner

from cli.main import main
from domain.errors import InvalidConfigError
from domain.rules.registry import get_ruleset
from service import limits
from service.limits import LimitError

pytestmark = pytest.mark.usefixtures("toy_rulesets")

DEEP = "[" * 1000 + "]" * 1000


def deep_value(levels: int) -> object:
    """Returns lists nested `levels` deep (built without recursion)."""
    value: object = []
    for _ in range(levels - 1):
        value = [value]
    return value


@pytest.mark.parametrize(
    "name",
    [
        "alice",
        "Zoë",
        "李小龍",
        "o'brien-2",
        "a b",
        "x" * limits.MAX_NAME_CHARS,
    ],
)
def test_a_printable_name_is_taken_as_it_is(name):
    assert limits.player_name(name) == name


def test_a_name_is_normalised_to_nfc():
    decomposed = unicodedata.normalize("NFD", "Zoë")
    assert decomposed != "Zoë" and limits.player_name(decomposed) == "Zoë"


@pytest.mark.parametrize(
    "name,problem",
    [
        ("a\x00b", "U+0000"),
        ("tab\there", "U+0009"),
        ("line\nbreak", "U+000A"),
        ("\u202eevil", "U+202E (RIGHT-TO-LEFT OVERRIDE)"),
        ("zero\u200bwidth", "U+200B"),
        ("\ud800", "lone surrogate"),
        ("", "0 characters"),
        (" ", "starts or ends with a space"),
        (" alice", "starts or ends with a space"),
        ("x" * (limits.MAX_NAME_CHARS + 1), "65 characters"),
        ("\xa0nbsp", "U+00A0"),
        ("private\ue000", "U+E000"),
    ],
)
def test_a_name_outside_the_rule_is_refused_naming_the_fault(name, problem):
    with pytest.raises(LimitError, match="name: ") as refused:
        limits.player_name(name)
    assert problem in str(refused.value) and refused.value.field == "name"
    assert refused.value.allowed == limits.NAME_RULE


@pytest.mark.parametrize("movement", [0, -1, limits.MAX_MOVEMENT + 1, 2**31 - 1, 1.0, "1", True])
def test_a_movement_outside_1_to_the_maximum_is_refused(movement):
    with pytest.raises(LimitError, match=f"from 1 to {limits.MAX_MOVEMENT}"):
        limits.check_movement(movement)


def test_the_largest_movement_and_the_next_one_fit_a_32_bit_column():
    assert limits.check_movement(limits.MAX_MOVEMENT) + 1 < 2**31 - 1


@pytest.mark.parametrize(
    "value,fault",
    [
        ({"a": deep_value(1000)}, "nests deeper than 32"),
        ({"n": 2**53}, "out of range"),
        ({"n": -(2**53)}, "out of range"),
        ({"x": float("inf")}, "not finite"),
        ({"x": float("nan")}, "not finite"),
        ({"\udc80": 1}, "lone surrogate"),
        ({"k": ["ok", "\ud800"]}, "lone surrogate"),
        ({"k": {1, 2}}, "set is not JSON"),
    ],
)
def test_json_outside_the_limits_is_refused(value, fault):
    with pytest.raises(LimitError, match=fault):
        limits.check_json(value, "config")


def test_json_at_the_depth_limit_is_taken():
    value: object = 1
    for _ in range(limits.MAX_JSON_DEPTH):
        value = [value]
    assert limits.check_json(value, "state") is value
    with pytest.raises(LimitError, match="deeper than 32"):
        limits.check_json([value], "state")


def test_the_depth_of_json_text_ignores_brackets_in_strings():
    assert limits.nesting_depth('{"a": "[[[[[[", "b": [[1]], "c": "\\"]]]"}') == 3
    assert limits.nesting_depth(DEEP) == 1000


@pytest.mark.parametrize(
    "order,fault",
    [
        ("x" * (limits.MAX_ORDER_CHARS + 1), "4097 characters"),
        ("e4\x00", "U+0000"),
        ("e4\ud800", "lone surrogate"),
        ('{"a":' * 40 + "1" + "}" * 40, "deeper than 32"),
        (DEEP, "deeper than 32"),
        ({"a": "x" * limits.MAX_ORDER_CHARS}, "its JSON form has"),
        ({"a": deep_value(1000)}, "deeper than 32"),
        (7, "got int"),
    ],
)
def test_an_order_outside_the_limits_is_refused(order, fault):
    with pytest.raises(LimitError, match=re.escape(fault)):
        limits.check_order(order)


def test_an_order_may_span_lines():
    limits.check_order("hold\r\n\tsquare 3\n")


@pytest.mark.parametrize("name", ["placement_seconds", "extension_seconds"])
def test_a_config_duration_is_at_most_a_year_and_a_day(name):
    """The ruleset's typed config bounds every duration (issue 11); the edge checks the JSON."""
    assert limits.check_config({name: limits.MAX_SECONDS})
    with pytest.raises(InvalidConfigError, match=rf"'{name}' must be an integer from 1 to "):
        get_ruleset("district_war").validate_config({name: 10**12})


def test_seconds_are_positive_finite_and_at_most_a_year_and_a_day():
    assert limits.check_seconds(0.5) == 0.5
    for bad in (0, -1, float("inf"), float("nan"), limits.MAX_SECONDS + 1, 1e300, "60", True):
        with pytest.raises(LimitError, match="seconds"):
            limits.check_seconds(bad)


def test_a_huge_integer_is_shown_by_its_size():
    with pytest.raises(LimitError, match="an integer of 13288 bits"):
        limits.check_movement(10**4000)


# -- the use cases apply them -------------------------------------------------------------


def test_the_use_cases_refuse_what_the_api_refuses(matches):
    new = matches.create_match("toy", {"close_early": False})
    with pytest.raises(LimitError, match="name: it holds U\\+0000"):
        matches.join(new.match_id, "a\x00b")
    assert matches.join(new.match_id, unicodedata.normalize("NFD", "Zoë")).seat == 1
    token = matches.join(new.match_id, "bob").token
    assert [s["name"] for s in matches.summary(new.match_id).seats] == ["Zoë", "bob"]
    with pytest.raises(LimitError, match="movement: got 2147483647"):
        matches.start(new.match_id, new.referee_token, movement=2**31 - 1)
    with pytest.raises(LimitError, match=r"state\[0\].*: it nests deeper"):
        matches.start(new.match_id, new.referee_token, state=deep_value(1000))
    matches.start(new.match_id, new.referee_token)
    with pytest.raises(LimitError, match="order: it nests deeper"):
        matches.submit_order(new.match_id, token, DEEP)
    with pytest.raises(LimitError, match="seconds: got 1e\\+20"):
        matches.extend_deadline(new.match_id, new.referee_token, seconds=1e20)
    with pytest.raises(InvalidConfigError, match=r"'deadline_seconds' must be an integer from 1"):
        matches.create_match("toy", {"deadline_seconds": 10**12})
    with pytest.raises(LimitError, match="idempotency_key: it holds a lone surrogate"):
        matches.create_match("toy", {}, idempotency_key="\udcff")
    rejected = [e for e in matches.event_log(new.match_id) if e["type"] == "OrderRejected"]
    assert rejected == []  # refused at the edge: nothing of it is stored


def test_the_command_line_reports_a_refused_name(tmp_path, monkeypatch):
    monkeypatch.setenv("DRTS_DATABASE_URL", f"sqlite:///{tmp_path}/cli.sqlite")
    runner = CliRunner()
    created = runner.invoke(main, ["match", "create", "toy"])
    match_id = created.output.split()[1]
    result = runner.invoke(main, ["match", "join", match_id, "bad\x07name"])
    assert result.exit_code == 1
    assert "validation_error: name: it holds U+0007; allowed: 1 to 64" in result.output


def test_an_order_longer_than_its_games_limit_is_refused_naming_the_limit(matches):
    """A game takes orders up to its `max_order_chars` (4,096 unless it says more)."""
    new = matches.create_match("toy", {})
    tokens = [matches.join(new.match_id, name).token for name in ("alice", "bob")]
    matches.start(new.match_id, str(new.referee_token))
    with pytest.raises(limits.LimitError, match="at most 4096 characters"):
        matches.submit_order(new.match_id, tokens[0], "1" + " " * 4096)
    assert all(e["type"] != "OrderRejected" for e in matches.event_log(new.match_id))


def test_a_shades_bot_reply_commanding_hundreds_of_shades_is_taken(matches):
    """SH-11: contest bots command every shade in one reply, far over 4,096 characters;
    commands for unknown ids are ignored (SH-4), so the order stands."""
    new = matches.create_match("shades", {"map": "graveyard"}, seed="long reply")
    tokens = [matches.join(new.match_id, name).token for name in ("alice", "bob")]
    matches.start(new.match_id, str(new.referee_token))
    reply = {"data": [{"id": 10_000 + i, "target": {"x": 1, "y": 1}} for i in range(400)]}
    assert len(json.dumps(reply, separators=(",", ":"))) > limits.MAX_ORDER_CHARS
    receipt = matches.submit_order(new.match_id, tokens[0], reply, source="bot")
    assert receipt.seat == 1
