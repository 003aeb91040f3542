"""The Tournament aggregate's events (issue 45): each command records one event, the
events rebuild the aggregate, and their topics are `domain.tournament:Tournament.<name>`."""

from __future__ import annotations

from uuid import uuid4

from eventsourcing.utils import get_topic

from domain.integrity import commitment
from domain.tournament import Tournament
from domain.tournament.chain import public_item
from service.pairing import elimination
from service.pairing.history import history_before
from tests.support.tournaments import HEAD, SEED, T0, fold, new_tournament


def names(events: list[object]) -> list[str]:
    return [type(e).__name__ for e in events]


def a_full_tournament() -> tuple[Tournament, str]:
    tournament = new_tournament("swiss", players=("ann", "bob", "cat"), rounds=1)
    tournament.pair_round(1, [["ann", "bob"]], ["cat"], T0)
    match = str(uuid4())
    tournament.link_match(1, 1, match, T0)
    tournament.record_result(
        match, HEAD, {"ann": 1, "bob": 2}, {"ann": 2, "bob": 0}, {"ann": 12, "bob": 9}, 1, T0
    )
    tournament.complete_round(1, [], T0)
    tournament.pause("lunch", T0)
    tournament.resume(T0)
    tournament.finish([{"rank": 1, "player_id": "ann"}], T0)
    tournament.reveal_seed(T0)
    return tournament, match


def test_each_command_records_its_event_in_order() -> None:
    """Created, registrations, the round's pairing, link, result, completion, pause,
    resume, finish and the seed's reveal: one event each."""
    tournament, _ = a_full_tournament()
    assert names(tournament.collect_events()) == [
        "Created",
        "PlayerRegistered",
        "PlayerRegistered",
        "PlayerRegistered",
        "RoundPaired",
        "MatchLinked",
        "ResultRecorded",
        "RoundCompleted",
        "Paused",
        "Resumed",
        "Finished",
        "SeedRevealed",
    ]


def test_events_rebuild_the_same_tournament() -> None:
    """Folding the events gives the aggregate the commands left (apply only assigns)."""
    tournament, match = a_full_tournament()
    rebuilt = fold(tournament.collect_events())
    for attribute in ("players", "rounds", "results", "standing", "chain", "options"):
        assert getattr(rebuilt, attribute) == getattr(tournament, attribute)
    assert rebuilt.results[match]["points"] == {"ann": 2, "bob": 0}
    assert rebuilt.finished and rebuilt.seed_revealed and rebuilt.paused is None


def test_created_records_format_ruleset_tie_breaks_and_the_seed_commitment_only() -> None:
    """Created records format, ruleset name and version, config, rounds, tie-break order,
    rated flag, options, pairing version and SHA-256 of the seed; the seed itself is
    sealed, outside the event's data."""
    created = new_tournament("round_robin", rated=False).collect_events()[0]
    assert (created.format, created.ruleset, created.ruleset_version) == (
        "round_robin",
        "district_war",
        1,
    )
    assert created.tie_breaks == ["points", "head_to_head", "sonneborn_berger", "draw"]
    assert created.options == {"seats": [2, 2], "legs": 1}
    assert created.rated is False and created.pairing_version == 1
    assert created.seed_commitment == commitment(SEED)
    assert created.sealed == {"seed": SEED}
    assert SEED not in str({k: v for k, v in vars(created).items() if k != "sealed"})


def test_the_config_comes_from_the_ruleset_with_its_preset() -> None:
    """A tournament's config is the ruleset's own, validated, as a match's is."""
    created = new_tournament("tables", "shades").collect_events()[0]
    assert created.config and created.options == {"seats": [2, 8]}


def test_event_topics_name_the_nested_classes() -> None:
    """Stored topics are `domain.tournament:Tournament.<Event>`: they never change."""
    assert get_topic(Tournament.RoundPaired) == "domain.tournament:Tournament.RoundPaired"
    assert get_topic(Tournament.Created) == "domain.tournament:Tournament.Created"


