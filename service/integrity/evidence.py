"""Evidence held outside the database, checked against a match's log: heads and receipts
(docs/integrity.md, Heads and receipts), the heads the match list read model recorded,
the match's finish, and its snapshots.

A hash chain alone cannot show that the newest events were cut off, or that a log was
rewritten and every later link recomputed: only a later head, held by someone else,
can. Each check here returns Discrepancy values naming the evidence, what is wrong
(`kind`) and where, in words such as "the log ends at version 57, before the head at
version 61 that you hold".
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from uuid import UUID

from domain.errors import DrtsError
from domain.integrity import receipt_digest, sealed_order
from domain.rules.contract import JSON
from service.results import Discrepancy, Head

HEX64 = re.compile(r"^[0-9a-f]{64}$")
# What may follow a match's Finished event: referee, dispute and forum-mapping events
# (and the link to the rematch of a draw, DW-5), and the refusal of an order, which
# changes nothing (drts stored those before issue 40: stored matches are forever).
# Nothing else: a later move would change a settled outcome.
AFTER_FINISH = frozenset(
    {
        "OrderRejected",
        "SecretViewed",
        "RefereeActed",
        "ReplayLinked",
        "SeatTokenReissued",
        "DisputeFiled",
        "DisputeRuled",
        "ForumUserMapped",
        "Voided",
    }
)
READ_MODEL = "the match list read model"


class InvalidEvidenceError(DrtsError, ValueError):
    """Raised when a receipt or head given to verify is malformed or of another match."""

    code = "invalid_evidence"


@dataclass(frozen=True)
class Receipt:
    """A receipt a seat kept (FORMATS: the 201 body of POST /matches/{id}/orders), named
    by where it came from (`source`: its file, or its place in a request)."""

    source: str
    match_id: UUID
    seat: int
    movement: int
    digest: str
    version: int
    head: Head


@dataclass(frozen=True)
class HeldHead:
    """A head someone noted (from a result, a display, a state), named by its source."""

    source: str
    head: Head


@dataclass(frozen=True)
class Log:
    """A match's log as verify read it: its events in the public form with `sealed`."""

    items: Sequence[Mapping[str, JSON]]

    @property
    def last(self) -> int:
        """Returns the last version stored (0 for none)."""
        return int(self.items[-1]["version"]) if self.items else 0

    def at(self, version: int) -> Mapping[str, JSON] | None:
        """Returns the event stored at a version (None past the end or for a gap)."""
        if 1 <= version <= len(self.items):
            item = self.items[version - 1]
            if item.get("version") == version:
                return item
        return next((i for i in self.items if i.get("version") == version), None)


def head_from_text(text: str) -> Head:
    """Returns a head from its CLI spelling VERSION:CHAIN; raises InvalidEvidenceError."""
    version, _, chain = text.partition(":")
    if not (version.isascii() and version.isdigit() and 0 < int(version) < 2**62):
        raise InvalidEvidenceError(f"head {text!r}: VERSION must be a positive whole number")
    return head_from_json({"version": int(version), "chain": chain}, f"head {text!r}")


def head_from_json(data: object, source: str) -> Head:
    """Returns a head from its JSON form {"version", "chain"}; raises InvalidEvidenceError."""
    if not isinstance(data, Mapping):
        raise InvalidEvidenceError(f"{source}: a head is an object with version and chain")
    version, chain = data.get("version"), data.get("chain")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise InvalidEvidenceError(f"{source}: the head's version must be a positive integer")
    if not isinstance(chain, str) or not HEX64.match(chain):
        raise InvalidEvidenceError(f"{source}: the head's chain must be 64 lower-case hex digits")
    return Head(version, chain)


