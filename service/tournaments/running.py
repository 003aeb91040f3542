"""Running a tournament: one step at a time, each step one save of the aggregate, so a
crash between steps leaves a state the next call continues from (issue 45).

`next_step` looks at the tournament and does the first thing due, in this order:

1. a linked match that has finished (or was corrected onto a later timeline, even after
   the tournament's finish) has its result recorded, bound to its head;
2. a finished tournament reveals its seed;
3. a paired table without its match gets it (created with an idempotency key:
   service/tournaments/tables.py) and links it;
4. a round whose every table has its result: a drawn elimination match with replays
   left is replayed, else the round completes (with who advances, for elimination). A
   District War match is replayed by its own rematch (DW-5: the drawn match creates it,
   same seats; `_link_rematch` links it, creating it first if a crash left it missing),
   any other game (or a District War draw that asks no rematch) by a new match of the
   table, seats swapped;
5. unless paused, the next round is paired (service/pairing/, from the recorded events),
   or, when the format has no round left, the tournament finishes with its standing.
   Round 1 of a Swiss is refused when the field is too small for the rounds planned
   (`swiss.check_field`): every later round is then sure to pair, unless players withdraw
   during the event; a Swiss whose next round then cannot be paired without a repeat
   meeting (or has one player left) finishes early with its standing.

It returns what it did, or None when nothing is due. Every step is decided afresh from
the stored tournament: two workers taking the same step write the same next version,
and the store keeps one (optimistic concurrency): the loser's step is dropped and it
decides again."""

from __future__ import annotations

from typing import Any

from domain.tournament import Tournament
from service.pairing import elimination, pair_next, standings_of, swiss
from service.pairing.history import History, history_before
from service.tournaments.outcome import result_of
from service.tournaments.tables import letter_seated, table_match

Step = str


def history_of(tournament: Tournament, items: list[dict[str, Any]]) -> History:
    """Returns the history of everything recorded so far."""
    return history_before(items, len(tournament.rounds) + 1, tournament.seed)


def next_step(
    matches: Any, tournament: Tournament, items: list[dict[str, Any]], names: Any
) -> Step | None:
    """Does the first step due (see the module docstring) on `tournament` (events left
    pending for the caller to save); returns what it did, or None."""
    now = matches.clock()
    for record in tournament.rounds:
        for links in record["links"]:
            for match_id in links:
                if record_result(matches, tournament, match_id):
                    return f"result of match {match_id} recorded"
    if tournament.finished:
        if tournament.seed_revealed:
            return None
        tournament.reveal_seed(now)
        return "seed revealed"
    if tournament.rounds and not tournament.rounds[-1]["completed"]:
        return _round_step(matches, tournament, items, names)
    if tournament.paused is not None:
        return None
    history = history_of(tournament, items)
    options = tournament.options
    if tournament.format == "swiss" and not tournament.rounds:
        swiss.check_field(len(history.active), tournament.rounds_planned)
    try:
        version, planned = tournament.pairing_version, tournament.rounds_planned
        pairing = pair_next(tournament.format, version, history, options, planned)
    except swiss.UnpairableRoundError as error:
        # Only withdrawals during the event lead here (swiss.max_rounds): the Swiss ends
        # with the rounds it could play rather than waiting for ever.
        tournament.finish(_standing(tournament, history), now)
        return f"finished early: {error}"
    if pairing is None:
        tournament.finish(_standing(tournament, history), now)
        return "finished"
    tournament.pair_round(pairing.round, pairing.tables, pairing.byes, now)
    return f"round {pairing.round} paired"


def _standing(tournament: Tournament, history: History) -> list[dict[str, Any]]:
    order, options = tournament.tie_breaks, tournament.options
    return [entry.to_json() for entry in standings_of(tournament.format, history, order, options)]


def record_result(matches: Any, tournament: Tournament, match_id: str) -> bool:
    recorded = tournament.results.get(match_id)
    match = matches.get_match(match_id)
    if recorded is not None and match.timeline <= recorded["timeline"]:
        return False
    result = result_of(match)
    if result is None:
        return False
    tournament.record_result(
        match_id,
        result.head,
        result.placements,
        result.points,
        result.scores,
        result.timeline,
        matches.clock(),
    )
    return True


def _round_step(
    matches: Any, tournament: Tournament, items: list[dict[str, Any]], names: Any
) -> Step | None:
    record = tournament.rounds[-1]
    number = record["round"]
    for table, players in enumerate(record["tables"], 1):
        if not record["links"][table - 1]:
            return _link(matches, tournament, number, table, 1, players, names)
    if any(links[-1] not in tournament.results for links in record["links"]):
        return None  # a match is still being played
    advancing: list[dict[str, Any]] = []
    if tournament.format == "elimination":
        history = history_of(tournament, items)
        replays = tournament.options["max_replays"]
        for table, players in enumerate(record["tables"], 1):
            games = history.rounds[number - 1].table_games(table)
            decision = elimination.decide(games, history.players, replays)
            if decision.replay:
                links = record["links"][table - 1]
                if elimination.replay_kind(tournament.ruleset) == "rematch":
                    step = _link_rematch(matches, tournament, number, table, links[-1])
                    if step is not None:
                        return step
                attempt = len(links) + 1
                seats = list(elimination.replay_seats(players, attempt))
                return _link(matches, tournament, number, table, attempt, seats, names)
        advancing = elimination.advancing(history, number, replays)
    tournament.complete_round(number, advancing, matches.clock())
    return f"round {number} completed"


def _link(
    matches: Any,
    tournament: Tournament,
    number: int,
    table: int,
    attempt: int,
    players: list[str],
    names: Any,
) -> Step:
    match_id = table_match(
        matches, tournament, number, table, attempt, players, [names(p) for p in players]
    )
    tournament.link_match(number, table, match_id, matches.clock())
    return f"match {match_id} linked to table {table} of round {number}"


def _link_rematch(
    matches: Any, tournament: Tournament, number: int, table: int, drawn: str
) -> Step | None:
    """Links the drawn match's own rematch (DW-5) as the table's replay, creating it if a
    crash left it missing (idempotent); returns None when the match asks no rematch."""
    rematch_id = matches.create_rematch_if_due(drawn)
    if rematch_id is None:
        return None
    letter_seated(matches, tournament, number, table, rematch_id)
    tournament.link_match(number, table, rematch_id, matches.clock())
    return f"rematch {rematch_id} of match {drawn} linked to table {table} of round {number}"
