"""Scores of Shades (SH-6), elimination (SH-7) and the end of a match (SH-9).

Two scoring modes (SH-6): `points` (a seat starts with its tombs; a razed
tomb costs its owner 1 and gives the razer 2; each elimination gives every
seat still alive after that turn 1) and `normalised`, the original server's
(the same events, with a seat's tombs worth 100 in all, so a tomb is worth
100/(tombs a seat), and 100 split evenly among the survivors of the turn).
Seats eliminated in the same turn get nothing from each other; under the
sequential option (SH-6, version 2, the original server's) they are removed
one by one in seat order, each removal paying every seat still in at that
moment, those removed a moment later included. Scores are exact fractions;
`outcome` rounds them to the nearest integer (halves to even) and ranks by
the exact values.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from domain.rules.contract import JSON, Outcome, Result, Step
from domain.rules.shades.config import GameSettings, Scoring
from domain.rules.shades.state import Elimination, Reason, State, dump_score

NORMALISED_TOTAL = 100  # SH-6 option: the original's x100


def start_score(settings: GameSettings, tombs_per_seat: int) -> Fraction:
    """Returns a seat's score at the start: its tombs (SH-6), or 100 when normalised."""
    if settings.scoring is Scoring.NORMALISED:
        return Fraction(NORMALISED_TOTAL)
    return Fraction(tombs_per_seat)


def tomb_value(state: State) -> Fraction:
    """Returns what one tomb is worth (SH-6): 1, or 100/(tombs a seat) when normalised."""
    if state.settings.scoring is Scoring.NORMALISED:
        return Fraction(NORMALISED_TOTAL, state.tombs_per_seat)
    return Fraction(1)


def add_points(state: State, points: dict[int, Fraction]) -> State:
    """Returns the state with `points` added to the seats' scores."""
    seats = tuple(
        replace(seat, score=seat.score + points[seat.number]) if seat.number in points else seat
        for seat in state.seats
    )
    return replace(state, seats=seats)


def points_json(points: dict[int, Fraction]) -> JSON:
    """Returns points by seat as step data: {"<seat>": integer or "p/q"}."""
    return {str(seat): dump_score(value) for seat, value in sorted(points.items())}


def eliminations(state: State) -> tuple[State, tuple[Step, ...]]:
    """Returns the state after the elimination phase of the open turn, and its steps.

    A seat still alive with no shade that cannot spawn one (no stored human,
    or no standing tomb) is eliminated; its shades and tombs would stay (SH-7).
    Then every seat eliminated in this turn, by this rule or by forfeit
    (SH-4), gives its bonus to the seats still alive (SH-6, `award_bonus`).
    """
    owners = {shade.owner for shade in state.shades}
    standing = {tomb.owner for tomb in state.standing_tombs}
    steps = []
    seats = list(state.seats)
    for seat in state.seats:
        if not seat.alive or seat.number in owners:
            continue
        if seat.stored and seat.number in standing:
            continue
        why = "no stored human" if not seat.stored else "no standing tomb"
        seats[seat.number - 1] = replace(seat, eliminated=Elimination(state.turn, Reason.NO_SHADES))
        text = (
            f"Seat {seat.number} has no shade left and cannot spawn one ({why}): eliminated; "
            "its tombs stay and can still be razed (SH-7)"
        )
        steps.append(Step("SH-7", text, {"seat": seat.number, "reason": Reason.NO_SHADES.value}))
    after, bonus = award_bonus(replace(state, seats=tuple(seats)))
    return after, (*steps, *bonus)


def award_bonus(state: State) -> tuple[State, tuple[Step, ...]]:
    """Returns the state with the elimination bonus of the open turn paid, and its step.

    SH-6: each seat eliminated in this turn gives every seat alive after it 1
    point (normalised: 100 split evenly among them); seats eliminated in the
    same turn get nothing from each other. No step when no seat fell. Under the
    sequential option, `sequential_bonus`.
    """
    fallen = [s.number for s in state.seats if s.eliminated and s.eliminated.turn == state.turn]
    survivors = state.alive
    if state.settings.sequential_bonus:
        return sequential_bonus(state, fallen, survivors)
    if not fallen or not survivors:
        return state, ()
    if state.settings.scoring is Scoring.NORMALISED:
        each = Fraction(NORMALISED_TOTAL, len(survivors)) * len(fallen)
    else:
        each = Fraction(len(fallen))
    points = dict.fromkeys(survivors, each)
    text = (
        f"{_seats(fallen)} eliminated in turn {state.turn}: {_seats(survivors)} still alive "
        f"get {dump_score(each)} each (SH-6)"
    )
    data: dict[str, JSON] = {"eliminated": fallen, "points": points_json(points)}
    return add_points(state, points), (Step("SH-6", text, data),)


