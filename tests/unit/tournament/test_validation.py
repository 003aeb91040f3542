"""The Tournament's commands validate (issue 45): each refusal raises the domain's error
naming what is wrong, and records nothing."""

from __future__ import annotations

from uuid import uuid4

import pytest

from domain.errors import InvalidConfigError, UnknownRulesetError
from domain.tournament import Tournament
from domain.tournament.errors import (
    AlreadyRegisteredError,
    InvalidLinkError,
    InvalidPairingError,
    InvalidResultError,
    InvalidTournamentError,
    RegistrationClosedError,
    RoundNotCompleteError,
    SeedRevealError,
    TournamentFinishedError,
    TournamentNotPausedError,
    TournamentPausedError,
    UnknownPlayerError,
    UnknownTableError,
)
from tests.support.tournaments import HEAD, T0, new_tournament

WIN = ({"ann": 1, "bob": 2}, {"ann": 2, "bob": 0}, {"ann": 1, "bob": 0})
DRAW = ({"ann": 1, "bob": 1}, {"ann": 1, "bob": 1}, {"ann": 0, "bob": 0})


def paired(format: str = "swiss", **kwargs: object) -> Tournament:
    tournament = new_tournament(format, players=("ann", "bob", "cat"), **kwargs)
    tournament.pair_round(1, [["ann", "bob"]], ["cat"], T0)
    return tournament


def linked(format: str = "swiss") -> tuple[Tournament, str]:
    tournament, match = paired(format), str(uuid4())
    tournament.link_match(1, 1, match, T0)
    return tournament, match


def test_an_unknown_format_is_refused() -> None:
    """Created: the format is one of round_robin, swiss, elimination, tables."""
    with pytest.raises(InvalidTournamentError, match="unknown format 'ladder'"):
        new_tournament("ladder")


def test_a_two_player_format_needs_a_game_that_seats_two() -> None:
    """Swiss of DRTS Team 23 (8 seats) is refused: it takes the tables format."""
    with pytest.raises(InvalidTournamentError, match="use the tables format"):
        new_tournament("swiss", "drts_team23")


def test_tables_must_fit_the_game_s_seat_counts() -> None:
    """Tables of 9 for Shades (2 to 8 seats) are refused."""
    with pytest.raises(InvalidTournamentError, match="tables of 9 to 9 seats: shades seats 2 to 8"):
        new_tournament("tables", "shades", options={"seats": 9})


def test_round_robin_takes_one_or_two_legs() -> None:
    """legs is 1 or 2."""
    with pytest.raises(InvalidTournamentError, match="legs must be 1 to 2, got 3"):
        new_tournament("round_robin", options={"legs": 3})


def test_an_option_of_another_format_is_refused() -> None:
    """Swiss takes no `legs`."""
    with pytest.raises(InvalidTournamentError, match="takes no option legs"):
        new_tournament("swiss", options={"legs": 2})


def test_the_tie_break_order_starts_with_points_and_ends_with_the_draw() -> None:
    """A standing must be total: the order ends with the seed's draw."""
    with pytest.raises(
        InvalidTournamentError, match="must start with 'points' and end with 'draw'"
    ):
        new_tournament(tie_breaks=["points", "buchholz"])


def test_an_unknown_tie_break_is_refused() -> None:
    """Tie-breaks are from the known set."""
    with pytest.raises(InvalidTournamentError, match="unknown tie-break 'rating'"):
        new_tournament(tie_breaks=["points", "rating", "draw"])


def test_a_bad_config_is_refused_as_a_match_s_would_be() -> None:
    """The config is validated by the ruleset."""
    with pytest.raises(InvalidConfigError):
        Tournament.create(uuid4(), "Cup", "swiss", "district_war", {"nope": 1}, "s", "h", 1, T0)


def test_an_unknown_ruleset_is_refused() -> None:
    """The ruleset must be installed."""
    with pytest.raises(UnknownRulesetError):
        new_tournament("swiss", "ludo")


def test_no_registration_after_round_one_is_paired() -> None:
    """Registration closes when round 1 is paired."""
    with pytest.raises(RegistrationClosedError, match="round 1 is paired"):
        paired().register("dan", T0)


def test_a_player_registers_once() -> None:
    """A second registration of the same player is refused."""
    tournament = new_tournament(players=("ann",))
    with pytest.raises(AlreadyRegisteredError, match="player ann is registered already"):
        tournament.register("ann", T0)


