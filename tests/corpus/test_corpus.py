"""The frozen corpus (tests/corpus/README.md): matches stored once by drts as it was on
2026-11-30, which every later version must read as they are.

Each store is a copy (the SQLite file copied, the PostgreSQL dump restored into a
new database), migrated with `schema.upgrade` first, as an operator's would be.
On it every match verifies up to its stored head, replays in agreement with the
store, and keeps its status and outcome; the read models answer for every match,
caught up and rebuilt; the unfinished matches play on.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.utils import TopicError, resolve_topic

from domain.rules.rng import Rng
from service import schema
from service.matches import Matches
from service.readmodels.tables import PROJECTION_NAMES
from service.settings import Settings
from tests.corpus.store import (
    EXPECTED_FILE,
    POSTGRES_DUMP,
    SQLITE_FILE,
    stored_topics,
)
from tests.support.corpus import BY_KEY, EXPECTED, MATCHES, Corpus

# SHA-256 of the files as generated: the corpus is never regenerated nor edited
GENERATED = {
    SQLITE_FILE: "23eef047d5f0e552090e6f2e2ae788897ddfbed2e276ccfd51d5e64042cac218",
    POSTGRES_DUMP: "80033f64128c3f6d8a87c520bce1a72e3a0172ae74cb80cb3bdf3b25f96f5ef4",
    EXPECTED_FILE: "1732f919ff24ac335928ecb892f904de372fc22e4c6fec4f7aae28c84d211b04",
}


def every_match() -> pytest.MarkDecorator:
    """Parametrizes a test over the corpus matches."""
    return pytest.mark.parametrize("entry", MATCHES, ids=[e["key"] for e in MATCHES])


# -- the files ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", GENERATED, ids=lambda p: p.name)
def test_the_corpus_files_are_the_ones_generated_once(path: Path) -> None:
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert digest == GENERATED[path], (
        f"{path.name} changed: the corpus is frozen test data, never regenerated or edited "
        "(tests/corpus/README.md); make the new code read it instead"
    )


def test_the_corpus_holds_every_kind_of_match_the_issue_names() -> None:
    games = {(entry["game"], entry["status"]) for entry in MATCHES}
    assert games == {
        ("district_war", "finished"),
        ("district_war", "started"),
        ("district_war", "open"),
        ("drts_team23", "finished"),
        ("drts_team23", "started"),
    }
    reasons = " | ".join(e["outcome"]["reason"] for e in MATCHES if e["status"] == "finished")
    for words in ("on points", "strikes", "drawn", "After movement 20", "Golden point"):
        assert words in reasons


# -- the store ----------------------------------------------------------------------------


def test_the_corpus_was_stored_at_its_revision_and_upgrades_to_the_latest(corpus: Corpus) -> None:
    assert corpus.revision_before_upgrade == EXPECTED["schema_revision"]
    assert schema.current(Settings(corpus.url)) == schema.head()


def test_every_stored_topic_still_resolves_to_its_class(corpus: Corpus) -> None:
    assert stored_topics(corpus.app, corpus.url) == EXPECTED["topics"]
    for topic in EXPECTED["topics"]:
        try:
            named = resolve_topic(topic).__qualname__
        except TopicError as error:
            pytest.fail(
                f"stored topic {topic} no longer resolves ({error}): a class that moves "
                "registers its old topic (docs/contributing.md)"
            )
        assert named == topic.partition(":")[2], (
            f"stored topic {topic} now names {named}: an event class is never renamed, "
            "its name is part of every chained event (docs/contributing.md)"
        )


# -- every match --------------------------------------------------------------------------


@every_match()
def test_the_match_verifies_up_to_its_stored_head(corpus: Corpus, entry: dict[str, Any]) -> None:
    report = corpus.app.verify_chain(entry["match_id"])
    assert report.ok, f"{entry['key']}: {report.broken}"
    assert report.events == entry["head"]["version"]
    assert report.head == entry["head"]["chain"]


@every_match()
def test_the_match_replays_in_agreement_with_the_store(
    corpus: Corpus, entry: dict[str, Any]
) -> None:
    report = corpus.app.replay(entry["match_id"])
    assert report.agrees and report.events == entry["head"]["version"]


@every_match()
def test_the_match_keeps_its_head_status_and_outcome(corpus: Corpus, entry: dict[str, Any]) -> None:
    summary = corpus.app.summary(entry["match_id"])
    assert summary.ruleset == entry["game"]
    assert summary.ruleset_version == entry["ruleset_version"]
    assert {"version": summary.version, "chain": summary.chain} == entry["head"]
    assert summary.status == entry["status"]
    assert summary.movement == entry["movement"]
    assert corpus.app.get_match(entry["match_id"]).outcome == entry["outcome"]  # as stored
    stored = entry["outcome"]  # the summary adds `rematch`: the stored key "replay" (DW-5)
    assert summary.outcome == (stored and {**stored, "rematch": stored["replay"]})
    links = (entry["replay_id"], entry["replay_of"])  # expected.json's names: rematch id, of
    assert (summary.rematch_id, summary.rematch_of) == links
    assert (summary.replay_id, summary.replay_of) == links  # the deprecated aliases


# -- the read models ----------------------------------------------------------------------


def check_read_models(app: Matches) -> None:
    """Asserts that the match list, the scoreboards and the standings answer for every
    corpus match as its status and outcome say."""
    listed = {item["match_id"]: item for item in app.list_matches(limit=100).items}
    assert sorted(listed) == sorted(entry["match_id"] for entry in MATCHES)
    for entry in MATCHES:
        item, finished = listed[entry["match_id"]], entry["status"] == "finished"
        assert (item["ruleset"], item["status"], item["movement"], item["seats"]) == (
            entry["game"],
            entry["status"],
            entry["movement"],
            entry["seats"],
        )
        assert item["result"] == (entry["outcome"]["result"] if finished else None)
        if finished:
            last = app.scoreboard(entry["match_id"]).movements[-1]
            scores = {str(row["seat"]): row["score"] for row in last["seats"]}
            assert scores == entry["outcome"]["scores"], entry["key"]
    standings = app.standings(limit=1000).items
    assert {(r["ruleset"], r["player"]): _record(r) for r in standings} == standings_of(MATCHES)


def standings_of(entries: list[dict[str, Any]]) -> dict[tuple[str, str], dict[str, int]]:
    """Returns (played, wins, draws, losses) per ruleset and player over the finished
    matches, as docs/api.md counts them: a seat among a won match's winners wins, a drawn
    match is a draw for its winners (for every seat when it names none), and every other
    seat loses."""
    counts: dict[tuple[str, str], dict[str, int]] = {}
    for entry in entries:
        if entry["status"] != "finished":
            continue
        outcome = entry["outcome"]
        for seat in entry["seats"]:
            row = counts.setdefault(
                (entry["game"], seat["name"]), {"played": 0, "wins": 0, "draws": 0, "losses": 0}
            )
            named = seat["seat"] in outcome["winners"]
            if outcome["result"] == "draw":
                kind = "draws" if named or not outcome["winners"] else "losses"
            else:
                kind = "wins" if outcome["result"] == "win" and named else "losses"
            row["played"] += 1
            row[kind] += 1
    return counts


def _record(row: dict[str, Any]) -> dict[str, int]:
    return {key: row[key] for key in ("played", "wins", "draws", "losses")}


def test_the_read_models_answer_for_every_match(corpus: Corpus) -> None:
    check_read_models(corpus.app)


def test_the_read_models_rebuild_from_the_corpus_to_the_same_answers(corpus: Corpus) -> None:
    applied = {name: corpus.app.read_models.rebuild(name) for name in PROJECTION_NAMES}
    assert all(applied.values()), applied
    check_read_models(corpus.app)


# -- unfinished matches play on -----------------------------------------------------------


def test_a_stored_running_district_war_match_plays_on(own_corpus: Corpus) -> None:
    entry, app = BY_KEY["dw-running"], own_corpus.app
    match = app.get_match(entry["match_id"])
    (seat,) = app.summary(match.id).to_move
    assert match.deadline is not None
    own_corpus.clock.reach(match.deadline)
    closing = app.resolve(match.id, match.movement)
    assert closing is not None and closing.strikes == (seat,)  # DW-6: silent past the deadline
    rules = match.rules()
    state = rules.load_state(match.state)
    order = rules.format_order(rules.random_order(state, seat, Rng("corpus-plays-on", 0)))
    receipt = app.submit_order(match.id, entry["tokens"]["seats"][str(seat)], order)
    assert receipt.closing is not None and receipt.closing.resolved
    assert app.verify_chain(match.id).ok and app.replay(match.id).agrees


def test_a_stored_running_drts_match_resolves_its_sealed_orders(own_corpus: Corpus) -> None:
    entry, app = BY_KEY["drts-running"], own_corpus.app
    match = app.get_match(entry["match_id"])
    assert len(match.pending) == 5 and match.deadline is not None
    own_corpus.clock.reach(match.deadline)
    closing = app.resolve(match.id, match.movement)
    assert closing is not None and closing.resolved
    closed = [e for e in app.event_log(match.id) if e["type"] == "MovementClosed"][-1]
    assert closed["data"]["movement"] == 4 and len(closed["data"]["orders"]) == 5
    assert app.summary(match.id).movement == 5
    assert app.verify_chain(match.id).ok and app.replay(match.id).agrees


def test_a_stored_open_match_is_found_by_its_key_takes_a_seat_and_starts(
    own_corpus: Corpus,
) -> None:
    entry, app = BY_KEY["dw-open"], own_corpus.app
    again = app.create_match("district_war", idempotency_key="corpus-open-1")
    assert not again.created and str(again.match_id) == entry["match_id"]
    app.join(entry["match_id"], "eve")
    app.start(entry["match_id"], entry["tokens"]["referee"])
    assert app.summary(entry["match_id"]).status == "started"
    assert app.verify_chain(entry["match_id"]).ok
