"""Helpers for the read-model tests: a random mix of matches, and table snapshots."""

from __future__ import annotations

import contextlib
import random
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from domain.errors import DrtsError
from domain.rules.rng import Rng
from service.clock import ManualClock
from service.matches import Matches
from service.readmodels.runner import ReadModels
from service.readmodels.tables import PROJECTION_TABLES

PLAYERS = ("ann", "bo", "cy", "di", "ed", "flo", "gus", "hal", "ivy", "jo")
MAX_STEPS = 400


@dataclass
class Played:
    """A match of the mix: its id, referee token and seat tokens."""

    match_id: UUID
    referee: str
    tokens: list[str] = field(default_factory=list)
    started: bool = False


def new_match(matches: Matches, rng: random.Random) -> Played:
    """Creates a match under a random ruleset and config, seats players, maybe starts it."""
    ruleset = rng.choice(["toy", "toy", "toy_acc", "toy_rearm", "district_war", "drts_team23"])
    seats = {"district_war": 2, "drts_team23": 8}.get(ruleset, rng.randint(2, 4))
    config: dict[str, Any] = {
        "toy": {
            "rounds": rng.randint(1, 3),
            "silence": rng.choice(["hold", "strike"]),
            "close_early": rng.random() < 0.7,
        },
        "district_war": {"troops": 2},
        "drts_team23": {"movements": 2, "max_movements": 3},
    }.get(ruleset.removesuffix("_acc"), {})
    new = matches.create_match(ruleset, config, seats=seats)
    assert new.referee_token is not None
    played = Played(new.match_id, new.referee_token)
    for name in rng.sample(PLAYERS, seats):
        played.tokens.append(matches.join(new.match_id, name).token)
    if rng.random() < 0.85:
        matches.start(new.match_id, new.referee_token)
        played.started = True
    return played


def play_movement(matches: Matches, clock: ManualClock, played: Played, rng: random.Random) -> bool:
    """Plays one movement of a match: random legal orders, some nonsense, some silence,
    then the deadline if it did not close early. Returns whether the match goes on.
    """
    match = matches.get_match(played.match_id)
    if match.finished:
        return False
    ruleset, movement = match.rules(), match.movement
    state = ruleset.load_state(match.state)
    bots = Rng(str(played.match_id), movement, "mix")
    for seat in ruleset.to_move(state).seats:
        roll = rng.random()
        if roll < 0.75:
            order = ruleset.dump_order(ruleset.random_order(state, seat, bots))
        elif roll < 0.85:
            order = "no such order"
        else:
            continue
        with contextlib.suppress(DrtsError):  # rejected and recorded, or the movement closed
            matches.submit_order(played.match_id, played.tokens[seat - 1], order)
    match = matches.get_match(played.match_id)
    if not match.finished and match.movement == movement and match.deadline is not None:
        clock.reach(match.deadline)
        matches.resolve_due()
    return not matches.get_match(played.match_id).finished


def play_random_mix(
    matches: Matches, clock: ManualClock, seed: int, count: int, catch_up_every: int = 0
) -> list[Played]:
    """Plays `count` random matches interleaved, movement by movement, to their end;
    catches the read models up every `catch_up_every` movements if asked.
    """
    rng = random.Random(seed)
    tables = [new_match(matches, rng) for _ in range(count)]
    live = [played for played in tables if played.started]
    for step in range(MAX_STEPS):
        if not live:
            return tables
        played = rng.choice(live)
        if not play_movement(matches, clock, played, rng):
            live.remove(played)
        if catch_up_every and step % catch_up_every == 0:
            matches.read_models.catch_up()
    raise AssertionError(f"the mix (seed {seed}) did not end in {MAX_STEPS} movements")


def snapshot(models: ReadModels, name: str) -> dict[str, list[tuple[Any, ...]]]:
    """Returns every row of a projection's tables, sorted, table by table."""
    view = models.view(name)
    return {
        table.name: sorted(
            (tuple(row.values()) for row in view.query(f"SELECT * FROM {{{table.name}}}")), key=repr
        )
        for table in PROJECTION_TABLES[name]
    }


def snapshots(models: ReadModels) -> dict[str, dict[str, list[tuple[Any, ...]]]]:
    """Returns the rows of every projection."""
    return {name: snapshot(models, name) for name in models.projections}