def test_only_a_registered_active_player_withdraws() -> None:
    """Withdrawing an unknown player, or one withdrawn already, is refused."""
    tournament = new_tournament(players=("ann",))
    with pytest.raises(UnknownPlayerError, match="player zed is not registered"):
        tournament.withdraw("zed", "", T0)
    tournament.withdraw("ann", "", T0)
    with pytest.raises(UnknownPlayerError, match="player ann has withdrawn"):
        tournament.withdraw("ann", "", T0)


def test_no_pairing_while_paused() -> None:
    """A paused tournament pairs no round."""
    tournament = new_tournament(players=("ann", "bob"))
    tournament.pause("storm", T0)
    with pytest.raises(TournamentPausedError, match="resume it to pair"):
        tournament.pair_round(1, [["ann", "bob"]], [], T0)


def test_rounds_are_paired_in_order() -> None:
    """Round 2 cannot come before round 1."""
    tournament = new_tournament(players=("ann", "bob"))
    with pytest.raises(InvalidPairingError, match="the next round is 1, not 2"):
        tournament.pair_round(2, [["ann", "bob"]], [], T0)


def test_the_next_round_waits_for_the_last_to_complete() -> None:
    """Round 2 is paired only once round 1 is complete."""
    with pytest.raises(InvalidPairingError, match="round 1 is not complete yet"):
        paired().pair_round(2, [["ann", "cat"]], ["bob"], T0)


def test_a_withdrawn_player_is_not_paired() -> None:
    """A pairing naming a withdrawn player is refused."""
    tournament = new_tournament(players=("ann", "bob", "cat"))
    tournament.withdraw("cat", "", T0)
    with pytest.raises(InvalidPairingError, match="player cat is withdrawn"):
        tournament.pair_round(1, [["ann", "bob"]], ["cat"], T0)


def test_a_round_pairs_someone() -> None:
    """A round with no table and no bye is refused."""
    tournament = new_tournament(players=("ann", "bob"))
    with pytest.raises(InvalidPairingError, match="round 1 pairs no table and no bye"):
        tournament.pair_round(1, [], [], T0)


def test_a_round_of_byes_alone_is_paired() -> None:
    """A round robin's round whose scheduled opponents all withdrew is byes alone (issue
    45: a withdrawn player's later games are walkovers)."""
    tournament = new_tournament(players=("ann", "bob"))
    tournament.pair_round(1, [], ["ann", "bob"], T0)
    assert tournament.rounds[0]["tables"] == [] and tournament.rounds[0]["byes"] == ["ann", "bob"]


def test_a_player_is_paired_once_a_round() -> None:
    """A player at a table and in the byes is refused."""
    tournament = new_tournament(players=("ann", "bob"))
    with pytest.raises(InvalidPairingError, match="player ann is paired twice in round 1"):
        tournament.pair_round(1, [["ann", "bob"]], ["ann"], T0)


def test_a_table_seats_what_the_format_takes() -> None:
    """A three-player table in Swiss is refused."""
    with pytest.raises(InvalidPairingError, match="table 1 seats 3 players: tables take 2 to 2"):
        new_tournament(players=("ann", "bob", "cat")).pair_round(1, [["ann", "bob", "cat"]], [], T0)


def test_the_rounds_planned_are_not_exceeded() -> None:
    """A tournament of one round pairs no second."""
    tournament, match = paired(rounds=1), str(uuid4())
    tournament.link_match(1, 1, match, T0)
    tournament.record_result(match, HEAD, *WIN, 1, T0)
    tournament.complete_round(1, [], T0)
    with pytest.raises(InvalidPairingError, match="the tournament plays 1 rounds"):
        tournament.pair_round(2, [["ann", "cat"]], ["bob"], T0)


def test_a_match_links_to_a_paired_table() -> None:
    """Table 2 of a round with one table is unknown."""
    with pytest.raises(UnknownTableError, match="round 1 has tables 1 to 1, not 2"):
        paired().link_match(1, 2, uuid4(), T0)


def test_a_match_is_linked_once() -> None:
    """The same match cannot play two tables."""
    tournament, match = linked()
    with pytest.raises(InvalidLinkError, match="is linked already"):
        tournament.link_match(1, 1, match, T0)


def test_a_second_match_needs_a_drawn_elimination_match() -> None:
    """Outside elimination, a table has one match."""
    tournament, match = linked("swiss")
    tournament.record_result(match, HEAD, *DRAW, 1, T0)
    with pytest.raises(InvalidLinkError, match="only to replay a drawn elimination match"):
        tournament.link_match(1, 1, uuid4(), T0)


