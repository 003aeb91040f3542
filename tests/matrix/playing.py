"""Playing the matrix's matches to each stage: a match being built (`Table`: its orders
drawn by the game's own `random_order` from an Rng of the game's seed and the movement,
so every stage is the same every run), and one builder per stage (BUILDERS).
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from domain.errors import MovementClosedError
from domain.match import Match
from domain.rules import registry
from domain.rules.rng import Rng
from service.clock import ManualClock
from service.matches import Matches
from tests.matrix.games import Game

QUARANTINE_AFTER = 3
MAX_MOVEMENTS = 80  # a played stage that goes on longer is a bug of the stage
LATE_ORDER = "hold"  # refused before it is read: the match is over


# -- building -----------------------------------------------------------------------------


@dataclass
class Table:
    """A match being built: the stage's application, its clock and the match's tokens."""

    game: Game
    app: Matches
    clock: ManualClock
    match_id: UUID
    referee: str
    tokens: dict[int, str]

    @property
    def seed(self) -> str:
        return self.game.play.seed

    def summary(self) -> Any:
        return self.app.summary(self.match_id)

    def is_on(self) -> bool:
        return self.summary().status == "started"

    def random_order(self, seat: int, salt: str = "matrix") -> Any:
        """Returns a random legal order of `seat` now (the game's own random_order)."""
        table = self.app.get_match(self.match_id).table()
        rng = Rng(self.seed, table.movement, f"{salt}-{seat}")
        ruleset = table.ruleset
        return ruleset.dump_order(ruleset.random_order(table.state, seat, rng))

    def owing(self) -> tuple[int, ...]:
        return tuple(self.summary().to_move)

    def order(self, seat: int, order: Any = None) -> Any:
        self.clock.advance(1)
        sent = self.random_order(seat) if order is None else order
        return self.app.submit_order(self.match_id, self.tokens[seat], sent)

    def movement(self, silent: frozenset[int] = frozenset()) -> None:
        """Plays one movement: every seat to move orders but the `silent` ones; the
        deadline passes if the movement is still open then."""
        at = self.summary().movement
        for seat in self.owing():
            if seat not in silent and self.is_on():
                self.order(seat)
        self.pass_deadline(at)

    def pass_deadline(self, movement: int) -> None:
        """Lets the deadline of `movement` pass if it is still open (resolving it)."""
        summary = self.summary()
        if summary.status == "started" and summary.movement == movement and summary.deadline:
            self.clock.reach(datetime.fromisoformat(summary.deadline) + timedelta(seconds=1))
            self.app.resolve(self.match_id, movement, self.clock())

    def play(self, movements: int, silent: frozenset[int] = frozenset()) -> None:
        for _ in range(movements):
            if not self.is_on():
                return
            self.movement(silent)

    def act(self, action: str, args: dict[str, Any] | None = None) -> None:
        self.clock.advance(1)
        self.app.act(self.match_id, self.referee, action, args or {}, f"the matrix: {action}")

    def finish_won(self) -> None:
        """Plays to a win: seats 2 and up silent (DW-6 strikes, the DT timeout's strikes and
        SH-4's elimination end it), by the rules to the last movement (DRTS-2, DRTS-20), or
        the referee's forfeits of every seat but seat 1 (BC-4, BC-10)."""
        quiet = frozenset(range(2, self.game.play.seats + 1))
        for _ in range(MAX_MOVEMENTS):
            if not self.is_on():
                break
            if self.game.ruleset == "drts_team23":
                self.movement()
            elif self.game.ruleset == "b_chess":
                seat = max(quiet - set(self.summary().eliminated))
                self.act("forfeit", {"seat": seat})
            else:
                self.movement(silent=quiet)
        outcome = self.summary().outcome
        assert outcome and outcome["result"] == "win", (self.game.key, outcome)

    def until_owing(self, seat: int) -> None:
        """Plays on until `seat` owes an order (a sequential game: its turn)."""
        for _ in range(MAX_MOVEMENTS):
            if seat in self.owing() or not self.is_on():
                return
            self.movement()


def new_table(game: Game, app: Matches, clock: ManualClock, seats: int | None = None) -> Table:
    """Creates a match of the game (its short config) and seats `seats` (all by default)."""
    play = game.play
    new = app.create_match(
        game.ruleset, play.config, seats=play.seats, seed=play.seed, version=game.version
    )
    tokens = {}
    for number in range(1, (play.seats if seats is None else seats) + 1):
        clock.advance(1)
        tokens[number] = app.join(new.match_id, f"player {number}").token
    return Table(game, app, clock, new.match_id, str(new.referee_token), tokens)


def started(game: Game, app: Matches, clock: ManualClock) -> Table:
    table = new_table(game, app, clock)
    clock.advance(1)
    app.start(table.match_id, table.referee)
    return table


def mid_play(game: Game, app: Matches, clock: ManualClock) -> Table:
    """Started, some movements resolved, and (in a simultaneous game) seat 1's order
    pending in the open one, still secret."""
    table = started(game, app, clock)
    table.play(game.play.mid_play)
    if not game.sequential and table.is_on() and 1 in table.owing():
        table.order(1)
    return table


def finished_won(game: Game, app: Matches, clock: ManualClock) -> Table:
    table = started(game, app, clock)
    table.play(2)
    table.finish_won()
    return table


# -- the stages ------------------------------------------------------------------------


def build_created(game: Game, app: Matches, clock: ManualClock) -> Table:
    """Created; seats still joining (one seat short of the game's count)."""
    return new_table(game, app, clock, seats=game.play.seats - 1)


def build_struck(game: Game, app: Matches, clock: ManualClock) -> Table:
    """A movement whose deadline passed with seat 2 silent: a strike (DW-6, DT timeout
    `strike`) or its elimination (SH-4); the match goes on."""
    table = started(game, app, clock)
    table.play(2)
    table.until_owing(2)
    table.movement(silent=frozenset({2}))
    summary = table.summary()
    assert summary.strikes or summary.eliminated, (game.key, "no strike or elimination")
    assert summary.status == "started", (game.key, summary.status)
    return table


def build_paused(game: Game, app: Matches, clock: ManualClock) -> Table:
    table = mid_play(game, app, clock)
    table.act("pause")
    return table


def build_forfeited(game: Game, app: Matches, clock: ManualClock) -> Table:
    """The referee forfeited seat 2 mid-play (a two-seat game ends with it)."""
    table = mid_play(game, app, clock)
    table.act("forfeit", {"seat": 2})
    return table


def build_drawn_rematch(game: Game, app: Matches, clock: ManualClock) -> Table:
    """DW-5: the scenario's draw on every size, and the started rematch it asks for."""
    from tests.support.draws import play_to_a_draw

    new, tokens, _ = play_to_a_draw(app)
    table = Table(game, app, clock, new.match_id, str(new.referee_token), dict(tokens))
    assert table.summary().rematch_id, "DW-5: the draw asks for a rematch"
    return table


def build_late_refused(game: Game, app: Matches, clock: ManualClock) -> Table:
    """Finished, then seat 2 sends an order: refused (409), nothing stored (issue 40)."""
    table = finished_won(game, app, clock)
    version = app.get_match(table.match_id).version
    clock.advance(5)
    try:
        app.submit_order(table.match_id, table.tokens[2], LATE_ORDER)
    except MovementClosedError:
        pass
    else:
        raise AssertionError(f"{game.key}: an order after the finish was taken")
    assert app.get_match(table.match_id).version == version, "the refusal was recorded"
    return table


def build_disputed(game: Game, app: Matches, clock: ManualClock) -> Table:
    """Seat 1 disputed the first resolution and the referee ruled (dismissed); seat 2's
    dispute awaits a ruling."""
    table = mid_play(game, app, clock)
    resolved = next(
        e for e in app.events.get(table.match_id) if isinstance(e, Match.MovementResolved)
    )
    cites = [resolved.originator_version]
    first = app.file_dispute(table.match_id, table.tokens[1], cites, "the matrix disputes it")
    app.rule_dispute(table.match_id, table.referee, int(first["dispute"]), "dismissed", "sound")
    app.file_dispute(table.match_id, table.tokens[2], cites, "the matrix disputes it too")
    return table


def build_corrected(game: Game, app: Matches, clock: ManualClock) -> Table:
    """Mid-play, then the referee corrected movement 2: its first order replaced by
    another legal one (timeline 2; timeline 1 stays in the log)."""
    table = mid_play(game, app, clock)
    record = app.movement(table.match_id, 2, table.referee)
    seat = record.orders[0].seat
    before = app.get_match(table.match_id, record.closed_version - 1).table()
    ruleset = before.ruleset
    for attempt in range(50):
        rng = Rng(table.seed, 2, f"correction-{attempt}")
        changed = ruleset.dump_order(ruleset.random_order(before.state, seat, rng))
        if changed != record.orders[0].order:
            break
    clock.advance(60)
    made = app.correct(
        table.match_id, table.referee, 2, [{"seat": seat, "order": changed}], "the matrix"
    )
    assert made.timeline == 2
    return table


def build_quarantined(game: Game, app: Matches, clock: ManualClock) -> Table:
    """Its resolution failed QUARANTINE_AFTER times in a row (a bug in the installed
    rules, undone since): quarantined (DESIGN.md, Isolation)."""
    table = mid_play(game, app, clock)
    with failing_rules(game):
        at = table.summary().movement
        for seat in table.owing():
            if not any(
                p["seat"] == seat for p in app.pending_orders(table.match_id, table.referee)
            ):
                table.order(seat)
        for _ in range(QUARANTINE_AFTER):
            clock.advance(3600)
            app.read_models.catch_up()
            app.resolve_isolated(table.match_id, at, clock())
    assert table.summary().quarantined, f"{game.key}: not quarantined"
    return table


def build_retried(game: Game, app: Matches, clock: ManualClock) -> Table:
    """Quarantined, then retried by the referee with the rules fixed: the movement resolves."""
    table = build_quarantined(game, app, clock)
    at = table.summary().movement
    clock.advance(1)
    app.retry(table.match_id, table.referee)
    app.resolve_isolated(table.match_id, at, clock())
    assert table.summary().movement > at or not table.is_on(), f"{game.key}: not resolved"
    return table


@contextlib.contextmanager
def failing_rules(game: Game) -> Iterator[None]:
    """Installs, for the block, the game's version with a resolution that raises (as a bug
    in the rules would), then the working one again."""
    working = registry.REGISTRY[game.ruleset][game.version]

    def broken(*args: Any) -> Any:
        raise RuntimeError("the matrix's broken rules cannot resolve")

    registry.REGISTRY[game.ruleset][game.version] = dataclasses.replace(
        working, resolve=broken, resolve_phases=None if working.resolve_phases is None else broken
    )
    try:
        yield
    finally:
        registry.REGISTRY[game.ruleset][game.version] = working


Builder = Callable[[Game, Matches, ManualClock], Table]
BUILDERS: dict[str, Builder] = {
    "created": build_created,
    "started": started,
    "mid_play": mid_play,
    "struck": build_struck,
    "paused": build_paused,
    "forfeited": build_forfeited,
    "finished_won": finished_won,
    "drawn_rematch": build_drawn_rematch,
    "late_refused": build_late_refused,
    "disputed": build_disputed,
    "corrected": build_corrected,
    "imported": finished_won,  # exported from a store of its own, imported into this one
    "quarantined": build_quarantined,
    "retried": build_retried,
}
