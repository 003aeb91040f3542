"""Loading a match from its stored rows, checked, so that a tampered log is named and
never served (docs/integrity.md, What the service checks by itself).

- Every row read is decoded here: one that does not decode is a TamperedLogError
  naming its version, never a 500.
- The events folded must be consecutive, each chain link must follow from the one
  before, each seal and state hash must hold, and each event must apply; else a
  TamperedLogError names the first that fails.
- A snapshot is used only when its chain equals the stored event's chain at its
  version AND this process has checked it against the events: folding the events
  up to its version gives the same aggregate. The check is made once per stored
  snapshot (its row's bytes are remembered by their SHA-256); a snapshot that fails
  it is logged and never used: the match then loads from its events.
- A load whose latest snapshot is not trusted folds from the nearest snapshot below
  it that is (from the first event when none is, or when that one's chain is no
  longer the log's), checking every untrusted snapshot on the way: reading each past
  state once in a fresh process folds each event about once, not once per snapshot
  (issue 30). An edit below a snapshot this process checked is therefore found by
  verify, a replay, the event log or a process that has not checked it, not by this
  load (docs/integrity.md).
"""

from __future__ import annotations

import bisect
import hashlib
import logging
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol
from uuid import UUID

from eventsourcing.persistence import ApplicationRecorder, EventStore, Mapper, StoredEvent

from domain.integrity import first_broken_link
from domain.match import Match
from service.errors import MatchNotFoundError, TamperedLogError
from service.eventjson import checked_item
from service.store.canonical import chain_encoder

if TYPE_CHECKING:
    from service.readmodels.runner import ReadModels

logger = logging.getLogger(__name__)
TRUSTED_SNAPSHOTS = 20_000  # snapshots remembered as checked, per process
# Attributes a snapshot of an older shape cannot know: its upcast fills them with a
# stand-in (domain/match/values.py), so they are not compared. {shape: attributes}
UNKNOWN_BEFORE_SHAPE = {3: frozenset({"closed_at"})}
NOT_COMPARED = frozenset({"_pending_events"})
# reads a match's rows as the recorder's `select_events(id, gt=, lte=, limit=)` does
Select = Callable[..., Sequence[StoredEvent]]


class StoreParts(Protocol):
    """What loading, the fast-forward (service/store/fastforward.py) and the log guard
    (service/store/logguard.py) read of the store: service/store/application.py's
    MatchStore is one. The
    helpers name this, never the store, so that they sit below it (issue 44)."""

    recorder: ApplicationRecorder
    mapper: Mapper[UUID]
    snapshots: EventStore[UUID] | None
    snapshot_trust: SnapshotTrust

    @property
    def read_models(self) -> ReadModels:
        """The store's read models (opened on first use)."""


class SnapshotTrust:
    """The stored snapshots this process has checked against the events, by (match id,
    version) and the SHA-256 of the stored row (an edited row is a new, unchecked one)."""

    def __init__(self, size: int = TRUSTED_SNAPSHOTS) -> None:
        self._known: OrderedDict[tuple[UUID, int], str] = OrderedDict()
        self._lock = threading.Lock()
        self._size = size

    def trusted(self, stored: StoredEvent) -> bool:
        """Returns whether this exact stored snapshot was checked."""
        key = (UUID(str(stored.originator_id)), stored.originator_version)
        with self._lock:
            return self._known.get(key) == row_digest(stored)

    def trust(self, stored: StoredEvent) -> None:
        """Remembers a stored snapshot as checked (the oldest is forgotten past the size)."""
        key = (UUID(str(stored.originator_id)), stored.originator_version)
        with self._lock:
            self._known[key] = row_digest(stored)
            self._known.move_to_end(key)
            while len(self._known) > self._size:
                self._known.popitem(last=False)


def row_digest(stored: StoredEvent) -> str:
    """Returns the SHA-256 of a stored row's bytes (its state, as stored)."""
    return hashlib.sha256(bytes(stored.state)).hexdigest()


def decoded(app: StoreParts, stored: StoredEvent) -> Any:
    """Returns the domain event (or snapshot) of a stored row; raises TamperedLogError
    naming the row when it does not decode."""
    try:
        return app.mapper.to_domain_event(stored)
    except Exception as error:  # an edited row may not even decompress
        raise TamperedLogError(
            stored.originator_id,
            stored.originator_version,
            stored.topic.rpartition(".")[2] or stored.topic,
            f"cannot be read: {type(error).__name__}: {error}",
        ) from None


