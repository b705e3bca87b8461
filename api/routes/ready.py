"""``/readyz``: whether this deployment should be sent new audits now (``/healthz`` stays liveness).

``ok`` (200) when Postgres and Redis answer, at least one worker consumes ``CELERY_QUEUE`` and the
backlog is within its bounds; otherwise 503 ``degraded`` with ``Retry-After`` and every reason:

- ``database: <error>`` / ``broker: <error>``: the service does not answer;
- ``no worker consumes <queue>``: no warm worker answered the broadcast
  (``api.routes.health.count_workers``; a worker whose pool processes still warm up is not counted);
- the deployment's backlog bounds of ``service.backlog`` (``MAX_BACKLOG_AGE_S``, the oldest audit
  or a new one's expected wait; ``MAX_QUEUED_AUDITS``; 0 turns one off), with the sentence
  ``POST /audits`` refuses new audits with.

Public, like ``/healthz``: the body holds deployment-wide figures only, no tenant's data.
"""

from __future__ import annotations

import redis
from fastapi import APIRouter, Response, status
from pydantic import BaseModel, Field

from api.deps import SessionDep, SettingsDep
from api.errors import RETRY_AFTER_S
from api.routes.health import count_workers
from db import backlog
from db import repository as repo
from service.backlog import BacklogFull, check_backlog

router = APIRouter(tags=["health"])


class Readiness(BaseModel):
    """The answer of ``/readyz``."""

    status: str = Field(description="ok | degraded")
    reasons: list[str] = Field(description="Why it is degraded; empty when ok.")
    workers: int = Field(
        description="Warm workers consuming the audit queue that answered a ping (cached a few s)."
    )
    queued: int | None = Field(description="Unfinished audits of the deployment; null: database down.")
    oldest_queued_age_s: float | None = Field(
        description="Age in seconds of the oldest unfinished audit; null: none, or database down."
    )


@router.get("/readyz", response_model=Readiness, responses={503: {"model": Readiness}})
def readyz(session: SessionDep, settings: SettingsDep, response: Response) -> Readiness:
    """``ok`` or 503 ``degraded`` with the reasons (module docstring)."""
    reasons: list[str] = []
    queued: int | None = None
    oldest: float | None = None
    try:
        repo.ping(session)
        now = backlog.measure(session)
        queued, oldest = now.queued, now.oldest_age_s
    except Exception as exc:
        reasons.append(f"database: {type(exc).__name__}")
    broker_ok = True
    try:
        client = redis.Redis.from_url(settings.redis_url, socket_connect_timeout=2, socket_timeout=2)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as exc:
        broker_ok = False
        reasons.append(f"broker: {type(exc).__name__}")
    workers = count_workers(settings.celery_queue) if broker_ok else 0
    if broker_ok and workers == 0:
        reasons.append(f"no worker consumes {settings.celery_queue}")
    if queued:  # the deployment's bounds, as POST /audits applies them (no tenant's own)
        try:
            check_backlog(
                session,
                "",
                max_queued=settings.max_queued_audits,
                max_queued_per_tenant=0,
                max_age_s=settings.max_backlog_age_s,
            )
        except BacklogFull as full:
            reasons.append(full.detail)
        except Exception as exc:
            reasons.append(f"database: {type(exc).__name__}")
    if reasons:
        response.status_code = status.HTTP_503_SERVICE_UNAVAILABLE
        response.headers["Retry-After"] = str(RETRY_AFTER_S)
    return Readiness(
        status="degraded" if reasons else "ok",
        reasons=reasons,
        workers=workers,
        queued=queued,
        oldest_queued_age_s=None if oldest is None else round(oldest, 3),
    )
