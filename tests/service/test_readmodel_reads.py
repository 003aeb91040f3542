"""What a catch-up of the read models reads (issue 30): each event decoded once for all
the projections that read it, and no read past a short batch; the rows are the same as
a rebuild gives (service/readmodels/runner.py)."""

from __future__ import annotations

from typing import Any

import pytest

from service.matches import Matches
from service.readmodels import runner
from tests.service.readmodel_support import play_random_mix, snapshots

pytestmark = pytest.mark.usefixtures("toy_rulesets")


def counting(monkeypatch: pytest.MonkeyPatch, owner: Any, name: str) -> list[Any]:
    """Counts the calls of owner.name (still made); returns the first argument of each."""
    inner = getattr(owner, name)
    seen: list[Any] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        seen.append(args[0] if args else kwargs)
        return inner(*args, **kwargs)

    monkeypatch.setattr(owner, name, counted)
    return seen


def rebuilt(matches: Matches) -> dict[str, Any]:
    """Returns every read model's rows after rebuilding each from the whole log."""
    for name in matches.read_models.projections:
        matches.read_models.rebuild(name)
    return snapshots(matches.read_models)


def test_a_catch_up_decodes_each_event_once_for_all_its_projections(matches, clock, monkeypatch):
    play_random_mix(matches, clock, seed=11, count=3)
    models = matches.read_models
    read = [
        note.id
        for note in matches.store.recorder.select_notifications(start=1, limit=10_000)
        if any(note.topic in projection.topics for projection in models.projections.values())
    ]
    assert any(  # events several projections read
        sum(note.topic in p.topics for p in models.projections.values()) > 1
        for note in matches.store.recorder.select_notifications(start=1, limit=10_000)
    )
    decoded = counting(monkeypatch, matches.store.mapper, "to_domain_event")
    applied = models.catch_up()
    assert sorted(note.id for note in decoded) == read
    assert sum(applied.values()) > len(read)
    monkeypatch.undo()
    assert snapshots(models) == rebuilt(matches)


def test_a_catch_up_reads_the_log_once_a_projection_when_a_batch_is_short(
    matches, clock, monkeypatch
):
    play_random_mix(matches, clock, seed=12, count=2)
    models = matches.read_models
    reads = counting(monkeypatch, matches.store.recorder, "select_notifications")
    models.catch_up()
    assert len(reads) == len(models.projections)
    monkeypatch.setattr(runner, "BATCH", 4)  # full batches: read on until a short one
    play_random_mix(matches, clock, seed=13, count=2)
    reads.clear()
    applied = models.catch_up()
    assert len(reads) == sum(1 + count // 4 for count in applied.values())
    monkeypatch.undo()
    assert snapshots(models) == rebuilt(matches)
