"""Tokens and listings of the Matches application: reissued seat tokens, the operator
token, the match list, event pages and their long poll, the open orders."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from domain.errors import InvalidTokenError, NotASeatError, NotRefereeError, NotYourSeatError
from service.errors import InvalidCursorError, MissingTokenError
from service.matches import Matches
from service.settings import Settings

OPERATOR = "operator-token"


@pytest.fixture
def matches(database_url: str, clock: Any, toy_rulesets: None) -> Iterator[Matches]:
    """The Matches application with an operator token, on the test's store."""
    app = Matches(
        env=Settings(database_url).event_store_env(), clock=clock, operator_token=OPERATOR
    )
    yield app
    app.close()


def started(matches: Matches, **options: Any) -> tuple[Any, Any, Any]:
    new = matches.create_match("toy", options, seed="test-seed")
    alice, bob = matches.join(new.match_id, "alice"), matches.join(new.match_id, "bob")
    matches.start(new.match_id, new.referee_token)
    return new, alice, bob


def types(matches: Matches, match_id: Any) -> list[str]:
    return [item["type"] for item in matches.event_log(match_id)]


def test_a_reissued_seat_token_replaces_the_lost_one(matches):
    new, alice, _ = started(matches)
    fresh = matches.reissue_seat_token(new.match_id, new.referee_token, 1)
    assert fresh.seat == 1 and fresh.token != alice.token
    with pytest.raises(InvalidTokenError):
        matches.submit_order(new.match_id, alice.token, "2")
    assert matches.submit_order(new.match_id, fresh.token, "2").seat == 1
    assert "SeatTokenReissued" in types(matches, new.match_id)
    assert matches.verify_chain(new.match_id).ok


def test_the_operator_token_acts_as_referee_on_every_match(matches):
    new = matches.create_match("toy", {})
    matches.join(new.match_id, "alice")
    matches.join(new.match_id, "bob")
    matches.start(new.match_id, OPERATOR)
    assert matches.summary(new.match_id).status == "started"
    matches.reissue_seat_token(new.match_id, OPERATOR, 2)
    assert matches.referee_seed(new.match_id, OPERATOR)
    viewed = [i for i in matches.event_log(new.match_id) if i["type"] == "SecretViewed"]
    assert viewed[-1]["data"] == {"viewer": "operator", "what": "seed"}


def test_the_operator_and_the_referee_hold_no_seat(matches):
    new, _, _ = started(matches)
    with pytest.raises(NotASeatError):
        matches.submit_order(new.match_id, OPERATOR, "1")
    with pytest.raises(NotASeatError):
        matches.submit_order(new.match_id, new.referee_token, "1")


def test_missing_and_wrong_tokens_are_told_apart(matches):
    new, alice, _ = started(matches)
    with pytest.raises(MissingTokenError):
        matches.submit_order(new.match_id, None, "1")
    with pytest.raises(MissingTokenError):
        matches.reissue_seat_token(new.match_id, None, 1)
    with pytest.raises(NotRefereeError):
        matches.reissue_seat_token(new.match_id, alice.token, 1)
    with pytest.raises(InvalidTokenError):
        matches.event_log(new.match_id, "not-a-token")


def test_a_seat_sees_its_own_open_orders_and_the_referee_sees_all_on_record(matches):
    new, alice, bob = started(matches)
    matches.submit_order(new.match_id, alice.token, "3")
    own = matches.pending_orders(new.match_id, alice.token)
    assert [(o["seat"], o["order"]) for o in own] == [(1, {"pick": 3})]
    assert matches.pending_orders(new.match_id, bob.token) == []
    assert "SecretViewed" not in types(matches, new.match_id)
    assert len(matches.pending_orders(new.match_id, new.referee_token)) == 1
    assert types(matches, new.match_id)[-1] == "SecretViewed"


def test_a_seat_sees_only_its_own_view_and_the_referee_any(matches):
    new, alice, _ = started(matches)
    assert matches.state(new.match_id, token=alice.token, seat=1).state["round"] == 1
    with pytest.raises(NotYourSeatError):
        matches.state(new.match_id, token=alice.token, seat=2)
    with pytest.raises(NotYourSeatError):
        matches.state(new.match_id, seat=2)
    assert matches.state(new.match_id, token=new.referee_token, seat=2).state


def test_matches_are_listed_by_page_and_filtered_by_ruleset_and_status(matches):
    made = [matches.create_match("toy", {}).match_id for _ in range(5)]
    matches.create_match("district_war", {})
    started(matches)
    first = matches.list_matches(ruleset="toy", status="open", limit=2)
    assert [item["match_id"] for item in first.items] == [str(m) for m in made[:2]]
    rest = matches.list_matches(ruleset="toy", status="open", limit=10, cursor=first.next)
    assert [item["match_id"] for item in rest.items] == [str(m) for m in made[2:]]
    assert rest.next is None
    assert [i["status"] for i in matches.list_matches(status="started").items] == ["started"]
    assert len(matches.list_matches(ruleset="district_war").items) == 1
    with pytest.raises(InvalidCursorError):
        matches.list_matches(cursor="-1")


def test_events_come_in_pages_after_a_version(matches):
    new, _, _ = started(matches)
    page = matches.event_page(new.match_id, after=0, limit=2)
    assert [i["version"] for i in page.items] == [1, 2] and page.next == 2
    rest = matches.event_page(new.match_id, after=page.next, limit=100)
    assert rest.items[0]["version"] == 3 and rest.next is None
    assert rest.version == rest.items[-1]["version"]


def test_a_long_poll_returns_as_soon_as_an_order_arrives(matches):
    new, alice, _ = started(matches)
    head = matches.event_page(new.match_id).version
    sender = threading.Timer(0.3, matches.submit_order, (new.match_id, alice.token, "2"))
    began = time.monotonic()
    sender.start()
    page = matches.event_page(new.match_id, after=head, wait=10)
    sender.join()
    assert time.monotonic() - began < 5
    assert page.items[0]["type"] == "OrderSubmitted" and "sealed" not in page.items[0]


def test_a_long_poll_with_nothing_new_returns_empty_when_the_wait_ends(matches):
    new, _, _ = started(matches)
    head = matches.event_page(new.match_id).version
    began = time.monotonic()
    page = matches.event_page(new.match_id, after=head, wait=0.3)
    assert page.items == [] and page.next is None and page.version == head
    assert 0.3 <= time.monotonic() - began < 3
