"""The matches of the frozen corpus, as they were played once (tests/corpus/README.md).

Each match is driven as its players and referee drive one: created, joined,
started, orders arriving some seconds apart on a clock driven by hand, and a
movement that waits for its deadline resolved at that deadline, as the worker
does (`Matches.resolve`), so the real silence policies apply (DW-2 pass, DW-6
strikes, DRTS-22 hold). Bots choose legal orders with the ruleset's
`random_order` from fixed bot seeds, so a run plays the same orders every time.

Kept for the record: the corpus is generated once and never again
(tests/corpus/generate.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID

from domain.errors import IllegalOrderError, NotYourSeatError
from domain.match import Match
from domain.rules.rng import Rng
from service.matches import Matches
from service.results import OrderReceipt
from service.scenarios.driver import ManualClock

START = datetime(2026, 11, 30, 10, 0, tzinfo=UTC)
# The versions the corpus was played under: a match created without a version gets the
# latest, and DRTS Team 23 v2 (items) shipped after the corpus, so the plays name theirs.
RULESET_VERSIONS = {"district_war": 1, "drts_team23": 1}
DW_PLAYERS = ("ada", "bo", "cy", "dee")
DRTS_PLAYERS = ("kai", "lin", "mo", "nia", "oli", "pam", "quin", "rae")
# DW-5: the orders of scenario dw5_all_equal_is_a_draw_to_be_replayed (5 points each,
# equal on every size): the match ends drawn and drts replays it
DW_DRAW_ORDERS = (
    "first 1",
    *("c6", "f6", "a6", "a3", "e3", "e7", "e1", "e4", "e6", "g6", "g2"),
    *("g3", "g5", "d5", "e5", "b5", "b1", "g1", "g7", "c7", "b6", "d1"),
)
# Bot seeds: each was chosen by trying seeds until the match ends as its description
# says (the generator checks that it does).
DW_POINTS_BOTS = "corpus-dw-points"
DW_REMATCH_BOTS = "corpus-dw-rematch"
DRTS_TWENTY_BOTS = "corpus-drts-twenty-0"
DRTS_GOLDEN_BOTS = "corpus-drts-golden-13"


@dataclass
class Played:
    """One match of the corpus: a short stable key, its id and what it shows."""

    key: str
    match_id: UUID
    description: str
    tokens: dict[str, Any] = field(default_factory=dict)  # kept only for unfinished matches


class Desk:
    """One match at the table: the application, the clock, the referee's and seats' tokens."""

    def __init__(
        self,
        matches: Matches,
        clock: ManualClock,
        match_id: UUID,
        referee: str,
        tokens: dict[int, str] | None = None,
    ) -> None:
        self.matches, self.clock = matches, clock
        self.id, self.referee = match_id, referee
        self.tokens: dict[int, str] = dict(tokens or {})

    @classmethod
    def create(
        cls,
        matches: Matches,
        clock: ManualClock,
        ruleset: str,
        players: tuple[str, ...],
        seed: str,
        config: dict[str, Any] | None = None,
        idempotency_key: str | None = None,
        version: int | None = None,
    ) -> Desk:
        """Creates a match (under `version` of the ruleset, the latest for None) and seats
        the players, a few seconds apart."""
        new = matches.create_match(
            ruleset, config, seed=seed, idempotency_key=idempotency_key, version=version
        )
        assert new.referee_token is not None
        desk = cls(matches, clock, new.match_id, new.referee_token)
        for name in players:
            desk.wait(7)
            seat = matches.join(desk.id, name)
            desk.tokens[seat.seat] = seat.token
        return desk

    def wait(self, seconds: float) -> datetime:
        """Moves the clock `seconds` on."""
        return self.clock.reach(self.clock.now + timedelta(seconds=seconds))

    def match(self) -> Match:
        """Returns the match as stored now."""
        return self.matches.get_match(self.id)

    def start(self) -> None:
        """Starts the match with the referee's token."""
        self.wait(30)
        self.matches.start(self.id, self.referee)

    def owing(self) -> tuple[int, ...]:
        """Returns the seats that owe orders in the open movement."""
        return tuple(self.matches.summary(self.id).to_move)

    def order(
        self, seat: int, order: str, after: float = 5, source: str = "api", message: bool = False
    ) -> OrderReceipt:
        """Sends a seat's order `after` seconds from now (a message id for mail and forum)."""
        self.wait(after)
        message_id = f"<m{self.match().movement}.s{seat}@{source}.example>" if message else None
        return self.matches.submit_order(
            self.id, self.tokens[seat], order, source=source, message_id=message_id
        )

    def bot_order(self, seat: int, bots: Rng) -> str:
        """Returns a random legal order of `seat` now, in the game's text form."""
        match = self.match()
        rules = match.rules()
        return rules.format_order(rules.random_order(rules.load_state(match.state), seat, bots))

    def pass_deadline(self) -> None:
        """Moves the clock to the open deadline and resolves the movement, as the worker does."""
        match = self.match()
        assert match.deadline is not None, f"match {self.id} has no open deadline"
        self.clock.reach(match.deadline)
        self.matches.resolve(self.id, match.movement)

    def refused(self, seat: int, order: str, error: type[Exception]) -> None:
        """Sends an order that must be refused (recorded as OrderRejected)."""
        try:
            self.order(seat, order, after=4)
        except error:
            return
        raise AssertionError(f"{order!r} from seat {seat} was not refused")

    def finished(self) -> bool:
        """Returns whether the match has finished."""
        return self.match().finished


