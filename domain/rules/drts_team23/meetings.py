"""Meetings of DRTS Team 23 v2 (DRTS-17) at steps 4 and 8.

A players meeting holds on a square where pieces of 3 different seats of one
team stand; a kinds meeting where a Water, a Fire and a Plant stand, of any
owners (one seat included). Generators do not count. A meeting is known by
its square, its kind and (players meetings) its team (`Meeting.key`).

Step 4: each meeting that holds counts one more movement (a new one starts at
1); a running meeting that no longer holds (a piece left, was absorbed or
became a Generator, a seat changed team) is reset to 0, i.e. it leaves the
list of running meetings. Step 8: a meeting counted at step 4 that no longer
holds after the battle (captures at steps 5 and 6) is broken: reset to 0;
otherwise, on each multiple of 3 of its counter, it awards Stars to the
seats' stock: a players meeting 1 to each of its three seats, a kinds meeting
2 to each distinct owner of the non-Generator pieces on its square.
"""

from __future__ import annotations

from domain.rules.contract import JSON, Step
from domain.rules.drts_team23.state import (
    KINDS,
    Meeting,
    MeetingKind,
    State,
    Team,
)

AWARD_EVERY = 3  # DRTS-17: Star rewards every 3 movements
_STARS = {MeetingKind.PLAYERS: 1, MeetingKind.KINDS: 2}


def meetings_held(state: State) -> dict[tuple[int, str, str], Meeting]:
    """Returns the meetings that hold on the board now, by key, each with counter 0."""
    found: dict[tuple[int, str, str], Meeting] = {}
    for square, indices in state.squares.items():
        if len(indices) < 3:
            continue
        pieces = [state.pieces[i] for i in indices if state.pieces[i].generator is None]
        if {p.kind for p in pieces} == set(KINDS):
            meeting = Meeting(MeetingKind.KINDS, square, 0)
            found[meeting.key] = meeting
        by_team: dict[Team, set[int]] = {}
        for piece in pieces:
            team = state.seat(piece.seat).team
            if team is not None:
                by_team.setdefault(team, set()).add(piece.seat)
        for team, seats in by_team.items():
            if len(seats) >= 3:
                meeting = Meeting(MeetingKind.PLAYERS, square, 0, team)
                found[meeting.key] = meeting
    return found


def count_meetings(state: State) -> tuple[State, tuple[Step, ...]]:
    """Returns the state after step 4 (each meeting that holds counts one more movement,
    each running one that does not is reset) and one step per meeting."""
    held = meetings_held(state)
    if not held and not state.meetings:
        return state, ()
    running = {meeting.key: meeting for meeting in state.meetings}
    steps = [_reset_step(state, m, "at step 4") for k, m in running.items() if k not in held]
    counted = []
    for key in sorted(held):
        counter = running[key].counter + 1 if key in running else 1
        meeting = held[key].with_counter(counter)
        counted.append(meeting)
        text = f"{_name(state, meeting)} counts {counter}"
        steps.append(Step("DRTS-17", text, _data(meeting)))
    return state.changed(meetings=tuple(counted)), tuple(steps)


def review_meetings(state: State) -> tuple[State, tuple[Step, ...]]:
    """Returns the state after step 8 (broken meetings reset, Stars awarded on multiples of
    3) and one step per reset or award."""
    if not state.meetings:
        return state, ()
    held = meetings_held(state)
    seats = list(state.seats)
    kept, steps = [], []
    for meeting in state.meetings:
        if meeting.key not in held:
            steps.append(_reset_step(state, meeting, "after the battle"))
            continue
        kept.append(meeting)
        if meeting.counter % AWARD_EVERY:
            continue
        stars = _STARS[meeting.kind]
        owners = _owners(state, meeting)
        for owner in owners:
            stock = seats[owner - 1].stock
            seats[owner - 1] = seats[owner - 1].with_stock(stock.with_stars(stock.stars + stars))
        named = ", ".join(map(str, owners))
        text = (
            f"{_name(state, meeting)} has held {meeting.counter} movements: seats {named} "
            f"get {stars} Star{'s' if stars > 1 else ''} each"
        )
        data = _data(meeting) | {"stars": stars, "seats": list(owners)}
        steps.append(Step("DRTS-17", text, data))
    after = state.changed(seats=tuple(seats), meetings=tuple(kept))
    return after, tuple(steps)


def _owners(state: State, meeting: Meeting) -> tuple[int, ...]:
    on_square = [p for p in state.pieces if p.square == meeting.square and p.generator is None]
    if meeting.kind is MeetingKind.PLAYERS:
        on_square = [p for p in on_square if state.seat(p.seat).team is meeting.team]
    return tuple(sorted({p.seat for p in on_square}))


def _reset_step(state: State, meeting: Meeting, when: str) -> Step:
    text = f"{_name(state, meeting)} no longer holds {when}: its counter is reset to 0"
    return Step("DRTS-17", text, _data(meeting) | {"counter": 0, "reset": True})


def _name(state: State, meeting: Meeting) -> str:
    if meeting.kind is MeetingKind.KINDS:
        return f"The kinds meeting on square {meeting.square}"
    assert meeting.team is not None  # a players meeting has its team
    return f"The players meeting of {meeting.team.value} on square {meeting.square}"


def _data(meeting: Meeting) -> dict[str, JSON]:
    data: dict[str, JSON] = {
        "meeting": meeting.kind.value,
        "square": meeting.square,
        "counter": meeting.counter,
    }
    if meeting.team is not None:
        data["team"] = meeting.team.value
    return data
