"""Every view of every game at every stage of a match (issue 40): the cells of games x
stages x surfaces x token kinds, generated from the registry, the OpenAPI document, the
page routes and the `drts match` commands (tests/matrix/surfaces.py), each read and
held to the invariants (reading.py), or listed in cells.NOT_RUN with the reason.

A read that is recorded (a referee's look at secret data: cells.RECORDED) runs on its
own copy of the stage and must add one SecretViewed and nothing else; every other read
runs on the shared stage and must record nothing at all.
"""

from __future__ import annotations

import itertools
import time
from typing import Any
from uuid import UUID

import pytest

from api.app import create_app
from cli.main import main as drts
from service.matches import Matches
from service.settings import Settings
from tests.matrix import agreement, reading
from tests.matrix.cells import NOT_RUN, STORE, Cell, not_run, records
from tests.matrix.conftest import APP_CONFIG, FIGURES
from tests.matrix.games import PLAYED, games, registered
from tests.matrix.stages import OPERATOR, STAGES, Stage, copy_of
from tests.matrix.surfaces import Surface, all_surfaces

STORE_STAGE = "finished_won"  # the stage whose store the store-wide surfaces read
SEAT_PAGE = ("page:seat.desk_page", "seat")  # a seat's page, signed in as seat 1


def _collection_app() -> Any:
    """An app on an in-memory store, made at collection: its OpenAPI document and url_map
    are the surfaces."""
    placeholder = Matches(env=Settings("memory://").event_store_env(), operator_token=OPERATOR)
    return create_app(APP_CONFIG, matches=placeholder)


SURFACES: dict[str, Surface] = {s.key: s for s in all_surfaces(_collection_app(), drts)}


def generated() -> list[Cell]:
    """Returns every cell: each game at each stage (store-wide surfaces once a game) for
    each surface and token kind that may read it."""
    cells = []
    for game, surface in itertools.product(games(), SURFACES.values()):
        stages = STAGES if surface.scope == "match" else (STORE,)
        for stage, token in itertools.product(stages, surface.tokens or ("none",)):
            cells.append(Cell(game.key, stage, surface.key, token))
    return cells


CELLS = generated()
LISTED = [cell for cell in CELLS if not_run(cell)]
FIGURES["listed"] = len(LISTED)  # the summary's count (conftest never imports a test module)
RUN = [cell for cell in CELLS if not not_run(cell)]


def test_every_registered_game_is_played():
    """A ruleset registered later joins the matrix once PLAYED says how to play it short."""
    assert {name for name, _ in registered()} <= set(PLAYED), "add the game to games.PLAYED"
    assert len(games()) == len(registered()) >= 6  # five games, DRTS Team 23 in two versions


def test_every_not_run_row_lists_a_cell_and_says_why():
    """The one table of cells not run: each row matches some generated cell (a stale row
    fails) and gives a reason."""
    for row in NOT_RUN:
        assert row.reason.strip(), row
        assert any(row.matches(cell) for cell in CELLS), f"no cell matches {row}"


def test_every_page_blueprint_says_which_tokens_open_it():
    pages = [s for s in SURFACES.values() if s.kind == "page"]
    assert pages and all(s.tokens for s in pages), [s.key for s in pages if not s.tokens]


@pytest.mark.parametrize("cell", RUN, ids=lambda cell: cell.id)
def test_cell(cell: Cell, stages: Any, flask_app: Any, cli_on: Any, request: Any) -> None:
    """Reads the cell's surface at its stage with its token kind; checks the invariants
    and that the read recorded exactly what it should (module docstring)."""
    FIGURES["cells"] += 1
    started = time.perf_counter()
    try:
        _read_cell(cell, stages, flask_app, cli_on, request)
    finally:
        spent = FIGURES.setdefault("by_kind", {})
        kind = cell.surface.partition(":")[0]
        spent[kind] = spent.get(kind, 0.0) + time.perf_counter() - started


def _read_cell(cell: Cell, stages: Any, flask_app: Any, cli_on: Any, request: Any) -> None:
    surface = SURFACES[cell.surface]
    stage = stages.get(cell.game, STORE_STAGE if cell.stage == STORE else cell.stage)
    if cell.stage != STORE and records(cell, stage):
        FIGURES["copies"] += 1
        copy = copy_of(stage, request.getfixturevalue("tmp_path"))
        try:
            read_recorded(cell, surface, copy, flask_app, cli_on)
        finally:
            copy.app.close()
        return
    before = versions(stage)
    for match_id in stage.matches if surface.scope == "match" else (None,):
        answers = read(cell, surface, stage, match_id, flask_app, cli_on)
        reading.check(cell, stage, match_id, answers)
    assert versions(stage) == before, f"{cell.id}: a read recorded an event (cells.RECORDED?)"


def read(
    cell: Cell, surface: Surface, stage: Stage, match_id: UUID | None, app: Any, cli_on: Any
) -> list[reading.Answer]:
    """Returns the answers of every read of the cell's surface of one match."""
    if surface.kind == "api":
        with reading.serving(app, stage) as client:
            return reading.read_api(client, stage, cell, surface, match_id)
    if surface.kind == "page":
        with reading.serving(app, stage) as client:
            answers = reading.read_page(client, stage, cell, surface, match_id)
            if (cell.surface, cell.token) == SEAT_PAGE and match_id is not None:
                for answer in answers:  # its board agrees with /state (issue 48)
                    agreement.check_seat_board(client, stage, match_id, answer.text)
            return answers
    if surface.kind == "cli":
        with cli_on(stage):
            return reading.read_cli(stage, cell, surface, match_id)
    assert match_id is not None
    if cell.surface == "check:positions":
        with reading.serving(app, stage) as client:
            read = agreement.check_positions(client, stage, match_id)
        return [reading.Answer(f"{read} reads of every position", 0, None, "")]
    if cell.surface == "check:evidence":
        timelines = agreement.check_evidence(stage, match_id)
        return [reading.Answer(f"the evidence of {timelines} timeline(s)", 0, None, "")]
    return reading.read_service(stage, cell, surface, match_id)


def read_recorded(cell: Cell, surface: Surface, copy: Stage, app: Any, cli_on: Any) -> None:
    """Reads on a copy of the stage: what the reads added must be SecretViewed events only,
    one a read at most (the look), and at least one (cells.RECORDED says they look)."""
    looks = 0
    for match_id in copy.matches:
        before = copy.version(match_id)
        answers = read(cell, surface, copy, match_id, app, cli_on)
        reading.check(cell, copy, match_id, answers)
        added = [type(e).__name__ for e in copy.app.events.get(match_id, gt=before)]
        assert set(added) <= {"SecretViewed"}, f"{cell.id}: the reads added {added}"
        assert len(added) <= len(answers), f"{cell.id}: {len(added)} looks in {len(answers)} reads"
        looks += len(added)
    assert looks, f"{cell.id}: cells.RECORDED says it looks at secret data, but none was recorded"


def versions(stage: Stage) -> dict[UUID, int]:
    return {match_id: stage.version(match_id) for match_id in stage.matches}