def checked_events(
    app: StoreParts,
    match_id: UUID,
    after: tuple[int, str, str | None] | None = None,
    upto: int | None = None,
    limit: int | None = None,
    select: Select | None = None,
) -> list[Any]:
    """Returns the stored events after `after` = (version, its chain, the seed commitment)
    (from the first event for None), up to version `upto`, at most `limit`: decoded and
    checked (consecutive versions, chain links, seals); raises TamperedLogError. `select`
    reads the rows in place of the recorder (a command's guard: service/store/logguard.py)."""
    gt = None if after is None else after[0]
    rows = (select or app.recorder.select_events)(match_id, gt=gt or None, lte=upto, limit=limit)
    return checked_rows(app, match_id, rows, after)


def checked_rows(
    app: StoreParts,
    match_id: UUID,
    rows: Sequence[StoredEvent],
    after: tuple[int, str, str | None] | None = None,
) -> list[Any]:
    """Returns the match's rows stored after `after` (as `checked_events` reads them),
    decoded and checked the same way; raises TamperedLogError."""
    events = [decoded(app, row) for row in rows]
    # one public form at a time, not a list of them: a long log's would all stay alive,
    # and the garbage collector's full passes over them made a replay superlinear (#46)
    items = (checked_item(event, with_sealed=True) for event in events)
    broken = first_broken_link(match_id, items, after, chain_encoder(app.mapper))
    if broken is not None:
        raise TamperedLogError(match_id, broken.version, broken.type, broken.reason)
    return events


def fold_checked(
    app: StoreParts,
    match_id: UUID,
    rows: Sequence[StoredEvent],
    take: Callable[[Any], None],
) -> None:
    """Decodes and checks a match's rows from its first, as `checked_rows` does, handing
    each event to `take` as soon as it is checked so far, instead of returning them all:
    a whole log's decoded events alive at once made the garbage collector's full passes,
    and so a long match's replay, superlinear (issue 46). Raises what `checked_rows`
    then `take` on each event in turn would: a row that does not decode, else a broken
    link, else the first error `take` raised (after which it is not called again)."""
    failure: list[BaseException] = []

    def items() -> Iterator[dict[str, Any]]:
        for row in rows:
            event = decoded(app, row)
            yield checked_item(event, with_sealed=True)
            if not failure:
                try:
                    take(event)
                except Exception as error:
                    failure.append(error)

    stream = items()
    broken = first_broken_link(match_id, stream, encode=chain_encoder(app.mapper))
    if broken is not None:
        failure.append(TamperedLogError(match_id, broken.version, broken.type, broken.reason))
        for _ in stream:  # a later row that does not decode is named first, as before
            pass
        raise failure[-1]
    if failure:
        raise failure[0]


def fold(match_id: UUID, events: list[Any], match: Match | None = None) -> Match | None:
    """Applies events to a match (None: from nothing); raises TamperedLogError naming the
    first event that does not apply."""
    for event in events:
        try:
            match = event.mutate(match)
        except Exception as error:
            raise TamperedLogError(
                match_id,
                event.originator_version,
                type(event).__name__,
                f"does not apply: {type(error).__name__}: {error}",
            ) from None
    return match


def load(
    app: StoreParts, match_id: UUID, version: int | None = None, select: Select | None = None
) -> Match:
    """Returns the match (at `version` if given) from its stored rows, checked (module
    docstring); raises MatchNotFoundError or TamperedLogError. `select` reads the events
    folded last (those after the snapshot used) in place of the recorder."""
    stored = _latest_snapshot(app, match_id, version)
    match = None if stored is None else _from_trusted(app, match_id, stored, version, select)
    if match is None:
        match = _from_checked(app, match_id, version, stored, select)
    if not isinstance(match, Match):
        raise MatchNotFoundError(f"no match with id {str(match_id)!r}")
    return match


def snapshot_differences(snapshot: Any, folded: Match) -> list[str]:
    """Returns the attributes in which a snapshot's match differs from the match folded
    from the events up to its version (empty: it agrees). Raises what decoding raises."""
    shape = snapshot.state.get("class_version", 1)
    from_snapshot = snapshot.mutate(None)
    ignored: set[str] = set(NOT_COMPARED)
    for newer, unknown in UNKNOWN_BEFORE_SHAPE.items():
        if shape < newer:
            ignored |= unknown
    mine, theirs = vars(from_snapshot), vars(folded)
    compared = (set(mine) | set(theirs)) - ignored
    return sorted(
        name.lstrip("_")
        for name in compared
        if mine.get(name, _MISSING) != theirs.get(name, _MISSING)
    )


