"""Mailing the outbox: results, reminders, dispute notices and tournament seat letters
(service/channels/mail/seatletters.py), each once (docs/mail.md).

The projection `mail_outbox` (service/readmodels/mailout.py) records a row per notice and
recipient in `mail_notices`, with its tracking row, in one transaction. A pass of the
sender (the worker's task `workers.send_notices`, on beat's schedule) catches the
projection up, records the reminders now due, then sends every notice not sent yet:

1. it claims the row for a lease (`claimed_until`), so that two senders never both take it;
2. it composes the message from the stored events (a seat letter: and the token and order
   secret its row keeps until sent), with a Message-ID made of the notice's id, so that
   composing it again gives the same message;
3. it hands it to the relay (DRTS_SMTP_URL, waiting for its 250) or the maildir;
4. it marks the row sent. A relay that is down or says 4xx leaves the row for later
   (`next_attempt_at`, doubling from BACKOFF_SECONDS to MAX_BACKOFF_SECONDS); a 5xx
   marks it failed, for good.

"Never doubles" means: one row per (kind, match, event, recipient), whatever crashes or
replays; a row is handed to the relay once, except when the sender dies between the
relay's 250 and marking the row sent, where the next pass hands the same message (same
Message-ID, same bytes) again, for the relay or the reader to recognise. Nothing waits for
this: a resolution only records events.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from typing import TYPE_CHECKING, Any, Protocol
from uuid import UUID

from domain.match import Match
from service.channels.mail import bulletins, letters, seatletters
from service.channels.mail.outbox import Outbox, RefusedByRelayError
from service.readmodels.mailout import REMINDER, RESULT, notice_prefix
from service.readmodels.recorders import error_text
from service.readmodels.runner import ReadModels

if TYPE_CHECKING:
    from eventsourcing.persistence import EventStore


class NoticeSource(Protocol):
    """What the notices read of the Matches facade: the clock, the log, a match, the mail
    domain and the read models (passed in, so that the channels never import the facade:
    issue 44)."""

    @property
    def clock(self) -> Callable[[], datetime]: ...
    @property
    def events(self) -> EventStore[UUID]: ...
    @property
    def mail_domain(self) -> str: ...
    @property
    def read_models(self) -> ReadModels: ...

    def get_match(self, match_id: UUID | str, version: int | None = None) -> Match: ...


VIEW = "mail_outbox"
SEND_NOTICES = "workers.send_notices"
BATCH = 100  # notices a pass sends at most
LEASE = timedelta(minutes=5)  # a claim a dead sender left is taken again after this
BACKOFF_SECONDS, MAX_BACKOFF_SECONDS = 30.0, 3600.0
logger = logging.getLogger(__name__)


class LateReminderError(Exception):
    """Raised (recorded) when a reminder could not go out before its deadline."""

    def __str__(self) -> str:
        return "the deadline passed before the reminder could be sent: not sent"


@dataclass(frozen=True)
class Pass:
    """What one pass of the sender did: notices sent, left for later, refused for good."""

    sent: int = 0
    deferred: int = 0
    failed: int = 0


class NoticeSender:
    """Sends the outbox's notices through a transport (the relay, or the maildir)."""

    def __init__(self, matches: NoticeSource, transport: Outbox, reminder_seconds: float) -> None:
        self.matches, self.transport = matches, transport
        self.reminder = timedelta(seconds=reminder_seconds)

    def run(self) -> Pass:
        """Catches the outbox up, records the reminders due, and sends what is due."""
        self.matches.read_models.catch_up([VIEW, "deadlines"])
        if self.reminder:
            record_reminders(self.matches, self.matches.clock(), self.reminder)
        counts = {"sent": 0, "deferred": 0, "failed": 0}
        for row in self._due():
            if self._claim(row):
                counts[self._send(row)] += 1
        return Pass(**counts)

    # -- private ----------------------------------------------------------------------------

    @property
    def view(self) -> Any:
        return self.matches.read_models.view(VIEW)

    def _due(self) -> list[dict[str, Any]]:
        return list(
            self.view.query(
                "SELECT * FROM {mail_notices} WHERE sent_at IS NULL AND failed_at IS NULL "
                "AND (next_attempt_at IS NULL OR next_attempt_at <= :now) "
                f"ORDER BY recorded_at, version, notice_id LIMIT {BATCH}",
                {"now": self.matches.clock()},
            )
        )

    def _claim(self, row: dict[str, Any]) -> bool:
        """Takes the row for LEASE; False when another sender holds or sent it."""
        now = self.matches.clock()
        return bool(
            self.view.execute(
                "UPDATE {mail_notices} SET claimed_until = :until WHERE notice_id = :id "
                "AND sent_at IS NULL AND (claimed_until IS NULL OR claimed_until < :now) "
                "RETURNING notice_id",
                {"id": row["notice_id"], "until": now + LEASE, "now": now},
            )
        )

    def _send(self, row: dict[str, Any]) -> str:
        """Composes and hands on one notice; returns "sent", "deferred" or "failed" (also a
        reminder whose deadline passed while the relay was down: it would only mislead)."""
        if row["kind"] == REMINDER and row["due_at"] <= self.matches.clock():
            self._mark(row, "failed_at = :now, last_error = :error", LateReminderError())
            return "failed"
        try:
            self.transport.send(compose(self.matches, row))
        except (RefusedByRelayError, seatletters.StaleLetterError) as error:
            self._mark(row, "failed_at = :now, secret = NULL, last_error = :error", error)
            return "failed"
        except Exception as error:  # TemporaryRelayError, OSError, a store down: later
            logger.warning("notice %s not sent, tried again later: %s", row["notice_id"], error)
            delay = min(BACKOFF_SECONDS * 2 ** row["attempts"], MAX_BACKOFF_SECONDS)
            when = self.matches.clock() + timedelta(seconds=delay)
            self._mark(row, "next_attempt_at = :when, last_error = :error", error, when=when)
            return "deferred"
        self._mark(row, "sent_at = :now, secret = NULL, last_error = NULL", None)
        return "sent"

    def _mark(self, row: dict[str, Any], what: str, error: Exception | None, **more: Any) -> None:
        self.view.execute(
            f"UPDATE {{mail_notices}} SET {what}, attempts = attempts + 1, claimed_until = NULL "
            "WHERE notice_id = :id",
            {
                "id": row["notice_id"],
                "now": self.matches.clock(),
                "error": None if error is None else error_text(error),
                **more,
            },
        )