def test_withdrawal_records_the_last_round_paired() -> None:
    """PlayerWithdrawn records after which round the player left (0: before round 1)."""
    tournament = new_tournament(players=("ann", "bob", "cat"))
    tournament.withdraw("cat", "ill", T0)
    assert tournament.withdrawn == {"cat": 0}
    assert tournament.active_players() == ["ann", "bob"]


def test_a_drawn_elimination_match_gets_a_replay_as_attempt_two() -> None:
    """A drawn elimination match is replayed: the new match links to the same table."""
    tournament = new_tournament("elimination", players=("ann", "bob"))
    tournament.pair_round(1, [["ann", "bob"]], [], T0)
    first, second = str(uuid4()), str(uuid4())
    assert tournament.link_match(1, 1, first, T0) == 1
    tournament.record_result(
        first, HEAD, {"ann": 1, "bob": 1}, {"ann": 1, "bob": 1}, {"ann": 0, "bob": 0}, 1, T0
    )
    assert tournament.link_match(1, 1, second, T0) == 2
    assert tournament.table_links(1, 1) == [first, second]


def test_a_corrected_result_replaces_the_earlier_on_a_later_timeline() -> None:
    """A result changes only through its match's correction: a later timeline."""
    tournament = new_tournament(players=("ann", "bob"))
    tournament.pair_round(1, [["ann", "bob"]], [], T0)
    match = uuid4()
    tournament.link_match(1, 1, match, T0)
    tournament.record_result(
        match, HEAD, {"ann": 1, "bob": 2}, {"ann": 2, "bob": 0}, {"ann": 1, "bob": 0}, 1, T0
    )
    tournament.record_result(
        match, HEAD, {"ann": 2, "bob": 1}, {"ann": 0, "bob": 2}, {"ann": 0, "bob": 1}, 2, T0
    )
    assert tournament.results[str(match)]["timeline"] == 2
    assert tournament.results[str(match)]["points"] == {"ann": 0, "bob": 2}


def test_an_elimination_of_eight_records_a_drawn_district_war_rematch_and_who_advances() -> None:
    """Elimination of 8 through the aggregate: round 1 paired by the bracket, the 4 v 5
    District War match drawn and its DW-5 rematch linked to the same table as attempt 2,
    won by p5; RoundCompleted records who advances, derived from the events."""
    tournament = new_tournament("elimination", players=[f"p{n}" for n in range(1, 9)])
    items = [public_item(e) for e in tournament.pending_events]
    pairing = elimination.pair(history_before(items, 1, SEED), 3)
    assert pairing is not None
    tournament.pair_round(1, pairing.tables, pairing.byes, T0)
    for index, (high, low) in enumerate(pairing.tables, 1):
        match = str(uuid4())
        tournament.link_match(1, index, match, T0)
        if high == "p4":
            even = {high: 1, low: 1}
            tournament.record_result(match, HEAD, even, even, {high: 0, low: 0}, 1, T0)
            match = str(uuid4())  # the drawn match's rematch (DW-5), same seats
            assert tournament.link_match(1, index, match, T0) == 2
            high, low = low, high
        tournament.record_result(
            match, HEAD, {high: 1, low: 2}, {high: 2, low: 0}, {high: 1, low: 0}, 1, T0
        )
    items = [public_item(e) for e in tournament.pending_events]
    advancing = elimination.advancing(history_before(items, 2, SEED), 1, 3)
    tournament.complete_round(1, advancing, T0)
    assert [a["player_id"] for a in tournament.rounds[0]["advancing"]] == ["p1", "p5", "p2", "p3"]
    items = [public_item(e) for e in tournament.pending_events]
    second = elimination.pair(history_before(items, 2, SEED), 3)
    assert second is not None and second.tables == (("p1", "p5"), ("p2", "p3"))
