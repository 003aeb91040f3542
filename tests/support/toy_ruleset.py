"""Toy: a tiny simultaneous game for service and aggregate tests.

Each seat picks 1, 2 or 3 each round; a pick nobody else made scores its
value; one random ordering seat gets a bonus point. After `rounds` rounds
(or when one seat is left) the highest score wins. The movement's policy
comes from the config, so tests can try every kind of silence.

Variants exercise the optional parts of the contract: `toy_acc` accumulates
orders (its picks add up), `toy_merge` merges them (the larger pick stands),
`toy_rearm` is played like B-Chess's Turn of the Field: orders accumulate,
and a movement fires every period but resolves only once an order is pending;
`toy_ref` has a referee action, `grant` (points to a seat, like B-Chess's macks).
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
)
from domain.rules.contract import (
    ConfigField,
    Dynamics,
    MovementPolicy,
    OrderPolicy,
    Outcome,
    RefereeAction,
    Result,
    Ruleset,
    RulesetInfo,
    Silence,
    Step,
    ToMove,
)
from domain.rules.rng import Rng

INFO = RulesetInfo(
    name="toy",
    version=1,
    title="Toy",
    min_seats=2,
    max_seats=4,
    dynamics=Dynamics.SIMULTANEOUS,
    config_fields=(
        ConfigField("rounds", 3, "rounds to play"),
        ConfigField("deadline_seconds", 60, "length of a movement"),
        ConfigField("silence", "hold", "what silence means"),
        ConfigField("close_early", True, "close once every seat has ordered"),
        ConfigField("max_strikes", 2, "the strike that forfeits"),
        ConfigField("extension_seconds", 30, "extension after a strike"),
    ),
)


@dataclass(frozen=True)
class State:
    config: Mapping[str, Any]
    round: int
    scores: tuple[int, ...]
    out: tuple[int, ...] = ()


def validate_config(config: Mapping[str, Any]) -> dict[str, Any]:
    full = {**INFO.defaults(), **config}
    unknown = set(full) - set(INFO.defaults())
    if unknown:
        raise InvalidConfigError(f"unknown toy config option(s): {', '.join(sorted(unknown))}")
    if not isinstance(full["rounds"], int) or full["rounds"] < 1:
        raise InvalidConfigError(f"rounds must be a positive integer, got {full['rounds']!r}")
    Silence(full["silence"])
    return full


def initial_state(config: dict[str, Any], seats: int, rng: Rng) -> State:
    return State(config, 1, (0,) * seats)


def _active(state: State) -> tuple[int, ...]:
    return tuple(s for s in range(1, len(state.scores) + 1) if s not in state.out)


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


def parse_order(value: str | Mapping[str, Any]) -> int:
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
    if not 1 <= order <= 3:
        raise IllegalOrderError(f"pick {order} is out of range: pick 1, 2 or 3")


def resolve(
    state: State, orders: Sequence[tuple[int, int]], rng: Rng
) -> tuple[State, tuple[Step, ...]]:
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
        scores[lucky - 1] += 1
        steps.append(Step("TOY-3", f"seat {lucky} draws the bonus", {"seat": lucky}))
    return replace(state, round=state.round + 1, scores=tuple(scores)), tuple(steps)


def forfeit(state: State, seat: int) -> tuple[State, tuple[Step, ...]]:
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


def dump_state(state: State) -> dict[str, Any]:
    return {
        "config": dict(state.config),
        "round": state.round,
        "scores": list(state.scores),
        "out": list(state.out),
    }


def load_state(data: Any) -> State:
    return State(dict(data["config"]), data["round"], tuple(data["scores"]), tuple(data["out"]))


def view(state: State, seat: int | None) -> Any:
    return dump_state(state)


def random_order(state: State, seat: int, rng: Rng) -> int:
    return rng.between(1, 3)


RULESET: Ruleset[State, int] = Ruleset(
    info=INFO,
    validate_config=validate_config,
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

TOYS: tuple[Ruleset[State, Any], ...] = (RULESET, ACCUMULATING, MERGING, REARMING, REFEREED)
