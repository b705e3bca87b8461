"""The API's one way into the workers: enqueue audits, search through a worker, wake a run's
finisher, and count the workers that consume a queue.

``api`` imports nothing else of ``workers`` (an import-linter contract in ``pyproject.toml``).
Everything here talks to the broker; nothing loads engine code or model weights.

Errors: ``enqueue_audits`` raises the broker's connection errors at once (the audit stays
``queued`` and the sweeper sends it, ``workers.pipeline``); ``search_claims_remote`` raises
``SearchTimeout`` when no worker answers in time and ``ResultStoreDown`` when the result store
is unreachable (both answered 503 by the API).
"""

from __future__ import annotations

import contextlib
import uuid

from celery.exceptions import TimeoutError as SearchTimeout

from workers import readiness
from workers.celery_app import app, warm_publisher
from workers.pipeline import ResultStoreDown, audit_chain, bundleable, enqueue_audits, search_claims_remote

__all__ = [
    "ResultStoreDown",
    "SearchTimeout",
    "broker_url",
    "bundleable",
    "consumers_of",
    "enqueue_audits",
    "finish_run",
    "search_claims_remote",
    "warm_broker",
]


def finish_run(run_id: uuid.UUID) -> None:
    """Ask a worker to finish the run if it is complete (a sealed run with nothing pending).

    Best effort: with the broker down nothing is sent, and the scheduler's tick finishes
    complete runs instead."""
    with contextlib.suppress(Exception):
        app.send_task("runs.finish", args=[str(run_id)])


def warm_broker() -> None:
    """Open the publisher's broker connection, declare the audit queue and set up the task sender
    now (``workers.celery_app.warm_publisher``), then build and freeze an audit's chain without
    sending it (its result backend is set up on first use), so that the first audit submitted
    after start does not pay for them (about 100 ms of the API's first ``POST /audits`` on the
    development machine). Best effort: with the broker down nothing happens (the first send then
    connects, or fails as it would have)."""
    warm_publisher()
    with contextlib.suppress(Exception):
        audit_chain(uuid.uuid4()).freeze()


def broker_url() -> str:
    """The broker URL the enqueue functions send to (``CELERY_BROKER_URL`` or ``REDIS_URL``)."""
    return str(app.conf.broker_url)


def consumers_of(queue: str, *, timeout: float) -> int:
    """Number of Celery workers that answer within ``timeout`` seconds, consume ``queue`` and are
    warm (their pool processes finished their warm-up: ``workers.readiness``); 0 when the broker
    does not answer (never raises). A worker still warming up, or one without the readiness
    broadcast (an older release), is not counted."""
    try:
        replies = app.control.broadcast(readiness.COMMAND, reply=True, timeout=timeout) or []
    except Exception:
        return 0
    answers = [answer for reply in replies for answer in reply.values()]
    return sum(
        1
        for answer in answers
        if isinstance(answer, dict) and answer.get("warm") and queue in (answer.get("queues") or [])
    )
