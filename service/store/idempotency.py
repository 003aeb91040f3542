"""Idempotency keys for create: a client's key points at the match its first create made,
so a retried create finds that match instead of making a second one."""

from __future__ import annotations

from uuid import NAMESPACE_URL, UUID, uuid5

from eventsourcing.application import AggregateNotFoundError, Repository
from eventsourcing.domain import Aggregate, event
from eventsourcing.utils import register_topic

IDEMPOTENCY_NAMESPACE = uuid5(NAMESPACE_URL, "https://drts/idempotency-keys")


class IdempotencyKey(Aggregate):
    """A client's idempotency key for create, pointing at the match it created."""

    class Created(Aggregate.Created):
        match_id: UUID

    @event(Created)
    def __init__(self, match_id: UUID) -> None:
        self.match_id = match_id

    @staticmethod
    def id_for(key: str) -> UUID:
        """Returns the aggregate id of a key (uuid5, so a retry finds it)."""
        return uuid5(IDEMPOTENCY_NAMESPACE, key)

    @classmethod
    def pointing_at(cls, key: str, match_id: UUID) -> IdempotencyKey:
        """Returns a new key (Created pending) pointing at `match_id`."""
        return cls._create(cls.Created, id=cls.id_for(key), match_id=match_id)


# Stored keys name the class where it was first defined (docs/contributing.md, rule 2).
# issue 44: the class moved twice; both of its earlier topics still name it
register_topic("service.matches:IdempotencyKey", IdempotencyKey)
register_topic("service.idempotency:IdempotencyKey", IdempotencyKey)


def keyed_match(repository: Repository[UUID], key: str) -> UUID | None:
    """Returns the match an idempotency key points at, or None for a key never used."""
    try:
        found: IdempotencyKey = repository.get(IdempotencyKey.id_for(key))
    except AggregateNotFoundError:
        return None
    return UUID(str(found.match_id))