def sequential_bonus(
    state: State, fallen: list[int], survivors: tuple[int, ...]
) -> tuple[State, tuple[Step, ...]]:
    """Returns the state with the turn's elimination bonus paid removal by removal, and one
    step a removal that paid anyone.

    SH-6 option (the original server's): the seats eliminated in this turn
    (forfeited at its deadline or fallen at its end) are removed one by one
    in seat order; each removal pays every seat still in at that moment, the
    survivors and the fallen seats not yet removed: 1 point each, or 100 split
    evenly among them when normalised.
    """
    still_in = sorted({*survivors, *fallen})
    total: dict[int, Fraction] = {}
    steps = []
    for seat in fallen:
        still_in.remove(seat)
        if not still_in:
            break
        each = _bonus_share(state, len(still_in))
        points = dict.fromkeys(still_in, each)
        for paid in still_in:
            total[paid] = total.get(paid, Fraction(0)) + each
        text = (
            f"Seat {seat} is removed, eliminated in turn {state.turn}: {_seats(still_in)} still "
            f"in at that moment get {dump_score(each)} each (SH-6 option: sequential)"
        )
        data: dict[str, JSON] = {"eliminated": [seat], "points": points_json(points)}
        steps.append(Step("SH-6", text, data))
    return add_points(state, total), tuple(steps)


def _bonus_share(state: State, seats: int) -> Fraction:
    if state.settings.scoring is Scoring.NORMALISED:
        return Fraction(NORMALISED_TOTAL, seats)
    return Fraction(1)


def end_reason(state: State) -> str | None:
    """Returns why the match is over (SH-9), or None while it goes on."""
    alive = state.alive
    if not alive:
        return "no seat is alive"
    if len(alive) == 1 and all(tomb.owner == alive[0] for tomb in state.standing_tombs):
        return f"seat {alive[0]} is the only seat alive and owns every tomb left"
    if state.turn >= state.settings.turns:
        return f"the turn limit of {state.settings.turns} turns is reached"
    return None


def is_finished(state: State) -> bool:
    """Returns whether the match is over (SH-9)."""
    return end_reason(state) is not None


def end_steps(state: State) -> tuple[Step, ...]:
    """Returns the SH-9 step when the match has just ended, else none."""
    reason = end_reason(state)
    if reason is None:
        return ()
    outcome = outcome_of(state)
    data: dict[str, JSON] = {
        "turns": state.turn,
        "winners": list(outcome.winners),
        "scores": {str(seat.number): dump_score(seat.score) for seat in state.seats},
    }
    return (Step("SH-9", f"The match ends: {reason}; {_winners(outcome)}", data),)


def outcome_of(state: State) -> Outcome:
    """Returns scores (rounded, halves to even), ranking by exact score, then seat, and once
    finished the seats with the best score as winners (a draw when several share it)."""
    ordered = sorted(state.seats, key=lambda seat: (-seat.score, seat.number))
    ranking = tuple(seat.number for seat in ordered)
    scores = {seat.number: round(seat.score) for seat in state.seats}
    reason = end_reason(state)
    if reason is None:
        return Outcome(Result.ONGOING, scores, ranking, reason=f"turn {state.turn} is open")
    best = ordered[0].score
    winners = tuple(seat.number for seat in ordered if seat.score == best)
    result = Result.WIN if len(winners) == 1 else Result.DRAW
    return Outcome(result, scores, ranking, winners=winners, reason=f"{reason} (SH-9)")


def _winners(outcome: Outcome) -> str:
    seats = _seats(list(outcome.winners))
    return f"{seats} {'wins' if len(outcome.winners) == 1 else 'share the best score'}"


def _seats(numbers: list[int] | tuple[int, ...]) -> str:
    if len(numbers) == 1:
        return f"seat {numbers[0]}"
    return "seats " + ", ".join(map(str, numbers[:-1])) + f" and {numbers[-1]}"