def pinned(matches: Matches, clock: ManualClock, ruleset: str, *args: Any, **kwargs: Any) -> Desk:
    """Desk.create under the ruleset's version of 2026-11-30 (RULESET_VERSIONS)."""
    return Desk.create(matches, clock, ruleset, *args, version=RULESET_VERSIONS[ruleset], **kwargs)


def dw_points(matches: Matches, clock: ManualClock) -> Played:
    """District War played out to a win on points, with a refused order of each kind and a
    reissued seat token; seat 1 orders by e-mail, seat 2 over the API."""
    desk = pinned(matches, clock, "district_war", ("ada", "bo"), "corpus-dw-points")
    desk.start()
    while not desk.finished():
        movement, (seat,) = desk.match().movement, desk.owing()
        bots = Rng(DW_POINTS_BOTS, movement)
        if movement == 4:
            desk.refused(3 - seat, "a1", NotYourSeatError)
        if movement == 6:
            taken = next(iter(desk.match().state["cells"]))
            desk.refused(seat, taken, IllegalOrderError)
        if movement == 10:
            desk.tokens[1] = matches.reissue_seat_token(desk.id, desk.referee, 1).token
        order = desk.bot_order(seat, bots)
        desk.order(seat, order, 3 + bots.below(60), *(("email", True) if seat == 1 else ()))
    outcome = desk.match().outcome
    assert outcome["result"] == "win" and "points" in outcome["reason"], outcome
    return Played("dw-points", desk.id, "District War won on points (DW-4)")


def dw_strikes(matches: Matches, clock: ManualClock) -> Played:
    """District War lost on strikes: the DMO stays silent (DW-2 pass, no strike), then seat 1
    overruns three placements (DW-6): once ordering in the extension, once ordering late,
    then silent, and the third strike forfeits the match."""
    desk = pinned(matches, clock, "district_war", ("cy", "bo"), "corpus-dw-strikes")
    desk.start()
    bots = Rng("corpus-dw-strikes", 0)
    desk.pass_deadline()  # movement 1: the DMO (seat 2) is silent
    for movement in range(2, 9):
        (seat,) = desk.owing()
        if movement == 4:
            desk.pass_deadline()  # strike 1, 45 s more
            desk.order(seat, desk.bot_order(seat, bots), 20)
        elif movement == 6:
            deadline = desk.match().deadline
            assert deadline is not None
            desk.clock.reach(deadline)
            desk.order(seat, desk.bot_order(seat, bots), 5)  # late: strike 2 first
        elif movement == 8:
            desk.pass_deadline()  # strike 3: seat 1 forfeits
        else:
            desk.order(seat, desk.bot_order(seat, bots), 10 + bots.below(40))
    outcome = desk.match().outcome
    assert desk.finished() and outcome["winners"] == [2], outcome
    return Played("dw-strikes", desk.id, "District War lost on strikes: seat 1 forfeits (DW-6)")


