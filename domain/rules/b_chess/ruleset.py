"""B-Chess as a Ruleset: metadata, Initialize (BC-5), a seat joining later (BC-5), the
Turn of the Field's clock (BC-2), forfeit, the outcome (BC-10), the referee's grant of
macks (BC-7) and `RULESET` binding the skeleton's modules.

Every seat may order at any time and its orders accumulate (OrderPolicy.ACCUMULATE); the
movement is the Turn of the Field: it fires every `turn_seconds` from the start and
resolves only when an order is pending (`rearm_when_empty`, BC-2). A forum game has no
sealed orders: `public_orders` makes every order public as soon as it is received.
`legal_orders` is left out: a seat's orders are any sequence of lines; `legal_commands`
lists each object's moves and the purchase instead (commands.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from itertools import combinations

from domain.errors import IllegalActionError, InvalidActionError, InvalidConfigError
from domain.rules.b_chess.commands import (
    combining,
    commands_of_order,
    legal_commands,
    order_of_commands,
)
from domain.rules.b_chess.config import CONFIG_FIELDS, MOST_MACKS, PRESETS, SIZE, GameSettings
from domain.rules.b_chess.display import display
from domain.rules.b_chess.field import Kind, Square, moves, neighbours, square_text
from domain.rules.b_chess.orders import (
    Order,
    check_order,
    dump_order,
    format_order,
    parse_order,
    random_order,
    screen_order,
)
from domain.rules.b_chess.resolve import TROPHY, checkmate, resolve
from domain.rules.b_chess.state import (
    MAX_SEATS,
    MIN_SEATS,
    Piece,
    Seat,
    State,
    dump_state,
    load_state,
)
from domain.rules.contract import (
    JSON,
    Config,
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
    check_seat_count,
    check_seat_number,
)
from domain.rules.rng import Rng

INFO = RulesetInfo(
    name="b_chess",
    version=1,
    title="B-Chess (the Field Match of B Nomic)",
    min_seats=MIN_SEATS,
    max_seats=MAX_SEATS,
    dynamics=Dynamics.SIMULTANEOUS,
    config_fields=CONFIG_FIELDS,
    presets=PRESETS,
    order_policy=OrderPolicy.ACCUMULATE,
    public_orders=True,
)

ALL_SQUARES: tuple[Square, ...] = tuple((r, c) for r in range(SIZE) for c in range(SIZE))


def initial_state(config: Config, seats: int, rng: Rng) -> State:
    """Returns the Field after Initialize (BC-5): one King per seat on random distinct
    squares, drawn again until no two Kings are adjacent; the Kings join the Priority
    List in a seeded random order (BC-4); every seat has its starting macks (BC-7)."""
    check_seat_count(INFO, seats)
    settings = GameSettings.of(RULESET.validate_config(config))
    squares = rng.sample(ALL_SQUARES, seats)
    while _adjacent_pair(squares, settings.torus):
        squares = rng.sample(ALL_SQUARES, seats)
    owners = rng.shuffled(range(1, seats + 1))
    kings = tuple(
        Piece(n, Kind.KING, owner, square)
        for n, (owner, square) in enumerate(zip(owners, squares, strict=True), 1)
    )
    return State(
        settings=settings,
        turn=0,
        seats=tuple(Seat(n, settings.starting_macks) for n in range(1, seats + 1)),
        pieces=kings,
        next_number=seats + 1,
    )


def _adjacent_pair(squares: list[Square], torus: bool) -> bool:
    return any(b in neighbours(a, torus) for a, b in combinations(squares, 2))


def setup_steps(state: State) -> tuple[Step, ...]:
    """Returns the step recording Initialize's draws (BC-5, BC-4), read from the state."""
    kings = "; ".join(f"{k.id} of seat {k.owner} on {square_text(k.square)}" for k in state.kings)
    data: dict[str, JSON] = {k.id: {"seat": k.owner, "square": list(k.square)} for k in state.kings}
    text = (
        "Initialize: a King for each seat on a random square, drawn again until no two Kings "
        f"are adjacent; the Priority List in a random order: {kings}"
    )
    return (Step("BC-5", text, {"kings": data}),)