def compose(matches: NoticeSource, row: dict[str, Any]) -> EmailMessage:
    """Returns the message of a notice row: the same every time it is composed."""
    match_id, kind = row["match_id"], row["kind"]
    if kind == seatletters.SEAT:  # a tournament seat's token and order address (issue 45)
        match = matches.get_match(match_id)
        return seatletters.compose(match, matches.events.get(match_id), row, matches.mail_domain)
    if kind == REMINDER:
        subject = bulletins.reminder_subject(match_id, row["movement"])
        body = bulletins.reminder_text(match_id, row["movement"], row["seat"], row["due_at"])
    else:
        events = list(matches.events.get(match_id))
        if kind == RESULT:
            past = matches.get_match(match_id, min(row["version"] + 1, len(events)))
            subject = bulletins.result_subject(match_id, events, row["version"])
            body = bulletins.result_text(past, events, row["version"])
        else:
            event = events[row["version"] - 1]
            subject = bulletins.dispute_subject(match_id, event)
            body = bulletins.dispute_text(match_id, event)
    domain = matches.mail_domain
    key = row["movement"] if kind == REMINDER else row["version"]
    message_id = f"<{kind}-{key}-{row['seat']}.{match_id.hex}@{domain}>"  # short: unfolded
    return letters.letter(
        row["address"], subject, body, domain, row["recorded_at"], message_id=message_id
    )


def record_reminders(matches: NoticeSource, now: datetime, ahead: timedelta) -> int:
    """Records a reminder for each seat with a confirmed result address that owes an order
    for a movement whose deadline is within `ahead` of now and has not ordered; one per
    seat and movement (ON CONFLICT DO NOTHING); returns how many movements it looked at."""
    due = matches.read_models.view("deadlines").query(
        "SELECT DISTINCT d.match_id, d.movement, d.due_at FROM {deadlines} d "
        "JOIN {mail_result_addresses} r ON r.match_id = d.match_id "
        "WHERE NOT d.closed AND NOT d.ready AND d.due_at > :now AND d.due_at <= :until "
        "AND r.seat > 0 AND r.confirmed_at IS NOT NULL",
        {"now": now, "until": now + ahead},
    )
    for row in due:
        owing = _owing(matches, row["match_id"], row["movement"])
        if owing:
            _record_reminder(matches, row, owing, now)
    return len(due)


def _owing(matches: NoticeSource, match_id: Any, movement: int) -> list[int]:
    """Returns the seats that owe an order for the open `movement` and have none pending."""
    match = matches.get_match(match_id)
    if not match.is_open() or match.movement != movement or match.paused is not None:
        return []
    ordered = {p.seat for p in match.pending}
    to_move = match.rules().to_move(match.rules().load_state(match.state)).seats
    return [seat for seat in to_move if seat not in ordered]


def _record_reminder(
    matches: NoticeSource, row: dict[str, Any], seats: list[int], now: datetime
) -> None:
    matches.read_models.view(VIEW).execute(
        "INSERT INTO {mail_notices} (notice_id, kind, match_id, movement, version, seat, "
        "address, recorded_at, due_at, attempts) SELECT :prefix || CAST(r.seat AS TEXT), "
        ":kind, r.match_id, :movement, 0, r.seat, r.address, :now, :due_at, 0 "
        f"FROM {{mail_result_addresses}} r WHERE r.match_id = :match_id "
        f"AND r.confirmed_at IS NOT NULL AND r.seat IN ({', '.join(map(str, seats))}) "
        "ON CONFLICT (notice_id) DO NOTHING",
        {
            "prefix": notice_prefix(REMINDER, row["match_id"], row["movement"]),
            "kind": REMINDER,
            "match_id": row["match_id"],
            "movement": row["movement"],
            "now": now,
            "due_at": row["due_at"],
        },
    )
