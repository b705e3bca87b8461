"""``/metrics``: Prometheus text format (``workers.metrics``): worker counters and histograms, plus
audits by status and queue depth read at scrape time."""

from __future__ import annotations

from collections.abc import Mapping

from fastapi import APIRouter, Response
from prometheus_client import CONTENT_TYPE_LATEST

from api.auth import AdminCaller
from api.deps import SessionDep, SettingsDep
from db import llm_repository
from db import repository as repo
from workers.metrics import scrape

router = APIRouter(tags=["health"])


def _queue_depth(redis_url: str, queue: str) -> dict[str, int]:
    """``{queue: LLEN}``; empty when Redis does not answer (the scrape still succeeds)."""
    import redis

    try:
        client = redis.Redis.from_url(redis_url, socket_connect_timeout=0.5, socket_timeout=0.5)
        try:
            return {queue: int(client.llen(queue))}
        finally:
            client.close()
    except redis.RedisError:
        return {}


@router.get("/metrics", response_class=Response, responses={200: {"content": {CONTENT_TYPE_LATEST: {}}}})
def metrics(_caller: AdminCaller, session: SessionDep, settings: SettingsDep) -> Response:
    """Prometheus metrics of the whole deployment (needs ``admin``): audits by status, stage durations,
    verdicts, queue depth, LLM, runs, webhooks."""

    def snapshot() -> tuple[Mapping[str, int], Mapping[str, int]]:
        return repo.audits_by_status(session), _queue_depth(settings.redis_url, settings.celery_queue)

    body = scrape(
        snapshot,
        multiproc_dir=settings.prometheus_multiproc_dir,
        formats=lambda: llm_repository.response_formats(session),
    )
    return Response(content=body, media_type=CONTENT_TYPE_LATEST)