def dw_draw(matches: Matches, clock: ManualClock) -> list[Played]:
    """District War drawn on every size (DW-5), and its replay played out to a win."""
    desk = pinned(matches, clock, "district_war", ("ada", "cy"), "corpus-dw-draw")
    desk.start()
    receipt = None
    for order in DW_DRAW_ORDERS:
        (seat,) = desk.owing()
        receipt = desk.order(seat, order, 15)
    assert receipt is not None and receipt.closing is not None
    rematch_id = receipt.closing.rematch_id
    assert rematch_id is not None and desk.match().outcome["result"] == "draw"
    rematch = Desk(matches, clock, rematch_id, desk.referee, desk.tokens)  # DW-5: same tokens
    while not rematch.finished():
        movement, (seat,) = rematch.match().movement, rematch.owing()
        bots = Rng(DW_REMATCH_BOTS, movement)
        rematch.order(seat, rematch.bot_order(seat, bots), 3 + bots.below(60), "forum", True)
    assert rematch.match().outcome["result"] == "win"
    return [
        Played("dw-draw", desk.id, "District War drawn on every size, replayed (DW-5)"),
        Played("dw-rematch", rematch_id, "the replay of the drawn match, won on points (DW-5)"),
    ]


def dw_running(matches: Matches, clock: ManualClock) -> Played:
    """District War still running: four troops placed, the referee moved the deadline."""
    desk = pinned(matches, clock, "district_war", ("bo", "ada"), "corpus-dw-running")
    desk.start()
    bots = Rng("corpus-dw-running", 0)
    for _ in range(5):
        (seat,) = desk.owing()
        desk.order(seat, desk.bot_order(seat, bots), 20)
    desk.wait(30)
    matches.extend_deadline(desk.id, desk.referee, seconds=600)
    return Played(
        "dw-running",
        desk.id,
        "District War running: movement 6 open, its deadline moved by the referee",
        _tokens(desk),
    )


def dw_open(matches: Matches, clock: ManualClock) -> Played:
    """District War created with an idempotency key and its own config, one seat joined."""
    config = {"troops": 5, "placement_seconds": 120, "extension_seconds": 60}
    desk = pinned(
        matches, clock, "district_war", ("dee",), "corpus-dw-open", config, "corpus-open-1"
    )
    return Played("dw-open", desk.id, "District War not started: one seat joined", _tokens(desk))


def drts_played(
    desk: Desk,
    bot_seed: str,
    silent: Callable[[int, int, Rng], bool],
    until: Callable[[Desk], bool],
    during: Callable[[int], None] = lambda movement: None,
) -> None:
    """Plays DRTS movements until `until`: each seat not `silent` sends a bot order some
    seconds into the movement (sometimes a second one, which replaces the first), then
    the movement resolves at its deadline (or at once, when it may close early)."""
    while not until(desk):
        movement = desk.match().movement
        bots = Rng(bot_seed, movement)
        for seat in desk.owing():
            if silent(seat, movement, bots):
                continue
            source = ("bot", "forum", "email", "api")[seat % 4]
            order = desk.bot_order(seat, bots)
            desk.order(seat, order, 0.5 + bots.below(2), source, source in ("forum", "email"))
            if bots.chance(1, 12):
                desk.order(seat, desk.bot_order(seat, bots), 0.5, source)
        during(movement)
        if desk.match().movement == movement and not until(desk):
            desk.pass_deadline()


