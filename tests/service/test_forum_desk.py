"""The forum desk on its own (service/channels/forum/, docs/forum.md): a post stored just before a
crash, whose row was never written, is found among the order events when sent again;
two copies of a post taken at once by two processes store one order; the received-time
bound; the code line of a signed post."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

from service.channels.forum import codes
from service.channels.forum.desk import ForumDesk, PostReply
from service.channels.forum.posts import Post, received_time
from service.matches import Matches
from service.settings import Settings

RECEIPT = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
DELAY = timedelta(seconds=120)


def started(matches) -> tuple[str, str, list[str]]:
    new = matches.create_match("toy", seed="forum")
    tokens = [matches.join(new.match_id, name).token for name in ("alice", "bob", "carol")]
    matches.start(new.match_id, str(new.referee_token))
    return new.match_id, str(new.referee_token), tokens


def test_a_post_stored_before_a_crash_is_found_in_the_log_and_its_code_stays_used(matches):
    match_id, _, tokens = started(matches)
    _, code = matches.forum_code(match_id, tokens[1])
    post = Post("bob", "p-1", None, f"1\ncode: {code}")
    first = matches.forum.receive(match_id, post, matches.clock())
    matches.read_models.view("match_list").execute("DELETE FROM {forum_posts}")  # the crash
    matches.read_models.view("match_list").execute(
        "UPDATE {forum_codes} SET post_key = NULL, used_at = NULL"  # claimed, then lost
    )

    again = matches.forum.receive(match_id, post, matches.clock())

    assert again.replayed and (again.outcome, again.seat) == ("accepted", 2)
    assert (again.digest, again.version) == (first.digest, first.version)
    assert "Digest:" in again.reply and again.received_at == first.received_at
    orders = [e for e in matches.event_log(match_id) if e["type"] == "OrderSubmitted"]
    assert len(orders) == 1
    other = matches.forum.receive(match_id, Post("eve", "p-2", None, f"2\ncode: {code}"), RECEIPT)
    assert other.code == "forum_code_used"


class GatedDesk(ForumDesk):
    """A desk whose look for a post seen before waits for the other desk's look: both copies
    of a post then pass it, as two API processes taking one post at the same instant."""

    def __init__(self, matches: Matches, gate: threading.Barrier) -> None:
        super().__init__(matches, DELAY)
        self.gate = gate

    def _first(self, match, key, post) -> PostReply | None:  # type: ignore[no-untyped-def]
        found = super()._first(match, key, post)
        self.gate.wait(timeout=30)
        return found


def test_two_copies_of_a_post_taken_at_once_by_two_processes_store_one_order(
    matches, database_url, clock
):
    # toy_acc accumulates orders: a second copy stored would be a second order
    new = matches.create_match("toy_acc", seed="forum")
    for name in ("alice", "bob"):
        matches.join(new.match_id, name)
    matches.start(new.match_id, str(new.referee_token))
    matches.map_forum_user(new.match_id, str(new.referee_token), "bob", 2)
    other = Matches(env=Settings(database_url).event_store_env(), clock=clock)
    gate = threading.Barrier(2)
    desks = [GatedDesk(matches, gate), GatedDesk(other, gate)]
    try:
        for post_id in ("p-1", "p-2", "p-3"):
            post = Post("bob", post_id, None, "1")
            with ThreadPoolExecutor(2) as pool:
                replies = [pool.submit(d.receive, new.match_id, post, clock()) for d in desks]
            replies = [reply.result() for reply in replies]

            stored = [
                e for e in matches.event_log(new.match_id) if e["data"].get("message_id") == post_id
            ]
            assert [e["type"] for e in stored] == ["OrderSubmitted"]
            assert sorted(r.replayed for r in replies) == [False, True]
            assert {(r.outcome, r.seat, r.digest, r.version) for r in replies} == {
                ("accepted", 2, stored[0]["data"]["digest"], stored[0]["version"])
            }
    finally:
        other.close()


def test_the_received_time_is_the_reported_time_within_the_bound():
    assert received_time(None, RECEIPT, DELAY) == RECEIPT
    assert received_time(RECEIPT - timedelta(seconds=5), RECEIPT, DELAY) == RECEIPT - timedelta(
        seconds=5
    )
    assert received_time(RECEIPT + timedelta(days=1), RECEIPT, DELAY) == RECEIPT
    assert received_time(RECEIPT - timedelta(days=1), RECEIPT, DELAY) == RECEIPT - DELAY


def test_the_first_code_line_signs_the_post_and_every_code_line_leaves_the_order():
    code = "abcdefghijklmnopqrstuvwxyz234567"
    body = f"R3 to 1,1\n  CODE: {code.upper()}  \ncode {'b' * 32}\npurchase"
    assert codes.signed(body) == ("R3 to 1,1\npurchase", code)
    assert codes.signed("code: too-short\n1") == ("code: too-short\n1", None)