def add_seat(state: State, seat: int, rng: Rng) -> State:
    """Returns the state with seat `seat` (the next number) joined: its starting macks and a
    King at the bottom of the Priority List on a random empty square that no object on the
    Field can move to (BC-5). Raises InvalidConfigError when the match is full or over, or
    no such square is left."""
    if seat != len(state.seats) + 1 or seat > MAX_SEATS:
        raise InvalidConfigError(f"b_chess: seat {seat} cannot join (seats 1..{MAX_SEATS})")
    if state.ended is not None:
        raise InvalidConfigError("b_chess: the match is over (BC-10), no seat can join")
    safe = safe_squares(state)
    if not safe:
        raise InvalidConfigError("b_chess: no empty square is safe from every object (BC-5)")
    king = Piece(state.next_number, Kind.KING, seat, rng.choice(safe))
    return replace(
        state,
        seats=(*state.seats, Seat(seat, state.settings.starting_macks)),
        pieces=(*state.pieces, king),
        next_number=king.number + 1,
    )


def safe_squares(state: State) -> list[Square]:
    """Returns the empty squares no object on the Field could move to (a Pawn's diagonal
    counts, as it could capture a King there; a slide stops at the first object)."""
    occupied = state.occupied
    reachable: set[Square] = set()
    for piece in state.pieces:
        for move in moves(piece.kind, piece.square, state.settings.torus):
            if not any(s in occupied for s in move.between):
                reachable.add(move.target)
    return [s for s in ALL_SQUARES if s not in occupied and s not in reachable]


def add_seat_steps(state: State, seat: int) -> tuple[Step, ...]:
    """Returns the step recording a joining seat's King (BC-5), read from the state."""
    king = state.king_of(seat)
    where = "" if king is None else f": {king.id} on {square_text(king.square)}"
    return (Step("BC-5", f"seat {seat} joins with a King on a safe random square{where}"),)


def to_move(state: State) -> ToMove:
    """Returns the seats that may order (a seat with an object on the Field, not forfeited),
    and the Turn of the Field's clock: every `turn_seconds`, resolving only when an order
    is pending (BC-2); seats that sent nothing simply hold."""
    policy = MovementPolicy(
        deadline_seconds=state.settings.turn_seconds,
        silence=Silence.HOLD,
        close_early=False,
        rearm_when_empty=True,
    )
    if state.ended is not None:
        return ToMove((), policy)
    owners = {p.owner for p in state.pieces}
    return ToMove(tuple(s.number for s in state.seats if s.number in owners and not s.out), policy)


def forfeit(state: State, seat: int) -> tuple[State, tuple[Step, ...]]:
    """Returns the state with `seat` out (the referee's forfeit): its objects are destroyed
    and leave the Priority List (BC-4); then Checkmate is checked (BC-10)."""
    check_seat_number(INFO.name, seat, len(state.seats))
    if state.ended is not None or state.seat(seat).out:
        return state, ()
    seats = tuple(replace(s, out=True) if s.number == seat else s for s in state.seats)
    after = replace(state, seats=seats, pieces=tuple(p for p in state.pieces if p.owner != seat))
    text = f"seat {seat} is forfeited: its objects are destroyed and leave the Priority List"
    after, ending = checkmate(after)
    return after, (Step("BC-4", text, {"seat": seat}), *ending)