_MISSING = object()


def _latest_snapshot(app: StoreParts, match_id: UUID, version: int | None) -> StoredEvent | None:
    if app.snapshots is None:
        return None
    rows = app.snapshots.recorder.select_events(match_id, lte=version, desc=True, limit=1)
    return rows[0] if rows else None


def _from_trusted(
    app: StoreParts,
    match_id: UUID,
    stored: StoredEvent,
    version: int | None,
    select: Select | None,
) -> Match | None:
    """Returns the match from a snapshot this process checked whose chain is still the
    stored event's at its version; None when the snapshot may not be used."""
    start = _trusted_start(app, match_id, stored)
    return None if start is None else _folded_on(app, match_id, start, [], version, select)


def _trusted_start(app: StoreParts, match_id: UUID, stored: StoredEvent) -> Match | None:
    """Returns the match of a snapshot this process checked, if its chain is still the
    stored event's at its version; None (logged if the chains differ) if not."""
    if not app.snapshot_trust.trusted(stored):
        return None
    try:
        start: Match = decoded(app, stored).mutate(None)
    except Exception:
        return None
    at = stored.originator_version
    anchor = app.recorder.select_events(match_id, gt=at - 1, lte=at)
    if not anchor or decoded(app, anchor[0]).chain != start.chain:
        logger.error("snapshot %s of match %s: its chain is not the log's; not used", at, match_id)
        return None
    return start


def _from_checked(
    app: StoreParts,
    match_id: UUID,
    version: int | None,
    stored: StoredEvent | None,
    select: Select | None,
) -> Match | None:
    """Returns the match folded from the nearest snapshot below `stored` this process
    trusts (from the first event when there is none, or it may not be used); checks
    `stored` and the untrusted snapshots between on the way (module docstring)."""
    unchecked, base = ([], None) if stored is None else _untrusted_run(app, match_id, stored)
    start = None if base is None else _trusted_start(app, match_id, base)
    return _folded_on(app, match_id, start, unchecked, version, select)


def _untrusted_run(
    app: StoreParts, match_id: UUID, stored: StoredEvent
) -> tuple[list[StoredEvent], StoredEvent | None]:
    """Returns `stored` and the snapshots below it down to the nearest one this process
    trusts, oldest first, and that trusted one (None: none is), one query a snapshot."""
    run = [stored]
    below = _latest_snapshot(app, match_id, stored.originator_version - 1)
    while below is not None and not app.snapshot_trust.trusted(below):
        run.append(below)
        below = _latest_snapshot(app, match_id, below.originator_version - 1)
    return run[::-1], below


def _folded_on(
    app: StoreParts,
    match_id: UUID,
    start: Match | None,
    unchecked: list[StoredEvent],
    version: int | None,
    select: Select | None = None,
) -> Match | None:
    """Returns `start` (None: nothing) with the stored events after it up to `version`
    folded on, checked; each snapshot of `unchecked` (oldest first) is checked against
    the fold at its version: used and trusted if it agrees, logged if not."""
    after = None if start is None else (start.version, start.chain, start.seed_commitment)
    events = checked_events(app, match_id, after, version, select=select)
    match, done = start, 0
    for stored in unchecked:
        at = stored.originator_version
        upto = bisect.bisect_right(events, at, key=lambda event: event.originator_version)
        match, done = fold(match_id, events[done:upto], match), upto
        if match is not None and match.version == at:
            match = _checked_snapshot(app, match_id, stored, match) or match
    return fold(match_id, events[done:], match)


def _checked_snapshot(
    app: StoreParts, match_id: UUID, stored: StoredEvent, folded: Match
) -> Match | None:
    """Returns the snapshot's match if it agrees with the match folded from the events
    (and trusts it from now on); logs it and returns None if it does not."""
    try:
        snapshot = decoded(app, stored)
        differences = snapshot_differences(snapshot, folded)
    except Exception as error:
        differences = [f"unreadable ({type(error).__name__})"]
    if differences:
        logger.error(
            "snapshot %s of match %s differs from its events (%s); not used",
            stored.originator_version,
            match_id,
            ", ".join(differences),
        )
        return None
    app.snapshot_trust.trust(stored)
    match: Match = snapshot.mutate(None)
    return match
