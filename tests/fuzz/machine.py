"""The state machine of the stateful fuzz: one match of one game (games.py) in a store of
its own, on a hand-driven clock, played over HTTP by its seats and its referee with
random valid and invalid commands in random order.

Rules (each a command or a few; `expect` names the answers allowed, and where the
match's state decides the answer, the one it must be):

- join (valid and invalid names, before and after the start), start (every kind of
  token), order (a legal order drawn by the game's own `random_order`, as text or as
  JSON), foreign order (another seat's legal order), invalid order (garbage, wrong
  types, wrong movement, unknown fields, hostile text, wrong tokens), late order (the
  clock past the deadline, the worker not run yet), dispute, ruling, correction (a
  legal order, a withdrawal or garbage, for a resolved movement or the open one),
  pause, resume, forfeit, extend, reissue (the old token then refused), the game's own
  referee actions (B-Chess grants macks), the referee's look at the open orders
  (every acknowledged one is there), and resolve due (the clock moved on, the due
  movements resolved as the worker does: `due_movements`, then `resolve_batch`).

Invariants after every step (besides api.py's, on every answer):

- the match verifies (GET /verify: ok, no problem) and the replay agrees with the store
  (GET /replay: `agrees`; its state is /state's for the referee);
- every acknowledged order is stored: its receipt and every head handed out verify
  against the log (POST /verify, per timeline), and the referee's GET /orders lists
  each acknowledged order of the open movement;
- the audit re-adjudicates exactly (GET /audit, every timeline), checked whenever a
  movement was resolved or the timeline changed;
- sealed orders stay sealed: the public event log and another seat's show no sealed
  part of an open movement's order, another seat's GET /orders lists none of them
  (and api.py's salt check holds on every answer).
"""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from collections.abc import Iterable, Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, ClassVar

from hypothesis import event, note
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from api.app import create_app
from domain.rules.contract import AnyRuleset, OrderPolicy
from domain.rules.registry import get_ruleset
from domain.rules.rng import Rng
from service.channels.mail.outbox import MaildirOutbox
from service.clock import ManualClock
from service.matches import Matches
from service.settings import Settings
from tests.fuzz.api import Answer, CheckedClient, FuzzFailure, Sealed
from tests.fuzz.games import FuzzGame

OPERATOR = "fuzz-operator-token"
APP_CONFIG = {
    "TESTING": True,
    "DRTS_LONG_POLL_MAX_SECONDS": 1,
    "DRTS_STREAM_MAX_SECONDS": 0.3,
    "DRTS_RATE_LIMIT_PER_ADDRESS": 0,  # the fuzz sends far faster than a client may
    "DRTS_RATE_LIMIT_PER_TOKEN": 0,
}
VALID_NAMES = ("ann", "bob", "Zoë", "li wei", "player 7", "ひかり", "cy", "dee", "eve", "flo")
INVALID_NAMES = ("", " ann", "bob ", "a\x00b", "tab\there", "x" * 65, "\u202eevil", "\ud800")
# who sends a referee's command: mostly the referee, so that the commands get past the door
WHO = ("referee", "referee", "referee", "operator", "seat", "none", "wrong", "revoked")
REASONS = ("the fuzz", "Zoë's ↯ reason")
BAD_REASONS: tuple[Any, ...] = ("", 7, None)
TEXTS = {"plain": "the fuzz disputes this", "unicode": "Zoë says ↯ no", "4000": "x" * 4000}
BAD_TEXTS: dict[str, Any] = {"empty": "", "blank": "   ", "4001": "x" * 4001, "number": 12}
RECEIPTS_PER_CHECK = 50  # POST /verify takes at most 50 receipts
HEADS_PER_CHECK = 100
FIGURES: dict[str, Counter[str]] = {}  # per game: examples, steps, requests, answers
SWEEPS = 2000  # the most sweeps a day's jump may take: a movement a minute, strikes too


def nested(depth: int) -> Any:
    """Returns a JSON list nested `depth` deep (beyond the API's 32 levels)."""
    value: Any = []
    for _ in range(depth):
        value = [value]
    return value


# empty orders: a game may read one as a legal order (DRTS Team 23: "An empty order is
# `hold`", its JSON form's operations "may be empty or missing")
EMPTY_ORDERS: tuple[Any, ...] = ("", "   ", {}, [])


def garbage_orders(ruleset: AnyRuleset) -> tuple[Any, ...]:
    """Orders no game reads: wrong syntax, wrong types, hostile text, too long."""
    too_long = "x" * (ruleset.info.max_order_chars + 1)
    return (
        "zz99 !!",
        12345,
        -1.5,
        True,
        None,
        ["hold"],
        {"bogus": [1, 2]},
        "a\x00b",
        "\u202e\u200bhold",
        "\ud800",
        too_long,
        {"deep": nested(40)},
        2**60,
    )


