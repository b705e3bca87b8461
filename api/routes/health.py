"""``/healthz`` (liveness): database and broker reachability, and how many Celery workers consume
the queue. Readiness (``/readyz``: workers and the backlog bounds as well) is ``api.routes.ready``.

``/healthz`` status codes (documented in README):

- 503 ``degraded`` when Postgres or Redis does not answer (the API cannot accept audits);
- 200 ``degraded`` with ``"workers": 0`` when both answer but no worker consuming ``CELERY_QUEUE``
  answers within ``WORKER_PING_TIMEOUT_S`` (audits are accepted and stored, but stay ``queued``
  until a worker starts; a load balancer should keep routing to this API);
- 200 ``ok`` otherwise.

The worker count comes from one Celery broadcast (``workers.port.consumers_of``: workers of other
queues on the same broker are not counted, nor a worker whose pool processes still warm up,
``workers.readiness``), cached for ``WORKER_CACHE_S`` seconds so a busy probe does not add a second
of latency to every call. Only ``celery`` is imported, never the engine.
"""

from __future__ import annotations

import threading
import time

import redis
from fastapi import APIRouter, Response, status

from api.deps import SessionDep, SettingsDep
from api.errors import RETRY_AFTER_S
from api.schemas import Health
from db import repository as repo
from service.settings import Settings
from workers import port

router = APIRouter(tags=["health"])

#: Seconds the worker broadcast waits for replies.
WORKER_PING_TIMEOUT_S = 1.0
#: Seconds a worker count is reused.
WORKER_CACHE_S = 5.0

_cache: dict[tuple[str, str], tuple[float, int]] = {}
_cache_lock = threading.Lock()


def count_workers(
    queue: str, *, timeout: float = WORKER_PING_TIMEOUT_S, max_age: float = WORKER_CACHE_S
) -> int:
    """Number of Celery workers that answer within ``timeout`` s, consume ``queue`` and are warm
    (0 on broker errors).

    Uses the broker the audits are sent to (``workers.port``); cached ``max_age`` s.
    """
    key = (port.broker_url(), queue)
    now = time.monotonic()
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None and now - hit[0] < max_age:
            return hit[1]
    count = port.consumers_of(queue, timeout=timeout)
    with _cache_lock:
        _cache[key] = (time.monotonic(), count)
    return count


def _health(session: SessionDep, settings: Settings) -> Health:
    """Postgres, Redis and the workers of ``CELERY_QUEUE`` (not counted while Redis is down)."""
    try:
        repo.ping(session)
        database = "ok"
    except Exception as exc:
        database = f"error: {type(exc).__name__}"
    try:
        client = redis.Redis.from_url(settings.redis_url, socket_connect_timeout=2, socket_timeout=2)
        client.ping()
        client.close()
        broker = "ok"
    except Exception as exc:
        broker = f"error: {type(exc).__name__}"
    services_ok = database == "ok" and broker == "ok"
    workers = count_workers(settings.celery_queue) if broker == "ok" else 0
    ok = services_ok and workers > 0
    return Health(status="ok" if ok else "degraded", database=database, redis=broker, workers=workers)


def _unavailable(response: Response) -> None:
    response.status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    response.headers["Retry-After"] = str(RETRY_AFTER_S)


@router.get("/healthz", response_model=Health, responses={503: {"model": Health}})
def healthz(session: SessionDep, settings: SettingsDep, response: Response) -> Health:
    """Liveness: ``ok`` when Postgres and Redis answer and at least one worker consumes the queue.

    503 ``degraded`` when Postgres or Redis is down; 200 ``degraded`` with ``workers: 0`` when
    only the workers are missing (audits would wait in ``queued``).
    """
    health = _health(session, settings)
    if health.database != "ok" or health.redis != "ok":
        _unavailable(response)
    return health
