"""The Celery application (``celery -A workers.celery_app worker -E``; ``... flower``).

Redis is the broker. Audit state lives in Postgres; results are ignored, except for the one
synchronous task ``claims.search`` whose answer the API waits for (stored in Redis for 5 min).
Delivery: ``acks_late`` + ``task_reject_on_worker_lost`` + prefetch 1, so a task whose worker
dies is delivered again (the tasks are idempotent). With the Redis broker an unacknowledged
message comes back after ``BROKER_VISIBILITY_TIMEOUT`` seconds (default 1 h), when a worker
restarts or keeps polling.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from celery import Celery
from celery.signals import worker_process_init, worker_ready

from workers.settings import get_settings

__all__ = ["app"]

_settings = get_settings()

app = Celery(
    "claimaudit",
    broker=_settings.redis_url,
    backend=_settings.redis_url,
    include=["workers.tasks", "workers.check_tasks"],
)
app.conf.update(
    task_default_queue=_settings.celery_queue,
    task_serializer="json",
    accept_content=["json"],
    result_serializer="json",
    task_ignore_result=True,
    result_expires=300,
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
    worker_send_task_events=True,
    task_send_sent_event=True,
    broker_connection_retry_on_startup=True,
    broker_transport_options={"visibility_timeout": _settings.broker_visibility_timeout},
    result_backend_transport_options={"visibility_timeout": _settings.broker_visibility_timeout},
    beat_schedule={
        "requeue-stale-audits": {"task": "audits.requeue_stale", "schedule": 300.0},
    },
    timezone="UTC",
)


@cast(Callable[[Callable[..., None]], Any], worker_process_init.connect)
def _reset_db_after_fork(**_: Any) -> None:
    from workers.database import reset_after_fork

    reset_after_fork()


@cast(Callable[[Callable[..., None]], Any], worker_ready.connect)
def _requeue_on_start(sender: Any = None, **_: Any) -> None:
    """When a worker starts, hand audits that never reached the broker to the queue."""
    app.send_task("audits.requeue_stale", kwargs={"only_unsent": True})
