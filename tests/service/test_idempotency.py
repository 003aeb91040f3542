"""Idempotency keys moved from service/matches.py to service/store/idempotency.py: keys stored
under the old topic still load (docs/contributing.md, rule 2)."""

from __future__ import annotations

from eventsourcing.utils import get_topic, resolve_topic
from sqlalchemy import text

from service import schema
from service.settings import Settings
from service.store.idempotency import IdempotencyKey


def test_the_old_topic_of_a_key_resolves_to_the_moved_class():
    assert resolve_topic("service.matches:IdempotencyKey") is IdempotencyKey
    assert resolve_topic("service.matches:IdempotencyKey.Created") is IdempotencyKey.Created


def test_a_key_stored_under_its_old_topic_still_finds_its_match(matches, database_url):
    first = matches.create_match("toy", idempotency_key="retry-me")
    new_topic = get_topic(IdempotencyKey.Created)
    table = "stored_events" if database_url.startswith("sqlite") else "matches_events"
    engine = schema.make_engine(Settings(database_url))
    with engine.begin() as connection:  # as a key stored before the class moved
        done = connection.execute(
            text(f"UPDATE {table} SET topic = :old WHERE topic = :new"),
            {"old": "service.matches:IdempotencyKey.Created", "new": new_topic},
        )
    engine.dispose()
    assert done.rowcount == 1
    again = matches.create_match("toy", idempotency_key="retry-me")
    assert (again.match_id, again.created) == (first.match_id, False)
