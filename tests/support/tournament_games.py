"""Playing a tournament's matches for the tests of its formats (issue 45): players made
and registered, each seat's token got by its player's key, a District War match played
to the DW-5 draw, a match ended by the referee's forfeit, a Shades match played by bot
programs through the bot runner."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any
from uuid import UUID

from cli.bots.runner import BotMatch, MatchPlan, QuietWatcher, SeatResult
from cli.bots.runner import MatchResult as RunnerResult
from service.matches import Matches
from service.tournaments import Tournaments
from tests.support.draws import draw_orders

OPERATOR = "operator-secret"


def entered(tournaments: Tournaments, tournament_id: UUID, names: Iterable[str]) -> dict[str, Any]:
    """Creates the players and registers them in order; returns them by id."""
    made = {}
    for name in names:
        player = tournaments.matches.players.create(name)
        tournaments.register(tournament_id, player.name, player.key)
        made[str(player.player_id)] = player
    return made


def latest_matches(tournaments: Tournaments, tournament_id: UUID) -> list[str]:
    """Returns the latest match of each table of the latest round."""
    record = tournaments.get(tournament_id).rounds[-1]
    return [links[-1] for links in record["links"]]


def seat_tokens(
    tournaments: Tournaments, tournament_id: UUID, match_id: str, made: dict[str, Any]
) -> dict[int, str]:
    """Returns each seat's token of the match, got by its player's key."""
    match = tournaments.matches.get_match(match_id)
    tokens = {}
    for seat in match.seats:
        player = made[str(seat.player_id)]
        got = tournaments.seat_token(tournament_id, player.name, player.key)
        assert got["match_id"] == match_id, (got, match_id)
        tokens[seat.number] = got["token"]
    return tokens


def play_draw(
    tournaments: Tournaments,
    tournament_id: UUID,
    match_id: str,
    made: dict[str, Any],
    rematch: bool = True,
) -> None:
    """Plays the DW-5 draw scenario's orders in the match, by its seats' tokens: the match
    ends drawn and District War creates its rematch (DW-5; `rematch` False: a crash kept
    it from being created)."""
    tokens = seat_tokens(tournaments, tournament_id, match_id, made)
    for seat, order in draw_orders():
        tournaments.matches.submit_order(match_id, tokens[seat], order)  # type: ignore[arg-type]
    match = tournaments.matches.get_match(match_id)
    assert match.finished and match.wants_rematch(), match.outcome
    assert (match.rematch_id is not None) == rematch


def forfeit(app: Matches, match_id: str, seat: int = 2) -> None:
    """The operator, as the match's referee, forfeits `seat`: the other seat wins."""
    app.act(match_id, OPERATOR, "forfeit", {"seat": seat}, "test")


class SeatedBotMatch(BotMatch):
    """The bot runner (cli/bots/runner.py) on a match the tournament created, seated and
    started: the bots play its seats with the tokens their players got by their keys,
    the operator acting as the referee."""

    def __init__(
        self, matches: Matches, plan: MatchPlan, match_id: str, tokens: dict[int, str]
    ) -> None:
        super().__init__(matches, plan, QuietWatcher())
        self.match_id, self.referee, self.tokens = match_id, OPERATOR, dict(tokens)
        for (seat, _), program in zip(sorted(tokens.items()), plan.programs, strict=True):
            log = plan.log_dir / f"{match_id}-seat{seat}.log"
            self.seats[seat] = SeatResult(seat, program, log)

    def play(self) -> RunnerResult:
        """Plays the started match to its end with the bots; returns the runner's result."""
        try:
            self._start_bots()
            self._init()
            while self._play_turn():
                self.timings.turns += 1
        finally:
            for bot in self.bots.values():
                bot.kill("the match is over")
        outcome = self.matches.summary(self.match_id).outcome
        seats = list(self.seats.values())
        return RunnerResult(
            self.match_id, self.referee, seats, outcome, self.timings.turns, self.timings
        )


def play_with_bots(
    tournaments: Tournaments,
    tournament_id: UUID,
    match_id: str,
    made: dict[str, Any],
    plan: MatchPlan,
) -> RunnerResult:
    """Plays a tournament's Shades match with `plan`'s bot programs, one a seat in order."""
    tokens = seat_tokens(tournaments, tournament_id, match_id, made)
    return SeatedBotMatch(tournaments.matches, plan, match_id, tokens).play()