def receipt_from_json(data: object, source: str) -> Receipt:
    """Returns a receipt from its JSON form (fields not used are ignored); raises
    InvalidEvidenceError naming what is missing or wrong."""
    if not isinstance(data, Mapping):
        raise InvalidEvidenceError(f"{source}: a receipt is a JSON object")
    missing = [
        k for k in ("match_id", "seat", "movement", "digest", "version", "head") if k not in data
    ]
    if missing:
        raise InvalidEvidenceError(
            f"{source}: the receipt has no {', '.join(missing)} (receipts from before "
            "version and head were added prove their order only through the log)"
        )
    try:
        stated = UUID(str(data["match_id"]))
    except ValueError:
        raise InvalidEvidenceError(f"{source}: the receipt's match_id is not a match id") from None
    numbers = [data[k] for k in ("seat", "movement", "version")]
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in numbers):
        raise InvalidEvidenceError(f"{source}: seat, movement and version must be integers")
    digest = data["digest"]
    if not isinstance(digest, str) or not HEX64.match(digest):
        raise InvalidEvidenceError(f"{source}: the digest must be 64 lower-case hex digits")
    head = head_from_json(data["head"], source)
    seat, movement, version = (int(n) for n in numbers)
    return Receipt(source, stated, seat, movement, digest, version, head)


def check_head(log: Log, head: Head, source: str, holder: str = "you hold") -> list[Discrepancy]:
    """Returns what a head disagrees with: a log that ends before it (truncated) or holds
    another chain value at its version (rewritten)."""
    if head.version > log.last:
        message = (
            f"the log ends at version {log.last}, before the head at version {head.version} "
            f"that {holder} ({source})"
        )
        return [Discrepancy(source, "truncated", head.version, message)]
    item = log.at(head.version)
    if item is None or item.get("chain") != head.chain:
        whose = "the read model's" if source == READ_MODEL else f"the {_noun(source)}'s"
        message = f"at version {head.version} the log's chain differs from {whose} ({source})"
        return [Discrepancy(source, "rewritten", head.version, message)]
    return []


def check_receipt(log: Log, receipt: Receipt) -> list[Discrepancy]:
    """Returns what a receipt disagrees with: its head (check_head), the order stored at
    its version, and the order revealed for it (its salt and order must give its digest,
    and its movement's close must list it)."""
    found = check_head(log, receipt.head, receipt.source)
    version, source = receipt.version, receipt.source
    item = log.at(version)
    if item is None:
        message = (
            f"the log ends at version {log.last}, before the order at version {version} "
            f"that the receipt stands for ({source})"
        )
        return [*found, Discrepancy(source, "truncated", version, message)]
    data: Mapping[str, Any] = item.get("data") or {}
    stored = (item.get("type"), data.get("seat"), data.get("movement"), data.get("digest"))
    if stored != ("OrderSubmitted", receipt.seat, receipt.movement, receipt.digest):
        message = (
            f"at version {version} the log holds {item.get('type')} (seat {data.get('seat')}, "
            f"movement {data.get('movement')}), not the receipt's order of seat {receipt.seat} "
            f"in movement {receipt.movement} with digest {receipt.digest[:12]}... ({source})"
        )
        return [*found, Discrepancy(source, "rewritten", version, message)]
    return found + _revealed_problems(log, receipt, item)


def check_read_model(log: Log, row: Mapping[str, Any] | None) -> list[Discrepancy]:
    """Returns what the heads the match list read model recorded disagree with: its last
    head, and, for a finished match, the version and chain of its Finished event."""
    if row is None or row.get("head_version") is None:
        return []
    found = check_head(
        log,
        Head(int(row["head_version"]), str(row["head_chain"])),
        READ_MODEL,
        "the match list read model recorded",
    )
    found += _broken_log(row)
    finished = row.get("finished_version")
    if finished is None:
        return found
    item = log.at(int(finished))
    if item is None or item.get("type") != "Finished" or item.get("chain") != row["finished_chain"]:
        what = "ends before it" if item is None else f"holds {item.get('type')} there"
        if item is not None and item.get("type") == "Finished":
            what = "holds another Finished there (its chain differs)"
        message = (
            f"the match list read model recorded the match finished at version {finished}; "
            f"the log {what}"
        )
        found.append(Discrepancy(READ_MODEL, "finish", int(finished), message))
    return found


