"""A match whose resolution keeps failing is quarantined while the rest go on (issue 15,
DESIGN.md Isolation), on SQLite and PostgreSQL.

`toy_fragile` is the toy ruleset under another name whose resolution raises, as a bug
in a ruleset would; "deploying the fix" puts the working toy under that name again.
"""

from __future__ import annotations

from uuid import UUID

import pytest
from click.testing import CliRunner

from cli.main import main
from domain.errors import MatchQuarantinedError, NotQuarantinedError
from domain.rules import registry
from service.clock import ManualClock
from service.matches import Matches
from tests.support.quarantine import BROKEN, FIXED, started

pytestmark = pytest.mark.usefixtures("toy_rulesets")


def sweep(matches: Matches, clock: ManualClock) -> set[UUID]:
    """Lets every deadline pass and runs one sweep; returns the matches it resolved."""
    clock.advance(61)
    return {closing.match_id for closing in matches.resolve_due()}


@pytest.mark.usefixtures("fragile")
def test_a_match_failing_three_sweeps_is_quarantined_while_the_others_resolve_in_each(
    matches: Matches, clock: ManualClock
) -> None:
    bad, _ = started(matches, "toy_fragile")
    good = {started(matches)[0], started(matches)[0]}
    for sweep_number in (1, 2, 3):
        assert sweep(matches, clock) == good, f"sweep {sweep_number}"
        assert matches.summary(bad).movement == 1
    quarantined = matches.summary(bad).quarantined
    assert quarantined is not None
    assert quarantined["movement"] == 1 and quarantined["failures"] == 3
    assert quarantined["error"] == "RuntimeError"
    assert "the fragile toy cannot resolve" in quarantined["message"]
    [listed] = matches.quarantined_matches()
    assert (listed.match_id, listed.movement, listed.failures) == (bad, 1, 3)
    events = [item["type"] for item in matches.event_log(bad)]
    assert events.count("Quarantined") == 1 and "MovementClosed" not in events
    assert bad not in {due.match_id for due in matches.due_movements()}
    assert sweep(matches, clock) == good  # the fourth sweep leaves it alone
    assert matches.verify_chain(bad).broken is None


@pytest.mark.usefixtures("fragile")
def test_failures_below_the_setting_do_not_quarantine_and_a_success_forgets_them(
    matches: Matches, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad, _ = started(matches, "toy_fragile")
    sweep(matches, clock)
    sweep(matches, clock)
    assert matches.summary(bad).quarantined is None
    assert matches.quarantined_matches() == []
    monkeypatch.setitem(registry.REGISTRY, "toy_fragile", {1: FIXED})
    assert sweep(matches, clock) == {bad}
    monkeypatch.setitem(registry.REGISTRY, "toy_fragile", {1: BROKEN})
    sweep(matches, clock)
    sweep(matches, clock)  # two in a row again, not four: the success reset the count
    assert matches.summary(bad).quarantined is None


@pytest.mark.usefixtures("fragile")
def test_the_referees_retry_lifts_the_quarantine_and_a_fixed_ruleset_then_resolves_it(
    matches: Matches, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad, referee = started(matches, "toy_fragile")
    for _ in range(3):
        sweep(matches, clock)
    assert matches.summary(bad).quarantined is not None
    monkeypatch.setitem(registry.REGISTRY, "toy_fragile", {1: FIXED})
    assert sweep(matches, clock) == set()  # quarantined: not tried, even once fixed
    assert matches.retry(bad, referee) == 1
    assert matches.summary(bad).quarantined is None
    assert matches.quarantined_matches() == []
    assert sweep(matches, clock) == {bad}
    # 305 s after the start the toy's 60 s deadlines of movements 1..5 have all fallen due:
    # the match catches up, each deadline at its intended instant (issue 13)
    assert matches.summary(bad).movement == 6
    closed = [e for e in matches.event_log(bad) if e["type"] == "MovementClosed"]
    assert [e["data"]["movement"] for e in closed] == [1, 2, 3, 4, 5]
    assert [e["data"]["intended_at"][11:19] for e in closed] == [
        "00:01:00",
        "00:02:00",
        "00:03:00",
        "00:04:00",
        "00:05:00",
    ]
    lifted = [item for item in matches.event_log(bad) if item["type"] == "QuarantineLifted"]
    assert lifted[0]["data"] == {"movement": 1, "by": "referee"}
    with pytest.raises(NotQuarantinedError):
        matches.retry(bad, referee)


@pytest.mark.usefixtures("fragile")
def test_orders_and_referee_actions_to_a_quarantined_match_are_refused_with_a_clear_error(
    matches: Matches, clock: ManualClock
) -> None:
    bad, referee = started(matches, "toy_fragile")
    token = matches.reissue_seat_token(bad, referee, 1).token
    for _ in range(3):
        sweep(matches, clock)
    with pytest.raises(MatchQuarantinedError, match="quarantined"):
        matches.submit_order(bad, token, "2")
    with pytest.raises(MatchQuarantinedError, match="quarantined"):  # not a 500 in the sweep
        matches.act(bad, referee, "grant", {"seat": 1, "points": 1}, "a mack")


@pytest.mark.usefixtures("fragile")
def test_a_failing_early_close_keeps_the_order_and_counts_the_failure(
    matches: Matches,
) -> None:
    new = matches.create_match("toy_fragile", {"close_early": True})
    tokens = [matches.join(new.match_id, name).token for name in ("alice", "bob")]
    matches.start(new.match_id, new.referee_token)
    matches.submit_order(new.match_id, tokens[0], "1")
    receipt = matches.submit_order(new.match_id, tokens[1], "2")  # ready: resolving fails
    assert receipt.closing is None
    assert len(matches.get_match(new.match_id).pending) == 2


@pytest.mark.usefixtures("fragile")
def test_drts_match_retry_lifts_the_quarantine(
    database_url: str, matches: Matches, clock: ManualClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad, referee = started(matches, "toy_fragile")
    for _ in range(3):
        sweep(matches, clock)
    monkeypatch.setenv("DRTS_DATABASE_URL", database_url)
    result = CliRunner().invoke(main, ["match", "retry", str(bad), "--referee-token", referee])
    assert result.exit_code == 0, result.output
    assert "movement 1 will be tried again" in result.output
    assert matches.summary(bad).quarantined is None
    again = CliRunner().invoke(main, ["match", "retry", str(bad), "--referee-token", referee])
    assert again.exit_code == 1 and "not_quarantined" in again.output
