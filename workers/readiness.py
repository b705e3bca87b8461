"""When a worker counts as ready: once its pool processes finished their warm-up.

A worker's main process answers the broker's broadcasts as soon as its consumer runs, while its
pool processes still warm up in their background threads (``workers.celery_app``: the audit in
memory, the database rehearsal of ``workers.rehearsal``). An audit sent then met a pool process
that was still warming up. So the worker answers the broadcast :data:`COMMAND` (registered by
:func:`register` in the worker's main process) with its queues and whether it is warm, and the
API counts only warm workers (``workers.port.consumers_of``: ``/healthz``'s and ``/readyz``'s
``workers``).

Warm means: as many warm-ups finished (each pool process adds one to a counter shared through
the fork, :func:`mark_warm`) as the pool has processes, or :data:`WARM_UP_LIMIT_S` seconds passed
since the worker started (a warm-up that hangs must not hide the worker for ever; logged). Once
warm, a worker stays warm: a pool process replaced later (``WORKER_MAX_MEMORY_MB``) warms up
without taking its worker out of ``/healthz``. A pool without processes of its own (``solo``,
``threads``) runs no warm-up and is warm at once.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import time
from typing import Any

__all__ = ["COMMAND", "WARM_UP_LIMIT_S", "is_warm", "mark_warm", "prepare", "register", "reply"]

log = logging.getLogger(__name__)

#: The broadcast a worker answers with ``{"queues": [names], "warm": bool}``.
COMMAND = "claimaudit_queues"

#: Seconds after the worker's start past which it counts as warm whatever its pool processes did.
WARM_UP_LIMIT_S = 120.0

_warmed: Any = None  # multiprocessing.Value("i"): warm-ups finished, shared with the pool processes
_started = 0.0
_latched = False


def prepare() -> None:
    """In the worker's main process, before its pool forks (``worker_init``): a new counter of
    finished warm-ups, which the pool processes inherit."""
    global _warmed, _started, _latched
    _warmed = multiprocessing.Value("i", 0)
    _started = time.monotonic()
    _latched = False


def mark_warm() -> None:
    """In a pool process whose warm-up ended (done or failed and logged): count it. Nothing
    happens outside a worker (no counter was prepared). ``CLAIMAUDIT_TEST_WARM_UP_DELAY_S`` (tests
    only) makes a warm-up that many seconds longer."""
    time.sleep(float(os.environ.get("CLAIMAUDIT_TEST_WARM_UP_DELAY_S") or 0))
    if _warmed is not None:
        with _warmed.get_lock():
            _warmed.value += 1


def is_warm(pool: Any) -> bool:
    """Whether the worker whose pool is ``pool`` (a ``celery.concurrency`` pool) is warm (module
    docstring); latched: once True, always True."""
    global _latched
    if _latched:
        return True
    from celery.concurrency.prefork import TaskPool

    if _warmed is None or not isinstance(pool, TaskPool):
        _latched = True  # no pool processes of its own: nothing warms up
    elif _warmed.value >= int(pool.limit or 1):
        _latched = True
    elif time.monotonic() - _started > WARM_UP_LIMIT_S:
        log.warning(
            "%d of %s pool processes warm after %.0f s: the worker counts as ready anyway",
            _warmed.value,
            pool.limit,
            WARM_UP_LIMIT_S,
        )
        _latched = True
    return _latched


def reply(state: Any) -> dict[str, Any]:
    """The answer to :data:`COMMAND`: the names of the queues the worker consumes and whether it
    is warm; ``state`` is the worker's control state (``state.consumer``)."""
    consumer = state.consumer
    queues = [q.name for q in consumer.task_consumer.queues] if consumer.task_consumer else []
    return {"queues": queues, "warm": is_warm(consumer.pool)}


def register() -> None:
    """Register :data:`COMMAND` with Celery's remote control (the worker's main process, before
    its consumer starts); idempotent."""
    from celery.worker.control import Panel, inspect_command

    if COMMAND not in Panel.data:
        inspect_command(name=COMMAND)(reply)
