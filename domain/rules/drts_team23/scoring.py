"""Points of DRTS Team 23 (DRTS-10), the capture penalty (DRTS-18) and the end (DRTS-20).

Seat scores may go below zero. Team points belong to the team: they stay
when a seat leaves it (DRTS-19), and a teamless seat earns none.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.rules.contract import JSON, Outcome, Result, Step
from domain.rules.drts_team23.battle import Capture, Case
from domain.rules.drts_team23.state import (
    PENALTY_MOVEMENTS,
    TEAM_NUMBER,
    TEAMS,
    Piece,
    State,
    Team,
)

_CASE_NOTES = {
    Case.KIND: "",
    Case.SAME_KIND: " (same kind: both are captured)",
    Case.MOVER: " (same kind: the piece moving in captures the one holding)",
    Case.STAR: " (a Star beats a non-Star)",
    Case.STARS: " (two Stars: both are captured)",
    Case.STAR_MOVER: " (two Stars: the one moving in captures the one holding)",
}


def score_captures(state: State, captures: Sequence[Capture]) -> tuple[State, tuple[Step, ...]]:
    """Returns the state after the captures of one movement, and their steps (DRTS-10).

    Each (capturer, victim) pair gives the capturer's seat +1 and its team +1;
    each victim's seat loses 1 once, however many pairs captured it, and the
    victim leaves the board until movement m + 3 (DRTS-18), m being this one.
    """
    if not captures:
        return state, ()
    seat_scores = [seat.score for seat in state.seats]
    team_scores = list(state.team_scores)
    steps: list[Step] = []
    for capture in captures:
        capturer = state.pieces[capture.capturer]
        team = state.seat(capturer.seat).team
        seat_scores[capturer.seat - 1] += 1
        if team is not None:
            team_scores[TEAM_NUMBER[team] - 1] += 1
        steps.append(_capture_step(capture, capturer, state.pieces[capture.victim], team))
    pieces = list(state.pieces)
    back = state.movement + PENALTY_MOVEMENTS + 1
    for victim in sorted({capture.victim for capture in captures}):
        piece = state.pieces[victim]
        seat_scores[piece.seat - 1] -= 1
        pieces[victim] = Piece(piece.seat, piece.kind, None, back)
        steps.append(_victim_step(piece, back))
    seats = tuple(
        seat if seat.score == score else seat.with_score(score)
        for seat, score in zip(state.seats, seat_scores, strict=True)
    )
    totals = (team_scores[0], team_scores[1], team_scores[2])
    return state.changed(seats=seats, pieces=tuple(pieces), team_scores=totals), tuple(steps)


def _capture_step(capture: Capture, capturer: Piece, victim: Piece, team: Team | None) -> Step:
    team_text = f"{team} +1" if team is not None else "no team point (teamless)"
    text = (
        f"{capturer.label} captures {victim.label} on square {capture.square}"
        f"{_CASE_NOTES[capture.case]}; seat {capturer.seat} +1, {team_text}"
    )
    data: dict[str, JSON] = {
        "square": capture.square,
        "seat": capturer.seat,
        "piece": str(capturer.kind),
        "victim_seat": victim.seat,
        "victim_piece": str(victim.kind),
        "case": str(capture.case),
        "seat_points": {str(capturer.seat): 1},
        "team_points": {str(team): 1} if team is not None else {},
    }
    return Step("DRTS-9", text, data)


def _victim_step(victim: Piece, back: int) -> Step:
    text = (
        f"{victim.label} is captured on square {victim.square}: seat {victim.seat} -1; "
        f"it may be recovered from movement {back} (DRTS-18)"
    )
    data: dict[str, JSON] = {
        "square": victim.square,
        "seat": victim.seat,
        "piece": str(victim.kind),
        "recover_from": back,
        "seat_points": {str(victim.seat): -1},
        "team_points": {},
    }
    return Step("DRTS-10", text, data)


def leading_teams(state: State) -> tuple[Team, ...]:
    """Returns the teams with the most points (several when tied), in team order."""
    best = max(state.team_scores)
    return tuple(
        team for team, points in zip(TEAMS, state.team_scores, strict=True) if points == best
    )


def is_finished(state: State) -> bool:
    """Returns whether the match is over (DRTS-20).

    It ends after the last regular movement if one team strictly leads,
    otherwise after the first extra movement that leaves one team strictly
    ahead (golden point), and at the latest after `max_movements`.
    """
    last = state.last_resolved
    if last < state.settings.movements:
        return False
    return len(leading_teams(state)) == 1 or last >= state.settings.max_movements


def outcome(state: State) -> Outcome:
    """Returns seat scores, team scores and, once finished, the winning team(s) (DRTS-20).

    A draw after `max_movements` lists the tied teams as `winning_teams` and
    their seats as `winners`, who share it. The ranking is by seat score,
    then seat number.
    """
    ranking = tuple(s.number for s in sorted(state.seats, key=lambda s: (-s.score, s.number)))
    scores = {seat.number: seat.score for seat in state.seats}
    team_scores = {team.value: state.team_score(team) for team in TEAMS}
    if not is_finished(state):
        reason = f"movement {state.movement} is open"
        return Outcome(Result.ONGOING, scores, ranking, team_scores=team_scores, reason=reason)
    top = leading_teams(state)
    return Outcome(
        Result.WIN if len(top) == 1 else Result.DRAW,
        scores,
        ranking,
        winners=_members(state, top),
        team_scores=team_scores,
        winning_teams=tuple(team.value for team in top),
        reason=_end_text(state),
    )


def end_steps(state: State) -> tuple[Step, ...]:
    """Returns the DRTS-20 step after a movement from the last regular one on, else none."""
    last = state.last_resolved
    if last < state.settings.movements:
        return ()
    top = leading_teams(state)
    data: dict[str, JSON] = {
        "movement": last,
        "team_scores": {team.value: state.team_score(team) for team in TEAMS},
        "leading_teams": [team.value for team in top],
        "finished": is_finished(state),
    }
    if is_finished(state):
        return (Step("DRTS-20", _end_text(state), data),)
    text = (
        f"After movement {last} {_names(top)} are tied at {state.team_score(top[0])} points: "
        f"golden point, extra movement {state.movement} is played"
    )
    return (Step("DRTS-20", text, data),)


def _end_text(state: State) -> str:
    last, top = state.last_resolved, leading_teams(state)
    points = state.team_score(top[0])
    seats = ", ".join(map(str, _members(state, top))) or "none"
    if len(top) > 1:
        return (
            f"After movement {last} {_names(top)} are still tied at {points} points: "
            f"a draw between them (seats {seats})"
        )
    when = (
        f"After movement {last}"
        if last == state.settings.movements
        else (f"Golden point in movement {last}")
    )
    return f"{when} {top[0].value} leads with {points} points: {top[0].value} wins (seats {seats})"


def _members(state: State, teams: Sequence[Team]) -> tuple[int, ...]:
    return tuple(seat.number for seat in state.seats if seat.team in teams)


def _names(teams: Sequence[Team]) -> str:
    names = [team.value for team in teams]
    return " and ".join([", ".join(names[:-1]), names[-1]]) if len(names) > 1 else names[0]


def add_points(state: State, seat_points: dict[int, int], team_points: dict[Team, int]) -> State:
    """Returns the state with points added to seats and teams (v2's item steps)."""
    if not seat_points and not team_points:
        return state
    seats = tuple(
        seat.with_score(seat.score + seat_points[seat.number])
        if seat_points.get(seat.number)
        else seat
        for seat in state.seats
    )
    totals = tuple(
        points + team_points.get(team, 0)
        for team, points in zip(TEAMS, state.team_scores, strict=True)
    )
    return state.changed(seats=seats, team_scores=(totals[0], totals[1], totals[2]))


def take_out(state: State, victims: Sequence[int]) -> tuple[State, int]:
    """Returns the state with the pieces of `victims` (indices) off the board until movement
    m + 3 (DRTS-18, m the open movement), and that movement."""
    back = state.movement + PENALTY_MOVEMENTS + 1
    if not victims:
        return state, back
    pieces = list(state.pieces)
    for index in victims:
        piece = pieces[index]
        pieces[index] = Piece(piece.seat, piece.kind, None, back)
    return state.changed(pieces=tuple(pieces)), back
