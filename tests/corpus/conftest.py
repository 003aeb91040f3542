"""Fixtures of the frozen corpus tests: a migrated copy shared by a module, or one copy
a test plays on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.corpus import BACKENDS, Corpus, corpus_copy, opened


@pytest.fixture(scope="module", params=BACKENDS)
def corpus(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Corpus]:
    """The corpus on one backend, shared by the tests that only read it."""
    directory = tmp_path_factory.mktemp("corpus")
    with corpus_copy(request.param, request, directory) as url, opened(url) as opened_corpus:
        yield opened_corpus


@pytest.fixture(params=BACKENDS)
def own_corpus(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Corpus]:
    """A copy of the corpus for one test that plays on (writes new events)."""
    with corpus_copy(request.param, request, tmp_path) as url, opened(url) as opened_corpus:
        yield opened_corpus
