"""Health: what `GET /health` and `drts status` report, and the sweep's bookkeeping.

The report is one JSON object (docs/operations.md): `status` ("healthy",
"degraded" or "unhealthy"), `checked_at`, and `checks`, one entry per part,
each with its own `status` ("ok", "warning" or "failing") and what it saw:

- `store`: the event store answers and is at the latest migration;
- `broker`: the Celery broker answers (when DRTS_BROKER_URL is set);
- `sweep`: the last successful sweep, kept in the database (`sweep_status`,
  written by the sweep task), so every API process reads the same;
- `overdue`: the oldest open movement past its deadline, and how late;
- `projections`: the read models behind the log, and the matches they left out;
- `quarantined_matches`: the matches whose resolution kept failing, which the
  sweep leaves alone until the referee retries them (a warning: the others go on);
- `open_disputes`: the disputes awaiting a referee's ruling (issue 18), always ok:
  a ruling is the referee's work, not the service's health.

Any failing check makes the service unhealthy (HTTP 503 with the same body);
a warning only makes it degraded (still 200). A new check is one more entry
of CHECKS.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from amqp.exceptions import ChannelError as AmqpChannelError
from kombu.connection import Connection
from kombu.exceptions import ChannelError as KombuChannelError

from domain.integrity import iso
from service import schema
from service.readmodels.queries import SWEPT, open_disputes
from service.readmodels.recorders import MAX_ERROR_CHARS
from service.readmodels.runner import ReadModels
from service.scheduling import QUEUE
from service.settings import Settings
from service.store.application import MatchStore
from service.usecases import quarantine

DUE_SWEEP = "due"
OK, WARNING, FAILING = "ok", "warning", "failing"
BROKER_TIMEOUT_SECONDS = 2.0
Check = dict[str, Any]


def record_sweep(models: ReadModels, at: datetime, error: Exception | None = None) -> int:
    """Records a sweep's success (or its failure, counted in a row) at `at`; returns the
    failures in a row after it (0 after a success)."""
    view = models.view("deadlines")
    if error is None:
        view.execute(SWEEP_SUCCEEDED, {"sweep": DUE_SWEEP, "at": at})
        return 0
    text = f"{type(error).__name__}: {error}"[:MAX_ERROR_CHARS]
    view.execute(SWEEP_FAILED, {"sweep": DUE_SWEEP, "at": at, "error": text})
    return int(sweep_status(models)["failures_in_row"])


def sweep_status(models: ReadModels) -> dict[str, Any]:
    """Returns the sweep's bookkeeping: last success and failure (None if never), the
    failures in a row, the last error."""
    rows = models.view("deadlines").query(
        "SELECT last_success_at, last_failure_at, failures_in_row, last_error "
        "FROM {sweep_status} WHERE sweep = :sweep",
        {"sweep": DUE_SWEEP},
    )
    empty = {"last_success_at": None, "last_failure_at": None, "failures_in_row": 0}
    return rows[0] if rows else {**empty, "last_error": None}


def broker_reachable(url: str, timeout: float = BROKER_TIMEOUT_SECONDS) -> str | None:
    """Returns None when the broker at `url` answers, else what went wrong."""
    try:
        with Connection(url, connect_timeout=timeout) as connection:  # type: ignore[no-untyped-call]
            connection.ensure_connection(max_retries=1, timeout=timeout)
            channel = connection.channel()
            try:
                channel.queue_declare(QUEUE, passive=True)
            except (AmqpChannelError, KombuChannelError):
                pass  # it answered: the queue is only not declared yet
            finally:
                channel.close()
    except Exception as error:  # any failure to reach it is the answer
        return f"{type(error).__name__}: {error}"[:MAX_ERROR_CHARS]
    return None


def health_report(matches: MatchStore, settings: Settings, now: datetime) -> dict[str, Any]:
    """Returns the health report (module docstring) of the store behind `matches`."""
    checks = {name: _guarded(check, matches, settings, now) for name, check in CHECKS.items()}
    statuses = {check["status"] for check in checks.values()}
    overall = "unhealthy" if FAILING in statuses else "degraded" if WARNING in statuses else ""
    return {"status": overall or "healthy", "checked_at": iso(now), "checks": checks}


def is_healthy(report: dict[str, Any]) -> bool:
    """Returns whether a report answers 200 (healthy or degraded) rather than 503."""
    return bool(report["status"] != "unhealthy")


# -- the checks -------------------------------------------------------------------------------


def check_store(matches: MatchStore, settings: Settings, now: datetime) -> Check:
    """The store answers and is at the latest migration."""
    env = dict(matches.env)
    if schema.backend(env) == "memory":
        return {"status": OK, "backend": "memory", "revision": None, "latest": None}
    revision, latest = schema.current(env), schema.head()
    return {
        "status": OK if revision == latest else FAILING,
        "backend": schema.backend(env),
        "revision": revision,
        "latest": latest,
    }


def check_broker(matches: MatchStore, settings: Settings, now: datetime) -> Check:
    """The broker answers; without DRTS_BROKER_URL there is none to ask (the sweep check
    still says whether anything resolves deadlines)."""
    if not settings.broker_configured:
        return {"status": OK, "configured": False, "error": None}
    error = broker_reachable(settings.broker_url)
    return {"status": OK if error is None else FAILING, "configured": True, "error": error}


def check_sweep(matches: MatchStore, settings: Settings, now: datetime) -> Check:
    """The last successful sweep is at most DRTS_HEALTH_SWEEP_SECONDS old."""
    status = sweep_status(matches.read_models)
    last = status["last_success_at"]
    age = None if last is None else max(0.0, (now - last).total_seconds())
    return {
        "status": OK if age is not None and age <= settings.sweep_stale_seconds else FAILING,
        "last_success_at": None if last is None else iso(last),
        "age_seconds": age,
        "failures_in_row": status["failures_in_row"],
        "last_error": status["last_error"],
        "threshold_seconds": settings.sweep_stale_seconds,
    }


def check_overdue(matches: MatchStore, settings: Settings, now: datetime) -> Check:
    """No open movement is later than DRTS_HEALTH_OVERDUE_SECONDS past its deadline; a
    quarantined match's movement is not counted (`quarantined_matches` reports it), nor
    an imported match's (read-only: nothing in it is ever due)."""
    models = matches.read_models
    models.catch_up(["deadlines"])
    rows = models.view("deadlines").query(
        "SELECT match_id, movement, due_at FROM {deadlines} "
        f"WHERE closed = FALSE AND due_at <= :now AND {SWEPT} "
        "ORDER BY due_at, match_id LIMIT 1",
        {"now": now},
    )
    oldest = None
    if rows:
        late = (now - rows[0]["due_at"]).total_seconds()
        oldest = {
            "match_id": str(rows[0]["match_id"]),
            "movement": rows[0]["movement"],
            "deadline": iso(rows[0]["due_at"]),
            "late_seconds": late,
        }
    failing = oldest is not None and oldest["late_seconds"] > settings.overdue_seconds
    return {
        "status": FAILING if failing else OK,
        "oldest": oldest,
        "threshold_seconds": settings.overdue_seconds,
    }


