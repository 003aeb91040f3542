"""Integrity of a match's event log: the hash chain, receipt digests, commitments.

docs/integrity.md states these definitions for outside tools; this module is
the reference implementation, and `first_broken_link` verifies exactly the
public JSON form of the events that the service lists.

- The public form of an event is `{"type", "version", "timestamp", "data",
  "chain"}` and, once revealed, `"sealed"`.
- Its body is the same object without `chain` and `sealed`.
- `chain(v) = SHA-256(ascii(chain(v-1)) || canonical_json(body(v)))` in
  lower-case hex, with `chain(0)` = the match id as `str(UUID)`.
- An event whose data holds `state` and `state_hash` must satisfy
  `state_hash = SHA-256(canonical_json(state))`.
- A sealed value is bound by a digest in its event's data: an order by
  `digest = SHA-256(ascii(salt) || canonical_json(covered))`, where `covered` is
  `{"order": parsed, "sent": as sent}` for an order kept as sent (issue 17), the
  parsed order alone for one stored before, and `{"order": as sent, "reason": why
  refused}` for a refused order (`sealed_order`, `revealed_order`); the seed by
  `seed_commitment = SHA-256(utf8(seed))`; the orders revealed by
  MovementClosed and the seed revealed by Finished must match the same way.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from uuid import UUID

from domain.rules.contract import JSON

BODY_KEYS = ("type", "version", "timestamp", "data")


@dataclass(frozen=True)
class BrokenLink:
    """The first event of a log that fails verification, and why."""

    version: int
    type: str
    reason: str


# the types `normalized` and `jsonable` return as they are, checked first by exact type
# (subclasses, such as a str Enum, take the general path, which returns them as they are)
_SCALARS = frozenset({str, int, float, bool, type(None)})


def normalized(value: object) -> JSON:
    """Returns a value as it comes back from the event store (tuples as lists)."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    # a scalar inside is kept without a call of its own: most of an event's values are
    # (issue 46: a resolution's state holds hundreds)
    if kind is dict:
        return {
            (k if type(k) is str else _key(k)): (v if type(v) in _SCALARS else normalized(v))
            for k, v in value.items()  # type: ignore[attr-defined]
        }
    if kind is list or kind is tuple:
        return [v if type(v) in _SCALARS else normalized(v) for v in value]  # type: ignore[attr-defined]
    if isinstance(value, Mapping):
        return {_key(k): normalized(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [normalized(v) for v in value]
    if isinstance(value, datetime | UUID | str | int | float) or value is None:
        return value
    raise TypeError(f"not JSON-native: {value!r} ({type(value).__name__})")


def jsonable(value: object) -> JSON:
    """Returns the JSON form used for hashing: datetimes as ISO 8601, UUIDs as strings."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is dict:  # scalars inside kept without a call, as in `normalized`
        return {
            (k if type(k) is str else _key(k)): (v if type(v) in _SCALARS else jsonable(v))
            for k, v in value.items()  # type: ignore[attr-defined]
        }
    if kind is list or kind is tuple:
        return [v if type(v) in _SCALARS else jsonable(v) for v in value]  # type: ignore[attr-defined]
    if isinstance(value, datetime):
        return iso(value)
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, Mapping):
        return {_key(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value


def iso(moment: datetime) -> str:
    """Returns an aware UTC instant as `datetime.isoformat()` (e.g. 2026-01-01T00:00:00+00:00)."""
    if moment.tzinfo is UTC:  # what the store decodes and the clocks give: no offset to check
        return moment.isoformat()
    if moment.tzinfo is None or moment.utcoffset() != UTC.utcoffset(moment):
        raise ValueError(f"times must be aware UTC instants, got {moment!r}")
    return moment.isoformat()


def native_form(value: object) -> JSON:
    """Encodes what `jsonable` converts and the JSON encoder does not know (the encoder's
    `default`): a datetime as `iso`, a UUID as its string, any other Mapping as a dict."""
    if isinstance(value, datetime):
        return iso(value)
    if isinstance(value, UUID):
        return str(value)
    if isinstance(value, Mapping):
        return dict(value)
    raise TypeError(f"not JSON-native: {value!r} ({type(value).__name__})")


# one encoder for every hash (json.dumps with options builds a new one a call); no check
# for circular values: an event's data is a tree (`normalized` and JSON give no cycles)
_CANONICAL = json.JSONEncoder(
    sort_keys=True,
    separators=(",", ":"),
    ensure_ascii=False,
    allow_nan=False,
    check_circular=False,
    default=native_form,
)


Encode = Callable[[object], bytes]  # a value's canonical bytes (`canonical`'s)


def canonical(value: object) -> bytes:
    """Returns `canonical_json(jsonable(value))` in one pass of the C encoder, without
    building the JSON form first: a hash over a stored or a new event need not walk its
    data twice (issue 46). The same bytes as `canonical_json` for a JSON value."""
    return _CANONICAL.encode(value).encode()


def event_body(
    type_name: str, version: int, timestamp: datetime, data: Mapping[str, object]
) -> JSON:
    """Returns the body of an event: what its chain link hashes."""
    return {
        "type": type_name,
        "version": version,
        "timestamp": iso(timestamp),
        "data": jsonable(data),
    }


def genesis(match_id: UUID) -> str:
    """Returns the chain value before a match's first event: its id as `str(UUID)`."""
    return str(match_id)


def next_chain(previous: str, body: object, encode: Encode = canonical) -> str:
    """Returns the chain of an event from the previous chain and the event's body (its
    values may still be datetimes and UUIDs: they are hashed in their JSON form).
    `encode` gives `canonical`'s bytes (a faster encoder of the same bytes for some values)."""
    return hashlib.sha256(previous.encode("ascii") + encode(body)).hexdigest()


def chain_link(
    previous: str, type_name: str, version: int, timestamp: datetime, data: Mapping[str, object]
) -> str:
    """Returns the chain of a new event: `next_chain(previous, event_body(...))` without
    building its JSON body first."""
    body = {"type": type_name, "version": version, "timestamp": iso(timestamp), "data": data}
    return next_chain(previous, body)


def receipt_digest(salt: str, order: object, encode: Encode = canonical) -> str:
    """Returns the receipt digest of an order: SHA-256 of the salt then the canonical order
    (`encode`: as `next_chain`)."""
    return hashlib.sha256(salt.encode("ascii") + encode(order)).hexdigest()


def commitment(secret: str) -> str:
    """Returns the SHA-256 hex digest of a secret's UTF-8 bytes (seed commitment, token hash)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def first_broken_link(
    match_id: UUID,
    items: Iterable[Mapping[str, JSON]],
    after: tuple[int, str, str | None] | None = None,
    encode: Encode = canonical,
) -> BrokenLink | None:
    """Returns the first event of a listing that breaks the chain or a seal; None if sound.

    `after` = (version, chain, seed commitment) checks a listing that goes on from a
    known point (the events after a trusted snapshot) instead of from the first event.
    `encode` gives `canonical`'s bytes of each body (the store's faster encoder of its own
    decoded events: service/store/canonical.py).
    """
    first, previous, seed_commitment = after or (0, genesis(match_id), None)
    for expected, item in enumerate(items, first + 1):
        version, type_name = item.get("version"), str(item.get("type"))
        if version != expected:
            return BrokenLink(expected, type_name, f"expected version {expected}, found {version}")
        chain = next_chain(previous, {key: item.get(key) for key in BODY_KEYS}, encode)
        if chain != item.get("chain"):
            return BrokenLink(
                expected,
                type_name,
                f"chain mismatch: recomputed {chain}, stored {item.get('chain')}",
            )
        data = item.get("data") or {}
        seed_commitment = data.get("seed_commitment", seed_commitment)
        problem = content_problem(item, encode)
        if type_name == "Finished" and commitment(str(data.get("seed"))) != seed_commitment:
            problem = "the revealed seed does not match the seed commitment"
        if problem:
            return BrokenLink(expected, type_name, problem)
        previous = chain
    return None


def content_problem(item: Mapping[str, JSON], encode: Encode = canonical) -> str | None:
    """Returns why an event contradicts itself (a seal or a state hash); None if it does not.
    `encode`: as `next_chain`."""
    sealed, data = item.get("sealed") or {}, item.get("data") or {}
    if "state_hash" in data and _state_hash(data.get("state"), encode) != data["state_hash"]:
        return "the state does not match its state_hash"
    if "seed" in sealed and commitment(sealed["seed"]) != data.get("seed_commitment"):
        return "the sealed seed does not match the seed commitment"
    if "order" in sealed and receipt_digest(
        sealed["salt"], sealed_order(sealed), encode
    ) != data.get("digest"):
        return "the sealed order and salt do not match the receipt digest"
    for order in data.get("orders") or []:
        if receipt_digest(order["salt"], revealed_order(order), encode) != order["digest"]:
            return f"the revealed order of seat {order['seat']} does not match its digest"
    return None


def _state_hash(state: object, encode: Encode = canonical) -> str:
    """contract.state_hash of a state that may be in an event's data as decoded."""
    return hashlib.sha256(encode(state)).hexdigest()


def sealed_order(sealed: Mapping[str, JSON]) -> JSON:
    """Returns what a sealed order's digest covers: the order as sent with the reason it
    was refused, `{"order", "reason"}` (OrderRejected); else as `revealed_order`
    (OrderSubmitted: `{"order", "sent"}`, or the parsed order alone before issue 17)."""
    if "reason" in sealed:
        return {"order": sealed["order"], "reason": sealed["reason"]}
    return revealed_order(sealed)


def revealed_order(entry: Mapping[str, JSON]) -> JSON:
    """Returns what an accepted order's digest covers, from its sealed part or its entry
    in MovementClosed's `orders`: `{"order": parsed, "sent": as sent}` when the order was
    kept as sent (issue 17), the parsed order alone for one stored before (no "sent")."""
    if "sent" in entry:
        return {"order": entry["order"], "sent": entry["sent"]}
    return entry["order"]


def order_seal(order: JSON, sent: JSON, salt: str) -> tuple[str, dict[str, JSON]]:
    """Returns the receipt digest and the sealed part of a new accepted order: `order` its
    parsed JSON form, `sent` the order exactly as the seat sent it (text or JSON object)."""
    sealed: dict[str, JSON] = {"order": order, "sent": sent, "salt": salt}
    return receipt_digest(salt, sealed_order(sealed)), sealed


def refusal_seal(sent: JSON, reason: str, salt: str) -> tuple[str, dict[str, JSON]]:
    """Returns the digest and the sealed part of a refused order: the order as sent and
    the reason it was refused, `{"order", "reason", "salt"}`."""
    sealed: dict[str, JSON] = {"order": sent, "reason": reason, "salt": salt}
    return receipt_digest(salt, sealed_order(sealed)), sealed


def _key(key: object) -> str:
    if not isinstance(key, str):
        raise TypeError(f"object keys must be strings, got {key!r}")
    return key
