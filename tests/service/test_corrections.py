"""Corrections and timelines (issue 19, docs/referee.md): the referee re-resolves a past
movement with changed orders; the later movements follow from the recorded inputs; the
old timeline stays in the log for audit. Through the Matches application on SQLite and
PostgreSQL."""

from __future__ import annotations

from typing import Any

import pytest

from domain.errors import DisputeAlreadyRuledError, InvalidActionError, MovementClosedError
from domain.match import Match
from service.errors import UnknownTimelineError
from service.matches import Matches
from tests.service.readmodel_support import snapshots
from tests.support.corrections import drts_match
from tests.support.draws import play_to_a_draw


def rebuilt_equals_followed(matches: Matches) -> bool:
    matches.read_models.catch_up()
    followed = snapshots(matches.read_models)
    for name in matches.read_models.projections:
        matches.read_models.rebuild(name)
    return snapshots(matches.read_models) == followed


def test_a_replaced_order_three_movements_back_re_resolves_the_later_ones(matches, clock):
    """Issue 19: seat 4's order of movement 2 replaced; movements 2 to 4 resolve again;
    its movement-3 order loses the part that no longer stands, its movement-4 order is
    refused, and movement 4 then waits for its deadline (the time rules)."""
    new, _ = drts_match(matches, clock)
    before = matches.get_match(new.match_id)
    assert before.movement == 5 and before.state["seats"]["4"]["pieces"]["water"] == 28
    clock.advance(3600)  # the correction comes an hour later: movement 4's deadline passed
    made = matches.correct(
        new.match_id,
        new.referee_token,
        2,
        [{"seat": 4, "order": "hold"}],
        "seat 4's receipt shows it sent hold",
    )
    assert made.timeline == 2 and made.superseded.last == before.version
    refused = {(r["type"], r["seat"], r["error"]) for r in made.refused}
    assert ("OrderSubmitted", 4, "refused_part") in refused
    assert ("OrderSubmitted", 4, "illegal_order") in refused
    part = next(r for r in made.refused if r["error"] == "refused_part")
    assert "water 16>22" in part["reason"] and "stands on 10" in part["reason"]
    match = matches.get_match(new.match_id)
    pieces = match.state["seats"]["4"]["pieces"]
    assert (pieces["water"], pieces["fire"]) == (10, 17)  # fire 11>17 stood
    assert match.timeline == 2 and match.movement > 4
    events = list(matches.events.get(new.match_id))
    corrected = next(e for e in events if isinstance(e, Match.Corrected))
    assert (corrected.superseded_from, corrected.superseded_to) == (
        made.superseded.first,
        made.superseded.last,
    )
    assert sum(isinstance(e, Match.MovementClosed) and e.movement == 2 for e in events) == 2
    report = matches.audit(new.match_id, new.referee_token)
    assert report.exact and [t.exact for t in report.timelines] == [True, True]
    assert report.timeline == 2
    assert matches.replay(new.match_id).agrees
    assert matches.verify_chain(new.match_id).ok
    assert rebuilt_equals_followed(matches)
    record = matches.movement(new.match_id, 3, new.referee_token)
    seat_4 = [o for o in record.orders if o.seat == 4]
    assert len(seat_4) == 1 and seat_4[0].order["operations"] == [
        {"op": "move", "piece": "fire", "from": 11, "to": 17}
    ]


def test_a_correction_turns_a_finished_draw_into_a_win_and_voids_its_rematch(matches, clock):
    new, _, last = play_to_a_draw(matches)
    rematch_id = last.closing.rematch_id
    assert rematch_id is not None
    matches.read_models.catch_up()
    drawn = {row["player"]: row for row in matches.standings(ruleset="district_war").items}
    assert drawn["bo"]["draws"] == 1
    made = matches.correct(
        new.match_id,
        new.referee_token,
        23,
        [{"seat": 2, "order": "c4"}],
        "bo's mail said c4; the service read d1",
    )
    assert str(made.voided_rematch) == str(rematch_id) and made.refused == ()
    match = matches.get_match(new.match_id)
    assert match.finished and match.outcome["winners"] == [2]
    assert match.outcome["result"] == "win" and match.rematch_id is None
    rematch = matches.get_match(rematch_id)
    assert rematch.voided is not None and not rematch.is_open()
    matches.read_models.catch_up()
    rows = {row["player"]: row for row in matches.standings(ruleset="district_war").items}
    assert (rows["bo"]["wins"], rows["bo"]["draws"], rows["ada"]["losses"]) == (1, 0, 1)
    listed = {item["match_id"]: item for item in matches.list_matches(limit=10).items}
    assert listed[str(rematch_id)]["status"] == "void"
    assert listed[str(new.match_id)]["result"] == "win"
    report = matches.audit(new.match_id)
    assert [t.exact for t in report.timelines] == [True, True]
    earlier = matches.audit(new.match_id, timeline=1)
    assert earlier.timeline == 1 and earlier.exact
    assert matches.verify_chain(new.match_id).ok
    assert rebuilt_equals_followed(matches)


