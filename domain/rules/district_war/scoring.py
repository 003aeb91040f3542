"""Scores (DW-4), the size-by-size tie-break (DW-5), the draw, and the outcome."""

from __future__ import annotations

from domain.rules.contract import Outcome, Result, Step
from domain.rules.district_war.state import SEATS, State, is_over, occupants, opponent, seat_to_act


def troop_counts(state: State) -> dict[str, dict[int, int]]:
    """Returns each district's troops per seat, districts in alphabetical order."""
    board = state.settings.board
    counts = {district: dict.fromkeys(SEATS, 0) for district in board.districts()}
    for cell, seat in occupants(state).items():
        counts[board.district(cell)][seat] += 1
    return counts


def district_winner(troops: dict[int, int]) -> int | None:
    """Returns the seat with strictly more troops in a district, if any (DW-4)."""
    if troops[1] == troops[2]:
        return None
    return 1 if troops[1] > troops[2] else 2


def points(state: State) -> dict[int, int]:
    """Returns each seat's points: the size of every district it holds a majority in (DW-4)."""
    board = state.settings.board
    totals = dict.fromkeys(SEATS, 0)
    for district, troops in troop_counts(state).items():
        winner = district_winner(troops)
        if winner is not None:
            totals[winner] += board.size(district)
    return totals


def wins_by_size(state: State) -> dict[int, dict[int, int]]:
    """Returns, per district size from the largest down, how many districts each seat won."""
    board = state.settings.board
    sizes = sorted({board.size(d) for d in board.districts()}, reverse=True)
    won = {size: dict.fromkeys(SEATS, 0) for size in sizes}
    for district, troops in troop_counts(state).items():
        winner = district_winner(troops)
        if winner is not None:
            won[board.size(district)][winner] += 1
    return won


def standing(state: State, seat: int) -> tuple[int, ...]:
    """Returns a seat's sort key: points (DW-4), then districts won by size, largest first."""
    return (points(state)[seat], *(won[seat] for won in wins_by_size(state).values()))


def outcome(state: State) -> Outcome:
    """Returns scores, ranking and result: a forfeit, a win on points or tie-break, or a draw."""
    scores = points(state)
    ranking = tuple(sorted(SEATS, key=lambda seat: [-k for k in standing(state, seat)]))
    if state.forfeited is not None:
        winner = opponent(state.forfeited)
        reason = f"seat {state.forfeited} forfeited the match (DW-6: strikes); seat {winner} wins"
        return Outcome(Result.WIN, scores, (winner, state.forfeited), (winner,), reason=reason)
    if not is_over(state):
        return Outcome(Result.ONGOING, scores, ranking, reason=_waiting(state))
    if standing(state, 1) == standing(state, 2):
        return Outcome(Result.DRAW, scores, ranking, reason=_DRAWN, rematch=True)
    return Outcome(Result.WIN, scores, ranking, ranking[:1], reason=_win_reason(state, ranking[0]))


def final_steps(state: State) -> tuple[Step, ...]:
    """Returns the steps scoring a finished game: each district (DW-4), the totals, any DW-5."""
    total = 2 * state.settings.troops
    steps = [Step("DW-4", f"all {total} troops are placed: the game ends; districts score")]
    steps += [_district_step(state, d, troops) for d, troops in troop_counts(state).items()]
    scores = points(state)
    data = {"scores": {str(seat): scores[seat] for seat in SEATS}}
    if scores[1] != scores[2]:
        winner = 1 if scores[1] > scores[2] else 2
        text = f"points: seat 1 {scores[1]}, seat 2 {scores[2]}; seat {winner} wins"
        return (*steps, Step("DW-4", text, {**data, "winner": winner}))
    text = f"points: {scores[1]} each; the tie-break decides (DW-5)"
    return (*steps, Step("DW-4", text, {**data, "winner": None}), *_tie_break_steps(state))


def _district_step(state: State, district: str, troops: dict[int, int]) -> Step:
    size = state.settings.board.size(district)
    winner = district_winner(troops)
    result = "nobody scores" if winner is None else f"seat {winner} scores {size}"
    text = (
        f"district {district} (size {size}): seat 1 has {_troops(troops[1])}, "
        f"seat 2 has {_troops(troops[2])}; {result}"
    )
    data = {
        "district": district,
        "size": size,
        "troops": {str(seat): troops[seat] for seat in SEATS},
        "winner": winner,
        "points": 0 if winner is None else size,
    }
    return Step("DW-4", text, data)


def _tie_break_steps(state: State) -> list[Step]:
    steps: list[Step] = []
    for size, won in wins_by_size(state).items():
        data = {"size": size, "won": {str(seat): won[seat] for seat in SEATS}}
        text = f"districts of size {size} won: seat 1 {won[1]}, seat 2 {won[2]}"
        if won[1] != won[2]:
            winner = 1 if won[1] > won[2] else 2
            return [*steps, Step("DW-5", f"{text}; seat {winner} wins", {**data, "winner": winner})]
        steps.append(Step("DW-5", f"{text}; equal", {**data, "winner": None}))
    drawn = {"draw": True, "replay": True}  # stored step data: "replay" means rematch
    return [*steps, Step("DW-5", f"every size equal: {_DRAWN}", drawn)]


_DRAWN = (
    "the match is drawn (DW-5: tied on points and on districts won of every size); "
    "drts replays it as a new match on the same board with the same seats"
)


def _win_reason(state: State, winner: int) -> str:
    scores = points(state)
    loser = opponent(winner)
    if scores[1] != scores[2]:
        return f"seat {winner} wins on points, {scores[winner]} to {scores[loser]} (DW-4)"
    size, won = next((s, w) for s, w in wins_by_size(state).items() if w[1] != w[2])
    return (
        f"tied at {scores[1]} points; seat {winner} wins the tie-break with more districts "
        f"of size {size} ({won[winner]} to {won[loser]}) (DW-5)"
    )


def _troops(count: int) -> str:
    return "1 troop" if count == 1 else f"{count} troops"


def _waiting(state: State) -> str:
    seat = seat_to_act(state)
    if state.first is None:
        return f"seat {seat} (the DMO) chooses who places first (DW-2)"
    return f"seat {seat} to place troop {len(state.placements) + 1}"
