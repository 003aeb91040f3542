"""Match archives (docs/archive.md): one JSON document holding a match's whole event
log, written by an export and loaded into another store by an import, which verifies
it first and stores its events exactly as they were.

The document (format version 1):
`{"format": "drts-match-archive", "format_version": 1, "match_id", "ruleset",
"ruleset_version", "exported_at", "form": "public" | "full", "head": {"version",
"chain"}, "events": [every event in its public form, docs/integrity.md]}`. A finished
match shows every sealed value to anyone, so its archive is the public form; an
unfinished one is exported only to its referee (or the operator), in the full form,
a look at unrevealed secrets recorded first as a SecretViewed event (which the
archive then holds).

An import refuses, writing nothing, a document that is not such an archive
(InvalidArchiveError), one whose chain, a seal, or head fails verification
(TamperedArchiveError, naming the event), and a match id the store already holds
with other events (MatchExistsError); the same events already there make it a
no-op. The imported match is read-only (service/store/imported.py).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from domain.integrity import content_problem, first_broken_link, iso
from domain.match.timelines import timelines
from domain.rules.contract import JSON
from service.errors import InvalidArchiveError, MatchExistsError, TamperedArchiveError
from service.eventjson import public_item
from service.integrity.archive_events import rebuilt_events
from service.queries import corrections
from service.results import Document, ImportedMatch
from service.store import imported
from service.store.application import SNAPSHOT_INTERVAL

if TYPE_CHECKING:
    from service.store.application import MatchStore

FORMAT = "drts-match-archive"
FORMAT_VERSION = 1
FORMS = ("public", "full")
LOOK = "match archive with sealed values"  # SecretViewed.what of a full export
EVENT_KEYS = frozenset({"type", "version", "timestamp", "data", "chain", "sealed"})
EVENT_FIELDS = (("type", str), ("version", int), ("timestamp", str), ("data", dict), ("chain", str))
CHAIN = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Archive:
    """An archive as read: its match, ruleset, export time, form, head and events."""

    match_id: UUID
    ruleset: str
    ruleset_version: int
    exported_at: datetime
    form: str
    head: tuple[int, str]
    events: list[Document]


def document(
    app: MatchStore,
    match_id: UUID,
    form: str,
    exported_at: datetime,
    timeline: int | None = None,
) -> Document:
    """Returns the archive of a match: every stored event with its sealed values (the
    caller has checked that the form may show them). A match with corrections (or one
    asked for a `timeline`) also names the timeline shown: its number, how many there
    are, and the versions of its events (every event stays: the chain needs them)."""
    stored = list(app.events.get(match_id))
    events = [public_item(event, with_sealed=True) for event in stored]
    created = events[0]["data"]
    assert isinstance(created, dict)
    lines = timelines(stored)
    corrections.check_timeline(len(lines), timeline)
    shown: Document = {}
    if timeline is not None or len(lines) > 1:
        number = timeline or len(lines)
        shown = {
            "timeline": {
                "number": number,
                "timelines": len(lines),
                "versions": [event.originator_version for event in lines[number - 1]],
            }
        }
    return {
        **shown,
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "match_id": str(match_id),
        "ruleset": created["ruleset"],
        "ruleset_version": created["ruleset_version"],
        "exported_at": iso(exported_at),
        "form": form,
        "head": {"version": events[-1]["version"], "chain": events[-1]["chain"]},
        "events": list(events),
    }


def import_archive(app: MatchStore, source: JSON) -> ImportedMatch:
    """Verifies an archive and stores its match, read-only; a no-op if the store holds
    the same events already. Raises InvalidArchiveError, TamperedArchiveError or
    MatchExistsError before writing anything."""
    archive = read(source)
    verify(archive)
    events = rebuilt_events(archive.match_id, archive.events)
    if _present(app, archive):
        return _result(archive, stored=False)
    stored = [app.mapper.to_stored_event(event) for event in events]
    mark = (archive.form, archive.exported_at, archive.head, app.clock())
    marked = imported.mark(app.read_models, archive.match_id, *mark)
    try:
        app.recorder.insert_events(stored)
    except BaseException as error:
        if marked:
            imported.unmark(app.read_models, archive.match_id)
        if isinstance(error, IntegrityError) and _present(app, archive):
            return _result(archive, stored=False)  # a racing import stored the same events
        raise
    if len(events) >= SNAPSHOT_INTERVAL:
        app.take_snapshot(archive.match_id)
    return _result(archive, stored=True)


def read(source: JSON) -> Archive:
    """Returns the archive a JSON document holds; raises InvalidArchiveError naming what
    is wrong with its shape (its content is verified by `verify`)."""
    if not isinstance(source, dict):
        raise InvalidArchiveError("a match archive is a JSON object (docs/archive.md)")
    if source.get("format") != FORMAT:
        raise InvalidArchiveError(f"not a match archive: format is {source.get('format')!r}")
    version = source.get("format_version")
    if version != FORMAT_VERSION:
        raise InvalidArchiveError(
            f"archive format_version {version!r}: this drts reads version {FORMAT_VERSION}"
        )
    head = _field(source, "head", dict)
    return Archive(
        match_id=_match_id(source.get("match_id")),
        ruleset=_field(source, "ruleset", str),
        ruleset_version=_field(source, "ruleset_version", int),
        exported_at=_instant(source.get("exported_at")),
        form=_choice(source.get("form")),
        head=(_field(head, "version", int, "head."), _chain(head.get("chain"))),
        events=_events(source.get("events")),
    )


def verify(archive: Archive) -> None:
    """Verifies the archive's chain and seals from its match id, and that its head is its
    last event; raises TamperedArchiveError naming the event and why."""
    try:
        broken = first_broken_link(archive.match_id, archive.events)
    except UNREADABLE:
        raise _unreadable(archive) from None
    if broken is not None:
        raise TamperedArchiveError(f"event {broken.version} ({broken.type}): {broken.reason}")
    version, chain = archive.head
    last = archive.events[-1]
    if version != last["version"]:
        raise TamperedArchiveError(
            f"the archive's head is at version {version}, its events end at version "
            f"{last['version']} ({last['type']})"
        )
    if chain != last["chain"]:
        raise TamperedArchiveError(
            f"event {version} ({last['type']}): its chain differs from the archive's head"
        )
    created = archive.events[0]["data"]
    assert isinstance(created, dict)
    named = (archive.ruleset, archive.ruleset_version)
    if named != (created.get("ruleset"), created.get("ruleset_version")):
        raise TamperedArchiveError(
            f"event 1 (Created): the match is {created.get('ruleset')} version "
            f"{created.get('ruleset_version')}, the archive says {named[0]} version {named[1]}"
        )


UNREADABLE = (KeyError, TypeError, ValueError, AttributeError, IndexError)


def _unreadable(archive: Archive) -> InvalidArchiveError:
    """Returns the error naming the first event whose seals cannot even be read."""
    for item in archive.events:
        try:
            content_problem(item)
        except UNREADABLE as error:
            return InvalidArchiveError(
                f"event {item['version']} ({item['type']}) cannot be verified: "
                f"{type(error).__name__}: {error}"
            )
    return InvalidArchiveError("the archive's events cannot be verified")


def _present(app: MatchStore, archive: Archive) -> bool:
    """Returns whether the store holds the archive's match with the same events; raises
    MatchExistsError naming the first difference when it holds it with others."""
    stored = app.recorder.select_events(archive.match_id)
    if not stored:
        return False
    items = [public_item(app.mapper.to_domain_event(row), with_sealed=True) for row in stored]
    for item, archived in zip(items, archive.events, strict=False):
        if item != archived:
            raise MatchExistsError(
                f"match {archive.match_id} is already in this store and differs from the "
                f"archive at event {item['version']} ({item['type']})"
            )
    if len(items) != len(archive.events):
        raise MatchExistsError(
            f"match {archive.match_id} is already in this store with {len(items)} events, "
            f"the archive has {len(archive.events)}"
        )
    return True


def _result(archive: Archive, stored: bool) -> ImportedMatch:
    return ImportedMatch(
        archive.match_id,
        archive.ruleset,
        archive.ruleset_version,
        archive.form,
        len(archive.events),
        {"version": archive.head[0], "chain": archive.head[1]},
        stored,
    )


def _events(value: JSON) -> list[Document]:
    if not isinstance(value, list) or not value:
        raise InvalidArchiveError("the archive's events must be a non-empty list")
    for index, item in enumerate(value, 1):
        where = f"events[{index - 1}]"
        if not isinstance(item, dict) or not EVENT_KEYS - {"sealed"} <= set(item):
            raise InvalidArchiveError(
                f"{where} is not an event: an object with type, version, timestamp, data, chain"
            )
        if set(item) - EVENT_KEYS:
            raise InvalidArchiveError(f"{where} has unknown keys {sorted(set(item) - EVENT_KEYS)}")
        for key, kind in EVENT_FIELDS:
            _field(item, key, kind, f"{where}.")
        if not isinstance(item.get("sealed", {}), dict):
            raise InvalidArchiveError(f"{where}.sealed must be an object")
    return value


def _field(source: Mapping[str, Any], key: str, kind: type, prefix: str = "") -> Any:
    value = source.get(key)
    if not isinstance(value, kind) or isinstance(value, bool) is not (kind is bool):
        raise InvalidArchiveError(f"the archive's {prefix}{key} must be a {kind.__name__}")
    return value


def _match_id(value: JSON) -> UUID:
    try:
        match_id = UUID(str(value))
    except ValueError:
        match_id = None
    if match_id is None or str(match_id) != value:
        raise InvalidArchiveError(f"the archive's match_id {value!r} is not a match id")
    return match_id


def _instant(value: JSON) -> datetime:
    try:
        moment = datetime.fromisoformat(str(value))
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        raise InvalidArchiveError(f"the archive's exported_at {value!r} is not an instant")
    return moment


def _choice(value: JSON) -> str:
    if value not in FORMS:
        raise InvalidArchiveError(f"the archive's form {value!r} is not public or full")
    return str(value)


def _chain(value: JSON) -> str:
    if not isinstance(value, str) or not CHAIN.fullmatch(value):
        raise InvalidArchiveError(f"the archive's head.chain {value!r} is not a chain value")
    return value
