"""The Tournament's hash chain (issue 45): each link is SHA-256 of the previous one and
the canonical JSON of the event's body, from the tournament id, as a match's."""

from __future__ import annotations

from uuid import uuid4

from domain.integrity import event_body, genesis, next_chain
from domain.tournament.chain import first_broken_link, public_item
from tests.support.tournaments import T0, new_tournament


def events_of(tournament_id=None):  # type: ignore[no-untyped-def]
    tournament = new_tournament(players=("ann", "bob", "cat"), tournament_id=tournament_id)
    tournament.pair_round(1, [["ann", "bob"]], ["cat"], T0)
    return tournament, tournament.collect_events()


def test_the_first_link_chains_created_from_the_tournament_id() -> None:
    """chain(1) = SHA-256(str(id) || canonical JSON of Created's body)."""
    tournament_id = uuid4()
    _, events = events_of(tournament_id)
    item = public_item(events[0])
    body = event_body("Created", 1, T0, item["data"])
    assert events[0].chain == next_chain(genesis(tournament_id), body)


def test_an_untouched_log_verifies() -> None:
    """Every link recomputes; the sealed seed matches its commitment."""
    tournament, events = events_of()
    assert first_broken_link(tournament.id, [public_item(e, sealed=True) for e in events]) is None


def test_a_changed_pairing_breaks_its_link() -> None:
    """A bye moved in a stored RoundPaired is caught at that event."""
    tournament, events = events_of()
    items = [public_item(e) for e in events]
    items[4]["data"]["byes"] = ["ann"]
    broken = first_broken_link(tournament.id, items)
    assert broken is not None and (broken.version, broken.type) == (5, "RoundPaired")


def test_a_removed_event_breaks_the_version_sequence() -> None:
    """Dropping a registration is caught: the next event's version is not expected."""
    tournament, events = events_of()
    items = [public_item(e) for e in events]
    del items[2]
    broken = first_broken_link(tournament.id, items)
    assert broken is not None and broken.version == 3


def test_a_revealed_seed_must_match_the_commitment() -> None:
    """A SeedRevealed whose seed is not the committed one is caught, even re-chained."""
    tournament = new_tournament(players=("ann",))
    tournament.finish([], T0)
    tournament.reveal_seed(T0)
    items = [public_item(e) for e in tournament.collect_events()]
    items[-1]["data"]["seed"] = "another seed"
    previous = items[-2]["chain"]
    items[-1]["chain"] = next_chain(
        previous, {k: items[-1][k] for k in ("type", "version", "timestamp", "data")}
    )
    broken = first_broken_link(tournament.id, items)
    assert broken is not None and broken.reason == "the seed does not match the seed commitment"
