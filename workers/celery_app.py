"""The Celery application (``celery -A workers.celery_app worker -E``; ``... flower``).

Redis is the broker. Audit state lives in Postgres; results are ignored, except for the one
synchronous task ``claims.search`` whose answer the API waits for (stored in Redis for 5 min).
Delivery: ``acks_late`` + ``task_reject_on_worker_lost`` + prefetch 1, so a task whose worker
dies is delivered again (the tasks are idempotent). With the Redis broker an unacknowledged
message comes back after ``BROKER_VISIBILITY_TIMEOUT`` seconds (default 1 h), when a worker
restarts or keeps polling; it must exceed the hard time limit of a stage (checked by
``Settings``), so a running stage is never handed out twice.

Sends: a chain's next link (sent by the worker after a stage committed) is retried by the
publisher for about 2 min (``task_publish_retry_policy``); the API and the sweeper send with
``workers.pipeline.FAST_PUBLISH`` instead, and never wait for a broker that is down. A worker
whose broker connection drops reconnects for ever (``broker_connection_max_retries=None``), also
when the drop leaves a channel on a detached transport (``workers.broker_close``).
The sweeper (``workers.sweeper.SweeperStep``) runs in every worker's main process.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from celery import Celery
from celery.schedules import crontab
from celery.signals import (
    after_setup_logger,
    after_setup_task_logger,
    worker_init,
    worker_process_init,
    worker_process_shutdown,
)
from kombu.entity import Exchange, Queue

from service.settings import get_settings
from workers import broker_close

__all__ = ["app", "warm_publisher"]

# A Redis outage at the wrong moment of the consumer's event loop made kombu end the worker with
# an AttributeError; it is a connection error instead, and the worker reconnects (workers/broker_close.py).
broker_close.install()

_settings = get_settings()

app = Celery(
    "claimaudit",
    broker=_settings.redis_url,
    backend=_settings.redis_url,
    include=["workers.tasks", "workers.bundle_tasks", "workers.run_tasks", "workers.check_tasks"],
)


def _queue(name: str) -> Queue:
    exchange = Exchange(name, type="direct")  # type: ignore[no-untyped-call]
    return Queue(name, exchange, routing_key=name)  # type: ignore[no-untyped-call]


app.conf.update(
    task_default_queue=_settings.celery_queue,
    # Searches have their own queue: a worker with ``-Q <CELERY_QUEUE>.search`` serves them while an
    # audit backlog waits in CELERY_QUEUE; a worker without -Q consumes both.
    task_queues=(_queue(_settings.celery_queue), _queue(_settings.search_queue_name)),
    task_routes={"claims.search": {"queue": _settings.search_queue_name}},
    task_serializer="json",
    accept_content=["json"],
    result_serializer="json",
    task_ignore_result=True,
    result_expires=300,
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
    # recycle a pool process past WORKER_MAX_MEMORY_MB resident after a task (KiB here; None: never)
    worker_max_memory_per_child=(_settings.worker_max_memory_mb * 1024) or None,
    worker_send_task_events=True,
    task_send_sent_event=True,
    broker_connection_retry_on_startup=True,
    broker_connection_max_retries=None,
    task_publish_retry=True,
    # 0.5 + 2.5 + 4.5 + ... capped at 10 s: about 2 min of retries before a send gives up
    task_publish_retry_policy={
        "max_retries": 15,
        "interval_start": 0.5,
        "interval_step": 2.0,
        "interval_max": 10.0,
    },
    # priority_steps: one Redis list per priority 0-9 of each queue (the audit queue and the search
    # queue alike), popped lowest first (workers.pipeline.STAGE_PRIORITY)
    broker_transport_options={
        "visibility_timeout": _settings.broker_visibility_timeout,
        "priority_steps": list(range(10)),
    },
    result_backend_transport_options={"visibility_timeout": _settings.broker_visibility_timeout},
    beat_schedule={
        "requeue-stale-audits": {"task": "audits.requeue_stale", "schedule": 300.0},
        # the suites' cron schedules live in Postgres; the tick starts the due ones (service.schedule)
        "runs-tick": {"task": "runs.tick", "schedule": float(_settings.runs_tick_s)},
        "retention": {"task": "audits.retention", "schedule": crontab(minute="0", hour="3")},
        "tenant-indexes": {"task": "claims.tenant_indexes", "schedule": crontab(minute="0", hour="4")},
    },
    timezone="UTC",
)
# The sweeper runs on each worker's event-loop timer (loaded by name: it imports the database layer).
app.steps["worker"].add("workers.sweeper:SweeperStep")


@cast(Callable[[Callable[..., None]], Any], worker_process_init.connect)
def _reset_db_after_fork(**_: Any) -> None:
    from workers.database import reset_after_fork

    reset_after_fork()


@cast(Callable[[Callable[..., None]], Any], worker_init.connect)
def _load_models_before_fork(**_: Any) -> None:
    """Load the model, the parser and the language identifier in the worker's main process,
    before its pool forks: each pool process starts with them loaded (the pages are shared until
    written), so that its own warm-up below takes a fraction of a second instead of loading them
    (measured: the first audit after start took 12x the median audit when each pool process loaded
    them itself; docs/PERFORMANCE.md, "Warm start"). No model runs here (``warm=False``).
    Then the readiness counter the pool processes inherit, and the broadcast that reports it
    (``workers.readiness``: the API lists this worker once its pool processes are warm)."""
    from workers import readiness

    _preload_or_log(warm=False)
    readiness.prepare()
    readiness.register()


@cast(Callable[[Callable[..., None]], Any], worker_process_init.connect)
def _preload_models(**_: Any) -> None:
    """Warm up each pool process in its background (the models are loaded already, inherited from
    the main process): the audit in memory (``claims.runtime.warm_up``), then the stages'
    database statements (``workers.rehearsal``, rolled back) and the broker publisher. The pool's
    start-up handshake must not wait (Celery kills a child that is not up within 4 s); the worker
    is listed by ``/healthz`` only once every pool process finished (``workers.readiness``)."""
    import threading

    def warm() -> None:
        from workers import readiness

        try:
            _warm_database_and_broker(rehearse=_preload_or_log())
        finally:
            readiness.mark_warm()

    threading.Thread(target=warm, name="preload-models", daemon=True).start()


def _warm_database_and_broker(*, rehearse: bool) -> None:
    """The pool process's database connections and each stage's statements
    (``workers.rehearsal.warm_database``: nothing stored; a database that does not answer yet is
    left to the first task, logged; rehearsed only where the local models loaded (``rehearse``)
    and the deployment's default components are the local ones), then its broker publisher
    (:func:`warm_publisher`), so that the first audit pays for neither."""
    from workers.components import local_embedder, offline_decomposer
    from workers.database import get_session_factory
    from workers.rehearsal import warm_database

    # the rehearsal runs the local models: not where the deployment does not load them
    local = local_embedder({}) and offline_decomposer({})
    warm_database(get_session_factory(), rehearse=rehearse and local)
    warm_publisher()


def warm_publisher() -> None:
    """Open this process's broker connection for sending, declare the queues, finalize the app
    (its task registry) and build the task sender, so that the first send does not pay for them.
    Best effort: with the broker down nothing happens (the first send then connects, or fails as
    it would have)."""
    import contextlib

    with contextlib.suppress(Exception), app.producer_or_acquire() as producer:
        producer.connection.ensure_connection(max_retries=1)
        for queue in app.conf.task_queues or ():
            producer.maybe_declare(queue)
    with contextlib.suppress(Exception):
        app.finalize(auto=True)
        app.amqp.send_task_message  # noqa: B018  (a cached property: the sender, built once)


def _preload_or_log(*, warm: bool = True) -> bool:
    """``preload_local_models``; a failure (a broken install: ``claims.types.ModelUnavailable``)
    is logged as CRITICAL with its traceback, not left to the thread's stderr, and returns False
    (True when it loaded). Each audit that needs the missing model then fails with the same
    error, never scored without it."""
    import logging

    from workers.components import preload_local_models

    try:
        preload_local_models(warm=warm)
    except Exception:
        logging.getLogger(__name__).critical(
            "loading the local models failed: audits that need them will fail", exc_info=True
        )
        return False
    return True


def _json_logs(logger: Any = None, **_: Any) -> None:
    """``LOG_FORMAT=json``: every handler of the worker's loggers writes ``workers.logs.JsonFormatter``."""
    if _settings.log_format != "json" or logger is None:
        return
    from workers.logs import JsonFormatter

    for handler in logger.handlers:
        handler.setFormatter(JsonFormatter())


cast(Callable[[Callable[..., None]], Any], after_setup_logger.connect)(_json_logs)
cast(Callable[[Callable[..., None]], Any], after_setup_task_logger.connect)(_json_logs)


@cast(Callable[[Callable[..., None]], Any], worker_process_shutdown.connect)
def _metrics_process_dead(pid: int | None = None, **_: Any) -> None:
    import os

    from service.metrics import mark_process_dead

    mark_process_dead(pid or os.getpid())