def outcome(state: State) -> Outcome:
    """Returns the standing: the winner scores 1 (BC-10); until the end, seats with a King
    rank first, then by objects on the Field."""
    scores = {s.number: 0 for s in state.seats}
    ended = state.ended
    if ended is not None:
        if ended.winner is None:
            reason = "Checkmate: no King left, no winner (BC-10)"
            return Outcome(Result.NO_WINNER, scores, tuple(scores), reason=reason)
        scores[ended.winner] = 1
        ranking = (ended.winner, *(s for s in scores if s != ended.winner))
        reason = f"Checkmate: seat {ended.winner} has the last King; Trophy: {TROPHY} (BC-10)"
        return Outcome(Result.WIN, scores, ranking, (ended.winner,), reason=reason)
    kings = {k.owner for k in state.kings}
    owned = {s: sum(p.owner == s for p in state.pieces) for s in scores}
    ranking = tuple(sorted(scores, key=lambda s: (s not in kings, -owned[s], s)))
    return Outcome(Result.ONGOING, scores, ranking)


def view(state: State, seat: int | None) -> JSON:
    """Returns the whole state JSON, to every seat and spectator: the Field is public."""
    if seat is not None:
        check_seat_number(INFO.name, seat, len(state.seats))
    return dump_state(state)


@dataclass(frozen=True)
class Grant:
    """The referee grants `macks` to `seat` (BC-7); negative takes them (a fine)."""

    seat: int
    macks: int


def parse_grant(args: Mapping[str, JSON]) -> Grant:
    """Returns the grant `{"seat": n, "macks": m}` (m a whole number, not 0)."""
    if set(args) != {"seat", "macks"}:
        raise InvalidActionError(f"a grant takes exactly seat and macks, got {sorted(args)}")
    seat, macks = args["seat"], args["macks"]
    if type(seat) is not int or type(macks) is not int or macks == 0:
        raise InvalidActionError(
            f"a grant gives a seat number a whole number of macks, not 0: {dict(args)}"
        )
    if abs(macks) > MOST_MACKS:
        raise InvalidActionError(f"a grant is at most {MOST_MACKS} macks, got {macks}")
    return Grant(seat, macks)


def apply_grant(state: State, grant: Grant) -> tuple[State, tuple[Step, ...]]:
    """Returns the state with the macks added to the seat (BC-7); IllegalActionError for a
    seat that does not exist, once the match is over, or below 0 or above the bound."""
    if not 1 <= grant.seat <= len(state.seats):
        raise IllegalActionError(f"b_chess has no seat {grant.seat} (seats 1..{len(state.seats)})")
    if state.ended is not None:
        raise IllegalActionError("the match is over (BC-10): no macks to grant")
    macks = state.seat(grant.seat).macks + grant.macks
    if not 0 <= macks <= MOST_MACKS:
        raise IllegalActionError(
            f"seat {grant.seat} has {state.seat(grant.seat).macks} macks: a grant of "
            f"{grant.macks} would leave {macks}, outside 0..{MOST_MACKS}"
        )
    seats = tuple(replace(s, macks=macks) if s.number == grant.seat else s for s in state.seats)
    text = f"the referee grants seat {grant.seat} {grant.macks} macks: it has {macks} (BC-7)"
    step = Step("BC-7", text, {"seat": grant.seat, "macks": grant.macks, "balance": macks})
    return replace(state, seats=seats), (step,)


GRANT = RefereeAction(
    name="grant",
    description="grants macks to a seat (BC-7); a negative number takes them (a fine)",
    parse=parse_grant,
    apply=apply_grant,
    arguments={"seat": "the seat number", "macks": "a whole number, not 0 (may be negative)"},
    example={"seat": 1, "macks": 20},
)

RULESET: Ruleset[State, Order] = Ruleset(
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
    view_is_state=True,  # nothing in the state is secret (view above)
    dump_state=dump_state,
    load_state=load_state,
    random_order=random_order,
    add_seat=add_seat,
    add_seat_steps=add_seat_steps,
    legal_commands=legal_commands,  # each object's moves and the purchase (issue 48)
    order_of_commands=order_of_commands,
    commands_of_order=commands_of_order,
    combining=combining,
    display=display,
    actions=(GRANT,),
    setup_steps=setup_steps,
    screen_order=screen_order,
)