def test_what_a_correction_refuses(matches, clock):
    new, _ = drts_match(matches, clock)
    referee = new.referee_token

    def correct(movement: int, changes: list[dict[str, Any]], reason: str = "why") -> Any:
        return matches.correct(new.match_id, referee, movement, changes, reason)

    with pytest.raises(MovementClosedError, match="has not been resolved"):
        correct(5, [{"seat": 4, "order": "hold"}])
    with pytest.raises(InvalidActionError, match="at least one"):
        correct(2, [])
    with pytest.raises(InvalidActionError, match="needs a reason"):
        correct(2, [{"seat": 4, "order": "hold"}], " ")
    with pytest.raises(InvalidActionError, match="each seat once"):
        correct(2, [{"seat": 4, "order": "hold"}, {"seat": 4, "order": None}])
    version = matches.get_match(new.match_id).version
    with pytest.raises(Exception, match="stands on"):  # an illegal replacement: nothing kept
        correct(3, [{"seat": 4, "order": "water 13>19"}])
    assert matches.get_match(new.match_id).version == version
    with pytest.raises(UnknownTimelineError):
        matches.audit(new.match_id, referee, timeline=2)


def test_corrections_on_corrections_keep_every_timeline_exact(matches, clock):
    """A correction in timeline 2, then one reaching back before it, then another: four
    timelines, each re-adjudicated exactly and replayed; the read models equal a rebuild."""
    new, _ = drts_match(matches, clock)
    referee = new.referee_token
    for movement, seat, order in ((3, 1, "plant 3>9"), (2, 4, "hold"), (3, 2, "fire 5>11")):
        clock.advance(50)
        matches.correct(new.match_id, referee, movement, [{"seat": seat, "order": order}], "x")
    report = matches.audit(new.match_id, referee)
    assert [(t.timeline, t.exact) for t in report.timelines] == [(n, True) for n in (1, 2, 3, 4)]
    for timeline in (1, 2, 3, 4):
        replay = matches.replay(new.match_id, timeline=timeline)
        assert replay.agrees and replay.timeline == timeline
    pieces = {s: matches.get_match(new.match_id).state["seats"][s]["pieces"] for s in "124"}
    assert (pieces["1"]["plant"], pieces["2"]["fire"], pieces["4"]["water"]) == (9, 11, 10)
    assert matches.verify_chain(new.match_id).ok
    assert rebuilt_equals_followed(matches)


def test_a_dispute_upheld_with_a_correction(matches, clock):
    """Issue 18/19: seat 4 disputes movement 2; the referee's correction rules on it
    (upheld, naming the Corrected event); a second ruling is refused."""
    new, tokens = drts_match(matches, clock)
    closed = next(
        e
        for e in matches.events.get(new.match_id)
        if isinstance(e, Match.MovementClosed) and e.movement == 2
    )
    number = matches.file_dispute(
        new.match_id, tokens[3], [closed.originator_version], "I sent hold, not water 10>16"
    )["dispute"]
    made = matches.correct(
        new.match_id,
        new.referee_token,
        2,
        [{"seat": 4, "order": "hold"}],
        "the receipt shows hold",
        dispute=number,
    )
    ruled = matches.dispute(new.match_id, number)
    assert (ruled["ruling"], ruled["correction"]) == ("upheld", made.version)
    assert {(r["seat"], r["error"]) for r in made.refused} >= {
        (4, "refused_part"),
        (4, "illegal_order"),
    }  # three movements back: the later orders of seat 4 no longer stand
    with pytest.raises(DisputeAlreadyRuledError):
        matches.correct(
            new.match_id, new.referee_token, 2, [{"seat": 4, "order": None}], "again", number
        )
    assert matches.get_match(new.match_id).timeline == 2  # the refused one recorded nothing
    assert rebuilt_equals_followed(matches)