class FuzzMachine(RuleBasedStateMachine):
    """One match of `game`, played over HTTP; `folder` holds each example's store (an
    SQLite copy of `template`, or a PostgreSQL database `new_store` gives)."""

    game: ClassVar[FuzzGame]
    new_store: ClassVar[Any]  # (ExitStack) -> database URL of a fresh migrated store
    folder: ClassVar[Path]
    store: ClassVar[str] = "SQLite"
    examples: ClassVar[int] = 0

    def __init__(self) -> None:
        super().__init__()
        type(self).examples += 1
        self.tally = FIGURES.setdefault(f"{self.game.key} on {self.store}", Counter())
        self.tally["examples"] += 1
        self.began = time.perf_counter()
        self.exit = contextlib.ExitStack()
        self.clock = ManualClock()
        url = type(self).new_store(self.exit)
        self.app = Matches(
            env=Settings(url).event_store_env(), clock=self.clock, operator_token=OPERATOR
        )
        self.exit.callback(self.app.close)
        self.app.resolution.sleep = self.clock.advance  # type: ignore[method-assign]  # settling, by hand
        self.app.outbox = MaildirOutbox(str(self.folder / f"outbox-{self.examples}"))
        flask = create_app(APP_CONFIG, matches=self.app)
        self.api = CheckedClient(flask.test_client(), self.viewer, self.sealed_now)
        self.ruleset = get_ruleset(self.game.ruleset, self.game.version)
        self.match_id = ""
        self.referee = ""
        self.tokens: dict[int, str] = {}
        self.names: set[str] = set()
        self.forfeited: set[int] = set()
        self.revoked: list[str] = []
        self.sealed: list[Sealed] = []
        self.receipts: list[tuple[int, dict[str, Any]]] = []  # (timeline, receipt)
        self.heads: list[tuple[int, dict[str, Any]]] = []  # (timeline, head)
        self.disputes: dict[int, tuple[int | None, str]] = {}  # number: (seat, status)
        self.checked_evidence: tuple[int, int] = (0, 0)  # receipts and heads verified
        self.audited: tuple[Any, ...] = ()
        self._summary: dict[str, Any] | None = None

    def teardown(self) -> None:
        self.tally["requests"] += self.api.requests
        self.exit.close()
        self.tally["seconds"] += time.perf_counter() - self.began

    # -- who is who -------------------------------------------------------------------------

    def viewer(self, token: str | None) -> int | str | None:
        if token in (self.referee, OPERATOR):
            return "referee"
        return next((seat for seat, t in self.tokens.items() if t == token), None)

    def sealed_now(self) -> Iterator[Sealed]:
        """The sealed orders of the open movement now (none once the match is over)."""
        if not self.match_id or self.ruleset.info.public_orders:
            return iter(())
        summary = self.summary()
        if summary["status"] != "started":
            self.sealed = []  # revealed for good: a correction does not seal them again
            return iter(())
        self.sealed = [s for s in self.sealed if s.movement >= summary["movement"]]
        return iter(self.sealed)

    def token(self, who: str, seat: int | None = None) -> str | None:
        """Returns a token of the kind `who`: a seat's is `seat`'s (the first one's by
        default), a wrong one is no token of the match, a revoked one an old seat token."""
        if who == "referee":
            return self.referee
        if who == "operator":
            return OPERATOR
        if who == "seat":
            return self.tokens.get(seat or 1) or (self.revoked[-1] if self.revoked else "no-seat")
        if who == "revoked":
            return self.revoked[-1] if self.revoked else "never-issued-token"
        if who == "wrong":
            return "not-a-token-of-this-match"
        return None

    # -- reading ----------------------------------------------------------------------------

    def call(self, method: str, path: str, token: str | None = None, **kw: Any) -> Answer:
        """Calls the match's `path` (relative to /matches/{id}); a write forgets the summary
        (before its answer is checked, so that the check reads the match after it)."""
        if method != "GET" or token in (self.referee, OPERATOR):
            self._summary = None  # the referee's reads may record a look
        return self.api.call(method, f"/matches/{self.match_id}{path}", token, **kw)

    def summary(self) -> dict[str, Any]:
        """Returns the match's public summary, read once after each write (unchecked for
        secrets there: api.py checks every answer with it)."""
        if self._summary is None:
            response = self.api.client.get(f"/matches/{self.match_id}")
            assert response.status_code == 200, response.get_data(as_text=True)
            self._summary = response.get_json()
        return self._summary

    @property
    def status(self) -> str:
        return str(self.summary()["status"])

    @property
    def started(self) -> bool:
        return self.status == "started"

    @property
    def paused(self) -> bool:
        return self.started and self.summary()["paused"] is not None

    def deadline(self) -> datetime | None:
        value = self.summary().get("deadline")
        return None if value is None else datetime.fromisoformat(value)

    def overdue(self) -> bool:
        """Whether the open deadline has passed without a worker resolving it yet (in a
        game whose movement re-arms when nothing is pending, B-Chess's Turn of the
        Field, only with some order pending: else the deadline does nothing)."""
        deadline = self.deadline()
        if not self.started or self.paused or deadline is None or deadline > self.clock():
            return False
        table = self.app.get_match(self.match_id).table()
        if table.ruleset.to_move(table.state).policy.rearm_when_empty:
            return self.pending_of(None)
        return True

    def owing(self) -> list[int]:
        return [int(s) for s in self.summary()["to_move"]] if self.started else []

    def out(self) -> set[int]:
        return {int(s) for s in self.summary().get("eliminated") or []} | self.forfeited

    def tick(self) -> None:
        """A second passes before a command (its answer is foreseen at the new instant)."""
        self.clock.advance(1)
        self._summary = None

    def expect(self, answer: Answer, allowed: Iterable[int], what: str) -> None:
        code = answer.body.get("code") if answer.status >= 400 and answer.body else ""
        kind = f"{what.split(' ')[0]} {answer.status}"
        event(f"{kind} {code}")
        self.tally[kind] += 1
        if answer.status not in set(allowed):
            raise FuzzFailure(
                f"{what}: {answer.status} {answer.text[:600]} (allowed: {sorted(set(allowed))})"
            )

    def auth_refusal(self, who: str) -> set[int] | None:
        """The status a token kind gets from a referee's command (None: the referee's)."""
        if who in ("referee", "operator"):
            return None
        return {403} if who == "seat" and self.tokens else {401, 403}

    # -- the match --------------------------------------------------------------------------

    @initialize(data=st.data())
    def create(self, data: st.DataObject) -> None:
        """Creates the match with one of the game's configs; seats some players and starts
        it, or not (most examples start: the rules have more to do then)."""
        game = self.game
        config = data.draw(st.sampled_from(game.configs), label="config")
        seats = data.draw(st.sampled_from(game.seats), label="seats")
        body: dict[str, Any] = {"ruleset": game.ruleset, "ruleset_version": game.version}
        body["config"] = config
        if game.preset:
            body["preset"] = game.preset
        if self.ruleset.info.min_seats != self.ruleset.info.max_seats:
            body["seats"] = seats
        answer = self.api.call("POST", "/matches", body=body)
        self.expect(answer, {201}, "create")
        self.match_id, self.referee = answer.body["match_id"], answer.body["referee_token"]
        prelude = data.draw(st.sampled_from(("started", "started", "started", "seated", "few")))
        joining = seats if prelude != "few" else data.draw(st.integers(0, seats - 1))
        for number in range(joining):
            self.clock.advance(1)
            self._join(VALID_NAMES[number], {201})
        if prelude == "started":
            self.expect(self.call("POST", "/start", self.referee), {200}, "start")

    def _join(self, name: Any, allowed: set[int]) -> Answer:
        answer = self.call("POST", "/seats", body={"name": name})
        self.expect(answer, allowed, f"join as {name!r}")
        if answer.status == 201:
            self.tokens[int(answer.body["seat"])] = answer.body["token"]
            self.names.add(name)
        return answer

    @rule(data=st.data())
    def join(self, data: st.DataObject) -> None:
        name = data.draw(st.sampled_from(VALID_NAMES + INVALID_NAMES), label="name")
        self.clock.advance(1)
        info = self.ruleset.info
        limit = self.summary()["seat_limits"]["max"]
        if name in INVALID_NAMES:
            allowed = {400, 409, 422}
        elif self.status == "open":
            full = len(self.tokens) >= limit
            allowed = {409} if name in self.names or full else {201}
        elif self.started and self.ruleset.add_seat is not None:
            allowed = {201, 409}  # BC-5: while a seat is free
        else:
            allowed = {409}
        note(f"join {name!r}: {self.status}, {len(self.tokens)} seats, {info.max_seats} at most")
        self._join(name, allowed)

    @rule(who=st.sampled_from(WHO))
    def start(self, who: str) -> None:
        self.clock.advance(1)
        refused = self.auth_refusal(who)
        if refused is not None:
            allowed = refused
        elif self.status != "open" or len(self.tokens) < self.summary()["seat_limits"]["min"]:
            allowed = {409}
        else:
            allowed = {200}
        self.expect(self.call("POST", "/start", self.token(who)), allowed, f"start by {who}")

    # -- orders -----------------------------------------------------------------------------

    def legal_order(self, seat: int, salt: int, state: Any = None) -> Any | None:
        """Returns a random legal order of `seat` (the game's own `random_order`) in the
        current state, or in `state`; None when the game has none for it."""
        if state is None:
            state = self.app.get_match(self.match_id).table().state
        try:
            return self.ruleset.random_order(state, seat, Rng(f"fuzz-{salt}", 1, f"seat-{seat}"))
        except Exception as error:  # an eliminated seat, or one that owes nothing
            note(f"no random order for seat {seat}: {error!r}")
            return None

    def written(self, order: Any, form: str) -> Any:
        ruleset = self.ruleset
        return ruleset.format_order(order) if form == "text" else ruleset.dump_order(order)

    def send(self, seat: int, sent: Any, token: str | None, **extra: Any) -> Answer:
        """Sends an order; records what it stored (its receipt, heads, sealed parts)."""
        before = int(self.summary()["version"])
        answer = self.call("POST", "/orders", token, body={"order": sent, **extra})
        if answer.status == 201:
            self.receipts.append((self.timeline, answer.body))
            self.heads.append((self.timeline, answer.body["head"]))
            if answer.body.get("closing"):
                self.heads.append((self.timeline, answer.body["closing"]["head"]))
        if token is not None and token == self.tokens.get(seat):
            self.record_sealed(seat, before, answer)
        return answer

    def record_sealed(self, seat: int, before: int, answer: Answer) -> None:
        """Reads the seat's own events after `before`: the sealed parts of what it sent
        (kept to check that no one else sees them), and the acknowledged order stored."""
        page = self.call(
            "GET",
            "/events",
            self.tokens[seat],
            query={"after": before, "seat": seat, "type": "OrderSubmitted,OrderRejected"},
        )
        self.expect(page, {200}, "own-events of the seat")
        for item in page.body["items"]:
            salt = (item.get("sealed") or {}).get("salt")
            if salt and item["data"].get("movement"):
                self.sealed.append(
                    Sealed(seat, int(item["data"]["movement"]), item["version"], salt)
                )
        if answer.status == 201:
            stored = [e for e in page.body["items"] if e["version"] == answer.body["version"]]
            if not stored or stored[0]["data"]["digest"] != answer.body["digest"]:
                raise FuzzFailure(f"order acknowledged at {answer.body} is not in the log")

    @property
    def timeline(self) -> int:
        return int(self.summary().get("timeline") or 1)

    def pick_seat(self, data: st.DataObject, owing_first: bool = True) -> int | None:
        owing = [s for s in self.owing() if s in self.tokens]
        pool = owing if owing and owing_first else sorted(self.tokens)
        return data.draw(st.sampled_from(pool), label="seat") if pool else None

    def pending_of(self, seat: int | None) -> bool:
        """Whether `seat` (any seat for None) has an acknowledged order in the open movement."""
        movement = self.summary().get("movement")
        return any(
            seat in (r["seat"], None) and r["movement"] == movement and t == self.timeline
            for t, r in self.receipts
        )

    @precondition(lambda self: self.started)
    @rule(data=st.data(), form=st.sampled_from(("text", "json")), salt=st.integers(0, 2**16))
    def order(self, data: st.DataObject, form: str, salt: int) -> None:
        """A legal order of a seat that owes one (201), as text or JSON, sometimes with
        its movement number."""
        self.tick()
        seat = self.pick_seat(data)
        if seat is not None:
            self.legal(seat, form, salt, data.draw(st.booleans(), label="with its movement"))

    @precondition(lambda self: self.started)
    @rule(data=st.data(), salt=st.integers(0, 2**16))
    def play_movement(self, data: st.DataObject, salt: int) -> None:
        """Every seat that owes an order sends a legal one (as text or JSON), a second
        apart, but those left silent; the movement may close early, or wait."""
        for seat in self.owing():
            if seat in self.tokens and data.draw(st.integers(0, 5), label="silent") != 0:
                self.tick()
                form = data.draw(st.sampled_from(("text", "json")), label="form")
                self.legal(seat, form, salt, with_movement=False)

    def legal(self, seat: int, form: str, salt: int, with_movement: bool) -> None:
        order = self.legal_order(seat, salt)
        if order is None:
            return
        extra = {"movement": self.summary()["movement"]} if with_movement else {}
        owes, overdue, started = seat in self.owing(), self.overdue(), self.started
        pending = self.pending_of(seat)
        seen = {k: self.summary().get(k) for k in ("status", "movement", "to_move", "deadline")}
        note(f"seat {seat} orders at {self.clock()}, the match then: {seen}")
        combined = self.ruleset.info.order_policy is not OrderPolicy.REPLACE
        answer = self.send(seat, self.written(order, form), self.tokens[seat], **extra)
        if overdue:
            allowed = {201, 403, 409, 422}  # the deadline passes first (docs/api.md)
        elif not started:
            allowed = {409}  # match_not_started, movement_closed (finished)
        elif not owes:
            allowed = {403}
        elif combined and pending:
            allowed = {201, 422}  # with its earlier orders of the movement (merge, accumulate)
        else:
            allowed = {201}
        self.expect(answer, allowed, f"order of seat {seat}: {order!r}")

    @precondition(lambda self: self.started)
    @rule(data=st.data(), form=st.sampled_from(("text", "json")), salt=st.integers(0, 2**16))
    def foreign_order(self, data: st.DataObject, form: str, salt: int) -> None:
        """Another seat's legal order, sent by this one: legal or not, as the game says."""
        self.tick()
        seat = self.pick_seat(data)
        others = [s for s in self.tokens if s != seat]
        if seat is None or not others:
            return
        order = self.legal_order(data.draw(st.sampled_from(others)), salt)
        if order is not None:
            self.send(seat, self.written(order, form), self.tokens[seat])

    @rule(data=st.data())
    def invalid_order(self, data: st.DataObject) -> None:
        """An order no game takes, or one sent wrongly: never acknowledged."""
        self.tick()
        kind = data.draw(
            st.sampled_from(("garbage", "movement", "field", "source", "token")), label="kind"
        )
        seat = self.pick_seat(data) or 1
        token = self.tokens.get(seat)
        body: dict[str, Any] = {}
        orders = garbage_orders(self.ruleset) + EMPTY_ORDERS
        sent: Any = data.draw(st.sampled_from(orders), label="order")
        if kind == "movement":
            legal = self.legal_order(seat, 1) if self.started else None
            sent = "hold" if legal is None else self.written(legal, "text")
            now = int(self.summary().get("movement") or 1)
            wrong = (now - 1, 0, 10**7, "1", 1.5) + (() if self.overdue() else (now + 1,))
            body["movement"] = data.draw(st.sampled_from(wrong))
        elif kind == "field":
            body["bogus"] = 1
        elif kind == "source":
            body["source"] = data.draw(st.sampled_from(("email", "forum", "", 3)))
        elif kind == "token":
            token = self.token(data.draw(st.sampled_from(("referee", "operator", "none", "wrong"))))
        answer = self.send(seat, sent, token, **body)
        allowed = set(range(400, 500))
        if kind == "garbage" and sent in EMPTY_ORDERS:
            allowed |= {201}  # an empty order, which the game may take
        self.expect(answer, allowed, f"invalid-order ({kind}) {sent!r:.80} {body}")

    @precondition(lambda self: self.started and not self.paused and self.deadline() is not None)
    @rule(data=st.data(), late=st.integers(0, 120), salt=st.integers(0, 2**16))
    def late_order(self, data: st.DataObject, late: int, salt: int) -> None:
        """The clock passes the deadline and no worker runs; then an owing seat orders for
        the movement it saw open: the deadline passes first, and the order is judged
        after it (taken for a movement still open, refused for one that closed)."""
        seat = self.pick_seat(data)
        if seat is None:
            return
        order = self.legal_order(seat, salt)
        deadline, movement = self.deadline(), self.summary()["movement"]
        assert deadline is not None
        self.clock.reach(deadline + timedelta(seconds=late))
        if order is None:
            return
        answer = self.send(seat, self.written(order, "text"), self.tokens[seat], movement=movement)
        self.expect(answer, {201, 403, 409, 422}, f"late-order of seat {seat}")
        self.check_not_overdue("after a late order")

    def check_not_overdue(self, when: str) -> None:
        if self.overdue():
            raise FuzzFailure(
                f"{when}: movement {self.summary()['movement']} is still open at "
                f"{self.clock()} past its deadline {self.deadline()}"
            )

    @precondition(lambda self: self.started)
    @rule(data=st.data())
    def referee_looks(self, data: st.DataObject) -> None:
        """The referee's look at the open orders (recorded): every acknowledged order of
        the open movement is listed, with its digest."""
        who = data.draw(st.sampled_from(("referee", "operator")))
        answer = self.call("GET", "/orders", self.token(who))
        self.expect(answer, {200}, "referee-look at the open orders")
        listed = {item["digest"] for item in answer.body["items"]}
        movement, timeline = self.summary()["movement"], self.timeline
        for made, receipt in self.receipts:
            ours = made == timeline and receipt["movement"] == movement and self.started
            if ours and receipt["digest"] not in listed:
                raise FuzzFailure(f"acknowledged order {receipt} not among the open orders")

    # -- the clock and the worker -------------------------------------------------------------

    @rule(data=st.data())
    def resolve_due(self, data: st.DataObject) -> None:
        """The clock moves on, then the worker resolves what is due, as the sweep and its
        batch task do (due_movements, then resolve_batch)."""
        how = data.draw(st.sampled_from(("second", "minute", "deadline", "day")), label="clock")
        deadline = self.deadline()
        if how == "deadline" and deadline is not None:
            self.clock.reach(deadline + timedelta(seconds=data.draw(st.integers(0, 3))))
        else:
            self.clock.advance({"second": 1, "minute": 60, "deadline": 5, "day": 86400}[how])
        for _ in range(SWEEPS):  # each sweep resolves the movement due; the next may be due
            due = self.app.due_movements(self.clock())
            if not due:
                break
            note(f"at {self.clock()}: due {[(str(d.match_id), d.movement) for d in due]}")
            if not any(self.app.resolve_batch(due)):
                raise FuzzFailure(f"the worker resolved none of the due movements {due}")
        self._summary = None
        self.check_not_overdue("after the worker ran")

    # -- the referee --------------------------------------------------------------------------

    def act(self, who: str, action: str, args: Any, reason: Any = "the fuzz") -> Answer:
        body = {"action": action, "args": args, "reason": reason}
        answer = self.call("POST", "/actions", self.token(who), body=body)
        return answer

    def acting_allowed(self, who: str, reason: Any) -> set[int] | None:
        """The answers every referee action gets before its own checks (None: none)."""
        refused = self.auth_refusal(who)
        if refused is not None:
            return refused | {422} if reason in BAD_REASONS else refused
        if reason in BAD_REASONS:
            return {422}
        if self.status in ("open", "finished"):
            return {409}  # match_not_started, movement_closed
        return None

    @rule(who=st.sampled_from(WHO), reason=st.sampled_from(REASONS + BAD_REASONS))
    def pause(self, who: str, reason: Any) -> None:
        self.tick()
        allowed = self.acting_allowed(who, reason) or ({409} if self.paused else {201})
        if self.overdue() and allowed == {201}:
            allowed = {201, 409}  # the deadline passes first: it may end the match
        self.expect(self.act(who, "pause", {}, reason), allowed, f"pause by {who}")

    @rule(who=st.sampled_from(WHO), reason=st.sampled_from(REASONS + BAD_REASONS))
    def resume(self, who: str, reason: Any) -> None:
        self.tick()
        allowed = self.acting_allowed(who, reason) or ({201} if self.paused else {409})
        self.expect(self.act(who, "resume", {}, reason), allowed, f"resume by {who}")

    @rule(data=st.data(), who=st.sampled_from(WHO))
    def forfeit(self, data: st.DataObject, who: str) -> None:
        self.tick()
        seats = len(self.summary()["seats"])
        seat = data.draw(st.sampled_from((*range(1, seats + 1), 0, seats + 1, "1")))
        allowed = self.acting_allowed(who, "the fuzz")
        if allowed is None:
            known = isinstance(seat, int) and 1 <= seat <= seats
            allowed = {201} if known and seat not in self.out() else {404, 422}
            if self.overdue():
                allowed |= {201, 409, 422}  # the deadline passes first: it may end the match
        answer = self.act(who, "forfeit", {"seat": seat})
        self.expect(answer, allowed, f"forfeit of seat {seat!r} by {who}")
        if answer.status == 201:
            self.forfeited.add(seat)

    @precondition(lambda self: bool(self.ruleset.actions))
    @rule(data=st.data(), who=st.sampled_from(WHO))
    def game_action(self, data: st.DataObject, who: str) -> None:
        """The game's own referee actions (B-Chess's grant): good and bad arguments."""
        self.tick()
        action = data.draw(st.sampled_from([a.name for a in self.ruleset.actions]))
        seats = len(self.summary()["seats"]) or 1
        seat = data.draw(st.sampled_from((*range(1, seats + 1), 0, 99, "2", None)))
        amount = data.draw(st.sampled_from((20, 5, -3, -(10**6), 0, 1.5, "ten", 2**60)))
        answer = self.act(who, action, {"seat": seat, "macks": amount, "points": amount})
        allowed = self.acting_allowed(who, "the fuzz") or {201, 404, 409, 422}
        allowed |= {422}  # the body is read first (2**60 is no JSON integer here)
        self.expect(answer, allowed, f"{action} {seat!r} {amount!r} by {who}")

    @rule(
        who=st.sampled_from(WHO),
        seconds=st.sampled_from((1, 60, 3600, 31622400, 0, -5, 31622401, "soon", 2.5)),
        movement=st.sampled_from(("open", "none", "next", "past")),
    )
    def extend(self, who: str, seconds: Any, movement: str) -> None:
        self.clock.advance(1)
        body: dict[str, Any] = {"seconds": seconds, "reason": "the fuzz"}
        now = int(self.summary().get("movement") or 1)
        numbers = {"open": now, "next": now + 1, "past": max(now - 1, 1)}
        if movement != "none":
            body["movement"] = numbers[movement]
        good = isinstance(seconds, int) and 0 < seconds <= 31622400
        refused = self.auth_refusal(who)
        if refused is not None:
            allowed = refused | {422}
        elif not good or not self.started or self.paused or body.get("movement", now) != now:
            allowed = {409, 422}
        elif self.overdue():
            allowed = {200, 409, 422}  # the deadline passes first
        else:
            allowed = {200, 422}  # 422: moved beyond a year from now (several extensions)
        answer = self.call("POST", "/deadline", self.token(who), body=body)
        self.expect(answer, allowed, f"extend by {seconds!r} ({movement}) by {who}")

    @rule(data=st.data(), who=st.sampled_from(WHO))
    def reissue(self, data: st.DataObject, who: str) -> None:
        """A new token for a seat: the old one is refused from then on."""
        seats = sorted(self.tokens)
        seat = data.draw(st.sampled_from((*seats, 0, 99)), label="seat")
        self.clock.advance(1)
        answer = self.call("POST", f"/seats/{seat}/token", self.token(who), body={})
        refused = self.auth_refusal(who)
        allowed = refused or ({200} if seat in self.tokens else {404, 422})
        self.expect(answer, allowed, f"reissue seat {seat}'s token by {who}")
        if answer.status == 200:
            old = self.tokens[seat]
            self.revoked.append(old)
            self.tokens[seat] = answer.body["token"]
            page = self.call("GET", "/orders", old)
            self.expect(page, {401}, "old-token after a reissue")

    # -- disputes and corrections ------------------------------------------------------------

    @rule(data=st.data(), who=st.sampled_from(WHO))
    def dispute(self, data: st.DataObject, who: str) -> None:
        self._summary = None  # the version now (a referee's read may have recorded a look)
        version = int(self.summary()["version"])
        seat = data.draw(st.sampled_from(sorted(self.tokens) or [1]), label="seat")
        cites = data.draw(
            st.lists(st.integers(1, version + 2), min_size=0, max_size=3), label="cites"
        )
        kind = data.draw(st.sampled_from(sorted(TEXTS) + sorted(BAD_TEXTS)), label="text")
        text = TEXTS.get(kind, BAD_TEXTS.get(kind))
        self.clock.advance(1)
        token = self.token(who, seat)
        answer = self.call("POST", "/disputes", token, body={"cites": cites, "text": text})
        filer = self.viewer(token)
        sealed_of_others = {s.version for s in self.sealed_now() if s.seat != filer}
        mine_open = sum(1 for s, state in self.disputes.values() if s == filer and state == "open")
        if filer is None:
            allowed = {401, 422}
        elif kind in BAD_TEXTS or not cites or max(cites) > version:
            allowed = {403, 409, 422}
        elif filer != "referee" and set(cites) & sealed_of_others:
            allowed = {403}
        elif filer != "referee" and mine_open >= 10:
            allowed = {409}
        else:
            allowed = {201}
        self.expect(answer, allowed, f"dispute by {who} citing {cites}")
        if answer.status == 201:
            number = int(answer.body["dispute"])
            self.disputes[number] = (None if filer == "referee" else filer, "open")  # type: ignore[assignment]

    @rule(
        data=st.data(),
        who=st.sampled_from(WHO),
        ruling=st.sampled_from(("dismissed", "upheld", "maybe")),
        reason=st.sampled_from(REASONS + BAD_REASONS),
    )
    def ruling(self, data: st.DataObject, who: str, ruling: str, reason: Any) -> None:
        number = data.draw(st.sampled_from((*sorted(self.disputes), 0, 999)), label="dispute")
        self.clock.advance(1)
        body = {"ruling": ruling, "reason": reason}
        answer = self.call("POST", f"/disputes/{number}/ruling", self.token(who), body=body)
        refused = self.auth_refusal(who)
        if refused is not None:
            allowed = refused | {404, 422}
        elif ruling == "maybe" or reason in BAD_REASONS or number not in self.disputes:
            allowed = {404, 409, 422}
        else:
            allowed = {201} if self.disputes[number][1] == "open" else {409}
        self.expect(answer, allowed, f"ruling {ruling!r} on dispute {number} by {who}")
        if answer.status == 201:
            self.disputes[number] = (self.disputes[number][0], "ruled")

    def resolved_movements(self) -> int:
        summary = self.summary()
        if summary["status"] == "open":
            return 0
        last = int(summary.get("movement") or 0)
        return last if summary["status"] == "finished" else last - 1

    @rule(
        data=st.data(),
        who=st.sampled_from(("referee", "referee", "operator", "seat", "none")),
        change=st.sampled_from(("legal", "legal", "withdraw", "garbage", "unknown seat")),
        salt=st.integers(0, 2**16),
    )
    def correction(self, data: st.DataObject, who: str, change: str, salt: int) -> None:
        """The referee corrects a resolved movement (a new timeline), or tries the open one."""
        done = self.resolved_movements()
        movement = data.draw(st.integers(1, done + 1), label="movement") if done else 1
        record = self.call("GET", f"/movements/{movement}", self.referee)
        seat: Any = 1
        order: Any = "hold"
        legal = False
        if record.status == 200:
            before = self.ruleset.load_state(record.body["state_before"])
            owing = self.ruleset.to_move(before).seats  # who owed orders in that movement
            ordered = [o["seat"] for o in record.body["orders"] if o["seat"] in owing]
            seat = data.draw(st.sampled_from(ordered or list(owing) or [1]), label="seat")
            if change == "legal":
                found = self.legal_order(int(seat), salt, before)
                legal = found is not None
                order = self.ruleset.dump_order(found) if legal else "hold"
            elif change == "withdraw":
                order = None
            elif change == "garbage":
                order = "zz99 !!"
            else:
                seat = 99
        self.clock.advance(1)
        body: dict[str, Any] = {
            "movement": movement,
            "changes": [{"seat": seat, "order": order}],
            "reason": "the fuzz corrects it",
        }
        open_disputes = [n for n, (_, status) in self.disputes.items() if status == "open"]
        if open_disputes and data.draw(st.booleans(), label="for a dispute"):
            body["dispute"] = data.draw(st.sampled_from(open_disputes))
        answer = self.call("POST", "/corrections", self.token(who), body=body)
        refused = self.auth_refusal(who)
        if refused is not None:
            allowed = refused | {422}  # the body is read first
        elif record.status != 200:
            allowed = {404, 409}
        elif legal or change == "withdraw":
            allowed = {201, 422}  # 422: a withdrawal the game refuses, or an illegal combination
        else:
            allowed = {404, 422}
        self.expect(answer, allowed, f"correction of movement {movement} ({change}) by {who}")
        if answer.status == 201:
            self.heads.append((int(answer.body["timeline"]), answer.body["head"]))
            if "dispute" in body:
                number = body["dispute"]
                self.disputes[number] = (self.disputes[number][0], "ruled")

    # -- invariants -------------------------------------------------------------------------

    @invariant()
    def verifies_and_replays(self) -> None:
        """The match verifies, and its replay agrees with the store."""
        if not self.match_id:
            return
        self.tally["steps"] += 1
        verified = self.call("GET", "/verify")
        self.expect(verified, {200}, "verify")
        if not verified.body["ok"] or verified.body["problems"]:
            raise FuzzFailure(f"the match does not verify: {verified.text[:2000]}")
        replay = self.call("GET", "/replay")
        self.expect(replay, {200}, "replay")
        if not replay.body["agrees"]:
            raise FuzzFailure(f"the replay does not agree with the store: {replay.text[:1000]}")
        if self.status == "open":
            return
        now = self.call("GET", "/state")
        self.expect(now, {200}, "state")
        if now.body["state"] != replay.body["state"]:
            raise FuzzFailure(f"/state is not the replay's last state: {now.text[:1000]}")

    @invariant()
    def sealed_orders_stay_sealed(self) -> None:
        """No sealed part of an open movement's order in the public log or another seat's,
        nor among another seat's open orders."""
        if not self.match_id:
            return
        sealed = list(self.sealed_now())
        if not sealed:
            return
        owners = {s.seat for s in sealed}
        versions = {s.version for s in sealed}
        others = [s for s in sorted(self.tokens) if s not in owners][:1] or sorted(self.tokens)[:1]
        for viewer in (None, *others):
            token = None if viewer is None else self.tokens[viewer]
            log = self.call("GET", "/events", token, query={"limit": 1000})
            self.expect(log, {200}, "event-log")
            for item in log.body["items"]:
                sender = item["data"].get("seat")
                if item["version"] in versions and sender != viewer and "sealed" in item:
                    raise FuzzFailure(f"{viewer or 'the public'} sees the sealed part of {item}")
        for viewer in others:
            pending = self.call("GET", "/orders", self.tokens[viewer])
            self.expect(pending, {200, 403, 409}, "open-orders of a seat")
            if pending.status == 200:
                seen = {int(i["seat"]) for i in pending.body["items"]}
                seen |= {int(s) for s in pending.body["standing"]}
                if seen - {viewer}:
                    raise FuzzFailure(f"seat {viewer} sees the open orders of seats {seen}")

    @invariant()
    def acknowledged_orders_are_stored(self) -> None:
        """Every receipt and head handed out verifies against the log, in its timeline."""
        if (len(self.receipts), len(self.heads)) == self.checked_evidence:
            return
        self.checked_evidence = (len(self.receipts), len(self.heads))
        for timeline in sorted({t for t, _ in self.receipts} | {t for t, _ in self.heads}):
            receipts = [r for t, r in self.receipts if t == timeline][-RECEIPTS_PER_CHECK:]
            heads = [h for t, h in self.heads if t == timeline][-HEADS_PER_CHECK:]
            body = {"receipts": receipts, "heads": heads}
            answer = self.call("POST", "/verify", body=body, query={"timeline": timeline})
            self.expect(answer, {200}, f"evidence-verify of timeline {timeline}")
            if not answer.body["ok"] or answer.body["problems"]:
                raise FuzzFailure(f"timeline {timeline}'s evidence: {answer.text[:2000]}")

    @invariant()
    def audits_exactly(self) -> None:
        """The audit re-adjudicates every timeline exactly (when something was resolved)."""
        if not self.match_id:
            return
        summary = self.summary()
        key = (summary["status"], summary.get("movement"), self.timeline)
        if key == self.audited or summary["status"] == "open":
            return
        self.audited = key
        report = self.call("GET", "/audit", self.referee)
        self.expect(report, {200}, "audit")
        body = report.body
        if not body["exact"] or not all(t["exact"] for t in body["timelines"]):
            raise FuzzFailure(f"the audit diverges: {report.text[:2000]}")
