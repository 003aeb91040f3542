"""Toy: a tiny simultaneous game for service and aggregate tests, in the ruleset skeleton.

Each seat picks 1, 2 or 3 each round; a pick nobody else made scores its
value; one random ordering seat gets a bonus point (two in version 2, so that
tests can tell the versions apart). After `rounds` rounds (or when one seat
is left) the highest score wins. The movement's policy comes from the config,
so tests can try every kind of silence.

Variants exercise the optional parts of the contract: `toy_acc` accumulates
orders (its picks add up), `toy_merge` merges them (the larger pick stands),
`toy_rearm` is played like B-Chess's Turn of the Field: orders accumulate,
and a movement fires every period but resolves only once an order is pending;
`toy_ref` has a referee action, `grant` (points to a seat, like B-Chess's macks);
`toy_parts` screens a message of several picks part by part (`screen_order`, like
DRTS v2's operations and B-Chess's lines): the picks that stand merge, the others
are refused with their reasons.

It stays one module, with the sections of a ruleset package in the package's
order (docs/rulesets.md): config, state, orders, resolve, display, ruleset.
A game of this size needs no more, and the service tests import it from one
place.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from domain.errors import (
    IllegalActionError,
    IllegalOrderError,
    InvalidActionError,
    InvalidConfigError,
    InvalidOrderError,
    InvalidStateError,
)
from domain.rules.contract import (
    MAX_SECONDS,
    Config,
    ConfigField,
    Dynamics,
    MovementPolicy,
    OrderPolicy,
    Outcome,
    Preset,
    RefereeAction,
    RefusedPart,
    Result,
    Ruleset,
    RulesetInfo,
    Screened,
    Silence,
    Step,
    ToMove,
    check_seat_count,
    check_seat_number,
    load_config,
)
from domain.rules.rng import Rng

# -- config ---------------------------------------------------------------------------------

CONFIG_FIELDS = (
    ConfigField.integer("rounds", 3, "rounds to play", minimum=1, maximum=1_000_000),
    ConfigField.integer(
        "deadline_seconds", 60, "length of a movement", minimum=1, maximum=MAX_SECONDS
    ),
    ConfigField.choice("silence", "hold", "what silence means", [s.value for s in Silence]),
    ConfigField.boolean("close_early", True, "close once every seat has ordered"),
    ConfigField.integer(
        "max_strikes", 2, "the strike that forfeits (0: never)", minimum=0, maximum=10
    ),
    ConfigField.integer(
        "extension_seconds",
        30,
        "extension after a strike, at most `deadline_seconds`",
        minimum=1,
        maximum=MAX_SECONDS,
    ),
)

PRESETS = (
    Preset("quick", "one round, closing as soon as every seat has picked", {"rounds": 1}),
    Preset(
        "strict",
        "strikes for silence: the second forfeits; ten-second extensions",
        {"silence": "strike", "max_strikes": 2, "extension_seconds": 10},
    ),
)


def check_config(config: Config) -> None:
    """Raises InvalidConfigError when an extension is longer than the movement it extends
    (a toy rule, there to exercise the contract's cross-field check)."""
    if config["extension_seconds"] > config["deadline_seconds"]:
        raise InvalidConfigError(
            f"config option 'extension_seconds' must be an integer from 1 to deadline_seconds "
            f"({config['deadline_seconds']}), got {config['extension_seconds']!r}"
        )


# -- state ----------------------------------------------------------------------------------

_STATE_KEYS = {"config", "round", "scores", "out"}


@dataclass(frozen=True)
class State:
    """A toy position: the config, the round being played, each seat's score, the seats out."""

    config: Mapping[str, Any]
    round: int
    scores: tuple[int, ...]
    out: tuple[int, ...] = ()


def dump_state(state: State) -> dict[str, Any]:
    """Returns the state JSON: {"config", "round", "scores": [per seat], "out": [seats]}."""
    return {
        "config": dict(state.config),
        "round": state.round,
        "scores": list(state.scores),
        "out": list(state.out),
    }


def load_state(data: Any) -> State:
    """Returns the state a `dump_state` object describes; raises InvalidStateError."""
    if not isinstance(data, dict) or set(data) != _STATE_KEYS:
        raise InvalidStateError(f"a toy state is an object with keys {sorted(_STATE_KEYS)}")
    config = load_config(CONFIG_FIELDS, data["config"], check_config)
    scores, out = data["scores"], data["out"]
    if not _ints(scores) or not 2 <= len(scores) <= INFO.max_seats:
        raise InvalidStateError(f"state scores must be 2 to 4 integers, got {scores!r}")
    if not _ints(out) or not set(out) <= set(range(1, len(scores) + 1)):
        raise InvalidStateError(f"state out must list seats of the match, got {out!r}")
    if not _ints([data["round"]]) or data["round"] < 1:
        raise InvalidStateError(f"state round must be a positive integer, got {data['round']!r}")
    return State(config, data["round"], tuple(scores), tuple(out))


def _ints(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(v, int) and not isinstance(v, bool) for v in value
    )


def _active(state: State) -> tuple[int, ...]:
    return tuple(s for s in range(1, len(state.scores) + 1) if s not in state.out)


# -- orders ---------------------------------------------------------------------------------

PICKS = (1, 2, 3)


def parse_order(value: str | Mapping[str, Any]) -> int:
    """Returns the pick a text ("2") or JSON form ({"pick": 2}) holds; InvalidOrderError."""
    raw = value.get("pick") if isinstance(value, Mapping) else value
    try:
        return int(str(raw).strip())
    except ValueError:
        raise InvalidOrderError(f"a toy order is a number 1-3, got {value!r}") from None


def format_order(order: int) -> str:
    return str(order)


def dump_order(order: int) -> dict[str, int]:
    return {"pick": order}


def check_order(state: State, seat: int, order: int) -> None:
    """Raises IllegalOrderError for a pick other than 1, 2, 3; UnknownSeatError for no seat."""
    check_seat_number("toy", seat, len(state.scores))
    if order not in PICKS:
        raise IllegalOrderError(f"pick {order} is out of range: pick 1, 2 or 3")


def legal_orders(state: State, seat: int) -> tuple[int, ...]:
    """Returns the picks 1, 2, 3 for a seat that owes an order, else none."""
    check_seat_number("toy", seat, len(state.scores))
    return PICKS if seat in to_move(state).seats else ()


def random_order(state: State, seat: int, rng: Rng) -> int:
    return rng.between(1, 3)


# -- resolve --------------------------------------------------------------------------------


def resolve(
    state: State, orders: Sequence[tuple[int, int]], rng: Rng, bonus: int = 1
) -> tuple[State, tuple[Step, ...]]:
    """Returns the state after a round: unique picks score, one random picker gets `bonus`."""
    picks: dict[int, int] = {}
    for seat, pick in orders:
        picks[seat] = picks.get(seat, 0) + pick
    steps = [Step("TOY-1", f"seat {s} picks {p}", {"seat": s, "pick": p}) for s, p in picks.items()]
    scores = list(state.scores)
    values = list(picks.values())
    for seat, pick in picks.items():
        if values.count(pick) == 1:
            scores[seat - 1] += pick
            steps.append(Step("TOY-2", f"seat {seat} scores {pick}", {"seat": seat}))
    if picks:
        lucky = rng.choice(sorted(picks))
        scores[lucky - 1] += bonus
        text = f"seat {lucky} draws the bonus" + ("" if bonus == 1 else f" of {bonus}")
        steps.append(Step("TOY-3", text, {"seat": lucky}))
    return replace(state, round=state.round + 1, scores=tuple(scores)), tuple(steps)


def resolve_v2(
    state: State, orders: Sequence[tuple[int, int]], rng: Rng
) -> tuple[State, tuple[Step, ...]]:
    """Version 2: the bonus is two points."""
    return resolve(state, orders, rng, bonus=2)


def forfeit(state: State, seat: int) -> tuple[State, tuple[Step, ...]]:
    check_seat_number("toy", seat, len(state.scores))
    new = replace(state, out=(*state.out, seat))
    return new, (Step("TOY-4", f"seat {seat} is out", {"seat": seat}),)


def outcome(state: State) -> Outcome:
    active = _active(state)
    scores = {s: state.scores[s - 1] for s in range(1, len(state.scores) + 1)}
    ranking = tuple(sorted(active, key=lambda s: (-scores[s], s)))
    if len(active) <= 1:
        return Outcome(Result.WIN, scores, ranking, active, reason="last seat standing")
    if state.round <= state.config["rounds"]:
        return Outcome(Result.ONGOING, scores, ranking)
    best = max(scores[s] for s in active)
    winners = tuple(s for s in ranking if scores[s] == best)
    return Outcome(Result.WIN if len(winners) == 1 else Result.DRAW, scores, ranking, winners)


# -- display --------------------------------------------------------------------------------


def display(state: State) -> str:
    """Returns the Public Display: the round, then each seat's score (and whether it is out)."""
    rounds = state.config["rounds"]
    head = f"Round {state.round} of {rounds}." if state.round <= rounds else "All rounds played."
    lines = [head]
    for seat, score in enumerate(state.scores, 1):
        lines.append(f"Seat {seat}: {score} points" + (" (out)" if seat in state.out else ""))
    return "\n".join(lines) + "\n"


# -- ruleset --------------------------------------------------------------------------------

INFO = RulesetInfo(
    name="toy",
    version=1,
    title="Toy",
    min_seats=2,
    max_seats=4,
    dynamics=Dynamics.SIMULTANEOUS,
    config_fields=CONFIG_FIELDS,
    presets=PRESETS,
)


def initial_state(config: dict[str, Any], seats: int, rng: Rng) -> State:
    check_seat_count(INFO, seats)
    return State(config, 1, (0,) * seats)


def to_move(state: State) -> ToMove:
    c = state.config
    policy = MovementPolicy(
        c["deadline_seconds"],
        Silence(c["silence"]),
        c["close_early"],
        c["extension_seconds"],
        c["max_strikes"],
    )
    return ToMove(() if outcome(state).finished else _active(state), policy)


def view(state: State, seat: int | None) -> Any:
    return dump_state(state)


RULESET: Ruleset[State, int] = Ruleset(
    info=INFO,
    initial_state=initial_state,
    to_move=to_move,
    parse_order=parse_order,
    format_order=format_order,
    dump_order=dump_order,
    check_order=check_order,
    resolve=resolve,
    forfeit=forfeit,
    outcome=outcome,
    view=view,
    dump_state=dump_state,
    load_state=load_state,
    random_order=random_order,
    check_config=check_config,
    legal_orders=legal_orders,
    display=display,
)

RULESET_V2: Ruleset[State, int] = replace(
    RULESET, info=replace(INFO, version=2), resolve=resolve_v2
)

ACCUMULATING: Ruleset[State, int] = replace(
    RULESET, info=replace(INFO, name="toy_acc", order_policy=OrderPolicy.ACCUMULATE)
)


def merge_orders(earlier: int, later: int) -> int:
    """Returns the merge of two picks of one seat: the larger pick stands."""
    return max(earlier, later)


MERGING: Ruleset[State, int] = replace(
    RULESET,
    info=replace(INFO, name="toy_merge", order_policy=OrderPolicy.MERGE),
    merge_orders=merge_orders,
)


def field_turn(state: State) -> ToMove:
    """Returns `to_move` with a movement that fires every period and re-arms when empty."""
    owing = to_move(state)
    return replace(owing, policy=replace(owing.policy, close_early=False, rearm_when_empty=True))


REARMING: Ruleset[State, int] = replace(
    RULESET,
    info=replace(INFO, name="toy_rearm", order_policy=OrderPolicy.ACCUMULATE),
    to_move=field_turn,
)


@dataclass(frozen=True)
class Grant:
    seat: int
    points: int


def parse_grant(args: Mapping[str, Any]) -> Grant:
    """Returns the grant `{"seat": n, "points": p}` (p not 0); InvalidActionError otherwise."""
    if set(args) != {"seat", "points"}:
        raise InvalidActionError(f"a grant takes exactly seat and points, got {sorted(args)}")
    seat, points = args["seat"], args["points"]
    if not all(type(v) is int for v in (seat, points)) or points == 0:
        raise InvalidActionError(f"a grant gives a seat number a non-zero whole number: {args}")
    return Grant(seat, points)


def apply_grant(state: State, grant: Grant) -> tuple[State, tuple[Step, ...]]:
    """Returns the state with the points added to the seat's score; IllegalActionError for
    a seat that is not playing."""
    if grant.seat not in _active(state):
        raise IllegalActionError(f"seat {grant.seat} is not playing: no points to grant it")
    scores = list(state.scores)
    scores[grant.seat - 1] += grant.points
    text = f"the referee grants seat {grant.seat} {grant.points} point(s)"
    return replace(state, scores=tuple(scores)), (Step("TOY-5", text, {"seat": grant.seat}),)


GRANT = RefereeAction(
    name="grant",
    description="adds points to a seat's score (like B-Chess's macks)",
    parse=parse_grant,
    apply=apply_grant,
    arguments={"seat": "the seat number", "points": "a whole number, not 0 (may be negative)"},
    example={"seat": 1, "points": 2},
)

REFEREED: Ruleset[State, int] = replace(
    RULESET, info=replace(INFO, name="toy_ref"), actions=(GRANT,)
)


def screen_picks(
    state: State, seat: int, earlier: Sequence[int], sent: str | Mapping[str, Any]
) -> Screened[int]:
    """Screens a message of several picks, one a line (or `{"picks": [..]}`), each on its
    own: the picks that stand merge (the larger), the others are refused with their reason.
    Raises the first part's error when no pick stands."""
    if isinstance(sent, Mapping):
        parts: Sequence[Any] = sent.get("picks", [sent])
    else:
        parts = str(sent).splitlines()
    picks: list[int] = []
    refused: list[RefusedPart] = []
    errors: list[Exception] = []
    for part in parts:
        try:
            pick = parse_order(part if isinstance(part, str | Mapping) else {"pick": part})
            check_order(state, seat, pick)
        except (InvalidOrderError, IllegalOrderError) as error:
            refused.append(RefusedPart(str(part).strip(), str(error)))
            errors.append(error)
            continue
        picks.append(pick)
    if not picks:
        reasons = "; ".join(f"{r.part!r}: {r.reason}" for r in refused) or "no pick"
        raise (type(errors[0]) if errors else InvalidOrderError)(f"no pick stands: {reasons}")
    return Screened(max(picks), tuple(refused))


SCREENING: Ruleset[State, int] = replace(MERGING, info=replace(MERGING.info, name="toy_parts"))
SCREENING = replace(SCREENING, screen_order=screen_picks)

TOYS: tuple[Ruleset[State, Any], ...] = (
    RULESET,
    ACCUMULATING,
    MERGING,
    REARMING,
    REFEREED,
    SCREENING,
)


def _broken_resolve(state: Any, orders: Any, rng: Any) -> Any:
    raise RuntimeError("the fragile toy cannot resolve")


# `toy_fragile`: the toy under another name whose resolution raises, as a bug in a
# ruleset would (quarantine tests); FIXED_FRAGILE is the fix deployed under that name.
FRAGILE: Ruleset[State, int] = replace(
    RULESET, info=replace(RULESET.info, name="toy_fragile"), resolve=_broken_resolve
)
FIXED_FRAGILE: Ruleset[State, int] = replace(RULESET, info=FRAGILE.info)
