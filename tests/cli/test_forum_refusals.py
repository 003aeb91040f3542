"""`drts forum import` and `drts match forum-post` refuse posts that cannot be stored
(issue 41), on SQLite and PostgreSQL alike: a clear message naming the post and the
problem, a non-zero exit, never a traceback, and nothing of the file taken
(service/limits.py's stored-text rule, docs/forum.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cli.main import main
from service.channels.forum.desk import posts_of
from service.matches import Matches
from service.settings import Settings

OPERATOR = "forum-operator"
DEEP = 100_000


@pytest.fixture
def drts(database_url: str, monkeypatch: pytest.MonkeyPatch, toy_rulesets: None) -> Any:
    monkeypatch.setenv("DRTS_DATABASE_URL", database_url)
    monkeypatch.setenv("DRTS_OPERATOR_TOKEN", OPERATOR)
    runner = CliRunner()

    def run(*args: str) -> Result:
        return runner.invoke(main, list(args))

    return run


@pytest.fixture
def match_id(drts: Any) -> str:
    created = drts("match", "create", "toy").output.split()
    for name in ("al", "bo"):
        assert drts("match", "join", created[1], name).exit_code == 0
    assert drts("match", "start", created[1], "--referee-token", created[-1]).exit_code == 0
    return created[1]


def refused(result: Result, *words: str) -> str:
    """Asserts a refusal: exit 1, no traceback, the message holding every word."""
    assert result.exit_code == 1, (result.output, result.exception)
    assert isinstance(result.exception, SystemExit), result.exception  # click's exit, no bug
    assert "Traceback" not in result.output
    for word in words:
        assert word in result.output, result.output
    return result.output


def nothing_taken(database_url: str, match: str) -> None:
    app = Matches(env=Settings(database_url).event_store_env())
    try:
        assert posts_of(app.store, match) == []
    finally:
        app.close()


@pytest.mark.parametrize("where", ["author", "post_id", "body", "identity"])
def test_an_import_with_a_lone_surrogate_is_refused_naming_the_post_and_field(
    drts, match_id, database_url, tmp_path: Path, where: str
) -> None:
    """Finding (issue 41): a lone surrogate in a JSON list of posts printed a traceback."""
    good = {"author": "al", "post_id": "p-1", "body": "1"}
    bad = {**good, "post_id": "p-2", where: "x\ud800"}
    path = tmp_path / "posts.json"
    path.write_text(json.dumps([good, bad]))  # json.dumps writes the escape \ud800
    output = refused(drts("forum", "import", str(path), "--match", match_id), "post 2", where)
    assert "lone surrogate" in output
    nothing_taken(database_url, match_id)


@pytest.mark.parametrize("char", ["\x00", "\x07", "\x1b", "\x7f", "\x85"])
def test_an_import_with_a_control_character_is_refused(
    drts, match_id, database_url, tmp_path: Path, char: str
) -> None:
    """Finding (issue 41): a NUL in a post's author was a DataError on PostgreSQL."""
    path = tmp_path / "posts.json"
    path.write_text(json.dumps([{"author": f"a{char}l", "post_id": "p-1", "body": "1"}]))
    output = refused(drts("forum", "import", str(path), "--match", match_id), "post 1", "author")
    assert f"U+{ord(char):04X}" in output
    nothing_taken(database_url, match_id)


def test_an_import_nested_100000_deep_is_refused(drts, match_id, database_url, tmp_path):
    """Finding (issue 41): a JSON list nested 100,000 deep printed a RecursionError."""
    path = tmp_path / "posts.json"
    path.write_text("[" * DEEP + "]" * DEEP)
    refused(drts("forum", "import", str(path), "--match", match_id), "deeper than 32 levels")
    nothing_taken(database_url, match_id)


@pytest.mark.parametrize(
    "option,value", [("--author", "a\x00l"), ("--post-id", "p\x00"), ("--identity", "i\x01")]
)
def test_a_single_post_with_a_control_character_is_refused(
    drts, match_id, database_url, option: str, value: str
) -> None:
    args = {"--author": "al", "--post-id": "p-1", option: value}
    flat = [item for pair in args.items() for item in pair]
    result = drts("match", "forum-post", match_id, "1", *flat, "--token", OPERATOR)
    refused(result, "validation_error", option.strip("-").replace("-", "_"))
    nothing_taken(database_url, match_id)
