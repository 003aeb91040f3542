"""The stages of a match's life the matrix reads each game at, each built once per test
session in a store of its own (an SQLite file copied from the session's migrated
template) through the Matches application, on a hand-driven clock.

The stages are played by tests/matrix/playing.py. A stage a game cannot reach is
listed in tests/matrix/cells.py (NOT_RUN) with the reason, never built.
"""

from __future__ import annotations

import contextlib
import dataclasses
import shutil
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from uuid import UUID

from domain.match import Match
from service.clock import ManualClock
from service.health import record_sweep
from service.matches import Matches
from service.settings import Settings
from tests.matrix.games import Game
from tests.matrix.playing import BUILDERS, QUARANTINE_AFTER, finished_won

OPERATOR = "matrix-operator-token"


@dataclass
class Stage:
    """A match at one stage of its life, in its own store: its id and tokens (seat
    number: token), the other matches the stage shows (a draw's rematch), and what its
    builder checked."""

    game: Game
    name: str
    store: Path
    app: Matches
    clock: ManualClock
    match_id: UUID
    referee: str
    tokens: dict[int, str]
    others: tuple[UUID, ...] = ()
    imported: bool = False
    shared: bool = True  # the session's stage (never changed once built), not a copy
    known: dict[UUID, Match] = field(default_factory=dict)

    @property
    def key(self) -> str:
        return f"{self.game.key}/{self.name}"

    def match(self, match_id: UUID | None = None) -> Match:
        """Returns one of the stage's matches (kept: a shared stage never changes)."""
        wanted = match_id or self.match_id
        if not self.shared:
            return self.app.get_match(wanted)
        if wanted not in self.known:
            self.known[wanted] = self.app.get_match(wanted)
        return self.known[wanted]

    def version(self, match_id: UUID) -> int:
        """Returns the version of a match's last stored event (one query)."""
        last = self.app.store.recorder.select_events(match_id, desc=True, limit=1)
        return int(last[0].originator_version) if last else 0

    @property
    def matches(self) -> tuple[UUID, ...]:
        """Returns the stage's matches: its own, then the others it shows."""
        return (self.match_id, *self.others)


STAGES = tuple(BUILDERS)


def open_app(store: Path, clock: ManualClock) -> Matches:
    """Returns the Matches application on an SQLite store (the operator token known)."""
    return Matches(
        env=Settings(f"sqlite:///{store}").event_store_env(),
        clock=clock,
        operator_token=OPERATOR,
        quarantine_after=QUARANTINE_AFTER,
    )


def build(game: Game, name: str, template: str, folder: Path) -> Stage:
    """Builds stage `name` of `game` in a new store under `folder`."""
    store = folder / f"{game.ruleset}-{game.version}-{name}.sqlite"
    shutil.copyfile(template, store)
    clock = ManualClock()
    app = open_app(store, clock)
    if name == "imported":
        return _imported(game, app, clock, store, template, folder)
    table = BUILDERS[name](game, app, clock)
    swept(app, clock)
    summary = app.summary(table.match_id)
    others = (UUID(summary.rematch_id),) if summary.rematch_id else ()
    return Stage(game, name, store, app, clock, table.match_id, table.referee, table.tokens, others)


def _imported(
    game: Game, app: Matches, clock: ManualClock, store: Path, template: str, folder: Path
) -> Stage:
    """A finished match exported (its public form) from a store of its own and imported
    here, read-only (docs/archive.md)."""
    origin = folder / f"{game.ruleset}-{game.version}-origin.sqlite"
    shutil.copyfile(template, origin)
    source = open_app(origin, ManualClock())
    try:
        table = finished_won(game, source, source.clock)  # type: ignore[arg-type]
        document = source.export_archive(table.match_id)
    finally:
        source.close()
    clock.reach(table.clock())
    app.import_archive(document)
    swept(app, clock)
    return Stage(
        game, "imported", store, app, clock, table.match_id, table.referee, table.tokens,
        imported=True,
    )  # fmt: skip


def swept(app: Matches, clock: ManualClock) -> None:
    """Brings the read models up to date, and notes the sweep a worker would have run
    last (so that /health sees a running service)."""
    app.read_models.catch_up()
    record_sweep(app.read_models, clock())


def copy_of(stage: Stage, folder: Path) -> Stage:
    """Returns the stage on a copy of its store (its own application and clock): a read
    that records (a referee's look) runs there, leaving the shared stage as built."""
    store = folder / stage.store.name
    source, target = sqlite3.connect(stage.store), sqlite3.connect(store)
    with contextlib.closing(source), contextlib.closing(target):
        source.backup(target)  # the WAL's pages too, which a file copy would miss
    clock = ManualClock(stage.clock())
    app = open_app(store, clock)
    return dataclasses.replace(stage, store=store, app=app, clock=clock, shared=False, known={})
