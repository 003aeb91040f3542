"""The Celery app of drts: broker from DRTS_BROKER_URL, deadline tasks, beat's sweep.

`celery -A workers.app worker` runs the tasks of workers/tasks.py; `celery -A
workers.app beat` sends `workers.sweep_due` every DRTS_SWEEP_SECONDS and
`workers.send_notices` (the mail outbox) every 10 s, or DRTS_SWEEP_SECONDS if longer
(`drts worker`, `drts beat` and `drts run` wrap these). Tasks are acknowledged late
and prefetched one at a time, so a worker that dies mid-task leaves its task
to another; they are idempotent, so a redelivery changes nothing.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from celery import Celery, current_app
from celery.signals import worker_init, worker_process_init, worker_ready

from service.channels.mail.notices import SEND_NOTICES
from service.scheduling import QUEUE, SWEEP_DUE, transport_options
from service.settings import Settings, load_settings
from workers.broker import RESILIENCE, install_outage_log
from workers.prompt_loop import PromptLoop

BEAT_SCHEDULE_FILE = "drts-beat-schedule"
NOTICE_SECONDS = 10.0  # the outbox's passes: results and reminders need not be sooner


def create_app(settings: Settings | None = None, **overrides: Any) -> Celery:
    """Returns a Celery app for `settings` (read from the environment by default)."""
    settings = settings or load_settings()
    # workers.broker: a broker that restarts or is down at start is waited for, said once
    app = Celery(
        "drts", broker=settings.broker_url, set_as_current=False, amqp="workers.broker:AMQP"
    )
    app.conf.update(
        drts_settings=settings,
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_ignore_result=True,
        task_default_queue=QUEUE,
        enable_utc=True,
        timezone="UTC",
        **RESILIENCE,
        broker_transport_options=transport_options(settings),
        beat_schedule={
            "sweep-due": {
                "task": SWEEP_DUE,
                "schedule": settings.sweep_seconds,
                # a sweep still queued when the next one is sent is useless
                "options": {"expires": max(2 * settings.sweep_seconds, 1.0)},
            },
            "send-notices": {  # mail may wait seconds: no pass more often than NOTICE_SECONDS
                "task": SEND_NOTICES,
                "schedule": max(settings.sweep_seconds, NOTICE_SECONDS),
                "options": {"expires": 2 * max(settings.sweep_seconds, NOTICE_SECONDS)},
            },
        },
        beat_schedule_filename=BEAT_SCHEDULE_FILE,
        beat_scheduler="workers.beat:Scheduler",
        worker_consumer="workers.broker:Consumer",
        worker_hijack_root_logger=False,
    )
    app.conf.update(overrides)
    app.steps["consumer"].add(PromptLoop)  # no 10 s stalls on RabbitMQ: workers/prompt_loop.py
    install_outage_log()
    import workers.tasks  # noqa: F401  (registers the named tasks on every app)

    return app


READY_FILE_VARIABLE = "DRTS_READY_FILE"


@worker_ready.connect
def announce_ready(**_: Any) -> None:
    """Touches $DRTS_READY_FILE once the worker consumes from the broker (`drts run`
    starts beat only then)."""
    path = os.environ.get(READY_FILE_VARIABLE)
    if path:
        Path(path).touch()


_forking = {"prefork": False}  # set by worker_init in the main process; forked children see it


@worker_init.connect
def note_pool(sender: Any = None, **_: Any) -> None:
    """Notes whether this worker's pool forks children that run its tasks (prefork)."""
    pool = getattr(sender, "pool_cls", None) or "prefork"
    _forking["prefork"] = "prefork" in (pool if isinstance(pool, str) else pool.__module__)


@worker_ready.connect
def follow_log_when_ready(sender: Any = None, **_: Any) -> None:
    """Starts following the log for the read models (DRTS_FOLLOW_LOG=worker) in a worker
    whose tasks run in its own process (solo, threads); a prefork worker's children do
    it instead (`follow_log_in_child`: a psycopg pool must not cross a fork)."""
    app = getattr(sender, "app", None)
    if app is not None and "drts_settings" in app.conf and not _forking["prefork"]:
        from workers.tasks import follow_log

        follow_log(app)


@worker_process_init.connect
def follow_log_in_child(**_: Any) -> None:
    """Starts following the log in a prefork child, whose app celery made current."""
    app = current_app._get_current_object()
    if _forking["prefork"] and "drts_settings" in app.conf:
        from workers.tasks import follow_log

        follow_log(app)


app = create_app()