def _broken_log(row: Mapping[str, Any]) -> list[Discrepancy]:
    """Returns the broken log the match list quarantined the match for (its error
    "truncated: ..." or "rewritten: ...", service/readmodels/heads.py), if any."""
    kind, _, reason = str(row.get("quarantine") or "").partition(": ")
    if kind not in ("truncated", "rewritten"):
        return []  # none, or an event its tables refused: not a fault of the log
    message = f"the match list read model quarantined the match: {reason}"
    return [Discrepancy(READ_MODEL, kind, int(row["head_version"]), message)]


def check_finish(log: Log) -> list[Discrepancy]:
    """Returns the events that come after a Finished event and are neither referee nor
    dispute events nor refusals (AFTER_FINISH): a finished match is settled, until a correction
    (`Corrected`) starts a new timeline, which may finish again."""
    found, finished = [], None
    for item in log.items:
        kind, version = item.get("type"), int(item["version"])
        if finished is not None and kind not in AFTER_FINISH and kind != "Corrected":
            found.append(
                Discrepancy(
                    "the log",
                    "finish",
                    version,
                    f"event {version} ({kind}) comes after the match finished at version "
                    f"{finished}; only referee or dispute events may",
                )
            )
        if kind == "Finished" and finished is None:
            finished = version
        elif kind == "Corrected":
            finished = None
    return found


def check_all(
    match_id: UUID, log: Log, receipts: Iterable[Receipt], heads: Iterable[HeldHead]
) -> list[Discrepancy]:
    """Returns what every receipt and head given disagrees with in match `match_id`'s log
    (a receipt of another match is named as such, kind "other_match", and not checked)."""
    found: list[Discrepancy] = []
    for receipt in receipts:
        if receipt.match_id != match_id:
            message = (
                f"the receipt is of match {receipt.match_id}, not of match {match_id} "
                f"({receipt.source})"
            )
            found.append(Discrepancy(receipt.source, "other_match", receipt.version, message))
            continue
        found += check_receipt(log, receipt)
    for held in heads:
        found += check_head(log, held.head, held.source)
    return found


def _revealed_problems(log: Log, receipt: Receipt, item: Mapping[str, JSON]) -> list[Discrepancy]:
    sealed: Mapping[str, Any] = item.get("sealed") or {}
    source, found = receipt.source, []
    if "order" in sealed and receipt_digest(sealed["salt"], sealed_order(sealed)) != receipt.digest:
        message = (
            f"the order and salt revealed at version {receipt.version} do not give the "
            f"receipt's digest ({source})"
        )
        found.append(Discrepancy(source, "order", receipt.version, message))
    close = _own_close(log, receipt)
    if close is None:
        return found
    data: Mapping[str, Any] = close.get("data") or {}
    listed = [o for o in data.get("orders") or [] if o.get("digest") == receipt.digest]
    if not any(o.get("seat") == receipt.seat for o in listed):
        message = (
            f"movement {receipt.movement} closed at version {close['version']} without "
            f"the receipt's order of seat {receipt.seat} ({source})"
        )
        found.append(Discrepancy(source, "order", int(close["version"]), message))
    return found


def _own_close(log: Log, receipt: Receipt) -> Mapping[str, JSON] | None:
    """Returns the close of the receipt's movement in the receipt's own timeline: the
    first MovementClosed of that movement after the order, unless a correction came
    first (None then, as for a movement still open). A later timeline may close the
    movement again without the order: its Corrected event records the change (or the
    refusal), and the log stays honest (issue 41: the fuzz found every such receipt
    failing verify)."""
    for item in log.items:
        if int(item.get("version") or 0) <= receipt.version:
            continue
        data: Mapping[str, Any] = item.get("data") or {}
        if item.get("type") == "Corrected":
            return None
        if item.get("type") == "MovementClosed" and data.get("movement") == receipt.movement:
            return item
    return None


def _noun(source: str) -> str:
    return "receipt" if source.startswith("receipt") else "head"
