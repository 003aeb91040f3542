"""The matches of the corpus set 2026-12 (tests/corpus/2026-12/README.md), played once.

Every game and every registered version, each reaching the features its game
has, and across the set the referee's and the intake's paths: a strike, a
pause, a forfeit, a dispute ruled, a correction (two timelines), a drawn
District War with its rematch, an imported archive, orders by mail and by
forum post. Bots choose legal orders with the rulesets' `random_order` from
fixed bot seeds (each chosen by trying seeds until the match shows what its
entry names; `features.py` checks it does); two matches start from the
position of a scenario file (tests/scenarios) and play its orders.

Kept for the record: a set is generated once and never again
(tests/corpus/generate.py).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from domain.rules.rng import Rng
from service import schema
from service.channels.forum.posts import Post
from service.matches import Matches
from service.scenarios.driver import ManualClock, MatchesDriver
from service.scenarios.runner import run_scenario
from service.settings import Settings
from tests.corpus.plays import DW_DRAW_ORDERS, Desk, Played

START = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
SCENARIOS = Path(__file__).parents[1] / "scenarios"
# bot seeds chosen by trying seeds for a short match showing its features
BOT_SEEDS = {"bchess": "c26-bchess-bots-0", "shades": "1"}
DRTS_PLAYERS = ("kai", "lin", "mo", "nia", "oli", "pam", "quin", "rae")


class Table(Desk):
    """A Desk that names the ruleset version and, with a preset, the preset."""

    @classmethod
    def open(
        cls,
        matches: Matches,
        clock: ManualClock,
        game: tuple[str, int],
        players: tuple[str, ...],
        seed: str,
        config: dict[str, Any] | None = None,
        preset: str | None = None,
    ) -> Table:
        """Creates a match of `game` (ruleset, version) and seats the players."""
        ruleset, version = game
        new = matches.create_match(ruleset, config, seed=seed, version=version, preset=preset)
        assert new.referee_token is not None
        table = cls(matches, clock, new.match_id, new.referee_token)
        for name in players:
            table.sit(name)
        return table

    def sit(self, name: str) -> int:
        """Seats a player some seconds from now (in a started B-Chess match: late, BC-5)."""
        self.wait(7)
        seat = self.matches.join(self.id, name)
        self.tokens[seat.seat] = seat.token
        return seat.seat

    def bots_play(
        self,
        bot_seed: str,
        until: Callable[[Table], bool] = Desk.finished,
        during: Callable[[Table, int], None] = lambda table, movement: None,
        send: Callable[[Table, int, str], object] | None = None,
    ) -> None:
        """Plays movements until `until`: every owing seat sends a bot order a second or two
        apart (by `send`, the API by default), then a movement still open resolves at its
        deadline, as the worker does."""
        while not until(self):
            movement = self.match().movement
            bots = Rng(bot_seed, movement)
            during(self, movement)
            if until(self):
                return
            owing = self.owing()
            for seat in owing:
                order, gap = self.bot_order(seat, bots), self.gap(len(owing), bots)
                if send is None:
                    self.order(seat, order, gap)
                else:
                    self.wait(gap)
                    send(self, seat, order)
            if not until(self) and self.match().movement == movement and self.match().is_open():
                self.pass_deadline()

    def gap(self, owing: int, bots: Rng) -> float:
        """Seconds to the next order: one to three, but every owing seat's order lands before
        the deadline (Shades' turns last 5 s)."""
        deadline, gap = self.match().deadline, 1.0 + bots.below(3)
        if deadline is None:
            return gap
        return min(gap, (deadline - self.clock.now).total_seconds() / (owing + 1))

    def played(self, key: str, description: str) -> Played:
        """The match as the corpus keeps it (every seat's token kept: pages need them)."""
        tokens = {"referee": self.referee, "seats": {str(s): t for s, t in self.tokens.items()}}
        return Played(key, self.id, description, tokens)


def drts_v1(matches: Matches, clock: ManualClock) -> Played:
    """DRTS Team 23 v1 over 10 movements (DRTS-2), bots ordering every movement."""
    table = Table.open(
        matches, clock, ("drts_team23", 1), DRTS_PLAYERS, "c26-drts1", {"movements": 10}
    )
    table.start()
    table.bots_play("c26-drts1-bots")
    return table.played("drts1-ten", "DRTS Team 23 v1 over 10 movements (DRTS-2, DRTS-20)")


def drts_v2(matches: Matches, clock: ManualClock) -> Played:
    """DRTS Team 23 v2 over 20 movements: items invoked (Stars, DeathStars, Blackholes,
    Generators), kinds meeting, generators scoring."""
    table = Table.open(matches, clock, ("drts_team23", 2), DRTS_PLAYERS[::-1], "c26-drts2")
    table.start()
    table.bots_play("c26-drts2-bots")
    return table.played(
        "drts2-items", "DRTS Team 23 v2: items, meetings and generators (DRTS-11 to DRTS-17)"
    )


def drts_v2_running(matches: Matches, clock: ManualClock) -> Played:
    """DRTS Team 23 v2 running: two movements resolved, the third open with 4 sealed
    orders."""
    table = Table.open(matches, clock, ("drts_team23", 2), DRTS_PLAYERS, "c26-drts2-running")
    table.start()
    table.bots_play("c26-drts2-running-bots", lambda t: t.match().movement == 3)
    bots = Rng("c26-drts2-running-bots", 3)
    for seat in (1, 3, 5, 7):
        table.order(seat, table.bot_order(seat, bots), 2)
    return table.played(
        "drts2-running", "DRTS Team 23 v2 running: movement 3 open with 4 sealed orders"
    )


def shades(version: int, preset: str | None, players: tuple[str, ...]) -> Callable[..., Played]:
    """Returns the play of a Shades match of `version`, default config or `preset`."""
    name = preset or "default"

    def play(matches: Matches, clock: ManualClock) -> Played:
        seed = f"c26-sh-{BOT_SEEDS['shades']}"
        table = Table.open(matches, clock, ("shades", version), players, seed, preset=preset)
        table.start()
        table.bots_play(f"c26-sh-bots-{BOT_SEEDS['shades']}")
        return table.played(
            f"shades{version}-{name}",
            f"Shades v{version}, {name} config: spawns, razes and eliminations (SH-3, SH-5, SH-7)",
        )

    return play


def dt_draw(matches: Matches, clock: ManualClock) -> Played:
    """Dris et-Tessa with `draw_turns: 30`: mills and removals, then 30 quiet turns draw
    (DT-6)."""
    config = {"draw_turns": 30}
    table = Table.open(matches, clock, ("dris_et_tessa", 1), ("ada", "bo"), "c26-dt", config)
    table.start()
    table.bots_play("c26-dt-bots")
    return table.played("dt-draw", "Dris et-Tessa: mills and removals, drawn after 30 quiet turns")


def dt_blockade(matches: Matches, clock: ManualClock) -> Played:
    """Dris et-Tessa from the position of scenario dt5_a_seat_that_cannot_move_loses: a
    blockade wins (DT-5)."""
    path = SCENARIOS / "dris_et_tessa" / "dt5_a_seat_that_cannot_move_loses.json"
    return scenario_played(matches, clock, path, "dt-blockade", "Dris et-Tessa won by a blockade")


def scenario_played(
    matches: Matches, clock: ManualClock, path: Path, key: str, description: str
) -> Played:
    """Plays a scenario file through the Matches application on the corpus clock and checks
    that it passes."""
    drivers: list[MatchesDriver] = []

    def factory(scenario: Any) -> MatchesDriver:
        drivers.append(MatchesDriver(matches, clock, scenario))
        return drivers[-1]

    report = run_scenario(path, factory)
    assert report.passed, report.mismatches
    (driver,) = drivers
    tokens = {
        "referee": driver.referee_token,
        "seats": {str(s): t for s, t in driver.tokens.items()},
    }
    return Played(key, driver.match_id, f"{description} (scenario {path.stem})", tokens)


def b_chess(matches: Matches, clock: ManualClock) -> Played:
    """B-Chess: two seats start, the referee grants seat 2 macks (BC-7), a third seat
    joins in movement 3 (BC-5), purchases (BC-6), played to a checkmate (BC-10)."""
    table = Table.open(matches, clock, ("b_chess", 1), ("ada", "bo"), "c26-bchess")
    table.start()

    def during(table: Table, movement: int) -> None:
        if movement == 2:
            matches.act(table.id, table.referee, "grant", {"seat": 2, "macks": 30}, "a prize")
        if movement == 3:
            table.sit("cy")

    table.bots_play(BOT_SEEDS["bchess"], during=during)
    return table.played(
        "bchess-checkmate", "B-Chess: a grant, a late seat, purchases, checkmate (BC-5 to BC-10)"
    )


def dw_draw(matches: Matches, clock: ManualClock) -> list[Played]:
    """District War drawn on every size (DW-5); its rematch played by mail (seat 1) and
    by forum posts (seat 2, mapped by the referee)."""
    table = Table.open(matches, clock, ("district_war", 1), ("ada", "cy"), "c26-dw-draw")
    table.start()
    for order in DW_DRAW_ORDERS:
        (seat,) = table.owing()
        table.order(seat, order, 12)
    rematch_id = matches.summary(table.id).rematch_id
    assert rematch_id is not None and table.match().outcome["result"] == "draw"
    rematch = Table(matches, clock, rematch_id, table.referee, table.tokens)
    matches.map_forum_user(rematch_id, rematch.referee, "cy_forum", 2, "forum-user-4711")
    posts = iter(range(1, 100))

    def send(desk: Table, seat: int, order: str) -> object:
        now, movement = clock.now, desk.match().movement
        if seat == 1:
            message = f"<c26.m{movement}@mail.example>"
            return matches.submit_mail_order(desk.id, 1, order, message, now)
        post = Post("cy_forum", f"post-{next(posts)}", now, order, identity="forum-user-4711")
        return matches.forum.receive(desk.id, post, now)

    rematch.bots_play("c26-dw-rematch-bots", send=send)
    return [
        table.played("dw-draw", "District War drawn on every size, replayed (DW-5)"),
        rematch.played("dw-rematch", "the rematch, ordered by mail and by forum posts (DW-5)"),
    ]


def dw_referee(matches: Matches, clock: ManualClock) -> Played:
    """District War refereed: a seat struck (DW-6), a pause and its resume, a dispute
    dismissed, then seat 1 forfeited by the referee (the other seat wins)."""
    table = Table.open(matches, clock, ("district_war", 1), ("dee", "bo"), "c26-dw-referee")
    table.start()

    def during(table: Table, movement: int) -> None:
        if movement == 3:
            table.pass_deadline()  # the owing seat overruns: a strike and more time
        if movement == 5:
            matches.act(table.id, table.referee, "pause", {}, "a power cut")
            table.wait(300)
            matches.act(table.id, table.referee, "resume", {}, "power is back")
        if movement == 7:
            cited = table.match().version
            dispute = matches.file_dispute(table.id, table.tokens[1], [cited], "too fast")
            matches.rule_dispute(table.id, table.referee, dispute["dispute"], "dismissed", "no")
        if movement == 9:
            matches.act(table.id, table.referee, "forfeit", {"seat": 1}, "left the club")

    table.bots_play("c26-dw-referee-bots", during=during)
    return table.played(
        "dw-referee", "District War: a strike, a pause, a dispute dismissed, a forfeit"
    )


def dw_corrected(matches: Matches, clock: ManualClock) -> Played:
    """District War whose movement 6 is corrected upholding seat 2's dispute: two timelines;
    then played out to a win."""
    table = Table.open(matches, clock, ("district_war", 1), ("ada", "dee"), "c26-dw-corrected")
    table.start()
    table.bots_play("c26-dw-corrected-bots", lambda t: t.match().movement == 6)
    (seat,) = table.owing()
    bots = Rng("c26-dw-corrected-fix", 6)
    sent = table.bot_order(seat, bots)
    fixed = next(o for o in (table.bot_order(seat, bots) for _ in range(50)) if o != sent)
    table.order(seat, sent, 10)
    cited = table.match().version
    dispute = matches.file_dispute(table.id, table.tokens[seat], [cited], "I sent another cell")
    table.wait(60)
    changes = [{"seat": seat, "order": fixed}]
    matches.correct(table.id, table.referee, 6, changes, "the mail was garbled", dispute["dispute"])
    table.bots_play("c26-dw-corrected-bots")
    return table.played("dw-corrected", "District War corrected in movement 6: two timelines")


def imported(matches: Matches, clock: ManualClock) -> Played:
    """A District War match played on another drts (a scratch store) and imported from its
    archive (docs/archive.md): stored as exported, read-only."""
    with tempfile.TemporaryDirectory(prefix="drts-corpus-") as folder:
        url = f"sqlite:///{folder}/elsewhere.sqlite"
        schema.upgrade(Settings(url))
        elsewhere_clock = ManualClock(clock.now - timedelta(days=3))
        elsewhere = Matches(env=Settings(url).event_store_env(), clock=elsewhere_clock)
        try:
            table = Table.open(
                elsewhere, elsewhere_clock, ("district_war", 1), ("fay", "gus"), "c26-away"
            )
            table.start()
            table.bots_play("c26-away-bots")
            archive = elsewhere.export_archive(table.id)
        finally:
            elsewhere.close()
    done = matches.import_archive(archive)
    assert matches.is_imported(done.match_id)
    return Played("dw-imported", done.match_id, "District War imported from an archive")


PLAYS: tuple[Callable[[Matches, ManualClock], Played | list[Played]], ...] = (
    drts_v1,
    drts_v2,
    shades(1, None, ("ada", "bo", "cy", "dee")),
    shades(1, "contest", ("ada", "bo", "cy", "dee")),
    shades(2, None, ("ada", "bo", "cy", "dee")),
    shades(2, "contest", ("ada", "bo", "cy", "dee")),
    dt_draw,
    dt_blockade,
    b_chess,
    dw_draw,
    dw_referee,
    dw_corrected,
    imported,
    drts_v2_running,
)


def play_all(matches: Matches) -> list[Played]:
    """Plays every match of the set on `matches`, one after the other, from START."""
    clock = matches.clock
    assert isinstance(clock, ManualClock)
    played: list[Played] = []
    for play in PLAYS:
        clock.reach(clock.now + timedelta(minutes=10))
        result = play(matches, clock)
        played.extend(result if isinstance(result, list) else [result])
    return played