def test_a_won_elimination_match_is_not_replayed() -> None:
    """A replay needs a drawn match."""
    tournament, match = linked("elimination")
    tournament.record_result(match, HEAD, *WIN, 1, T0)
    with pytest.raises(InvalidLinkError, match="was not drawn"):
        tournament.link_match(1, 1, uuid4(), T0)


def test_a_drawn_elimination_match_is_replayed_at_most_three_times() -> None:
    """After three drawn replays the higher seed advances: no fifth match."""
    tournament, match = linked("elimination")
    tournament.record_result(match, HEAD, *DRAW, 1, T0)
    for _ in range(3):
        match = str(uuid4())
        tournament.link_match(1, 1, match, T0)
        tournament.record_result(match, HEAD, *DRAW, 1, T0)
    with pytest.raises(InvalidLinkError, match="was replayed 3 times: the higher seed advances"):
        tournament.link_match(1, 1, uuid4(), T0)


def test_a_result_only_for_a_linked_match() -> None:
    """A result naming a match the tournament does not link is refused."""
    with pytest.raises(InvalidResultError, match="is not linked to tournament"):
        paired().record_result(uuid4(), HEAD, *WIN, 1, T0)


def test_a_result_names_the_table_s_players() -> None:
    """Placements of players not at the table are refused."""
    tournament, match = linked()
    with pytest.raises(InvalidResultError, match="the placements of match"):
        tournament.record_result(match, HEAD, {"ann": 1, "cat": 2}, *WIN[1:], 1, T0)


def test_a_result_changes_only_on_a_later_timeline() -> None:
    """The same timeline twice is refused: a correction of the match makes a new one."""
    tournament, match = linked()
    tournament.record_result(match, HEAD, *WIN, 1, T0)
    with pytest.raises(InvalidResultError, match="needs a later timeline"):
        tournament.record_result(match, HEAD, *WIN, 1, T0)


def test_a_round_completes_once_every_table_has_its_result() -> None:
    """Completing a round whose match has no result is refused."""
    tournament, _ = linked()
    with pytest.raises(RoundNotCompleteError, match="table 1 of round 1 has no result"):
        tournament.complete_round(1, [], T0)


def test_a_drawn_table_with_its_replay_waits_for_the_replay() -> None:
    """Once a replay is linked, the round waits for the replay's result."""
    tournament, match = linked("elimination")
    tournament.record_result(match, HEAD, *DRAW, 1, T0)
    tournament.link_match(1, 1, uuid4(), T0)
    with pytest.raises(RoundNotCompleteError):
        tournament.complete_round(1, [], T0)


def test_the_tournament_finishes_with_every_round_complete() -> None:
    """Finishing while a round is open is refused."""
    with pytest.raises(RoundNotCompleteError, match="round 1 is not complete"):
        paired().finish([], T0)


def test_pause_and_resume_alternate() -> None:
    """A second pause and a resume while running are refused."""
    tournament = new_tournament()
    with pytest.raises(TournamentNotPausedError):
        tournament.resume(T0)
    tournament.pause("", T0)
    with pytest.raises(TournamentPausedError, match="paused already"):
        tournament.pause("", T0)


def test_nothing_changes_a_finished_tournament() -> None:
    """After Finished: no withdrawal, pause or pairing."""
    tournament = new_tournament(players=("ann", "bob"))
    tournament.finish([], T0)
    for command in (
        lambda: tournament.withdraw("ann", "", T0),
        lambda: tournament.pause("", T0),
        lambda: tournament.pair_round(1, [["ann", "bob"]], [], T0),
    ):
        with pytest.raises(TournamentFinishedError):
            command()
    with pytest.raises(RegistrationClosedError, match="it has finished"):
        tournament.register("cat", T0)


def test_the_seed_is_revealed_once_after_the_finish() -> None:
    """Before Finished, and a second time, the reveal is refused."""
    tournament = new_tournament()
    with pytest.raises(SeedRevealError, match="once finished"):
        tournament.reveal_seed(T0)
    tournament.finish([], T0)
    tournament.reveal_seed(T0)
    with pytest.raises(SeedRevealError, match="revealed its seed already"):
        tournament.reveal_seed(T0)


def test_a_refused_command_records_nothing() -> None:
    """A refusal leaves the pending events as they were."""
    tournament = new_tournament(players=("ann",))
    before = len(tournament.pending_events)
    with pytest.raises(AlreadyRegisteredError):
        tournament.register("ann", T0)
    assert len(tournament.pending_events) == before
