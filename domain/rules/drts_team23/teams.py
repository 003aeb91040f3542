"""Step 1 of DRTS Team 23: team requests, exchanges, free slots, automatic assignment (DRTS-19).

Everything is decided against the memberships at the start of the step:
first the exchanges, then the free slots, then, at movement 6 only, the
automatic assignment of the seats still teamless. Candidates compete by
seat score, highest first, then by lowest seat number.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import combinations

from domain.rules.contract import JSON, Step
from domain.rules.drts_team23.state import TEAM_CAPACITY, TEAMS, State, Team

AUTO_TEAM_MOVEMENT = 6  # DRTS-19: a seat teamless after movement 5 is placed in movement 6
_RANK_RULE = "higher seat score, then lower seat number"


def assign_teams(state: State, requests: Mapping[int, Team]) -> tuple[State, tuple[Step, ...]]:
    """Returns the state after step 1 and its steps (DRTS-19).

    `requests` maps a seat to the team it asks to join (never its own team:
    `check_order` refuses that).
    """
    if not requests and state.movement != AUTO_TEAM_MOVEMENT:
        return state, ()  # nobody asks and nobody is placed: nothing to decide
    start = {seat.number: seat.team for seat in state.seats}
    sizes = {team: 0 for team in TEAMS}
    for team in start.values():
        if team is not None:
            sizes[team] += 1
    full = {team for team in TEAMS if sizes[team] >= TEAM_CAPACITY}
    teams = dict(start)
    steps: list[Step] = []
    pending = dict(requests)
    exchanges = _exchanges(state, start, pending, full)
    for first, second in exchanges:
        teams[first], teams[second] = start[second], start[first]
        steps.append(_exchange_step(first, second, start))
    asked = set(pending.values())
    for team in TEAMS:
        if team not in asked:
            continue  # nobody asks for it: no step
        exchanged_in = [seat for pair in exchanges for seat in pair if teams[seat] is team]
        free = TEAM_CAPACITY - sizes[team]
        steps.extend(_fill_free_slots(state, team, free, teams, pending, exchanged_in))
    if state.movement == AUTO_TEAM_MOVEMENT:
        steps.extend(_assign_teamless(state, teams))
    if not steps:
        return state, ()
    seats = tuple(
        seat if seat.team is teams[seat.number] else seat.with_team(teams[seat.number])
        for seat in state.seats
    )
    return state.changed(seats=seats), tuple(steps)


def _ranked(state: State, seats: Iterable[int]) -> list[int]:
    return sorted(seats, key=lambda n: (-state.seat(n).score, n))


def _exchanges(
    state: State, start: Mapping[int, Team | None], pending: dict[int, Team], full: set[Team]
) -> list[tuple[int, int]]:
    """Returns the exchanging pairs (X, Y) and drops their seats from `pending`.

    X of team A asking for B and Y of team B asking for A exchange when A or
    B is full; several candidates pair up in rank order.
    """
    if not full:
        return []  # no full team: free slots decide
    asking: dict[tuple[Team | None, Team], list[int]] = {}  # (from, to): the seats asking
    for seat, team in pending.items():
        asking.setdefault((start[seat], team), []).append(seat)
    pairs: list[tuple[int, int]] = []
    for a, b in combinations(TEAMS, 2):
        if a not in full and b not in full:
            continue
        if (a, b) in asking and (b, a) in asking:
            xs, ys = _ranked(state, asking[a, b]), _ranked(state, asking[b, a])
            pairs.extend(zip(xs, ys, strict=False))
    for first, second in pairs:
        del pending[first], pending[second]
    return pairs


def _fill_free_slots(
    state: State,
    team: Team,
    free: int,
    teams: dict[int, Team | None],
    pending: dict[int, Team],
    exchanged_in: list[int],
) -> list[Step]:
    """Returns the steps of the seats asking for `team` (`free` slots at the start of step 1):
    the best ranked join, the others are refused."""
    candidates = _ranked(state, (s for s, t in pending.items() if t is team))
    if not candidates:
        return []
    steps: list[Step] = []
    for seat in candidates[:free]:
        steps.append(_join_step(seat, team, teams[seat], "free_slot", "a free slot"))
        teams[seat] = team
    for seat in candidates[free:]:
        steps.append(_refusal_step(state, seat, team, candidates[:free], exchanged_in))
    return steps


def _assign_teamless(state: State, teams: dict[int, Team | None]) -> list[Step]:
    steps: list[Step] = []
    for seat in sorted(n for n, team in teams.items() if team is None):
        sizes = {t: sum(1 for team in teams.values() if team is t) for t in TEAMS}
        team = min(TEAMS, key=lambda t: sizes[t])  # ties: the lowest team number
        reason = f"it was teamless after movement {AUTO_TEAM_MOVEMENT - 1}; fewest members"
        steps.append(_join_step(seat, team, None, "automatic", reason))
        teams[seat] = team
    return steps


def _name(team: Team | None) -> str:
    return str(team) if team is not None else "no team"


def _exchange_step(first: int, second: int, start: Mapping[int, Team | None]) -> Step:
    text = (
        f"Seats {first} ({_name(start[first])}) and {second} ({_name(start[second])}) "
        f"exchange teams: seat {first} joins {_name(start[second])}, "
        f"seat {second} joins {_name(start[first])}"
    )
    data: dict[str, JSON] = {
        "how": "exchange",
        "seats": [first, second],
        "teams": {str(first): _name(start[second]), str(second): _name(start[first])},
    }
    return Step("DRTS-19", text, data)


def _join_step(seat: int, team: Team, before: Team | None, how: str, reason: str) -> Step:
    data: dict[str, JSON] = {
        "how": how,
        "seat": seat,
        "team": str(team),
        "from": str(before) if before is not None else None,
    }
    return Step("DRTS-19", f"Seat {seat} joins {team} ({reason})", data)


def _refusal_step(
    state: State, seat: int, team: Team, accepted: list[int], exchanged_in: list[int]
) -> Step:
    if accepted:
        why = f"its free slots go to seat(s) {_listed(accepted)} ({_RANK_RULE})"
    elif exchanged_in:
        why = f"it is full and its exchange goes to seat(s) {_listed(exchanged_in)} ({_RANK_RULE})"
    elif state.seat(seat).team is None:
        why = "it is full, and a teamless seat has no team to exchange"
    else:
        why = "it is full and none of its members asks for this seat's team"
    current = state.seat(seat).team
    stays = f"stays in {current}" if current is not None else "stays teamless"
    data: dict[str, JSON] = {"how": "refused", "seat": seat, "team": str(team)}
    return Step("DRTS-19", f"Seat {seat} does not join {team}: {why}; it {stays}", data)


def _listed(seats: Iterable[int]) -> str:
    return ", ".join(map(str, seats))
