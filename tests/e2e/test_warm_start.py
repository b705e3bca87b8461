"""Warm start: a worker is listed (``/healthz``'s ``workers``, ``workers.port.consumers_of``) only
once its pool processes finished their warm-up (``workers.readiness``; docs/PERFORMANCE.md,
"Warm start"). The rehearsals of the warm-up: tests/integration/test_rehearsals.py."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable

import pytest

from tests.conftest import WorkerProcess

pytestmark = [pytest.mark.services, pytest.mark.slow]

#: Seconds added to each pool process's warm-up (``CLAIMAUDIT_TEST_WARM_UP_DELAY_S``): the window
#: in which the worker answers broadcasts but must not be listed yet.
WARM_UP_DELAY_S = 8.0


def _answering(queue: str) -> bool:
    """Whether a worker consuming ``queue`` answers Celery's own ``active_queues`` broadcast (what
    ``/healthz`` counted before readiness meant warm)."""
    from workers.celery_app import app

    replies = app.control.inspect(timeout=1.0).active_queues() or {}
    return any(any(q.get("name") == queue for q in qs or []) for qs in replies.values())


def test_a_worker_is_listed_only_once_its_pool_processes_are_warm(
    start_worker: Callable[..., WorkerProcess], redis_server_url: str
) -> None:
    from workers import port

    queue = f"claimaudit-warm-{uuid.uuid4().hex[:8]}"
    env = {"CELERY_QUEUE": queue, "CLAIMAUDIT_TEST_WARM_UP_DELAY_S": str(WARM_UP_DELAY_S)}
    worker = start_worker(env, concurrency=2)  # returns once the worker logged " ready."
    started = time.monotonic()
    deadline = started + 60
    while not _answering(queue):  # its consumer runs: it answers broadcasts
        assert time.monotonic() < deadline, worker.output()[-3000:]
    answered_after = time.monotonic() - started
    assert answered_after < WARM_UP_DELAY_S, "the warm-up window passed before the worker answered"
    # alive, but its pool processes still warm up: not listed
    assert port.consumers_of(queue, timeout=1.0) == 0
    while port.consumers_of(queue, timeout=1.0) != 1:
        assert time.monotonic() < deadline, worker.output()[-3000:]
    worker.stop()
