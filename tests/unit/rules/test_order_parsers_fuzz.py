"""Every registered ruleset's order parser, fuzzed (issue 15): `parse_order`, given any text or
any JSON object within the API's limits, returns an order or raises InvalidOrderError, never
anything else; `check_order` on a parsed order, in states met in real play, raises nothing
but IllegalOrderError (or another error of the domain's family)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from domain.errors import DrtsError, IllegalOrderError, InvalidOrderError
from domain.rules.contract import Ruleset
from domain.rules.registry import REGISTRY, get_ruleset
from domain.rules.rng import Rng
from tests.conformance.playout import fork, playout

RULESETS = sorted(REGISTRY)
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
MAX_JSON_DEPTH = 32  # service/limits.py: deeper JSON never reaches a parser

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
# digits of every script (and superscripts, fractions), and runs longer than Python converts
digits = st.text(st.characters(categories=("Nd", "No", "Nl")), min_size=1, max_size=3) | (
    st.integers(4000, 6000).map(lambda n: "1" * n)
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


def vocabulary(ruleset: Ruleset[Any, Any]) -> list[str]:
    """Returns the words and keys of the game's orders, from orders met in random play."""
    words: set[str] = {"hold", "team", "first", "place", "recover", ">", ";", "{", "}", "\n"}
    for text in real_orders(ruleset):
        words.update(re.findall(r"\w+|[^\w\s]", text))
    return sorted(words)


def real_orders(ruleset: Ruleset[Any, Any]) -> list[str]:
    """Returns orders met in random play, as text and as JSON text."""
    orders = []
    for table in _states(ruleset):
        for seat in ruleset.to_move(table.state).seats:
            order = ruleset.random_order(table.state, seat, Rng("fuzz", table.movement, "words"))
            orders += [ruleset.format_order(order), json.dumps(ruleset.dump_order(order))]
    return orders


def mutated(text: str, where: int, word: str) -> str:
    """Returns the text with one of its words (or signs) replaced by another word."""
    tokens = re.split(r"(\w+)", text)
    tokens[where % len(tokens)] = word
    return "".join(tokens)


def _json_words(value: Any) -> set[str]:
    if isinstance(value, dict):
        return {str(k) for k in value} | {w for v in value.values() for w in _json_words(v)}
    if isinstance(value, list):
        return {w for v in value for w in _json_words(v)}
    return {str(value)}


def _states(ruleset: Ruleset[Any, Any]) -> list[Any]:
    """Returns tables of one random legal match: its start, a few movements in, its end."""
    tables = [fork(table) for table in playout(ruleset, f"fuzz-{ruleset.name}")]
    return [tables[0], tables[min(3, len(tables) - 1)], tables[len(tables) // 2], tables[-1]]


def texts(ruleset: Ruleset[Any, Any]) -> st.SearchStrategy[str]:
    """Any text, the game's words in any order, and JSON text (the JSON form as a string)."""
    words = st.one_of(
        st.sampled_from(vocabulary(ruleset)),
        st.text(max_size=6),
        st.integers().map(str),
        digits,
        st.builds(str.__add__, st.sampled_from("abcdefgh"), digits),
    )
    return st.one_of(
        st.text(),
        st.lists(words, max_size=8).map(" ".join),
        st.builds(mutated, st.sampled_from(real_orders(ruleset)), st.integers(0, 40), words),
        st.dictionaries(st.text(max_size=8), json_values, max_size=4).map(json.dumps),
        json_values.map(json.dumps),
        st.integers(1, 2000).map(lambda n: '{"a": ' + "[" * n + "]" * n + "}"),
        st.text(alphabet='{}[]":,0123456789 ', max_size=200),
    )


def objects(ruleset: Ruleset[Any, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Any JSON object, and objects with the keys and values of the game's JSON form."""
    words = st.sampled_from(vocabulary(ruleset))
    cells = st.builds(str.__add__, st.sampled_from("abcdefgh"), digits)
    values = st.one_of(
        json_values, words, digits, cells, st.lists(st.dictionaries(words, json_values | words))
    )
    return st.dictionaries(st.text(max_size=8) | words, values, max_size=4)


def parses_or_says_why(ruleset: Ruleset[Any, Any], source: str | dict[str, Any]) -> Any:
    """Returns the parsed order, or None when the parser refused it with InvalidOrderError;
    anything else it raises fails the test."""
    try:
        return ruleset.parse_order(source)
    except InvalidOrderError as error:
        assert str(error), "an InvalidOrderError says what is wrong"
        return None


@pytest.mark.parametrize("name", RULESETS)
def test_parse_order_of_any_text_gives_an_order_or_invalid_order(name):
    ruleset = get_ruleset(name)

    @FUZZ
    @given(texts(ruleset))
    def check(text: str) -> None:
        parses_or_says_why(ruleset, text)

    check()


@pytest.mark.parametrize("name", RULESETS)
def test_parse_order_of_any_json_object_gives_an_order_or_invalid_order(name):
    ruleset = get_ruleset(name)

    @FUZZ
    @given(objects(ruleset))
    def check(data: dict[str, Any]) -> None:
        parses_or_says_why(ruleset, data)

    check()


@pytest.mark.parametrize("name", RULESETS)
def test_check_order_of_a_parsed_order_raises_only_domain_errors(name):
    ruleset = get_ruleset(name)
    tables = _states(ruleset)
    sources = texts(ruleset) | objects(ruleset)

    @FUZZ
    @given(st.sampled_from(tables), sources, st.integers(1, ruleset.info.max_seats))
    def check(table: Any, source: Any, seat: int) -> None:
        order = parses_or_says_why(ruleset, source)
        if order is None:
            return
        try:
            ruleset.check_order(table.state, seat, order)
        except IllegalOrderError as error:
            assert str(error)
        except DrtsError as error:  # e.g. a seat that owes nothing: the domain's own words
            assert str(error)

    check()


@pytest.mark.parametrize("name", RULESETS)
def test_every_order_met_in_play_parses_back_from_its_text_and_json(name):
    """The fuzzing is anchored: the game's real orders do parse (no parser refuses all)."""
    ruleset = get_ruleset(name)
    for table in _states(ruleset)[:-1]:
        for seat in ruleset.to_move(table.state).seats:
            order = ruleset.random_order(table.state, seat, Rng("fuzz", table.movement, "anchor"))
            assert ruleset.parse_order(ruleset.format_order(order)) == order
            assert ruleset.parse_order(ruleset.dump_order(order)) == order
            assert ruleset.parse_order(json.dumps(ruleset.dump_order(order))) == order


@pytest.mark.parametrize(
    "name,text",
    [
        ("district_war", "a" + "1" * 5000),  # int() refuses runs of over 4300 digits
        ("district_war", '{"place": "b' + "2" * 5000 + '"}'),
        ("drts_team23", "fire \u00b2"),  # SUPERSCRIPT TWO: isdigit() yet no int
        ("drts_team23", "water 1" + "0" * 5000),
        ("drts_team23", '{"a": ' + "[" * 5000 + "]" * 5000 + "}"),  # RecursionError
        ("district_war", "{" + '"a":[' * 5000 + "]" * 5000 + "}"),
    ],
)
def test_what_the_fuzzing_found_is_an_invalid_order(name, text):
    with pytest.raises(InvalidOrderError):
        get_ruleset(name).parse_order(text)