def drts_twenty(matches: Matches, clock: ManualClock) -> Played:
    """DRTS Team 23 over 20 movements, won after the last one (DRTS-20); some orders are
    replaced, some seats are silent now and then; the referee looks at the seed and at
    the open orders (both recorded)."""
    desk = pinned(matches, clock, "drts_team23", DRTS_PLAYERS, "corpus-drts-twenty")
    desk.start()

    def referee_looks(movement: int) -> None:
        if movement == 7:
            matches.referee_seed(desk.id, desk.referee)
        if movement == 9:
            matches.pending_orders(desk.id, desk.referee)

    drts_played(
        desk, DRTS_TWENTY_BOTS, lambda s, m, bots: bots.chance(1, 8), Desk.finished, referee_looks
    )
    match = desk.match()
    assert match.movement == 21 and match.outcome["result"] == "win", match.outcome
    return Played("drts-twenty", desk.id, "DRTS Team 23 won after 20 movements (DRTS-20)")


def drts_golden(matches: Matches, clock: ManualClock) -> Played:
    """DRTS Team 23 tied after movement 20 and decided by a golden point (DRTS-20)."""
    desk = pinned(matches, clock, "drts_team23", DRTS_PLAYERS[::-1], "corpus-drts-golden")
    desk.start()
    drts_played(desk, DRTS_GOLDEN_BOTS, lambda s, m, bots: False, Desk.finished)
    match = desk.match()
    assert match.movement > 21 and match.outcome["result"] == "win", match.outcome
    return Played(
        "drts-golden",
        desk.id,
        f"DRTS Team 23 tied after 20 movements, won on a golden point in movement "
        f"{match.movement - 1} (DRTS-20)",
    )


def drts_silent(matches: Matches, clock: ManualClock) -> Played:
    """DRTS Team 23 over 10 movements where seats 2, 5 and 7 never order and nobody orders
    in movement 3: silent seats hold (DRTS-22) and are placed in teams at movement 6."""
    config = {"movements": 10}
    desk = pinned(matches, clock, "drts_team23", DRTS_PLAYERS, "corpus-drts-silent", config)
    desk.start()
    drts_played(
        desk, "corpus-drts-silent", lambda s, m, bots: s in (2, 5, 7) or m == 3, Desk.finished
    )
    assert desk.match().outcome["result"] in ("win", "draw")
    return Played(
        "drts-silent",
        desk.id,
        "DRTS Team 23 over 10 movements with seats 2, 5 and 7 silent throughout (DRTS-22)",
    )


def drts_running(matches: Matches, clock: ManualClock) -> Played:
    """DRTS Team 23 closing early (every seat ordered) for 3 movements, then movement 4
    open with 5 orders in, still sealed."""
    config = {"close_early": True, "movement_seconds": 60}
    desk = pinned(matches, clock, "drts_team23", DRTS_PLAYERS, "corpus-drts-running", config)
    desk.start()
    drts_played(
        desk,
        "corpus-drts-running",
        lambda seat, movement, bots: movement == 4 and seat > 5,
        lambda d: d.match().movement == 4 and bool(d.match().pending),
    )
    return Played(
        "drts-running",
        desk.id,
        "DRTS Team 23 running: 3 movements closed early, movement 4 open with 5 sealed orders",
        _tokens(desk),
    )


def _tokens(desk: Desk) -> dict[str, Any]:
    return {"referee": desk.referee, "seats": {str(s): t for s, t in desk.tokens.items()}}


PLAYS: tuple[Callable[[Matches, ManualClock], Played | list[Played]], ...] = (
    dw_points,
    dw_strikes,
    dw_draw,
    drts_twenty,
    drts_golden,
    drts_silent,
    dw_running,
    dw_open,
    drts_running,
)


def play_all(matches: Matches) -> list[Played]:
    """Plays every match of the corpus on `matches`, one after the other, from START."""
    clock = matches.clock
    assert isinstance(clock, ManualClock)
    played: list[Played] = []
    for play in PLAYS:
        clock.reach(clock.now + timedelta(minutes=10))
        result = play(matches, clock)
        played.extend(result if isinstance(result, list) else [result])
    return played
