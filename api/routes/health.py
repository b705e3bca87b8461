"""``/healthz``: database and broker reachability."""

from __future__ import annotations

import redis
from fastapi import APIRouter, Response, status

from api.deps import SessionDep, SettingsDep
from api.schemas import Health
from db import repository as repo

router = APIRouter(tags=["health"])


@router.get("/healthz", response_model=Health, responses={503: {"model": Health}})
def healthz(session: SessionDep, settings: SettingsDep, response: Response) -> Health:
    """``ok`` when Postgres and Redis both answer; 503 ``degraded`` otherwise."""
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
    ok = database == "ok" and broker == "ok"
    if not ok:
        response.status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    return Health(status="ok" if ok else "degraded", database=database, redis=broker)
