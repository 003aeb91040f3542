"""Tokens: who holds one. The operator token (configured at start-up) acts as the referee
of every match; a match's referee token and its seat tokens are known by their hashes
(the match stores only those). Reads ask who is looking (a `Viewer`); commands ask for
the hash a match checks."""

from __future__ import annotations

from domain.errors import NotASeatError, NotYourSeatError, UnknownSeatError
from domain.integrity import commitment
from domain.match import Match
from service.errors import MissingTokenError, NotOperatorError
from service.results import Viewer


class Tokens:
    """Tells the holders of tokens apart: the operator, a match's referee, its seats."""

    def __init__(self, operator_token: str | None = None) -> None:
        self.operator_hash = commitment(operator_token) if operator_token else None

    def is_operator(self, token: str | None) -> bool:
        """Returns whether the token is the operator token configured at start-up."""
        return token is not None and commitment(token) == self.operator_hash

    def check_operator(self, token: str | None) -> None:
        """Raises MissingTokenError without a token, NotOperatorError for another one (a
        forum integration holds the operator token: docs/forum.md)."""
        if token is None:
            raise MissingTokenError("this needs the operator token")
        if not self.is_operator(token):
            raise NotOperatorError("only the operator token will do here (a forum integration's)")

    def viewer(self, match: Match, token: str | None) -> Viewer:
        """Returns who holds the token: the referee (or operator), a seat, or anyone (None);
        raises InvalidTokenError for a token the match does not know."""
        if token is None:
            return Viewer()
        if self.is_operator(token):
            return Viewer(referee=True, name="operator")
        token_hash = commitment(token)
        if match.is_referee(token_hash):
            return Viewer(referee=True)
        return Viewer(seat=match.seat_of(token_hash))

    def referee_hash(self, match: Match, token: str | None) -> str:
        """Returns the token hash the match checks for its referee (the operator acts as one);
        raises MissingTokenError without a token."""
        if token is None:
            raise MissingTokenError(f"match {match.id}: this needs the referee token")
        return match.referee_token_hash if self.is_operator(token) else commitment(token)

    def referee_name(self, token: str | None) -> str:
        """Returns who acts as referee with the token: "operator" or "referee"."""
        return "operator" if self.is_operator(token) else "referee"

    def seat_hash(self, token: str | None) -> str:
        """Returns the hash of a seat token; raises for none, or for the operator's."""
        if token is None:
            raise MissingTokenError("an order needs the token of the seat that sends it")
        if self.is_operator(token):
            raise NotASeatError("the operator token holds no seat: send orders with a seat token")
        return commitment(token)


def seat_view_of(match: Match, viewer: Viewer, seat: int | None) -> Viewer:
    """Returns whose view of the state to show when `seat`'s is asked for (None: the viewer's).

    The referee may see any seat's view; a seat only its own; anyone else none.
    """
    if seat is None or seat == viewer.seat:
        return viewer
    if not 1 <= seat <= len(match.seats):
        raise UnknownSeatError(
            f"match {match.id} has no seat {seat} ({len(match.seats)} seat(s) joined)"
        )
    if not viewer.referee:
        who = f"seat {viewer.seat}" if viewer.seat else "a spectator"
        raise NotYourSeatError(
            f"{who} may not see seat {seat}'s view of match {match.id}: send that seat's token"
        )
    return Viewer(seat=seat)
