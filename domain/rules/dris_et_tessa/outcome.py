"""The end of a Dris et-Tessa match and its outcome: a win (DT-5), the draw (DT-6), a forfeit.

DT-5 is judged at the end of every turn: the seat that moved wins if the
other seat now owns two pieces or fewer (board and hand) or cannot move. The
state between turns makes this a question about the seat to move, so the
outcome is derived from the state, never stored. DT-6 draws the match after
`draw_turns` turns in a row without a removal; when a turn both wins (DT-5)
and reaches that count, the win stands: DT-6 only ends a game that would go
on. Scores are the pieces each seat owns, board and hand.
"""

from __future__ import annotations

from domain.rules.contract import Outcome, Result
from domain.rules.dris_et_tessa.engine import winner
from domain.rules.dris_et_tessa.state import SEATS, State, opponent, pieces


def is_over(state: State) -> bool:
    """Returns whether the match has ended: a forfeit, a win (DT-5) or the draw (DT-6)."""
    return outcome(state).finished


def outcome(state: State) -> Outcome:
    """Returns scores (pieces owned), ranking and result, with the reason."""
    scores = {seat: pieces(state, seat) for seat in SEATS}
    by_pieces = tuple(sorted(SEATS, key=lambda seat: (-scores[seat], seat)))
    if state.forfeited is not None:
        won = opponent(state.forfeited)
        reason = f"seat {state.forfeited} forfeited the match (its turn's clock); seat {won} wins"
        return Outcome(Result.WIN, scores, (won, state.forfeited), (won,), reason=reason)
    victor = winner(state.position)
    if victor is not None:
        reason = win_reason(state, victor)
        return Outcome(Result.WIN, scores, (victor, opponent(victor)), (victor,), reason=reason)
    if state.quiet_turns >= state.settings.draw_turns:
        return Outcome(Result.DRAW, scores, by_pieces, reason=draw_reason(state))
    return Outcome(Result.ONGOING, scores, by_pieces, reason=_waiting(state))


def win_reason(state: State, won: int) -> str:
    """Returns why `won` has won under DT-5."""
    lost = opponent(won)
    owned = pieces(state, lost)
    if owned <= 2:
        return f"seat {lost} owns only {owned} piece{'s' * (owned != 1)}: seat {won} wins (DT-5)"
    return f"seat {lost} cannot move: seat {won} wins (DT-5)"


def draw_reason(state: State) -> str:
    """Returns the text of a DT-6 draw."""
    return (
        f"{state.quiet_turns} turns in a row without a removal: the match is drawn "
        f"(DT-6, the service's rule)"
    )


def _waiting(state: State) -> str:
    seat = state.position.mover
    duty = "place a piece" if state.position.hands[seat - 1] else "move a piece"
    return f"seat {seat} to {duty} (turn {state.turn + 1})"