def test_a_recorded_duplicate_message_is_played_again_as_it_was_taken(matches, clock):
    """A log may hold two pending orders of one forum post (taken before the intake named
    them duplicates): a correction's re-run plays both again, as recorded, instead of
    refusing the second as `duplicate_message` (only the intake asks)."""
    new = matches.create_match("toy_acc", seed="dup")
    tokens = [matches.join(new.match_id, name).token for name in ("alice", "bob")]
    matches.start(new.match_id, new.referee_token)
    matches.submit_order(new.match_id, tokens[0], "1")
    matches.submit_order(new.match_id, tokens[1], "2")  # movement 1 resolves
    match = matches.get_match(new.match_id)
    for salt in ("aa", "bb"):  # the two copies, as the desk stored them before the check
        clock.advance(1)
        match.submit_order(match.seats[0].token_hash, "3", salt, clock(), "forum", "p-1")
    matches.store.save(match)
    clock.advance(1)
    matches.submit_order(new.match_id, tokens[1], "1")  # movement 2 resolves

    made = matches.correct(
        new.match_id, new.referee_token, 1, [{"seat": 2, "order": "3"}], "bob sent 3"
    )

    assert not made.refused
    copies = [
        e
        for e in matches.event_log(new.match_id, new.referee_token)
        if e["type"] == "OrderSubmitted" and e["data"]["message_id"] == "p-1"
    ]
    assert len(copies) == 4  # two in each timeline
    report = matches.audit(new.match_id, new.referee_token)
    assert all(t.exact for t in report.timelines)


def test_every_movement_and_phase_of_a_corrected_match_reads_in_each_timeline(matches, clock):
    """Issue 40: after a correction the corrected movement's phases answered
    phases_diverged (its superseded resolution was taken for the stored one) and the
    earlier timeline's positions could not be asked for. In each timeline now, for every
    resolved movement, the state after its last phase, its record's state after and the
    replay's frame are one position, and the record's phases are those of /state."""
    new, _ = drts_match(matches, clock)
    referee = new.referee_token
    clock.advance(3600)
    matches.correct(new.match_id, referee, 2, [{"seat": 4, "order": "hold"}], "it sent hold")
    assert matches.state(new.match_id, 2, 1).phase_name  # answered phases_diverged
    for timeline in (1, 2):
        frames = matches.replay(new.match_id, referee, timeline=timeline).frames
        assert [f.movement for f in frames] == list(range(1, len(frames) + 1))
        for frame in frames:
            at = frame.movement
            record = matches.movement(new.match_id, at, referee, timeline=timeline)
            assert record.state_after == frame.state and record.state_hash == frame.state_hash
            assert record.phases is not None, record.phases_note
            last = len(record.phases)
            after = matches.state(new.match_id, at, last, referee, timeline=timeline)
            assert after.state == frame.state, (timeline, at)
            for phase, shown in enumerate(record.phases, start=1):
                view = matches.state(new.match_id, at, phase, referee, timeline=timeline)
                assert view.state == shown.state and view.phase_name == shown.name
            before = matches.state(new.match_id, at, 0, referee, timeline=timeline)
            assert before.state == record.state_before
            assert matches.display(new.match_id, at, timeline=timeline)
    first = matches.state(new.match_id, timeline=1).state["seats"]["4"]["pieces"]["water"]
    now = matches.state(new.match_id).state["seats"]["4"]["pieces"]["water"]
    assert (first, now) == (28, 10)  # timeline 1 as it ended; the current one
    assert matches.state(new.match_id, timeline=2) == matches.state(new.match_id)
    with pytest.raises(UnknownTimelineError):
        matches.state(new.match_id, timeline=3)


def test_what_the_match_page_shows_is_each_read_at_one_version(matches, clock):
    """Issue 47: `live` (the match page's one read) gives what `summary`, `state` and
    `display` give apart, for the current timeline and an earlier one of a corrected
    match, and refuses a timeline the match lacks as they do."""
    new, _ = drts_match(matches, clock)
    clock.advance(3600)
    matches.correct(new.match_id, new.referee_token, 2, [{"seat": 4, "order": "hold"}], "hold")
    for asked in (None, 1, 2):
        page = matches.live(new.match_id, asked)
        state = matches.state(new.match_id, timeline=asked)
        assert page.summary == matches.summary(new.match_id)
        assert page.shown == matches.summary(new.match_id, asked)
        assert (page.state, page.movement) == (state.state, state.movement)
        assert page.display == matches.display(new.match_id, timeline=asked)
    assert matches.live(new.match_id, 1).state != matches.live(new.match_id).state
    with pytest.raises(UnknownTimelineError):
        matches.live(new.match_id, 3)
