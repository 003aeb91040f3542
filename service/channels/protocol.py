"""Bot protocol messages over HTTP: what a remote bot reads, in its game's own protocol.

Shades speaks the contest's protocol (SH-11): an init message before turn 0
and a state message each turn, built from the match's current state by the
game's `protocol` module. A bot reads them with its seat token
(`GET /matches/{id}/protocol`) and sends its reply as an order, whose JSON
form is the protocol's reply. Only games listed in `BOT_PROTOCOLS` have one.
The bot runner (`drts bots run`) reads every living seat's message at once,
with the match's summary, from one load (`open_turn`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol
from uuid import UUID

from domain.errors import MatchNotStartedError, NotYourSeatError
from domain.match import Match
from domain.rules.contract import JSON
from domain.rules.shades import protocol as shades_protocol
from service.errors import NoBotProtocolError, SeatNeededError
from service.queries import views
from service.results import MatchSummary
from service.store.tokens import seat_view_of

if TYPE_CHECKING:
    from service.store.tokens import Tokens


class MatchLookup(Protocol):
    """What the bot protocol reads of the Matches facade: a match and who holds a token
    (passed in, so that the channels never import the facade: issue 44)."""

    @property
    def tokens(self) -> Tokens: ...

    def get_match(self, match_id: UUID | str, version: int | None = None) -> Match: ...


class Message(StrEnum):
    """Which message of a bot protocol."""

    INIT = "init"  # before turn 0: the map and the start
    TURN = "turn"  # each turn: the state a seat sees


Builder = Callable[[Any, int], JSON]
BOT_PROTOCOLS: Mapping[str, Mapping[Message, Builder]] = {
    "shades": {
        Message.INIT: shades_protocol.init_message,
        Message.TURN: shades_protocol.turn_message,
    },
}


@dataclass(frozen=True)
class OpenTurn:
    """A match's open movement as a bot runner needs it: the summary (status, movement,
    deadline, seats owing orders, outcome) and the message of each seat owing orders."""

    summary: MatchSummary
    messages: dict[int, JSON]


def protocol_message(
    matches: MatchLookup,
    match_id: UUID | str,
    token: str | None,
    seat: int | None = None,
    message: Message = Message.TURN,
) -> JSON:
    """Returns a seat's `message` of its game's bot protocol, built from the current state.

    The seat is `seat` or the token's own; a seat may read only its own
    messages, the referee any seat's (as for `Matches.state`). Raises
    NoBotProtocolError for a game without one, MatchNotStartedError before
    the start, SeatNeededError when no seat is named or implied.
    """
    match = matches.get_match(match_id)
    builder = _builder(match, message)
    viewer = seat_view_of(match, matches.tokens.viewer(match, token), seat)
    if viewer.seat is None:
        raise SeatNeededError(
            f"a protocol message is a seat's: send that seat's token, or name it with seat=N "
            f"and the referee's token (match {match.id})"
        )
    return builder(_state(match), viewer.seat)


def protocol_messages(
    matches: MatchLookup,
    match_id: UUID | str,
    referee_token: str | None,
    seats: Iterable[int],
    message: Message = Message.TURN,
) -> dict[int, JSON]:
    """Returns the `message` of each of `seats`, built from one load of the match (what a
    bot runner sends its bots each turn); the token must be the referee's (or the
    operator's). Raises as `protocol_message` does, and NotYourSeatError for a seat's token.
    """
    return _messages(matches, matches.get_match(match_id), referee_token, seats, message)


def open_turn(matches: MatchLookup, match_id: UUID | str, referee_token: str | None) -> OpenTurn:
    """Returns the summary and the turn message of every seat owing orders now (none once the
    match is over), from one load of the match; the token must be the referee's."""
    match = matches.get_match(match_id)
    summary = views.summary(match)
    seats = summary.to_move if summary.status == "started" else []
    return OpenTurn(summary, _messages(matches, match, referee_token, seats, Message.TURN))


def _messages(
    matches: MatchLookup,
    match: Match,
    referee_token: str | None,
    seats: Iterable[int],
    message: Message,
) -> dict[int, JSON]:
    builder = _builder(match, message)
    looker = matches.tokens.viewer(match, referee_token)
    if not looker.referee:
        raise NotYourSeatError(
            f"the messages of several seats need the referee's token (match {match.id})"
        )
    wanted = [seat_view_of(match, looker, seat).seat for seat in seats]
    state = _state(match)
    return {seat: builder(state, seat) for seat in wanted if seat is not None}


def _builder(match: Match, message: Message) -> Builder:
    """Returns the game's builder of `message`; raises NoBotProtocolError for a game with no
    bot protocol."""
    builders = BOT_PROTOCOLS.get(match.ruleset)
    if builders is None:
        known = ", ".join(sorted(BOT_PROTOCOLS))
        raise NoBotProtocolError(
            f"match {match.id} plays {match.ruleset}, which has no bot protocol (games with "
            f"one: {known})"
        )
    return builders[Message(message)]


def _state(match: Match) -> Any:
    """Returns the match's current state as its rules' value; raises MatchNotStartedError."""
    if match.state is None:
        raise MatchNotStartedError(f"match {match.id} has not started: it has no state yet")
    return match.rules().load_state(match.state)
