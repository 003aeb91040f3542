"""Another process on the same store, and a count of the event rows an application reads."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from service.matches import Matches


def fresh_process(matches: Matches) -> Matches:
    """Returns another Matches application on the same store: it has checked nothing."""
    return Matches(env=matches.env, clock=matches.clock)


def counting_event_rows(app: Matches, monkeypatch: pytest.MonkeyPatch) -> Callable[[], int]:
    """Counts the event rows the application reads from its event store; returns the count."""
    select_events = app.store.recorder.select_events
    read: list[int] = []

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        rows = select_events(*args, **kwargs)
        read.append(len(rows))
        return rows

    monkeypatch.setattr(app.store.recorder, "select_events", counted)
    return lambda: sum(read)
