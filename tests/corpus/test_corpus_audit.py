"""The frozen corpus re-adjudicates exactly (issue 17): every stored match, played again
under its pinned ruleset version from its config, seed and orders, gives every stored step,
state hash and outcome. On a copy of each store (the corpus files are never opened for
writing): auditing an unfinished match records the referee's look.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.corpus import BACKENDS, MATCHES, Corpus, corpus_copy, opened


@pytest.fixture(params=BACKENDS)
def audited_corpus(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Corpus]:
    """A copy of the corpus for this module alone (the audits of running matches write)."""
    with corpus_copy(request.param, request, tmp_path) as url, opened(url) as corpus:
        yield corpus


def test_every_corpus_match_re_adjudicates_exactly(audited_corpus: Corpus) -> None:
    for entry in MATCHES:
        referee = (entry.get("tokens") or {}).get("referee")
        report = audited_corpus.app.audit(entry["match_id"], referee)
        assert report.divergence is None, (entry["key"], report.divergence)
        assert report.exact
        assert (report.ruleset, report.ruleset_version) == (
            entry["game"],
            entry["ruleset_version"],
        )
        resolved = sum(
            1
            for item in audited_corpus.app.event_log(entry["match_id"])
            if item["type"] == "MovementResolved"
        )
        assert report.movements == resolved, entry["key"]
        looked = [
            item["data"]
            for item in audited_corpus.app.event_log(entry["match_id"])
            if item["type"] == "SecretViewed" and item["data"]["what"] == "audit"
        ]
        assert looked == (
            [] if entry["status"] == "finished" else [{"viewer": "referee", "what": "audit"}]
        )