def check_projections(matches: MatchStore, settings: Settings, now: datetime) -> Check:
    """No projection has more than DRTS_HEALTH_PROJECTION_LAG events waiting; a match a
    projection left out is a warning (the rest go on)."""
    models = matches.read_models
    behind = [
        {"name": p.name, "position": p.position, "head": p.head, "pending": p.pending}
        for p in models.progress()
        if p.pending > settings.projection_lag
    ]
    quarantined = models.quarantine_count()
    status = FAILING if behind else WARNING if quarantined else OK
    return {"status": status, "behind": behind, "quarantined": quarantined}


def check_quarantined_matches(matches: MatchStore, settings: Settings, now: datetime) -> Check:
    """No match is quarantined; one that is is a warning (the sweep goes on with the others;
    its referee retries it once the cause is fixed: docs/operations.md)."""
    found = quarantine.quarantined(matches.read_models)
    listed = [
        {
            "match_id": str(item.match_id),
            "movement": item.movement,
            "error": item.error,
            "failures": item.failures,
            "quarantined_at": iso(item.quarantined_at),
        }
        for item in found
    ]
    return {"status": WARNING if listed else OK, "count": len(listed), "matches": listed[:20]}


def check_open_disputes(matches: MatchStore, settings: Settings, now: datetime) -> Check:
    """How many disputes await a ruling, over every match but the imported ones, and the
    first 20 matches holding some: always ok (the referees' work, not the service's)."""
    count, listed = open_disputes(matches.read_models)
    return {"status": OK, "count": count, "matches": listed}


CHECKS: dict[str, Callable[[MatchStore, Settings, datetime], Check]] = {
    "store": check_store,
    "broker": check_broker,
    "sweep": check_sweep,
    "overdue": check_overdue,
    "projections": check_projections,
    "quarantined_matches": check_quarantined_matches,
    "open_disputes": check_open_disputes,
}


def _guarded(
    check: Callable[[MatchStore, Settings, datetime], Check],
    matches: MatchStore,
    settings: Settings,
    now: datetime,
) -> Check:
    """Runs a check; one that raises (an unreachable database) is failing, with the error."""
    try:
        return check(matches, settings, now)
    except Exception as error:  # the report must answer whatever is broken
        return {"status": FAILING, "error": f"{type(error).__name__}: {error}"[:MAX_ERROR_CHARS]}


SWEEP_SUCCEEDED = (
    "INSERT INTO {sweep_status} (sweep, last_success_at, failures_in_row) "
    "VALUES (:sweep, :at, 0) ON CONFLICT (sweep) DO UPDATE "
    "SET last_success_at = excluded.last_success_at, failures_in_row = 0"
)
SWEEP_FAILED = (
    "INSERT INTO {sweep_status} AS s (sweep, last_failure_at, failures_in_row, last_error) "
    "VALUES (:sweep, :at, 1, :error) ON CONFLICT (sweep) DO UPDATE "
    "SET last_failure_at = excluded.last_failure_at, last_error = excluded.last_error, "
    "failures_in_row = s.failures_in_row + 1"
)
