"""Verifying a tournament's hash chain (docs/tournaments.md, The audit): the same links as a
match's (domain/integrity.py), over the same public form of an event, `{"type",
"version", "timestamp", "data", "chain"}` and `"sealed"` where a seal is shown, from
the tournament id. The seed's seal and its reveal (`SeedRevealed`) must match the
commitment in Created."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from domain.integrity import BODY_KEYS, BrokenLink, commitment, genesis, jsonable, next_chain
from domain.rules.contract import JSON

METADATA = frozenset({"originator_id", "originator_version", "originator_topic", "timestamp"})


def public_item(domain_event: Any, sealed: bool = False) -> dict[str, JSON]:
    """Returns an event's public form (with its `sealed` part when `sealed` and it has
    one): what its chain link covers, and the link."""
    data = {
        key: value
        for key, value in vars(domain_event).items()
        if key not in METADATA and key not in ("chain", "sealed")
    }
    item: dict[str, JSON] = {
        "type": type(domain_event).__name__,
        "version": domain_event.originator_version,
        "timestamp": jsonable(domain_event.timestamp),
        "data": jsonable(data),
        "chain": domain_event.chain,
    }
    if sealed and getattr(domain_event, "sealed", None) is not None:
        item["sealed"] = jsonable(domain_event.sealed)
    return item


def first_broken_link(tournament_id: Any, items: Iterable[Mapping[str, JSON]]) -> BrokenLink | None:
    """Returns the first event of a tournament's listing that breaks the chain, or whose
    seed (sealed or revealed) does not match the commitment; None if sound."""
    previous, seed_commitment = genesis(tournament_id), None
    for expected, item in enumerate(items, 1):
        version, type_name = item.get("version"), str(item.get("type"))
        if version != expected:
            return BrokenLink(expected, type_name, f"expected version {expected}, found {version}")
        chain = next_chain(previous, {key: item.get(key) for key in BODY_KEYS})
        if chain != item.get("chain"):
            return BrokenLink(
                expected,
                type_name,
                f"chain mismatch: recomputed {chain}, stored {item.get('chain')}",
            )
        data, sealed = item.get("data") or {}, item.get("sealed") or {}
        seed_commitment = data.get("seed_commitment", seed_commitment)
        for seed in (sealed.get("seed"), data.get("seed") if type_name == "SeedRevealed" else None):
            if seed is not None and commitment(str(seed)) != seed_commitment:
                return BrokenLink(
                    expected, type_name, "the seed does not match the seed commitment"
                )
        previous = chain
    return None
